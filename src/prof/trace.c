// SPDX-License-Identifier: GPL-2.0
/*
 * trace: print each event as one line, as the kernel formats it, with its
 * stack under -g, or fold the stacks into a flame graph.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/evline.h"
#include "report/outfile.h"
#include "report/stack_flame.h"
#include "profiler.h"
#include "sym/stack.h"

struct trace {
	struct stack_flame *flame;
	union evline_sinks u;
	struct rt_sink *lines; /* the event lines, on @out */
	FILE *out;
};

static int trace_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *ev = session__conf(s)->events;
	struct trace *t = priv;

	if (!ev->nr_specs)
		return session__usage_err(s, "no events: give -e sys:name (see: perf-prof list)");
	for (int i = 0; i < ev->nr_specs; i++) {
		struct evsel_conf c = { 0 };

		if (ev->specs[i].profiler) /* an inner profiler's: it adds them (cli/joint.h) */
			continue;
		c.callchain = session__stacks_for_all(s);
		if (session__add_spec(s, &ev->specs[i], &c) < 0)
			return -1;
	}
	return stack_flame__open(
		s, opt_set__get(opts, &flame_group),
		&(struct flame_kind){ .title = "Event Flame Graph", .count = "samples" },
		&t->flame);
}

static void trace_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	FILE *out = session__out(s);
	struct trace *t = priv;
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;

	if (t->flame) {
		stack_flame__add(t->flame, s, smp, session__comm_at(s, smp->tid, smp->time), NULL,
				 1, 0);
		return;
	}
	if (!t->lines || t->out != out) {
		if (t->lines)
			rtable__end(t->lines);
		t->lines = evline__sink(&t->u, s, out);
		t->out = out;
		rtable__begin(t->lines, &evline_desc);
	}
	evline__row(v, &stk, s, ev, smp, NULL, NULL);
	rtable__row(t->lines, v);
}

static void trace_interval(struct session *s, void *priv)
{
	struct trace *t = priv;

	stack_flame__interval(t->flame, s);
}

static void trace_deinit(struct session *s, void *priv)
{
	struct trace *t = priv;

	if (t->lines)
		rtable__end(t->lines);
	stack_flame__close(t->flame, s, "trace");
}

const struct profiler prof_trace = {
	.name = "trace",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "print events as they happen, with stacks, or fold them into a flame graph",
	.synopsis = "perf-prof trace -e EVENT[,EVENT...] [-g [--flame-graph NAME]] [-C CPUS|-p "
		    "PID|-t TID|-- CMD]",
	.examples = "perf-prof trace -e sched:sched_wakeup -C 0\n"
		    "  perf-prof trace -e 'sched:sched_switch/prev_state==2/stack/' -N 10\n"
		    "  perf-prof trace -e syscalls:sys_enter_getppid -g -- ./a.out\n"
		    "  perf-prof trace -e skb:kfree_skb -g --flame-graph drops.svg -i 60000",
	.groups = (const struct opt_group *const[]){ &event_group, &target_group, &run_group,
						     &ring_group, &output_group, &stack_group,
						     &flame_group, &exclude_tp_group, NULL },
	.joint = true,
	.priv_size = sizeof(struct trace),
	.init = trace_init,
	/* an inner profiler's samples are printed like any event's */
	.ops = { .sample = trace_sample, .interval = trace_interval, .inner_sample = trace_sample },
	.deinit = trace_deinit,
};
