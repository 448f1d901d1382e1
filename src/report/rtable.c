// SPDX-License-Identifier: GPL-2.0
/* One description per report, rendered by sinks: see rtable.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/hist.h"
#include "report/log2_hist.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "engine/session.h"
#include "sym/stack.h"
#include "util/json.h"
#include "util/units.h"

/* rtable__tap: the text and JSON sinks on these streams render into other sinks. */
static struct rt_tap {
	FILE *fp;
	struct rt_sink *to;
} * taps;
static int nr_taps, cap_taps;

static const struct rt_sink_ops text_ops, json_ops;

int rtable__tap(FILE *fp, struct rt_sink *to)
{
	for (int i = 0; i < nr_taps; i++)
		if (taps[i].fp == fp) {
			if (to) {
				taps[i].to = to;
				return 0;
			}
			taps[i] = taps[--nr_taps];
			if (!nr_taps) {
				free(taps);
				taps = NULL;
				cap_taps = 0;
			}
			return 0;
		}
	if (!to)
		return 0;
	if (nr_taps == cap_taps) {
		int cap = cap_taps ? 2 * cap_taps : 8;
		struct rt_tap *n = realloc(taps, cap * sizeof(*taps));

		if (!n)
			return -ENOMEM;
		taps = n;
		cap_taps = cap;
	}
	taps[nr_taps].fp = fp;
	taps[nr_taps++].to = to;
	return 0;
}

static struct rt_sink *tap_of(const struct rt_sink *k)
{
	FILE *fp;

	if (!nr_taps)
		return NULL;
	if (k->ops == &text_ops)
		fp = ((const struct rt_text *)k)->fp;
	else if (k->ops == &json_ops)
		fp = ((const struct rt_json *)k)->fp;
	else
		return NULL;
	for (int i = 0; i < nr_taps; i++)
		if (taps[i].fp == fp)
			return taps[i].to;
	return NULL;
}

void rtable__fit(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v)
{
	if (k->ops->fit && !tap_of(k))
		k->ops->fit(k, d, v);
}

void rtable__begin(struct rt_sink *k, const struct rt_desc *d)
{
	k->desc = d;
	k->tap = tap_of(k);
	if (k->tap)
		rtable__begin(k->tap, d);
	else if (k->ops->begin)
		k->ops->begin(k, d);
}

void rtable__row(struct rt_sink *k, const struct rt_val *v)
{
	if (k->tap)
		rtable__row(k->tap, v);
	else
		k->ops->row(k, k->desc, v);
}

void rtable__end(struct rt_sink *k)
{
	if (k->tap)
		rtable__end(k->tap);
	else if (k->ops->end)
		k->ops->end(k, k->desc);
	k->desc = NULL;
	k->tap = NULL;
}

void rtable__one(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v)
{
	rtable__begin(k, d);
	rtable__row(k, v);
	rtable__end(k);
}

void rtable__record(FILE *fp, bool json, const struct rt_desc *d, const struct rt_val *v)
{
	union rt_sinks u;

	rtable__one(json ? rt_json__init(&u.json, fp, NULL) : rt_text__init(&u.text, fp), d, v);
}

/* The statistics of a struct hist, in their order: total, min, avg (rounded), p50, p95, p99, max. */
#define NR_STATS 7
static const char *const stats_titles[NR_STATS] = { "total", "min", "avg", "p50",
						    "p95",   "p99", "max" };
static const char *const stats_ns[NR_STATS] = { "total_ns", "min_ns", "avg_ns", "p50_ns",
						"p95_ns",   "p99_ns", "max_ns" };

static void stats_of(const struct hist *h, uint64_t *v, double *mean)
{
	*mean = hist__mean(h);
	v[0] = hist__sum(h);
	v[1] = hist__min(h);
	v[2] = (uint64_t)(*mean + 0.5);
	v[3] = hist__quantile(h, 0.50);
	v[4] = hist__quantile(h, 0.95);
	v[5] = hist__quantile(h, 0.99);
	v[6] = hist__max(h);
}

