/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The original perf-prof's in-kernel sample filters (profile, hrtimer;
 * not oncpu, whose times come from the switches, not from samples):
 * --irqs_disabled[=0|1], --tif_need_resched[=0|1], --exclude_pid PID,
 * --nr_running_min N, --nr_running_max N, --sched_policy N, and --prio
 * LIST (prio_group).  One BPF_PROG_TYPE_PERF_EVENT program, built
 * here from the options, is attached to every perf fd of the sampling
 * event: it runs at each overflow and keeps the sample (1) or drops it
 * (0) before anything is written to the ring.  What it reads: the
 * interrupted registers' flags (x86_64: EFLAGS.IF clear, interrupts
 * disabled), the current task through BTF (its tgid, policy, prio and
 * thread_info.flags' TIF_NEED_RESCHED) and this CPU's run queue
 * (its nr_running, through the task's se.cfs_rq->rq).
 *
 * These need BPF: with --no-bpf one of them is a usage error, on a host
 * without BPF a run-time error naming what it lacks.  --prio alone, for a
 * profiler that also has it on the ring path (profile: priorities learnt
 * from sched_switch), goes there instead.
 */
#ifndef PP_BPF_SFILTER_H
#define PP_BPF_SFILTER_H

#include <stdbool.h>

#include "util/opt.h"

struct session;
struct evsel;

struct sfilter_opts {
	bool irqs_given, tif_given, pid_given, min_given, max_given, policy_given;
	bool irqs_disabled;    /* --irqs_disabled[=1]: kept when disabled; =0: enabled */
	bool tif_need_resched; /* --tif_need_resched[=1]: kept when set; =0: clear */
	unsigned long long exclude_pid, nr_min, nr_max, policy;
};

extern const struct opt_group sfilter_group;

/*
 * The filter of @ev's samples per @opts (its sfilter_group, prio_group and
 * bpf_group), attached when the session opens.  @prio_ring: the profiler
 * does --prio on the ring path itself when BPF cannot.  Returns 1 when the
 * kernel filters (--prio included), 0 when there is nothing to filter or
 * --prio alone goes the ring path, -errno with the session's error set
 * (a usage error for --no-bpf or bad values).
 */
int sfilter__attach(struct session *s, const struct opt_set *opts, struct evsel *ev,
		    bool prio_ring);

#endif
