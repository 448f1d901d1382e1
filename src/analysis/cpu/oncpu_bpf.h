/* SPDX-License-Identifier: GPL-2.0 */
/*
 * oncpu's in-kernel accounting (the BPF back end, engine/bpf.h): the time
 * each thread ran on each CPU, summed in the kernel, with the original's
 * sample filters applied to each slice there.
 *
 * A tp_btf program on sched_switch keeps, per CPU, the time of the last
 * switch.  At each switch the slice that ends (now less that time) is the
 * leaving thread's: when it is a target (the session's targets and -C, in
 * the kernel) and the filters keep it, it is added to the thread's per-CPU
 * sum (a hash by (CPU, tid), written on that CPU only: ns, tgid, the comm
 * at its latest slice).
 *
 * The slices running at a read are cut there, as the ring path cuts them
 * at an interval's edge: a raw tracepoint program (never attached) is run
 * on each monitored CPU with BPF_PROG_TEST_RUN (BPF_F_TEST_RUN_ON_CPU: in
 * an IPI, or with preemption off on perf-prof's own CPU; either way no
 * switch on that CPU can come between), and accounts the current task's
 * time since the last switch, then starts a new slice.  A CPU's first
 * slice starts at its first switch after the start (the running flag), or
 * where none came, at "begin", the same cut run right after the start: a
 * CPU that never switches (a spinner) is counted by the cuts alone, with
 * no cpu-clock sampling.
 *
 * What each filter reads, for the slice's thread (the one leaving at a
 * switch, the one running at a cut): its tgid (--exclude-pid), policy and
 * prio (--sched-policy, --prio: at the switch-out, as the ring path's
 * prev_prio), and the CPU's run queue length then (--nr-running-min/max:
 * the leaving thread counted if it was preempted, not if it blocked).
 * --tif-need-resched: the kernel clears TIF_NEED_RESCHED just before
 * sched_switch, so the flag itself always reads 0 there; what it asked for
 * is what a slice can tell: =1 keeps the slices that ended with the thread
 * still runnable (preempted, yielding, or still running at a cut), =0 those
 * that ended because it blocked (a sleep, a wait, its exit).
 * --irqs-disabled has no meaning for a slice (sched_switch always runs with
 * interrupts disabled): the profiler refuses it.
 *
 * Not forgotten by the kernel: a thread's key stays until the profiler
 * forgets it (oc_bpf__forget, after the thread exited); a full map counts
 * the slices it could not keep as drops (--bpf-entries).
 */
#ifndef PP_ONCPU_BPF_H
#define PP_ONCPU_BPF_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/cpu/bpf_sfilter.h"
#include "engine/bpf.h"

struct prio_opts;
struct oc_bpf;
struct session;
struct opt_set;

struct oc_bpf_conf {
	const struct sfilter_opts *sf; /* may be NULL: no filter */
	const struct prio_opts *prio;  /* may be NULL */
	const struct sf_layout *layout;
	const int *cpus; /* the monitored CPUs, cut at each read */
	int nr_cpus;
	unsigned entries; /* (CPU, thread) sums kept (--bpf-entries) */
};

/*
 * The maps and programs (attached when the session opens): 0 with *@out
 * set, -EOPNOTSUPP with @why (the ring path may do it), or -errno.
 */
int oc_bpf__new(struct bpf_back *b, const struct oc_bpf_conf *conf, struct oc_bpf **out, char *why,
		size_t len);
void oc_bpf__delete(struct oc_bpf *o);
/*
 * oncpu's choice for a request: 1 with *@out set (the BPF back end), 0
 * (the ring path, said under -v), or -errno with the session's error set:
 * --irqs-disabled (no meaning for a slice), a filter (not --prio) with
 * --no-bpf or where BPF cannot (a usage error, or the host's lack), --bpf
 * and BPF cannot.  @prio: --prio's (NULL: none).
 */
int oc_bpf__try(struct session *s, const struct opt_set *opts, const struct prio_opts *prio,
		struct oc_bpf **out);
/*
 * Cut the running slices on every monitored CPU (@begin: only start them):
 * 0 or -errno.  Only while the session counts: the last cut is made at the
 * disable (the run's end then, oc_bpf__stopped; 0 before).
 */
int oc_bpf__cut(struct oc_bpf *o, bool begin);
u64 oc_bpf__stopped(const struct oc_bpf *o);

/*
 * A thread's time since the last read (may be none): @ns[i] on CPU i
 * (0..@ncpu-1); @gone: it has exited (asked for, and no longer in /proc).
 */
typedef void (*oc_bpf_fn)(void *arg, u32 tid, u32 tgid, const char *comm, const u64 *ns, int ncpu,
			  bool gone);
/*
 * Cut the running slices (oc_bpf__cut), then every thread in the map with
 * what it gained since the last read (@gone: say which have exited): 0 or
 * -errno.
 */
int oc_bpf__read(struct oc_bpf *o, bool gone, oc_bpf_fn fn, void *arg);
/* Forget thread @tid (exited, read): its key leaves the kernel's map. */
void oc_bpf__forget(struct oc_bpf *o, u32 tid);

#endif
