// SPDX-License-Identifier: GPL-2.0
/*
 * cpu-util: per-CPU utilization per interval, by mode (user, kernel,
 * guest), two ways side by side: the cpu-clock software event sampled
 * every 1 ms on each CPU (a sample's mode from the record's cpumode bits,
 * analysis/cpu/cpustat.h) and the
 * kernel's own accounting (/proc/stat).  Busy = the samples of the kept
 * modes * 1 ms / the interval: samples are counted against time, not
 * against each other, since some hosts deliver none while a CPU idles.
 * Where a PMU exists the original counted cycles per mode; cycles are not
 * time (they stop in idle, change with the frequency), the clock is.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cpu/cpustat.h"
#include "engine/features.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"

#define CU_PERIOD_NS 1000000ULL /* one sample per ms per CPU */
#define NS_PER_MS 1e6

enum { NOW, RUN }; /* this interval, the whole run */
#define CU_MAX_COLS 20 /* the table's columns, at most */

struct cpu_util {
	bool excl_user, excl_kernel, excl_guest, guest_only;
	bool show[NR_CPU_MODES]; /* the modes counted as busy */
	struct evsel *ev;
	const int *cpus;
	int nr_cpus, nr_ids;		/* monitored CPUs; ids 0..nr_ids-1 */
	u64 (*n[2])[NR_CPU_MODES];	/* [NOW/RUN][cpu id][mode]: samples */
	struct cpustat_times *stat[2];	/* /proc/stat at the interval's start, at the run's */
	struct cpustat_times *stat_now; /* ... and now */
	bool have_stat;
	struct rt_col cols[CU_MAX_COLS]; /* the table (describe) */
	struct rt_desc desc;
	u64 start, edge, last;
	unsigned nr_reports;
};

static void describe(struct cpu_util *cu);

static int cu_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct target_opts *tg = session__conf(s)->target;
	struct cpu_util *cu = priv;
	struct evsel_conf c = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = CU_PERIOD_NS,
		.extra_sample_type = PERF_SAMPLE_IP,
		.name = "cpu-clock",
	};
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	int err;

	if (ex) {
		cu->excl_user = ex->user;
		cu->excl_kernel = ex->kernel;
		cu->excl_guest = ex->guest;
		cu->guest_only = ex->host;
	}
	if (tg->nr_pids || tg->nr_tids)
		return session__usage_err(s, "-p/-t: cpu-util measures CPUs; choose them with -C "
					     "(a command after -- runs for the measurement)");
	if (cu->guest_only && cu->excl_guest)
		return session__usage_err(s, "-G (guest only) and --exclude-guest leave nothing");
	if (cu->excl_user && cu->excl_kernel && cu->excl_guest)
		return session__usage_err(s, "--exclude-user, --exclude-kernel and --exclude-guest "
					     "leave nothing");
	cu->show[CPU_USER] = !cu->excl_user && !cu->guest_only;
	cu->show[CPU_KERNEL] = !cu->excl_kernel && !cu->guest_only;
	cu->show[CPU_GUEST] = !cu->excl_guest;
	cu->cpus = tg->cpus;
	cu->nr_cpus = tg->nr_cpus;
	for (int i = 0; i < tg->nr_cpus; i++)
		if (tg->cpus[i] + 1 > cu->nr_ids)
			cu->nr_ids = tg->cpus[i] + 1;
	err = session__refuse_overwrite(s, "cpu-util's busy time (samples per interval)");
	if (err)
		return err;
	/* every task of the CPUs: a command after -- only sets how long */
	session__want_cpu_wide(s);
	session__want_interval(s, 1000);
	for (int k = NOW; k <= RUN; k++) {
		cu->n[k] = calloc(cu->nr_ids, sizeof(*cu->n[k]));
		cu->stat[k] = calloc(cu->nr_ids, sizeof(*cu->stat[k]));
		if (!cu->n[k] || !cu->stat[k])
			return session__set_err(s, -ENOMEM, "out of memory");
	}
	cu->stat_now = calloc(cu->nr_ids, sizeof(*cu->stat_now));
	if (!cu->stat_now)
		return session__set_err(s, -ENOMEM, "out of memory");
	/* the mode of each sample: the record's cpumode bits */
	cu->ev = session__add_event(s, &c);
	if (!cu->ev)
		return -ENOMEM;
	err = cpustat__read(cu->stat[RUN], cu->nr_ids);
	cu->have_stat = err > 0;
	if (cu->have_stat)
		memcpy(cu->stat[NOW], cu->stat[RUN], cu->nr_ids * sizeof(*cu->stat[NOW]));
	else
		session__warn(s, "cannot read /proc/stat (%s): samples only", strerror(-err));
	session__notice(s, "%sutilization from cpu-clock samples every 1 ms%s",
			features__cpu_pmu() ? "" : "no hardware PMU: ",
			cu->have_stat ? " and /proc/stat" : "");
	describe(cu);
	cu->start = cu->edge = session__now(s);
	return 0;
}

