// SPDX-License-Identifier: GPL-2.0
/* The latency engine of the pairing profilers: see mtrace.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mtrace.h"
#include "analysis/pairs.h"
#include "report/evline.h"
#include "report/stats_table.h"
#include "sym/stack.h"

/* A pending start (the pairs payload). */
struct mt_start {
	struct evsel *ev;
	struct sample_copy copy; /* kept with --than: the start event, to print */
	u64 data[MTRACE_DATA];
};

struct mtrace {
	struct mtrace_conf conf;
	struct lat_opts lat;
	bool keep; /* keep start samples */
	char names[MTRACE_MAX_POINTS][MTRACE_NAME];
	char briefs[MTRACE_MAX_POINTS][MTRACE_NAME];
	char labels[MTRACE_MAX_POINTS][LAT_LABEL - 16]; /* "A => B" from each point */
	int label_width;
	struct pairs *store[MTRACE_MAX_POINTS]; /* store[k]: pairs from point k */
	struct lat_table *table;		/* made at the first pair */
	bool failed_alloc;
};

static const struct popt lat_popts[] = {
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "print both events of each pair slower than TIME and count them (ns/us/ms/s; "
		  "a bare number is ms)",
	  POPT_BIND_TIME(struct lat_opts, than, "ms") },
	{ .lname = "perins",
	  .help = "a row per key too (thread, CPU or key=)",
	  POPT_BIND_FLAG(struct lat_opts, perins) },
	{ .lname = "hist",
	  .help = "a log2 histogram of each row's latencies",
	  POPT_BIND_FLAG(struct lat_opts, hist) },
	{ 0 },
};

static const struct popt lat_popts_us[] = {
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "print both events of each pair slower than TIME and count them (ns/us/ms/s; "
		  "a bare number is us, as the original's)",
	  POPT_BIND_TIME(struct lat_opts, than, "us") },
	{ .lname = "perins",
	  .help = "a row per key too (thread or CPU)",
	  POPT_BIND_FLAG(struct lat_opts, perins) },
	{ .lname = "hist",
	  .help = "a log2 histogram of each row's latencies",
	  POPT_BIND_FLAG(struct lat_opts, hist) },
	{ 0 },
};

const struct opt_group lat_group = {
	.name = "latency",
	.opts = lat_popts,
	.size = sizeof(struct lat_opts),
};

const struct opt_group lat_group_us = {
	.name = "latency",
	.opts = lat_popts_us,
	.size = sizeof(struct lat_opts),
};

static void start_free(void *payload)
{
	sample_copy__free(&((struct mt_start *)payload)->copy);
}

struct mtrace *mtrace__new(struct session *s, const struct mtrace_conf *conf)
{
	struct mtrace *mt = calloc(1, sizeof(*mt));

	if (!mt) {
		session__set_err(s, -ENOMEM, "out of memory");
		return NULL;
	}
	mt->conf = *conf;
	if (conf->lat)
		mt->lat = *conf->lat;
	mt->conf.lat = &mt->lat;
	mt->keep = conf->keep_start || mt->lat.than;
	if (conf->nr_points < 2 || conf->nr_points > MTRACE_MAX_POINTS) {
		free(mt);
		session__usage_err(s, "%d points: give 2 to %d", conf->nr_points,
				   MTRACE_MAX_POINTS);
		return NULL;
	}
	for (int k = 0; k < conf->nr_points; k++) {
		if (!mtrace__opens(mt, k))
			continue;
		mt->store[k] =
			pairs__new(&(struct pairs_conf){ .payload_size = sizeof(struct mt_start),
							 .max_keys = MTRACE_MAX_KEYS,
							 .payload_free = start_free });
		if (!mt->store[k]) {
			mtrace__delete(mt);
			session__set_err(s, -ENOMEM, "out of memory");
			return NULL;
		}
	}
	return mt;
}

void mtrace__delete(struct mtrace *mt)
{
	if (!mt)
		return;
	for (int k = 0; k < MTRACE_MAX_POINTS; k++)
		pairs__delete(mt->store[k]);
	lat_table__delete(mt->table);
	free(mt);
}

void mtrace__name(struct mtrace *mt, int k, const char *full, const char *brief)
{
	snprintf(mt->names[k], sizeof(mt->names[k]), "%s", full);
	snprintf(mt->briefs[k], sizeof(mt->briefs[k]), "%s", brief ? brief : full);
}

