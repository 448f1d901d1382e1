// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF back end (bpf.h): the session's programs, maps and links, a source with no
 * events that attaches them at open, runs them between enable and disable, and closes
 * them with the session (the reads between prints: bpf_visit.c).
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <event-parse.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "engine/bpf_int.h"
#include "engine/fastprint.h"
#include "engine/features.h"
#include "engine/evfields.h"
#include "engine/tp.h"
#include "util/units.h"

/* ---- options ---- */

static const struct popt bpf_popts[] = {
	{ "bpf", 0, NULL,
	  "aggregate in the kernel with BPF, or fail (status 2) saying what does not compile "
	  "(default: BPF where the host and the request allow it)",
	  POPT_BIND_FLAG(struct bpf_opts, on) },
	{ "no-bpf", 0, NULL, "the ring path: every event crosses the ring buffer",
	  POPT_BIND_FLAG(struct bpf_opts, off) },
	{ "bpf-entries", 0, "N",
	  "keys each BPF map holds (default 65536); events of keys beyond are counted as lost",
	  POPT_BIND_UINT(struct bpf_opts, entries), POPT_RANGE(16, 1 << 24) },
	{ 0 },
};

static int bpf_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct bpf_opts *o = data;

	(void)set;
	if (o->on && o->off) {
		snprintf(err, errlen, "--bpf and --no-bpf: give one of them");
		return -1;
	}
	return 0;
}

const struct opt_group bpf_group = {
	.name = "bpf",
	.opts = bpf_popts,
	.size = sizeof(struct bpf_opts),
	.check = bpf_check,
};

unsigned bpf_back__entries(const struct opt_set *opts)
{
	const struct bpf_opts *o = opts ? opt_set__get(opts, &bpf_group) : NULL;

	return o && o->entries ? (unsigned)o->entries : BPF_DEFAULT_ENTRIES;
}

/* ---- the host ---- */

const char *bpf_back__host_why_not(void)
{
	static char why[256];
	static int done;

	/* a tracepoint program loaded and closed; if refused, the capability missing */
	if (!done) {
		done = 1;
		features__bpf_why_not(why, sizeof(why));
	}
	return why;
}

/* ---- the source ---- */

static struct bpf_back *back_of(struct session *s)
{
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i]->ops && !strcmp(s->sources[i]->ops->name, "bpf"))
			return s->sources[i]->priv;
	return NULL;
}

static int set_running(struct bpf_back *b, u32 on)
{
	u32 key = 0;

	if (b->ctl < 0)
		return 0;
	b->running = on;
	b->ctl_val[0] = on;
	return bpf_map_update_elem(b->ctl, &key, b->ctl_val, BPF_ANY) ? -errno : 0;
}

static int back_open(struct source *src)
{
	struct bpf_back *b = src->priv;
	int err;

	err = bpf_back__fill_targets(b);
	if (err)
		return err;
	for (int i = 0; i < b->nr_att; i++) {
		err = bpf_back__attach_one(b, &b->att[i]);
		if (err)
			return err;
	}
	b->attached = true;
	return 0;
}

/* The outs' ring buffers: the loop wakes for them (their epoll fds, nested in the loop's) */
static int back_poll_fds(struct source *src, int epfd, u64 tag)
{
	struct bpf_back *b = src->priv;

	src->tag = tag;
	for (int i = 0; i < b->nr_outs; i++) {
		struct epoll_event e = { .events = EPOLLIN, .data.u64 = tag | (u64)i };

		if (epoll_ctl(epfd, EPOLL_CTL_ADD, ring_buffer__epoll_fd(b->outs[i].rb), &e))
			return -errno;
	}
	return 0;
}

/* An out has records: every source is read (the perf source's task records first) */
static int back_ready(struct source *src, u32 id, u32 events)
{
	(void)src, (void)id, (void)events;
	return 1;
}

/* A record copied out: to its profiler, or (time order) queued for back_read to hand out. */
static int out_record(void *ctx, void *data, size_t size)
{
	struct bpf_out *o = ctx;
	struct bpf_back *b = o->b;
	struct bpf_pend *p;

	if (!b->s->oq || o->now)
		return o->fn(o->arg, data, size);
	p = malloc(sizeof(*p) + size);
	if (!p)
		return -ENOMEM;
	p->next = NULL;
	p->stamp = b->read_stamp;
	p->o = o;
	p->size = size;
	memcpy(p->data, data, size);
	*b->pend_tail = p;
	b->pend_tail = &p->next;
	return 0;
}

