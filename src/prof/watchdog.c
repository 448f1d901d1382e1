// SPDX-License-Identifier: GPL-2.0
/*
 * watchdog: the kernel's lockup detector, seen from outside, to print what
 * a CPU does before the kernel would declare a lockup and panic.
 *
 * On each CPU the detector's hrtimer (watchdog_timer_fn) fires every
 * 2/5 of watchdog_thresh: a CPU where it has not fired for watchdog_thresh
 * seconds has held interrupts off that long (a hard lockup, caught by the
 * NMI watchdog).  Each firing queues the soft-lockup work, which the CPU's
 * stopper kthread (migration/N; watchdog/N on kernels before the stop-work
 * detector) runs: a CPU where that thread has not run for twice
 * watchdog_thresh has not scheduled that long (a soft lockup).
 *
 * watchdog follows both per CPU (timer:hrtimer_expire_entry filtered on
 * the function's address from /proc/kallsyms, sched:sched_switch filtered
 * on the kthreads' names switching out: one record per run), samples each
 * CPU periodically (cycles, an NMI, where there is a PMU; cpu-clock
 * otherwise) keeping its last samples, and when a CPU reaches --warn PCT
 * of a threshold, prints the CPU, how long, and the samples taken on it
 * meanwhile, with their stacks (-g).  It asks after every sample of a CPU
 * and, for CPUs that send nothing (interrupts off: no timer sample
 * either), every -i interval.  An idle CPU is neither (the context-switch
 * records say when a CPU idles: analysis/gapwatch).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cpu/gapwatch.h"
#include "engine/cpulist.h"
#include "engine/features.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "sym/ksyms.h"
#include "sym/stack.h"
#include "sym/symaddr.h"
#include "util/units.h"

#define NS_PER_SEC 1000000000ULL
#define KEEP 32 /* samples kept per CPU */

enum { CLK_HARD, CLK_SOFT, CLK_SAMPLES, NR_CLK };

struct watchdog {
	unsigned long long freq, warn;
	struct evsel *hr, *sw, *smp;
	struct exclude_opts ex; /* the modes of the samples kept (the attr's bits, and -G) */
	struct field fn, prev_comm;
	u64 fn_addr;
	const char *kthread; /* "migration" or "watchdog" */
	u64 limit[2];	     /* the kernel's: hard, soft */
	u64 warn_at[2];	     /* --warn PCT of them */
	bool soft_off;	     /* kernel.soft_watchdog = 0 */
	bool *watched;	     /* by CPU: in kernel.watchdog_cpumask and -C */
	int nr_watched;	     /* its size */
	struct gapwatch *gw;
	struct ksyms *ks;
	u64 newest; /* the newest record's time: records are delivered up to about it */
};

/* A number from a /proc/sys file: 0, or -errno. */
static int read_sysctl(const char *name, unsigned long long *v)
{
	char path[128], buf[64];
	FILE *fp;
	int ok;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	ok = fgets(buf, sizeof(buf), fp) && sscanf(buf, "%llu", v) == 1;
	fclose(fp);
	return ok ? 0 : -EINVAL;
}

/* Which CPUs the kernel's watchdog runs on, among those monitored. */
static int watched_cpus(struct session *s, struct watchdog *w, const struct target_opts *tg)
{
	int *mask = NULL, nr_mask, max = cpulist__possible();
	char skipped[256] = "";
	size_t len = 0;

	if (max <= 0)
		max = GW_MAX_CPUS;
	w->watched = calloc(max, sizeof(*w->watched));
	if (!w->watched)
		return session__set_err(s, -ENOMEM, "out of memory");
	w->nr_watched = max;
	nr_mask = cpulist__read_file("/proc/sys/kernel/watchdog_cpumask", max, &mask);
	for (int i = 0; tg && i < tg->nr_cpus; i++) {
		int cpu = tg->cpus[i];
		bool in = nr_mask <= 0; /* no mask: every CPU */

		for (int j = 0; j < nr_mask && !in; j++)
			in = mask[j] == cpu;
		if (cpu >= 0 && cpu < max)
			w->watched[cpu] = in;
		if (!in && len < sizeof(skipped) - 8)
			len += snprintf(skipped + len, sizeof(skipped) - len, "%s%d",
					len ? "," : "", cpu);
	}
	free(mask);
	if (len)
		session__notice(
			s, "CPU %s: not in kernel.watchdog_cpumask, no lockup to predict there",
			skipped);
	return 0;
}

