// SPDX-License-Identifier: GPL-2.0
/*
 * nested-trace: entry/exit pairs that nest per key.  Each -e is one
 * function, 'ENTRY,EXIT' (-e A,A_ret -e B,B_ret); calls nest on a stack per
 * key (-k EXPR, else the thread under -p/-t/--, else the CPU), and each
 * call's latency goes to its path in a call tree (analysis/latency/calltree.h),
 * printed as a table, children indented under their callers.  --returns
 * prints each call as it returns, indented by depth, as ftrace's
 * function_graph does; --than prints the two events of each slower call.
 * --impl call prints only the returns, call-delay both (as --returns);
 * --perins a tree per key; --heatmap NAME-FUNC.lat/.svg per function;
 * --detail (with --than) every event between a slow call's two ends.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <limits.h>

#include "analysis/latency/calltree.h"
#include "analysis/latency/detail.h"
#include "expr/expr.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/heatmap.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "sym/ksyms.h"
#include "sym/stack.h"
#include "util/ofile.h"
#include "util/units.h"

struct nested_trace;

/* Per event (its handler's). */
struct nt_event {
	struct nested_trace *nt;
	struct nt_event *next; /* nested_trace.evs */
	int func;
	bool entry;
	struct expr *key; /* -k */
};

enum { IMPL_DELAY, IMPL_CALL, IMPL_CALL_DELAY };

struct nested_trace {
	unsigned long long than;
	bool returns;
	int impl;	     /* --impl */
	bool perins;	     /* --perins */
	const char *heatmap; /* --heatmap NAME */
	bool want_detail;    /* --detail[=OPTS] */
	struct detail_opts dopts;
	struct detail *detail;
	struct heatmap *heat[CALLTREE_MAX_FUNCS];
	int heat_err[CALLTREE_MAX_FUNCS];
	const char *key_text;
	bool by_cpu;
	int nr_funcs;
	char names[CALLTREE_MAX_FUNCS][48];
	struct calltree *tree;
	struct ksyms *ksyms;
	struct nt_event *evs; /* every event's, to free */
	struct evsel *entry_ev[CALLTREE_MAX_FUNCS];
	bool json; /* --json */
	u64 since; /* --json: where the next table's span begins */
};

static void copy_free(void *data)
{
	sample_copy__free(data);
	free(data);
}

/* A function's name: the alias, or the entry event's name without "_entry". */
static void name_func(struct nested_trace *nt, int f, const struct ev_spec *entry)
{
	const char *n = entry->alias ? entry->alias : entry->name;
	size_t l = strlen(n);

	if (!entry->alias && l > 6 && !strcmp(n + l - 6, "_entry"))
		l -= 6;
	snprintf(nt->names[f], sizeof(nt->names[f]), "%.*s", (int)l, n);
}

