// SPDX-License-Identifier: GPL-2.0
/*
 * expr: try an expression before using it in another profiler.  Each
 * event prints as trace prints it, followed by "= VALUE": a number in
 * decimal (signed when it is) and hex, or a string in quotes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "sym/ksyms.h"
#include "sym/stack.h"

/* Per event (evsel->priv). */
struct expr_event {
	struct expr_prof *owner;
	struct expr *e;
};

struct expr_prof {
	const char *text; /* the positional EXPR */
	struct ksyms *ksyms;
};

static struct expr_event *of(struct expr_prof *x, struct evsel *ev)
{
	struct expr_event *e = ev->priv;

	return e && e->owner == x ? e : NULL;
}

static int expr_args(void *priv, int argc, char **argv, char *err, size_t errlen)
{
	struct expr_prof *x = priv;

	if (argc != 1) {
		snprintf(err, errlen,
			 "%s (e.g. perf-prof expr -e sched:sched_wakeup 'pid * 2 + prio')",
			 argc ? "one expression, quoted as one argument" : "no expression");
		return -1;
	}
	x->text = argv[0];
	return 0;
}

static int expr_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *eo = session__conf(s)->events;
	struct expr_prof *x = priv;
	char buf[512];

	(void)opts;
	if (!eo->nr_specs)
		return session__usage_err(s, "no events: give -e sys:name (see: perf-prof list)");
	for (int i = 0; i < eo->nr_specs; i++) {
		struct evsel_conf c = { .callchain = session__stacks_for_all(s) };

		if (session__add_spec(s, &eo->specs[i], &c) < 0)
			return -EINVAL;
	}
	if (!strcmp(x->text, "help")) {
		/* what the expression can use, then a run that stops at once: status 0 */
		for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
			expr__help(ev, session__out(s));
		fflush(session__out(s));
		session__stop(s);
		return 0;
	}
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct expr_event *e = calloc(1, sizeof(*e));

		if (!e)
			return session__set_err(s, -ENOMEM, "out of memory");
		e->owner = x;
		ev->priv = e;
		e->e = expr__compile(x->text, ev, buf, sizeof(buf));
		if (!e->e) {
			if (errno == ENOMEM)
				return session__set_err(s, -ENOMEM, "out of memory");
			return session__usage_err(s, "on %s: %s", ev->name, buf);
		}
		if ((expr__uses(e->e) & EXPR_USES_KSYMS) && !x->ksyms &&
		    ksyms__load(NULL, &x->ksyms))
			x->ksyms = NULL; /* ksymbol() then gives "[unknown]" */
	}
	return 0;
}