static void cu_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct cpu_util *cu = priv;
	enum cpu_mode m = cpu_mode__of_misc(smp->tid, smp->misc, smp->ip);

	(void)s, (void)ev;
	if (smp->cpu >= (u32)cu->nr_ids)
		return; /* not a CPU it opened */
	cu->n[NOW][smp->cpu][m]++;
	cu->n[RUN][smp->cpu][m]++;
	if (smp->time > cu->last)
		cu->last = smp->time;
}

static const char *const titles[NR_CPU_MODES] = { "IDLE%", "USER%", "SYS%", "GUEST%" };

/* The text table's heading above its titles: which columns are whose. */
static void header(struct cpu_util *cu, FILE *out)
{
	int w = 0;

	for (int m = CPU_USER; m < NR_CPU_MODES; m++)
		w += cu->show[m] ? 7 : 0;
	fprintf(out, "%-4s %-*s", "", w + 7, "cpu-clock");
	if (cu->have_stat)
		fprintf(out, "   /proc/stat");
	fprintf(out, "\n");
}

static void add_times(struct cpustat_times *sum, const struct cpustat_times *t)
{
	if (!t->valid)
		return;
	sum->user += t->user;
	sum->nice += t->nice;
	sum->system += t->system;
	sum->idle += t->idle;
	sum->iowait += t->iowait;
	sum->irq += t->irq;
	sum->softirq += t->softirq;
	sum->steal += t->steal;
	sum->guest += t->guest;
	sum->guest_nice += t->guest_nice;
	sum->valid = true;
}

static const char *const samples_key[NR_CPU_MODES] = { "idle_samples", "user_samples",
						       "sys_samples", "guest_samples" };
static const char *const pct_key[NR_CPU_MODES] = { "idle_pct", "user_pct", "sys_pct", "guest_pct" };
static const char *const stat_key[NR_CPU_MODES] = { "stat_idle_pct", "stat_user_pct",
						    "stat_sys_pct", "stat_guest_pct" };

/*
 * The table, declared once the modes shown are known (README, cpu-util):
 * a row per CPU (and "all"), the samples' shares of each mode shown and
 * busy, /proc/stat's beside them ("-", null in --json, without a tick).
 * --json adds each mode's samples and /proc/stat's ticks.
 */
/*
 * A column: a share (RT_F64, in text when titled) or a count (JSON only);
 * @wide: the first of /proc/stat's, two spaces further.
 */
static void col(struct cpu_util *cu, const char *name, const char *title, enum rt_type type,
		unsigned flags, bool wide)
{
	cu->cols[cu->desc.ncols++] = (struct rt_col){
		.name = name,
		.title = title,
		.type = type,
		.unit = type == RT_F64 ? RT_UNIT_PERCENT : RT_UNIT_COUNT,
		.width = wide ? 8 : 6,
		.decimals = 1,
		.flags = flags | (title ? 0 : RT_NO_TEXT),
	};
}