static void nt_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int nt_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *eo = session__conf(s)->events;
	const struct target_opts *t = session__conf(s)->target;
	const struct key_opts *ko = opt_set__get(opts, &key_group);
	struct nested_trace *nt = priv;
	const char *names[CALLTREE_MAX_FUNCS + 1] = { NULL };
	char err[512];

	nt->key_text = ko ? ko->expr : NULL;
	nt->json = session__json(s);
	nt->nr_funcs = eo->nr_texts;
	if (nt->nr_funcs > CALLTREE_MAX_FUNCS)
		return session__usage_err(s, "%d functions: at most %d", nt->nr_funcs,
					  CALLTREE_MAX_FUNCS);
	for (int f = 0; f < nt->nr_funcs; f++) {
		const struct ev_spec *sp[2] = { NULL, NULL };
		int n = 0;

		for (int i = 0; i < eo->nr_specs; i++)
			if (eo->specs[i].pos == f && n++ < 2)
				sp[n - 1] = &eo->specs[i];
		if (n != 2)
			return session__usage_err(
				s,
				"-e '%s': give a function as ENTRY,EXIT (two events, "
				"-e A,A_ret -e B,B_ret)",
				eo->texts[f]);
		name_func(nt, f, sp[0]);
		names[f] = nt->names[f];
	}
	if (!nt->nr_funcs)
		return session__usage_err(s,
					  "give the functions: -e ENTRY,EXIT [-e ENTRY,EXIT ...]");
	if (nt->want_detail && !nt->than)
		return session__usage_err(s, "--detail needs --than TIME (the calls to detail)");
	if (nt->impl == IMPL_CALL && nt->perins)
		return session__usage_err(s, "--perins is the table's: not with --impl call");
	nt->by_cpu = !nt->key_text && !t->nr_pids && !t->nr_tids && !t->argv;
	if (!nt->by_cpu || nt->want_detail)
		session__want_order(s); /* a thread's calls may return on another CPU */
	nt->tree = calltree__new(names, copy_free);
	if (!nt->tree)
		return session__set_err(s, -ENOMEM, "out of memory");
	if (nt->perins)
		calltree__set_perins(nt->tree, nt->key_text ? nt->key_text
					       : nt->by_cpu ? "CPU"
							    : "THREAD");
	if (nt->want_detail && !(nt->detail = detail__new(&nt->dopts)))
		return session__set_err(s, -ENOMEM, "out of memory");
	if (calltree__add_hooks(nt->tree, s, !nt->by_cpu && !nt->key_text))
		return -ENOMEM;
	for (int i = 0; i < eo->nr_specs; i++) {
		struct evsel_conf c = { .callchain = session__stacks_for_all(s) };
		int before = 0, after = 0;

		for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
			before++;
		if (session__add_spec(s, &eo->specs[i], &c) < 0)
			return -EINVAL;
		for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
			after++;
		if (after - before != 1)
			return session__usage_err(s,
						  "'%s' is %s: each end of a function is one event",
						  eo->specs[i].text,
						  after == before ? "an event of an earlier item"
								  : "several events (a glob)");
	}
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct nt_event *e;
		int first = -1;

		/* its own events only (joint analysis: others' are in the session too) */
		if (ev->spec < eo->specs || ev->spec >= eo->specs + eo->nr_specs)
			continue;
		e = calloc(1, sizeof(*e));
		if (!e)
			return session__set_err(s, -ENOMEM, "out of memory");
		e->nt = nt;
		e->next = nt->evs;
		nt->evs = e;
		evsel__set_handler(ev, nt_sample, e);
		e->func = ev->spec->pos;
		for (int i = 0; i < eo->nr_specs && first < 0; i++)
			if (eo->specs[i].pos == e->func)
				first = i;
		e->entry = ev->spec == &eo->specs[first];
		if (e->entry)
			nt->entry_ev[e->func] = ev;
		if (nt->key_text) {
			e->key = expr__compile(nt->key_text, ev, err, sizeof(err));
			if (!e->key)
				return errno == ENOMEM
					       ? session__set_err(s, -ENOMEM, "out of memory")
					       : session__usage_err(s, "bad -k on %s: %s", ev->name,
								    err);
			if (expr__is_string(e->key))
				return session__usage_err(s, "-k %s is a string: give a number",
							  nt->key_text);
			if ((expr__uses(e->key) & EXPR_USES_KSYMS) && !nt->ksyms &&
			    ksyms__load(NULL, &nt->ksyms))
				nt->ksyms = NULL;
		}
	}
	return 0;
}

static u64 key_of(struct session *s, struct nested_trace *nt, struct nt_event *e,
		  struct sample *smp)
{
	struct expr_ctx ctx = { .smp = smp, .session = s, .ksyms = nt->ksyms };
	struct expr_value v;

	if (e->key) {
		expr__eval(e->key, &ctx, &v);
		return v.u;
	}
	return nt->by_cpu ? smp->cpu : smp->tid;
}

/*
 * The records of single calls.  A return (--returns), as function_graph
 * prints it, "TIME [CPU] KEY | <indent>NAME  DURATION"; JSON {"type":
 * "return","time_ns","cpu","key","func","depth","duration_ns"}.  The text
 * cells JSON does not have ("TIME [CPU]", the name indented by depth after
 * the bar) are RT_NO_JSON columns, the members text does not show
 * RT_NO_TEXT ones.
 */