/* The records queued up to @until (their read), in the order they were read. */
static void hand_out(struct bpf_back *b, u64 until)
{
	struct bpf_pend *p;

	while ((p = b->pend) && p->stamp <= until) {
		b->pend = p->next;
		if (!b->pend)
			b->pend_tail = &b->pend;
		p->o->fn(p->o->arg, p->data, p->size);
		free(p);
	}
}

static int back_read(struct source *src, unsigned how, u64 *horizon)
{
	struct bpf_back *b = src->priv;
	int err = 0;

	/* (a pull moves the order queue's records: ours go out after them) */
	if (b->consuming || (how & SOURCE_READ_PULL))
		return 0;
	b->consuming = true;
	/* (written before now: handed out once the sources before have delivered up to now) */
	b->read_stamp = session__now(b->s);
	for (int i = 0; i < b->nr_outs && !err; i++) {
		int n = b->outs[i].draining ? 0 : ring_buffer__consume(b->outs[i].rb);

		err = n == -ENOMEM ? n : 0;
	}
	hand_out(b, how & SOURCE_READ_FINAL ? ~0ULL : *horizon);
	bpf_back__visit_read(b, how);
	b->consuming = false;
	return err;
}

/*
 * The hits our programs missed: the kernel does not run a classic tracepoint program
 * (nor a raw or tp_btf one entered again) on a CPU where a BPF program runs already
 * (the tracepoint fires inside another tool's bpf_trace_printk); it counts them per
 * program (recursion_misses, Linux 5.12).
 */
static u64 prog_misses(struct bpf_back *b)
{
	u64 n = 0;

	for (int i = 0; i < b->nr_att; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = b->att[j].prog == b->att[i].prog;
		memset(&info, 0, sizeof(info));
		if (!seen && b->attached && !bpf_obj_get_info_by_fd(b->att[i].prog, &info, &len))
			n += info.recursion_misses;
	}
	return n;
}

static int back_enable(struct source *src)
{
	struct bpf_back *b = src->priv;
	int err = set_running(b, 1);

	b->misses_at_enable = prog_misses(b);
	return err;
}

static void back_disable(struct source *src)
{
	struct bpf_back *b = src->priv;

	bpf_back__visit_stop(b);
	set_running(b, 0);
	b->misses_at_disable = prog_misses(b);
	b->misses_done = true;
}

/* The hits missed while enabled (the counts run before the enable and after the disable too). */
static u64 run_misses(struct bpf_back *b)
{
	u64 now = b->misses_done ? b->misses_at_disable : prog_misses(b);

	return now > b->misses_at_enable ? now - b->misses_at_enable : 0;
}

static void back_stats(struct source *src, struct source_stats *st)
{
	struct bpf_back *b = src->priv;

	memset(st, 0, sizeof(*st));
	for (int i = 0; i < b->nr_drops; i++)
		if (b->drop_note[i])
			st->noted += bpf_back__drops(b, i);
		else
			st->dropped += bpf_back__drops(b, i);
	st->noted += run_misses(b);
}

/* The programs' drops, each kind on its line: what was not counted and why. */
static void back_report(struct source *src, FILE *fp)
{
	struct bpf_back *b = src->priv;
	u64 n;

	for (int i = 0; i < b->nr_drops; i++) {
		n = bpf_back__drops(b, i);

		if (n && (b->drop_note[i] || b->drop_out[i]))
			fprintf(fp, "perf-prof: %llu %s\n", (unsigned long long)n, b->drop_what[i]);
		else if (n)
			fprintf(fp, "perf-prof: %llu events not counted in the kernel: %s\n",
				(unsigned long long)n, b->drop_what[i]);
	}
	n = run_misses(b);
	if (n)
		fprintf(fp,
			"perf-prof: %llu tracepoint hits (of any task) not seen: the kernel "
			"did not run our program, another BPF program was running on that CPU\n",
			(unsigned long long)n);
}

