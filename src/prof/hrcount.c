// SPDX-License-Identifier: GPL-2.0
/*
 * hrcount: the counters of stat, led by a high-resolution timer group
 * (analysis/hrgroup) and read every --period: per interval and at exit,
 * for each event, the number of periods and the minimum, average and
 * maximum count per period, with when (and where) the maximum was.  A
 * workload that does all its events in one burst per second shows a
 * maximum far above its average: the microburst a per-second count hides.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "analysis/counting/counters.h"
#include "analysis/counting/hrgroup.h"
#include "profiler.h"
#include "report/outfile.h"
#include "util/hash.h"
#include "util/json.h"
#include "util/units.h"

/*
 * --perins per thread: rows of threads that ended are kept for the total,
 * up to this many; beyond, at an interval's end, they are folded into one
 * "(exited)" row, so that hours of thread churn hold no more than this.
 */
#define HC_MAX_EXITED 1024

/* A CPU's (or thread's) statistics: st[k] this interval, st[nr + k] the run. */
struct hc_inst {
	UT_hash_handle hh;
	int key;
	bool exited;
	struct hrg_stat st[];
};

struct hrcount {
	struct hrg_opts o; /* first: -e, --period, -F */
	bool perins;
	struct hrgroup g;
	struct hc_inst *insts;
	unsigned nr_exited;   /* threads of insts that ended */
	u64 nr_folded;	      /* threads in gone */
	struct hc_inst *gone; /* the run of the threads folded away (--perins) */
	struct hrg_stat *all; /* every instance together: [k] interval, [nr + k] run */
	u64 t_first, t_last;
};

static void hc_period(struct session *s, void *priv, const struct hrg_period *period,
		      const struct sample *smp);

static int hc_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	static const char *const dflt = "context-switches,cpu-migrations,page-faults";
	struct hrcount *p = priv;
	int err;

	/* no --period: one per interval (-i, default 1 s), as the original's */
	session__want_interval(s, 1000);
	if (!p->o.nr_texts)
		p->o.texts[p->o.nr_texts++] = dflt;
	err = hrgroup__setup(&p->g, s, &p->o, ex, session__interval_ms(s) * 1000000ULL);
	if (err)
		return err;
	p->all = calloc(2 * (p->g.nr ? p->g.nr : 1), sizeof(*p->all));
	if (!p->all)
		return session__set_err(s, -ENOMEM, "out of memory");
	p->t_first = p->t_last = session__now(s);
	return hrgroup__report_to(&p->g, s, hc_period, p);
}

/* The periods a leader sample closes: into the statistics (per instance with --perins). */
static void hc_period(struct session *s, void *priv, const struct hrg_period *period,
		      const struct sample *smp)
{
	struct hrcount *p = priv;
	struct hrg_period per = *period;
	struct hc_inst *in;
	int nr = p->g.nr;

	(void)s, (void)smp;
	HASH_FIND_INT(p->insts, &per.key, in);
	if (!in && p->perins) {
		in = calloc(1, sizeof(*in) + 2 * nr * sizeof(in->st[0]));
		if (!in)
			return;
		in->key = per.key;
		HASH_ADD_INT(p->insts, key, in);
	}
	for (int k = 0; k < nr; k++) {
		if (!per.on[k]) /* cpus= left it out of this CPU's group */
			continue;
		hrg_stat__add(&p->all[k], per.count[k], per.periods, per.time, per.key);
		if (in)
			hrg_stat__add(&in->st[k], per.count[k], per.periods, per.time, per.key);
	}
}

static void hc_exit(struct session *s, void *priv, const struct rec_task *t)
{
	struct hrcount *p = priv;
	struct hc_inst *in;
	int key = (int)t->tid;

	(void)s;
	if (!p->g.per_thread) /* (hrgroup forgets its values itself) */
		return;
	HASH_FIND_INT(p->insts, &key, in);
	if (in && !in->exited) {
		in->exited = true;
		p->nr_exited++;
	}
}

static void who(struct session *s, struct hrcount *p, int key, char *buf, size_t len)
{
	if (p->g.per_thread)
		snprintf(buf, len, "%s:%d", session__comm(s, (u32)key), key);
	else
		snprintf(buf, len, "CPU%d", key);
}

