/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples the kernel counted but never delivered, from the counts the
 * samples carry (PERF_SAMPLE_READ): an event's counter counts every event,
 * whether its sample reached the ring or not, so between two consecutive
 * samples of one counter it grows by one period per sample taken; what it
 * grew more says how many samples went missing in between: lost when the
 * ring was full (the samples among the ring's PERF_RECORD_LOST records).
 * Every sample of the counter must come here: one the engine's user-space
 * filter left out (evsel.ufilter) counts as missing.
 *
 * A counter is an opened event: per CPU, or per thread with -p/-t/a
 * command, where each thread born under an inheriting event has its own
 * (Linux 6.12 and later; before, the engine refuses PERF_SAMPLE_READ with
 * inherit).  Its count starts at 0 when it is opened and counts only while
 * it is enabled, so its first sample says how many before it went missing.
 * A count lower than the last one (a thread id used again: a new counter
 * under the same key) starts over from 0.
 */
#ifndef PP_UNSEEN_H
#define PP_UNSEEN_H

#include "engine/session.h"

struct unseen;

/* What an event needs for the check: PERF_SAMPLE_READ and the sample's period. */
void unseen__conf(struct evsel_conf *c);

/*
 * NULL when out of memory.  @per_thread: the counters are threads'
 * (session__per_thread): each (event id, CPU, tid) has its own; else each
 * (event id, CPU): an opened event counts on one CPU (the CPU is the id's;
 * in an injected session, whose events have one id, it tells them apart).
 */
struct unseen *unseen__new(bool per_thread);

/*
 * The samples of @smp's counter that went missing since the counter's last
 * sample (or since it started): 0 when none, or when the sample carries no
 * count.  The count grew by (missing + 1) periods; a count that grew by a
 * fraction more (a hardware event's skid) is rounded to whole periods.
 */
u64 unseen__sample(struct unseen *u, const struct sample *smp);

void unseen__free(struct unseen *u);

#endif