const char *mtrace__point_name(const struct mtrace *mt, int k)
{
	return mt->names[k];
}

bool mtrace__opens(const struct mtrace *mt, int k)
{
	return k < mt->conf.nr_points - 1 || mt->conf.cycle;
}

/* The labels "A => B" (with the systems when they fit) and the table, once names are known. */
static struct lat_table *table(struct mtrace *mt)
{
	char title[LAT_LABEL + 16];
	int width;

	if (mt->table || mt->failed_alloc)
		return mt->table;
	for (int k = 0; k < mt->conf.nr_points; k++) {
		int to = (k + 1) % mt->conf.nr_points, l;
		size_t len = sizeof(mt->labels[k]);

		if (!mtrace__opens(mt, k))
			continue;
		if ((size_t)snprintf(mt->labels[k], len, "%s => %s", mt->names[k], mt->names[to]) >=
		    len)
			snprintf(mt->labels[k], len, "%s => %s", mt->briefs[k], mt->briefs[to]);
		l = (int)strlen(mt->labels[k]);
		if (l > mt->label_width)
			mt->label_width = l;
	}
	width = mt->conf.row_width ? mt->conf.row_width : mt->label_width;
	if (width > LAT_LABEL - 16)
		width = LAT_LABEL - 16;
	mt->label_width = width;
	snprintf(title, sizeof(title), "%-*s", width,
		 mt->conf.row_title ? mt->conf.row_title : "START => END");
	if (mt->lat.perins)
		snprintf(title + strlen(title), sizeof(title) - strlen(title), " %12s",
			 mt->conf.key_title ? mt->conf.key_title : "KEY");
	mt->table = lat_table__new(
		title, NULL, (mt->lat.perins ? LAT_DROP_ROWS : 0) | (mt->lat.hist ? LAT_LOG2 : 0));
	if (!mt->table) {
		mt->failed_alloc = true;
		return NULL;
	}
	lat_table__set_than(mt->table, mt->lat.than);
	if (mt->conf.mark_title)
		lat_table__set_mark(mt->table, mt->conf.mark_title);
	return mt->table;
}

u64 *mtrace__start(struct mtrace *mt, struct session *s, int k, u64 key, struct evsel *ev,
		   const struct sample *smp)
{
	struct mt_start *st;

	(void)s;
	if (!mt->store[k])
		return NULL;
	st = pairs__start(mt->store[k], key, smp->time, smp->cpu);
	if (!st)
		return NULL;
	st->ev = ev;
	memset(st->data, 0, sizeof(st->data));
	st->copy.valid = false;
	if (mt->keep && sample_copy__save(&st->copy, smp, true))
		mt->failed_alloc = true;
	return st->data;
}

u64 *mtrace__pending(struct mtrace *mt, int k, u64 key, u64 *start)
{
	struct mt_start *st = mt->store[k] ? pairs__pending(mt->store[k], key, start) : NULL;

	return st ? st->data : NULL;
}

void mtrace__cancel(struct mtrace *mt, int k, u64 key)
{
	if (mt->store[k])
		pairs__cancel(mt->store[k], key);
}

void mtrace__print_event(struct session *s, struct evsel *ev, const struct sample *smp, FILE *out)
{
	struct stack_ctx *stack = session__stack(s);
	char ts[40];

	session__fmt_time(s, smp->time, ts, sizeof(ts));
	evline__head(out, ts, session__comm_at(s, smp->tid, smp->time), smp->tid, smp->cpu,
		     ev->name);
	evsel__print_raw(s, ev, (struct sample *)smp, out);
	fputc('\n', out);
	if (stack && (smp->nr_ips || smp->stack))
		stack__print(stack, smp, out, "    ");
}

static void fmt_key(const struct mtrace *mt, u64 key, char *buf, size_t len)
{
	bool expr = !mt->conf.key_title || !strcmp(mt->conf.key_title, "KEY");

	if (expr && key > 0xffffffffULL)
		snprintf(buf, len, "%#" PRIx64, key);
	else
		snprintf(buf, len, "%" PRIu64, key);
}

static void print_slow(struct mtrace *mt, struct session *s, const struct mtrace_pair *p,
		       const char *label)
{
	FILE *out = session__out(s);
	char dbuf[32], kbuf[32];

	fmt_key(mt, p->key, kbuf, sizeof(kbuf));
	fprintf(out, "%s: %s key %s%s\n", label, stats_table__fmt_ns(p->delta, dbuf, sizeof(dbuf)),
		kbuf, p->end_ev ? "" : " (ended by a record: an exit or a switch-in)");
	if (p->start_smp)
		mtrace__print_event(s, p->start_ev, p->start_smp, out);
	if (p->end_ev)
		mtrace__print_event(s, p->end_ev, p->end_smp, out);
}