/* RT_STACK: stacks not resolved, or the sample has none */
static bool no_stack(const struct rt_val *v)
{
	const struct rt_stack *st = v->stk;

	if (!st || !st->ctx)
		return true;
	return st->smp ? !st->smp->nr_ips && !st->smp->stack : st->nf <= 0;
}

static bool empty(const struct rt_col *c, const struct rt_val *v)
{
	if ((c->flags & RT_OMIT_ZERO) &&
	    (c->type == RT_U64 || c->type == RT_NS || c->type == RT_HEX || c->type == RT_S64))
		return v->null || !v->u;
	if (!(c->flags & RT_OMIT_EMPTY))
		return false;
	switch (c->type) {
	case RT_STATS:
		return !v->h || !hist__count(v->h);
	case RT_LOG2:
		return !v->l2 || !log2_hist__count(v->l2);
	case RT_STR:
		return !v->s && !v->null;
	case RT_JSON:
		return !v->s;
	case RT_STACK:
		return no_stack(v);
	case RT_ROW:
		return !v->row.v;
	default:
		return v->null;
	}
}

char *rt_cell(const struct rt_col *c, const struct rt_val *v, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	if (v->null && c->type != RT_STR) {
		snprintf(buf, len, "%s", (c->flags & RT_NULL_BLANK) ? "" : "-");
		return buf;
	}
	switch (c->type) {
	case RT_STR:
		if ((c->flags & RT_EMPTY_NULL) && (!v->s || !*v->s))
			snprintf(buf, len, "-");
		else
			snprintf(buf, len, "%s", v->s ? v->s : "");
		break;
	case RT_U64:
		if (c->flags & RT_PCT_OF)
			snprintf(buf, len, "%" PRIu64 " (%.1f%%)", v->u,
				 v->n ? 100.0 * v->u / v->n : 0.0);
		else
			snprintf(buf, len, "%" PRIu64, v->u);
		break;
	case RT_S64:
		snprintf(buf, len, "%" PRId64, v->i);
		break;
	case RT_F64:
		if ((c->flags & RT_NAN_DASH) && !isfinite(v->d))
			snprintf(buf, len, "-");
		else
			snprintf(buf, len, "%.*f%s", c->decimals, v->d,
				 (c->flags & RT_PCT_SIGN) ? "%" : "");
		break;
	case RT_BOOL:
		snprintf(buf, len, "%s", v->b ? "yes" : "no");
		break;
	case RT_HEX:
		snprintf(buf, len, "%#" PRIx64, v->u);
		break;
	case RT_NS:
		units__fmt_ns(v->u, buf, len);
		break;
	case RT_STRS:
		for (uint64_t i = 0; i < v->n && n + 1 < len; i++)
			n += snprintf(buf + n, len - n, "%s%s", i ? ";" : "", v->sv[i]);
		break;
	default:
		break;
	}
	return buf;
}

/* --- the text table --- */

static struct rt_text *text_of(struct rt_sink *k)
{
	return (struct rt_text *)k;
}

static bool text_col(const struct rt_col *c)
{
	return !(c->flags & (RT_NO_TEXT | RT_SUBROW)) && c->type != RT_LOG2 && c->type != RT_JSON &&
	       c->type != RT_STACK && c->type != RT_FIELDS && c->type != RT_ROW &&
	       c->type != RT_ROWS && c->type != RT_EACH && c->type != RT_NUMS;
}

/* RT_EACH's rows into the JSON array */
static void each_row(void *ctx, const struct rt_desc *d, const struct rt_val *v)
{
	struct json *j = ctx;

	json__obj(j, NULL);
	rt_json__members(j, d, v);
	json__close(j);
}

static int text_width(const struct rt_text *t, int i, const struct rt_col *c)
{
	int w = c->width;

	if ((c->flags & RT_FIT) && i < RT_MAX_COLS && t->w[i] > w)
		w = t->w[i];
	return w;
}

static void put(struct rt_text *t, bool *first, bool left, int w, const char *s)
{
	fprintf(t->fp, left ? "%s%-*s" : "%s%*s", *first ? "" : " ", w, s);
	*first = false;
}

