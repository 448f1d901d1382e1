// SPDX-License-Identifier: GPL-2.0
/* A set of counters read per interval: see counters.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/counting/counters.h"
#include "engine/cpulist.h"
#include "engine/tp.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* The events' clock: the session's (perf's own clock under --tsc). */
static u64 set_now(const struct ctr_set *cs)
{
	return cs->s ? session__now(cs->s) : now_ns();
}

static bool tp_exists(const char *sys, const char *name)
{
	char **list;
	int n = tp__expand(sys, name, &list);

	if (n > 0)
		tp__free_list(list);
	return n != 0; /* an error reading tracefs is said by the session */
}

/*
 * An uncore PMU (one with a cpumask: memory controllers, power...) counts
 * for a whole package or die, whichever CPU reads it: the event opens only
 * on the monitored CPUs of its cpumask, one per package, or the sum over
 * CPUs would count each package once per CPU.  The engine refuses it on
 * threads (it cannot follow one).
 */
static int restrict_cpus(struct session *s, struct evsel *ev, const struct evname *e)
{
	const struct target_opts *t = session__conf(s)->target;
	int possible = cpulist__possible(), *mask = NULL, n, kept = 0;

	if (!e->cpumask[0])
		return 0;
	n = cpulist__parse(e->cpumask, possible > 0 ? possible : 1, &mask);
	if (n <= 0)
		return session__set_err(s, -EINVAL, "%s: cannot read its PMU's cpumask '%s'",
					e->name, e->cpumask);
	for (int i = 0; i < n; i++)
		for (int c = 0; c < t->nr_cpus; c++)
			if (mask[i] == t->cpus[c]) {
				mask[kept++] = mask[i];
				break;
			}
	if (!kept) {
		free(mask);
		return session__usage_err(s,
					  "%s counts on CPU %s only (its PMU's cpumask): none of "
					  "them is monitored (-C)",
					  e->name, e->cpumask);
	}
	free(ev->cpus);
	ev->cpus = mask;
	ev->nr_cpus = kept;
	return 0;
}

struct evsel_conf ctr__evsel_conf(const struct evname *e, struct evsel *leader)
{
	return (struct evsel_conf){
		.type = e->attr.type,
		.config = e->attr.config,
		.config1 = e->attr.config1,
		.config2 = e->attr.config2,
		.exclude_user = e->attr.exclude_user,
		.exclude_kernel = e->attr.exclude_kernel,
		.exclude_hv = e->attr.exclude_hv,
		.exclude_guest = e->attr.exclude_guest,
		.exclude_host = e->attr.exclude_host,
		.counting = true,
		.leader = leader,
		.name = e->name,
	};
}