static void back_close(struct source *src)
{
	struct bpf_back *b = src->priv;

	for (int i = 0; i < b->nr_outs; i++)
		ring_buffer__free(b->outs[i].rb);
	b->nr_outs = 0;
	while (b->pend) {
		struct bpf_pend *p = b->pend;

		b->pend = p->next;
		free(p);
	}
	b->pend_tail = &b->pend;
	/* links first: the programs stop running, then the maps they used go */
	for (int i = 0; i < b->nr_links; i++)
		close(b->links[i]);
	b->nr_links = 0;
	for (int i = 0; i < b->nr_fds; i++)
		close(b->fds[i]);
	b->nr_fds = 0;
	b->ctl = b->drops = b->tgids = b->tids = b->cpus = -1;
}

static const struct source_ops bpf_ops = {
	.name = "bpf",
	.unordered = true,
	.open = back_open,
	.enable = back_enable,
	.poll_fds = back_poll_fds,
	.ready = back_ready,
	.read = back_read,
	.disable = back_disable,
	.stats = back_stats,
	.report = back_report,
	.close = back_close,
};

void session__bpf_free(struct session *s)
{
	struct bpf_back *b = back_of(s);

	if (!b)
		return;
	back_close(&b->src);
	for (int i = 0; i < b->nr_tp_evs; i++) {
		fastprint__delete(b->tp_evs[i]->fastprint);
		evfields__delete(b->tp_evs[i]->evfields);
		free(b->tp_evs[i]->name);
		free(b->tp_evs[i]);
	}
	/* out of the session's list before it goes: later walks of the sources must not meet it */
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i] == &b->src) {
			memmove(&s->sources[i], &s->sources[i + 1],
				(size_t)(s->nr_sources - i - 1) * sizeof(s->sources[0]));
			s->nr_sources--;
			break;
		}
	free(b);
}

static int keep_fd(struct bpf_back *b, int fd)
{
	if (b->nr_fds == MAX_FDS) {
		close(fd);
		return session__set_err(b->s, -EMFILE, "BPF: too many maps and programs");
	}
	b->fds[b->nr_fds++] = fd;
	return fd;
}

int bpf_back__map(struct bpf_back *b, enum bpf_map_type type, const char *name, unsigned key_size,
		  unsigned value_size, unsigned max_entries, unsigned flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = flags);
	int fd = bpf_map_create(type, name, key_size, value_size, max_entries, &o);

	if (fd < 0)
		return session__set_err(b->s, -errno, "BPF: cannot create map %s (%u keys): %s",
					name, max_entries, strerror(errno));
	return keep_fd(b, fd);
}

static struct bpf_back *back_new(struct session *s)
{
	struct bpf_back *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->s = s;
	b->pend_tail = &b->pend;
	b->ctl = b->drops = b->tgids = b->tids = b->cpus = b->fork_prog = -1;
	b->src.ops = &bpf_ops;
	b->src.s = s;
	b->src.priv = b;
	if (session__add_source(s, &b->src)) {
		free(b);
		return NULL;
	}
	return b;
}

static int back_get(struct session *s, const struct bpf_opts *o, struct bpf_back **out);

int bpf_back__get(struct session *s, const struct opt_set *opts, struct bpf_back **out)
{
	const struct bpf_opts *o = opts ? opt_set__get(opts, &bpf_group) : NULL;

	*out = NULL;
	if (o && o->off)
		return 0;
	/* what counts samples in user space */
	if (s->conf.run && s->conf.run->max_samples)
		return bpf_back__fallback(s, opts, "-N counts samples in user space");
	if (s->conf.run && s->conf.run->sampling_limit)
		return bpf_back__fallback(s, opts, "--sampling-limit limits samples in user space");
	if (s->conf.run && (s->conf.run->nr_eval_cpus || s->conf.run->nr_eval_pids))
		return bpf_back__fallback(s, opts, "--perfeval-* measures samples in user space");
	/* an inner profiler (joint analysis): its events are its outer profiler's samples too */
	if (s->cur_owner >= 0 && s->cur_owner < s->nr_hooks && s->hooks[s->cur_owner].outer >= 0)
		return bpf_back__fallback(s, opts,
					  "inside another profiler's -e: its events go to that "
					  "profiler");
	return back_get(s, o, out);
}

int bpf_back__get_filter(struct session *s, const struct opt_set *opts, struct bpf_back **out)
{
	const struct bpf_opts *o = opts ? opt_set__get(opts, &bpf_group) : NULL;

	*out = NULL;
	if (o && o->off)
		return 0;
	return back_get(s, o, out);
}

