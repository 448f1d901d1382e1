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

/*
 * The event as trace prints it, then the value: text " = VALUE" (a number
 * in decimal and hex, a string quoted, what would break the line escaped);
 * --json "value": a string, a signed or an unsigned number.
 */
static const struct rt_col expr_cols[] = {
	{ .type = RT_ROW },
	{ .name = "fields", .type = RT_FIELDS },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	{ .name = "value", .type = RT_STR, .flags = RT_OMIT_EMPTY | RT_NO_TEXT },
	{ .name = "value", .type = RT_S64, .flags = RT_OMIT_EMPTY | RT_NO_TEXT },
	{ .name = "value", .type = RT_U64, .flags = RT_OMIT_EMPTY | RT_NO_TEXT },
	EVL_STACK_COL,
};
static const struct rt_desc expr_desc = { .type = "event", .cols = expr_cols, .ncols = 7 };

static void expr_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct expr_prof *x = priv;
	struct expr_event *e = of(x, ev);
	struct expr_ctx ctx = { .smp = smp, .session = s, .ksyms = x->ksyms };
	struct rt_val ev_v[EVL_NCOLS], v[7] = { [4] = { .null = true }, [5] = { .null = true } };
	struct rt_stack stk;
	struct expr_value r;
	char buf[256], *str = buf, *txt = buf + 128;
	int n = 0;

	if (!e)
		return;
	ctx.out = session__out(s); /* printf()'s */
	/* first: what printf() and system() print comes before the event's line */
	expr__eval(e->e, &ctx, &r); /* faults read as 0, counted */
	evline__row(ev_v, &stk, s, ev, smp, NULL, NULL);
	v[0].row.d = &evline_head;
	v[0].row.v = ev_v;
	v[1] = ev_v[EVL_FIELDS];
	v[6] = ev_v[EVL_STACK];
	v[2].s = txt;
	if (r.kind == EXPR_STR) {
		while (r.str && n < r.len && r.str[n]) /* up to a NUL */
			n++;
		/* the string, then its text: up to 4 bytes a character */
		if ((size_t)n * 5 + 8 > sizeof(buf) && !(str = malloc((size_t)n * 5 + 8)))
			str = buf, n = (int)(sizeof(buf) - 8) / 5;
		memcpy(str, r.str ? r.str : "", (size_t)n);
		str[n] = 0;
		v[3].s = str;
		v[2].s = txt = str + n + 1;
		txt += sprintf(txt, " = \"");
		for (int i = 0; i < n; i++) {
			unsigned char c = (unsigned char)str[i];

			if (c == '"' || c == '\\')
				txt += sprintf(txt, "\\%c", c);
			else if (c < 0x20 || c == 0x7f)
				txt += sprintf(txt, "\\x%02x", c);
			else
				*txt++ = (char)c;
		}
		strcpy(txt, "\"");
	} else if (r.is_signed) {
		v[4] = (struct rt_val){ .i = (int64_t)r.u };
		snprintf(txt, 128, " = %" PRId64 " (0x%" PRIx64 ")", (int64_t)r.u, r.u);
	} else {
		v[5] = (struct rt_val){ .u = r.u };
		snprintf(txt, 128, " = %" PRIu64 " (0x%" PRIx64 ")", r.u, r.u);
	}
	evline__emit(s, session__out(s), &expr_desc, v);
	if (str != buf)
		free(str);
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
