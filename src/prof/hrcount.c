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

static int by_key(const struct hc_inst *a, const struct hc_inst *b)
{
	return (a->key > b->key) - (a->key < b->key);
}

/*
 * The table: per event (per instance with --perins: its label first, JSON's
 * "exited", or "cpu" or "tid"+"comm"), the periods, the count's total,
 * minimum, average and maximum per period, and when and where (JSON: "max_"
 * "cpu" or "tid"+"comm") the maximum was, over how many periods, the unit.
 * A row without samples: its periods only ("-").
 */
enum {
	HC_WHO,
	HC_EXITED,
	HC_CPU,
	HC_TID,
	HC_COMM,
	HC_EVENT,
	HC_PERIODS,
	HC_TOTAL,
	HC_MIN,
	HC_AVG,
	HC_MAX,
	HC_AT,
	HC_AT_NS,
	HC_AT_WHO,
	HC_AT_CPU,
	HC_AT_TID,
	HC_AT_COMM,
	HC_AT_PERIODS,
	HC_OVER,
	HC_UNIT_TEXT,
	HC_UNIT,
	HC_NR,
};

#define HC_JSON_ONLY (RT_NO_TEXT | RT_OMIT_EMPTY)
#define HC_TEXT_TAIL (RT_LEFT | RT_NO_JSON | RT_TAIL)
#define HC_NUM(n, t, w) RT_COL(n, t, RT_STR, RT_UNIT_NONE, w, RT_TAIL | RT_OMIT_EMPTY)

static const struct rt_col hc_cols[HC_NR] = {
	[HC_WHO] = { .title = "CPU", .type = RT_STR, .width = 16, .flags = RT_LEFT | RT_NO_JSON },
	[HC_EXITED] = { .name = "exited", .type = RT_BOOL, .flags = HC_JSON_ONLY },
	[HC_CPU] = { .name = "cpu", .type = RT_S64, .flags = HC_JSON_ONLY },
	[HC_TID] = { .name = "tid", .type = RT_S64, .flags = HC_JSON_ONLY },
	[HC_COMM] = { .name = "comm", .type = RT_STR, .flags = HC_JSON_ONLY },
	[HC_EVENT] = RT_COL("event", "EVENT", RT_STR, RT_UNIT_NONE, 5, RT_LEFT | RT_FIT),
	[HC_PERIODS] = { .name = "periods", .title = "PERIODS", .type = RT_STR, .width = 9 },
	[HC_TOTAL] = HC_NUM("total", "TOTAL", 14),
	[HC_MIN] = HC_NUM("min", "MIN", 10),
	[HC_AVG] = HC_NUM("avg", "AVG", 12),
	[HC_MAX] = HC_NUM("max", "MAX", 10),
	[HC_AT] = { .title = " MAX AT", .type = RT_STR, .flags = HC_TEXT_TAIL },
	[HC_AT_NS] = RT_COL("max_time_ns", NULL, RT_U64, RT_UNIT_NS, 0, HC_JSON_ONLY),
	[HC_AT_WHO] = { .type = RT_STR, .flags = HC_TEXT_TAIL },
	[HC_AT_CPU] = { .name = "max_cpu", .type = RT_S64, .flags = HC_JSON_ONLY },
	[HC_AT_TID] = { .name = "max_tid", .type = RT_S64, .flags = HC_JSON_ONLY },
	[HC_AT_COMM] = { .name = "max_comm", .type = RT_STR, .flags = HC_JSON_ONLY },
	[HC_AT_PERIODS] = { .name = "max_periods", .type = RT_U64, .flags = HC_JSON_ONLY },
	[HC_OVER] = { .type = RT_STR, .flags = HC_TEXT_TAIL },
	[HC_UNIT_TEXT] = { .type = RT_STR, .flags = HC_TEXT_TAIL },
	[HC_UNIT] = { .name = "unit", .type = RT_STR, .flags = HC_JSON_ONLY },
};

/* The text cells a row keeps while it is emitted. */
struct hc_bufs {
	char inst[64], periods[24], tot[40], mn[40], avg[40], mx[40], ts[64], at[80];
	char w[64];
	char over[48], unit[24];
};

/* Instance @key's label and JSON members (@v: cpu, tid, comm), or none for -1. */
static void who_vals(struct session *s, struct hrcount *p, int key, struct rt_val *v, char *buf,
		     size_t len)
{
	v[0] = v[1] = (struct rt_val){ .null = true };
	v[2] = (struct rt_val){ .s = NULL };
	if (key < 0)
		return;
	if (p->g.per_thread) {
		snprintf(buf, len, "%s:%d", session__comm(s, (u32)key), key);
		v[1] = (struct rt_val){ .i = key };
		v[2].s = session__comm(s, (u32)key);
		v[2].null = !v[2].s; /* written: null */
	} else {
		snprintf(buf, len, "CPU%d", key);
		v[0] = (struct rt_val){ .i = key };
	}
}

