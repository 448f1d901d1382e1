// SPDX-License-Identifier: GPL-2.0
/*
 * Record decoding driven by sample_type, following the layout documented
 * in perf_event_open(2).  Every read is bounds-checked against the record
 * size so that a malformed record yields -EINVAL, never an overread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sample.h"

struct cursor {
	const unsigned char *p, *end;
};

static int take(struct cursor *c, size_t n, const void **out)
{
	if ((size_t)(c->end - c->p) < n)
		return -EINVAL;
	*out = c->p;
	c->p += n;
	return 0;
}

static int take_u64(struct cursor *c, u64 *v)
{
	const void *p;

	if (take(c, 8, &p))
		return -EINVAL;
	memcpy(v, p, 8);
	return 0;
}

static int take_u32x2(struct cursor *c, u32 *a, u32 *b)
{
	const void *p;
	u32 v[2];

	if (take(c, 8, &p))
		return -EINVAL;
	memcpy(v, p, 8);
	*a = v[0];
	*b = v[1];
	return 0;
}

static unsigned read_format_size(u64 read_format)
{
	unsigned n = 1; /* value */

	if (read_format & PERF_FORMAT_ID)
		n++;
	if (read_format & PERF_FORMAT_LOST)
		n++;
	return n;
}

static unsigned long nr_parsed;

unsigned long sample__nr_parsed(void)
{
	return nr_parsed;
}

int sample__time(const struct perf_event_header *hdr, u64 st, u64 *time, u32 *tid)
{
	const unsigned char *p = (const unsigned char *)(hdr + 1);
	/* (no __builtin_popcountll: without -mpopcnt it is a libgcc call per record) */
	unsigned before = (st & PERF_SAMPLE_IDENTIFIER ? 8 : 0) + (st & PERF_SAMPLE_IP ? 8 : 0);
	unsigned need = before + (st & PERF_SAMPLE_TID ? 8 : 0) + (st & PERF_SAMPLE_TIME ? 8 : 0);

	*time = 0;
	if (tid)
		*tid = 0;
	if (hdr->size < sizeof(*hdr) + need)
		return -EINVAL;
	p += before;
	if (st & PERF_SAMPLE_TID) {
		if (tid)
			memcpy(tid, p + 4, 4);
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME)
		memcpy(time, p, 8);
	return 0;
}

int sample__id_time(const struct perf_event_header *hdr, u64 st, u64 *time)
{
	unsigned size = sample__id_size(st);
	const unsigned char *p;

	*time = 0;
	if (hdr->size < sizeof(*hdr) + size)
		return -EINVAL;
	p = (const unsigned char *)hdr + hdr->size - size;
	if (st & PERF_SAMPLE_TIME)
		memcpy(time, p + (st & PERF_SAMPLE_TID ? 8 : 0), 8);
	return 0;
}

int sample__parse(const struct perf_event_header *hdr, u64 st, u64 read_format, u64 regs_user_mask,
		  struct sample *s)
{
	return sample__parse_intr(hdr, st, read_format, regs_user_mask, 0, s);
}

int sample__parse_intr(const struct perf_event_header *hdr, u64 st, u64 read_format,
		       u64 regs_user_mask, u64 regs_intr_mask, struct sample *s)
{
	struct cursor c = { (const unsigned char *)(hdr + 1),
			    (const unsigned char *)hdr + hdr->size };
	u32 res;
	u64 v;
	const void *p;

	nr_parsed++;
	memset(s, 0, sizeof(*s));
	s->type = hdr->type;
	s->misc = hdr->misc;
	s->sample_type = st;
	s->cpu = (u32)-1;
	if (hdr->size < sizeof(*hdr))
		return -EINVAL;
	if ((st & PERF_SAMPLE_IDENTIFIER) && take_u64(&c, &s->id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_IP) && take_u64(&c, &s->ip))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TID) && take_u32x2(&c, &s->pid, &s->tid))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TIME) && take_u64(&c, &s->time))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ADDR) && take_u64(&c, &s->addr))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ID) && take_u64(&c, &s->id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_STREAM_ID) && take_u64(&c, &s->stream_id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CPU) && take_u32x2(&c, &s->cpu, &res))
		return -EINVAL;
	if ((st & PERF_SAMPLE_PERIOD) && take_u64(&c, &s->period))
		return -EINVAL;
	if (st & PERF_SAMPLE_READ) {
		u64 words;

		if (read_format & PERF_FORMAT_GROUP) {
			if (take_u64(&c, &s->read_nr) || s->read_nr > 4096)
				return -EINVAL;
			words = s->read_nr * read_format_size(read_format);
		} else {
			s->read_nr = 1;
			words = read_format_size(read_format);
		}
		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			words++;
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			words++;
		if (take(&c, words * 8, &p))
			return -EINVAL;
		s->read_values = p;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (take_u64(&c, &s->nr_ips) || s->nr_ips > 65536)
			return -EINVAL;
		if (take(&c, s->nr_ips * 8, &p))
			return -EINVAL;
		s->ips = p;
	}
	if (st & PERF_SAMPLE_RAW) {
		const void *sz;

		if (take(&c, 4, &sz))
			return -EINVAL;
		memcpy(&s->raw_size, sz, 4);
		if (take(&c, s->raw_size, &p))
			return -EINVAL;
		s->raw = p;
		/* size + data are padded to 8 bytes by the kernel */
		c.p = (const unsigned char *)hdr +
		      (((size_t)(c.p - (const unsigned char *)hdr) + 7) & ~(size_t)7);
		if (c.p > c.end)
			return -EINVAL;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK)
		return -EINVAL; /* never requested: layout depends on branch_sample_type */
	if (st & PERF_SAMPLE_REGS_USER) {
		if (take_u64(&c, &s->regs_abi))
			return -EINVAL;
		if (s->regs_abi) {
			s->regs_mask = regs_user_mask;
			s->nr_regs = __builtin_popcountll(regs_user_mask);
			if (take(&c, (size_t)s->nr_regs * 8, &p))
				return -EINVAL;
			s->regs = p;
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		if (take_u64(&c, &s->stack_size))
			return -EINVAL;
		if (s->stack_size) {
			if (take(&c, s->stack_size, &p))
				return -EINVAL;
			s->stack = p;
			if (take_u64(&c, &s->stack_dyn_size))
				return -EINVAL;
			if (s->stack_dyn_size > s->stack_size)
				s->stack_dyn_size = s->stack_size;
		}
	}
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) && take_u64(&c, &s->weight))
		return -EINVAL;
	if ((st & PERF_SAMPLE_DATA_SRC) && take_u64(&c, &s->data_src))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TRANSACTION) && take_u64(&c, &v))
		return -EINVAL;
	if (st & PERF_SAMPLE_REGS_INTR) {
		if (take_u64(&c, &s->intr_abi))
			return -EINVAL;
		if (s->intr_abi) {
			s->intr_mask = regs_intr_mask;
			s->nr_intr = __builtin_popcountll(regs_intr_mask);
			if (take(&c, (size_t)s->nr_intr * 8, &p))
				return -EINVAL;
			s->intr_regs = p;
		}
	}
	return 0;
}