static void describe(struct cpu_util *cu)
{
	bool wide = true;

	cu->desc = (struct rt_desc){ .type = "row", .cols = cu->cols };
	cu->cols[cu->desc.ncols++] = (struct rt_col){
		.title = "CPU", .type = RT_STR, .width = 4, .flags = RT_LEFT | RT_NO_JSON
	};
	/* a CPU's row: "cpu"; the row of all: "cpus", how many */
	col(cu, "cpu", NULL, RT_STR, RT_OMIT_EMPTY, false);
	col(cu, "cpus", NULL, RT_STR, RT_OMIT_EMPTY, false);
	for (int m = CPU_IDLE; m < NR_CPU_MODES; m++)
		if (m == CPU_IDLE || cu->show[m])
			col(cu, samples_key[m], NULL, RT_U64, 0, false);
	for (int m = CPU_USER; m < NR_CPU_MODES; m++)
		if (cu->show[m])
			col(cu, pct_key[m], titles[m], RT_F64, 0, false);
	col(cu, "busy_pct", "BUSY%", RT_F64, 0, false);
	if (!cu->have_stat)
		return;
	col(cu, "stat_ticks", NULL, RT_U64, 0, false);
	for (int m = CPU_USER; m < NR_CPU_MODES; m++) {
		if (cu->show[m]) {
			col(cu, stat_key[m], titles[m], RT_F64, RT_NAN_DASH, wide);
			wide = false;
		}
	}
	col(cu, "stat_steal_pct", "STEAL%", RT_F64, RT_NAN_DASH, wide);
	col(cu, "stat_busy_pct", "BUSY%", RT_F64, RT_NAN_DASH, false);
}

/*
 * One row: @name (@cpu's, or "all" of @ncpus CPUs), @n samples per mode
 * over @len ns; @a -> @b from /proc/stat.
 */
static void row(struct cpu_util *cu, struct rt_sink *k, const char *name, int cpu, const u64 *n,
		int ncpus, u64 len, const struct cpustat_times *a, const struct cpustat_times *b)
{
	double whole = (double)len * ncpus, busy = 0;
	struct rt_val v[CU_MAX_COLS];
	int i = 0;

	memset(v, 0, sizeof(v));
	v[i++].s = name;
	if (cpu >= 0)
		v[i].s = "", v[i].num = true, v[i].i = cpu;
	i++;
	if (cpu < 0)
		v[i].s = "", v[i].num = true, v[i].i = ncpus;
	i++;
	for (int m = CPU_IDLE; m < NR_CPU_MODES; m++)
		if (m == CPU_IDLE || cu->show[m])
			v[i++].u = n[m];
	for (int m = CPU_USER; m < NR_CPU_MODES; m++) {
		double p = whole > 0 ? 100.0 * (double)(n[m] * CU_PERIOD_NS) / whole : 0;

		if (!cu->show[m])
			continue;
		v[i++].d = p;
		busy += p;
	}
	v[i++].d = busy;
	if (cu->have_stat) {
		struct cpustat_share sh;
		double st[NR_CPU_MODES];

		cpustat__share(a, b, &sh);
		st[CPU_USER] = sh.user;
		st[CPU_KERNEL] = sh.sys;
		st[CPU_GUEST] = sh.guest;
		busy = 0;
		v[i++].u = sh.ticks;
		/* no tick between the reads (a short run): nothing to tell */
		for (int m = CPU_USER; m < NR_CPU_MODES; m++) {
			if (!cu->show[m])
				continue;
			v[i++].d = sh.ticks ? st[m] : NAN;
			busy += st[m];
		}
		v[i++].d = sh.ticks ? sh.steal : NAN;
		v[i++].d = sh.ticks ? busy : NAN;
	}
	rtable__row(k, v);
}

static u64 now_of(struct session *s, struct cpu_util *cu)
{
	u64 now = session__now(s);

	/* never before a sample already counted (injected sessions have their own clock) */
	return now > cu->last ? now : cu->last;
}