static int back_get(struct session *s, const struct bpf_opts *o, struct bpf_back **out)
{
	const char *why;
	struct bpf_back *b;

	why = bpf_back__host_why_not();
	if (*why) {
		if (o && o->on)
			return session__usage_err(s, "--bpf: %s", why);
		session__notice(s, "the ring path: %s", why);
		return 0;
	}
	b = back_of(s);
	if (!b) {
		b = back_new(s);
		if (!b)
			return session__set_err(s, -ENOMEM, "out of memory");
		b->ctl =
			bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_ctl", 4, sizeof(b->ctl_val), 1, 0);
		if (b->ctl < 0)
			return b->ctl;
		b->drops = bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_drops", 4, 8 * BPF_DROP_SLOTS,
					 1, 0);
		if (b->drops < 0)
			return b->drops;
	}
	*out = b;
	return 1;
}

int bpf_back__fallback(struct session *s, const struct opt_set *opts, const char *fmt, ...)
{
	const struct bpf_opts *o = opts ? opt_set__get(opts, &bpf_group) : NULL;
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (o && o->on)
		return session__usage_err(s, "--bpf: %s (run without --bpf for the ring path)",
					  why);
	session__notice(s, "the ring path: %s", why);
	return 0;
}

/* ---- programs ---- */

/* The kernel's BTF, libbpf's complaint when there is none left unsaid (check says it). */
static struct btf *quiet_vmlinux_btf(void)
{
	libbpf_print_fn_t print = libbpf_set_print(NULL);
	struct btf *btf = btf__load_vmlinux_btf();

	libbpf_set_print(print);
	return btf;
}

/* The kernel's BTF, parsed once for the run (tp_btf targets, struct members). */
static struct btf *kernel_btf(void)
{
	static struct btf *btf;
	static bool tried;

	if (!tried) {
		tried = true;
		btf = quiet_vmlinux_btf();
		if (btf && libbpf_get_error(btf))
			btf = NULL;
	}
	return btf;
}

/* The verifier's reason: its last line that is not its statistics ("processed N insns"). */
static void last_line(const char *log, char *out, size_t len)
{
	const char *end = log + strlen(log), *p;

	for (;;) {
		while (end > log && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		for (p = end; p > log && p[-1] != '\n'; p--)
			;
		if (p == log ||
		    (strncmp(p, "processed ", 10) && strncmp(p, "verification time", 17)))
			break;
		end = p;
	}
	snprintf(out, len, "%.*s", (int)(end - p), p);
}

int bpf_back__load(struct bpf_back *b, enum bpf_prog_type type, const char *name, struct bpfb *code,
		   const char *btf_tp, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	char *log = NULL;
	int fd;

	err[0] = 0;
	if (bpfb__finish(code)) {
		snprintf(err, errlen, "%s", code->what);
		return code->err;
	}
	if (btf_tp) {
		struct btf *btf = kernel_btf();
		char tname[96];
		int id;

		if (!btf) {
			snprintf(err, errlen, "no kernel BTF (/sys/kernel/btf/vmlinux)");
			return -ENOENT;
		}
		snprintf(tname, sizeof(tname), "btf_trace_%s", btf_tp);
		id = btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF);
		if (id < 0) {
			snprintf(err, errlen, "no BTF for tracepoint %s", btf_tp);
			return -ENOENT;
		}
		o.attach_btf_id = id;
		o.expected_attach_type = BPF_TRACE_RAW_TP;
	}
	fd = bpf_prog_load(type, name, "GPL", code->insn, code->n, &o);
	if (fd < 0) {
		int e = errno;
		size_t loglen = 1 << 20;

		/* again with the verifier's log, to say why */
		log = calloc(1, loglen);
		if (log) {
			o.log_buf = log;
			o.log_size = loglen;
			o.log_level = 1;
			int again = bpf_prog_load(type, name, "GPL", code->insn, code->n, &o);

			if (again >= 0) {
				close(again);
				log[0] = 0; /* (loaded this time: not expected) */
			}
			last_line(log, err, errlen);
			if (session__verbose(b->s) > 1)
				fprintf(stderr, "BPF verifier log of %s:\n%s\n", name, log);
			free(log);
		}
		if (!err[0] || !log)
			snprintf(err, errlen, "%s", strerror(e));
		return -e;
	}
	fd = keep_fd(b, fd);
	if (fd < 0)
		snprintf(err, errlen, "more than %d BPF programs and maps", MAX_FDS);
	if (fd >= 0 && btf_tp && b->nr_btf_progs < MAX_FDS)
		b->btf_progs[b->nr_btf_progs++] = fd;
	return fd;
}

