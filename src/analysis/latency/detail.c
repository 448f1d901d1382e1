// SPDX-License-Identifier: GPL-2.0
/* The --detail window of events and the timelines of slow pairs: see detail.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/detail.h"
#include "report/evline.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "util/list.h"
#include "util/units.h"

#define TRIM_EVERY 4096

struct det_ev {
	struct evsel *ev;
	struct sample_copy copy; /* the buffer stays with the slot, reused */
	u64 key;
	bool has_key;
};

struct waiting {
	struct detail_pair p;
	char *header;
	struct waiting *next;
};

struct detail {
	struct detail_opts o;
	struct det_ev *ring; /* ring[(head + i) % cap], i < n: oldest first */
	size_t cap, head, n;
	size_t bytes; /* of the slots' buffers */
	u64 newest;
	u64 dropped;	  /* events pushed out early (window full) */
	u64 dropped_time; /* the newest of those */
	unsigned since_trim;
	struct waiting *wait, **wait_tail;
};

static int parse_time(const char *s, u64 *ns)
{
	unsigned long long v;

	if (units__parse_time(s, "us", &v))
		return -1;
	*ns = v;
	return 0;
}

int detail__parse(const char *text, struct detail_opts *o, char *err, size_t len)
{
	char **items;
	int ret = 0, nr;

	memset(o, 0, sizeof(*o));
	if (!text || !*text)
		return 0;
	if (list__split(text, "--detail", &items, &nr, err, len))
		return -1;
	for (int i = 0; i < nr; i++) {
		const char *t = items[i];

		if (!strcmp(t, "samecpu")) {
			o->samecpu = true;
		} else if (!strcmp(t, "samepid")) {
			o->samepid = true;
		} else if (!strcmp(t, "sametid")) {
			o->sametid = true;
		} else if (!strcmp(t, "samekey")) {
			o->samekey = true;
		} else if (!strcmp(t, "1") || !strcmp(t, "2")) {
			o->ends |= *t == '1' ? 1u : 2u;
		} else if ((*t == '-' || *t == '+') &&
			   !parse_time(t + 1, *t == '-' ? &o->before : &o->after)) {
			;
		} else if (!strncmp(t, "hide<", 5) && !parse_time(t + 5, &o->hide)) {
			;
		} else {
			snprintf(err, len,
				 "--detail: '%s' is not -TIME, +TIME, samecpu, samepid, sametid, "
				 "samekey, 1, 2 or hide<TIME",
				 t);
			ret = -1;
			break;
		}
	}
	free(items);
	return ret;
}

struct detail *detail__new(const struct detail_opts *o)
{
	struct detail *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->o = *o;
	d->wait_tail = &d->wait;
	return d;
}

void detail__delete(struct detail *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->cap; i++)
		sample_copy__free(&d->ring[i].copy);
	free(d->ring);
	while (d->wait) {
		struct waiting *w = d->wait;

		d->wait = w->next;
		free(w->header);
		free(w);
	}
	free(d);
}

static struct det_ev *at(const struct detail *d, size_t i)
{
	return &d->ring[(d->head + i) % d->cap];
}

/* Double the ring, oldest first at 0.  -ENOMEM leaves it as it was. */
static int grow(struct detail *d)
{
	size_t cap = d->cap ? d->cap * 2 : 1024;
	struct det_ev *r = calloc(cap, sizeof(*r));

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < d->cap; i++)
		r[i] = *at(d, i); /* the free slots' buffers move too */
	free(d->ring);
	d->ring = r;
	d->head = 0;
	d->bytes += (cap - d->cap) * sizeof(*r); /* the ring counts too */
	d->cap = cap;
	return 0;
}

int detail__add(struct detail *d, struct evsel *ev, const struct sample *smp, u64 key, bool has_key)
{
	struct det_ev *e;
	size_t before;

	if (d->n == d->cap && (d->bytes >= DETAIL_MAX_BYTES || grow(d))) {
		if (!d->n)
			return -ENOMEM;
		/* full: the oldest event goes early */
		d->dropped++;
		d->dropped_time = at(d, 0)->copy.smp.time;
		d->head = (d->head + 1) % d->cap;
		d->n--;
	}
	e = at(d, d->n);
	before = e->copy.cap;
	if (sample_copy__save(&e->copy, smp, true))
		return -ENOMEM;
	d->bytes += e->copy.cap - before;
	e->ev = ev;
	e->key = key;
	e->has_key = has_key;
	d->n++;
	d->since_trim++;
	if (smp->time > d->newest)
		d->newest = smp->time;
	return 0;
}

