// SPDX-License-Identifier: GPL-2.0
/*
 * A sample is decoded once per delivery, whatever the path it takes from
 * the ring buffers: straight to the profiler, through the time order
 * (--order), past --sampling-limit into the order, or from the copies
 * of an --overwrite read.  Rings are filled in memory with samples of
 * five events whose sample_types mix every field the engine decodes
 * (IP, ADDR, PERIOD, a group READ, CALLCHAIN, RAW, REGS_USER, STACK_USER,
 * WEIGHT, DATA_SRC, REGS_INTR) and with COMM records; the rings are then
 * read by the loop's own code.  A hook checks every field of every
 * sample it gets against what was written, and the order where the path
 * promises one; sample__nr_parsed counts the decodes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/rate.h"
#include "engine/session_int.h"
#include "synth.h"
#include "ut.h"

#define T0 7000000000ULL
#define STEP 1000ULL
#define NR 240	 /* samples */
#define PAGES 16 /* per ring */
#define NR_EV 5

static const u64 types[NR_EV] = {
	PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
	PERF_SAMPLE_RAW | PERF_SAMPLE_CALLCHAIN,
	PERF_SAMPLE_IP | PERF_SAMPLE_READ,
	PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
	PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_REGS_INTR,
};
#define RF (PERF_FORMAT_GROUP | PERF_FORMAT_ID)
#define UMASK 0x7ULL  /* three user registers */
#define IMASK 0x30ULL /* two interrupted registers */

/* What sample @k holds, field by field, all derived from k. */
static u64 k_time(unsigned k)
{
	return T0 + k * STEP;
}

static u32 k_tid(unsigned k)
{
	return 100 + k % 7;
}

static unsigned k_nr_ips(unsigned k)
{
	return 1 + k % 4;
}

static u32 k_raw_size(unsigned k)
{
	return 4 + k % 5;
}

