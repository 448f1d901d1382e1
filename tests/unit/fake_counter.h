/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fake counting events for the counting tests (test_counter.c for the text,
 * test_counter_json.c for --json): each counter a pipe whose read end the
 * event's counter fd is, so that a read() returns what the test put there
 * (value, time enabled, time running), and a ctr_set of them as stat makes it.
 */
#ifndef PP_FAKE_COUNTER_H
#define PP_FAKE_COUNTER_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/counting/counters.h"
#include "engine/perf_source.h"

/* A fake counting event with @n counters (CPUs 0..n-1), each a pipe. */
struct fake {
	struct evsel ev;
	struct perf_evsel src; /* its counters, where the perf source keeps them */
	struct counter_fd cnt[4];
	int wr[4];
};

/* @f named @name, its attr's type and config as given (metrics go by them). */
static inline void fake_init(struct fake *f, const char *name, int n, u32 type, u64 config)
{
	memset(f, 0, sizeof(*f));
	f->ev.name = (char *)name;
	f->ev.counting = true;
	f->ev.src = &f->src;
	f->src.cnt = f->cnt;
	f->src.nr_cnt = n;
	f->ev.attr.type = type;
	f->ev.attr.config = config;
	for (int i = 0; i < n; i++) {
		int p[2];

		if (pipe(p))
			abort();
		f->cnt[i] = (struct counter_fd){ .fd = p[0], .cpu = i, .tid = -1 };
		f->wr[i] = p[1];
	}
}

/* What counter @i's next read() returns. */
static inline void put(struct fake *f, int i, u64 val, u64 ena, u64 run)
{
	u64 w[3] = { val, ena, run };

	if (write(f->wr[i], w, sizeof(w)) != sizeof(w))
		abort();
}

static inline void fake_close(struct fake *f)
{
	for (int i = 0; i < f->src.nr_cnt; i++) {
		close(f->cnt[i].fd);
		close(f->wr[i]);
	}
}

/* The @n fakes @f as stat's counters: a software clock in msec (scaled 1e-6), others as counted. */
static inline struct ctr_set set_of(struct fake *f, int n)
{
	struct ctr_set cs = { 0 };

	cs.c = calloc(n, sizeof(*cs.c));
	cs.nr = n;
	for (int k = 0; k < n; k++) {
		bool clock = f[k].ev.attr.type == PERF_TYPE_SOFTWARE &&
			     f[k].ev.attr.config <= PERF_COUNT_SW_TASK_CLOCK;

		cs.c[k] = (struct ctr){ .ev = &f[k].ev, .scale = clock ? 1e-6 : 1.0 };
		snprintf(cs.c[k].unit, sizeof(cs.c[k].unit), "%s", clock ? "msec" : "");
		snprintf(cs.c[k].name, sizeof(cs.c[k].name), "%s", f[k].ev.name);
	}
	return cs;
}

#endif
