// SPDX-License-Identifier: GPL-2.0
/*
 * hrtimer: every period of a high-resolution timer (analysis/hrgroup),
 * the counts of the events in that period; when the expression over them
 * is true ('sched_switch > 10'), one line with the time, the CPU, the task
 * the timer interrupted and the counts, and (-g) the stack of that task
 * where the period ended: the microburst caught in the act.  Without an
 * expression every period prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counting/hrgroup.h"
#include "analysis/cpu/bpf_sfilter.h"
#include "analysis/cpu/prio.h"
#include "engine/bpf.h"
#include "expr/expr.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "sym/stack.h"

struct hrtimer_prof {
	struct hrg_opts o; /* first: -e, --period, -F */
	const char *text;  /* the expression, or NULL */
	struct hrgroup g;
	struct expr *e;
	u64 samples, periods, matched;
	/* a period's record (rows_desc): its columns, room for its values and text line */
	struct rt_col *cols;
	struct rt_val *vals;
	struct rt_desc rows_desc;
	char *line; /* the text after the head */
	size_t line_len;
};

/*
 * A period's record: text, the event line's head "hrtimer: ", "NAME=COUNT"
 * for each member counted, then "(over N periods)", or without members
 * "ip 0x..", and the stack under it; JSON, {"type":"event",...,"event":
 * "hrtimer","counts":{"gp":123},"periods":1,"ip":"0x..","stack":[...]}.
 */
static int rows_desc(struct hrtimer_prof *p)
{
	size_t nc = (size_t)p->g.nr + 5;
	int n = 0;

	if (p->cols)
		return 0;
	p->line_len = 64; /* "(over N periods)", "ip 0x..." */
	for (int i = 0; i < p->g.nr; i++)
		p->line_len += strlen(p->g.m[i].var) + 22; /* " NAME=COUNT" */
	/* one block: the columns, the values, the line */
	p->cols = calloc(1, nc * (sizeof(*p->cols) + sizeof(*p->vals)) + p->line_len);
	if (!p->cols)
		return -ENOMEM;
	p->vals = (struct rt_val *)(p->cols + nc);
	p->line = (char *)(p->vals + nc);
	p->cols[n++] = (struct rt_col){ .type = RT_ROW };
	p->cols[n++] = (struct rt_col){ .type = RT_STR, .flags = RT_NO_JSON };
	for (int i = 0; i < p->g.nr; i++)
		if (!p->g.m[i].skipped)
			p->cols[n++] = (struct rt_col){ .name = p->g.m[i].var,
							.type = RT_U64,
							.unit = RT_UNIT_COUNT,
							.obj = "counts",
							.flags = RT_NO_TEXT };
	p->cols[n++] = (struct rt_col)RT_COL("periods", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT);
	p->cols[n++] = (struct rt_col)RT_COL("ip", NULL, RT_HEX, 0, 0, RT_NO_TEXT);
	p->cols[n++] = (struct rt_col)EVL_STACK_COL;
	p->rows_desc = (struct rt_desc){ .type = "event", .cols = p->cols, .ncols = n };
	return 0;
}

static int ht_args(void *priv, int argc, char **argv, char *err, size_t errlen)
{
	struct hrtimer_prof *p = priv;

	if (argc > 1) {
		snprintf(err, errlen, "one expression, quoted as one argument (e.g. 'cs > 10')");
		return -1;
	}
	p->text = argc ? argv[0] : NULL;
	return 0;
}

static void ht_period(struct session *s, void *priv, const struct hrg_period *period,
		      const struct sample *smp);

static int ht_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	struct hrtimer_prof *p = priv;
	char buf[512];
	int err;

	/* no --period: every second (-i MS: every MS) */
	err = hrgroup__setup(&p->g, s, &p->o, ex,
			     (session__interval_ms(s) ? session__interval_ms(s) : 1000) *
				     1000000ULL);
	if (err)
		return err;
	/* the sample filters: a period the filter drops is not closed (the next sample closes it) */
	err = sfilter__attach(s, opts, p->g.leader, false);
	if (err < 0)
		return err;
	if (p->text) {
		p->e = hrgroup__compile(&p->g, p->text, buf, sizeof(buf));
		if (!p->e)
			return errno == ENOMEM ? session__set_err(s, -ENOMEM, "out of memory")
					       : session__usage_err(s, "%s", buf);
	}
	return hrgroup__report_to(&p->g, s, ht_period, p);
}