unsigned sample__id_size(u64 st)
{
	unsigned n = 0;

	n += !!(st & PERF_SAMPLE_TID);
	n += !!(st & PERF_SAMPLE_TIME);
	n += !!(st & PERF_SAMPLE_ID);
	n += !!(st & PERF_SAMPLE_STREAM_ID);
	n += !!(st & PERF_SAMPLE_CPU);
	n += !!(st & PERF_SAMPLE_IDENTIFIER);
	return n * 8;
}

int sample__parse_id(const struct perf_event_header *hdr, u64 st, struct sample *s)
{
	unsigned size = sample__id_size(st);
	struct cursor c;
	u32 res;

	memset(s, 0, sizeof(*s));
	s->type = hdr->type;
	s->misc = hdr->misc;
	s->cpu = (u32)-1;
	if (hdr->size < sizeof(*hdr) + size)
		return -EINVAL;
	c.p = (const unsigned char *)hdr + hdr->size - size;
	c.end = (const unsigned char *)hdr + hdr->size;
	if ((st & PERF_SAMPLE_TID) && take_u32x2(&c, &s->pid, &s->tid))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TIME) && take_u64(&c, &s->time))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ID) && take_u64(&c, &s->id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_STREAM_ID) && take_u64(&c, &s->stream_id))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CPU) && take_u32x2(&c, &s->cpu, &res))
		return -EINVAL;
	if ((st & PERF_SAMPLE_IDENTIFIER) && take_u64(&c, &s->id))
		return -EINVAL;
	return 0;
}

/* A NUL-terminated string that starts at @off and lies inside the record. */
static const char *rec_string(const struct perf_event_header *hdr, size_t off)
{
	const char *p = (const char *)hdr + off;

	if (off >= hdr->size || !memchr(p, 0, hdr->size - off))
		return NULL;
	return p;
}

int rec__comm(const struct perf_event_header *hdr, struct rec_comm *c)
{
	const u32 *w = (const u32 *)(hdr + 1);

	if (hdr->size < sizeof(*hdr) + 9)
		return -EINVAL;
	c->pid = w[0];
	c->tid = w[1];
	c->comm = rec_string(hdr, sizeof(*hdr) + 8);
	c->exec = !!(hdr->misc & PERF_RECORD_MISC_COMM_EXEC);
	c->time = 0;
	return c->comm ? 0 : -EINVAL;
}

int rec__task(const struct perf_event_header *hdr, struct rec_task *t)
{
	const unsigned char *p = (const unsigned char *)(hdr + 1);

	if (hdr->size < sizeof(*hdr) + 24)
		return -EINVAL;
	memcpy(&t->pid, p, 4);
	memcpy(&t->ppid, p + 4, 4);
	memcpy(&t->tid, p + 8, 4);
	memcpy(&t->ptid, p + 12, 4);
	memcpy(&t->time, p + 16, 8);
	return 0;
}