int ctr_set__add(struct ctr_set *cs, struct session *s, const struct evname *evs, int nr)
{
	int base = cs->nr;
	struct ctr *c = realloc(cs->c, (cs->nr + nr) * sizeof(*c));

	if (!c)
		return session__set_err(s, -ENOMEM, "out of memory");
	cs->c = c;
	cs->s = s;
	if (!cs->t_first)
		cs->t_first = cs->t_last = cs->t_now = set_now(cs);
	for (int i = 0; i < nr; i++) {
		const struct evname *e = &evs[i];
		struct ctr *k = &cs->c[cs->nr];
		struct evsel_conf conf = ctr__evsel_conf(
			e, e->leader >= 0 && e->leader != i ? cs->c[base + e->leader].ev : NULL);

		if (e->sys && !tp_exists(e->sys, e->tp))
			return session__usage_err(
				s, "unknown tracepoint '%s:%s' (see: perf-prof list '%s:*')",
				e->sys, e->tp, e->sys);
		memset(k, 0, sizeof(*k));
		k->ev = e->sys ? session__add_tp(s, e->sys, e->tp, &conf)
			       : session__add_event(s, &conf);
		if (!k->ev)
			return -EINVAL;
		if (restrict_cpus(s, k->ev, e))
			return -EINVAL;
		k->scale = e->scale > 0 ? e->scale : 1.0;
		snprintf(k->unit, sizeof(k->unit), "%s", e->unit);
		snprintf(k->name, sizeof(k->name), "%s", e->name);
		cs->nr++;
	}
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Where counter @j of @ev counts: its thread per thread, else its CPU. */
static int inst_key(const struct ctr_set *cs, const struct evsel *ev, int j)
{
	int cpu = -1;
	pid_t tid = -1;

	session__counter_at(cs->s, ev, j, &cpu, &tid);
	return cs->per_thread ? tid : cpu;
}

/* Whether counter @j of @ev counts one thread. */
static bool on_thread(const struct ctr_set *cs, const struct evsel *ev, int j)
{
	int cpu;
	pid_t tid = -1;

	session__counter_at(cs->s, ev, j, &cpu, &tid);
	return tid >= 0;
}

/*
 * The instances (the CPUs, or the threads), sorted, and each counter fd's
 * among them: sorted once, found by bisection (thousands of threads with -p).
 */
static int setup(struct ctr_set *cs)
{
	size_t total = 0;
	int n = 0;
	u64 t0 = session__enabled_time(cs->s);

	cs->per_thread = false;
	for (int k = 0; k < cs->nr; k++)
		for (int j = 0; j < session__nr_counters(cs->s, cs->c[k].ev); j++) {
			cs->per_thread |= on_thread(cs, cs->c[k].ev, j);
			total++;
		}
	cs->inst = malloc((total ? total : 1) * sizeof(*cs->inst));
	cs->inst_of_fd = calloc(cs->nr > 0 ? (size_t)cs->nr : 1, sizeof(*cs->inst_of_fd));
	if (!cs->inst || !cs->inst_of_fd) {
		free(cs->inst);
		free(cs->inst_of_fd);
		cs->inst = NULL;
		cs->inst_of_fd = NULL;
		return -ENOMEM; /* tried again at the next read */
	}
	for (int k = 0; k < cs->nr; k++)
		for (int j = 0; j < session__nr_counters(cs->s, cs->c[k].ev); j++)
			cs->inst[n++] = inst_key(cs, cs->c[k].ev, j);
	qsort(cs->inst, n, sizeof(*cs->inst), cmp_int);
	for (int i = 0; i < n; i++)
		if (!cs->nr_inst || cs->inst[i] != cs->inst[cs->nr_inst - 1])
			cs->inst[cs->nr_inst++] = cs->inst[i];
	for (int k = 0; k < cs->nr; k++) {
		struct ctr *c = &cs->c[k];
		size_t ni = cs->nr_inst > 0 ? (size_t)cs->nr_inst : 1;
		int nr_cnt = session__nr_counters(cs->s, c->ev);
		int *of = calloc(nr_cnt > 0 ? (size_t)nr_cnt : 1, sizeof(int));

		c->now = calloc(ni, sizeof(*c->now));
		c->last = calloc(ni, sizeof(*c->last));
		c->first = calloc(ni, sizeof(*c->first));
		if (!of || !c->now || !c->last || !c->first) {
			free(of);
			free(c->now);
			free(c->last);
			free(c->first);
			c->now = c->last = c->first = NULL; /* this counter stays unread */
			continue;
		}
		for (int j = 0; j < nr_cnt; j++) {
			int key = inst_key(cs, c->ev, j);
			int *hit = bsearch(&key, cs->inst, cs->nr_inst, sizeof(int), cmp_int);

			of[j] = (int)(hit - cs->inst); /* every key is there */
		}
		cs->inst_of_fd[k] = of;
	}
	/* counters count from 0 when enabled: first and last are 0, then */
	if (t0)
		cs->t_first = cs->t_last = t0;
	return 0;
}

void ctr_set__read(struct ctr_set *cs)
{
	if (!cs->inst_of_fd && setup(cs))
		return; /* out of memory: nothing read, values stay 0 */
	for (int k = 0; k < cs->nr; k++) {
		struct ctr *c = &cs->c[k];

		if (!c->now)
			continue;
		memset(c->now, 0, cs->nr_inst * sizeof(*c->now));
		memset(&c->sum_now, 0, sizeof(c->sum_now));
		for (int j = 0; j < session__nr_counters(cs->s, c->ev); j++) {
			struct counter_val v;

			if (session__read_counter(cs->s, c->ev, j, &v))
				continue;
			counter__add(&c->now[cs->inst_of_fd[k][j]], &v);
			counter__add(&c->sum_now, &v);
		}
	}
	cs->t_now = set_now(cs);
}

double ctr_set__value(const struct ctr_set *cs, int k, int i, bool since_start, double *share)
{
	const struct ctr *c = &cs->c[k];
	const struct counter_val *now = i < 0 ? &c->sum_now : &c->now[i];
	const struct counter_val *base = i < 0 ? (since_start ? &c->sum_first : &c->sum_last)
					       : (since_start ? &c->first[i] : &c->last[i]);
	struct counter_val d;

	if (!c->now) {
		if (share)
			*share = 0;
		return 0;
	}
	d = counter__delta(now, base);
	return counter__scaled(&d, share) * c->scale;
}

void ctr_set__advance(struct ctr_set *cs)
{
	for (int k = 0; k < cs->nr; k++) {
		struct ctr *c = &cs->c[k];

		if (c->now)
			memcpy(c->last, c->now, cs->nr_inst * sizeof(*c->now));
		c->sum_last = c->sum_now;
	}
	cs->t_last = cs->t_now;
}

const char *ctr__fmt(double v, bool fraction, char *buf, size_t len)
{
	char digits[64], out[96];
	unsigned long long ip;
	int n, o = 0, frac;

	if (v < 0)
		v = 0;
	if (fraction) {
		ip = (unsigned long long)v;
		frac = (int)llround((v - (double)ip) * 100.0);
		if (frac >= 100) {
			ip++;
			frac -= 100;
		}
	} else {
		ip = (unsigned long long)llround(v);
		frac = 0;
	}
	n = snprintf(digits, sizeof(digits), "%llu", ip);
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = 0;
	if (fraction)
		snprintf(buf, len, "%s.%02d", out, frac);
	else
		snprintf(buf, len, "%s", out);
	return buf;
}

void ctr_set__inst_name(const struct ctr_set *cs, int i, char *who, size_t len)
{
	if (cs->per_thread)
		snprintf(who, len, "%s:%d", session__comm(cs->s, (u32)cs->inst[i]), cs->inst[i]);
	else
		snprintf(who, len, "CPU%d", cs->inst[i]);
}

static bool is_ctr(const struct ctr *c, u32 type, u64 config)
{
	return c->ev->attr.type == type && c->ev->attr.config == config;
}

static bool is_clock(const struct ctr *c)
{
	return is_ctr(c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) ||
	       is_ctr(c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

/* The first counter of @type/@config in the set, or -1. */
static int find_ctr(const struct ctr_set *cs, u32 type, u64 config)
{
	for (int k = 0; k < cs->nr; k++)
		if (is_ctr(&cs->c[k], type, config))
			return k;
	return -1;
}

/* A counter's value in its own units (ns for the clocks), or -1 when it was not counted. */
static double raw_value(const struct ctr_set *cs, int k, int i, bool since_start)
{
	double share, v;

	if (k < 0)
		return -1;
	v = ctr_set__value(cs, k, i, since_start, &share);
	return share > 0.0 ? v / cs->c[k].scale : -1;
}

/* What perf stat's "#" column says of a count (ctr_metric), and its value. */
enum ctr_metric { CM_NONE, CM_CPUS, CM_IPC, CM_BRANCH, CM_GHZ, CM_RATE };

/*
 * perf stat's comment after a count ("#" column): the CPUs a clock kept
 * busy over the elapsed time, cycles per clock time (GHz), instructions per
 * cycle, branch misses of all branches (%), and other events per second of
 * task-clock (else cpu-clock) time.  CM_NONE for none.
 */
static enum ctr_metric metric_of(const struct ctr_set *cs, int k, int i, bool since_start, double v,
				 double *out)
{
	const struct ctr *c = &cs->c[k];
	u64 from = since_start ? cs->t_first : cs->t_last;
	int clock = find_ctr(cs, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	double raw = v / c->scale, d;

	if (clock < 0)
		clock = find_ctr(cs, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	if (is_clock(c)) {
		if (cs->t_now <= from)
			return CM_NONE;
		*out = raw / (double)(cs->t_now - from);
		return CM_CPUS;
	}
	if (is_ctr(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS)) {
		d = raw_value(cs, find_ctr(cs, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), i,
			      since_start);
		if (d > 0) {
			*out = raw / d;
			return CM_IPC;
		}
		if (d >= 0)
			return CM_NONE;
	}
	if (is_ctr(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES)) {
		d = raw_value(cs,
			      find_ctr(cs, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
			      i, since_start);
		if (d > 0) {
			*out = raw * 100.0 / d;
			return CM_BRANCH;
		}
		if (d >= 0)
			return CM_NONE;
	}
	d = raw_value(cs, clock, i, since_start); /* ns */
	if (d <= 0 || c->unit[0])
		return CM_NONE;
	if (is_ctr(c, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) {
		*out = raw / d;
		return CM_GHZ;
	}
	*out = raw * 1e9 / d;
	return CM_RATE;
}

/* The "#" column's text into @buf, "" for none. */
static void metric(const struct ctr_set *cs, int k, int i, bool since_start, double v, char *buf,
		   size_t len)
{
	double r = 0;
	const char *p;

	buf[0] = '\0';
	switch (metric_of(cs, k, i, since_start, v, &r)) {
	case CM_NONE:
		break;
	case CM_CPUS:
		snprintf(buf, len, "#  %8.3f CPUs utilized", r);
		break;
	case CM_IPC:
		snprintf(buf, len, "#  %8.2f insn per cycle", r);
		break;
	case CM_BRANCH:
		snprintf(buf, len, "#  %7.2f%% of all branches", r);
		break;
	case CM_GHZ:
		snprintf(buf, len, "#  %8.3f GHz", r);
		break;
	case CM_RATE:
		p = r >= 1e9 ? "G" : r >= 1e6 ? "M" : r >= 1e3 ? "K" : "";
		r /= *p == 'G' ? 1e9 : *p == 'M' ? 1e6 : *p == 'K' ? 1e3 : 1;
		snprintf(buf, len, "#  %8.3f %s/sec", r, p);
		break;
	}
}

static u64 wall_ns(const struct ctr_set *cs, u64 t)
{
	return cs->s ? session__wall_ns(cs->s, t) : t;
}

struct rt_val ctr__val(double v, const char *unit, bool fraction, char *buf, size_t len)
{
	bool frac = fraction || (unit && unit[0]);
	struct rt_val r = { .s = ctr__fmt(v, frac, buf, len), .num = true };

	if (unit && !strcmp(unit, "msec")) {
		r.i = llround(v * 1e6);
	} else if (frac) {
		r.real = true;
		r.d = v;
	} else {
		r.i = llround(v < 0 ? 0 : v);
	}
	return r;
}

const char *ctr__unit(const char *unit)
{
	return !unit || !unit[0] ? NULL : !strcmp(unit, "msec") ? "ns" : unit;
}

void ctr_set__stamp(const struct ctr_set *cs, const char *what, bool since_start,
		    struct stats_stamp *st)
{
	u64 from = since_start ? cs->t_first : cs->t_last;

	/* ctr_report_fn's words */
	st->scope = !strcmp(what, "so far") ? "so_far" : !strcmp(what, "total") ? "run" : what;
	st->time_ns = wall_ns(cs, cs->t_now);
	st->interval_ns = cs->t_now > from ? cs->t_now - from : 0;
}

/*
 * The instance a row is of, first in each table: its text label (a column
 * only with --perins: the descriptions below begin at CI_NR_WHO without),
 * then JSON's "cpu", or "tid" and "comm".
 */
enum { CI_WHO, CI_CPU, CI_TID, CI_COMM, CI_NR };
#define CTR_WHO_COLS                                                                       \
	[CI_WHO] = { .type = RT_STR, .width = 16, .flags = RT_LEFT | RT_NO_JSON },         \
	[CI_CPU] = { .name = "cpu", .type = RT_S64, .flags = RT_NO_TEXT | RT_OMIT_EMPTY }, \
	[CI_TID] = { .name = "tid", .type = RT_S64, .flags = RT_NO_TEXT | RT_OMIT_EMPTY }, \
	[CI_COMM] = { .name = "comm", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY }

/* Instance @i's (-1: none) values of the CTR_WHO_COLS; @who holds the label. */
static void who_vals(const struct ctr_set *cs, int i, struct rt_val *v, char *who, size_t len)
{
	v[CI_WHO] = (struct rt_val){ .s = NULL };
	v[CI_CPU] = v[CI_TID] = (struct rt_val){ .null = true };
	v[CI_COMM] = (struct rt_val){ .s = NULL };
	if (i < 0)
		return;
	ctr_set__inst_name(cs, i, who, len);
	v[CI_WHO].s = who;
	if (cs->per_thread) {
		v[CI_TID] = (struct rt_val){ .i = cs->inst[i] };
		v[CI_COMM].s = cs->s ? session__comm(cs->s, (u32)cs->inst[i]) : NULL;
		v[CI_COMM].null = !v[CI_COMM].s; /* written: null */
	} else {
		v[CI_CPU] = (struct rt_val){ .i = cs->inst[i] };
	}
}

/*
 * A counter's line: perf stat's (the value, its unit, the name, the "#"
 * comment and the running share: CC_DESC), and JSON's record (the event,
 * the value in ns for a clock, enabled and running times, the "#" number).
 */
enum {
	CC_EVENT = CI_NR,
	CC_VALUE,
	CC_UNIT_TEXT,
	CC_UNIT,
	CC_DESC,
	CC_ENABLED,
	CC_RUNNING,
	CC_PCT,
	CC_METRIC, /* + enum ctr_metric - 1 */
	CC_NR = CC_METRIC + CM_RATE,
};

static const struct rt_col ctr_cols[CC_NR] = {
	CTR_WHO_COLS,
	[CC_EVENT] = { .name = "event", .type = RT_STR, .flags = RT_NO_TEXT },
	[CC_VALUE] = { .name = "value", .type = RT_STR, .width = 20 },
	[CC_UNIT_TEXT] = { .type = RT_STR, .width = 5, .flags = RT_LEFT | RT_NO_JSON },
	[CC_UNIT] = { .name = "unit", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	[CC_DESC] = { .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	[CC_ENABLED] = { .name = "enabled_ns",
			 .type = RT_U64,
			 .unit = RT_UNIT_NS,
			 .flags = RT_NO_TEXT },
	[CC_RUNNING] = { .name = "running_ns",
			 .type = RT_U64,
			 .unit = RT_UNIT_NS,
			 .flags = RT_NO_TEXT },
	[CC_PCT] = { .name = "running_pct",
		     .type = RT_F64,
		     .unit = RT_UNIT_PERCENT,
		     .flags = RT_NO_TEXT },
#define CTR_METRIC(m, n) \
	[CC_METRIC + (m)-1] = { .name = n, .type = RT_F64, .flags = RT_NO_TEXT | RT_OMIT_EMPTY }
	CTR_METRIC(CM_CPUS, "cpus_utilized"),
	CTR_METRIC(CM_IPC, "insn_per_cycle"),
	CTR_METRIC(CM_BRANCH, "branch_miss_pct"),
	CTR_METRIC(CM_GHZ, "ghz"),
	CTR_METRIC(CM_RATE, "per_sec"),
#undef CTR_METRIC
};

static void ctr_row(const struct ctr_set *cs, struct rt_sink *k, bool perins, int kk, int i,
		    bool since_start)
{
	const struct ctr *c = &cs->c[kk];
	double share, r = 0, v = ctr_set__value(cs, kk, i, since_start, &share);
	struct counter_val d = { 0 };
	char who[64], num[64], m[64], desc[256];
	struct rt_val vals[CC_NR];
	enum ctr_metric cm = CM_NONE;
	int n = 0;

	if (c->now) {
		const struct counter_val *now = i < 0 ? &c->sum_now : &c->now[i];
		const struct counter_val *base =
			i < 0 ? (since_start ? &c->sum_first : &c->sum_last)
			      : (since_start ? &c->first[i] : &c->last[i]);

		d = counter__delta(now, base);
	}
	who_vals(cs, i, vals, who, sizeof(who));
	vals[CC_EVENT] = (struct rt_val){ .s = c->name };
	if (share <= 0.0) {
		vals[CC_VALUE] = (struct rt_val){ .s = "<not counted>", .null = true };
		snprintf(desc, sizeof(desc), "%s", c->name);
	} else {
		vals[CC_VALUE] = ctr__val(v, c->unit, false, num, sizeof(num));
		cm = metric_of(cs, kk, i, since_start, v, &r);
		metric(cs, kk, i, since_start, v, m, sizeof(m));
		if (m[0])
			n = snprintf(desc, sizeof(desc), "%-26s %s", c->name, m);
		else
			n = snprintf(desc, sizeof(desc), "%s", c->name);
		if (share < 0.9999 && n >= 0 && (size_t)n < sizeof(desc))
			snprintf(desc + n, sizeof(desc) - n, "  (%.2f%%)", share * 100.0);
	}
	vals[CC_UNIT_TEXT] = (struct rt_val){ .s = c->unit };
	vals[CC_UNIT] = (struct rt_val){ .s = ctr__unit(c->unit) };
	vals[CC_DESC] = (struct rt_val){ .s = desc };
	vals[CC_ENABLED] = (struct rt_val){ .u = d.ena };
	vals[CC_RUNNING] = (struct rt_val){ .u = d.run };
	vals[CC_PCT] = (struct rt_val){ .d = share * 100.0 };
	for (int x = CM_CPUS; x <= CM_RATE; x++)
		vals[CC_METRIC + x - 1] = (struct rt_val){ .d = r, .null = x != (int)cm };
	rtable__row(k, perins ? vals : vals + 1);
}

void ctr_set__emit(const struct ctr_set *cs, struct rt_sink *k, bool perins, bool since_start)
{
	const struct rt_desc d = { .type = "counter",
				   .cols = perins ? ctr_cols : ctr_cols + 1,
				   .ncols = perins ? CC_NR : CC_NR - 1 };

	rtable__begin(k, &d);
	for (int kk = 0; kk < cs->nr; kk++) {
		if (!perins) {
			ctr_row(cs, k, false, kk, -1, since_start);
			continue;
		}
		for (int i = 0; i < cs->nr_inst; i++)
			ctr_row(cs, k, true, kk, i, since_start);
	}
	rtable__end(k);
}

/* A ratio's line: "%20.2f" (or "-"), no unit, the label, "(numerator / denominator)". */
enum { CR_VALUE_TEXT = CI_NR, CR_UNIT_TEXT, CR_NAME, CR_OF, CR_NUM, CR_DEN, CR_VALUE, CR_NR };

static const struct rt_col ratio_cols[CR_NR] = {
	CTR_WHO_COLS,
	[CR_VALUE_TEXT] = { .type = RT_F64, .width = 20, .decimals = 2, .flags = RT_NO_JSON },
	[CR_UNIT_TEXT] = { .type = RT_STR, .width = 5, .flags = RT_LEFT | RT_NO_JSON },
	[CR_NAME] = { .name = "name", .type = RT_STR, .flags = RT_LEFT },
	[CR_OF] = { .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	[CR_NUM] = { .name = "numerator", .type = RT_STR, .flags = RT_NO_TEXT },
	[CR_DEN] = { .name = "denominator", .type = RT_STR, .flags = RT_NO_TEXT },
	[CR_VALUE] = { .name = "value", .type = RT_F64, .flags = RT_NO_TEXT },
};

void ctr_set__emit_ratio(const struct ctr_set *cs, struct rt_sink *k, int kn, int kd,
			 const char *label, bool perins, bool since_start)
{
	const struct rt_desc d = { .type = "ratio",
				   .cols = perins ? ratio_cols : ratio_cols + 1,
				   .ncols = perins ? CR_NR : CR_NR - 1 };
	char who[64], of[300];

	snprintf(of, sizeof(of), "(%s / %s)", cs->c[kn].name, cs->c[kd].name);
	rtable__begin(k, &d);
	for (int i = perins ? 0 : -1; i < (perins ? cs->nr_inst : 0); i++) {
		double sn, sd, n = ctr_set__value(cs, kn, i, since_start, &sn);
		double dv = ctr_set__value(cs, kd, i, since_start, &sd);
		struct rt_val v[CR_NR];
		struct rt_val val = { .d = dv > 0 ? n / dv : 0,
				      .null = !(dv > 0 && sn > 0 && sd > 0) };

		who_vals(cs, i, v, who, sizeof(who));
		v[CR_VALUE_TEXT] = v[CR_VALUE] = val;
		v[CR_UNIT_TEXT] = (struct rt_val){ .s = "" };
		v[CR_NAME] = (struct rt_val){ .s = label };
		v[CR_OF] = (struct rt_val){ .s = of };
		v[CR_NUM] = (struct rt_val){ .s = cs->c[kn].name };
		v[CR_DEN] = (struct rt_val){ .s = cs->c[kd].name };
		rtable__row(k, perins ? v : v + 1);
	}
	rtable__end(k);
}

struct rt_sink *ctr_set__sink(const struct ctr_set *cs, struct ctr_sink *o, FILE *fp, bool json,
			      const char *what, bool since_start)
{
	if (json) {
		ctr_set__stamp(cs, what ? what : "total", since_start, &o->st);
		return rt_json__init(&o->u.json, fp, &o->st);
	}
	rt_text__init(&o->u.text, fp);
	o->u.text.no_header = true; /* perf stat's lines */
	return &o->u.text.sink;
}

void ctr_set__report(const struct ctr_set *cs, FILE *fp, bool json, bool perins, bool since_start,
		     const char *what)
{
	struct ctr_sink o;

	ctr_set__emit(cs, ctr_set__sink(cs, &o, fp, json, what, since_start), perins, since_start);
}

void ctr_set__report_ratio(const struct ctr_set *cs, FILE *fp, bool json, int kn, int kd,
			   const char *label, bool perins, bool since_start, const char *what)
{
	struct ctr_sink o;

	ctr_set__emit_ratio(cs, ctr_set__sink(cs, &o, fp, json, what, since_start), kn, kd, label,
			    perins, since_start);
}

/* The hook set of ctr_set__report_by (@priv the ctr_set). */
static void on_interval(struct session *s, void *priv)
{
	struct ctr_set *cs = priv;

	ctr_set__read(cs);
	cs->report(s, cs->report_priv, "interval", false);
	ctr_set__advance(cs);
}

static void on_snapshot(struct session *s, void *priv)
{
	struct ctr_set *cs = priv;

	ctr_set__read(cs);
	cs->report(s, cs->report_priv, "so far", true);
}

static const struct session_ops ctr_set_ops = {
	.interval = on_interval,
	.snapshot = on_snapshot,
};

int ctr_set__report_by(struct ctr_set *cs, struct session *s, ctr_report_fn fn, void *priv)
{
	cs->report = fn;
	cs->report_priv = priv;
	return session__add_ops(s, &ctr_set_ops, cs);
}

void ctr_set__end(struct ctr_set *cs, struct session *s)
{
	if (!session__started(s) || !cs->report)
		return;
	ctr_set__read(cs);
	if (session__interval_ms(s) && cs->t_now > cs->t_last) {
		cs->report(s, cs->report_priv, "interval", false);
		ctr_set__advance(cs);
	}
	cs->report(s, cs->report_priv, "total", true);
}

void ctr_set__free(struct ctr_set *cs)
{
	for (int k = 0; k < cs->nr; k++) {
		free(cs->c[k].now);
		free(cs->c[k].last);
		free(cs->c[k].first);
		if (cs->inst_of_fd)
			free(cs->inst_of_fd[k]);
	}
	free(cs->inst_of_fd);
	free(cs->inst);
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}
