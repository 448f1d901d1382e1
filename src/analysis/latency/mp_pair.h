/* SPDX-License-Identifier: GPL-2.0 */
/*
 * multi-trace --impl pair: the pairs left open, a leak check (an open
 * without its close: a file descriptor, an allocation).  In place of the
 * latency table, at each interval, SIGUSR1 and the end: per pair of points
 * how many opened, closed, and closed without an open in the interval, and
 * each pair still open, oldest first, with its key, its age and its start
 * event as trace prints it.  --json: a "pairs" row per pair of points
 * (from, to, opened, closed, unopened, open) and an "open" row per open
 * pair (from, to, key, time_ns of its start, age_ns).
 */
#ifndef PP_MP_PAIR_H
#define PP_MP_PAIR_H

#include "analysis/latency/multipoint.h"

/* multipoint_conf.report (arg unused). */
void mp_pair__report(struct multipoint *mt, void *arg, struct session *s);

#endif
