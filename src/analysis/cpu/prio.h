/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --prio LIST (oncpu, profile, task-state, rundelay): only threads whose
 * kernel priority is in LIST, in the numbering sched tracepoints print
 * (prev_prio, next_prio, prio): 0-99 real-time (a SCHED_FIFO/RR priority
 * P is 99 - P), 100-139 normal (120 + nice).  "1-99" are the real-time
 * threads, "120" those of nice 0.
 *
 * Tracepoint profilers add prio__filter to their kernel filters; a
 * sampling one keeps each thread's priority as the scheduler's switches
 * tell it (a prio_map), and /proc/TID/stat for a thread not seen switching.
 */
#ifndef PP_PRIO_H
#define PP_PRIO_H

#include <stdbool.h>
#include <sys/types.h>

#include "engine/sample.h"
#include "util/opt.h"

#define PRIO_MAX 139 /* MAX_PRIO - 1 */

struct prio_opts {
	bool set;
	u64 mask[(PRIO_MAX + 64) / 64]; /* bit P: priority P is kept */
};

extern const struct opt_group prio_group; /* --prio LIST */

/* Parse "1-99,120" into @p. 0, or -1 with the reason in @err. */
int prio__parse(struct prio_opts *p, const char *arg, char *err, size_t errlen);
/* Whether priority @prio is kept (always without --prio; @p may be NULL). */
bool prio__has(const struct prio_opts *p, long long prio);
/*
 * "(F >= 1 && F <= 99 || F == 120)" for @field (malloc'd), "" without
 * --prio; NULL when out of memory.
 */
char *prio__filter(const struct prio_opts *p, const char *field);
/* *@filter (malloc'd) && prio__filter(@p, @field): 0, or -ENOMEM (*@filter kept). */
int prio__and(char **filter, const struct prio_opts *p, const char *field);
/* The kernel priority of thread @tid from /proc (field 18 + 100), or -1. */
int prio__of_task(pid_t tid);

/* Threads' priorities as last seen. */
struct prio_map;
struct prio_map *prio_map__new(void);
void prio_map__delete(struct prio_map *m);
/* @tid had priority @prio (a switch said so). 0 or -ENOMEM. */
int prio_map__set(struct prio_map *m, u32 tid, int prio);
/* @tid's priority: as last set, else from /proc (remembered), else -1. */
int prio_map__get(struct prio_map *m, u32 tid);
void prio_map__forget(struct prio_map *m, u32 tid);
/*
 * @m's own hook in session @s (before it opens): a task's exit forgets it
 * (prio_map__forget).  0, or -ENOMEM with the session's error set.
 */
struct session;
int prio_map__add_hooks(struct prio_map *m, struct session *s);

#endif
