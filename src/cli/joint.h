/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Joint analysis: profilers named in another profiler's -e
 * ("trace -e 'sched:sched_wakeup,profile/-F 99 -N 10/'") run in the same
 * session with their own options.  Each keeps its own hooks and its own
 * report; the samples of its events also reach the outer profiler
 * (session_ops.inner_sample), in time order with the rest.  So do the
 * rows of the reports it writes at each interval (and SIGUSR1): each row
 * is an event named PROFILER:TYPE (its description's type) whose fields
 * are the description's columns, at the time of the last sample delivered
 * (--order) or now; the inner profiler prints nothing of its own until its
 * report at the end.
 */
#ifndef PP_CLI_JOINT_H
#define PP_CLI_JOINT_H

#include "profiler.h"
#include "sym/stack.h"

struct joint_rows;

struct joint_inner {
	const struct profiler *p;
	const struct ev_spec *spec; /* its item in the outer's -e */
	struct opt_set set;
	void *priv;
	char **words; /* its options' words (the values point into them) */
	int nr_words;
	int hooks; /* its hook set */
	bool inited;
	struct joint_rows *rows; /* its rows as events (joint__init) */
};

struct joint {
	struct joint_inner *in;
	int n;
	int outer; /* the outer profiler's hook set */
};

/*
 * The inner profilers of @outer's -e (in @set): each one's options parsed.
 * 0, 1 when one printed its help, or -1 after one line on stderr.
 */
int joint__parse(const struct profiler *outer, const struct opt_set *set, struct joint *j);
/* The stack options of the first inner profiler that captures stacks, or NULL. */
const struct stack_opts *joint__stack(const struct joint *j);
/*
 * Register the outer profiler's hooks (@ops, @priv), then the inner ones'
 * (each after the outer's: its events go to the outer's inner_sample).
 * 0 or -errno with the session's message.
 */
int joint__add_ops(struct session *s, const struct session_ops *ops, void *priv, struct joint *j);
/* The outer's init with its events owned, then each inner's with its own configuration. */
int joint__init(struct session *s, const struct profiler *outer, void *priv,
		const struct opt_set *set, struct joint *j);
/* Each inner profiler's report (deinit), after the outer's. */
void joint__deinit(struct session *s, struct joint *j);
void joint__free(struct joint *j);

#endif
