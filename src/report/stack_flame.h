/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flame graph of a session's sample stacks, set up and torn down in one
 * place for every profiler with --flame-graph: the name from the options,
 * the frame buffer, a root timestamp frame per -i interval, weights in
 * nanoseconds folded into whole microseconds with the remainder carried
 * (sums stay exact), and the write at the end only when the run started
 * (a run that failed before its events were on leaves the old file).
 * With --pprof (or --flame-graph NAME.pb.gz) the same stacks also go into
 * a pprof file (report/pprof.h), with exact values and labels.
 */
#ifndef PP_STACK_FLAME_H
#define PP_STACK_FLAME_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/session.h"
#include "sym/stack.h"
#include "util/opt.h"

struct stack_flame;

/*
 * The flame group: --flame-graph NAME[.svg|.pb.gz] and --pprof NAME (listed
 * after the stack group).
 */
struct flame_opts {
	const char *name;
	const char *pprof;
};
extern const struct opt_group flame_group;

/*
 * What a profiler's stacks weigh.  Each stack comes with a count (samples,
 * events, objects) and, where the profiler measures one, a value (CPU or
 * off-CPU nanoseconds, bytes).  The folded file and the SVG weigh a stack
 * by its count, or with @fold_value by its value (nanoseconds in whole
 * microseconds, the remainder carried); a pprof file has both as its
 * sample types ("samples"/"count", "off_cpu"/"nanoseconds"), the value
 * shown by default.
 */
struct flame_kind {
	const char *title;	/* the SVG's title */
	const char *count;	/* pprof type of the count (unit "count"): "samples" */
	const char *value;	/* pprof type of the value, NULL: none: "cpu", "space" */
	const char *value_unit; /* "nanoseconds" (folded in us), "bytes" */
	bool fold_value;	/* the folded weight is the value, not the count */
	u64 period;		/* pprof: the value one count stands for (profile's 1/HZ) */
	const char *leaf_label; /* pprof: the label that gets the leaf frame ("state") */
	bool stamp_first;	/* with -i, the first interval's stacks get a time root too */
};

/*
 * With --flame-graph or --pprof (@o from the profiler's options, may be
 * NULL): *@out gets the flame graph and/or pprof profile of stacks that
 * weigh what @kind says.  Without: *@out = NULL.  Returns 0 or -errno with
 * the session's error set.
 */
int stack_flame__open(struct session *s, const struct flame_opts *o, const struct flame_kind *kind,
		      struct stack_flame **out);
/* The stack of @smp under @comm, @leaf (NULL: none) last: @count and @value (see flame_kind). */
void stack_flame__add(struct stack_flame *f, struct session *s, const struct sample *smp,
		      const char *comm, const char *leaf, u64 count, u64 value);
/* A stack kept from earlier (analysis/stackdb), with its count and value. */
void stack_flame__add_frames(struct stack_flame *f, const struct frame *frames, int nr,
			     const char *comm, const char *leaf, u64 count, u64 value);
/* -i: the next stacks go under a root frame with the time of now (pprof: a label "time"). */
void stack_flame__interval(struct stack_flame *f, struct session *s);
/*
 * Write them (if the session started) and free it.  A failed write prints
 * "perf-prof NAME: writing the flame graph FILE: REASON" (session__output_err:
 * the run's status is 1); returns 0 or -errno.  @who names the pprof's maker.
 */
int stack_flame__close(struct stack_flame *f, struct session *s, const char *who);

#endif