/* The periods a leader sample closes: one line when the expression holds. */
static void ht_period(struct session *s, void *priv, const struct hrg_period *period,
		      const struct sample *smp)
{
	struct hrtimer_prof *p = priv;
	struct hrg_period per = *period;
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	size_t len = 0;
	int n = 0;

	p->samples++;
	p->periods += per.periods;
	if (p->e && !hrgroup__match(&p->g, p->e, &per, smp))
		return;
	p->matched++;
	if (rows_desc(p)) {
		session__set_err(s, -ENOMEM, "out of memory");
		session__stop(s);
		return;
	}
	evline__row(v, &stk, s, NULL, smp, NULL, "hrtimer");
	p->vals[n++] = (struct rt_val){ .row = { &evline_head, v } };
	p->vals[n++] = (struct rt_val){ .s = p->line };
	p->line[0] = 0;
	for (int i = 0; i < p->g.nr; i++) {
		if (p->g.m[i].skipped)
			continue;
		p->vals[n++] = (struct rt_val){ .u = per.count[i] };
		len += snprintf(p->line + len, p->line_len - len, "%s%s=%" PRIu64, len ? " " : "",
				p->g.m[i].var, per.count[i]);
	}
	if (per.periods > 1)
		snprintf(p->line + len, p->line_len - len, "%s(over %" PRIu64 " periods)",
			 p->g.nr_read > 1 ? " " : "", per.periods);
	else if (p->g.nr_read <= 1)
		snprintf(p->line + len, p->line_len - len, "ip 0x%" PRIx64, smp->ip);
	p->vals[n++] = (struct rt_val){ .u = per.periods };
	p->vals[n++] = (struct rt_val){ .u = smp->ip };
	p->vals[n++] = v[EVL_STACK];
	evline__emit(s, session__out(s), &p->rows_desc, p->vals);
}

/* The run's summary: text, a sentence (and a warning); JSON, {"type":"summary",...}. */
static const struct rt_col sum_cols[] = {
	RT_COL(NULL, NULL, RT_STR, 0, 0, RT_NO_JSON),
	RT_COL("samples", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("periods", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("printed", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("expr", NULL, RT_STR, 0, 0, RT_NO_TEXT),
	RT_COL("not_group_read", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
};
static const struct rt_desc sum_desc = { .type = "summary", .cols = sum_cols, .ncols = 6 };

static void ht_deinit(struct session *s, void *priv)
{
	struct hrtimer_prof *p = priv;
	FILE *out = session__out(s);
	char bad[96] = "", *text = NULL;
	struct expr_faults f;

	if (session__started(s) && p->g.leader) {
		if (p->g.nr_bad)
			snprintf(bad, sizeof(bad),
				 "\nwarning: %" PRIu64 " samples not read as the group",
				 p->g.nr_bad);
		if (asprintf(&text,
			     "hrtimer: %" PRIu64 " samples closed %" PRIu64 " periods, %" PRIu64
			     " printed%s%s%s%s",
			     p->samples, p->periods, p->matched, p->text ? " ('" : "",
			     p->text ? p->text : "", p->text ? "' was true)" : "", bad) < 0)
			text = NULL;
		evline__emit(s, out, &sum_desc,
			     (struct rt_val[]){ { .s = text },
						{ .u = p->samples },
						{ .u = p->periods },
						{ .u = p->matched },
						{ .s = p->text },
						{ .u = p->g.nr_bad } });
		free(text);
		if (!session__json(s)) /* --json: the CLI writes the lost record */
			session__print_lost(s, out);
		fflush(out);
		if (p->e)
			expr__faults(p->e, &f);
		if (p->e && f.div_zero)
			session__warn(s, "%s: %" PRIu64 " divisions by zero (each gave 0)", p->text,
				      f.div_zero);
	}
	expr__free(p->e);
	p->e = NULL;
	free(p->cols); /* (and the values and the line) */
	p->cols = NULL;
	hrgroup__free(&p->g);
}

static const struct popt ht_opts[] = {
	HRG_POPTS(struct hrtimer_prof, o,
		  "events counted each period, as for stat (cs, sys:name, PMU/TERMS/), or "
		  "sys:name/FILTER/alias=NAME/",
		  "the timer's period (10us..60s; 10ms, 500us; a bare number is ms; default 1s, or "
		  "-i)",
		  "or HZ periods a second"),
	{ 0 },
};

const struct profiler prof_hrtimer = {
	.name = "hrtimer",
	.needs = (const char *const[]){ NULL },
	.desc = "counts of events per high-resolution timer period; print (with -g, the stack) "
		"when an expression over them is true",
	.synopsis = "perf-prof hrtimer [-e EVENT,...] [--period TIME|-F HZ] [-g] ['EXPR'] [-C "
		    "CPUS|-p PID|-t TID|-- command]",
	.examples =
		"perf-prof hrtimer -e syscalls:sys_enter_getppid -C 1 --period 10ms "
		"'sys_enter_getppid > 100'\n"
		"  perf-prof hrtimer -e cs,sched:sched_wakeup -F 1000 -g 'context_switches > 20 "
		"&& sched_wakeup > 10'\n"
		"  perf-prof hrtimer -e 'sched:sched_switch//alias=sw/' --period 50ms -C 0 'sw == "
		"0'   # a CPU that never switched\n"
		"Names in EXPR: an event's alias=, a tracepoint's name without its system, another "
		"event's\n"
		"name with '-' and ':' made '_' (context_switches); _periods: the periods covered.",
	.groups =
		(const struct opt_group *const[]){ &target_group, &run_group, &ring_group,
						   &output_group, &stack_group, &exclude_group,
						   &prio_group, &sfilter_group, &bpf_group, NULL },
	.own = ht_opts,
	.priv_size = sizeof(struct hrtimer_prof),
	.args = ht_args,
	.init = ht_init,
	.deinit = ht_deinit,
};
