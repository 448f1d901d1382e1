/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flame graph of a session's sample stacks, set up and torn down in one
 * place for every profiler with --flame-graph: the name from the options,
 * the frame buffer, a root timestamp frame per -i interval, weights in
 * nanoseconds folded into whole microseconds with the remainder carried
 * (sums stay exact), and the write at the end only when the run started
 * (a run that failed before its events were on leaves the old file).
 */
#ifndef PP_STACK_FLAME_H
#define PP_STACK_FLAME_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/session.h"
#include "sym/stack.h"
#include "util/opt.h"

struct stack_flame;

/* The flame group: --flame-graph NAME[.svg] (listed after the stack group). */
struct flame_opts {
	const char *name;
};
extern const struct opt_group flame_group;

/*
 * With --flame-graph (@o from the profiler's options, may be NULL): *@out gets a flame graph titled @title whose weights
 * count @unit ("samples", "us").  Without: *@out = NULL.  With -i and
 * @stamp_first, the first interval's stacks get a time root too (else only
 * the later ones).  Returns 0 or -errno with the session's error set.
 */
int stack_flame__open(struct session *s, const struct flame_opts *o, const char *title,
		      const char *unit, bool stamp_first, struct stack_flame **out);
/* The stack of @smp under @comm, @leaf (NULL: none) last, weight @weight. */
void stack_flame__add(struct stack_flame *f, struct session *s, const struct sample *smp,
		      const char *comm, const char *leaf, uint64_t weight);
/* The same with a weight of @ns nanoseconds, counted in microseconds. */
/* A stack kept from earlier (analysis/stackdb), with its weight. */
void stack_flame__add_frames(struct stack_flame *f, const struct frame *frames, int nr,
			     const char *comm, const char *leaf, uint64_t weight);
void stack_flame__add_ns(struct stack_flame *f, struct session *s, const struct sample *smp,
			 const char *comm, const char *leaf, uint64_t ns);
/* -i: the next stacks go under a root frame with the time of now. */
void stack_flame__interval(struct stack_flame *f, struct session *s);
/*
 * Write it (if the session started) and free it.  A failed write prints
 * "perf-prof @who: writing the flame graph NAME: REASON"; returns 0 or -errno.
 */
int stack_flame__close(struct stack_flame *f, struct session *s, const char *who);

#endif
