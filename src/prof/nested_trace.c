// SPDX-License-Identifier: GPL-2.0
/*
 * nested-trace: entry/exit pairs that nest per key.  Each -e is one
 * function, 'ENTRY,EXIT' (-e A,A_ret -e B,B_ret); calls nest on a stack per
 * key (-k EXPR, else the thread under -p/-t/--, else the CPU), and each
 * call's latency goes to its path in a call tree (analysis/latency/calltree.h),
 * printed as a table, children indented under their callers.  --returns
 * prints each call as it returns, indented by depth, as ftrace's
 * function_graph does; --than prints the two events of each slower call.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/calltree.h"
#include "expr/expr.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "sym/ksyms.h"
#include "sym/stack.h"
#include "util/json.h"

struct nt_event {
	int func;
	bool entry;
	struct expr *key; /* -k */
};

struct nested_trace {
	unsigned long long than;
	bool returns;
	const char *key_text;
	bool by_cpu;
	int nr_funcs;
	char names[CALLTREE_MAX_FUNCS][48];
	struct calltree *tree;
	struct ksyms *ksyms;
	struct nt_event *evs; /* by evsel idx */
	int nr_evs;
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
	nt->by_cpu = !nt->key_text && !t->nr_pids && !t->nr_tids && !t->argv;
	if (!nt->by_cpu)
		session__want_order(s); /* a thread's calls may return on another CPU */
	nt->tree = calltree__new(names, copy_free);
	if (!nt->tree)
		return session__set_err(s, -ENOMEM, "out of memory");
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
	nt->nr_evs = 0;
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
		nt->nr_evs = ev->idx + 1 > nt->nr_evs ? ev->idx + 1 : nt->nr_evs;
	nt->evs = calloc((size_t)nt->nr_evs, sizeof(*nt->evs));
	if (!nt->evs)
		return session__set_err(s, -ENOMEM, "out of memory");
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct nt_event *e = &nt->evs[ev->idx];
		int first = -1;

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

/* --returns: "TIME [CPU] KEY  |  <indent>NAME  DURATION", as function_graph */
static void print_return(struct session *s, struct nested_trace *nt, const struct sample *smp,
			 u64 key, const struct calltree_ret *r)
{
	char ts[40], d[32];

	if (nt->json) {
		struct json j;

		json__begin(&j, session__out(s), "return");
		json__u64(&j, "time_ns", session__wall_ns(s, smp->time));
		json__u64(&j, "cpu", smp->cpu);
		json__u64(&j, "key", key);
		json__str(&j, "func", nt->names[r->func]);
		json__u64(&j, "depth", (u64)r->depth);
		json__u64(&j, "duration_ns", r->delta);
		json__end(&j);
		return;
	}
	session__fmt_time(s, smp->time, ts, sizeof(ts));
	fprintf(session__out(s), "%s [%03u] %7" PRIu64 " | %*s%s  %s\n", ts, smp->cpu, key,
		2 * r->depth, "", nt->names[r->func], stats_table__fmt_ns(r->delta, d, sizeof(d)));
}

/* --json: one end of a call, as an object: trace's event record without its type. */
static void json_event(struct session *s, struct json *j, const char *key, struct evsel *ev,
		       const struct sample *smp)
{
	json__obj(j, key);
	evline__json_members(j, s, smp, NULL, ev->name);
	evsel__json_fields(ev, smp, j, "fields");
	evline__json_stack(j, s, smp);
	json__close(j);
}

/* --than: the call's entry (if kept) and exit. */
static void print_slow(struct session *s, struct nested_trace *nt, struct evsel *ev,
		       const struct sample *smp, u64 key, const struct calltree_ret *r)
{
	const struct sample *entry = r->data ? &((struct sample_copy *)r->data)->smp : NULL;
	FILE *out = session__out(s);
	char d[32];

	if (nt->json) {
		struct json j;

		json__begin(&j, out, "slow");
		json__u64(&j, "time_ns", session__wall_ns(s, smp->time));
		json__str(&j, "func", nt->names[r->func]);
		json__u64(&j, "key", key);
		json__u64(&j, "depth", (u64)r->depth);
		json__u64(&j, "duration_ns", r->delta);
		if (entry)
			json_event(s, &j, "start", nt->entry_ev[r->func], entry);
		json_event(s, &j, "end", ev, smp);
		json__end(&j);
		return;
	}
	fprintf(out, "%s: %s key %" PRIu64 " depth %d\n", nt->names[r->func],
		stats_table__fmt_ns(r->delta, d, sizeof(d)), key, r->depth);
	if (entry)
		evline__print(s, nt->entry_ev[r->func], entry, out, NULL);
	evline__print(s, ev, smp, out, NULL);
}

static void nt_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct nested_trace *nt = priv;
	struct nt_event *e;
	struct calltree_ret r;
	u64 key;