/* A row of event @k: instance @key (-1: all of them; -2: the threads folded away). */
static void hc_row(struct session *s, struct hrcount *p, struct rt_sink *k, bool perins, int kk,
		   const struct hrg_stat *st, int key)
{
	const struct hrg_member *m = &p->g.m[kk];
	struct rt_val v[HC_NR];
	struct hc_bufs b = { .inst = "" };

	for (int i = 0; i < HC_NR; i++)
		v[i] = (struct rt_val){ .null = hc_cols[i].type != RT_STR };
	who_vals(s, p, key, &v[HC_CPU], b.inst, sizeof(b.inst));
	if (key == -2) {
		snprintf(b.inst, sizeof(b.inst), "(exited)");
		v[HC_EXITED] = (struct rt_val){ .b = true };
	}
	v[HC_WHO].s = b.inst;
	v[HC_EVENT].s = m->name;
	snprintf(b.periods, sizeof(b.periods), "%llu", (unsigned long long)st->periods);
	v[HC_PERIODS] = (struct rt_val){ .s = st->samples ? b.periods : "-",
					 .num = true,
					 .i = (int64_t)st->periods };
	v[HC_UNIT].s = ctr__unit(m->unit);
	if (st->samples) {
		v[HC_TOTAL] = ctr__val((double)st->total * m->scale, m->unit, false, b.tot,
				       sizeof(b.tot));
		if (st->has_min)
			v[HC_MIN] = ctr__val((double)st->min * m->scale, m->unit, false, b.mn,
					     sizeof(b.mn));
		else
			v[HC_MIN] = (struct rt_val){ .s = "-", .null = true };
		v[HC_AVG] = ctr__val((double)st->total * m->scale / (double)st->periods, m->unit,
				     true, b.avg, sizeof(b.avg));
		v[HC_MAX] =
			ctr__val((double)st->max * m->scale, m->unit, false, b.mx, sizeof(b.mx));
		session__fmt_time(s, st->max_time, b.ts, sizeof(b.ts));
		snprintf(b.at, sizeof(b.at), " %.63s", strlen(b.ts) > 11 ? b.ts + 11 : b.ts);
		v[HC_AT].s = b.at;
		v[HC_AT_NS] = (struct rt_val){ .u = session__wall_ns(s, st->max_time) };
		who_vals(s, p, st->max_key, &v[HC_AT_CPU], b.w, sizeof(b.w));
		v[HC_AT_WHO].s = b.w;
		v[HC_AT_PERIODS] = (struct rt_val){ .u = st->max_periods };
		if (st->max_periods > 1) {
			snprintf(b.over, sizeof(b.over), "(over %llu periods)",
				 (unsigned long long)st->max_periods);
			v[HC_OVER].s = b.over;
		}
		if (m->unit[0]) {
			snprintf(b.unit, sizeof(b.unit), "[%s]", m->unit);
			v[HC_UNIT_TEXT].s = b.unit;
		}
	}
	rtable__row(k, perins ? v : v + 1);
}

/* The rows of every event (per instance with --perins) of the interval, or of the @run. */
static void hc_table(struct session *s, struct hrcount *p, struct rt_sink *k, bool run)
{
	int nr = p->g.nr, base = run ? nr : 0;
	struct rt_col cols[HC_NR];
	struct rt_desc d = { .type = "row", .cols = cols, .ncols = HC_NR };
	struct hc_inst *in, *tmp;

	memcpy(cols, hc_cols, sizeof(cols));
	if (p->g.per_thread)
		cols[HC_WHO].title = "THREAD";
	if (!p->perins) {
		d.cols++;
		d.ncols--;
	}
	for (int kk = 0; kk < nr; kk++) /* the events' column as wide as their names */
		if (!p->g.m[kk].skipped) {
			struct rt_val v[HC_NR] = { [HC_EVENT] = { .s = p->g.m[kk].name } };

			rtable__fit(k, &d, p->perins ? v : v + 1);
		}
	rtable__begin(k, &d);
	for (int kk = 0; kk < nr; kk++) {
		if (p->g.m[kk].skipped)
			continue;
		if (!p->perins) {
			hc_row(s, p, k, false, kk, &p->all[base + kk], -1);
			continue;
		}
		HASH_ITER(hh, p->insts, in, tmp)
		if (in->st[base + kk].samples)
			hc_row(s, p, k, true, kk, &in->st[base + kk], in->key);
		if (p->gone && p->gone->st[base + kk].samples)
			hc_row(s, p, k, true, kk, &p->gone->st[base + kk], -2);
	}
	rtable__end(k);
}

