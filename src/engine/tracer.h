/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --ptrace: the targets (-p/-t threads, the -- workload) are seized with
 * ptrace(2) and followed through their fork, vfork and clone.  A task they
 * create starts stopped; it runs once perf-prof has made it a target (the
 * @born callback), never before: its first instruction is a target's.
 * Every other stop is passed through (signals re-injected, group stops
 * kept with PTRACE_LISTEN).  At the end every tracee still alive is
 * detached (interrupted, then let go with any signal it was stopped for).
 *
 * With ptrace the tracer reaps its children's stops with waitpid(-1): the
 * workload's exit is recorded into its struct workload here.
 */
#ifndef PP_TRACER_H
#define PP_TRACER_H

#include <stdbool.h>
#include <sys/types.h>

#include "engine/workload.h"

struct tracer;

/* @child is a new task of @parent; @process: a new process (not a thread) */
typedef void (*tracer_born_fn)(void *priv, pid_t parent, pid_t child, bool process);

struct tracer *tracer__new(tracer_born_fn born, void *priv);
/*
 * Trace @tid (a thread, running or held before exec).  @exitkill: the
 * tracee dies with perf-prof (the workload).  0 or -errno (EPERM: traced
 * by someone else already; ESRCH: gone).
 */
int tracer__seize(struct tracer *t, pid_t tid, bool exitkill);
/* Handle every stop and exit waiting now (non-blocking).  @wl may be NULL. */
void tracer__poll(struct tracer *t, struct workload *wl);
/* Let go of every tracee left, waiting at most ~2 s for them to stop. */
void tracer__detach(struct tracer *t, struct workload *wl);
/* Tracees held now, and new tasks seen in all (for -v and tests). */
unsigned tracer__nr(const struct tracer *t);
unsigned tracer__born(const struct tracer *t);
void tracer__delete(struct tracer *t);

#endif
