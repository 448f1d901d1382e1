// SPDX-License-Identifier: GPL-2.0
/* Events as points, keys and roles from -e attributes: see multipoint_ev.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/multipoint_bpf.h"
#include "analysis/latency/mp_pair.h"
#include "analysis/latency/multipoint_ev.h"
#include "engine/bpf.h"
#include "expr/expr.h"
#include "sym/ksyms.h"

#define ROLE_OPEN 0x1
#define ROLE_CLOSE 0x2

enum key_mode { KEY_EXPR, KEY_THREAD, KEY_CPU };

/* Per event (evsel->priv, the handler's). */
struct mt_event {
	struct multipoint_ev *owner;
	int point;		 /* -1: untraced (only in --detail timelines) */
	struct expr *key;	 /* KEY_EXPR */
	struct expr *role;	 /* NULL: open and close */
	struct expr *row, *mark; /* row=, mark= (rows by value; NULL: 0) */
	bool trigger;		 /* trigger: the table prints when it arrives */
};

/* An inner profiler's event whose -e item has key=EXPR (multipoint_ev__new's started hook). */
struct inner_key {
	const struct evsel *ev;
	struct expr *key;
};

struct multipoint_ev {
	struct multipoint *mt;
	enum key_mode key_mode;
	int nr_points;
	int point_of_pos[EV_MAX_POS]; /* -e position -> point, -1 for untraced ones */
	struct ksyms *ksyms;
	struct inner_key *inner; /* KEY_EXPR: inner profilers' events with a key= */
	int nr_inner;
	struct mpbpf *bpf; /* on the BPF back end */
	bool by_row;	   /* row= or mark= given: a row per value of row= at the start */
};

static struct expr *compile(struct session *s, struct multipoint_ev *m, struct evsel *ev,
			    const char *what, const char *text)
{
	char buf[512];
	struct expr *e = expr__compile(text, ev, buf, sizeof(buf));

	if (!e) {
		if (errno == ENOMEM)
			session__set_err(s, -ENOMEM, "out of memory");
		else
			session__usage_err(s, "bad %s= on %s: %s", what, ev->name, buf);
		return NULL;
	}
	if (expr__is_string(e)) {
		session__usage_err(s, "%s=%s on %s is a string: give a number", what, text,
				   ev->name);
		expr__free(e);
		return NULL;
	}
	if ((expr__uses(e) & EXPR_USES_KSYMS) && !m->ksyms && ksyms__load(NULL, &m->ksyms))
		m->ksyms = NULL;
	return e;
}

static bool untraced(const struct ev_spec *sp)
{
	return evspec__attr(sp, "untraced") != NULL;
}

/*
 * Points: -e positions (multi-trace) or events in order (mpdelay), those
 * that only have untraced events left out.
 */
static int number_points(struct multipoint_ev *m, const struct multipoint_ev_conf *c,
			 const struct event_opts *eo)
{
	bool traced[EV_MAX_POS] = { false };
	int n = 0;

	if (c->by_index) {
		for (int i = 0; i < eo->nr_specs; i++)
			n += !untraced(&eo->specs[i]);
		return n;
	}
	for (int i = 0; i < eo->nr_specs; i++)
		if (!untraced(&eo->specs[i]))
			traced[eo->specs[i].pos] = true;
	for (int k = 0; k < eo->nr_texts; k++)
		m->point_of_pos[k] = traced[k] ? n++ : -1;
	return n;
}

/* The point of spec @i, -1 when untraced. */
static int point_of(const struct multipoint_ev *m, const struct multipoint_ev_conf *c,
		    const struct event_opts *eo, int i)
{
	int n = 0;

	if (untraced(&eo->specs[i]))
		return -1;
	if (!c->by_index)
		return m->point_of_pos[eo->specs[i].pos];
	for (int j = 0; j < i; j++)
		n += !untraced(&eo->specs[j]);
	return n;
}