void bpf_back__emit_running(struct bpf_back *b, struct bpfb *code, int out)
{
	b_ldvalue(code, R0, b->ctl, 0);
	b_ldx(code, 4, R0, R0, 0);
	b_jmpi(code, BPF_JEQ, R0, 0, out);
}

int bpf_back__drop_slot(struct bpf_back *b, const char *what)
{
	for (int i = 0; i < b->nr_drops; i++)
		if (!strcmp(b->drop_what[i], what))
			return i;
	if (b->nr_drops == BPF_DROP_SLOTS)
		return BPF_DROP_SLOTS - 1;
	snprintf(b->drop_what[b->nr_drops], sizeof(b->drop_what[0]), "%s", what);
	return b->nr_drops++;
}

int bpf_back__note_slot(struct bpf_back *b, const char *what)
{
	int slot = bpf_back__drop_slot(b, what);

	/* (no slot left: the last one's, said as its drops) */
	if (slot < BPF_DROP_SLOTS - 1 || !strcmp(b->drop_what[slot], what))
		b->drop_note[slot] = true;
	return slot;
}

void bpf_back__emit_drop(struct bpf_back *b, struct bpfb *code, int slot)
{
	b_ldvalue(code, R1, b->drops, slot * 8);
	b_movi(code, R2, 1);
	b_xadd(code, R1, 0, R2);
}

/* ---- records copied out ---- */

const char *bpf_back__out_why(struct bpf_back *b)
{
	const struct clock_opts *c = b->s->conf.clock;

	if (c && (c->tsc || c->kvmclock))
		return c->tsc ? "--tsc: the times a program copies out are CLOCK_MONOTONIC's, "
				"the events' are perf's clock"
			      : "--kvmclock: the times a program copies out are CLOCK_MONOTONIC's, "
				"the events' are perf's clock";
	return NULL;
}

int bpf_back__out(struct bpf_back *b, const char *what,
		  int (*fn)(void *arg, void *data, size_t size), void *arg)
{
	char slot_what[80];
	struct session *s = b->s;
	unsigned pages =
		s->conf.ring && s->conf.ring->mmap_pages ? s->conf.ring->mmap_pages : BPF_OUT_PAGES;
	long page = sysconf(_SC_PAGESIZE);
	unsigned long bytes = 1;
	struct bpf_out *o;
	int slot;

	if (bpf_back__out_why(b))
		return -EOPNOTSUPP;
	if (b->nr_outs == BPF_MAX_OUTS)
		return session__set_err(s, -EMFILE, "BPF: too many ring buffers");
	while (bytes < (unsigned long)pages)
		bytes <<= 1;
	bytes *= page > 0 ? (unsigned long)page : 4096;
	snprintf(slot_what, sizeof(slot_what), "%s: BPF ring buffer full (-m PAGES)", what);
	slot = bpf_back__drop_slot(b, slot_what);
	/* (a slot of its own: the last one shared when they are all taken would say another's) */
	if (slot < 0 || strcmp(b->drop_what[slot], slot_what))
		return session__set_err(s, -ENOSPC, "BPF: no drop slot left");
	b->drop_out[slot] = true;
	o = &b->outs[b->nr_outs];
	o->map = bpf_back__map(b, BPF_MAP_TYPE_RINGBUF, "pp_out", 0, 0, (unsigned)bytes, 0);
	if (o->map < 0)
		return o->map;
	o->fn = fn;
	o->arg = arg;
	o->drop_slot = slot;
	o->b = b;
	o->rb = ring_buffer__new(o->map, out_record, o, NULL);
	if (!o->rb)
		return session__set_err(s, -errno, "BPF: cannot map the ring buffer: %s",
					strerror(errno));
	return b->nr_outs++;
}

int bpf_back__out_now(struct bpf_back *b, const char *what,
		      int (*fn)(void *arg, void *data, size_t size), void *arg)
{
	int id = bpf_back__out(b, what, fn, arg);

	if (id >= 0)
		b->outs[id].now = true;
	return id;
}