/*
 * --json: the header's numbers ("interval" before the rows), or the run's
 * ("summary" after them) with what the counters hold after the last period.
 */
enum { HH_PERIOD_NS, HH_PERIODS, HH_SAMPLES, HH_CPUS, HH_THREADS, HH_FOLDED, HH_NR };

static const struct rt_col hh_cols[HH_NR] = {
	[HH_PERIOD_NS] = { .name = "period_ns", .type = RT_U64, .unit = RT_UNIT_NS },
	[HH_PERIODS] = { .name = "periods", .type = RT_U64, .unit = RT_UNIT_COUNT },
	[HH_SAMPLES] = { .name = "samples", .type = RT_U64, .unit = RT_UNIT_COUNT },
	[HH_CPUS] = { .name = "cpus", .type = RT_U64, .flags = RT_OMIT_EMPTY },
	[HH_THREADS] = { .name = "threads", .type = RT_U64, .flags = RT_OMIT_EMPTY },
	[HH_FOLDED] = { .name = "exited_folded", .type = RT_U64, .flags = RT_OMIT_EMPTY },
};

static void hc_head(struct session *s, struct hrcount *p, FILE *out, const struct stats_stamp *st,
		    bool run, unsigned ninst)
{
	int nr = p->g.nr, base = run ? nr : 0, n = HH_NR;
	struct rt_col *cols = calloc(HH_NR + nr + 1, sizeof(*cols));
	struct rt_val *v = calloc(HH_NR + nr + 1, sizeof(*v));
	char(*num)[40] = calloc(nr + 1, sizeof(*num));
	u64 *tail = run ? calloc(nr + 1, sizeof(*tail)) : NULL;
	struct rt_json js;

	if (run && (!tail || hrgroup__tail(&p->g, tail)))
		session__warn(s, "the counters could not all be read at the end");
	if (!cols || !v || !num)
		goto out;
	memcpy(cols, hh_cols, sizeof(hh_cols));
	for (int i = 0; i < HH_NR; i++)
		v[i].null = true;
	v[HH_PERIOD_NS] = (struct rt_val){ .u = p->o.period };
	v[HH_PERIODS] = (struct rt_val){ .u = nr ? p->all[base].periods : 0 };
	v[HH_SAMPLES] = (struct rt_val){ .u = nr ? p->all[base].samples : 0 };
	if (p->perins) {
		v[p->g.per_thread ? HH_THREADS : HH_CPUS] = (struct rt_val){ .u = ninst };
		if (run)
			v[HH_FOLDED] = (struct rt_val){ .u = p->nr_folded };
	}
	for (int k = 0; run && tail && k < nr; k++) {
		const struct hrg_member *m = &p->g.m[k];

		if (m->skipped)
			continue;
		cols[n] = (struct rt_col){ .name = m->name,
					   .type = RT_STR,
					   .obj = "after_last_period" };
		v[n++] = ctr__val((double)tail[k] * m->scale, m->unit, false, num[k],
				  sizeof(num[k]));
	}
	if (run) {
		cols[n] = (struct rt_col){ .name = "bad_samples", .type = RT_U64 };
		v[n++] = (struct rt_val){ .u = p->g.nr_bad };
	}
	rtable__one(
		rt_json__init(&js, out, st),
		&(struct rt_desc){ .type = run ? "summary" : "interval", .cols = cols, .ncols = n },
		v);
out:
	free(tail);
	free(num);
	free(v);
	free(cols);
}

/* @run: the whole run's statistics, else this interval's. */
static void report(struct session *s, struct hrcount *p, const char *title, bool run, u64 ns)
{
	FILE *out = session__out(s);
	int nr = p->g.nr, base = run ? nr : 0;
	u64 periods = 0, samples = 0, now = session__now(s);
	struct stats_stamp st = { .scope = run	    ? "run"
					   : *title ? "so_far"
						    : "interval",
				  .time_ns = session__wall_ns(s, now),
				  .interval_ns = ns };
	unsigned ninst = 0;
	char ts[64], per[32];
	struct hc_inst *in, *tmp;
	union rt_sinks u;

	hrgroup__resolve(&p->g); /* no row for an event the kernel refused */
	if (nr) {
		periods = p->all[base].periods;
		samples = p->all[base].samples;
	}
	HASH_SORT(p->insts, by_key);
	HASH_ITER(hh, p->insts, in, tmp)
	ninst += nr && in->st[base].samples;
	if (session__json(s)) {
		if (!run)
			hc_head(s, p, out, &st, run, ninst);
		hc_table(s, p, rt_json__init(&u.json, out, &st), run);
		if (run)
			hc_head(s, p, out, &st, run, ninst);
		fflush(out);
		return;
	}
	session__fmt_time(s, now, ts, sizeof(ts));
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
	hc_table(s, p, rt_text__init(&u.text, out), run);
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