/* Sample @k of @ev on ring @cpu, as the kernel lays it out for its sample_type. */
static void sample_rec(struct synth *r, const struct evsel *ev, unsigned k, u32 cpu)
{
	u64 st = ev->attr.sample_type;

	r->len = sizeof(struct perf_event_header);
	synth__u64(r, session__inject_id(ev)); /* IDENTIFIER */
	if (st & PERF_SAMPLE_IP)
		synth__u64(r, 0x1000 + k);
	synth__u32x2(r, k_tid(k), k_tid(k));
	synth__u64(r, k_time(k));
	if (st & PERF_SAMPLE_ADDR)
		synth__u64(r, 0x2000 + k);
	synth__u32x2(r, cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		synth__u64(r, k + 1);
	if (st & PERF_SAMPLE_READ) { /* a group of two, with ids */
		synth__u64(r, 2);
		synth__u64(r, k);
		synth__u64(r, 11);
		synth__u64(r, 2 * k);
		synth__u64(r, 12);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		synth__u64(r, k_nr_ips(k));
		for (unsigned j = 0; j < k_nr_ips(k); j++)
			synth__u64(r, 0xffffffff81000000ULL + k * 16 + j);
	}
	if (st & PERF_SAMPLE_RAW) {
		u32 n = k_raw_size(k);
		unsigned char pad[8] = { 0 };

		synth__put(r, &n, 4);
		for (u32 j = 0; j < n; j++) {
			unsigned char c = (unsigned char)(k + j);

			synth__put(r, &c, 1);
		}
		synth__put(r, pad, (8 - (4 + n) % 8) % 8);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		synth__u64(r, PERF_SAMPLE_REGS_ABI_64);
		for (int j = 0; j < 3; j++)
			synth__u64(r, k + j);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		synth__u64(r, 16);
		for (int j = 0; j < 2; j++)
			synth__u64(r, 0x0101010101010101ULL * ((k + j) & 0xff));
		synth__u64(r, 8);
	}
	if (st & PERF_SAMPLE_WEIGHT)
		synth__u64(r, 3 * k);
	if (st & PERF_SAMPLE_DATA_SRC)
		synth__u64(r, 5 * k);
	if (st & PERF_SAMPLE_REGS_INTR) {
		synth__u64(r, PERF_SAMPLE_REGS_ABI_64);
		synth__u64(r, k + 10);
		synth__u64(r, k + 11);
	}
	synth__finish(r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
}

/* COMM "c<k>" of thread k_tid(k), half a step after sample k. */
static void comm_rec(struct synth *r, unsigned k, u32 cpu)
{
	char comm[16] = { 0 };

	r->len = sizeof(struct perf_event_header);
	synth__u32x2(r, k_tid(k), k_tid(k));
	snprintf(comm, sizeof(comm), "c%u", k);
	synth__put(r, comm, sizeof(comm));
	/* the sample_id trailer: BASE_SAMPLE_TYPE */
	synth__u32x2(r, k_tid(k), k_tid(k));
	synth__u64(r, k_time(k) + STEP / 2);
	synth__u32x2(r, cpu, 0);
	synth__u64(r, 1);
	synth__finish(r, PERF_RECORD_COMM, PERF_RECORD_MISC_KERNEL);
}

struct seen {
	struct evsel *evs[NR_EV];
	unsigned nr, nr_comm, bad;
	u64 last_time; /* of the last sample or COMM delivered */
	bool ordered;  /* the path promises time order */
	u64 lost;
	char why[160];
};

static void fail(struct seen *w, const char *why, unsigned k)
{
	if (!w->bad++)
		snprintf(w->why, sizeof(w->why), "sample %u: %s", k, why);
}

static void on_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct seen *w = priv;
	unsigned k = (unsigned)((smp->time - T0) / STEP), e = k % NR_EV;
	u64 st = ev->attr.sample_type;

	(void)s;
	w->nr++;
	if (smp->time < T0 || (smp->time - T0) % STEP || k >= NR)
		return fail(w, "time", k);
	if (w->ordered && smp->time < w->last_time)
		return fail(w, "out of order", k);
	w->last_time = smp->time;
	if (ev != w->evs[e] || smp->sample_type != st || smp->id != session__inject_id(ev))
		return fail(w, "event", k);
	if (smp->pid != k_tid(k) || smp->tid != k_tid(k) || smp->cpu > 1)
		return fail(w, "pid/tid/cpu", k);
	if (smp->ip != (st & PERF_SAMPLE_IP ? 0x1000 + k : 0) ||
	    smp->addr != (st & PERF_SAMPLE_ADDR ? 0x2000 + k : 0) ||
	    smp->period != (st & PERF_SAMPLE_PERIOD ? k + 1 : 0))
		return fail(w, "ip/addr/period", k);
	if (st & PERF_SAMPLE_READ) {
		const u64 *v = smp->read_values;

		if (smp->read_nr != 2 || !v || v[0] != k || v[1] != 11 || v[2] != 2 * k ||
		    v[3] != 12)
			return fail(w, "read", k);
	} else if (smp->read_nr || smp->read_values) {
		return fail(w, "read (none)", k);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (smp->nr_ips != k_nr_ips(k))
			return fail(w, "callchain depth", k);
		for (unsigned j = 0; j < k_nr_ips(k); j++)
			if (smp->ips[j] != 0xffffffff81000000ULL + k * 16 + j)
				return fail(w, "callchain", k);
	} else if (smp->nr_ips || smp->ips) {
		return fail(w, "callchain (none)", k);
	}
	if (st & PERF_SAMPLE_RAW) {
		const unsigned char *raw = smp->raw;

		if (smp->raw_size != k_raw_size(k))
			return fail(w, "raw size", k);
		for (u32 j = 0; j < smp->raw_size; j++)
			if (raw[j] != (unsigned char)(k + j))
				return fail(w, "raw", k);
	} else if (smp->raw_size || smp->raw) {
		return fail(w, "raw (none)", k);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		const unsigned char *stack = smp->stack;

		if (smp->regs_abi != PERF_SAMPLE_REGS_ABI_64 || smp->regs_mask != UMASK ||
		    smp->nr_regs != 3 || smp->regs[0] != k || smp->regs[2] != k + 2)
			return fail(w, "user regs", k);
		if (smp->stack_size != 16 || smp->stack_dyn_size != 8 || !stack ||
		    stack[0] != (unsigned char)k || stack[15] != (unsigned char)(k + 1))
			return fail(w, "user stack", k);
	} else if (smp->nr_regs || smp->stack_size) {
		return fail(w, "user regs (none)", k);
	}
	if (smp->weight != (st & PERF_SAMPLE_WEIGHT ? 3 * k : 0) ||
	    smp->data_src != (st & PERF_SAMPLE_DATA_SRC ? 5 * k : 0))
		return fail(w, "weight/data_src", k);
	if (st & PERF_SAMPLE_REGS_INTR) {
		if (smp->intr_abi != PERF_SAMPLE_REGS_ABI_64 || smp->intr_mask != IMASK ||
		    smp->nr_intr != 2 || smp->intr_regs[0] != k + 10 || smp->intr_regs[1] != k + 11)
			return fail(w, "interrupted regs", k);
	} else if (smp->nr_intr) {
		return fail(w, "interrupted regs (none)", k);
	}
}

static void on_comm(struct session *s, void *priv, const struct rec_comm *c)
{
	struct seen *w = priv;
	unsigned k = (unsigned)atoi(c->comm + 1);
	u64 time = k_time(k) + STEP / 2;

	(void)s;
	w->nr_comm++;
	if (c->tid != k_tid(k))
		return fail(w, "comm's tid", k);
	if (w->ordered && time < w->last_time)
		return fail(w, "comm out of order", k);
	w->last_time = time;
}

static void on_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	struct seen *w = priv;

	(void)s;
	(void)cpu;
	w->lost += nr;
}

