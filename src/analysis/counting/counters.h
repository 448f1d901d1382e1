/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set of counters (counting mode: stat, percpu-stat, hwstat): events
 * from engine/evname (software, hardware, PMU aliases with .scale/.unit,
 * tracepoints, {groups}), opened by the session without ring buffers, read
 * at each interval and at the end.  Values are kept per instance (a CPU, or
 * a thread with -p/-t/--: its counters on every CPU added up) so a report
 * can show the total, each instance, or a matrix (percpu-stat).
 *
 * Interval values are differences of cumulative reads, each scaled by its
 * own enabled/running times (a counter multiplexed in one interval and not
 * in the next is estimated right in both), as perf stat -I does.
 */
#ifndef PP_COUNTERS_H
#define PP_COUNTERS_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/counter.h"
#include "engine/evname.h"
#include "engine/session.h"
#include "report/rtable.h"
#include "report/stats_table.h"

struct ctr {
	struct evsel *ev;
	double scale;  /* evname's scale (1 unless the PMU says), times 1e-6 for msec */
	char unit[16]; /* "", "msec", "MiB" */
	char name[128];
	struct counter_val *now, *last, *first; /* per instance */
	struct counter_val sum_now, sum_last, sum_first;
};

struct ctr_set {
	struct session *s;
	struct ctr *c;
	int nr;
	bool per_thread; /* instances are threads (else CPUs) */
	int nr_inst;
	int *inst;	  /* the CPU or tid of each instance */
	int **inst_of_fd; /* [counter][fd index] -> instance */
	/* when the counters were enabled (session__enabled_time), last advanced, read */
	u64 t_first, t_last, t_now;
	/* ctr_set__report_by: how the profiler reports what was read */
	void (*report)(struct session *s, void *priv, const char *what, bool since_start);
	void *report_priv;
};

/* How a counter of @e is opened: counting, in @leader's group (NULL: none). */
struct evsel_conf ctr__evsel_conf(const struct evname *e, struct evsel *leader);

/*
 * Add the parsed events @evs to @s as counters (tracepoints through tracefs,
 * groups with their leader).  0, or -errno with the session's error set.
 */
int ctr_set__add(struct ctr_set *cs, struct session *s, const struct evname *evs, int nr);

/*
 * Read every counter now (the first read, after the session started, also
 * learns the instances; counters count from 0 when enabled, and the first
 * interval's time starts then).
 */
void ctr_set__read(struct ctr_set *cs);

/*
 * Counter @k's value, scaled, for instance @i (-1: all): since the last
 * ctr_set__advance (@since_start false) or since the start.  *share: the
 * running share (1 = counted all the time); NULL when not wanted.
 */
double ctr_set__value(const struct ctr_set *cs, int k, int i, bool since_start, double *share);

/* Instance @i's label: "CPU3", or "comm:tid" for a thread. */
void ctr_set__inst_name(const struct ctr_set *cs, int i, char *who, size_t len);

/* The interval is printed: what was read becomes the base of the next. */
void ctr_set__advance(struct ctr_set *cs);

/*
 * A report of the set, its rows declared once (struct rt_desc) for every
 * sink.  Text, perf stat's layout: one line per counter (per instance and
 * counter with @perins), value with thousands separators, unit, name, perf's
 * "#" comment where it has one (a clock's "CPUs utilized" over the elapsed
 * time; with task-clock or cpu-clock counted too: events per second of that
 * clock, cycles in GHz; "insn per cycle" with cycles, "% of all branches"
 * for branch-misses with branches), and the running share in parentheses
 * when it was multiplexed; "<not counted>" when it never ran.  JSON, one
 * record per line: {"type":"counter","scope","time_ns","interval_ns", "cpu"
 * or "tid"+"comm" (with @perins),"event","value" (null: not counted),
 * "unit" (a clock's "ns", a PMU's), "enabled_ns","running_ns",
 * "running_pct", and the "#" column's number when there is one:
 * "cpus_utilized", "insn_per_cycle", "branch_miss_pct", "ghz" or
 * "per_sec"}.  @since_start: the whole run (the final report).
 */
void ctr_set__emit(const struct ctr_set *cs, struct rt_sink *k, bool perins, bool since_start);

/*
 * A derived line under the counters, as perf stat's "#" column: counter
 * @kn / counter @kd (per instance with @perins), e.g. IPC = instructions /
 * cycles: "           1.25  IPC (instructions / cycles)"; "-" where the
 * divisor is 0 or was not counted.  JSON: {"type":"ratio",...,"name",
 * "numerator","denominator","value"}.
 */
void ctr_set__emit_ratio(const struct ctr_set *cs, struct rt_sink *k, int kn, int kd,
			 const char *label, bool perins, bool since_start);

/*
 * The stamp of a report's JSON records: @what is a ctr_report_fn's
 * ("interval", "so far", "total"), its scope "interval", "so_far", "run".
 */
void ctr_set__stamp(const struct ctr_set *cs, const char *what, bool since_start,
		    struct stats_stamp *st);

/* The sink of a report to @fp: JSON lines stamped for @what, or perf stat's text lines. */
struct ctr_sink {
	union rt_sinks u;
	struct stats_stamp st;
};
struct rt_sink *ctr_set__sink(const struct ctr_set *cs, struct ctr_sink *o, FILE *fp, bool json,
			      const char *what, bool since_start);
/* ctr_set__emit (_ratio) to ctr_set__sink. */
void ctr_set__report(const struct ctr_set *cs, FILE *fp, bool json, bool perins, bool since_start,
		     const char *what);
void ctr_set__report_ratio(const struct ctr_set *cs, FILE *fp, bool json, int kn, int kd,
			   const char *label, bool perins, bool since_start, const char *what);

/*
 * A count @v as a cell (RT_STR): its text ctr__fmt's (with a fraction for
 * @fraction or a unit), its number a clock's msec as integer ns, a real
 * with @fraction or a PMU's scaled unit, else an integer; @buf holds the
 * text.  ctr__unit: the unit the number is then in ("ns", the PMU's, NULL
 * for a plain count).
 */
struct rt_val ctr__val(double v, const char *unit, bool fraction, char *buf, size_t len);
const char *ctr__unit(const char *unit);

/* "1,234,567" (or "1,234.56" for fractional values).  Returns @buf. */
const char *ctr__fmt(double v, bool fraction, char *buf, size_t len);

/*
 * How a counting profiler prints what was read: @what is "interval", "so
 * far" or "total"; @since_start: from the start, else since the last
 * interval.
 */
typedef void (*ctr_report_fn)(struct session *s, void *priv, const char *what, bool since_start);
/*
 * The module's own hooks, registered with @s (after ctr_set__add, in the
 * profiler's init; the profiler needs no interval or snapshot hook): each
 * -i interval, read, @fn(@priv) reports "interval", and the interval
 * becomes the base of the next; SIGUSR1: read, report the run "so far".
 * 0, or -ENOMEM with the session's error set.
 */
int ctr_set__report_by(struct ctr_set *cs, struct session *s, ctr_report_fn fn, void *priv);
/*
 * The end of a started session (deinit): read, the last partial interval
 * (with -i: the intervals add up to the total), then the total, through
 * the report of ctr_set__report_by (none: nothing).
 */
void ctr_set__end(struct ctr_set *cs, struct session *s);

void ctr_set__free(struct ctr_set *cs);

#endif
