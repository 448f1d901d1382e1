// SPDX-License-Identifier: GPL-2.0
/* multi-trace --impl pair: the pairs left open (mp_pair.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/latency/mp_pair.h"
#include "report/rtable.h"
#include "report/stats_table.h"

struct open_pair {
	u64 key, start;
	struct evsel *ev;
	const struct sample *smp;
};

struct open_list {
	struct open_pair *v;
	size_t n, cap;
	bool nomem;
};

static void collect(u64 key, u64 start, struct evsel *ev, const struct sample *smp, void *arg)
{
	struct open_list *l = arg;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct open_pair *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->nomem = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct open_pair){ key, start, ev, smp };
}

static int by_start(const void *a, const void *b)
{
	const struct open_pair *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static const struct rt_col sum_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	RT_COL("from", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("to", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("time_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("opened", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("closed", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("unopened", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("open", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("dropped_at_loss", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("closed_after_loss", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
};
static const struct rt_desc sum_desc = { .type = "pairs", .cols = sum_cols, .ncols = 10 };

static const struct rt_col open_cols[] = {
	RT_COL("from", NULL, RT_STR, RT_UNIT_NONE, 0, 0),
	RT_COL("to", NULL, RT_STR, RT_UNIT_NONE, 0, 0),
	RT_COL("key", NULL, RT_U64, RT_UNIT_NONE, 0, 0),
	RT_COL("time_ns", NULL, RT_U64, RT_UNIT_NS, 0, 0),
	RT_COL("age_ns", NULL, RT_U64, RT_UNIT_NS, 0, 0),
};
static const struct rt_desc open_desc = { .type = "open", .cols = open_cols, .ncols = 5 };

static void report_point(struct multipoint *mt, struct session *s, int k, int to)
{
	FILE *out = session__out(s);
	bool json = multipoint__json(mt);
	const char *from_name = multipoint__point_name(mt, k);
	const char *to_name = multipoint__point_name(mt, to);
	struct open_list l = { 0 };
	u64 opened, closed, unopened, lost, lost_closed, now = session__now(s);
	char text[2 * MULTIPOINT_NAME + 256];
	int n;

	multipoint__for_each_open(mt, k, collect, &l);
	multipoint__pair_counts(mt, k, &opened, &closed, &unopened, &lost, &lost_closed);
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), by_start);
	n = snprintf(text, sizeof(text),
		     "%s => %s: %" PRIu64 " opened, %" PRIu64 " closed, %" PRIu64
		     " closed without an open, %zu open",
		     from_name, to_name, opened, closed, unopened, l.n);
	/* lost records: which opens lack their close is unknown, those are not listed */
	if ((lost || lost_closed) && n > 0 && (size_t)n < sizeof(text))
		snprintf(text + n, sizeof(text) - (size_t)n,
			 "; %" PRIu64 " open dropped at lost records, %" PRIu64
			 " closes of opens dropped so",
			 lost, lost_closed);
	rtable__record(out, json, &sum_desc,
		       (struct rt_val[]){ { .s = text },
					  { .s = from_name },
					  { .s = to_name },
					  { .u = session__wall_ns(s, now) },
					  { .u = opened },
					  { .u = closed },
					  { .u = unopened },
					  { .u = l.n },
					  { .u = lost },
					  { .u = lost_closed } });
	for (size_t i = 0; i < l.n; i++) {
		const struct open_pair *p = &l.v[i];
		u64 age = now > p->start ? now - p->start : 0;
		char abuf[32];

		if (json) {
			rtable__record(out, true, &open_desc,
				       (struct rt_val[]){ { .s = from_name },
							  { .s = to_name },
							  { .u = p->key },
							  { .u = session__wall_ns(s, p->start) },
							  { .u = age } });
			continue;
		}
		/* keys as the table prints them: above 32 bits (a pointer) in hex */
		if (p->key > 0xffffffffULL)
			fprintf(out, "open %s key %#" PRIx64 "\n",
				stats_table__fmt_ns(age, abuf, sizeof(abuf)), p->key);
		else
			fprintf(out, "open %s key %" PRIu64 "\n",
				stats_table__fmt_ns(age, abuf, sizeof(abuf)), p->key);
		if (p->smp)
			multipoint__print_event(s, p->ev, p->smp, out);
	}
	if (l.nomem)
		session__warn(s, "out of memory: some open pairs are not listed");
	free(l.v);
}

void mp_pair__report(struct multipoint *mt, void *arg, struct session *s)
{
	(void)arg;
	for (int k = 0; k < multipoint__nr_points(mt); k++)
		if (multipoint__opens(mt, k))
			report_point(mt, s, k, (k + 1) % multipoint__nr_points(mt));
}