static const struct session_ops ops = {
	.sample = on_sample,
	.comm = on_comm,
	.lost = on_lost,
};

/* A ring of PAGES data pages in anonymous memory, as ring__munmap frees it. */
static void fake_ring(struct ring *r, int cpu)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	void *base = mmap(NULL, (PAGES + 1) * psz, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (base == MAP_FAILED)
		abort();
	memset(r, 0, sizeof(*r));
	r->meta = base;
	r->data = (unsigned char *)base + psz;
	r->size = PAGES * psz;
	r->fd = -1;
	r->cpu = cpu;
}

/* Where sample (or COMM) k goes: runs of three on each ring, times rising in each. */
static int ring_of(unsigned k)
{
	return (int)(k / 3 % 2);
}

/*
 * A forward ring: records from the start of the data area, data_head after
 * them.  A backward one (--overwrite): written newest first, down from 0.
 */
static void write_rings(struct session *s, struct seen *w, bool backward)
{
	static struct synth recs[2][2 * NR];
	size_t n[2] = { 0 };
	struct synth r;

	for (unsigned k = 0; k < NR; k++) {
		int b = ring_of(k);

		sample_rec(&r, w->evs[k % NR_EV], k, (u32)b);
		recs[b][n[b]++] = r;
		if (k % 10 == 0) {
			comm_rec(&r, k, (u32)b);
			recs[b][n[b]++] = r;
		}
	}
	for (int b = 0; b < 2; b++) {
		struct ring *rg = &s->perf.bufs[b].ring;
		u64 pos = 0;

		if (!backward) {
			for (size_t i = 0; i < n[b]; i++, pos += recs[b][i - 1].len)
				memcpy(rg->data + pos, recs[b][i].b, recs[b][i].len);
			rg->meta->data_head = pos;
			continue;
		}
		for (size_t i = 0; i < n[b]; i++) { /* the oldest first, each below the last */
			pos -= recs[b][i].len;
			memcpy(rg->data + (pos & (rg->size - 1)), recs[b][i].b, recs[b][i].len);
		}
		rg->meta->data_head = pos;
	}
}

