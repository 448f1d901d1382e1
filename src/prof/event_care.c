// SPDX-License-Identifier: GPL-2.0
/*
 * event-care: is an event stream whole and in order?  Per CPU: the events
 * received, the events the ring lost (its PERF_RECORD_LOST records, as the
 * engine counts them), the samples that came older than the newest one
 * delivered before them from any CPU (disorder: how many, and how far back
 * at most) and the longest time between two consecutive events of a CPU.
 * The samples are taken as the rings give them (the engine's arrival
 * order): --order would sort away the disorder it measures, so it is
 * refused.  Per interval (-i) and for the whole run.  With -g (kernel
 * stacks unless --user-callchain), each sample out of order is printed as
 * it comes, with its stack, and under it the newest one delivered before
 * it (kept, with its stack, for that): where each was taken.
 *
 * Each event carries its counter's value (PERF_SAMPLE_READ): a count that
 * grew more than a period since the counter's last sample tells of
 * samples the kernel counted and never delivered (UNSEEN, per CPU and per
 * event: analysis/counting/unseen.h).  event-lost, the original's name for
 * that check, prints each such loss as it is found, then the tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counting/unseen.h"
#include "engine/cpulist.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "sym/stack.h"
#include "util/units.h"

struct ec_cpu {
	u64 events, lost, unseen, disorder, max_back, max_gap;
};

/* an event's on one CPU */
struct ec_evcpu {
	u64 events, unseen;
};

struct event_care {
	int nr;			 /* CPU slots; the last one: losses of per-thread rings (no CPU) */
	struct ec_cpu *ivl;	 /* since the last interval */
	struct ec_cpu *run;	 /* since the start */
	u64 *prev;		 /* per CPU: the time of its last event (0: none yet) */
	u64 newest;		 /* the newest timestamp delivered, across CPUs */
	u64 since;		 /* the interval's start (stats_stamp) */
	bool stacks;		 /* -g: each disorder's two events with their stacks */
	struct sample_copy last; /* -g: the newest sample delivered, kept */
	struct evsel *last_ev;
	bool each;		 /* event-lost: each count jump printed as found */
	struct unseen *unseen;	 /* the counters' last counts (made at the first sample) */
	int first, nev;		 /* its events: the evsels of idx first.. first + nev - 1 */
	struct evsel **evs;	 /* [nev] */
	struct ec_evcpu *ev_ivl; /* [nev][nr]: per event and CPU, since the last interval */
	struct ec_evcpu *ev_run; /* [nev][nr]: since the start */
};

static int ec_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *ev = session__conf(s)->events;
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	struct event_care *c = priv;
	const char *name = c->each ? "event-lost" : "event-care";
	int ncpu;

	if (!ev->nr_specs)
		return session__usage_err(s, "no events: give -e sys:name (see: perf-prof list)");
	if (session__conf(s)->ring->order)
		return session__usage_err(s,
					  "%s takes the events as the rings give them: "
					  "--order would sort away the disorder it measures",
					  name);
	if (session__refuse_overwrite(s, c->each ? "event-lost's count of lost events"
						 : "event-care's count of lost events"))
		return -EINVAL;
	/* stacks would sort the events (their maps): not here, the order is what is measured */
	session__arrival_order(s);
	c->stacks = st && st->capture.cg != CG_NONE;
	ncpu = cpulist__possible();
	if (ncpu <= 0)
		ncpu = 1;
	c->nr = ncpu + 1;
	c->ivl = calloc(c->nr, sizeof(*c->ivl));
	c->run = calloc(c->nr, sizeof(*c->run));
	c->prev = calloc(c->nr, sizeof(*c->prev));
	if (!c->ivl || !c->run || !c->prev)
		return session__set_err(s, -ENOMEM, "out of memory");
	c->first = 0;
	for (struct evsel *e = session__evsels(s); e; e = e->next)
		c->first = e->idx + 1;
	for (int i = 0; i < ev->nr_specs; i++) {
		/* kernel stacks, as the original's -g; --user-callchain adds the user's */
		struct evsel_conf conf = { .callchain = c->stacks,
					   .exclude_callchain_user =
						   !(st && st->capture.halves_given) };

		unseen__conf(&conf); /* each sample its counter's value */
		if (session__add_spec(s, &ev->specs[i], &conf) < 0)
			return -1;
	}
	for (struct evsel *e = session__evsels(s); e; e = e->next)
		if (e->idx >= c->first)
			c->nev = e->idx - c->first + 1;
	c->evs = calloc(c->nev ? c->nev : 1, sizeof(*c->evs));
	c->ev_ivl = calloc((size_t)c->nev * c->nr + 1, sizeof(*c->ev_ivl));
	c->ev_run = calloc((size_t)c->nev * c->nr + 1, sizeof(*c->ev_run));
	if (!c->evs || !c->ev_ivl || !c->ev_run)
		return session__set_err(s, -ENOMEM, "out of memory");
	for (struct evsel *e = session__evsels(s); e; e = e->next)
		if (e->idx >= c->first)
			c->evs[e->idx - c->first] = e;
	return 0;
}