enum { R_HEAD, R_TIME, R_CPU, R_KEY, R_CALL, R_FUNC, R_DEPTH, R_DUR, R_N };
static const struct rt_col ret_cols[R_N] = {
	[R_HEAD] = RT_COL(NULL, "TIME [CPU]", RT_STR, RT_UNIT_NONE, 0, RT_LEFT | RT_NO_JSON),
	[R_TIME] = RT_COL("time_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	[R_CPU] = RT_COL("cpu", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[R_KEY] = RT_COL("key", "KEY", RT_U64, RT_UNIT_NONE, 7, 0),
	[R_CALL] = RT_COL(NULL, "| CALL", RT_STR, RT_UNIT_NONE, 0, RT_LEFT | RT_NO_JSON),
	[R_FUNC] = RT_COL("func", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[R_DEPTH] = RT_COL("depth", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[R_DUR] = RT_COL("duration_ns", "DURATION", RT_NS, RT_UNIT_NS, 0, RT_GAP),
};
static const struct rt_desc ret_desc = { .type = "return", .cols = ret_cols, .ncols = R_N };

/*
 * A slower call (--than), "NAME: DURATION key KEY depth DEPTH" and its two
 * events' lines under it; JSON {"type":"slow","time_ns","func","key",
 * "depth","duration_ns","start":{event},"end":{event}}, the events as
 * trace's records without their type (evline_desc).
 */
enum { S_TEXT, S_TIME, S_FUNC, S_KEY, S_DEPTH, S_DUR, S_START, S_END, S_N };
static const struct rt_col slow_cols[S_N] = {
	[S_TEXT] = RT_COL(NULL, "CALL", RT_STR, RT_UNIT_NONE, 0, RT_LEFT | RT_NO_JSON),
	[S_TIME] = RT_COL("time_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	[S_FUNC] = RT_COL("func", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[S_KEY] = RT_COL("key", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[S_DEPTH] = RT_COL("depth", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[S_DUR] = RT_COL("duration_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
	[S_START] = RT_COL("start", NULL, RT_ROW, RT_UNIT_NONE, 0, RT_OMIT_EMPTY),
	[S_END] = RT_COL("end", NULL, RT_ROW, RT_UNIT_NONE, 0, 0),
};
static const struct rt_desc slow_desc = { .type = "slow", .cols = slow_cols, .ncols = S_N };

/* @d's one row @v to the output: a JSON line, or a text line without a header */
static void emit_one(struct session *s, struct nested_trace *nt, const struct rt_desc *d,
		     const struct rt_val *v)
{
	union rt_sinks u;

	if (nt->json) {
		rtable__one(rt_json__init(&u.json, session__out(s), NULL), d, v);
		return;
	}
	rt_text__init(&u.text, session__out(s));
	u.text.no_header = true;
	rtable__one(&u.text.sink, d, v);
}

static void print_return(struct session *s, struct nested_trace *nt, const struct sample *smp,
			 u64 key, const struct calltree_ret *r)
{
	char ts[40], head[64], call[2 * CALLTREE_DEPTH + 64];
	struct rt_val v[R_N] = {
		[R_HEAD] = { .s = head },
		[R_TIME] = { .u = session__wall_ns(s, smp->time) },
		[R_CPU] = { .u = smp->cpu },
		[R_KEY] = { .u = key },
		[R_CALL] = { .s = call },
		[R_FUNC] = { .s = nt->names[r->func] },
		[R_DEPTH] = { .u = (u64)r->depth },
		[R_DUR] = { .u = r->delta },
	};

	if (!nt->json) {
		session__fmt_time(s, smp->time, ts, sizeof(ts));
		snprintf(head, sizeof(head), "%s [%03u]", ts, smp->cpu);
		snprintf(call, sizeof(call), "| %*s%s", 2 * r->depth, "", nt->names[r->func]);
	}
	emit_one(s, nt, &ret_desc, v);
}

/*
 * --detail: the call's timeline (detail.h) under its line; JSON: the slow
 * record's members without its two events, then the timeline.
 */
static void print_detail(struct session *s, struct nested_trace *nt, const struct sample *entry,
			 const struct sample *smp, u64 key, const struct calltree_ret *r,
			 const struct rt_val *v, const char *text)
{
	struct detail_pair dp = {
		.start = r->start,
		.end = r->start + r->delta,
		.key = key,
		.cpu = { entry ? entry->cpu : smp->cpu, smp->cpu },
		.pid = { entry ? entry->pid : smp->pid, smp->pid },
		.tid = { entry ? entry->tid : smp->tid, smp->tid },
		.has_end_event = true,
	};
	char *frag = NULL;

	if (nt->json) {
		struct rt_desc d = slow_desc;

		d.ncols -= 2; /* start, end: in the timeline */
		if (!(frag = rt_json__frag(&d, v))) {
			session__warn(s, "out of memory, a slow call was not printed");
			return;
		}
	}
	if (detail__pair(nt->detail, s, &dp, frag ? frag : text))
		session__warn(s, "out of memory, a slow call's timeline is not whole");
	free(frag);
}

/* --detail: every event into the window, the window trimmed to the oldest open call. */
static void see(struct session *s, struct nested_trace *nt, struct evsel *ev,
		const struct sample *smp, u64 key)
{
	struct detail *d = nt->detail;

	if (detail__add(d, ev, smp, key, true) || detail__flush(d, s, false))
		session__warn(s, "out of memory, --detail misses events");
	if (detail__trim_due(d)) {
		u64 horizon = calltree__oldest_open(nt->tree, smp->time), need;

		horizon = horizon > nt->dopts.before ? horizon - nt->dopts.before : 0;
		need = detail__oldest_needed(d);
		detail__trim(d, need < horizon ? need : horizon);
	}
}

/* --heatmap: the call into its function's .lat, opened at its first call. */
static void heat_add(struct session *s, struct nested_trace *nt, const struct calltree_ret *r)
{
	int *err = &nt->heat_err[r->func];

	if (*err)
		return;
	if (!nt->heat[r->func]) {
		char lat[PATH_MAX];

		snprintf(lat, sizeof(lat), "%s-%s.lat", nt->heatmap, nt->names[r->func]);
		if (!(nt->heat[r->func] = heatmap__open(lat)))
			*err = -errno;
	}
	if (!*err)
		*err = heatmap__add(nt->heat[r->func], r->start, r->delta);
	if (*err)
		session__output_err(
			s, "writing the heat map %s-%s.lat: %s (no more calls written to it)",
			nt->heatmap, nt->names[r->func], ofile__strerror(-*err));
}

static void heat_close(struct session *s, struct nested_trace *nt)
{
	for (int f = 0; f < nt->nr_funcs; f++) {
		char svg[PATH_MAX], title[128];
		int err;

		if (!nt->heat[f])
			continue;
		snprintf(svg, sizeof(svg), "%s-%s.svg", nt->heatmap, nt->names[f]);
		snprintf(title, sizeof(title), "nested-trace: %s latency", nt->names[f]);
		/* a .lat cut short by an error (said then): no SVG of it */
		err = heatmap__close(nt->heat[f],
				     nt->heat_err[f] || !session__started(s) ? NULL : svg, title);
		nt->heat[f] = NULL;
		if (err && err != -ENODATA && !nt->heat_err[f])
			session__output_err(s, "writing the heat map %s-%s (.lat, .svg): %s",
					    nt->heatmap, nt->names[f], ofile__strerror(-err));
	}
}

/* --than: the call and its entry's event (if kept) and exit's. */
static void print_slow(struct session *s, struct nested_trace *nt, struct evsel *ev,
		       const struct sample *smp, u64 key, const struct calltree_ret *r)
{
	const struct sample *entry = r->data ? &((struct sample_copy *)r->data)->smp : NULL;
	struct evsel *entry_ev = nt->entry_ev[r->func];
	struct rt_val start[EVL_NCOLS], end[EVL_NCOLS];
	struct rt_stack start_stk, end_stk;
	char text[128], dur[32];
	struct rt_val v[S_N] = {
		[S_TEXT] = { .s = text },
		[S_TIME] = { .u = session__wall_ns(s, smp->time) },
		[S_FUNC] = { .s = nt->names[r->func] },
		[S_KEY] = { .u = key },
		[S_DEPTH] = { .u = (u64)r->depth },
		[S_DUR] = { .u = r->delta },
		[S_START] = { .row = { &evline_desc, entry ? start : NULL } },
		[S_END] = { .row = { &evline_desc, end } },
	};

	snprintf(text, sizeof(text), "%s: %s key %llu depth %d", nt->names[r->func],
		 units__fmt_ns(r->delta, dur, sizeof(dur)), (unsigned long long)key, r->depth);
	if (nt->detail) {
		print_detail(s, nt, entry, smp, key, r, v, text);
		return;
	}
	if (entry)
		evline__row(start, &start_stk, s, entry_ev, entry, NULL, NULL);
	evline__row(end, &end_stk, s, ev, smp, NULL, NULL);
	emit_one(s, nt, &slow_desc, v);
	if (nt->json)
		return;
	if (entry)
		evline__print(s, entry_ev, entry, session__out(s), NULL);
	evline__print(s, ev, smp, session__out(s), NULL);
}

/* The handler of an entry or exit event (@priv its nt_event). */
static void nt_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct nt_event *e = priv;
	struct nested_trace *nt = e->nt;
	struct calltree_ret r;
	u64 key = key_of(s, nt, e, smp);

	if (nt->detail)
		see(s, nt, ev, smp, key);
	if (e->entry) {
		struct sample_copy *c;
		void **data;

		/*
		 * The events are enabled one after the other: an entry seen
		 * before its exit event was on would stay open under every
		 * later call of its key.
		 */
		if (smp->time < session__all_enabled_time(s))
			return;
		data = calltree__entry(nt->tree, key, e->func, smp->time);
		if (data && nt->than && (c = calloc(1, sizeof(*c)))) {
			if (sample_copy__save(c, smp, true))
				copy_free(c);
			else
				*data = c;
		}
		return;
	}
	if (!calltree__exit(nt->tree, key, e->func, smp->time, &r))
		return;
	if (nt->returns || nt->impl != IMPL_DELAY)
		print_return(s, nt, smp, key, &r);
	if (nt->heatmap)
		heat_add(s, nt, &r);
	if (nt->than && r.delta > nt->than)
		print_slow(s, nt, ev, smp, key, &r);
	if (r.data)
		copy_free(r.data);
}

/* The table and the drops; text: after the time, except at the end of the run. */
static void print_all(struct session *s, struct nested_trace *nt, int when)
{
	struct stats_stamp st;
	union rt_sinks u;
	struct rt_sink *k = stats_stamp__sink(s, &u, &st, &nt->since, when);

	if (nt->impl != IMPL_CALL)
		calltree__emit(nt->tree, k);
	calltree__emit_drops(nt->tree, k, "nested-trace", when == STATS_END);
	if (nt->json && calltree__failed_alloc(nt->tree))
		session__warn(s, "out of memory, some calls were not counted");
	fflush(session__out(s));
}

static void nt_interval(struct session *s, void *priv)
{
	struct nested_trace *nt = priv;

	print_all(s, nt, STATS_INTERVAL);
	calltree__reset(nt->tree);
}

static void nt_snapshot(struct session *s, void *priv)
{
	print_all(s, priv, STATS_SO_FAR);
}

static void nt_deinit(struct session *s, void *priv)
{
	struct nested_trace *nt = priv;

	if (nt->detail && session__started(s))
		detail__flush(nt->detail, s, true);
	if (nt->tree && session__started(s))
		print_all(s, nt, STATS_END);
	if (nt->detail && session__started(s)) {
		union rt_sinks u;
		struct stats_stamp st;

		detail__emit_drops(nt->detail, stats_stamp__sink(s, &u, &st, &nt->since, STATS_END),
				   "nested-trace");
	}
	heat_close(s, nt);
	detail__delete(nt->detail);
	nt->detail = NULL;
	while (nt->evs) {
		struct nt_event *e = nt->evs;

		nt->evs = e->next;
		expr__free(e->key);
		free(e);
	}
	calltree__delete(nt->tree);
	nt->tree = NULL;
	ksyms__delete(nt->ksyms);
	nt->ksyms = NULL;
}

static int opt_impl(void *data, const char *arg, char *err, size_t len)
{
	static const char *const impls[] = { "delay", "call", "call-delay" };
	struct nested_trace *nt = data;

	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, impls[i])) {
			nt->impl = i;
			return 0;
		}
	snprintf(err, len, "--impl %s: give delay, call or call-delay", arg);
	return -1;
}

static int opt_detail(void *data, const char *arg, char *err, size_t len)
{
	struct nested_trace *nt = data;

	nt->want_detail = true;
	return detail__parse(arg, &nt->dopts, err, len);
}

static const struct popt nt_opts[] = {
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "print the entry and exit of each call slower than TIME (a bare number is ms)",
	  POPT_BIND_TIME(struct nested_trace, than, "ms") },
	{ .lname = "returns",
	  .help = "print each call as it returns, indented by depth (function_graph style)",
	  POPT_BIND_FLAG(struct nested_trace, returns) },
	{ .lname = "impl",
	  .argname = "delay|call|call-delay",
	  .help = "delay: the latency table (the default); call: each call as it returns, "
		  "indented by depth, no table; call-delay: both",
	  .type = POPT_CB,
	  .cb = opt_impl },
	{ .lname = "perins",
	  .help = "a call tree per key (CPU, thread or -k), keys in order",
	  POPT_BIND_FLAG(struct nested_trace, perins) },
	{ .lname = "heatmap",
	  .argname = "NAME",
	  .help = "write NAME-FUNC.lat (start latency per call) and draw NAME-FUNC.svg per "
		  "function",
	  POPT_BIND_STR(struct nested_trace, heatmap) },
	{ .lname = "detail",
	  .argname = "[=OPTS]",
	  .help = "with --than: every event between the two ends of a slow call, as a "
		  "timeline; OPTS: -TIME,+TIME (also before the entry, after the exit; a bare "
		  "number is us), samecpu, samepid, sametid, samekey, hide<TIME",
	  .type = POPT_CB,
	  .cb = opt_detail },
	{ 0 },
};