static void row(struct session *s, struct hrcount *p, FILE *out, int k, const struct hrg_stat *st,
		const char *inst, int width)
{
	const struct hrg_member *m = &p->g.m[k];
	bool frac = m->unit[0] != 0;
	char mn[40], avg[40], mx[40], tot[40], ts[64], w[64];

	if (inst)
		fprintf(out, "%-16s ", inst);
	if (!st->samples) {
		fprintf(out, "%-*s %9s\n", width, m->name, "-");
		return;
	}
	ctr__fmt((double)st->total * m->scale, frac, tot, sizeof(tot));
	ctr__fmt(st->has_min ? (double)st->min * m->scale : 0, frac, mn, sizeof(mn));
	ctr__fmt((double)st->total * m->scale / (double)st->periods, true, avg, sizeof(avg));
	ctr__fmt((double)st->max * m->scale, frac, mx, sizeof(mx));
	session__fmt_time(s, st->max_time, ts, sizeof(ts));
	who(s, p, st->max_key, w, sizeof(w));
	fprintf(out, "%-*s %9llu %14s %10s %12s %10s  %s %s", width, m->name,
		(unsigned long long)st->periods, tot, st->has_min ? mn : "-", avg, mx,
		strlen(ts) > 11 ? ts + 11 : ts, w);
	if (st->max_periods > 1)
		fprintf(out, " (over %llu periods)", (unsigned long long)st->max_periods);
	if (m->unit[0])
		fprintf(out, " [%s]", m->unit);
	fputc('\n', out);
}

static int by_key(const struct hc_inst *a, const struct hc_inst *b)
{
	return (a->key > b->key) - (a->key < b->key);
}

/* --json: the instance @key (-1: none) of a row. */
static void json_who(struct session *s, struct hrcount *p, struct json *j, const char *prefix,
		     int key)
{
	char name[32];

	snprintf(name, sizeof(name), "%s%s", prefix, p->g.per_thread ? "tid" : "cpu");
	json__i64(j, name, key);
	if (p->g.per_thread) {
		snprintf(name, sizeof(name), "%scomm", prefix);
		json__str(j, name, session__comm(s, (u32)key));
	}
}

/* --json: a row of the table (README, hrcount). */
static void json_row(struct session *s, struct hrcount *p, FILE *out, int k,
		     const struct hrg_stat *st, int key, const char *scope, u64 now, u64 ns)
{
	const struct hrg_member *m = &p->g.m[k];
	const char *unit = ctr__json_unit(m->unit);
	struct json j;

	json__begin(&j, out, "row");
	json__str(&j, "scope", scope);
	json__u64(&j, "time_ns", session__wall_ns(s, now));
	json__u64(&j, "interval_ns", ns);
	if (key == -2)
		json__bool(&j, "exited", true);
	else if (key >= 0)
		json_who(s, p, &j, "", key);
	json__str(&j, "event", m->name);
	json__u64(&j, "periods", st->periods);
	if (st->samples) {
		ctr__json_num(&j, "total", (double)st->total * m->scale, m->unit, false);
		if (st->has_min)
			ctr__json_num(&j, "min", (double)st->min * m->scale, m->unit, false);
		else
			json__null(&j, "min");
		ctr__json_num(&j, "avg", (double)st->total * m->scale / (double)st->periods,
			      m->unit, true);
		ctr__json_num(&j, "max", (double)st->max * m->scale, m->unit, false);
		json__u64(&j, "max_time_ns", session__wall_ns(s, st->max_time));
		json_who(s, p, &j, "max_", st->max_key);
		json__u64(&j, "max_periods", st->max_periods);
	}
	if (unit)
		json__str(&j, "unit", unit);
	json__end(&j);
}

/* --json: the header's numbers; the run's with what came after the last period. */
static void json_head(struct session *s, struct hrcount *p, FILE *out, const char *scope, bool run,
		      u64 now, u64 ns, unsigned ninst)
{
	int nr = p->g.nr, base = run ? nr : 0;
	struct json j;

	json__begin(&j, out, run ? "summary" : "interval");
	json__str(&j, "scope", scope);
	json__u64(&j, "time_ns", session__wall_ns(s, now));
	json__u64(&j, "interval_ns", ns);
	json__u64(&j, "period_ns", p->o.period);
	json__u64(&j, "periods", nr ? p->all[base].periods : 0);
	json__u64(&j, "samples", nr ? p->all[base].samples : 0);
	if (p->perins) {
		json__u64(&j, p->g.per_thread ? "threads" : "cpus", ninst);
		if (run)
			json__u64(&j, "exited_folded", p->nr_folded);
	}
	if (run) {
		u64 *tail = calloc(nr + 1, sizeof(*tail));

		if (!tail || hrgroup__tail(&p->g, tail))
			session__warn(s, "the counters could not all be read at the end");
		/* what the counters hold beyond the last sample of each CPU (or thread) */
		json__obj(&j, "after_last_period");
		for (int k = 0; tail && k < nr; k++)
			if (!p->g.m[k].skipped)
				ctr__json_num(&j, p->g.m[k].name, (double)tail[k] * p->g.m[k].scale,
					      p->g.m[k].unit, false);
		json__close(&j);
		free(tail);
		json__u64(&j, "bad_samples", p->g.nr_bad);
	}
	json__end(&j);
}