/* RT_GAP: the second space before a column's cell (or title). */
static void gap(struct rt_text *t, bool first, const struct rt_col *c)
{
	if (!first && (c->flags & RT_GAP))
		fputc(' ', t->fp);
}

/* The cells of a histogram's statistics: calls, then times (unit ns) or plain numbers. */
static void put_stats(struct rt_text *t, bool *first, const struct rt_col *c, const struct hist *h)
{
	bool ns = c->unit == RT_UNIT_NS;
	uint64_t v[NR_STATS];
	char buf[32];
	double mean;

	stats_of(h, v, &mean);
	snprintf(buf, sizeof(buf), "%" PRIu64, hist__count(h));
	put(t, first, false, RT_STATS_WIDTH - 1, buf);
	for (int i = 0; i < NR_STATS; i++) {
		if (ns)
			units__fmt_ns(v[i], buf, sizeof(buf));
		else if (i == 2)
			snprintf(buf, sizeof(buf), "%.2f", mean);
		else
			snprintf(buf, sizeof(buf), "%" PRIu64, v[i]);
		put(t, first, false, RT_STATS_WIDTH, buf);
	}
}

/* An RT_STACK's frames under the row, indented by the column's width (rtable.h). */
static void text_stack(struct rt_text *t, const struct rt_col *c, const struct rt_stack *st)
{
	char ind[64];
	int w = c->width < (int)sizeof(ind) ? c->width : (int)sizeof(ind) - 1;

	memset(ind, ' ', (size_t)w);
	ind[w] = 0;
	if (st && st->ctx && st->smp) {
		stack__print(st->ctx, st->smp, t->fp, ind);
		return;
	}
	if (st && st->ctx && st->nf > 0) {
		stack__print_frames(st->ctx, st->fr, st->nf, t->fp, ind);
		return;
	}
	if (c->title && *c->title)
		fprintf(t->fp, "%s%s\n", ind, c->title);
}

static void text_fit(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v)
{
	struct rt_text *t = text_of(k);
	char buf[256];

	for (int i = 0; i < d->ncols && i < RT_MAX_COLS; i++) {
		const struct rt_col *c = &d->cols[i];
		int l;

		if (!(c->flags & RT_FIT) || !text_col(c) || c->type == RT_STATS)
			continue;
		l = (int)strlen(rt_cell(c, &v[i], buf, sizeof(buf)));
		if (l > t->w[i])
			t->w[i] = l;
	}
}

static void text_begin(struct rt_sink *k, const struct rt_desc *d)
{
	struct rt_text *t = text_of(k);
	bool first = true;

	t->rows = 0;
	for (int i = 0; i < d->ncols && i < RT_MAX_COLS; i++) {
		int l = d->cols[i].title ? (int)strlen(d->cols[i].title) : 0;

		if ((d->cols[i].flags & RT_FIT) && l > t->w[i])
			t->w[i] = l;
	}
	if (t->no_header)
		return;
	for (int i = 0; i < d->ncols; i++) {
		const struct rt_col *c = &d->cols[i];

		if (text_col(c) && (c->type == RT_STATS || (c->title && *c->title)))
			break;
		if (i == d->ncols - 1)
			return; /* no titles: no header */
	}
	for (int i = 0; i < d->ncols; i++) {
		const struct rt_col *c = &d->cols[i];

		if (!text_col(c))
			continue;
		if (c->type == RT_STATS) {
			put(t, &first, false, RT_STATS_WIDTH - 1, "calls");
			for (int s = 0; s < NR_STATS; s++)
				put(t, &first, false, RT_STATS_WIDTH, stats_titles[s]);
			continue;
		}
		if ((c->flags & RT_TAIL) && (!c->title || !*c->title))
			continue;
		gap(t, first, c);
		put(t, &first, c->flags & RT_LEFT, text_width(t, i, c), c->title ? c->title : "");
	}
	fputc('\n', t->fp);
}

