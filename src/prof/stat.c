// SPDX-License-Identifier: GPL-2.0
/*
 * stat: counting mode, as perf stat (seed 002).  The events count in the
 * kernel and are read, never sampled: no ring buffer, no record per event.
 * -i prints each interval's counts (at the end the last, partial one, so
 * that they add up), and the end the whole run's, with perf stat's "#"
 * column and the seconds elapsed (and a command's user and sys).  Counters
 * the PMU cannot all hold at once are multiplexed by the kernel: the value
 * is then estimated from the time it ran (value * enabled / running) and the
 * running share is shown, as perf stat does.  {a,b} is a group: counted
 * together, so their ratio holds even when multiplexed.  --period (the
 * original's, shared there with hrcount): the counters are read every
 * period and each interval prints the count of each period in it
 * (analysis/counting/ctrslots), as the original's stat.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "analysis/counting/counters.h"
#include "analysis/counting/ctrslots.h"
#include "engine/features.h"
#include "profiler.h"
#include "report/outfile.h"
#include "util/units.h"

#define STAT_MAX_E 64

struct stat_prof {
	const char *texts[STAT_MAX_E];
	int nr_texts;
	bool perins;
	unsigned long long period; /* --period, ns */
	struct evname *evs;
	int nr_evs;
	struct ctr_set cs;
	struct ctr_slots slots; /* --period */
};

/*
 * --period: the reading period, -i (default 1 s) the interval it divides
 * into slots; the larger of the two is the interval, as the original's.
 */
static int setup_period(struct session *s, struct stat_prof *p)
{
	u64 iv = (u64)(session__interval_ms(s) ? session__interval_ms(s) : 1000) * 1000000ULL;
	u64 per = p->period;
	char a[32], b[32];

	if (per < 1000000ULL || per > 60000000000ULL)
		return session__usage_err(s,
					  "--period %s: between 1ms and 60s (e.g. --period 100ms)",
					  units__fmt_exact(per, a, sizeof(a)));
	if (per > iv) {
		u64 t = per;

		per = iv;
		iv = t;
	}
	if (iv % per)
		return session__usage_err(s,
					  "--period %s and -i %s: the interval must be a whole "
					  "number of periods (e.g. -i 1000 --period 100ms)",
					  units__fmt_exact(per, a, sizeof(a)),
					  units__fmt_exact(iv, b, sizeof(b)));
	if (iv / per > CTR_SLOTS_MAX)
		return session__usage_err(s,
					  "--period %s and -i %s: %llu periods an interval, at "
					  "most %d (a longer --period)",
					  units__fmt_exact(per, a, sizeof(a)),
					  units__fmt_exact(iv, b, sizeof(b)),
					  (unsigned long long)(iv / per), CTR_SLOTS_MAX);
	p->period = per;
	return ctr_slots__start(&p->slots, &p->cs, s, per, (int)(iv / per), p->perins);
}

static int stat_opt_e(void *data, const char *arg, char *err, size_t errlen)
{
	struct stat_prof *p = data;

	if (p->nr_texts == STAT_MAX_E) {
		snprintf(err, errlen, "too many -e (at most %d; put several events in one)",
			 STAT_MAX_E);
		return -1;
	}
	p->texts[p->nr_texts++] = arg;
	return 0;
}

static int stat_init(struct session *s, void *priv, const struct opt_set *opts)
{
	struct stat_prof *p = priv;
	const struct target_opts *t = opt_set__get(opts, &target_group);
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	char err[256];
	int rc;

	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));

	if (t && t->cpus_given && (t->nr_pids || t->nr_tids))
		session__warn(s, "-C is ignored with -p/-t: a thread's counters count wherever it "
				 "runs (perf stat does the same)");
	if (!p->nr_texts)
		p->texts[p->nr_texts++] =
			features__cpu_pmu()
				? "task-clock,context-switches,cpu-migrations,page-faults,cycles,"
				  "instructions"
				: "task-clock,context-switches,cpu-migrations,page-faults";
	for (int i = 0; i < p->nr_texts; i++)
		if (evname__parse_list(p->texts[i], &p->evs, &p->nr_evs, err, sizeof(err)))
			return session__usage_err(s, "-e %s: %s", p->texts[i], err);
	rc = ctr_set__add(&p->cs, s, p->evs, p->nr_evs);
	for (int i = 0; !rc && i < p->cs.nr; i++) /* counted in the modes kept */
		exclude__attr(ex, &p->cs.c[i].ev->attr);
	if (!rc && p->period)
		rc = setup_period(s, p);
	return rc;
}

/* The interval since the last one (read already). */
static void print_interval(struct session *s, struct stat_prof *p)
{
	FILE *out = session__out(s);
	char ts[64];

	if (!session__json(s)) {
		session__fmt_time(s, session__now(s), ts, sizeof(ts));
		fprintf(out, "%s stat: %.3f s\n", ts, (double)(p->cs.t_now - p->cs.t_last) / 1e9);
	}
	ctr_set__report(&p->cs, out, session__json(s), p->perins, false, "interval");
	fflush(out);
	ctr_set__advance(&p->cs);
}

static void stat_interval(struct session *s, void *priv)
{
	struct stat_prof *p = priv;

	if (p->period) /* the slots print their intervals */
		return;
	ctr_set__read(&p->cs);
	print_interval(s, p);
}