static void record(struct mtrace *mt, struct session *s, const struct mtrace_pair *p)
{
	struct mtrace_row row = { .key = (u64)p->from, .group = p->from };
	char label[LAT_LABEL + 32], kbuf[32];
	struct lat_table *t = table(mt);
	struct lat_row *r;

	if (!t)
		return;
	snprintf(row.label, sizeof(row.label), "%s", mt->labels[p->from]);
	if (mt->conf.row)
		mt->conf.row(mt->conf.arg, p, &row);
	if (row.skip)
		return;
	if (mt->lat.perins) {
		fmt_key(mt, p->key, kbuf, sizeof(kbuf));
		snprintf(label, sizeof(label), "%-*s %12s", mt->label_width, row.label, kbuf);
		r = lat_table__row2(t, row.key, p->key, row.group, label);
	} else {
		r = lat_table__row2(t, row.key, 0, row.group, row.label);
	}
	if (!r || lat_table__record(t, r, p->delta, NULL))
		mt->failed_alloc = true;
	else if (row.mark)
		lat_row__mark(r);
	if (mt->lat.than && p->delta > mt->lat.than)
		print_slow(mt, s, p, row.label);
}

bool mtrace__end(struct mtrace *mt, struct session *s, int from, int to, u64 key, struct evsel *ev,
		 const struct sample *smp, u64 time)
{
	struct pair_span span;
	struct mtrace_pair p;
	struct mt_start *st;

	if (!mt->store[from] || !pairs__end(mt->store[from], key, ev ? smp->time : time, &span))
		return false;
	st = span.payload;
	p = (struct mtrace_pair){
		.from = from,
		.to = to,
		.key = key,
		.start = span.start,
		.delta = span.delta,
		.data = st->data,
		.start_ev = st->ev,
		.start_smp = st->copy.valid ? &st->copy.smp : NULL,
		.end_ev = ev,
		.end_smp = ev ? smp : NULL,
	};
	record(mt, s, &p);
	return true;
}

void mtrace__lost(struct mtrace *mt)
{
	for (int k = 0; k < MTRACE_MAX_POINTS; k++)
		if (mt->store[k])
			pairs__lost(mt->store[k]);
}

void mtrace__forget(struct mtrace *mt, u64 key)
{
	for (int k = 0; k < MTRACE_MAX_POINTS; k++)
		if (mt->store[k])
			pairs__forget(mt->store[k], key);
}

void mtrace__print(struct mtrace *mt, struct session *s)
{
	FILE *out = session__out(s);
	struct lat_table *t = table(mt);

	if (t) {
		lat_table__print(t, out);
		if (mt->lat.hist)
			lat_table__print_log2(t, out, NULL, "ns");
	}
	for (int k = 0; k < MTRACE_MAX_POINTS; k++)
		if (mt->store[k])
			pairs__print_drops(mt->store[k], out, mt->conf.who, "pairs",
					   "the start came again before an end");
	if (mt->failed_alloc)
		fprintf(out, "%s: out of memory, some pairs were not counted\n", mt->conf.who);
	if (session__verbose(s))
		for (int k = 0; k < MTRACE_MAX_POINTS; k++)
			if (mt->store[k])
				pairs__print_usage(mt->store[k], out, mt->conf.who, "key");
	fflush(out);
}

void mtrace__reset(struct mtrace *mt)
{
	if (mt->table)
		lat_table__reset(mt->table);
	for (int k = 0; k < MTRACE_MAX_POINTS; k++)
		if (mt->store[k])
			pairs__reset_counts(mt->store[k]);
	mt->failed_alloc = false;
}

static void print_time(struct session *s)
{
	char buf[64];

	session__fmt_time(s, session__now(s), buf, sizeof(buf));
	fprintf(session__out(s), "%s\n", buf);
}

void mtrace__interval(struct mtrace *mt, struct session *s)
{
	print_time(s);
	mtrace__print(mt, s);
	mtrace__reset(mt);
}

void mtrace__snapshot(struct mtrace *mt, struct session *s)
{
	print_time(s);
	mtrace__print(mt, s);
}