int rec__mmap2(const struct perf_event_header *hdr, struct rec_mmap2 *m)
{
	const unsigned char *p = (const unsigned char *)(hdr + 1);
	/* pid tid addr len pgoff (maj min ino ino_gen | build-id) prot flags filename */
	const size_t fixed = 4 + 4 + 8 + 8 + 8 + 24 + 4 + 4;

	if (hdr->size < sizeof(*hdr) + fixed + 1)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	memcpy(&m->pid, p, 4);
	memcpy(&m->tid, p + 4, 4);
	memcpy(&m->addr, p + 8, 8);
	memcpy(&m->len, p + 16, 8);
	memcpy(&m->pgoff, p + 24, 8);
	if (hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		m->has_build_id = true;
		m->build_id_size = p[32];
		if (m->build_id_size > 20)
			m->build_id_size = 20;
		m->build_id = p + 36;
	} else {
		memcpy(&m->maj, p + 32, 4);
		memcpy(&m->min, p + 36, 4);
		memcpy(&m->ino, p + 40, 8);
	}
	memcpy(&m->prot, p + 56, 4);
	memcpy(&m->flags, p + 60, 4);
	m->filename = rec_string(hdr, sizeof(*hdr) + fixed);
	return m->filename ? 0 : -EINVAL;
}

int rec__lost(const struct perf_event_header *hdr, struct rec_lost *l)
{
	const unsigned char *p = (const unsigned char *)(hdr + 1);

	if (hdr->type == PERF_RECORD_LOST_SAMPLES) {
		if (hdr->size < sizeof(*hdr) + 8)
			return -EINVAL;
		l->id = 0;
		memcpy(&l->lost, p, 8);
		return 0;
	}
	if (hdr->size < sizeof(*hdr) + 16)
		return -EINVAL;
	memcpy(&l->id, p, 8);
	memcpy(&l->lost, p + 8, 8);
	return 0;
}

int rec__switch(const struct perf_event_header *hdr, u64 sample_type, struct rec_switch *sw)
{
	const unsigned char *p = (const unsigned char *)(hdr + 1);
	struct sample id;

	if (sample__parse_id(hdr, sample_type, &id))
		return -EINVAL;
	memset(sw, 0, sizeof(*sw));
	sw->pid = id.pid;
	sw->tid = id.tid;
	sw->time = id.time;
	sw->cpu = id.cpu;
	sw->out = !!(hdr->misc & PERF_RECORD_MISC_SWITCH_OUT);
	sw->preempt = !!(hdr->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	if (hdr->type == PERF_RECORD_SWITCH_CPU_WIDE) {
		if (hdr->size < sizeof(*hdr) + 8 + sample__id_size(sample_type))
			return -EINVAL;
		memcpy(&sw->other_pid, p, 4);
		memcpy(&sw->other_tid, p + 4, 4);
	}
	return 0;
}

int sample_copy__save(struct sample_copy *c, const struct sample *smp, bool raw)
{
	size_t n_ips = smp->nr_ips * sizeof(u64), n_regs = smp->nr_regs * sizeof(u64);
	size_t n_intr = smp->intr_regs ? smp->nr_intr * sizeof(u64) : 0;
	/* only the part the kernel copied: the rest is stale ring-buffer bytes */
	size_t n_stack = smp->stack ? smp->stack_dyn_size : 0;
	size_t n_raw = raw && smp->raw ? smp->raw_size : 0;
	size_t need = n_ips + n_regs + n_intr + n_stack + n_raw;
	char *p;

	if (need > c->cap) {
		p = realloc(c->buf, need);
		if (!p) {
			c->valid = false;
			return -ENOMEM;
		}
		c->buf = p;
		c->cap = need;
	}
	c->smp = *smp;
	c->smp.read_nr = 0;
	c->smp.read_values = NULL;
	p = c->buf;
	if (!p) { /* nothing to copy: no buffer, and no offsets from NULL */
		c->smp.ips = NULL;
		c->smp.regs = c->smp.intr_regs = NULL;
		c->smp.stack = c->smp.raw = NULL;
		c->smp.stack_size = c->smp.stack_dyn_size = 0;
		c->smp.raw_size = 0;
		c->valid = true;
		return 0;
	}
	if (n_ips)
		memcpy(p, smp->ips, n_ips);
	c->smp.ips = n_ips ? (const u64 *)p : NULL;
	p += n_ips;
	if (n_regs)
		memcpy(p, smp->regs, n_regs);
	c->smp.regs = n_regs ? (const u64 *)p : NULL;
	p += n_regs;
	if (n_intr)
		memcpy(p, smp->intr_regs, n_intr);
	c->smp.intr_regs = n_intr ? (const u64 *)p : NULL;
	p += n_intr;
	if (n_stack)
		memcpy(p, smp->stack, n_stack);
	c->smp.stack = n_stack ? p : NULL;
	c->smp.stack_size = n_stack;
	c->smp.stack_dyn_size = n_stack;
	p += n_stack;
	if (n_raw)
		memcpy(p, smp->raw, n_raw);
	c->smp.raw = n_raw ? p : NULL;
	c->smp.raw_size = n_raw;
	c->valid = true;
	return 0;
}

void sample_copy__free(struct sample_copy *c)
{
	free(c->buf);
	c->buf = NULL;
	c->cap = 0;
	c->valid = false;
}