static int by_key(const struct hc_inst *a, const struct hc_inst *b);

/* --json: report()'s records; @scope "interval", "so_far" or "run". */
static void json_report(struct session *s, struct hrcount *p, const char *scope, bool run, u64 ns)
{
	FILE *out = session__out(s);
	int nr = p->g.nr, base = run ? nr : 0;
	u64 now = session__now(s);
	unsigned ninst = 0;
	struct hc_inst *in, *tmp;

	HASH_SORT(p->insts, by_key);
	HASH_ITER(hh, p->insts, in, tmp)
	ninst += nr && in->st[base].samples;
	if (!run)
		json_head(s, p, out, scope, run, now, ns, ninst);
	for (int k = 0; k < nr; k++) {
		if (p->g.m[k].skipped)
			continue;
		if (!p->perins) {
			json_row(s, p, out, k, &p->all[base + k], -1, scope, now, ns);
			continue;
		}
		HASH_ITER(hh, p->insts, in, tmp)
		if (in->st[base + k].samples)
			json_row(s, p, out, k, &in->st[base + k], in->key, scope, now, ns);
		if (p->gone && p->gone->st[base + k].samples)
			json_row(s, p, out, k, &p->gone->st[base + k], -2, scope, now, ns);
	}
	if (run)
		json_head(s, p, out, scope, run, now, ns, ninst);
	fflush(out);
}

/* @run: the whole run's statistics, else this interval's. */
static void report(struct session *s, struct hrcount *p, const char *title, bool run, u64 ns)
{
	FILE *out = session__out(s);
	int nr = p->g.nr, base = run ? nr : 0, width = 5;
	u64 periods = 0, samples = 0;
	unsigned ninst = 0;
	char ts[64], per[32], name[64];
	struct hc_inst *in, *tmp;

	hrgroup__resolve(&p->g); /* no row for an event the kernel refused */
	if (session__json(s)) {
		json_report(s, p, run ? "run" : *title ? "so_far" : "interval", run, ns);
		return;
	}
	for (int k = 0; k < nr; k++)
		if (!p->g.m[k].skipped && (int)strlen(p->g.m[k].name) > width)
			width = (int)strlen(p->g.m[k].name);
	if (nr) {
		periods = p->all[base].periods;
		samples = p->all[base].samples;
	}
	HASH_SORT(p->insts, by_key);
	HASH_ITER(hh, p->insts, in, tmp)
	ninst += nr && in->st[base].samples;
	session__fmt_time(s, session__now(s), ts, sizeof(ts));
	fprintf(out, "%s hrcount: %s%.3f s, period %s: %llu periods in %llu samples", ts, title,
		(double)ns / 1e9, units__fmt_ns(p->o.period, per, sizeof(per)),
		(unsigned long long)periods, (unsigned long long)samples);
	if (p->perins)
		fprintf(out, " on %u %s", ninst,
			p->g.per_thread ? (ninst == 1 ? "thread" : "threads")
					: (ninst == 1 ? "CPU" : "CPUs"));
	if (p->perins && run && p->nr_folded)
		fprintf(out, " and %llu more that ended, in one row (exited)",
			(unsigned long long)p->nr_folded);
	fputc('\n', out);
	if (p->perins)
		fprintf(out, "%-16s ", p->g.per_thread ? "THREAD" : "CPU");
	fprintf(out, "%-*s %9s %14s %10s %12s %10s  %s\n", width, "EVENT", "PERIODS", "TOTAL",
		"MIN", "AVG", "MAX", "MAX AT");
	for (int k = 0; k < nr; k++) {
		if (p->g.m[k].skipped)
			continue;
		if (!p->perins) {
			row(s, p, out, k, &p->all[base + k], NULL, width);
			continue;
		}
		HASH_ITER(hh, p->insts, in, tmp)
		{
			if (!in->st[base + k].samples)
				continue;
			who(s, p, in->key, name, sizeof(name));
			row(s, p, out, k, &in->st[base + k], name, width);
		}
		if (p->gone && p->gone->st[base + k].samples)
			row(s, p, out, k, &p->gone->st[base + k], "(exited)", width);
	}
	fflush(out);
}

/*
 * The interval ends: its statistics join the run's.  Past HC_MAX_EXITED
 * threads that ended, their runs are folded into the "(exited)" row.
 */
