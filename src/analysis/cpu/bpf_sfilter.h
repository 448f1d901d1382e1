/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The original perf-prof's in-kernel sample filters (profile, hrtimer;
 * oncpu takes the options and applies them to its slices in its own
 * program, analysis/cpu/oncpu_bpf.h, with sfilter__emit_task's tests):
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

#include "engine/bpf_insn.h"
#include "util/opt.h"

struct session;
struct evsel;
struct prio_opts;

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

/* The first filter of @o given ("--exclude-pid"; NULL or none: "--prio"), for messages. */
const char *sfilter__first(const struct sfilter_opts *o);

/* Where the filters read the kernel's structures (BTF offsets, sizes). */
struct sf_layout {
	int regs_flags; /* pt_regs.flags in the context */
	int ti_flags;	/* task_struct.thread_info.flags */
	int policy, prio;
	unsigned policy_size, prio_size;
	int se_cfs_rq;	/* task_struct.se.cfs_rq */
	int cfs_rq_rq;	/* cfs_rq.rq */
	int nr_running; /* rq.nr_running */
	unsigned nr_size;
	int tif_bit; /* TIF_NEED_RESCHED's bit in ti_flags */
};

/*
 * The offsets the filters of @o (and --prio when @prio) need: 0, or
 * -errno with the session's error set (naming the option and the member).
 */
int sfilter__layout(struct session *s, const struct sfilter_opts *o, bool prio,
		    struct sf_layout *l);
/*
 * The tests on a task (a BTF pointer in register @task): --nr-running-min/
 * max (this CPU's run queue, through the task's CFS queue), --sched-policy
 * and --prio (@prio may be NULL); each goes to label @drop when the task
 * is not kept.  Uses R0.
 */
void sfilter__emit_task(struct bpfb *c, const struct sfilter_opts *o, const struct prio_opts *prio,
			const struct sf_layout *l, int task, int drop);

#endif
