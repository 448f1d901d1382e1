/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting mode arithmetic (seed 002: how perf stat works).  A counter
 * opened with read_format TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING reads
 * {value, enabled, running}: when the PMU has fewer counters than events,
 * the kernel rotates them (multiplexing) and an event counts only while
 * running; perf stat then estimates value * enabled / running and shows the
 * running share.  Reads are cumulative: an interval is the difference of two.
 */
#ifndef PP_COUNTER_H
#define PP_COUNTER_H

#include <stdbool.h>

#include "engine/session.h"

/* @now - @before, field by field (a counter never goes back: 0 if it seems to). */
struct counter_val counter__delta(const struct counter_val *now, const struct counter_val *before);

/*
 * The value estimated over the whole enabled time: val * ena / run when
 * multiplexed (run < ena), val otherwise.  *share (if not NULL): run / ena,
 * 1 when ena is 0; 0 when the counter was enabled but never ran (the
 * result is then 0 and means "not counted").
 */
double counter__scaled(const struct counter_val *v, double *share);

/* Add @b to @a (a sum over CPUs or threads). */
void counter__add(struct counter_val *a, const struct counter_val *b);

#endif