/* A point's name: its events ("sys:name" or the alias) joined by ','; @brief without systems. */
static void name_points(struct multipoint_ev *m, const struct multipoint_ev_conf *c,
			const struct event_opts *eo)
{
	for (int k = 0; k < m->nr_points; k++) {
		char full[MULTIPOINT_NAME] = "", brief[MULTIPOINT_NAME] = "";
		size_t fo = 0, bo = 0;

		for (int i = 0; i < eo->nr_specs; i++) {
			const struct ev_spec *sp = &eo->specs[i];

			if (point_of(m, c, eo, i) != k)
				continue;
			if (fo < sizeof(full))
				fo += snprintf(full + fo, sizeof(full) - fo, "%s%s%s%s",
					       fo ? "," : "", sp->alias ? sp->alias : sp->sys,
					       sp->alias ? "" : ":", sp->alias ? "" : sp->name);
			if (bo < sizeof(brief))
				bo += snprintf(brief + bo, sizeof(brief) - bo, "%s%s",
					       bo ? "," : "", sp->alias ? sp->alias : sp->name);
		}
		multipoint__name(m->mt, k, full, brief);
	}
}

static void on_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

/* by_row: the row of a start's row= value (as the BPF back end's rows by label) */
static void value_row(void *arg, u64 value, struct multipoint_row *row)
{
	(void)arg;
	row->key = value;
	row->group = 0;
	snprintf(row->label, sizeof(row->label), value > 0xffffffffULL ? "%#" PRIx64 : "%" PRIu64,
		 value);
}

static void pair_row(void *arg, const struct multipoint_pair *p, struct multipoint_row *row)
{
	if (!p->data) /* multipoint__record_hist's own rows: the BPF back end gives its rows */
		return;
	value_row(arg, p->data[0], row);
	row->mark = p->data[1];
}

/*
 * row=EXPR / mark=EXPR: where they may be (two points, no --cycle, events
 * of the first point), m->by_row set when one is given.  0 or a usage error.
 */
static int check_rows(struct session *s, struct multipoint_ev *m,
		      const struct multipoint_ev_conf *c, const struct event_opts *eo,
		      const char **title, bool *marks)
{
	for (int i = 0; i < eo->nr_specs; i++) {
		const struct ev_spec *sp = &eo->specs[i];
		const char *row = evspec__attr(sp, "row"), *mark = evspec__attr(sp, "mark");

		if (!row && !mark)
			continue;
		if (m->nr_points != 2 || c->cycle)
			return session__usage_err(s,
						  "'%s': row= and mark= split the pairs of two "
						  "points (two -e, no --cycle)",
						  sp->text);
		if (point_of(m, c, eo, i) != 0)
			return session__usage_err(s,
						  "'%s': row= and mark= belong to the events that "
						  "open a pair (the first -e)",
						  sp->text);
		m->by_row = true;
		if (row && !*title)
			*title = row;
		*marks |= mark != NULL;
	}
	return 0;
}

/*
 * The BPF back end if the host and the request allow it (1), else the ring
 * path (0, said under -v; --bpf: a usage error), or -errno.
 */
