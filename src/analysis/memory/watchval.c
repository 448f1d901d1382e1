// SPDX-License-Identifier: GPL-2.0
/* The value at a watched address at each breakpoint hit, read in the kernel (watchval.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/memory/watchval.h"
#include "engine/bpf.h"
#include "engine/session.h"

/* Records read and not yet taken by their samples: the oldest go when it is full. */
#define WV_HELD 4096
#define WV_LAST 64

struct watchval {
	struct bpf_back *b; /* NULL: records pushed by a test */
	int out;
	struct watchval_rec held[WV_HELD]; /* a ring, oldest at @head */
	bool taken[WV_HELD];		   /* (taken out of order: skipped) */
	unsigned head, n;
	enum { WV_UNKNOWN, WV_BEFORE, WV_AFTER } order; /* the program's time: the sample's */
	struct wv_last {
		u32 tid;
		int id;
		u64 time;
	} last[WV_LAST];
};

struct watchval *watchval__new(void)
{
	struct watchval *w = calloc(1, sizeof(*w));

	if (w)
		w->out = -1;
	return w;
}

void watchval__free(struct watchval *w)
{
	free(w);
}

void watchval__push(struct watchval *w, const struct watchval_rec *r)
{
	unsigned at;

	if (w->n == WV_HELD) { /* full: the oldest, whose sample never came, goes */
		w->head = (w->head + 1) % WV_HELD;
		w->n--;
	}
	at = (w->head + w->n++) % WV_HELD;
	w->held[at] = *r;
	w->taken[at] = false;
}

static int on_record(void *arg, void *data, size_t size)
{
	if (size >= sizeof(struct watchval_rec))
		watchval__push(arg, data);
	return 0;
}

/*
 * A hit's number: the event's count at the hit, the same in the record
 * (bpf_perf_prog_read_value) and in the sample (PERF_SAMPLE_READ: the
 * kernel counts the hit before it writes either).  An event counts the
 * hits of one CPU (CPU-wide) or one thread (-t): a record and a sample
 * of the same breakpoint, CPU, thread and number are of the same hit.
 * Records of smaller numbers are of samples lost: dropped.
 */
static const struct watchval_rec *by_count(struct watchval *w, const struct sample *smp, int id,
					   u64 count)
{
	const struct watchval_rec *found = NULL;

	for (unsigned i = 0; i < w->n; i++) {
		unsigned at = (w->head + i) % WV_HELD;
		const struct watchval_rec *r = &w->held[at];

		if (w->taken[at] || r->id != (u32)id || r->tid != smp->tid || r->cpu != smp->cpu ||
		    !r->count || r->count > count)
			continue;
		w->taken[at] = true;
		if (r->count == count)
			found = r;
	}
	return found;
}

/* The last record taken after its sample's time, of a breakpoint and thread (a few). */
static struct wv_last *last_of(struct watchval *w, u32 tid, int id)
{
	return &w->last[(tid * 31 + (u32)id) % WV_LAST];
}

/*
 * Without a number (an inherited event's count cannot be read in the
 * program: -p, --): by time.  A thread's hits of one breakpoint come one
 * after another: a sample's time, then the program's record, then the
 * next hit's (Linux 6.3 on: the kernel prepares the sample, its time
 * included, before it runs the program), or the record's time first
 * (before).  The first sample of the run that finds a record tells which:
 * one of its thread, CPU and breakpoint before it (the record first), or
 * none (the sample first).  The record first: the sample's is the newest
 * of theirs before it; the sample first: the oldest after it.  Older ones
 * are of samples lost: dropped.  The sample first, a hit whose record is
 * missing takes the next hit's: its sample then comes before the record
 * taken, and has none (the next ones theirs again): one hit in error,
 * not all those after it.
 */
static const struct watchval_rec *by_time(struct watchval *w, const struct sample *smp, int id)
{
	const struct watchval_rec *found = NULL, *before = NULL;
	struct wv_last *last = last_of(w, smp->tid, id);
	unsigned after_at = 0;
	bool after = false;

	for (unsigned i = 0; i < w->n; i++) {
		unsigned at = (w->head + i) % WV_HELD;
		const struct watchval_rec *r = &w->held[at];

		/* (a record with a count too: -p P -t T, T's events not inherited) */
		if (w->taken[at] || r->id != (u32)id || r->tid != smp->tid || r->cpu != smp->cpu)
			continue;
		if (r->time <= smp->time) {
			before = r;
			w->taken[at] = true;
		} else if (!after) {
			after = true;
			after_at = at;
		}
	}
	if (w->order == WV_UNKNOWN)
		w->order = before ? WV_BEFORE : after ? WV_AFTER : WV_UNKNOWN;
	if (w->order == WV_BEFORE)
		return before;
	if (w->order != WV_AFTER || !after)
		return NULL;
	if (last->tid == smp->tid && last->id == id && last->time > smp->time)
		return NULL; /* its record went to the hit before it */
	found = &w->held[after_at];
	w->taken[after_at] = true;
	*last = (struct wv_last){ .tid = smp->tid, .id = id, .time = found->time };
	return found;
}