	if (ev->idx >= nt->nr_evs)
		return;
	e = &nt->evs[ev->idx];
	key = key_of(s, nt, e, smp);
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
	if (nt->returns)
		print_return(s, nt, smp, key, &r);
	if (nt->than && r.delta > nt->than)
		print_slow(s, nt, ev, smp, key, &r);
	if (r.data)
		copy_free(r.data);
}

static void nt_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	(void)s, (void)cpu, (void)nr;
	calltree__lost(((struct nested_trace *)priv)->tree);
}

static void nt_exit(struct session *s, void *priv, const struct rec_task *t)
{
	struct nested_trace *nt = priv;

	(void)s;
	if (!nt->by_cpu && !nt->key_text)
		calltree__forget(nt->tree, t->tid);
}

static void print_all(struct session *s, struct nested_trace *nt, int when)
{
	FILE *out = session__out(s);

	if (nt->json) {
		struct stats_stamp st;
		struct rt_json js;

		stats_stamp__now(s, &nt->since, when, &st);
		calltree__json(nt->tree, out, &st);
		calltree__emit_drops(nt->tree, rt_json__init(&js, out, &st), when == STATS_END);
		if (calltree__failed_alloc(nt->tree))
			session__warn(s, "out of memory, some calls were not counted");
		fflush(out);
		return;
	}
	calltree__print(nt->tree, out);
	calltree__print_drops(nt->tree, out, "nested-trace", when == STATS_END);
	fflush(out);
}

static void print_time(struct session *s, struct nested_trace *nt)
{
	char buf[64];

	if (nt->json)
		return;
	session__fmt_time(s, session__now(s), buf, sizeof(buf));
	fprintf(session__out(s), "%s\n", buf);
}

static void nt_interval(struct session *s, void *priv)
{
	struct nested_trace *nt = priv;

	print_time(s, nt);
	print_all(s, nt, STATS_INTERVAL);
	calltree__reset(nt->tree);
}

static void nt_snapshot(struct session *s, void *priv)
{
	print_time(s, priv);
	print_all(s, priv, STATS_SO_FAR);
}

static void nt_deinit(struct session *s, void *priv)
{
	struct nested_trace *nt = priv;

	if (nt->tree && session__started(s))
		print_all(s, nt, STATS_END);
	for (int i = 0; nt->evs && i < nt->nr_evs; i++)
		expr__free(nt->evs[i].key);
	free(nt->evs);
	nt->evs = NULL;
	calltree__delete(nt->tree);
	nt->tree = NULL;
	ksyms__delete(nt->ksyms);
	nt->ksyms = NULL;
}

static const struct popt nt_opts[] = {
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "print the entry and exit of each call slower than TIME (a bare number is ms)",
	  POPT_BIND_TIME(struct nested_trace, than, "ms") },
	{ .lname = "returns",
	  .help = "print each call as it returns, indented by depth (function_graph style)",
	  POPT_BIND_FLAG(struct nested_trace, returns) },
	{ 0 },
};

const struct profiler prof_nested_trace = {
	.name = "nested-trace",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "nested entry/exit pairs per key as a call tree with per-call latency",
	.synopsis = "perf-prof nested-trace -e ENTRY,EXIT [-e ENTRY,EXIT ...] [-k EXPR] [--than "
		    "TIME [-g]] [--returns] [-i MS] [-C CPUS|-p PID|-t TID|-- CMD]",
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
	.ops = { .sample = nt_sample,
		 .lost = nt_lost,
		 .exit = nt_exit,
		 .interval = nt_interval,
		 .snapshot = nt_snapshot },
	.deinit = nt_deinit,
};