static int try_bpf(struct session *s, struct multipoint_ev *m, const struct multipoint_ev_conf *c)
{
	const struct event_opts *eo = session__conf(s)->events;
	const struct lat_opts *lo = c->lat;
	struct mpbpf_event *evs;
	int n = 0, ret;

	if (!c->opts)
		return 0;
	if (lo && lo->than && lo->detail)
		return bpf_back__fallback(s, c->opts,
					  "--detail: the events around each slow pair are "
					  "read from the ring buffer");
	if (c->pair)
		return bpf_back__fallback(s, c->opts,
					  "--impl pair: the open pairs' start events are listed "
					  "from the ring buffer");
	if (lo && lo->lower)
		return bpf_back__fallback(s, c->opts,
					  "--lower: the pairs faster than it are printed from the "
					  "ring buffer's events");
	for (int i = 0; i < eo->nr_specs; i++)
		if (evspec__attr(&eo->specs[i], "trigger"))
			return bpf_back__fallback(s, c->opts,
						  "'%s': trigger prints the table when the event "
						  "arrives, read from the ring buffer",
						  eo->specs[i].text);
	if (session__stacks_for_all(s) && !(lo && lo->than))
		return bpf_back__fallback(
			s, c->opts, "-g without --than: stacks are read from the ring buffer");
	for (int i = 0; i < eo->nr_specs; i++)
		if (eo->specs[i].profiler)
			return bpf_back__fallback(s, c->opts,
						  "'%s': a profiler in -e reads the ring buffer",
						  eo->specs[i].text);
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
		n++;
	if (!(evs = calloc((size_t)n + 1, sizeof(*evs))))
		return session__set_err(s, -ENOMEM, "out of memory");
	n = 0;
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct mt_event *e = ev->priv;

		if (ev->handler != on_sample || e->owner != m)
			continue;
		evs[n++] = (struct mpbpf_event){ .ev = ev,
						 .point = e->point,
						 .key = e->key,
						 .role = e->role,
						 .label = e->row,
						 .mark = e->mark };
	}
	ret = mpbpf__new(s, c->opts,
			 &(struct mpbpf_conf){
				 .mt = m->mt,
				 .nr_points = m->nr_points,
				 .cycle = c->cycle,
				 .perins = lo && lo->perins,
				 .key_mode = m->key_mode == KEY_EXPR	 ? MPBPF_KEY_EXPR
					     : m->key_mode == KEY_THREAD ? MPBPF_KEY_THREAD
									 : MPBPF_KEY_CPU,
				 .events = evs,
				 .nr_events = n,
				 .than = lo ? lo->than : 0,
				 .heatmap = lo && lo->heatmap,
				 .row = m->by_row ? value_row : NULL,
			 },
			 &m->bpf);
	free(evs);
	return ret;
}

