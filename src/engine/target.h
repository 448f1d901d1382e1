/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The target set of a CPU-wide session: which tasks -p, -t and "-- command"
 * name, for profilers whose events are opened per CPU (the switch-in and
 * the wakeup of a target come from other tasks' contexts) and choose their
 * targets in user space.
 *
 * -p PID: every thread of the process; -t TID: that thread; "-- command":
 * the workload process and every process it forks, followed through FORK
 * records (a process leaves the set at its EXIT, since its pid may be
 * reused by anyone).  No target at all: everything is a target.
 */
#ifndef PP_TARGET_H
#define PP_TARGET_H

#include <stdbool.h>

#include "engine/sample.h"

struct target_set;

/* @follow: follow the processes @pids[0..] fork (the workload: its pid) */
struct target_set *target_set__new(const int *pids, int nr_pids, const int *tids, int nr_tids);
void target_set__delete(struct target_set *t);
/* The workload process: it and its descendants are targets. */
int target_set__add_workload(struct target_set *t, u32 pid);
/* --inherit: the new processes of -p processes and -t threads join too. */
void target_set__set_inherit(struct target_set *t);
/* A new process of a target, seen before it runs (--ptrace).  0 or -ENOMEM. */
int target_set__add_process(struct target_set *t, u32 pid);
/* A FORK record: a new process of a followed one joins.  0 or -ENOMEM. */
int target_set__fork(struct target_set *t, const struct rec_task *r);
/* An EXIT record: a followed process leaves with its last thread. */
void target_set__exit(struct target_set *t, const struct rec_task *r);
bool target_set__has(const struct target_set *t, u32 pid, u32 tid);
/* No -p, -t or workload: every task is a target. */
bool target_set__all(const struct target_set *t);
/* Followed processes held now (for -v and tests). */
unsigned target_set__followed(const struct target_set *t);

#endif
