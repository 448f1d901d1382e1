/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Gaps in per-CPU streams of events: for each CPU a few "clocks" (a timer's
 * samples, a watchdog's hrtimer, a kthread's runs) with the time each last
 * ticked.  A tick long after the previous one is a gap (irq-off: the timer
 * interrupt was held off); a clock that has not ticked for a while is
 * overdue (watchdog: a lockup coming), said once per episode.
 *
 * An idle CPU holds nothing off: the idle task runs with interrupts on,
 * and on many machines (VMs, NOHZ) an idle CPU's timers stop or its
 * samples are never delivered.  So a gap that began in the idle task (the
 * previous tick's pid 0) or during which the CPU was idle (a switch to or
 * from the idle task, gapwatch__idle, between the two ticks) is an idle
 * gap, never a gap; and a clock's age counts from the last time the CPU was
 * seen idle if that is later than its last tick, and is 0 while it is idle.
 *
 * A bounded ring per CPU keeps copies of its last samples (with their
 * stacks), to print what a CPU did during a gap or an overdue episode.
 */
#ifndef PP_GAPWATCH_H
#define PP_GAPWATCH_H

#include <stdbool.h>

#include "engine/sample.h"

#define GW_MAX_CLOCKS 4
#define GW_MAX_CPUS 8192

struct gapwatch;

/* @nr_clocks clocks per CPU (1..GW_MAX_CLOCKS), the last @keep samples per CPU. */
struct gapwatch *gapwatch__new(unsigned nr_clocks, unsigned keep);
void gapwatch__delete(struct gapwatch *g); /* NULL is fine */

/* @cpu switched to the idle task (@idle) or away from it at @time. */
void gapwatch__idle(struct gapwatch *g, int cpu, u64 time, bool idle);

enum gw_tick {
	GW_FIRST,  /* the clock's first tick on the CPU, or the first since a loss */
	GW_NORMAL, /* shorter than the limit */
	GW_GAP,	   /* the limit or longer, the CPU busy throughout */
	GW_IDLE,   /* the limit or longer, but it began in or spans an idle period */
};

struct gw_tick_info {
	u64 gap;      /* since the previous tick (0 for GW_FIRST) */
	u64 prev;     /* the previous tick's time (0 for GW_FIRST) */
	bool overdue; /* this tick ends an episode gapwatch__overdue reported */
};

/*
 * Clock @k of @cpu ticked at @time, in task @pid (0: the idle task).
 * @limit: the shortest gap (0: none is).  @info may be NULL.
 */
enum gw_tick gapwatch__tick(struct gapwatch *g, unsigned k, int cpu, u64 time, u32 pid, u64 limit,
			    struct gw_tick_info *info);

/*
 * Is clock @k of @cpu @limit or more behind at @now?  Its age runs from
 * its last tick, or from when the CPU was last seen idle if later, or from
 * the first question about it if it never ticked; 0 while the CPU is idle.
 * True once per episode (until the clock ticks or the CPU idles): the
 * first question that finds it so.  *@age and *@since (either may be NULL)
 * get the age and the time it runs from.
 */
bool gapwatch__overdue(struct gapwatch *g, unsigned k, int cpu, u64 now, u64 limit, u64 *age,
		       u64 *since);

/* Records of @cpu were lost (-1: of every CPU): no gap is measured across the loss. */
void gapwatch__forget(struct gapwatch *g, int cpu);
/*
 * @g's own hooks in session @s (before it opens): records lost are
 * gapwatch__forget, context switches to or from the idle task
 * gapwatch__idle (their records are on).  0, or -ENOMEM with the
 * session's error set.
 */
struct session;
int gapwatch__add_hooks(struct gapwatch *g, struct session *s);

/* Keep a copy of @smp (its stack too) in its CPU's ring: 0 or -ENOMEM. */
int gapwatch__keep(struct gapwatch *g, const struct sample *smp);
/*
 * Call @fn for each sample of @cpu's ring taken at or after @since, oldest
 * first.  Returns how many.
 */
unsigned gapwatch__kept(struct gapwatch *g, int cpu, u64 since,
			void (*fn)(void *arg, const struct sample *smp), void *arg);

/* What a clock met on a CPU. */
struct gw_stats {
	u64 ticks;
	u64 gaps;	/* GW_GAP */
	u64 idle_gaps;	/* GW_IDLE */
	u64 longest;	/* the longest GW_GAP */
	u64 longest_at; /* the tick that ended it */
	u64 episodes;	/* overdue episodes */
	u64 worst;	/* the highest age of an overdue question, or gap of a tick */
};
/* The stats of clock @k on @cpu; all zero for a CPU never seen. */
struct gw_stats gapwatch__stats(const struct gapwatch *g, unsigned k, int cpu);
/* The highest CPU seen + 1. */
int gapwatch__nr_cpus(const struct gapwatch *g);

#endif