/* A string value, quoted, with what would break the line escaped. */
static void print_str(FILE *out, const char *str, int len)
{
	fputs(" = \"", out);
	for (int i = 0; i < len && str[i]; i++) {
		unsigned char c = (unsigned char)str[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputs("\"\n", out);
}

/*
 * --json: the event as trace --json has it, with "value": a string, a
 * signed or an unsigned number (one of the three columns has a value).
 */
static const struct rt_col expr_cols[] = {
	{ .type = RT_ROW },
	{ .name = "fields", .type = RT_FIELDS },
	{ .name = "value", .type = RT_STR, .flags = RT_OMIT_EMPTY },
	{ .name = "value", .type = RT_S64, .flags = RT_OMIT_EMPTY },
	{ .name = "value", .type = RT_U64, .flags = RT_OMIT_EMPTY },
	EVL_STACK_COL,
};
static const struct rt_desc expr_desc = { .type = "event", .cols = expr_cols, .ncols = 6 };

static void expr_record(struct session *s, struct expr_event *e, struct evsel *ev,
			const struct sample *smp, struct expr_ctx *ctx, FILE *out)
{
	struct rt_val ev_v[EVL_NCOLS], v[6] = { [3] = { .null = true }, [4] = { .null = true } };
	struct rt_stack stk;
	struct expr_value x;
	struct rt_json k;
	char buf[256], *str = buf;

	expr__eval(e->e, ctx, &x); /* faults read as 0, counted */
	evline__row(ev_v, &stk, s, ev, smp, NULL, NULL);
	v[0].row.d = &evline_head;
	v[0].row.v = ev_v;
	v[1] = ev_v[EVL_FIELDS];
	v[5] = ev_v[EVL_STACK];
	if (x.kind == EXPR_STR) {
		int n = 0;

		while (x.str && n < x.len && x.str[n]) /* as the text: up to a NUL */
			n++;
		if ((size_t)n >= sizeof(buf) && !(str = malloc((size_t)n + 1)))
			str = buf, n = sizeof(buf) - 1;
		memcpy(str, x.str ? x.str : "", (size_t)n);
		str[n] = 0;
		v[2].s = str;
	} else if (x.is_signed) {
		v[3] = (struct rt_val){ .i = (int64_t)x.u };
	} else {
		v[4] = (struct rt_val){ .u = x.u };
	}
	rtable__begin(rt_json__init(&k, out, NULL), &expr_desc);
	rtable__row(&k.sink, v);
	rtable__end(&k.sink);
	if (str != buf)
		free(str);
}

static void expr_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct expr_prof *x = priv;
	struct expr_event *e = of(x, ev);
	struct expr_ctx ctx = { .smp = smp, .session = s, .ksyms = x->ksyms };
	struct stack_ctx *stack = session__stack(s);
	FILE *out = session__out(s);
	struct expr_value v;
	char ts[40];

	if (!e)
		return;
	ctx.out = out; /* printf()'s */
	if (session__json(s)) {
		expr_record(s, e, ev, smp, &ctx, out);
		return;
	}
	/* first: what printf() and system() print comes before the event's line */
	expr__eval(e->e, &ctx, &v); /* faults read as 0, counted */
	session__fmt_time(s, smp->time, ts, sizeof(ts));
	evline__head(out, ts, session__comm_at(s, smp->tid, smp->time), smp->tid, smp->cpu,
		     ev->name);
	evsel__print_raw(s, ev, smp, out);
	if (v.kind == EXPR_STR)
		print_str(out, v.str, v.len);
	else if (v.is_signed)
		fprintf(out, " = %" PRId64 " (0x%" PRIx64 ")\n", (int64_t)v.u, v.u);
	else
		fprintf(out, " = %" PRIu64 " (0x%" PRIx64 ")\n", v.u, v.u);
	if (stack && (smp->nr_ips || smp->stack))
		stack__print(stack, smp, out, "    ");
}

static void expr_deinit(struct session *s, void *priv)
{
	struct expr_prof *x = priv;

	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct expr_event *e = of(x, ev);
		struct expr_faults f;

		if (!e)
			continue;
		if (e->e && session__started(s)) {
			expr__faults(e->e, &f);
			if (f.bad_reads || f.div_zero)
				session__warn(s,
					      "%s on %s: %" PRIu64
					      " reads outside the event, %" PRIu64
					      " divisions by zero (each read as 0)",
					      x->text, ev->name, f.bad_reads, f.div_zero);
		}
		expr__free(e->e);
		free(e);
		ev->priv = NULL;
	}
	ksyms__delete(x->ksyms);
	x->ksyms = NULL;
}

const struct profiler prof_expr = {
	.name = "expr",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "print each event with the value of an expression over its fields (try one out)",
	.synopsis = "perf-prof expr -e EVENT[,EVENT...] 'EXPR' [-N COUNT] [-C CPUS|-p PID|-t "
		    "TID|-- CMD]",
	.examples = "perf-prof expr -e sched:sched_wakeup 'pid * 2 + prio' -N 5\n"
		    "  perf-prof expr -e raw_syscalls:sys_enter 'syscall_name(id)' -N 10\n"
		    "  perf-prof expr -e sched:sched_switch 'prev_comm ~ \"kworker*\" ? prev_pid : "
		    "-1' -N 10\n"
		    "  perf-prof expr -e irq:softirq_entry '(u8)vec << 4' -C 0\n"
		    "Each event prints as trace prints it, then ' = VALUE': a number in decimal "
		    "and hex,\n"
		    "or a string in quotes.  The language: README, 'Expressions'.",
	.groups = (const struct opt_group *const[]){ &event_group, &target_group, &run_group,
						     &ring_group, &output_group, &stack_group,
						     &exclude_tp_group, NULL },
	.priv_size = sizeof(struct expr_prof),
	.args = expr_args,
	.init = expr_init,
	.ops = { .sample = expr_sample },
	.deinit = expr_deinit,
};