static bool wanted(const struct detail *d, const struct detail_pair *p, const struct det_ev *e)
{
	const struct sample *smp = &e->copy.smp;
	unsigned which = d->o.ends ? d->o.ends : 3u;
	bool cpu = false, pid = false, tid = false;

	/* "2" alone of a pair ended by a record (no end event): its start's */
	if (!p->has_end_event)
		which = 1;
	for (int i = 0; i < 2; i++) {
		if (!(which & (1u << i)))
			continue;
		cpu |= smp->cpu == p->cpu[i];
		pid |= smp->pid == p->pid[i];
		tid |= smp->tid == p->tid[i];
	}
	return (!d->o.samecpu || cpu) && (!d->o.samepid || pid) && (!d->o.sametid || tid) &&
	       (!d->o.samekey || (e->has_key && e->key == p->key));
}

static void print_one(struct session *s, const struct detail_pair *p, const struct det_ev *e,
		      char mark, FILE *out)
{
	const struct sample *smp = &e->copy.smp;
	char off[32], prefix[48];

	units__fmt_ns(smp->time >= p->start ? smp->time - p->start : p->start - smp->time, off,
		      sizeof(off));
	snprintf(prefix, sizeof(prefix), "%c %c%11s  ", mark, smp->time >= p->start ? '+' : '-',
		 off);
	evline__print(s, e->ev, smp, out, prefix);
}

/*
 * The events of @p's timeline from @from to @to, each through @emit with its
 * mark ('S', 'E' or ' ') and how many hidden events (hide<N: closer than N
 * to the one before) its run folded before it.
 */
struct tl_ent;
struct tl_out {
	struct session *s;
	const struct detail_pair *p;
	FILE *out;
	/* --json: the walk the JSON sink asks for (RT_EACH), each row to @emit */
	struct detail *d;
	u64 from, to;
	rt_emit_fn *emit;
	void *ctx;
};

static void text_one(struct tl_out *o, const struct det_ev *e, char mark, u64 folded)
{
	if (folded)
		fprintf(o->out, "  %12s  ... %llu %s closer than hide<\n", "",
			(unsigned long long)folded, folded == 1 ? "event" : "events, each");
	print_one(o->s, o->p, e, mark, o->out);
}

/*
 * --json: one event of a timeline, an element of its "timeline": its mark,
 * how many closer events it hides, its offset from the pair's start, and
 * the event as the event line has it.
 */
#define TL_NCOLS 4
static const struct rt_col tl_cols[TL_NCOLS] = {
	{ .name = "mark", .type = RT_STR, .flags = RT_OMIT_EMPTY },
	{ .name = "hidden", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_OMIT_ZERO },
	{ .name = "offset_ns", .type = RT_S64, .unit = RT_UNIT_NS },
	{ .type = RT_ROW },
};
static const struct rt_desc tl_desc = { .cols = tl_cols, .ncols = TL_NCOLS };

/*
 * --json: the timeline's line, {"type":"slow", the pair's members (the
 * header), "truncated_ns" (when events left the full window), "timeline"}.
 */
static const struct rt_col slow_cols[] = {
	{ .type = RT_JSON },
	{ .name = "truncated_ns", .type = RT_S64, .unit = RT_UNIT_NS, .flags = RT_OMIT_EMPTY },
	{ .name = "timeline", .type = RT_EACH },
};
static const struct rt_desc slow_desc = { .type = "slow", .cols = slow_cols, .ncols = 3 };

/* What a timeline's row points to, while the sink writes it. */
struct tl_ent {
	struct rt_val ev[EVL_NCOLS];
	struct rt_stack stk;
	char mark[2];
	char comm[EVL_COMM_LEN];
};

/* --json: an event of the timeline, written at once (a timeline can be long) */
static void row_one(struct tl_out *o, const struct det_ev *e, char mark, u64 folded)
{
	const struct sample *smp = &e->copy.smp;
	struct tl_ent t = { .mark = { mark } };
	struct rt_val v[TL_NCOLS];

	evline__row_kept(t.ev, &t.stk, t.comm, o->s, e->ev, smp, NULL);
	v[0] = (struct rt_val){ .s = mark != ' ' ? t.mark : NULL };
	v[1] = (struct rt_val){ .u = folded };
	v[2] = (struct rt_val){ .i = (int64_t)(smp->time - o->p->start) };
	v[3] = (struct rt_val){ .row = { &evline_desc, t.ev } };
	o->emit(o->ctx, &tl_desc, v);
}

static void walk_timeline(struct detail *d, const struct detail_pair *p, u64 from, u64 to,
			  void (*emit)(struct tl_out *, const struct det_ev *, char, u64),
			  struct tl_out *o)
{
	u64 hidden = 0, prev_time = 0;
	const struct det_ev *last_hidden = NULL;
	bool first = true;