static int el_init(struct session *s, void *priv, const struct opt_set *opts)
{
	struct event_care *c = priv;

	c->each = true;
	return ec_init(s, priv, opts);
}

static inline u64 max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * -g: a sample out of order, its event line with what it is and its stack,
 * then the newest one delivered before it with its own (text: two records;
 * JSON: one, "newest" the other's line and stack):
 * {"type":"disorder","time_ns",..,"event","fields","back_ns","stack",
 *  "newest":{"time_ns",..,"event","fields","stack"}}.
 */
static const struct rt_col newest_cols[] = {
	{ .type = RT_ROW },
	{ .name = "fields", .type = RT_FIELDS },
	EVL_STACK_COL,
};
static const struct rt_desc newest_desc = { .type = "newest", .cols = newest_cols, .ncols = 3 };

static const struct rt_col dis_cols[] = {
	{ .type = RT_ROW },
	{ .name = "fields", .type = RT_FIELDS },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	{ .name = "back_ns", .type = RT_U64, .unit = RT_UNIT_NS, .flags = RT_NO_TEXT },
	EVL_STACK_COL,
	{ .name = "newest", .type = RT_ROW, .flags = RT_NO_TEXT },
};
static const struct rt_desc dis_desc = { .type = "disorder", .cols = dis_cols, .ncols = 6 };

/* the newest one's text line: no JSON record of its own (it is the other's "newest") */
static const struct rt_col dis_newest_cols[] = {
	{ .type = RT_BOOL, .flags = RT_NO_TEXT | RT_NO_JSON | RT_ROW_IF },
	{ .type = RT_ROW },
	{ .type = RT_FIELDS },
	{ .type = RT_STR },
	EVL_STACK_COL,
};
static const struct rt_desc dis_newest_desc = { .type = "disorder",
						.cols = dis_newest_cols,
						.ncols = 5 };

static void print_disorder(struct session *s, struct event_care *c, struct evsel *ev,
			   const struct sample *smp, u64 back)
{
	FILE *out = session__event_out(s, c);
	const struct sample *nsmp = &c->last.smp;
	struct rt_val v[EVL_NCOLS], nv[EVL_NCOLS];
	struct rt_stack stk, nstk;
	char comm[EVL_COMM_LEN], text[96], ago[32];

	if (!out || !c->last.valid)
		return;
	evline__row(v, &stk, s, ev, smp, NULL, NULL);
	evline__row_kept(nv, &nstk, comm, s, c->last_ev, nsmp, NULL);
	snprintf(text, sizeof(text),
		 "  <- out of order: %s older than the next, delivered before it",
		 units__fmt_ns(back, ago, sizeof(ago)));
	evline__emit(
		s, out, &dis_desc,
		(struct rt_val[]){
			{ .row = { &evline_head, v } },
			v[EVL_FIELDS],
			{ .s = text },
			{ .u = back },
			v[EVL_STACK],
			{ .row = { &newest_desc, (struct rt_val[]){ { .row = { &evline_head, nv } },
								    nv[EVL_FIELDS],
								    nv[EVL_STACK] } } },
		});
	evline__emit(s, out, &dis_newest_desc,
		     (struct rt_val[]){ { .b = false },
					{ .row = { &evline_head, nv } },
					nv[EVL_FIELDS],
					{ .s = "  <- the newest delivered before it" },
					nv[EVL_STACK] });
}

/*
 * event-lost: a count jump as it is found: the sample that shows it (its
 * event line's head) and how many of the event's samples went missing
 * before it.  {"type":"lost_events","time_ns",..,"event":..,"lost":N}
 */
static const struct rt_col lost_cols[] = {
	{ .type = RT_ROW },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	{ .name = "lost", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
};
static const struct rt_desc lost_desc = { .type = "lost_events", .cols = lost_cols, .ncols = 3 };

static void print_unseen(struct session *s, struct event_care *c, struct evsel *ev,
			 const struct sample *smp, u64 n)
{
	FILE *out = session__event_out(s, c);
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	char text[64];

	if (!out)
		return;
	evline__row(v, &stk, s, NULL, smp, NULL, ev->name);
	snprintf(text, sizeof(text), "lost %llu events", (unsigned long long)n);
	evline__emit(
		s, out, &lost_desc,
		(struct rt_val[]){ { .row = { &evline_head, v } }, { .s = text }, { .u = n } });
}

/* The samples of @ev's counter that went missing before @smp (and per event, CPU @cpu). */
static u64 count_check(struct session *s, struct event_care *c, struct evsel *ev,
		       const struct sample *smp, int cpu)
{
	int k = ev->idx - c->first;
	u64 n = 0;

	if (k < 0 || k >= c->nev)
		return 0;
	if (!c->unseen)
		c->unseen = unseen__new(session__per_thread(s));
	/* a sample the user-space filter left out is none missing: not checked */
	if (!ev->ufilter)
		n = unseen__sample(c->unseen, smp);
	c->ev_ivl[k * c->nr + cpu].events++;
	c->ev_run[k * c->nr + cpu].events++;
	c->ev_ivl[k * c->nr + cpu].unseen += n;
	c->ev_run[k * c->nr + cpu].unseen += n;
	if (n && c->each)
		print_unseen(s, c, ev, smp, n);
	return n;
}

static void ec_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct event_care *c = priv;
	int cpu = smp->cpu < (u32)c->nr - 1 ? (int)smp->cpu : c->nr - 1;
	struct ec_cpu *a = &c->ivl[cpu], *b = &c->run[cpu];
	u64 t = smp->time, n = count_check(s, c, ev, smp, cpu);

	a->events++;
	b->events++;
	a->unseen += n;
	b->unseen += n;
	/* samples missing in between: no gap of consecutive events */
	if (n)
		c->prev[cpu] = 0;
	if (c->prev[cpu] && t > c->prev[cpu]) {
		a->max_gap = max_u64(a->max_gap, t - c->prev[cpu]);
		b->max_gap = max_u64(b->max_gap, t - c->prev[cpu]);
	}
	c->prev[cpu] = max_u64(c->prev[cpu], t);
	if (t < c->newest) {
		a->disorder++;
		b->disorder++;
		a->max_back = max_u64(a->max_back, c->newest - t);
		b->max_back = max_u64(b->max_back, c->newest - t);
		if (c->stacks)
			print_disorder(s, c, ev, smp, c->newest - t);
	} else {
		c->newest = t;
		/* -g: kept for the disorder that may follow (a failed copy: none shown) */
		if (c->stacks && !sample_copy__save(&c->last, smp, true))
			c->last_ev = ev;
	}
}

static void ec_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	struct event_care *c = priv;
	int i = cpu >= 0 && cpu < c->nr - 1 ? cpu : c->nr - 1;

	(void)s;
	c->ivl[i].lost += nr;
	c->run[i].lost += nr;
	/*
	 * What came before the loss and what comes after are no consecutive
	 * events: the gap across it is not the stream's.  A per-thread ring's
	 * loss (-p, -t: no CPU) may have taken events of any CPU.
	 */
	if (cpu >= 0 && cpu < c->nr - 1)
		c->prev[cpu] = 0;
	else
		memset(c->prev, 0, c->nr * sizeof(*c->prev));
}

