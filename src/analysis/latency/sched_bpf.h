/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What task-state's and rundelay's in-kernel programs (ts_bpf.c,
 * rundelay_bpf.c) share about the scheduler's tracepoints: a task's state
 * decoded as sched_switch's trace record reports it, so that the BPF back
 * end and the ring path (which reads the record) agree; --filter's comm
 * globs compiled into a test of a task's comm.
 *
 * The switch-ins sched_switch does not deliver (a few per thousand here,
 * for every tracer: on this host no switch-out of some tasks, a VM agent's
 * threads, reaches ftrace or BPF, so the next task's switch-in is unseen;
 * perf's context-switch records have it) are closed at the thread's next
 * switch-out, its dead one included (task-state keeps an interval open at
 * sched_process_exit for it), two ways:
 * rundelay (a runqueue wait) by what that switch-in added to
 * sched_info.run_delay, exact, in the scheduler's clock; task-state (an
 * off-CPU interval, its sleep included, which run_delay does not hold) by
 * what the thread ran since it left, se.sum_exec_runtime, whose clock
 * leaves out steal time (PARAVIRT_TIME_ACCOUNTING) and, where configured,
 * IRQ time (its intervals are longer by those).  Not one way: task-state
 * has no exact one, and sum_exec_runtime would make rundelay's delays
 * longer by those too, where run_delay is exact.
 */
#ifndef PP_SCHED_BPF_H
#define PP_SCHED_BPF_H

#include "engine/bpf_insn.h"

/* The state indexes the kernel reports (task_state_index): R S D T t X Z P I. */
enum { SCHED_R, SCHED_S, SCHED_D, SCHED_T, SCHED_t, SCHED_X, SCHED_Z, SCHED_P, SCHED_I };

/*
 * R@dst = the state index of a task whose __state is in @st (u32) and
 * exit_state in @ex, as the kernel's __task_state_index gives it for the
 * sched_switch record (preemption aside: the caller tests it first):
 * TASK_IDLE (UNINTERRUPTIBLE | NOLOAD, with TASK_FREEZABLE or not) is I;
 * TASK_RTLOCK_WAIT and TASK_FROZEN are D; else the highest bit of
 * (@st | @ex) & TASK_REPORT, none being R.  @st is clobbered; uses @tmp.
 * Registers all distinct; ALU and jumps only.
 */
void sched_bpf__emit_state(struct bpfb *c, int dst, int st, int ex, int tmp);

/*
 * R@dst = the prev_state sched_switch's record carries (the kernel's
 * __trace_sched_switch_state): SCHED_PREV_STATE_PREEMPT when @preempt (the
 * tracepoint's bool argument, 0 or not) is set, else 0 for R and
 * 1 << (index - 1) for the others (S 0x1, D 0x2, ... I 0x80), the index as
 * sched_bpf__emit_state gives it.  @st is clobbered; uses @tmp; registers
 * all distinct; ALU and jumps only.
 */
#define SCHED_PREV_STATE_PREEMPT 0x100 /* TASK_REPORT_MAX: the record's "R+" */
void sched_bpf__emit_prev_state(struct bpfb *c, int dst, int preempt, int st, int ex, int tmp);

/*
 * How a program reads a kernel object's field: @fn emits R@dst = the
 * @size bytes at R@src + @off (a load where BTF types the pointer, a
 * helper call where it does not); NULL @fn: a plain load.
 */
struct sched_bpf_load {
	void (*fn)(void *arg, struct bpfb *c, int dst, int src, int off, int size);
	void *arg;
};
/*
 * The task argument at R@ctx + @off (a tracepoint's argument) into R7 and
 * its tid (task_struct.pid at @off_pid, read by @load, NULL: a load) into
 * R8; to @skip for the idle task (tid 0), else the tid stored (u32) at
 * R10 + @key (0: not stored).  What @load uses besides R7, R8.
 */
void sched_bpf__emit_task(struct bpfb *c, int ctx, int16_t off, int off_pid,
			  const struct sched_bpf_load *load, int16_t key, int skip);

/*
 * --filter's comm globs, compiled: NAME (the comm is NUL-padded: both
 * 8-byte words whole) and PREFIX*, as masks on the comm's two words.
 */
#define SCHED_BPF_MAX_GLOBS 16
struct sched_globs {
	int n; /* 0: no --filter (or a glob that matches every comm) */
	struct {
		uint64_t val[2], mask[2];
	} g[SCHED_BPF_MAX_GLOBS];
};
/*
 * Compile @globs (comma-separated, NULL: none): 0, or -EOPNOTSUPP with
 * @why set for globs not compiled (?, [...], \, * other than last, more
 * than SCHED_BPF_MAX_GLOBS).  A glob longer than a comm never matches.
 */
int sched_bpf__compile_globs(struct sched_globs *gl, const char *globs, char *why, size_t len);
/*
 * Go to @fail unless the comm whose bytes 0-7 are in @lo and 8-15 in @hi
 * (little-endian words) matches one of @gl's globs (none: no test).
 * Uses @t1, @t2; registers all distinct.
 */
void sched_bpf__emit_comm_test(const struct sched_globs *gl, struct bpfb *c, int lo, int hi, int t1,
			       int t2, int fail);

#endif
