/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task-state's in-kernel programs (the BPF back end, engine/bpf.h): off-CPU
 * intervals paired and timed in the kernel, tp_btf on sched_switch and
 * sched_wakeup.
 *
 * At the switch-out of a target (the session's targets, --filter's comm
 * globs, a state of the mask) the thread's entry in a hash map (by tid,
 * updated in place) gets the time, the state as sched_switch's trace
 * record reports it, its comm and thread group, and with stacks the id of
 * its kernel stack (a BPF_MAP_TYPE_STACK_TRACE, at sched_switch: the stack
 * where it left).  sched_wakeup gives the entry its first wakeup.  At its
 * switch-in the interval is recorded in analysis/latency/bpf_lat.h's rows:
 * key {state, 0} (or {state, tid} per thread), and the sleep and runq
 * parts, where woken, under {state | TS_BPF_SLEEP or TS_BPF_RUNQ, ...};
 * with stacks, the off-CPU time and count are summed per (stack, state,
 * comm) in a per-CPU hash.  Threads that die (X, Z) are marked, kept for
 * their name until the next read, then deleted.
 *
 * With --than, an interval over it is also written to a BPF ring buffer
 * (bpf_back__out) as it ends and handed to the conf's slow callback as
 * the loop reads it; one the ring buffer has no room for is counted and
 * said ("slow cases counted but not printed").
 *
 * A switch-out that finds its entry still open (its switch-in was not
 * traced: seen here, on every tracer alike) closes that interval where the
 * thread started to run: now less what it ran since (se.sum_exec_runtime).
 */
#ifndef PP_TS_BPF_H
#define PP_TS_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/bpf.h"

struct hist;
struct ts_bpf;
struct bpf_stacks;

/* The sub-row of a key's first word (its state in the low 8 bits). */
#define TS_BPF_SLEEP 0x100
#define TS_BPF_RUNQ 0x200

/*
 * An interval over --than, copied out of the kernel at its end (its
 * switch-in, or for a switch-in not traced the next switch-out): the
 * thread, its state and comm at the switch-out, where it ended, how long
 * it was off CPU, and with stacks where it left: the flame graph's kernel
 * stack (@ips innermost first, the program's own frames included; @nr 0:
 * none), or with the conf's slow_stacks their slots (@kslot, @uslot, as
 * bpf_stack.h writes them, or NULL: bpf_stacks__sample makes the
 * callchain).
 */
struct ts_bpf_slow {
	uint64_t end, dur;
	uint32_t pid, tid, cpu, state;
	char comm[16];
	const uint64_t *ips;
	int nr;
	const void *kslot, *uslot;
};

struct ts_bpf_conf {
	unsigned state_mask; /* 1 << state index (task_state.c's ST_*) counted */
	bool perins;	     /* rows per thread */
	const char *filter;  /* --filter COMM globs, or NULL */
	bool stacks;	     /* kernel stacks at switch-out, their time summed (the flame graph) */
	int max_stack;	     /* frames kept (0: 127) */
	unsigned entries;    /* threads, rows, stacks (--bpf-entries) */
	uint64_t than;	     /* --than: intervals over it copied out to @slow (0: none) */
	void (*slow)(void *arg, const struct ts_bpf_slow *r);
	void *slow_arg;
	/*
	 * --than's stacks without a flame graph (-g's,
	 * analysis/latency/bpf_stack.h: kept at the switch-out), or NULL
	 */
	struct bpf_stacks *slow_stacks;
};

/*
 * Build, load and attach-at-open the programs: 0 with *@out set, or
 * -EOPNOTSUPP with @why saying what does not compile or load (the ring
 * path then), or another -errno (the session's error set).
 */
int ts_bpf__new(struct bpf_back *b, const struct ts_bpf_conf *conf, struct ts_bpf **out, char *why,
		size_t len);
void ts_bpf__delete(struct ts_bpf *t);

/* What the maps gained since the last read. */
struct ts_bpf_ops {
	/*
	 * a row: @state (| TS_BPF_SLEEP/RUNQ), per thread @tid of @pid named
	 * @comm (0 without); @over of its values above --than (exact)
	 */
	void (*row)(void *arg, unsigned state, uint32_t pid, uint32_t tid, const char *comm,
		    const struct hist *h, uint64_t over);
	/* a kernel stack (@ips innermost first, @nr of them) off CPU in @state, @count times, @ns */
	void (*stack)(void *arg, const uint64_t *ips, int nr, const char *comm, unsigned state,
		      uint64_t count, uint64_t ns);
};
/* @interval: an interval ends here; @last: the run's last read.  0 or -errno. */
int ts_bpf__read(struct ts_bpf *t, bool interval, bool last, const struct ts_bpf_ops *ops,
		 void *arg);

/* Intervals so far whose switch-in was not traced, closed at the next switch-out. */
uint64_t ts_bpf__unseen(struct ts_bpf *t);

#endif