static void on_inner(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
static int on_started(struct session *s, void *priv);
/* its own set: an inner profiler's samples (on_inner) and their keys */
static const struct session_ops mpev_ops = { .inner_sample = on_inner, .started = on_started };

struct multipoint_ev *multipoint_ev__new(struct session *s, const struct multipoint_ev_conf *c)
{
	const struct event_opts *eo = session__conf(s)->events;
	const struct target_opts *t = session__conf(s)->target;
	struct multipoint_ev *m;
	const char *row_title = NULL;
	bool keyed = false, marks = false;

	m = calloc(1, sizeof(*m));
	if (!m) {
		session__set_err(s, -ENOMEM, "out of memory");
		return NULL;
	}
	/* an inner profiler (cli/joint.h) adds its own events: only in timelines */
	for (int i = 0; i < eo->nr_specs; i++) {
		if (eo->specs[i].profiler && !untraced(&eo->specs[i])) {
			session__usage_err(
				s,
				"'%s': a profiler in -e is not a point: give it "
				"/untraced/ (%s/OPTIONS/untraced/), it shows in --detail",
				eo->specs[i].text, eo->specs[i].profiler);
			goto fail;
		}
		if (eo->specs[i].profiler && evspec__attr(&eo->specs[i], "role")) {
			session__usage_err(
				s, "'%s': an untraced event takes no role=", eo->specs[i].text);
			goto fail;
		}
	}
	m->nr_points = number_points(m, c, eo);
	/* --cycle with one point: each event pairs with the next one of its key */
	if (m->nr_points < (c->cycle ? 1 : 2)) {
		session__usage_err(s, c->by_index ? "give at least two points: -e 'START,END[,...]'"
				      : c->cycle
					      ? "give at least one point: -e EV --cycle"
					      : "give at least two points: -e START -e END (one -e "
						"per point, alternatives within one -e; one -e "
						"with --cycle)");
		goto fail;
	}
	if (m->nr_points > MULTIPOINT_MAX_POINTS) {
		session__usage_err(s, "%d points: at most %d", m->nr_points, MULTIPOINT_MAX_POINTS);
		goto fail;
	}
	for (int i = 0; i < eo->nr_specs; i++)
		keyed |= evspec__attr(&eo->specs[i], "key") != NULL;
	if (check_rows(s, m, c, eo, &row_title, &marks))
		goto fail;
	m->key_mode = keyed || c->key_text		    ? KEY_EXPR
		      : t->nr_pids || t->nr_tids || t->argv ? KEY_THREAD
							    : KEY_CPU;
	/* keys other than the CPU cross CPUs: pairs need time order */
	if (m->key_mode != KEY_CPU)
		session__want_order(s);
	m->mt = multipoint__new(
		s, &(struct multipoint_conf){
			   .who = c->who,
			   .nr_points = m->nr_points,
			   .cycle = c->cycle,
			   .lat = c->lat,
			   .key_title = m->key_mode == KEY_CPU	    ? "CPU"
					: m->key_mode == KEY_THREAD ? "TID"
								    : "KEY",
			   .exit_forgets = m->key_mode == KEY_THREAD,
			   .row_title = m->by_row ? (row_title ? row_title : "ROW") : NULL,
			   .row_width = m->by_row ? 20 : 0,
			   .mark_title = marks ? "marked" : NULL,
			   .row = m->by_row ? pair_row : NULL,
			   .report = c->pair ? mp_pair__report : NULL,
		   });
	if (!m->mt)
		goto fail;
	name_points(m, c, eo);
	for (int i = 0; i < eo->nr_specs; i++) {
		struct evsel_conf ec = { .callchain = session__stacks_for_all(s) };
		struct ev_spec *sp = &eo->specs[i];
		const char *key = evspec__attr(sp, "key"), *role = evspec__attr(sp, "role");
		const char *row = evspec__attr(sp, "row"), *mark = evspec__attr(sp, "mark");
		int n = 0;

		if (sp->profiler)
			continue;
		if (session__add_spec(s, sp, &ec) < 0)
			goto fail;
		if (!key)
			key = c->key_text;
		if (m->key_mode == KEY_EXPR && !key && !untraced(sp)) {
			session__usage_err(s,
					   "'%s' has no key=: give every event a key=EXPR, or -k "
					   "EXPR for those without",
					   sp->text);
			goto fail;
		}
		for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
			struct mt_event *e;

			if (ev->spec != sp || ev->priv)
				continue;
			n++;
			if (!(e = calloc(1, sizeof(*e)))) {
				session__set_err(s, -ENOMEM, "out of memory");
				goto fail;
			}
			e->owner = m;
			e->point = point_of(m, c, eo, i);
			e->trigger = evspec__attr(sp, "trigger") != NULL;
			evsel__set_handler(ev, on_sample, e);
			if (m->key_mode == KEY_EXPR && key &&
			    !(e->key = compile(s, m, ev, "key", key)))
				goto fail;
			if (role && e->point < 0) {
				session__usage_err(
					s, "'%s': an untraced event takes no role=", sp->text);
				goto fail;
			}
			if (role && !(e->role = compile(s, m, ev, "role", role)))
				goto fail;
			if (row && !(e->row = compile(s, m, ev, "row", row)))
				goto fail;
			if (mark && !(e->mark = compile(s, m, ev, "mark", mark)))
				goto fail;
		}
		if (!n) {
			session__usage_err(s,
					   "'%s' is an event of an earlier -e item: give it "
					   "alias=NAME to tell them apart",
					   sp->text);
			goto fail;
		}
	}
	if (try_bpf(s, m, c) < 0 || multipoint__ready(m->mt, s) ||
	    session__add_ops(s, &mpev_ops, m))
		goto fail;
	return m;
fail:
	multipoint_ev__delete(m, s);
	return NULL;
}

void multipoint_ev__delete(struct multipoint_ev *m, struct session *s)
{
	if (!m)
		return;
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct mt_event *e = ev->priv;

		if (ev->handler != on_sample || e->owner != m)
			continue;
		expr__free(e->key);
		expr__free(e->role);
		expr__free(e->row);
		expr__free(e->mark);
		free(e);
		evsel__set_handler(ev, NULL, NULL);
	}
	for (int i = 0; i < m->nr_inner; i++)
		expr__free(m->inner[i].key);
	free(m->inner);
	mpbpf__finish(m->bpf, s);
	multipoint__done(m->mt, s);
	mpbpf__delete(m->bpf);
	ksyms__delete(m->ksyms);
	free(m);
}

