/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's own rate controls (run_opts): --sampling-limit, at most N
 * samples a second per CPU (per thread when the events follow threads),
 * the rest dropped as they are read from the rings and counted; and
 * --perfeval-cpus / --perfeval-pids, perf-prof's cost of handling the
 * samples of those CPUs or processes (records, bytes, time), printed with
 * each interval and at the end.  Internal to the engine (loop.c).
 */
#ifndef PP_RATE_H
#define PP_RATE_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/conf.h"

struct rate;

/*
 * NULL when @run asks for neither (errno 0), or out of memory (errno
 * ENOMEM).  @max_cpu bounds the CPU numbers; @per_thread: the limit is per
 * thread, not per CPU.
 */
struct rate *rate__new(const struct run_opts *run, int max_cpu, bool per_thread);
void rate__delete(struct rate *r);

bool rate__limits(const struct rate *r);    /* --sampling-limit given */
bool rate__evaluates(const struct rate *r); /* --perfeval-* given */

/*
 * A sample of @cpu's ring by thread @tid in second @sec (of the printed
 * clock): true to deliver it, false when its CPU (thread) had its N this
 * second already; then it is counted as dropped.
 */
bool rate__admit(struct rate *r, int cpu, unsigned tid, unsigned long long sec);
unsigned long long rate__dropped(const struct rate *r);
/* "perf-prof: --sampling-limit dropped N samples over L a second per CPU (CPU0: x, ...)" */
void rate__print_dropped(const struct rate *r, FILE *fp);

/* A sample handled: its CPU, process, size and the time its handling took. */
void rate__handled(struct rate *r, unsigned cpu, unsigned pid, unsigned size,
		   unsigned long long ns);
/*
 * The cost lines since the last ones (@span_s seconds), then start anew:
 * text, or with @json one object of type "perfeval" per list; @scope is
 * "interval" or "end".
 */
void rate__print_eval(struct rate *r, FILE *fp, bool json, double span_s, const char *scope);

#endif