int watchval__get(struct watchval *w, const struct sample *smp, int id, u64 *val)
{
	const struct watchval_rec *found;

	if (!w)
		return -ENOENT;
	if (w->b)
		bpf_back__out_drain(w->b, w->out);
	/* a sample with its number takes the record of that number or none */
	if ((smp->sample_type & PERF_SAMPLE_READ) && smp->read_values && smp->read_values[0])
		found = by_count(w, smp, id, smp->read_values[0]);
	else
		found = by_time(w, smp, id);
	while (w->n && w->taken[w->head]) {
		w->head = (w->head + 1) % WV_HELD;
		w->n--;
	}
	if (!found || found->err)
		return -ENOENT;
	*val = found->value;
	return 0;
}

/*
 * The program of one breakpoint: its record at R10 - 48, the event's
 * count (bpf_perf_prog_read_value: count, enabled, running) at R10 - 72.
 */
#define REC (-48)
#define CNT (-72)
static void build(struct bpfb *c, struct bpf_back *b, int out, int id, u64 addr, unsigned len)
{
	int no_count = bpfb__label(c);

	b_mov(c, R6, R1); /* the context */
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R10, REC, R0);
	b_st(c, 8, R10, REC + 8, 0);
	b_st(c, 8, R10, REC + 16, 0);
	/* the hit's number: the event's count (0: unread, an inherited event's) */
	b_mov(c, R1, R6);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, CNT);
	b_movi(c, R3, 24);
	b_call(c, BPF_FUNC_perf_prog_read_value);
	b_jmpi(c, BPF_JNE, R0, 0, no_count);
	b_ldx(c, 8, R0, R10, CNT);
	b_stx(c, 8, R10, REC + 16, R0);
	bpfb__here(c, no_count);
	b_call(c, BPF_FUNC_get_current_pid_tgid);
	b_stx(c, 4, R10, REC + 24, R0);
	b_call(c, BPF_FUNC_get_smp_processor_id);
	b_stx(c, 4, R10, REC + 28, R0);
	b_st(c, 4, R10, REC + 32, id);
	b_mov(c, R1, R10);
	b_alui(c, BPF_ADD, R1, REC + 8);
	b_movi(c, R2, (int32_t)len);
	b_ld64(c, R3, addr);
	/* a kernel address, or the current task's (a hit in the kernel's copy to a user one too) */
	b_call(c, (int64_t)addr < 0 ? BPF_FUNC_probe_read_kernel : BPF_FUNC_probe_read_user);
	b_stx(c, 4, R10, REC + 36, R0);
	bpf_back__emit_output(b, c, out, REC, sizeof(struct watchval_rec));
	b_ret(c, 1); /* the sample is kept */
}

int watchval__add(struct session *s, const struct opt_set *opts, struct watchval **wv,
		  struct evsel *ev, int id, u64 addr, unsigned len, char *why, size_t whylen)
{
	const struct bpf_opts *bo = opts ? opt_set__get(opts, &bpf_group) : NULL;
	struct watchval *w = *wv;
	struct bpf_back *b;
	struct bpfb c;
	char err[160];
	int ret, fd;

	if (bo && bo->off) {
		snprintf(why, whylen, "--no-bpf");
		return 0;
	}
	ret = bpf_back__get_filter(s, opts, &b);
	if (ret < 0)
		return ret;
	if (!ret) {
		snprintf(why, whylen, "no BPF here: %s", bpf_back__host_why_not());
		return 0;
	}
	if (bpf_back__out_why(b)) {
		if (bo && bo->on)
			return session__usage_err(s, "--bpf: %s", bpf_back__out_why(b));
		snprintf(why, whylen, "%s", bpf_back__out_why(b));
		return 0;
	}
	if (!w) {
		w = watchval__new();
		if (!w)
			return session__set_err(s, -ENOMEM, "out of memory");
		w->b = b;
		w->out = bpf_back__out_now(b, "breakpoint values", on_record, w);
		if (w->out < 0) {
			ret = w->out;
			watchval__free(w);
			return ret;
		}
		*wv = w;
	}
	bpfb__init(&c);
	build(&c, b, w->out, id, addr, len);
	fd = bpf_back__load(b, BPF_PROG_TYPE_PERF_EVENT, "pp_watchval", &c, NULL, err, sizeof(err));
	bpfb__free(&c);
	if (fd < 0) {
		if (bo && bo->on)
			return session__usage_err(s,
						  "--bpf: %s: the program reading its value does "
						  "not load: %s",
						  ev->name, err);
		snprintf(why, whylen, "the program reading them does not load: %s", err);
		return 0;
	}
	ret = bpf_back__attach_perf_all(b, ev, fd);
	return ret ? ret : 1;
}