static void text_row(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v)
{
	struct rt_text *t = text_of(k);
	bool first = true;
	char buf[256];
	const char *cell;
	int w0 = -1;

	if (t->max_rows && t->rows++ >= t->max_rows)
		return;
	for (int i = 0; i < d->ncols; i++) {
		const struct rt_col *c = &d->cols[i];

		if (!text_col(c) || (c->flags & RT_HEAD_ONLY))
			continue;
		if (c->type == RT_STR && !(c->flags & RT_EMPTY_NULL) && empty(c, &v[i]))
			continue;
		if (c->type == RT_STATS) {
			gap(t, first, c);
			put_stats(t, &first, c, v[i].h);
			continue;
		}
		if (c->type == RT_STR && !(c->flags & RT_EMPTY_NULL) && !v[i].null)
			cell = v[i].s ? v[i].s : ""; /* as it is, whatever its length: a sentence */
		else
			cell = rt_cell(c, &v[i], buf, sizeof(buf));
		if (!*cell && (c->flags & RT_TAIL))
			continue;
		gap(t, first, c);
		put(t, &first, c->flags & RT_LEFT, text_width(t, i, c), cell);
	}
	if (!first)
		fputc('\n', t->fp);
	/* sub-rows: "  TITLE" across the columns before the statistics, then the statistics */
	for (int i = 0; i < d->ncols && i < RT_MAX_COLS; i++) {
		if (d->cols[i].type == RT_STATS)
			break;
		if (text_col(&d->cols[i]))
			w0 += 1 + text_width(t, i, &d->cols[i]);
	}
	for (int i = 0; i < d->ncols; i++) {
		const struct rt_col *c = &d->cols[i];

		if (!(c->flags & RT_SUBROW) || c->type != RT_STATS || !v[i].h || empty(c, &v[i]))
			continue;
		snprintf(buf, sizeof(buf), "  %-*s", w0 > 2 ? w0 - 2 : 0, c->title ? c->title : "");
		first = true;
		put(t, &first, true, 0, buf);
		put_stats(t, &first, c, v[i].h);
		fputc('\n', t->fp);
	}
	for (int i = 0; i < d->ncols; i++)
		if (d->cols[i].type == RT_STACK && !(d->cols[i].flags & RT_NO_TEXT) &&
		    !empty(&d->cols[i], &v[i]))
			text_stack(t, &d->cols[i], v[i].stk);
}

static void text_end(struct rt_sink *k, const struct rt_desc *d)
{
	struct rt_text *t = text_of(k);

	(void)d;
	if (t->max_rows && t->rows > t->max_rows)
		fprintf(t->fp, "... %d more\n", t->rows - t->max_rows);
}

int rt_text__line(const struct rt_col *c, int n, const struct rt_val *v, char *buf, size_t len)
{
	size_t at = 0;
	char cell[256];
	bool first = true;

	buf[0] = 0;
	for (int i = 0; i < n && at < len; i++) {
		const char *s = v ? rt_cell(&c[i], &v[i], cell, sizeof(cell)) : c[i].title;

		if (!text_col(&c[i]) || c[i].type == RT_STATS)
			continue;
		at += snprintf(buf + at, len - at, (c[i].flags & RT_LEFT) ? "%s%s%-*s" : "%s%s%*s",
			       first ? "" : " ", !first && (c[i].flags & RT_GAP) ? " " : "",
			       c[i].width, s ? s : "");
		first = false;
	}
	return at < len ? (int)at : (int)len - 1;
}

static const struct rt_sink_ops text_ops = {
	.fit = text_fit,
	.begin = text_begin,
	.row = text_row,
	.end = text_end,
};

struct rt_sink *rt_text__init(struct rt_text *t, FILE *fp)
{
	memset(t, 0, sizeof(*t));
	t->sink.ops = &text_ops;
	t->fp = fp;
	return &t->sink;
}

/* --- JSON lines --- */

static void jl_stats(struct json *j, const struct hist *h, bool ns)
{
	uint64_t v[NR_STATS];
	double mean;

	stats_of(h, v, &mean);
	json__u64(j, "count", hist__count(h));
	for (int i = 0; i < NR_STATS; i++) {
		if (i == 2 && !ns)
			json__f64(j, stats_titles[i], mean);
		else
			json__u64(j, ns ? stats_ns[i] : stats_titles[i], v[i]);
	}
}