static void stat_snapshot(struct session *s, void *priv)
{
	struct stat_prof *p = priv;
	FILE *out = session__out(s);

	ctr_set__read(&p->cs);
	if (!session__json(s))
		fprintf(out, "stat: so far (%.3f s)\n",
			(double)(p->cs.t_now - p->cs.t_first) / 1e9);
	ctr_set__report(&p->cs, out, session__json(s), p->perins, true, "so far");
	fflush(out);
}

/*
 * As perf stat ends: the time elapsed, and the command's own CPU time (it was
 * reaped); --json: {"type":"summary","scope":"run","time_ns","elapsed_ns",
 * "user_ns","sys_ns"}.
 */
static const struct rt_col times_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	RT_COL("scope", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("time_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("elapsed_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("user_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	RT_COL("sys_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
};
static const struct rt_desc times_desc = { .type = "summary", .cols = times_cols, .ncols = 6 };

static void print_times(struct session *s, struct stat_prof *p, FILE *out)
{
	struct rusage ru;
	bool ok = session__workload_status(s) != -1 && !getrusage(RUSAGE_CHILDREN, &ru);
	u64 user = ok ? (u64)ru.ru_utime.tv_sec * 1000000000ULL + (u64)ru.ru_utime.tv_usec * 1000ULL
		      : 0;
	u64 sys = ok ? (u64)ru.ru_stime.tv_sec * 1000000000ULL + (u64)ru.ru_stime.tv_usec * 1000ULL
		     : 0;
	char text[160];
	int l = snprintf(text, sizeof(text), "\n%18.9f seconds time elapsed",
			 (double)(p->cs.t_now - p->cs.t_first) / 1e9);

	if (ok && l > 0 && (size_t)l < sizeof(text))
		snprintf(text + l, sizeof(text) - (size_t)l,
			 "\n\n%18.9f seconds user\n%18.9f seconds sys", (double)user / 1e9,
			 (double)sys / 1e9);
	rtable__record(out, session__json(s), &times_desc,
		       (struct rt_val[]){ { .s = text },
					  { .s = "run" },
					  { .u = session__wall_ns(s, p->cs.t_now) },
					  { .u = p->cs.t_now - p->cs.t_first },
					  { .u = user, .null = !ok },
					  { .u = sys, .null = !ok } });
}

static void stat_deinit(struct session *s, void *priv)
{
	struct stat_prof *p = priv;
	FILE *out = session__out(s);

	if (session__started(s)) {
		ctr_set__read(&p->cs);
		/* the last, partial interval, as perf stat -I: the intervals add up to the total */
		if (p->period)
			ctr_slots__end(&p->slots, s);
		else if (session__interval_ms(s) && p->cs.t_now > p->cs.t_last)
			print_interval(s, p);
		if (!session__json(s))
			fprintf(out, "stat: total (%.3f s)\n",
				(double)(p->cs.t_now - p->cs.t_first) / 1e9);
		ctr_set__report(&p->cs, out, session__json(s), p->perins, true, "total");
		print_times(s, p, out);
		fflush(out);
	}
	ctr_slots__free(&p->slots);
	ctr_set__free(&p->cs);
	evname__free(p->evs, p->nr_evs);
}

static const struct popt stat_opts[] = {
	{ .lname = "event",
	  .sname = 'e',
	  .argname = "EVENT,...",
	  .help = "events to count: cpu-clock, cs, cycles:u, PMU/TERMS/, PMU/ALIAS/, SYS:NAME, "
		  "{A,B} groups (perf-prof list)",
	  .type = POPT_CB,
	  .cb = stat_opt_e },
	{ .lname = "perins",
	  .help = "per instance: each CPU (or each thread with -p/-t/--)",
	  POPT_BIND_FLAG(struct stat_prof, perins) },
	{ .lname = "period",
	  .argname = "TIME",
	  .help = "read the counters every TIME (1ms..60s; 100ms, 1s; a bare number is ns, as the "
		  "original's): each interval prints the count of each period in it",
	  POPT_BIND_TIME(struct stat_prof, period, "ns") },
	{ 0 },
};

const struct profiler prof_stat = {
	.name = "stat",
	.needs = (const char *const[]){ "pmu?=no cycles, instructions", NULL },
	.desc = "count events (no sampling), per interval and in total, as perf stat",
	.synopsis = "perf-prof stat [-e EVENT,...] [-i MS] [--period TIME] [--perins] [-C CPUS|-p "
		    "PID|-t TID|-- command]",
	.examples =
		"perf-prof stat -e page-faults,context-switches -- ./touch 300\n"
		"  perf-prof stat -e cpu-clock,cs,sched:sched_wakeup -C 0-3 -i 1000 --perins\n"
		"  perf-prof stat -e '{cycles,instructions}' -p 4242   # a group: read together\n"
		"  perf-prof stat -e sched:sched_switch -C 0-1 -i 1000 --period 100ms --perins",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &output_group,
						     &exclude_group, NULL },
	.own = stat_opts,
	.priv_size = sizeof(struct stat_prof),
	.init = stat_init,
	.ops = { .interval = stat_interval, .snapshot = stat_snapshot },
	.deinit = stat_deinit,
};
