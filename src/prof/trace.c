// SPDX-License-Identifier: GPL-2.0
/*
 * trace: print each event as one line, as the kernel formats it, with its
 * stack under -g, or fold the stacks into a flame graph.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/stack_flame.h"
#include "profiler.h"
#include "sym/stack.h"

struct trace {
	struct stack_flame *flame;
};

static int trace_init(struct session *s, void *priv)
{
	const struct env *env = session__env(s);
	struct trace *t = priv;

	if (!env->nr_specs)
		return session__usage_err(s, "no events: give -e sys:name (see: perf-prof list)");
	for (int i = 0; i < env->nr_specs; i++) {
		struct evsel_conf c = { 0 };

		c.callchain = env->cg != CG_NONE && !env->cg_by_attr;
		if (session__add_spec(s, &env->specs[i], &c) < 0)
			return -1;
	}
	return stack_flame__open(s, "Event Flame Graph", "samples", false, &t->flame);
}

/* "TIME COMM TID [CPU] EVENT: " as printf("%s %16s %7u [%03u] %s: ") would, cheaper. */
static void print_head(FILE *out, const char *ts, const char *comm, u32 tid, u32 cpu,
		       const char *name)
{
	char buf[128], num[12];
	size_t n = 0, l = strlen(comm);
	int k = 0;

	memcpy(buf, ts, 26);
	n = 26;
	buf[n++] = ' ';
	if (l > 16)
		l = 16;
	memset(buf + n, ' ', 16 - l);
	memcpy(buf + n + 16 - l, comm, l);
	n += 16;
	buf[n++] = ' ';
	do
		num[k++] = (char)('0' + tid % 10);
	while (tid /= 10);
	for (int pad = 7 - k; pad > 0; pad--)
		buf[n++] = ' ';
	while (k)
		buf[n++] = num[--k];
	buf[n++] = ' ';
	buf[n++] = '[';
	do
		num[k++] = (char)('0' + cpu % 10);
	while (cpu /= 10);
	for (int pad = 3 - k; pad > 0; pad--)
		buf[n++] = '0';
	while (k)
		buf[n++] = num[--k];
	buf[n++] = ']';
	buf[n++] = ' ';
	fwrite_unlocked(buf, 1, n, out);
	fputs_unlocked(name, out);
	fputs_unlocked(": ", out);
}

static void trace_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct stack_ctx *stack = session__stack(s);
	FILE *out = session__out(s);
	struct trace *t = priv;
	char ts[40];

	if (t->flame) {
		stack_flame__add(t->flame, s, smp, session__comm_at(s, smp->tid, smp->time), NULL,
				 1);
		return;
	}
	session__fmt_time(s, smp->time, ts, sizeof(ts));
	print_head(out, ts, session__comm_at(s, smp->tid, smp->time), smp->tid, smp->cpu, ev->name);
	evsel__print_raw(s, ev, smp, out);
	fputc_unlocked('\n', out);
	if (stack && (smp->nr_ips || smp->stack))
		stack__print(stack, smp, out, "    ");
}

static void trace_interval(struct session *s, void *priv)
{
	struct trace *t = priv;

	stack_flame__interval(t->flame, s);
}

static void trace_deinit(struct session *s, void *priv)
{
	struct trace *t = priv;

	stack_flame__close(t->flame, s, "trace");
}

const struct profiler prof_trace = {
	.name = "trace",
	.desc = "print events as they happen, with stacks, or fold them into a flame graph",
	.synopsis = "perf-prof trace -e EVENT[,EVENT...] [-g [--flame-graph NAME]] [-C CPUS|-p "
		    "PID|-t TID|-- CMD]",
	.examples = "perf-prof trace -e sched:sched_wakeup -C 0\n"
		    "  perf-prof trace -e 'sched:sched_switch/prev_state==2/stack/' -N 10\n"
		    "  perf-prof trace -e syscalls:sys_enter_getppid -g -- ./a.out\n"
		    "  perf-prof trace -e skb:kfree_skb -g --flame-graph drops.svg -i 60000",
	.opts = OPT_TARGET | OPT_EVENT | OPT_INTERVAL | OPT_MMAP | OPT_OUTPUT | OPT_COUNT |
		OPT_ORDER | OPT_CALLCHAIN | OPT_FLAME,
	.priv_size = sizeof(struct trace),
	.init = trace_init,
	.ops = { .sample = trace_sample, .interval = trace_interval },
	.deinit = trace_deinit,
};
