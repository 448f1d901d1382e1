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
#include "util/json.h"

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

static int inst_key(const struct ctr_set *cs, const struct counter_fd *f)
{
	return cs->per_thread ? f->tid : f->cpu;
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
		for (int j = 0; j < cs->c[k].ev->nr_cnt; j++) {
			cs->per_thread |= cs->c[k].ev->cnt[j].tid >= 0;
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
		for (int j = 0; j < cs->c[k].ev->nr_cnt; j++)
			cs->inst[n++] = inst_key(cs, &cs->c[k].ev->cnt[j]);
	qsort(cs->inst, n, sizeof(*cs->inst), cmp_int);
	for (int i = 0; i < n; i++)
		if (!cs->nr_inst || cs->inst[i] != cs->inst[cs->nr_inst - 1])
			cs->inst[cs->nr_inst++] = cs->inst[i];
	for (int k = 0; k < cs->nr; k++) {
		struct ctr *c = &cs->c[k];
		size_t ni = cs->nr_inst > 0 ? (size_t)cs->nr_inst : 1;
		int *of = calloc(c->ev->nr_cnt > 0 ? (size_t)c->ev->nr_cnt : 1, sizeof(int));

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
		for (int j = 0; j < c->ev->nr_cnt; j++) {
			int key = inst_key(cs, &c->ev->cnt[j]);
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
		for (int j = 0; j < c->ev->nr_cnt; j++) {
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

static void inst_name(const struct ctr_set *cs, int i, char *who, size_t len)
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

static void print_line(const struct ctr_set *cs, FILE *fp, int k, int i, bool since_start,
		       const char *who)
{
	const struct ctr *c = &cs->c[k];
	double share, v = ctr_set__value(cs, k, i, since_start, &share);
	char num[64], m[64];

	if (who)
		fprintf(fp, "%-16s ", who);
	if (share <= 0.0) {
		fprintf(fp, "%20s %-5s %s\n", "<not counted>", c->unit, c->name);
		return;
	}
	metric(cs, k, i, since_start, v, m, sizeof(m));
	fprintf(fp, "%20s %-5s ", ctr__fmt(v, c->unit[0] != 0, num, sizeof(num)), c->unit);
	if (m[0])
		fprintf(fp, "%-26s %s", c->name, m);
	else
		fputs(c->name, fp);
	if (share < 0.9999)
		fprintf(fp, "  (%.2f%%)", share * 100.0);
	fputc('\n', fp);
}

void ctr_set__print(const struct ctr_set *cs, FILE *fp, bool perins, bool since_start)
{
	char who[64];

	for (int k = 0; k < cs->nr; k++) {
		if (!perins) {
			print_line(cs, fp, k, -1, since_start, NULL);
			continue;
		}
		for (int i = 0; i < cs->nr_inst; i++) {
			inst_name(cs, i, who, sizeof(who));
			print_line(cs, fp, k, i, since_start, who);
		}
	}
}

void ctr_set__print_ratio(const struct ctr_set *cs, FILE *fp, int kn, int kd, const char *label,
			  bool perins, bool since_start)
{
	char who[64];

	for (int i = perins ? 0 : -1; i < (perins ? cs->nr_inst : 0); i++) {
		double sn, sd, n = ctr_set__value(cs, kn, i, since_start, &sn);
		double d = ctr_set__value(cs, kd, i, since_start, &sd);

		if (i >= 0) {
			inst_name(cs, i, who, sizeof(who));
			fprintf(fp, "%-16s ", who);
		}
		if (d > 0 && sn > 0 && sd > 0)
			fprintf(fp, "%20.2f %-5s %s (%s / %s)\n", n / d, "", label, cs->c[kn].name,
				cs->c[kd].name);
		else
			fprintf(fp, "%20s %-5s %s (%s / %s)\n", "-", "", label, cs->c[kn].name,
				cs->c[kd].name);
	}
}

const char *ctr__json_unit(const char *unit)
{
	return !unit || !unit[0] ? NULL : !strcmp(unit, "msec") ? "ns" : unit;
}

void ctr__json_num(struct json *j, const char *key, double v, const char *unit, bool fraction)
{
	if (unit && !strcmp(unit, "msec"))
		json__u64(j, key, (u64)llround(v * 1e6));
	else if (fraction || (unit && unit[0]))
		json__f64(j, key, v);
	else
		json__u64(j, key, (u64)llround(v < 0 ? 0 : v));
}

static u64 wall_ns(const struct ctr_set *cs, u64 t)
{
	return cs->s ? session__wall_ns(cs->s, t) : t;
}

/* The members every record of an instance starts with. */
static void json_head(const struct ctr_set *cs, struct json *j, int i, bool since_start,
		      const char *scope)
{
	u64 from = since_start ? cs->t_first : cs->t_last;

	/* ctr_report_fn's words */
	json__str(j, "scope",
		  !strcmp(scope, "so far")  ? "so_far"
		  : !strcmp(scope, "total") ? "run"
					    : scope);
	json__u64(j, "time_ns", wall_ns(cs, cs->t_now));
	json__u64(j, "interval_ns", cs->t_now > from ? cs->t_now - from : 0);
	if (i < 0)
		return;
	if (cs->per_thread) {
		json__i64(j, "tid", cs->inst[i]);
		json__str(j, "comm", cs->s ? session__comm(cs->s, (u32)cs->inst[i]) : NULL);
	} else {
		json__i64(j, "cpu", cs->inst[i]);
	}
}

static void json_line(const struct ctr_set *cs, FILE *fp, int k, int i, bool since_start,
		      const char *scope)
{
	static const char *const mname[] = { [CM_CPUS] = "cpus_utilized",
					     [CM_IPC] = "insn_per_cycle",
					     [CM_BRANCH] = "branch_miss_pct",
					     [CM_GHZ] = "ghz",
					     [CM_RATE] = "per_sec" };
	const struct ctr *c = &cs->c[k];
	double share, r = 0, v = ctr_set__value(cs, k, i, since_start, &share);
	struct counter_val d = { 0 };
	enum ctr_metric m;
	struct json j;

	if (c->now) {
		const struct counter_val *now = i < 0 ? &c->sum_now : &c->now[i];
		const struct counter_val *base =
			i < 0 ? (since_start ? &c->sum_first : &c->sum_last)
			      : (since_start ? &c->first[i] : &c->last[i]);

		d = counter__delta(now, base);
	}
	json__begin(&j, fp, "counter");
	json_head(cs, &j, i, since_start, scope);
	json__str(&j, "event", c->name);
	if (share <= 0.0)
		json__null(&j, "value");
	else
		ctr__json_num(&j, "value", v, c->unit, false);
	if (ctr__json_unit(c->unit))
		json__str(&j, "unit", ctr__json_unit(c->unit));
	json__u64(&j, "enabled_ns", d.ena);
	json__u64(&j, "running_ns", d.run);
	json__f64(&j, "running_pct", share * 100.0);
	if (share > 0.0 && (m = metric_of(cs, k, i, since_start, v, &r)) != CM_NONE)
		json__f64(&j, mname[m], r);
	json__end(&j);
}

void ctr_set__json(const struct ctr_set *cs, FILE *fp, bool perins, bool since_start,
		   const char *scope)
{
	for (int k = 0; k < cs->nr; k++) {
		if (!perins) {
			json_line(cs, fp, k, -1, since_start, scope);
			continue;
		}
		for (int i = 0; i < cs->nr_inst; i++)
			json_line(cs, fp, k, i, since_start, scope);
	}
}

void ctr_set__json_ratio(const struct ctr_set *cs, FILE *fp, int kn, int kd, const char *label,
			 bool perins, bool since_start, const char *scope)
{
	for (int i = perins ? 0 : -1; i < (perins ? cs->nr_inst : 0); i++) {
		double sn, sd, n = ctr_set__value(cs, kn, i, since_start, &sn);
		double d = ctr_set__value(cs, kd, i, since_start, &sd);
		struct json j;

		json__begin(&j, fp, "ratio");
		json_head(cs, &j, i, since_start, scope);
		json__str(&j, "name", label);
		json__str(&j, "numerator", cs->c[kn].name);
		json__str(&j, "denominator", cs->c[kd].name);
		if (d > 0 && sn > 0 && sd > 0)
			json__f64(&j, "value", n / d);
		else
			json__null(&j, "value");
		json__end(&j);
	}
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