static void wd_hrtimer(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
static void wd_sched_switch(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
static void wd_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int wd_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	const struct target_opts *tg = opt_set__get(opts, &target_group);
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	struct watchdog *w = priv;
	const char *pmu = features__cpu_pmu();
	unsigned long long on = 1, thresh = 0, soft = 1, nmi = 0;
	struct evsel_conf c = { 0 };
	struct symaddr sa = { 0 };
	char filter[160];
	int err;

	if (tg && (tg->nr_pids || tg->nr_tids))
		return session__usage_err(s, "watchdog watches CPUs, not tasks: use -C CPUS");
	err = session__refuse_overwrite(s, "watchdog's lockup alarm");
	if (err)
		return err;
	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));
	if (ex)
		w->ex = *ex;
	if (!w->freq)
		w->freq = 10;
	if (w->freq > 10000)
		return session__usage_err(s, "-F %llu: at most 10000 Hz", w->freq);
	if (!w->warn)
		w->warn = 50;
	if (w->warn < 50 || w->warn > 99)
		return session__usage_err(
			s,
			"--warn %llu: a percentage of the kernel's thresholds from 50 to 99 (its "
			"hrtimer fires every 40%% of watchdog_thresh)",
			w->warn);
	err = read_sysctl("watchdog_thresh", &thresh);
	if (err)
		return session__set_err(s, err,
					"this kernel has no lockup detector "
					"(/proc/sys/kernel/watchdog_thresh: %s)",
					strerror(-err));
	read_sysctl("watchdog", &on);
	if (!on || !thresh)
		return session__set_err(
			s, -ENOENT,
			"the kernel's lockup detector is off (kernel.watchdog = %llu, "
			"kernel.watchdog_thresh = %llu): no lockup would be declared; "
			"sysctl kernel.watchdog=1 turns it on",
			on, thresh);
	read_sysctl("soft_watchdog", &soft);
	read_sysctl("nmi_watchdog", &nmi);
	w->soft_off = !soft;
	w->limit[CLK_HARD] = thresh * NS_PER_SEC;
	w->limit[CLK_SOFT] = 2 * thresh * NS_PER_SEC;
	for (int k = 0; k < 2; k++)
		w->warn_at[k] = w->limit[k] / 100 * w->warn;

	err = symaddr__kernel(NULL, "watchdog_timer_fn", &sa);
	w->fn_addr = sa.addr;
	if (err)
		return session__set_err(
			s, err, "cannot find the watchdog's hrtimer function in /proc/kallsyms: %s",
			err == -EPERM	 ? "the kernel hides its addresses (run as root)"
			: err == -ENOENT ? "no watchdog_timer_fn in this kernel"
					 : strerror(-err));
	/* softlockup_fn: the stop work of kernels since 5.x; before, watchdog/N kthreads */
	w->kthread = symaddr__kernel(NULL, "softlockup_fn", &sa) ? "watchdog" : "migration";
	if (!st || st->capture.cg == CG_NONE)
		ksyms__load(NULL, &w->ks); /* names the ip without -g */
	err = watched_cpus(s, w, tg);
	if (err)
		return err;
	w->gw = gapwatch__new(NR_CLK, KEEP);
	if (!w->gw)
		return session__set_err(s, -ENOMEM, "out of memory");
	if (gapwatch__add_hooks(w->gw, s))
		return -ENOMEM;
	session__want_cpu_wide(s);
	session__want_interval(s, 1000);

	snprintf(filter, sizeof(filter), "function == 0x%llx", (unsigned long long)w->fn_addr);
	c.filter = filter;
	w->hr = session__add_tp(s, "timer", "hrtimer_expire_entry", &c);
	if (!w->hr)
		return -ENOENT;
	/* a run counted once, when it ends (switching in and out would count it twice) */
	snprintf(filter, sizeof(filter), "prev_comm ~ \"%s/*\"", w->kthread);
	w->sw = session__add_tp(s, "sched", "sched_switch", &c);
	if (!w->sw)
		return -ENOENT;
	if (evsel__field(w->hr, "function", &w->fn) ||
	    evsel__field(w->sw, "prev_comm", &w->prev_comm))
		return session__set_err(s, -EINVAL,
					"timer:hrtimer_expire_entry or sched:sched_switch lacks a "
					"field it needs (function, prev_comm)");

	memset(&c, 0, sizeof(c));
	c.type = pmu ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	c.config = pmu ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK;
	c.sample_period = w->freq;
	c.freq = true;
	c.callchain = st && st->capture.cg != CG_NONE;
	c.exclude_callchain_user = !(st && st->capture.halves_given);
	c.extra_sample_type = PERF_SAMPLE_IP;
	c.name = pmu ? "cycles" : "cpu-clock";
	w->smp = session__add_event(s, &c);
	if (!w->smp)
		return -ENOMEM;
	evsel__set_handler(w->hr, wd_hrtimer, w);
	evsel__set_handler(w->sw, wd_sched_switch, w);
	evsel__set_handler(w->smp, wd_sample, w);
	/* an idle CPU is in no lockup; and a NOHZ idle CPU, without its tick, throttles the clock */
	w->smp->attr.exclude_idle = !pmu;
	exclude__attr(&w->ex, &w->smp->attr);
	if (!pmu)
		w->smp->attr.exclude_host = w->smp->attr.exclude_guest =
			0; /* -G: the sample's mode */
	if (pmu)
		session__notice(s, "sampling cycles (an NMI) at %llu Hz", w->freq);
	else /* a limit of what it sees, not a note: said without -v */
		session__warn(s,
			      "no hardware PMU here: sampling the cpu-clock software event at %llu "
			      "Hz (a timer interrupt: no samples while a CPU holds interrupts "
			      "off, so a hard lockup shows only by its missing hrtimer)",
			      w->freq);
	if (!nmi)
		session__notice(s, "the NMI watchdog is off (kernel.nmi_watchdog = 0): the kernel "
				   "would not declare hard lockups; predicted all the same");
	if (w->soft_off)
		session__notice(s, "the soft lockup detector is off (kernel.soft_watchdog = 0): "
				   "hard lockups only");
	return 0;
}

