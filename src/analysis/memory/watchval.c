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

struct watchval {
	struct bpf_back *b; /* NULL: records pushed by a test */
	int out;
	struct watchval_rec held[WV_HELD]; /* a ring, oldest at @head */
	bool taken[WV_HELD];		   /* (taken out of order: skipped) */
	unsigned head, n;
	enum { WV_UNKNOWN, WV_BEFORE, WV_AFTER } order; /* the program's time: the sample's */
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
 * A thread's hits of one breakpoint come one after another: a sample's
 * time, then the program's record, then the next hit's (Linux 6.3 on: the
 * kernel prepares the sample, its time included, before it runs the
 * program), or the record's time first (before).  The first sample of the
 * run that finds a record tells which: one of its thread and breakpoint
 * before it (the record first), or none (the sample first).  The record
 * first: the sample's is the newest of theirs before it; the sample
 * first: the oldest after it.  Older ones are of samples lost: dropped.
 */
int watchval__get(struct watchval *w, const struct sample *smp, int id, u64 *val)
{
	const struct watchval_rec *found = NULL, *before = NULL;
	unsigned after_at = 0;
	bool after = false;

	if (!w)
		return -ENOENT;
	if (w->b)
		bpf_back__out_drain(w->b, w->out);
	for (unsigned i = 0; i < w->n; i++) {
		unsigned at = (w->head + i) % WV_HELD;
		const struct watchval_rec *r = &w->held[at];

		if (w->taken[at] || r->id != (u32)id || r->tid != smp->tid)
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
		found = before;
	else if (w->order == WV_AFTER && after) {
		found = &w->held[after_at];
		w->taken[after_at] = true;
	}
	while (w->n && w->taken[w->head]) {
		w->head = (w->head + 1) % WV_HELD;
		w->n--;
	}
	if (!found || found->err || found->cpu != smp->cpu)
		return -ENOENT;
	*val = found->value;
	return 0;
}

/* The program of one breakpoint: its record at R10 - 40 (below the emitters' scratch). */
#define REC (-40)
static void build(struct bpfb *c, struct bpf_back *b, int out, int id, u64 addr, unsigned len)
{
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R10, REC, R0);
	b_st(c, 8, R10, REC + 8, 0);
	b_call(c, BPF_FUNC_get_current_pid_tgid);
	b_stx(c, 4, R10, REC + 16, R0);
	b_call(c, BPF_FUNC_get_smp_processor_id);
	b_stx(c, 4, R10, REC + 20, R0);
	b_st(c, 4, R10, REC + 24, id);
	b_mov(c, R1, R10);
	b_alui(c, BPF_ADD, R1, REC + 8);
	b_movi(c, R2, (int32_t)len);
	b_ld64(c, R3, addr);
	/* a kernel address, or the current task's (a hit in the kernel's copy to a user one too) */
	b_call(c, (int64_t)addr < 0 ? BPF_FUNC_probe_read_kernel : BPF_FUNC_probe_read_user);
	b_stx(c, 4, R10, REC + 28, R0);
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