void bpf_back__out_drain(struct bpf_back *b, int id)
{
	struct bpf_out *o = b && id >= 0 && id < b->nr_outs ? &b->outs[id] : NULL;

	if (!o || o->draining)
		return;
	o->draining = true;
	ring_buffer__consume(o->rb);
	o->draining = false;
}

void bpf_back__emit_output(struct bpf_back *b, struct bpfb *code, int id, int16_t off,
			   unsigned size)
{
	int done = bpfb__label(code);

	b_ldmap(code, R1, b->outs[id].map);
	b_mov(code, R2, R10);
	b_alui(code, BPF_ADD, R2, off);
	b_movi(code, R3, (int32_t)size);
	b_movi(code, R4, 0);
	b_call(code, BPF_FUNC_ringbuf_output);
	b_jmpi(code, BPF_JEQ, R0, 0, done);
	bpf_back__emit_drop(b, code, b->outs[id].drop_slot);
	bpfb__here(code, done);
}

void bpf_back__emit_reserve(struct bpf_back *b, struct bpfb *code, int id, unsigned size, int fail)
{
	int ok = bpfb__label(code);

	b_ldmap(code, R1, b->outs[id].map);
	b_movi(code, R2, (int32_t)size);
	b_movi(code, R3, 0);
	b_call(code, BPF_FUNC_ringbuf_reserve);
	b_jmpi(code, BPF_JNE, R0, 0, ok);
	bpf_back__emit_drop(b, code, b->outs[id].drop_slot);
	b_ja(code, fail);
	bpfb__here(code, ok);
}

void bpf_back__emit_submit(struct bpfb *code, int reg)
{
	b_mov(code, R1, reg);
	b_movi(code, R2, 0);
	b_call(code, BPF_FUNC_ringbuf_submit);
}

void bpf_back__emit_discard(struct bpfb *code, int reg)
{
	b_mov(code, R1, reg);
	b_movi(code, R2, 0);
	b_call(code, BPF_FUNC_ringbuf_discard);
}

void bpf_back__tp_sample(const struct evsel *ev, struct sample *smp, u64 ids, u32 cpu, u64 time,
			 const void *rec, unsigned size, unsigned raw_size, u64 *raw)
{
	uint16_t type = (uint16_t)ev->attr.config;
	int32_t pid = (int32_t)(u32)ids;

	memcpy(raw, rec, size);
	memset(raw, 0, 8);
	memcpy(raw, &type, sizeof(type));	    /* common_type */
	memcpy((char *)raw + 4, &pid, sizeof(pid)); /* common_pid */
	*smp = (struct sample){
		.type = PERF_RECORD_SAMPLE,
		.sample_type =
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
		.pid = (u32)(ids >> 32),
		.tid = (u32)ids,
		.time = time,
		.cpu = cpu,
		.period = 1,
		.raw_size = raw_size,
		.raw = raw,
	};
}

struct evsel *bpf_back__tp_evsel(struct bpf_back *b, const char *sys, const char *name)
{
	struct session *s = b->s;
	struct tep_event *tp;
	struct evsel *ev;
	char full[256];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	for (int i = 0; i < b->nr_tp_evs; i++)
		if (!strcmp(b->tp_evs[i]->name, full))
			return b->tp_evs[i];
	if (b->nr_tp_evs == (int)(sizeof(b->tp_evs) / sizeof(b->tp_evs[0]))) {
		session__set_err(s, -EMFILE, "BPF: too many tracepoint formats");
		return NULL;
	}
	if (!session__tep(s) || !(tp = tp__event(s->tp, sys, name))) {
		session__set_err(s, -ENOENT, "no tracepoint format of %s:%s", sys, name);
		return NULL;
	}
	ev = calloc(1, sizeof(*ev));
	if (!ev || !(ev->name = strdup(full))) {
		free(ev);
		session__set_err(s, -ENOMEM, "out of memory");
		return NULL;
	}
	ev->tp = tp;
	ev->idx = -1;
	ev->owner = -1;
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = (u64)tp->id;
	ev->attr.sample_type = PERF_SAMPLE_RAW;
	b->tp_evs[b->nr_tp_evs++] = ev;
	return ev;
}

