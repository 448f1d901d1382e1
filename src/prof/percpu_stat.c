// SPDX-License-Identifier: GPL-2.0
/*
 * percpu-stat: what each CPU did, counted, never sampled: context switches,
 * migrations, minor and major faults, hard and soft interrupts, timer
 * interrupts, hrtimers, workqueue items, KVM exits, network packets in and
 * out, page allocations and direct reclaims, and (--syscalls) system calls;
 * one row per CPU and the total, per interval and for the whole run.
 * Software events and tracepoints in counting mode: no ring buffer, no
 * record per event, whatever the rate.  A tracepoint this kernel lacks is
 * left out (said with -v).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counting/counters.h"
#include "engine/tp.h"
#include "profiler.h"
#include "report/outfile.h"

struct pcs_col {
	const char *title;
	const char *event; /* evname spelling */
	bool syscalls;	   /* only with --syscalls */
};

static const struct pcs_col pcs_cols[] = {
	{ .title = "cs", .event = "context-switches" },
	{ .title = "migr", .event = "cpu-migrations" },
	{ .title = "minflt", .event = "minor-faults" },
	{ .title = "majflt", .event = "major-faults" },
	{ .title = "irq", .event = "irq:irq_handler_entry" },
	{ .title = "timer", .event = "irq_vectors:local_timer_entry" },
	{ .title = "softirq", .event = "irq:softirq_entry" },
	{ .title = "hrtimer", .event = "timer:hrtimer_expire_entry" },
	{ .title = "workq", .event = "workqueue:workqueue_execute_start" },
	{ .title = "kvmexit", .event = "kvm:kvm_exit" },
	{ .title = "netrx", .event = "net:netif_receive_skb" },
	{ .title = "nettx", .event = "net:net_dev_xmit" },
	{ .title = "pgalloc", .event = "kmem:mm_page_alloc" },
	{ .title = "reclaim", .event = "vmscan:mm_vmscan_direct_reclaim_begin" },
	{ .title = "syscalls", .event = "raw_syscalls:sys_enter", .syscalls = true },
};

#define PCS_NR (sizeof(pcs_cols) / sizeof(pcs_cols[0]))

struct percpu_stat {
	bool syscalls, perins;
	struct evname *evs;
	int nr_evs;
	const char *titles[PCS_NR];
	struct ctr_set cs;
};

/* Is this tracepoint on this kernel? (a software event always is) */
static bool have(const char *event)
{
	const char *colon = strchr(event, ':');
	char sys[64], **list;
	int n;

	if (!colon || (size_t)(colon - event) >= sizeof(sys))
		return true;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - event), event);
	n = tp__expand(sys, colon + 1, &list);
	if (n > 0)
		tp__free_list(list);
	return n > 0;
}

static void report(struct session *s, void *priv, const char *what, bool since_start);

static int pcs_init(struct session *s, void *priv, const struct opt_set *opts)
{
	struct percpu_stat *p = priv;
	const struct target_opts *t = opt_set__get(opts, &target_group);
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	char err[256];
	int rc;

	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));
	if (t && (t->nr_pids || t->nr_tids))
		return session__usage_err(s, "percpu-stat counts whole CPUs: use -C CPUS (or stat "
					     "-p for a process's counts)");
	session__want_cpu_wide(s);
	for (size_t i = 0; i < PCS_NR; i++) {
		if (pcs_cols[i].syscalls && !p->syscalls)
			continue;
		if (!have(pcs_cols[i].event)) {
			if (session__verbose(s))
				fprintf(stderr, "percpu-stat: no %s on this kernel: no %s column\n",
					pcs_cols[i].event, pcs_cols[i].title);
			continue;
		}
		if (evname__parse_list(pcs_cols[i].event, &p->evs, &p->nr_evs, err, sizeof(err)))
			return session__set_err(s, -EINVAL, "%s: %s", pcs_cols[i].event, err);
		p->titles[p->nr_evs - 1] = pcs_cols[i].title;
	}
	rc = ctr_set__add(&p->cs, s, p->evs, p->nr_evs);
	for (int i = 0; !rc && i < p->cs.nr; i++) /* counted in the modes kept */
		exclude__attr(ex, &p->cs.c[i].ev->attr);
	return rc ?: ctr_set__report_by(&p->cs, s, report, p);
}

