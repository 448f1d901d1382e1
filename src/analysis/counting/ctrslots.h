/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A counter set (counters.h) read every period (stat --period): each -i
 * interval is a row of slots per counter (per instance with --perins), the
 * count of each period in it, and the interval's total, which is their sum.
 *
 * The set is read by a timer of the session's (session__every) every
 * PERIOD from the start; a read's difference from the previous one (each
 * scaled by its own enabled/running times, as counters.h does) is the slot
 * of the period that ends with it.  A read late by a period or more (the
 * loop ran late: a loaded host) covers every period since the last one:
 * the periods it missed show no value ("-", JSON null) and its count is in
 * the slot of the last one, never spread or guessed; when they straddle
 * the end of an interval, the count is in the next one.  So the slots of
 * an interval add up to its total, and the intervals to the run's total.
 * The first period starts when the counters were enabled, and an interval
 * is stamped at its start plus its periods (not at the late read's time).
 * Intervals the missed periods cover whole (the process stopped) are not
 * printed: one line ("stat: N periods of P not read ...") says how many
 * periods, and the next interval starts after them.  At the end, the last
 * interval is printed with the slots it had, the last one partial; a
 * period or more since the last read there is a late read too (the
 * stopping session runs no timer).
 */
#ifndef PP_CTRSLOTS_H
#define PP_CTRSLOTS_H

#include <stdbool.h>

#include "analysis/counting/counters.h"

/* Slots per interval, at most. */
#define CTR_SLOTS_MAX 1000

struct ctr_slots {
	struct ctr_set *cs;
	u64 period; /* ns */
	int nr;	    /* slots per interval */
	int pos;    /* the slot the next read fills */
	bool perins;
	int nr_inst; /* the set's instances, once read */
	/* [counter][1 + instance][slot]: [0] every instance; NaN: not read */
	double *v;
	bool *has;   /* [counter][instance]: the counter counts there */
	u64 t_start; /* the interval's start (the session's clock) */
	u64 nr_late; /* reads that covered more than one period */
};

/*
 * Read @cs every @period ns on @s, @nr periods an interval, each interval
 * printed to session__out (text, or --json); @perins: per instance.  In
 * the profiler's init, after ctr_set__add.  0, or -errno with the
 * session's error set.
 */
int ctr_slots__start(struct ctr_slots *sl, struct ctr_set *cs, struct session *s, u64 period,
		     int nr, bool perins);

/* The timer's call (tests call it): read, @periods since the last read. */
void ctr_slots__tick(struct ctr_slots *sl, struct session *s, u64 periods);

/* The end of a started session: the last read, the last (partial) interval printed. */
void ctr_slots__end(struct ctr_slots *sl, struct session *s);

void ctr_slots__free(struct ctr_slots *sl);

#endif