u64 bpf_back__drops(struct bpf_back *b, int slot)
{
	u64 v[BPF_DROP_SLOTS] = { 0 };
	u32 key = 0;

	if (b->drops < 0 || slot < 0 || slot >= BPF_DROP_SLOTS ||
	    bpf_map_lookup_elem(b->drops, &key, v))
		return 0;
	return v[slot];
}

int bpf_back__array_read(struct bpf_back *b, int map, void *value)
{
	u32 key = 0;

	(void)b;
	return bpf_map_lookup_elem(map, &key, value) ? -errno : 0;
}

int bpf_back__nr_cpus(void)
{
	static int n;

	if (!n)
		n = libbpf_num_possible_cpus();
	return n > 0 ? n : 1;
}

int bpf_back__percpu_sum(struct bpf_back *b, int map, const void *key, u64 *sum, int nwords)
{
	int ncpu = bpf_back__nr_cpus();
	u64 *v = calloc((size_t)ncpu * nwords, sizeof(u64));

	(void)b;
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(map, key, v)) {
		int e = errno;

		free(v);
		return -e;
	}
	memset(sum, 0, sizeof(u64) * nwords);
	for (int c = 0; c < ncpu; c++)
		for (int w = 0; w < nwords; w++)
			sum[w] += v[c * nwords + w];
	free(v);
	return 0;
}

/* vmlinux BTF, loaded at the first use, kept for the process's life */
int bpf_back__btf_tp_args(const char *tp)
{
	struct btf *btf = kernel_btf();
	const struct btf_type *t;
	char name[96];
	int id;

	if (!btf)
		return -ENOENT;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return -ENOENT;
	/* typedef -> pointer -> prototype (void *__data, the tracepoint's arguments) */
	t = btf__type_by_id(btf, id);
	t = t ? btf__type_by_id(btf, t->type) : NULL;
	t = t && btf_is_ptr(t) ? btf__type_by_id(btf, t->type) : NULL;
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return -ENOENT;
	return btf_vlen(t) - 1;
}

int bpf_back__btf_member(const char *type, const char *member, unsigned *size)
{
	struct btf *btf = kernel_btf();
	const struct btf_type *t;
	int id;

	if (!btf)
		return -ENOENT;
	id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	for (int i = 0; i < btf_vlen(t); i++) {
		const struct btf_member *m = btf_members(t) + i;

		if (strcmp(btf__name_by_offset(btf, m->name_off), member))
			continue;
		if (btf_member_bitfield_size(t, i))
			return -EINVAL; /* a bit field: not a plain load */
		if (size) {
			__s64 sz = btf__resolve_size(btf, m->type);

			*size = sz > 0 ? (unsigned)sz : 0;
		}
		return (int)(btf_member_bit_offset(t, i) / 8);
	}
	return -ENOENT;
}

int bpf_back__each(int fd, size_t ksz, size_t vsz,
		   int (*fn)(void *arg, const void *key, const void *val), void *arg)
{
	char *keys = malloc(BPF_EACH_BATCH * ksz), *vals = malloc(BPF_EACH_BATCH * vsz);
	char *key = malloc(2 * ksz), *next = key ? key + ksz : NULL;
	uint64_t tok_in = 0, tok_out = 0;
	bool first = true, have = false;
	int err = -ENOMEM;

	if (!keys || !vals || !key)
		goto out;
	for (;;) {
		__u32 n = BPF_EACH_BATCH;

		err = bpf_map_lookup_batch(fd, first ? NULL : &tok_in, &tok_out, keys, vals, &n,
					   NULL);
		if (err && err != -ENOENT)
			break;
		for (__u32 i = 0; i < n; i++)
			if ((err = fn(arg, keys + i * ksz, vals + i * vsz)))
				goto out;
		if (err == -ENOENT) {
			err = 0;
			goto out;
		}
		tok_in = tok_out;
		first = false;
	}
	if (!first || (err != -EINVAL && err != -EOPNOTSUPP && err != -524 /* ENOTSUPP */))
		goto out;
	/* no batches here: key by key */
	while (!(err = bpf_map_get_next_key(fd, have ? key : NULL, next))) {
		memcpy(key, next, ksz);
		have = true;
		if (bpf_map_lookup_elem(fd, key, vals))
			continue; /* deleted meanwhile */
		if ((err = fn(arg, key, vals)))
			goto out;
	}
	err = err == -ENOENT ? 0 : err;
out:
	free(keys);
	free(vals);
	free(key);
	return err;
}