/* @k NOW (an interval: --json's @scope "interval" or "so_far") or RUN. */
static void report(struct session *s, struct cpu_util *cu, u64 now, int k, const char *scope)
{
	FILE *out = session__out(s);
	u64 from = k == NOW ? cu->edge : cu->start, len = now > from ? now - from : 0;
	u64 all[NR_CPU_MODES] = { 0 };
	struct cpustat_times sa = { 0 }, sb = { 0 };
	struct stats_stamp st = { .scope = k == RUN ? "run" : scope,
				  .time_ns = session__wall_ns(s, now),
				  .interval_ns = len };
	char ts[64], name[16];
	bool json = session__json(s);
	union rt_sinks u;
	struct rt_sink *sk = json ? rt_json__init(&u.json, out, &st) : rt_text__init(&u.text, out);

	if (cu->have_stat && cpustat__read(cu->stat_now, cu->nr_ids) <= 0)
		memcpy(cu->stat_now, cu->stat[k], cu->nr_ids * sizeof(*cu->stat_now));
	if (!json) {
		session__fmt_time(s, now, ts, sizeof(ts));
		fprintf(out, "%s cpu-util: %s%.2f ms on %d CPU%s\n", ts,
			k == RUN ? "the whole run, " : "", len / NS_PER_MS, cu->nr_cpus,
			cu->nr_cpus == 1 ? "" : "s");
		header(cu, out);
	}
	rtable__begin(sk, &cu->desc);
	for (int i = 0; i < cu->nr_cpus; i++) {
		int c = cu->cpus[i];

		snprintf(name, sizeof(name), "%d", c);
		row(cu, sk, name, c, cu->n[k][c], 1, len, &cu->stat[k][c], &cu->stat_now[c]);
		for (int m = 0; m < NR_CPU_MODES; m++)
			all[m] += cu->n[k][c][m];
		add_times(&sa, &cu->stat[k][c]);
		add_times(&sb, &cu->stat_now[c]);
	}
	if (cu->nr_cpus > 1)
		row(cu, sk, "all", -1, all, cu->nr_cpus, len, &sa, &sb);
	rtable__end(sk);
	if (!json) /* --json: the CLI's "lost" records */
		session__print_lost(s, out);
	fflush(out);
}

static void cu_interval(struct session *s, void *priv)
{
	struct cpu_util *cu = priv;
	u64 now = now_of(s, cu), ms = session__interval_ms(s) * 1000000ULL;

	/*
	 * The interval timer was set just before the events were enabled:
	 * the run began one interval before its first tick, later than init.
	 */
	if (!cu->nr_reports++ && now > ms && now - ms > cu->start)
		cu->start = cu->edge = now - ms;
	report(s, cu, now, NOW, "interval");
	memset(cu->n[NOW], 0, cu->nr_ids * sizeof(*cu->n[NOW]));
	memcpy(cu->stat[NOW], cu->stat_now, cu->nr_ids * sizeof(*cu->stat[NOW]));
	cu->edge = now;
}

static void cu_snapshot(struct session *s, void *priv)
{
	struct cpu_util *cu = priv;

	report(s, cu, now_of(s, cu), NOW, "so_far");
}

static void cu_deinit(struct session *s, void *priv)
{
	struct cpu_util *cu = priv;

	if (session__started(s) && cu->ev)
		report(s, cu, now_of(s, cu), RUN, NULL);
	for (int k = NOW; k <= RUN; k++) {
		free(cu->n[k]);
		free(cu->stat[k]);
		cu->n[k] = NULL;
		cu->stat[k] = NULL;
	}
	free(cu->stat_now);
	cu->stat_now = NULL;
}

const struct profiler prof_cpu_util = {
	.name = "cpu-util",
	.needs = (const char *const[]){ "cpu-wide", NULL },
	.desc = "per-CPU utilization per interval: user, kernel, guest (samples and /proc/stat)",
	.synopsis = "perf-prof cpu-util [-i MS] [-C CPUS] [--exclude-user|--exclude-kernel|"
		    "--exclude-guest] [-G] [-- command]",
	.examples = "perf-prof cpu-util -i 1000        # every CPU, each second\n"
		    "  perf-prof cpu-util -C 0-3 -G      # the guest share of CPUs 0-3\n"
		    "  perf-prof cpu-util -C 1 -- ./job  # CPU 1 while ./job runs\n"
		    "cpu-clock sampled every 1 ms per CPU (a sample's mode from its ip) beside "
		    "the\nkernel's accounting (/proc/stat); said once on stderr with -v.",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &ring_group,
						     &output_group, &exclude_group, NULL },
	.priv_size = sizeof(struct cpu_util),
	.init = cu_init,
	.ops = { .sample = cu_sample, .interval = cu_interval, .snapshot = cu_snapshot },
	.deinit = cu_deinit,
};