enum path { DIRECT, ORDER, ORDER_LIMIT, OVERWRITE };
static const char *const path_name[] = { "direct", "--order", "--order --sampling-limit",
					 "--overwrite" };

/*
 * The samples and COMMs of write_rings through @path: what the hook saw
 * in @w, the decodes in *@parsed.
 */
static int run_path(enum path path, struct seen *w, unsigned long *parsed)
{
	struct run_opts run = { .sampling_limit = 2 };
	struct engine_conf conf = { 0 };
	struct session *s;
	unsigned long before;
	int err = 0;

	memset(w, 0, sizeof(*w));
	w->ordered = path != DIRECT;
	if (path == ORDER_LIMIT)
		conf.run = &run;
	s = session__new(&conf, stdout);
	if (!s)
		return -ENOMEM;
	for (int e = 0; e < NR_EV; e++) {
		char name[16];

		snprintf(name, sizeof(name), "ev%d", e);
		w->evs[e] = session__add_event(
			s,
			&(struct evsel_conf){ .type = PERF_TYPE_SOFTWARE,
					      .config = PERF_COUNT_SW_CPU_CLOCK,
					      .extra_sample_type = types[e],
					      .read_format = types[e] & PERF_SAMPLE_READ ? RF : 0,
					      .name = name });
		if (!w->evs[e])
			return -ENOMEM;
		w->evs[e]->attr.sample_regs_user = types[e] & PERF_SAMPLE_REGS_USER ? UMASK : 0;
		w->evs[e]->attr.sample_regs_intr = types[e] & PERF_SAMPLE_REGS_INTR ? IMASK : 0;
	}
	if (session__add_ops(s, &ops, w) || session__inject_begin(s))
		return -ENOMEM;
	s->perf.bufs = calloc(2, sizeof(*s->perf.bufs));
	if (!s->perf.bufs)
		return -ENOMEM;
	s->perf.nr_bufs = 2;
	fake_ring(&s->perf.bufs[0].ring, 0);
	fake_ring(&s->perf.bufs[1].ring, 1);
	if (path == ORDER || path == ORDER_LIMIT)
		s->oq = order__new();
	if (path == ORDER_LIMIT)
		s->rate = rate__new(&run, 2, false);
	write_rings(s, w, path == OVERWRITE);
	before = sample__nr_parsed();
	if (path == OVERWRITE)
		err = session__read_overwrite(s, true);
	else
		err = session__drain_rings(s, true);
	*parsed = sample__nr_parsed() - before;
	session__delete(s);
	return err;
}

static void test_path(enum path path)
{
	const char *name = path_name[path];
	unsigned long parsed = 0;
	struct seen w;

	CHECK_INT(run_path(path, &w, &parsed), 0);
	CHECK(!w.bad, "%s: %u bad: %s", name, w.bad, w.why);
	CHECK_INT(w.nr_comm, (NR + 9) / 10);
	/* the point: one decode per sample delivered, none for those only queued or limited */
	CHECK(parsed == w.nr, "%s: %lu decodes for %u samples", name, parsed, w.nr);
	if (path != ORDER_LIMIT) {
		CHECK(w.nr == NR, "%s: %u samples of %u", name, w.nr, NR);
		CHECK_INT(w.lost, 0);
		return;
	}
	/*
	 * Two a second on each ring; the samples span 0.24 ms, which may
	 * straddle a second of the wall clock: 4 samples, or up to 8.
	 */
	CHECK(w.nr >= 4 && w.nr <= 8, "%s: %u samples", name, w.nr);
	CHECK(w.nr + w.lost == NR, "%s: %u samples + %llu dropped", name, w.nr,
	      (unsigned long long)w.lost);
}

int main(void)
{
	test_path(DIRECT);
	test_path(ORDER);
	test_path(ORDER_LIMIT);
	test_path(OVERWRITE);
	return ut_done("test_parse_once");
}
