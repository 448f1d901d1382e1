/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Access/miss pairs of a counter set (llcstat: the last-level cache's
 * accesses and misses; tlbstat: dTLB loads and stores), as one table per
 * report: a row for the whole set, and with @perins one per instance (a
 * CPU, or a thread with -p/-t/--) first.  Each pair is three columns, the
 * accesses, the misses and the miss ratio (misses / accesses, in %), and
 * the row ends with RUN%, the share of the time the counters were on the
 * PMU (multiplexed: the values are estimates, counters.h).
 *
 *   WHO          LOADS      MISSES   MISS%       STORES      MISSES   MISS%    RUN%
 *   CPU0     1,000,000       1,000   0.10%      500,000          50   0.01% 100.00%
 *   all      1,000,000       1,000   0.10%      500,000          50   0.01% 100.00%
 *
 * A count not counted at all prints "<not counted>" (JSON null); a ratio
 * without accesses "-" (null).  JSON: one record per row, {"type":
 * "missrate", the stamp, "cpu" or "tid"+"comm" (instance rows only), each
 * pair's members (@acc_name, @miss_name, @pct_name), "running_pct"}.
 */
#ifndef PP_MISSRATE_H
#define PP_MISSRATE_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/counting/counters.h"

struct missrate_pair {
	int access, miss;      /* counter indexes in the set */
	const char *acc_title; /* "LOADS" (the misses are "MISSES", the ratio "MISS%") */
	const char *acc_name;  /* JSON: "loads" */
	const char *miss_name; /* "load_misses" */
	const char *pct_name;  /* "load_miss_pct" */
};

#define MISSRATE_MAX_PAIRS 4

/* The counters of a missrate profiler: its events parsed, counted in a set. */
struct missrate_set {
	struct evname *evs;
	int nr_evs;
	struct ctr_set cs;
};

struct exclude_opts;
/*
 * Before the events: @ex leaves something to count (else a usage error),
 * a table a second by default, and a hardware PMU (else one line saying
 * @counted cannot be counted, -ENODEV).
 */
int missrate__check(struct session *s, const struct exclude_opts *ex, const char *counted);
/*
 * @events (an evname list; its "cpu/" events put on the host's core PMU)
 * counted in @m with @ex's exclude bits, reported each interval by @fn.
 * @events NULL: the kernel has no @kind for this CPU (@generic, the
 * generic event tried, not supported; @vendor's): one line, -EOPNOTSUPP.
 */
int missrate__open(struct missrate_set *m, struct session *s, const struct exclude_opts *ex,
		   const char *events, const char *kind, const char *generic, const char *vendor,
		   ctr_report_fn fn, void *priv);
void missrate__close(struct missrate_set *m, struct session *s);

/*
 * The ratio of pair @p for instance @i (-1: all), in %: misses * 100 /
 * accesses; a NaN when there were no accesses or either was not counted.
 */
double missrate__pct(const struct ctr_set *cs, const struct missrate_pair *p, int i,
		     bool since_start);

/* The table of @np pairs @p to @k (ctr_set__sink's). */
void missrate__emit(const struct ctr_set *cs, struct rt_sink *k, const struct missrate_pair *p,
		    int np, bool perins, bool since_start);

/* missrate__emit to @fp: JSON lines stamped for @what (ctr_report_fn's), or the text table. */
void missrate__report(const struct ctr_set *cs, FILE *fp, bool json, const struct missrate_pair *p,
		      int np, bool perins, bool since_start, const char *what);

#endif