static void advance(struct hrcount *p)
{
	int nr = p->g.nr;
	bool fold = p->nr_exited > HC_MAX_EXITED;
	struct hc_inst *in, *tmp;

	for (int k = 0; k < nr; k++) {
		hrg_stat__merge(&p->all[nr + k], &p->all[k]);
		memset(&p->all[k], 0, sizeof(p->all[k]));
	}
	if (fold && !p->gone) {
		p->gone = calloc(1, sizeof(*p->gone) + 2 * nr * sizeof(p->gone->st[0]));
		fold = p->gone != NULL;
	}
	HASH_ITER(hh, p->insts, in, tmp)
	{
		for (int k = 0; k < nr; k++) {
			hrg_stat__merge(&in->st[nr + k], &in->st[k]);
			memset(&in->st[k], 0, sizeof(in->st[k]));
			if (fold && in->exited)
				hrg_stat__merge(&p->gone->st[nr + k], &in->st[nr + k]);
		}
		if (fold && in->exited) {
			HASH_DEL(p->insts, in);
			free(in);
			p->nr_exited--;
			p->nr_folded++;
		}
	}
}

static void hc_interval(struct session *s, void *priv)
{
	struct hrcount *p = priv;
	u64 now = session__now(s);

	report(s, p, "", false, now - p->t_last);
	advance(p);
	p->t_last = now;
}

static void hc_snapshot(struct session *s, void *priv)
{
	struct hrcount *p = priv;

	/* this interval so far, nothing reset */
	report(s, p, "so far ", false, session__now(s) - p->t_last);
}

/* What the counters hold beyond the last sample of each CPU (or thread). */
static void print_tail(struct session *s, struct hrcount *p, FILE *out)
{
	u64 *tail = calloc(p->g.nr + 1, sizeof(*tail));
	bool any = false;
	char num[40];

	if (!tail || hrgroup__tail(&p->g, tail))
		session__warn(s, "the counters could not all be read at the end");
	for (int k = 0; tail && k < p->g.nr; k++) {
		if (!tail[k])
			continue;
		fprintf(out, "%s%s %s",
			any ? "; "
			    : "after the last period of each "
			      "CPU or thread (in no period): ",
			p->g.m[k].name,
			ctr__fmt((double)tail[k] * p->g.m[k].scale, p->g.m[k].unit[0] != 0, num,
				 sizeof(num)));
		any = true;
	}
	if (any)
		fputc('\n', out);
	free(tail);
}

static void hc_deinit(struct session *s, void *priv)
{
	struct hrcount *p = priv;

	if (session__started(s) && p->all) {
		FILE *out = session__out(s);
		u64 now = session__now(s);

		/*
		 * The last, partial interval, as stat's, when it saw samples:
		 * the intervals add up to the total.
		 */
		if (p->all[0].samples)
			report(s, p, "", false, now - p->t_last);
		advance(p);
		report(s, p, "total ", true, now - p->t_first);
		if (session__json(s)) /* the tail is in the summary; lost: the CLI's record */
			goto out_free;
		print_tail(s, p, out);
		if (p->g.nr_bad)
			fprintf(out, "warning: %llu samples not read as the group\n",
				(unsigned long long)p->g.nr_bad);
		session__print_lost(s, out);
		fflush(out);
	}
out_free:
	HASH_FREE_ALL(hh, p->insts);
	free(p->gone);
	free(p->all);
	hrgroup__free(&p->g);
}

static const struct popt hc_opts[] = {
	HRG_POPTS(struct hrcount, o,
		  "events to count, as for stat (cs, sys:name, PMU/TERMS/), or "
		  "sys:name/FILTER/alias=NAME/; default context-switches,cpu-migrations,"
		  "page-faults",
		  "read the counters every TIME (10us..60s; 10ms, 500us; a bare number is ms; "
		  "default: the interval, -i)",
		  "or HZ times a second"),
	{ .lname = "perins",
	  .help = "per instance: each CPU (or each thread with -p/-t/--)",
	  POPT_BIND_FLAG(struct hrcount, perins) },
	{ 0 },
};

const struct profiler prof_hrcount = {
	.name = "hrcount",
	.needs = (const char *const[]){ NULL },
	.desc = "counters read every --period by a high-resolution timer: min/avg/max per period "
		"(microbursts)",
	.synopsis = "perf-prof hrcount [-e EVENT,...] [--period TIME|-F HZ] [-i MS] [--perins] [-C "
		    "CPUS|-p PID|-t TID|-- command]",
	.examples = "perf-prof hrcount -e syscalls:sys_enter_getppid,cs -C 1 --period 10ms\n"
		    "  perf-prof hrcount -e 'sched:sched_wakeup,irq:irq_handler_entry' --period "
		    "1ms --perins\n"
		    "  perf-prof hrcount -e 'sched:sched_switch/prev_state==0/alias=preempt/' -F "
		    "1000 -p 4242",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &ring_group,
						     &output_group, &exclude_group, NULL },
	.own = hc_opts,
	.priv_size = sizeof(struct hrcount),
	.init = hc_init,
	.ops = { .interval = hc_interval, .snapshot = hc_snapshot, .exit = hc_exit },
	.deinit = hc_deinit,
};
