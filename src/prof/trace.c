// SPDX-License-Identifier: GPL-2.0
/*
 * trace: print each event as one line, as the kernel formats it, with its
 * stack under -g, or fold the stacks into a flame graph.  An event's
 * exec=EXPR (the original's attribute) is evaluated after its line:
 * printf() and system() in it print or run something per event.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/stack_flame.h"
#include "profiler.h"
#include "sym/ksyms.h"
#include "sym/stack.h"

/* exec=EXPR of one event (its evsel's priv) */
struct trace_exec {
	struct expr *e;
};

struct trace {
	struct stack_flame *flame;
	struct ksyms *ksyms; /* only when an exec= calls ksymbol() */
	union evline_sinks u;
	struct rt_sink *lines; /* the event lines, on @out */
	FILE *out;
};

/* exec= of @spec compiled for each of its events (a glob's too) */
static int compile_exec(struct session *s, struct trace *t, const struct ev_spec *spec)
{
	const char *text = evspec__attr(spec, "exec");
	char buf[512];

	if (!*text)
		return session__usage_err(s,
					  "'%s': exec= needs an expression, e.g. "
					  "exec=printf(\"%%d\\n\", pid)",
					  spec->text);
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct trace_exec *x;

		if (ev->spec != spec || ev->priv)
			continue;
		if (!(x = calloc(1, sizeof(*x))))
			return session__set_err(s, -ENOMEM, "out of memory");
		ev->priv = x;
		if (!(x->e = expr__compile(text, ev, buf, sizeof(buf)))) {
			if (errno == ENOMEM)
				return session__set_err(s, -ENOMEM, "out of memory");
			return session__usage_err(s, "bad exec= on %s: %s", ev->name, buf);
		}
		if ((expr__uses(x->e) & EXPR_USES_KSYMS) && !t->ksyms &&
		    ksyms__load(NULL, &t->ksyms))
			t->ksyms = NULL; /* ksymbol() then gives "[unknown]" */
	}
	return 0;
}

/* @ev's exec=, if it has one (only the events of trace's own -e items carry one) */
static struct trace_exec *exec_of(const struct evsel *ev)
{
	return ev->spec && evspec__attr(ev->spec, "exec") ? ev->priv : NULL;
}

static void run_exec(struct session *s, struct trace *t, struct evsel *ev, struct sample *smp)
{
	struct trace_exec *x = exec_of(ev);
	struct expr_ctx ctx = { .smp = smp, .session = s, .ksyms = t->ksyms };
	struct expr_value v;

	if (!x || !x->e)
		return;
	ctx.out = session__out(s);
	expr__eval(x->e, &ctx, &v); /* faults read as 0, counted by the expression */
}

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
		if (evspec__attr(&ev->specs[i], "exec") && compile_exec(s, t, &ev->specs[i]))
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
		run_exec(s, t, ev, smp);
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
	run_exec(s, t, ev, smp);
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
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct trace_exec *x = exec_of(ev);

		if (x) {
			expr__free(x->e);
			free(x);
			ev->priv = NULL;
		}
	}
	ksyms__delete(t->ksyms);
	t->ksyms = NULL;
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
		    "  perf-prof trace -e skb:kfree_skb -g --flame-graph drops.svg -i 60000\n"
		    "  perf-prof trace -e 'sched:sched_stat_runtime//exec=printf(\"%d us\\n\", "
		    "runtime/1000)/'",
	.groups = (const struct opt_group *const[]){ &event_group, &target_group, &run_group,
						     &ring_group, &output_group, &stack_group,
						     &flame_group, &exclude_tp_group, NULL },
	.ev_attrs = (const char *const[]){ "exec", NULL },
	.joint = true,
	.priv_size = sizeof(struct trace),
	.init = trace_init,
	/* an inner profiler's samples are printed like any event's */
	.ops = { .sample = trace_sample, .interval = trace_interval, .inner_sample = trace_sample },
	.deinit = trace_deinit,
};