static const struct rt_col ec_cols[] = {
	RT_COL("cpu", "CPU", RT_STR, RT_UNIT_NONE, 5, RT_LEFT),
	RT_COL("events", "EVENTS", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("lost", "LOST", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("unseen", "UNSEEN", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("disorder", "DISORDER", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("max_back_ns", "MAX_BACK", RT_NS, RT_UNIT_NS, 10, 0),
	RT_COL("max_gap_ns", "MAX_GAP", RT_NS, RT_UNIT_NS, 10, 0),
};
static const struct rt_desc ec_desc = { .type = "row", .cols = ec_cols, .ncols = 7 };

static void ec_row(struct rt_sink *k, const char *who, int cpu, const struct ec_cpu *e)
{
	rtable__row(k, (struct rt_val[]){
			       { .s = who, .num = cpu >= 0, .i = cpu },
			       { .u = e->events },
			       { .u = e->lost },
			       { .u = e->unseen },
			       { .u = e->disorder },
			       { .u = e->max_back, .null = !e->disorder },
			       { .u = e->max_gap, .null = !e->max_gap },
		       });
}

/* A row per CPU that saw an event or a loss in the run, then "all" (@e: what to show). */
static void cpu_table(struct rt_sink *k, struct event_care *c, const struct ec_cpu *e)
{
	struct ec_cpu all = { 0 };
	char who[16];

	rtable__begin(k, &ec_desc);
	for (int i = 0; i < c->nr; i++) {
		if (!c->run[i].events && !c->run[i].lost)
			continue;
		if (i < c->nr - 1) {
			snprintf(who, sizeof(who), "%d", i);
			ec_row(k, who, i, &e[i]);
		} else {
			ec_row(k, "-", -1, &e[i]); /* per-thread rings: losses on no CPU */
		}
		all.events += e[i].events;
		all.lost += e[i].lost;
		all.unseen += e[i].unseen;
		all.disorder += e[i].disorder;
		all.max_back = max_u64(all.max_back, e[i].max_back);
		all.max_gap = max_u64(all.max_gap, e[i].max_gap);
	}
	ec_row(k, "all", -1, &all);
	rtable__end(k);
}

/* per event: a row per CPU it was sampled on, then its "all" */
static const struct rt_col ev_cols[] = {
	RT_COL("event", "EVENT", RT_STR, RT_UNIT_NONE, 5, RT_LEFT | RT_FIT),
	RT_COL("cpu", "CPU", RT_STR, RT_UNIT_NONE, 5, RT_LEFT),
	RT_COL("events", "EVENTS", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("unseen", "UNSEEN", RT_U64, RT_UNIT_COUNT, 10, 0),
};
static const struct rt_desc ev_desc = { .type = "event_counts", .cols = ev_cols, .ncols = 4 };

/* each row of the events' table to @k: measured (@fit) or printed */
static void ev_rows(struct rt_sink *k, struct event_care *c, const struct ec_evcpu *e, bool fit)
{
	char who[16];

	for (int j = 0; j < c->nev; j++) {
		struct ec_evcpu all = { 0 };
		const char *name = c->evs[j] ? c->evs[j]->name : "?";

		for (int i = 0; i <= c->nr; i++) {
			const struct ec_evcpu *x = i < c->nr ? &e[j * c->nr + i] : &all;
			struct rt_val v[] = { { .s = name },
					      { .s = who, .num = i < c->nr - 1, .i = i },
					      { .u = x->events },
					      { .u = x->unseen } };

			if (i < c->nr && !c->ev_run[j * c->nr + i].events)
				continue;
			if (i < c->nr - 1)
				snprintf(who, sizeof(who), "%d", i);
			else /* the last slot: samples of no CPU known */
				snprintf(who, sizeof(who), "%s", i == c->nr ? "all" : "-");
			if (fit)
				rtable__fit(k, &ev_desc, v);
			else
				rtable__row(k, v);
			if (i < c->nr) {
				all.events += x->events;
				all.unseen += x->unseen;
			}
		}
	}
}

/* The CPUs' table, then the events' (@e, @ee: the interval's or the run's) */
static void ec_report(struct session *s, struct event_care *c, const struct ec_cpu *e,
		      const struct ec_evcpu *ee, int when)
{
	struct stats_stamp st;
	union rt_sinks u;
	struct rt_sink *k = stats_stamp__sink(s, &u, &st, &c->since, when);

	cpu_table(k, c, e);
	ev_rows(k, c, ee, true);
	rtable__begin(k, &ev_desc);
	ev_rows(k, c, ee, false);
	rtable__end(k);
	fflush(session__out(s));
}

static void ec_interval(struct session *s, void *priv)
{
	struct event_care *c = priv;

	ec_report(s, c, c->ivl, c->ev_ivl, STATS_INTERVAL);
	memset(c->ivl, 0, c->nr * sizeof(*c->ivl));
	memset(c->ev_ivl, 0, (size_t)c->nev * c->nr * sizeof(*c->ev_ivl));
}

static void ec_snapshot(struct session *s, void *priv)
{
	struct event_care *c = priv;

	/* what the next interval would print (the run's without -i) */
	if (session__interval_ms(s))
		ec_report(s, c, c->ivl, c->ev_ivl, STATS_SO_FAR);
	else
		ec_report(s, c, c->run, c->ev_run, STATS_SO_FAR);
}

static void ec_deinit(struct session *s, void *priv)
{
	struct event_care *c = priv;

	/* with -i, the last interval's rest: the intervals add up to the run */
	if (c->run && c->ev_run && session__started(s)) {
		if (session__interval_ms(s))
			ec_report(s, c, c->ivl, c->ev_ivl, STATS_END);
		else
			ec_report(s, c, c->run, c->ev_run, STATS_END);
	}
	free(c->ivl);
	free(c->run);
	free(c->prev);
	free(c->evs);
	free(c->ev_ivl);
	free(c->ev_run);
	unseen__free(c->unseen);
	sample_copy__free(&c->last);
}

const struct profiler prof_event_care = {
	.name = "event-care",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "care if events are lost or out of order: per CPU, lost, unseen, disorder, gaps",
	.synopsis = "perf-prof event-care -e EVENT[,EVENT...] [-g] [-m PAGES] [-i MS] [-C CPUS|-p "
		    "PID|-t TID|-- CMD]",
	.examples = "perf-prof event-care -e sched:sched_wakeup -m 64\n"
		    "  perf-prof event-care -e sched:sched_switch,sched:sched_wakeup -i 1000\n"
		    "  perf-prof event-care -e sched:sched_wakeup -g   # each event out of order, "
		    "its stack",
	.groups =
		(const struct opt_group *const[]){ &event_group, &target_group, &run_group,
						   &ring_group, &output_group, &stack_group, NULL },
	.priv_size = sizeof(struct event_care),
	.init = ec_init,
	.ops = { .sample = ec_sample,
		 .lost = ec_lost,
		 .interval = ec_interval,
		 .snapshot = ec_snapshot },
	.deinit = ec_deinit,
};

/* the original's event-lost: the count check, each loss printed as it is found */
const struct profiler prof_event_lost = {
	.name = "event-lost",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "determine if any events are lost: each event's count jumps, as found",
	.synopsis = "perf-prof event-lost -e EVENT[,EVENT...] [-m PAGES] [-i MS] [-C CPUS|-p "
		    "PID|-t TID|-- CMD]",
	.examples =
		"perf-prof event-lost -e sched:sched_wakeup -m 64\n"
		"  perf-prof event-lost -e syscalls:sys_enter_getppid -m 1 -- ./burst 3 20000 50",
	.groups = (const struct opt_group *const[]){ &event_group, &target_group, &run_group,
						     &ring_group, &output_group, NULL },
	.priv_size = sizeof(struct event_care),
	.init = el_init,
	.ops = { .sample = ec_sample,
		 .lost = ec_lost,
		 .interval = ec_interval,
		 .snapshot = ec_snapshot },
	.deinit = ec_deinit,
};