/*
 * The text's matrix: a row per CPU, then "all"; a column per counter, as
 * wide as its title (at least 9).  JSON writes the counters' records.
 */
static void matrix(struct percpu_stat *p, FILE *out, bool since_start)
{
	struct rt_col cols[1 + PCS_NR] = {
		{ .name = "cpu", .title = "CPU", .type = RT_STR, .width = 5, .flags = RT_LEFT },
	};
	const struct rt_desc d = { .type = "row", .cols = cols, .ncols = 1 + p->cs.nr };
	struct rt_val v[1 + PCS_NR];
	struct rt_text t;
	char who[16];

	for (int k = 0; k < p->cs.nr; k++) {
		int w = (int)strlen(p->titles[k]);

		cols[1 + k] = (struct rt_col){ .name = p->cs.c[k].name,
					       .title = p->titles[k],
					       .type = RT_F64,
					       .unit = RT_UNIT_COUNT,
					       .width = w < 9 ? 9 : w };
	}
	rtable__begin(rt_text__init(&t, out), &d);
	for (int i = 0; i <= p->cs.nr_inst; i++) {
		int inst = i < p->cs.nr_inst ? i : -1; /* the CPUs, then all */

		snprintf(who, sizeof(who), "%d", inst >= 0 ? p->cs.inst[inst] : 0);
		v[0] = (struct rt_val){ .s = inst >= 0 ? who : "all" };
		for (int k = 0; k < p->cs.nr; k++)
			v[1 + k] = (struct rt_val){ .d = ctr_set__value(&p->cs, k, inst,
									since_start, NULL) };
		rtable__row(&t.sink, v);
	}
	rtable__end(&t.sink);
}

/* What was read last: since the last interval, or (@since_start) since the start. */
static void report(struct session *s, void *priv, const char *what, bool since_start)
{
	struct percpu_stat *p = priv;
	FILE *out = session__out(s);
	char ts[64];

	if (session__json(s)) { /* each counter per CPU, then each counter's total */
		ctr_set__report(&p->cs, out, true, true, since_start, what);
		ctr_set__report(&p->cs, out, true, false, since_start, what);
		fflush(out);
		return;
	}
	session__fmt_time(s, session__now(s), ts, sizeof(ts));
	fprintf(out, "%s percpu-stat: %s %.3f s\n", ts, what,
		(double)(p->cs.t_now - (since_start ? p->cs.t_first : p->cs.t_last)) / 1e9);
	matrix(p, out, since_start);
	fflush(out);
}

static void pcs_deinit(struct session *s, void *priv)
{
	struct percpu_stat *p = priv;

	ctr_set__end(&p->cs, s);
	ctr_set__free(&p->cs);
	evname__free(p->evs, p->nr_evs);
}

static const struct popt pcs_opts[] = {
	{ .lname = "syscalls",
	  .help = "count system calls too (raw_syscalls:sys_enter)",
	  POPT_BIND_FLAG(struct percpu_stat, syscalls) },
	{ .lname = "perins",
	  .help = "a row per CPU (always: the original's spelling is accepted)",
	  POPT_BIND_FLAG(struct percpu_stat, perins) },
	{ 0 },
};

const struct profiler prof_percpu_stat = {
	.name = "percpu-stat",
	.needs = (const char *const[]){ "cpu-wide", "tp?:irq:irq_handler_entry",
					"tp?:irq_vectors:local_timer_entry",
					"tp?:irq:softirq_entry", "tp?:timer:hrtimer_expire_entry",
					"tp?:workqueue:workqueue_execute_start", "tp?:kvm:kvm_exit",
					"tp?:net:netif_receive_skb", "tp?:net:net_dev_xmit",
					"tp?:kmem:mm_page_alloc",
					"tp?:vmscan:mm_vmscan_direct_reclaim_begin", NULL },
	.desc = "per-CPU counts of switches, faults, interrupts, timers, work, packets, pages",
	.synopsis = "perf-prof percpu-stat [-i MS] [--syscalls] [-C CPUS] [-- command]",
	.examples = "perf-prof percpu-stat -i 1000                # every second, every CPU\n"
		    "  perf-prof percpu-stat -C 2-3 --syscalls -i 500",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &output_group,
						     &exclude_group, NULL },
	.own = pcs_opts,
	.priv_size = sizeof(struct percpu_stat),
	.init = pcs_init,
	.deinit = pcs_deinit,
};