	for (size_t i = 0; i < d->n; i++) {
		const struct det_ev *e = at(d, i);
		const struct sample *smp = &e->copy.smp;
		bool is_start = smp->time == p->start && smp->tid == p->tid[0];
		bool is_end = p->has_end_event && smp->time == p->end && smp->tid == p->tid[1];
		char mark = is_start ? 'S' : is_end ? 'E' : ' ';

		if (smp->time < from)
			continue;
		if (smp->time > to)
			break;
		if (!is_start && !is_end && !wanted(d, p, e))
			continue;
		/* hide<N: an event close to the one before joins its run */
		if (d->o.hide && !first && mark == ' ' && smp->time - prev_time < d->o.hide) {
			hidden++;
			last_hidden = e;
			prev_time = smp->time;
			continue;
		}
		/* a run of hidden events ends: "... N more", then its last */
		if (hidden)
			emit(o, last_hidden, ' ', hidden - 1);
		hidden = 0;
		emit(o, e, mark, 0);
		prev_time = smp->time;
		first = false;
	}
	if (hidden)
		emit(o, last_hidden, ' ', hidden - 1);
}

/* RT_EACH: the timeline's rows, as the JSON sink writes them */
static void each_event(void *arg, rt_emit_fn *emit, void *ctx)
{
	struct tl_out *o = arg;

	o->emit = emit;
	o->ctx = ctx;
	walk_timeline(o->d, o->p, o->from, o->to, row_one, o);
}

/* --json: the timeline's line, its events written as they are walked */
static int json_timeline(struct detail *d, const struct detail_pair *p, u64 from, u64 to,
			 const char *header, struct tl_out *o)
{
	o->d = d;
	o->from = from;
	o->to = to;
	rtable__record(o->out, true, &slow_desc,
		       (struct rt_val[]){ { .s = header },
					  { .i = (int64_t)(d->dropped_time - p->start),
					    .null = !d->dropped || d->dropped_time < from },
					  { .each = { each_event, o } } });
	return 0;
}

static int print_timeline(struct detail *d, struct session *s, const struct detail_pair *p,
			  const char *header)
{
	u64 from = p->start > d->o.before ? p->start - d->o.before : 0;
	u64 to = p->end + d->o.after;
	struct tl_out o = { .s = s, .p = p, .out = session__out(s) };

	if (session__json(s))
		return json_timeline(d, p, from, to, header, &o);
	fprintf(o.out, "%s\n", header);
	if (d->dropped && d->dropped_time >= from)
		fprintf(o.out, "  (events before %+.6fs from the start left the full window)\n",
			((double)d->dropped_time - (double)p->start) / 1e9);
	walk_timeline(d, p, from, to, text_one, &o);
	return 0;
}

int detail__pair(struct detail *d, struct session *s, const struct detail_pair *p,
		 const char *header)
{
	struct waiting *w;

	if (!d->o.after || d->newest >= p->end + d->o.after)
		return print_timeline(d, s, p, header);
	w = calloc(1, sizeof(*w));
	if (!w || !(w->header = strdup(header))) {
		free(w);
		print_timeline(d, s, p, header); /* without what came after */
		return -ENOMEM;
	}
	w->p = *p;
	*d->wait_tail = w;
	d->wait_tail = &w->next;
	return 0;
}

int detail__flush(struct detail *d, struct session *s, bool all)
{
	int ret = 0;

	/* waiting pairs are in order of their ends: the first not covered stops it */
	while (d->wait && (all || d->newest >= d->wait->p.end + d->o.after)) {
		struct waiting *w = d->wait;

		if (print_timeline(d, s, &w->p, w->header))
			ret = -ENOMEM;
		d->wait = w->next;
		if (!d->wait)
			d->wait_tail = &d->wait;
		free(w->header);
		free(w);
	}
	return ret;
}

u64 detail__oldest_needed(const struct detail *d)
{
	u64 oldest = UINT64_MAX;

	for (const struct waiting *w = d->wait; w; w = w->next)
		if (w->p.start < oldest)
			oldest = w->p.start;
	if (oldest != UINT64_MAX)
		oldest = oldest > d->o.before ? oldest - d->o.before : 0;
	return oldest;
}

void detail__trim(struct detail *d, u64 horizon)
{
	while (d->n && at(d, 0)->copy.smp.time < horizon) {
		d->head = (d->head + 1) % d->cap;
		d->n--;
	}
	d->since_trim = 0;
}

bool detail__trim_due(const struct detail *d)
{
	return d->since_trim >= TRIM_EVERY;
}

u64 detail__dropped(const struct detail *d)
{
	return d->dropped;
}

/* Text: a sentence; JSON: {"type":"dropped","what":"detail_events","full":N}. */
static const struct rt_col drop_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	RT_COL("what", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("full", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
};

void detail__emit_drops(const struct detail *d, struct rt_sink *k, const char *who)
{
	static const struct rt_desc desc = { .type = "dropped", .cols = drop_cols, .ncols = 3 };
	char text[160];

	snprintf(text, sizeof(text),
		 "%s: %llu events left the --detail window early (over %u MiB of open pairs' "
		 "events)",
		 who, (unsigned long long)d->dropped, DETAIL_MAX_BYTES >> 20);
	rtable__begin(k, &desc);
	if (d->dropped)
		rtable__row(k, (struct rt_val[]){ { .s = text },
						  { .s = "detail_events" },
						  { .u = d->dropped } });
	rtable__end(k);
}