static void jl_log2(struct json *j, const char *key, const struct log2_hist *h, bool ns)
{
	json__arr(j, key);
	for (int i = 0; i < LOG2_SLOTS; i++) {
		if (!h->slot[i])
			continue;
		json__obj(j, NULL);
		json__u64(j, ns ? "lo_ns" : "lo", i ? 1ull << i : 0);
		json__u64(j, ns ? "hi_ns" : "hi", i == 63 ? UINT64_MAX : (uint64_t)(2ull << i) - 1);
		json__u64(j, "count", h->slot[i]);
		json__close(j);
	}
	json__close(j);
}

static void jl_member(struct json *j, const struct rt_col *c, const struct rt_val *v)
{
	bool ns = c->unit == RT_UNIT_NS;

	if (v->null && c->type != RT_STATS && c->type != RT_LOG2 && c->type != RT_JSON) {
		json__null(j, c->name);
		return;
	}
	switch (c->type) {
	case RT_STR:
		if ((c->flags & RT_EMPTY_NULL) && (!v->s || !*v->s))
			json__null(j, c->name);
		else if (v->num && v->real)
			json__f64(j, c->name, v->d);
		else if (v->num)
			json__i64(j, c->name, v->i);
		else
			json__str(j, c->name, v->s);
		break;
	case RT_U64:
	case RT_NS:
		json__u64(j, c->name, v->u);
		break;
	case RT_S64:
		json__i64(j, c->name, v->i);
		break;
	case RT_F64:
		json__f64(j, c->name, v->d);
		break;
	case RT_BOOL:
		json__bool(j, c->name, v->b);
		break;
	case RT_HEX:
		json__hex(j, c->name, v->u);
		break;
	case RT_STATS:
		if (!v->h)
			break;
		if (c->name)
			json__obj(j, c->name);
		jl_stats(j, v->h, ns);
		if (c->name)
			json__close(j);
		break;
	case RT_LOG2:
		if (v->l2)
			jl_log2(j, c->name, v->l2, ns);
		break;
	case RT_STRS:
		json__arr(j, c->name);
		for (uint64_t i = 0; i < v->n; i++)
			json__str(j, NULL, v->sv[i]);
		json__close(j);
		break;
	case RT_NUMS:
		json__arr(j, c->name);
		for (uint64_t i = 0; i < v->n; i++) {
			double d = v->dv[i];

			if (!isfinite(d))
				json__null(j, NULL);
			else if (d == trunc(d) && fabs(d) < 9007199254740992.0)
				json__i64(j, NULL, (int64_t)d);
			else
				json__f64(j, NULL, d);
		}
		json__close(j);
		break;
	case RT_JSON:
		if (v->s)
			json__raw(j, v->s);
		break;
	case RT_STACK:
		if (!v->stk || !v->stk->ctx)
			break;
		if (v->stk->smp)
			stack__json(v->stk->ctx, v->stk->smp, j, c->name);
		else
			stack__json_frames(v->stk->ctx, v->stk->fr, v->stk->nf, j, c->name);
		break;
	case RT_FIELDS:
		evsel__json_fields((struct evsel *)v->rec.of, v->rec.smp, j, c->name);
		break;
	case RT_ROW:
		if (!v->row.v) {
			if (c->name)
				json__null(j, c->name);
			break;
		}
		if (c->name)
			json__obj(j, c->name);
		rt_json__members(j, v->row.d, v->row.v);
		if (c->name)
			json__close(j);
		break;
	case RT_ROWS:
		json__arr(j, c->name);
		for (uint64_t i = 0; i < v->n; i++)
			each_row(j, v->row.d, v->row.v + i * (size_t)v->row.d->ncols);
		json__close(j);
		break;
	case RT_EACH:
		json__arr(j, c->name);
		if (v->each.fn)
			v->each.fn(v->each.arg, each_row, j);
		json__close(j);
		break;
	}
}