static u64 eval(struct session *s, struct multipoint_ev *m, struct expr *e, struct sample *smp)
{
	struct expr_ctx ctx = { .smp = smp, .session = s, .ksyms = m->ksyms };
	struct expr_value v;

	expr__eval(e, &ctx, &v); /* faults read as 0, counted */
	return v.u;
}

/* The handler of every event it added (@priv its mt_event). */
static void on_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct mt_event *e = priv;
	struct multipoint_ev *m = e->owner;
	unsigned role = ROLE_OPEN | ROLE_CLOSE;
	int k, n = m->nr_points;
	u64 key;

	key = m->key_mode == KEY_CPU	  ? smp->cpu
	      : m->key_mode == KEY_THREAD ? smp->tid
	      : e->key			  ? eval(s, m, e->key, smp)
					  : 0;
	multipoint__see(m->mt, s, ev, smp, key, m->key_mode != KEY_EXPR || e->key);
	if (e->point < 0)
		goto out;
	if (e->role)
		role = (unsigned)eval(s, m, e->role, smp) & (ROLE_OPEN | ROLE_CLOSE);
	k = e->point;
	/* close the pair that ends here: from the previous point (the last one with --cycle) */
	if ((role & ROLE_CLOSE) && multipoint__opens(m->mt, (k + n - 1) % n))
		multipoint__end(m->mt, s, (k + n - 1) % n, k, key, ev, smp, 0);
	if ((role & ROLE_OPEN) && multipoint__opens(m->mt, k)) {
		u64 *data = multipoint__start(m->mt, s, k, key, ev, smp);

		if (data && m->by_row) {
			data[0] = e->row ? eval(s, m, e->row, smp) : 0;
			data[1] = e->mark && eval(s, m, e->mark, smp);
		}
	}
out:
	if (e->trigger) /* the interval's table now, its pair included */
		multipoint__interval(m->mt, s);
}

/*
 * Its hook set's inner_sample: a sample of an inner profiler's event
 * (joint analysis: "profile/-F 99/untraced/" in -e), an untraced event,
 * seen in the --detail timelines only, keyed by CPU or thread when those
 * are the keys.
 */
static void on_inner(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct multipoint_ev *m = priv;
	u64 key = m->key_mode == KEY_CPU ? smp->cpu : smp->tid;

	/* key=EXPR on the profiler's item: its events keyed like the others (samekey) */
	for (int i = 0; i < m->nr_inner; i++)
		if (m->inner[i].ev == ev) {
			multipoint__see(m->mt, s, ev, smp, eval(s, m, m->inner[i].key, smp), true);
			return;
		}
	multipoint__see(m->mt, s, ev, smp, key, m->key_mode != KEY_EXPR);
}

/*
 * Its set's started hook: the inner profilers' events exist now (their
 * inits ran after this profiler's); compile the key= of their items in
 * -e ("profile/-F 99/untraced/key=_tid/") against each of them.  -k EXPR
 * is not theirs: without key= they have no key, as before.
 */
static int on_started(struct session *s, void *priv)
{
	struct multipoint_ev *m = priv;

	if (m->key_mode != KEY_EXPR)
		return 0;
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		const struct ev_spec *item = session__inner_item(s, ev);
		const char *key = item ? evspec__attr(item, "key") : NULL;
		struct inner_key *n;

		if (!key)
			continue;
		n = realloc(m->inner, (m->nr_inner + 1) * sizeof(*n));
		if (!n)
			return session__set_err(s, -ENOMEM, "out of memory");
		m->inner = n;
		n[m->nr_inner].ev = ev;
		if (!(n[m->nr_inner].key = compile(s, m, ev, "key", key)))
			return -EINVAL;
		m->nr_inner++;
	}
	return 0;
}

int multipoint_ev__points(const struct event_opts *eo, int pt[EV_MAX_POS])
{
	int n = 0;

	for (int p = 0; p < eo->nr_texts; p++) {
		pt[p] = -1;
		for (int i = 0; i < eo->nr_specs; i++)
			if (eo->specs[i].pos == p && !evspec__attr(&eo->specs[i], "untraced"))
				pt[p] = n;
		n += pt[p] >= 0;
	}
	return n;
}