const struct profiler prof_nested_trace = {
	.name = "nested-trace",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "nested entry/exit pairs per key as a call tree with per-call latency",
	.synopsis = "perf-prof nested-trace -e ENTRY,EXIT [-e ENTRY,EXIT ...] [-k EXPR] [--than "
		    "TIME [-g] [--detail[=OPTS]]] [--returns] [--impl delay|call|call-delay] "
		    "[--perins] "
		    "[--heatmap NAME] [-i MS] [-C CPUS|-p PID|-t TID|-- CMD]",
	.examples =
		"perf-prof nested-trace -e irq_vectors:local_timer_entry,irq_vectors:"
		"local_timer_exit -e timer:hrtimer_expire_entry,timer:hrtimer_expire_exit -C 1\n"
		"  perf-prof nested-trace -e syscalls:sys_enter_sendto,syscalls:sys_exit_sendto "
		"-e net:net_dev_start_xmit,net:net_dev_xmit -p 1234 --returns\n"
		"Key: -k EXPR, else the thread (with -p/-t/--), else the CPU.",
	.groups = (const struct opt_group *const[]){ &event_group, &key_group, &target_group,
						     &run_group, &ring_group, &output_group,
						     &stack_group, &exclude_tp_group, NULL },
	.own = nt_opts,
	.priv_size = sizeof(struct nested_trace),
	.init = nt_init,
	.ops = { .interval = nt_interval, .snapshot = nt_snapshot },
	.deinit = nt_deinit,
};
