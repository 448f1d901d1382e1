/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who runs on each CPU, and for how long: per CPU, the task running now
 * and since when, kept from the scheduler's switches (sched_switch
 * samples), the kernel's context-switch records (where a sched_switch
 * sample is not delivered: raised in an idle CPU's context on some VMs)
 * and any sample (the task it interrupted runs then: a CPU that does not
 * switch for a long time is still seen).  Each stretch a task ran (a
 * slice) is handed to a callback, cut at the interval edges; the idle task
 * (tid 0) is never credited.
 *
 * The first task seen on a CPU ran since the start (no switch came
 * before).  The records of one CPU come in order, those of different CPUs
 * need not: a record older than the start, read before the first edge,
 * moves the start back (the first tasks of the CPUs seen before are
 * credited the difference).  After lost records, a CPU's task is unknown
 * (not credited) until its next switch or sample.  Records read after an
 * edge but dated before it (still in flight at the edge) credit nothing
 * before the edge: the task that ran at the edge keeps that time.
 */
#ifndef PP_RUNSLICE_H
#define PP_RUNSLICE_H

#include <stdbool.h>

#include "engine/sample.h"

#define RUNSLICE_NO_PID ((u32)-1) /* the task's process is not known (yet) */
/* The pid and tid the kernel gives a task that has exited (its last records). */
#define RUNSLICE_DEAD ((u32)-1)

struct runslice;

/* @tid ran @ns on @cpu (@pid: its process, or RUNSLICE_NO_PID). */
typedef void (*runslice_fn)(void *arg, u32 cpu, u32 pid, u32 tid, u64 ns);

/* CPUs 0..@nr_cpus-1 (others are ignored). NULL when out of memory. */
struct runslice *runslice__new(int nr_cpus, runslice_fn credit, void *arg);
void runslice__delete(struct runslice *r);

/*
 * The start of monitoring (the first interval's start): the first record's
 * time, then that of any older one before the first edge.  Whether @time
 * became the start.
 */
bool runslice__start(struct runslice *r, u64 time);
/*
 * A sched_switch on @cpu at @time: @prev_tid (of process @prev_pid, the
 * sample's pid) leaves, @next_tid comes in.
 */
void runslice__switch(struct runslice *r, u32 cpu, u64 time, u32 prev_pid, u32 prev_tid,
		      u32 next_tid);
/* A context-switch record (CPU-wide: it names the task on the other side). */
void runslice__record(struct runslice *r, const struct rec_switch *sw);
/* A sample: @tid (of @pid) runs on @cpu at @time (RUNSLICE_DEAD: ignored). */
void runslice__running(struct runslice *r, u32 cpu, u64 time, u32 pid, u32 tid);
/* Records of @cpu (-1: of every CPU) were lost: who runs there is not known. */
void runslice__lost(struct runslice *r, int cpu);
/*
 * @r's own hook in session @s (before it opens): records lost are
 * runslice__lost.  0, or -ENOMEM with the session's error set.
 */
struct session;
int runslice__add_hooks(struct runslice *r, struct session *s);
/* An interval edge at @time: every running slice is credited up to it. */
void runslice__edge(struct runslice *r, u64 time);

/* Whether @tid runs on @cpu now, as far as is known. */
bool runslice__runs(const struct runslice *r, u32 cpu, u32 tid);

struct runslice_stats {
	u64 by_record;	/* switches known only from a context-switch record */
	u64 by_sample;	/* tasks known only from a sample */
	u64 mismatches; /* a switch or sample named another task than the one known */
};
void runslice__stats(const struct runslice *r, struct runslice_stats *st);

#endif