void rt_json__members(struct json *j, const struct rt_desc *d, const struct rt_val *v)
{
	const char *obj = NULL;

	for (int i = 0; i < d->ncols; i++) {
		const struct rt_col *c = &d->cols[i];

		if ((c->flags & (RT_NO_JSON | RT_OMIT_EMPTY | RT_OMIT_ZERO)) &&
		    ((c->flags & RT_NO_JSON) || empty(c, &v[i])))
			continue;
		if (c->obj != obj && (!c->obj || !obj || strcmp(c->obj, obj))) {
			if (obj)
				json__close(j);
			if (c->obj)
				json__obj(j, c->obj);
			obj = c->obj;
		}
		jl_member(j, c, &v[i]);
	}
	if (obj)
		json__close(j);
}

char *rt_json__frag(const struct rt_desc *d, const struct rt_val *v)
{
	struct json j;

	if (json__frag_begin(&j))
		return NULL;
	rt_json__members(&j, d, v);
	return json__frag_end(&j);
}

static void jl_row(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v)
{
	struct rt_json *o = (struct rt_json *)k;
	struct json j;

	for (int i = 0; i < d->ncols; i++)
		if ((d->cols[i].flags & RT_ROW_IF) && !v[i].b)
			return;
	json__begin(&j, o->fp, d->type);
	if (o->stamp)
		stats_stamp__json(&j, o->stamp);
	rt_json__members(&j, d, v);
	json__end(&j);
}

static const struct rt_sink_ops json_ops = {
	.row = jl_row,
};

struct rt_sink *rt_json__init(struct rt_json *j, FILE *fp, const struct stats_stamp *stamp)
{
	memset(j, 0, sizeof(*j));
	j->sink.ops = &json_ops;
	j->fp = fp;
	j->stamp = stamp;
	return &j->sink;
}

/* Append "%s" to @buf at @at (cut at @len), a space before all but the first word. */
static size_t word(char *buf, size_t len, size_t at, const char *pre, const char *name,
		   const char *val)
{
	int n = snprintf(buf + at, len - at, "%s%s%s=%s", at ? " " : "", pre, name, val);

	return n < 0 ? at : at + (size_t)n < len ? at + (size_t)n : len - 1;
}

size_t rt_fields__text(const struct rt_desc *d, const struct rt_val *v, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int i = 0; i < d->ncols; i++) {
		const struct rt_col *c = &d->cols[i];
		char cell[256], pre[64] = "";
		const char *t;

		if ((c->flags & RT_NO_JSON) || (!c->name && c->type != RT_STATS) ||
		    ((c->flags & (RT_OMIT_EMPTY | RT_OMIT_ZERO)) && empty(c, &v[i])))
			continue;
		if (c->type == RT_STATS) {
			uint64_t s[NR_STATS];
			double mean;

			if (!v[i].h)
				continue;
			if (c->name)
				snprintf(pre, sizeof(pre), "%s_", c->name);
			stats_of(v[i].h, s, &mean);
			snprintf(cell, sizeof(cell), "%" PRIu64, hist__count(v[i].h));
			at = word(buf, len, at, pre, "calls", cell);
			for (int k = 0; k < NR_STATS; k++) {
				if (c->unit == RT_UNIT_NS)
					units__fmt_ns(s[k], cell, sizeof(cell));
				else if (k == 2)
					snprintf(cell, sizeof(cell), "%.2f", mean);
				else
					snprintf(cell, sizeof(cell), "%" PRIu64, s[k]);
				at = word(buf, len, at, pre, stats_titles[k], cell);
			}
			continue;
		}
		if (c->type > RT_NS) /* histograms, arrays, stacks, records: JSON only */
			continue;
		if (c->type == RT_STR && !v[i].null && !v[i].num)
			t = v[i].s ? v[i].s : "";
		else
			t = rt_cell(c, &v[i], cell, sizeof(cell));
		while (*t == ' ')
			t++;
		at = word(buf, len, at, "", c->name, t);
	}
	return at;
}