static const char *clk_what(const struct watchdog *w, int k, int cpu, char *buf, size_t len)
{
	if (k == CLK_HARD)
		return "watchdog hrtimer";
	snprintf(buf, len, "%s/%d", w->kthread, cpu);
	return buf;
}

/* What a kept sample's row points to: its event line's head and stack. */
struct kept_ent {
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	char comm[EVL_COMM_LEN];
};

struct print_arg {
	struct session *s;
	struct watchdog *w;
	struct rt_sink *k; /* text: the event lines' sink */
	/* --json: the rows of "samples" (rows[n * KEPT_NCOLS]), room for @cap */
	unsigned n, cap;
	struct rt_val *rows;
	struct kept_ent *ents;
};

/* A kept sample: text "  ... ip ADDR [SYM+OFF]", its stack; --json an element of "samples". */
#define KEPT_NCOLS 6
static const struct rt_col kept_cols[KEPT_NCOLS] = {
	{ .type = RT_ROW },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	RT_COL("ip", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("ip_sym", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	RT_COL("ip_off", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	RT_COL("stack", NULL, RT_STACK, RT_UNIT_NONE, 6, RT_OMIT_EMPTY),
};
static const struct rt_desc kept_desc = { .cols = kept_cols, .ncols = KEPT_NCOLS };

/* The row @r of a kept sample, its head and stack in @e; its text in @text if not NULL. */
static void kept_row(struct print_arg *a, const struct sample *smp, struct kept_ent *e,
		     struct rt_val *r, char *text, size_t len)
{
	const struct sym *sym = ksyms__find(a->w->ks, smp->ip, NULL);

	if (text) {
		int n = snprintf(text, len, "ip %016llx", (unsigned long long)smp->ip);

		if (sym)
			snprintf(text + n, len - n, " %s+0x%llx", sym->name,
				 (unsigned long long)(smp->ip - sym->start));
	}
	evline__row_kept(e->v, &e->stk, e->comm, a->s, NULL, smp, a->w->smp->name);
	r[0] = (struct rt_val){ .row = { &evline_head, e->v } };
	r[1] = (struct rt_val){ .s = text };
	r[2] = (struct rt_val){ .u = smp->ip };
	r[3] = (struct rt_val){ .s = sym ? sym->name : NULL };
	r[4] = (struct rt_val){ .u = sym ? smp->ip - sym->start : 0, .null = !sym };
	r[5] = (struct rt_val){ .stk = &e->stk };
}

/* Text: a kept sample's line (and stack) under the warning. */
static void print_kept(void *arg, const struct sample *smp)
{
	struct kept_ent e;
	struct rt_val r[KEPT_NCOLS];
	char text[640];

	kept_row(arg, smp, &e, r, text, sizeof(text));
	rtable__one(((struct print_arg *)arg)->k, &kept_desc, r);
}

/* --json: a kept sample's row, one more of "samples". */
static void collect_kept(void *arg, const struct sample *smp)
{
	struct print_arg *a = arg;

	if (a->n == a->cap)
		return;
	kept_row(a, smp, &a->ents[a->n], &a->rows[a->n * KEPT_NCOLS], NULL, 0);
	a->n++;
}

static void count_kept(void *arg, const struct sample *smp)
{
	(void)arg, (void)smp;
}

/*
 * --json: the kept samples' rows, as the value of "samples" (no member
 * when out of memory).  Free a->rows and a->ents after.
 */
static struct rt_val kept_rows(struct print_arg *a, int cpu, u64 since)
{
	a->n = 0;
	a->cap = gapwatch__kept(a->w->gw, cpu, since, count_kept, NULL);
	a->rows = a->cap ? calloc(a->cap, KEPT_NCOLS * sizeof(*a->rows)) : NULL;
	a->ents = a->cap ? calloc(a->cap, sizeof(*a->ents)) : NULL;
	if (a->cap && (!a->rows || !a->ents))
		return (struct rt_val){ .null = true };
	gapwatch__kept(a->w->gw, cpu, since, collect_kept, a);
	return (struct rt_val){ .row = { &kept_desc, a->rows }, .n = a->n };
}

/*
 * A warning and a recovery: text a sentence; --json records (README, watchdog):
 *   {"type":"warning","time_ns":N,"cpu":N,"lockup":"hard","what":
 *    "watchdog hrtimer","for_ns":N,"limit_ns":N,"samples":[...]}
 *   {"type":"recovered","time_ns":N,"cpu":N,"lockup":"hard","what":"..","gap_ns":N}
 */
#define WD_HEAD                                                              \
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },                   \
		RT_COL("time_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),  \
		RT_COL("cpu", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT),    \
		RT_COL("lockup", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT), \
		RT_COL("what", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT)
static const struct rt_col warning_cols[] = {
	WD_HEAD,
	RT_COL("for_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("limit_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
	{ .name = "samples", .type = RT_ROWS, .flags = RT_OMIT_EMPTY },
};
static const struct rt_desc warning_desc = { .type = "warning", .cols = warning_cols, .ncols = 8 };
static const struct rt_col rec_cols[] = {
	WD_HEAD,
	RT_COL("gap_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
};
static const struct rt_desc rec_desc = { .type = "recovered", .cols = rec_cols, .ncols = 6 };

/* Is a threshold near on @cpu at @now?  Say so once per episode, with the samples meanwhile. */
static void check(struct session *s, struct watchdog *w, int cpu, u64 now)
{
	FILE *out = session__out(s);
	bool json = session__json(s);
	struct evline_text lines;
	struct print_arg a = { .s = s,
			       .w = w,
			       .k = json ? NULL : evline_text__init(&lines, s, out, "  ") };

	if (cpu < 0 || cpu >= w->nr_watched || !w->watched[cpu])
		return;
	for (int k = CLK_HARD; k <= CLK_SOFT; k++) {
		char ts[64], age_s[32], lim[32], name[32], text[256];
		const char *what = clk_what(w, k, cpu, name, sizeof(name));
		struct rt_val kept = { .null = true };
		u64 age, since;

		if (k == CLK_SOFT && w->soft_off)
			continue;
		if (!gapwatch__overdue(w->gw, k, cpu, now, w->warn_at[k], &age, &since))
			continue;
		if (json)
			kept = kept_rows(&a, cpu, since);
		session__fmt_time(s, now, ts, sizeof(ts));
		snprintf(text, sizeof(text), "%s watchdog: CPU %d: %s %s for %s, a %s lockup at %s",
			 ts, cpu, k == CLK_HARD ? "no" : "no run of", what,
			 units__fmt_ns(age, age_s, sizeof(age_s)), k == CLK_HARD ? "hard" : "soft",
			 units__fmt_ns(w->limit[k], lim, sizeof(lim)));
		rtable__record(out, json, &warning_desc,
			       (struct rt_val[]){ { .s = text },
						  { .u = session__wall_ns(s, now) },
						  { .u = (u64)cpu },
						  { .s = k == CLK_HARD ? "hard" : "soft" },
						  { .s = what },
						  { .u = age },
						  { .u = w->limit[k] },
						  kept });
		free(a.rows);
		free(a.ents);
		a.rows = NULL;
		a.ents = NULL;
		if (!json && !gapwatch__kept(w->gw, cpu, since, print_kept, &a))
			fprintf(out, "  no %s sample on CPU %d since then%s\n", w->smp->name, cpu,
				k == CLK_HARD && !strcmp(w->smp->name, "cpu-clock")
					? " (a timer: held off with the interrupts)"
					: "");
		fflush(out); /* before the kernel panics */
	}
}

static void tick(struct session *s, struct watchdog *w, int k, const struct sample *smp)
{
	struct gw_tick_info t;
	char ts[64], gap[32], name[32], text[160];
	const char *what = clk_what(w, k, (int)smp->cpu, name, sizeof(name));

	gapwatch__tick(w->gw, k, (int)smp->cpu, smp->time, smp->pid, w->warn_at[k], &t);
	if (!t.overdue)
		return;
	session__fmt_time(s, smp->time, ts, sizeof(ts));
	snprintf(text, sizeof(text), "%s watchdog: CPU %u: %s again after %s", ts, smp->cpu, what,
		 units__fmt_ns(t.gap, gap, sizeof(gap)));
	rtable__record(session__out(s), session__json(s), &rec_desc,
		       (struct rt_val[]){ { .s = text },
					  { .u = session__wall_ns(s, smp->time) },
					  { .u = smp->cpu },
					  { .s = k == CLK_HARD ? "hard" : "soft" },
					  { .s = what },
					  { .u = t.gap } });
}

/* Is this switch the end of a run of the CPU's own stopper (or watchdog) kthread? */
static bool own_kthread(struct watchdog *w, const struct sample *smp)
{
	char name[32];
	int len, n = snprintf(name, sizeof(name), "%s/%u", w->kthread, smp->cpu);
	const char *comm = field__str(&w->prev_comm, smp, &len);

	return comm && len == n && !memcmp(comm, name, n);
}

/*
 * The handlers of the three events (@priv the watchdog): each notes the
 * newest time, ticks its clock, then checks the sample's CPU.
 */
static void wd_hrtimer(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct watchdog *w = priv;
	u64 fn;

	(void)ev;
	if (smp->time > w->newest)
		w->newest = smp->time;
	if (!field__u64(&w->fn, smp, &fn) && fn == w->fn_addr)
		tick(s, w, CLK_HARD, smp);
	check(s, w, (int)smp->cpu, smp->time);
}

static void wd_sched_switch(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct watchdog *w = priv;

	(void)ev;
	if (smp->time > w->newest)
		w->newest = smp->time;
	if (own_kthread(w, smp))
		tick(s, w, CLK_SOFT, smp);
	check(s, w, (int)smp->cpu, smp->time);
}

static void wd_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct watchdog *w = priv;

	(void)ev;
	if (smp->time > w->newest)
		w->newest = smp->time;
	gapwatch__tick(w->gw, CLK_SAMPLES, (int)smp->cpu, smp->time, smp->pid, 0, NULL);
	if (exclude__keep(&w->ex, smp->misc))
		gapwatch__keep(w->gw, smp);
	check(s, w, (int)smp->cpu, smp->time);
}

static void wd_switch(struct session *s, void *priv, const struct rec_switch *sw)
{
	struct watchdog *w = priv;

	(void)s;
	if (sw->time > w->newest)
		w->newest = sw->time;
}

/*
 * CPUs that send nothing (interrupts off) are asked here, as of the newest
 * record delivered: the clock's now would count against every CPU the
 * time its records still wait in the rings and the order queue (and this
 * process's own delays on a loaded host).  When nothing came for a second
 * (every watched CPU silent), as of now.
 */
static void wd_interval(struct session *s, void *priv)
{
	struct watchdog *w = priv;
	u64 now = session__now(s);

	if (w->newest && w->newest < now && now - w->newest < NS_PER_SEC)
		now = w->newest;

	for (int cpu = 0; cpu < w->nr_watched; cpu++)
		check(s, w, cpu, now);
}

/*
 * The report at the end (README, watchdog): a row per watched CPU, then
 * the summary (--json: a record; text: the sentence above the table).
 */
static const struct rt_col wd_cols[] = {
	RT_COL("cpu", "CPU", RT_U64, RT_UNIT_NONE, 4, 0),
	RT_COL("hrtimer", "HRTIMER", RT_U64, RT_UNIT_COUNT, 8, 0),
	RT_COL("hrtimer_longest_ns", "LONGEST", RT_NS, RT_UNIT_NS, 10, 0),
	RT_COL("hrtimer_warned", "WARNED", RT_U64, RT_UNIT_COUNT, 7, 0),
	RT_COL("kthread", "KTHREAD", RT_STR, RT_UNIT_NONE, 14, RT_LEFT | RT_GAP),
	RT_COL("kthread_runs", "RUNS", RT_U64, RT_UNIT_COUNT, 6, 0),
	RT_COL("kthread_longest_ns", "LONGEST", RT_NS, RT_UNIT_NS, 10, 0),
	RT_COL("kthread_warned", "WARNED", RT_U64, RT_UNIT_COUNT, 7, 0),
	RT_COL("samples", "SAMPLES", RT_U64, RT_UNIT_COUNT, 8, 0),
};
static const struct rt_desc wd_desc = { .type = "row", .cols = wd_cols, .ncols = 9 };

static const struct rt_col sum_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	RT_COL("hard_limit_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("soft_limit_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("kthread", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("warn_pct", NULL, RT_U64, RT_UNIT_PERCENT, 0, RT_NO_TEXT),
};
static const struct rt_desc sum_desc = { .type = "summary", .cols = sum_cols, .ncols = 5 };

static void wd_deinit(struct session *s, void *priv)
{
	struct watchdog *w = priv;
	FILE *out = session__out(s);
	bool json = session__json(s);
	union rt_sinks u;
	struct rt_sink *k = json ? rt_json__init(&u.json, out, NULL) : rt_text__init(&u.text, out);
	char a[32], b[32], name[32], text[256];
	const struct rt_val sum[] = { { .s = text },
				      { .u = w->limit[CLK_HARD] },
				      { .u = w->limit[CLK_SOFT] },
				      { .s = w->kthread },
				      { .u = w->warn } };

	if (!session__started(s) || !w->gw)
		goto out;
	/* the summary: text's sentence above the table, --json's record after it */
	snprintf(text, sizeof(text),
		 "watchdog: hard lockup after %s without the watchdog hrtimer, soft lockup after "
		 "%s without %s/N; warned at %llu%%",
		 units__fmt_ns(w->limit[CLK_HARD], a, sizeof(a)),
		 units__fmt_ns(w->limit[CLK_SOFT], b, sizeof(b)), w->kthread, w->warn);
	if (!json)
		rtable__one(k, &sum_desc, sum);
	rtable__begin(k, &wd_desc);
	for (int cpu = 0; cpu < w->nr_watched; cpu++) {
		struct gw_stats h = gapwatch__stats(w->gw, CLK_HARD, cpu);
		struct gw_stats t = gapwatch__stats(w->gw, CLK_SOFT, cpu);

		if (!w->watched[cpu])
			continue;
		rtable__row(k, (struct rt_val[]){
				       { .u = (u64)cpu },
				       { .u = h.ticks },
				       { .u = h.worst },
				       { .u = h.episodes },
				       { .s = clk_what(w, CLK_SOFT, cpu, name, sizeof(name)) },
				       { .u = t.ticks },
				       { .u = t.worst },
				       { .u = t.episodes },
				       { .u = gapwatch__stats(w->gw, CLK_SAMPLES, cpu).ticks },
			       });
	}
	rtable__end(k);
	if (json)
		rtable__one(k, &sum_desc, sum);
	else
		session__print_lost(s, out);
out:
	gapwatch__delete(w->gw);
	ksyms__delete(w->ks);
	free(w->watched);
}

static const struct popt wd_opts[] = {
	{ .lname = "freq",
	  .sname = 'F',
	  .argname = "HZ",
	  .help = "samples per second per CPU kept for the stacks (default 10)",
	  POPT_BIND_UINT(struct watchdog, freq),
	  POPT_RANGE(1, 0) },
	{ .lname = "warn",
	  .argname = "PCT",
	  .help = "warn at this percentage of a lockup threshold (50..99, default 50)",
	  POPT_BIND_UINT(struct watchdog, warn) },
	{ 0 },
};

const struct profiler prof_watchdog = {
	.name = "watchdog",
	.needs = (const char *const[]){ "tp:timer:hrtimer_expire_entry", "tp:sched:sched_switch",
					"kallsyms", "cpu-wide", "pmu?=cpu-clock samples, no NMI",
					NULL },
	.desc = "hard and soft lockups coming: the CPU and its stacks before the kernel panics",
	.synopsis = "perf-prof watchdog [-F HZ] [-g] [--warn PCT] [-C CPUS] "
		    "[-i MS] [-- command]",
	.examples = "perf-prof watchdog -F 1 -g        # the original's example\n"
		    "  perf-prof watchdog -g --warn 80 -C 2-3\n"
		    "Hard: watchdog_thresh without the watchdog hrtimer; soft: twice that without "
		    "the\nCPU's stopper kthread (migration/N).  Warned once per episode, with the "
		    "samples\ntaken on that CPU meanwhile (the last 32).",
	.groups = (const struct opt_group *const[]){ &target_group, &ring_group, &run_group,
						     &output_group, &stack_group, &exclude_group,
						     NULL },
	.own = wd_opts,
	.priv_size = sizeof(struct watchdog),
	.init = wd_init,
	.ops = { .context_switch = wd_switch, .interval = wd_interval },
	.deinit = wd_deinit,
};
