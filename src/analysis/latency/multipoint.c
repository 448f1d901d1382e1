// SPDX-License-Identifier: GPL-2.0
/* The latency engine of the pairing profilers: see multipoint.h. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/multipoint.h"
#include "analysis/latency/pairs.h"
#include "report/evline.h"
#include "report/heatmap.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "util/ofile.h"
#include "util/units.h"

/* A pending start (the pairs payload). */
struct mt_start {
	struct evsel *ev;
	struct sample_copy *copy; /* kept with --than/--detail: the start event, to print */
	u64 data[MULTIPOINT_DATA];
};

struct multipoint {
	struct multipoint_conf conf;
	struct lat_opts lat;
	bool keep; /* keep start samples */
	char names[MULTIPOINT_MAX_POINTS][MULTIPOINT_NAME];
	char briefs[MULTIPOINT_MAX_POINTS][MULTIPOINT_NAME];
	char labels[MULTIPOINT_MAX_POINTS][LAT_LABEL - 16]; /* "A => B" from each point */
	int label_width;
	struct pairs *store[MULTIPOINT_MAX_POINTS]; /* store[k]: pairs from point k */
	struct lat_table *table;		    /* made by multipoint__ready */
	struct detail *detail;			    /* --detail */
	struct heatmap
		*heat[MULTIPOINT_MAX_POINTS][MULTIPOINT_MAX_POINTS];   /* --heatmap, [from][to] */
	char *heat_name[MULTIPOINT_MAX_POINTS][MULTIPOINT_MAX_POINTS]; /* NAME-A-B */
	int heat_err[MULTIPOINT_MAX_POINTS][MULTIPOINT_MAX_POINTS];
	bool failed_alloc;
	bool json;	   /* --json */
	char key_name[16]; /* --json: the key's member, "tid" */
	/* the table's key: the label (text; JSON: under json_row, or from and to), the key */
	struct rt_col keys[LAT_MAX_KEYS];
	int nr_keys;
	/* --json: a slow pair's line (the last two columns: its events) */
	struct rt_col slow[LAT_MAX_KEYS + 4];
	struct rt_desc slow_desc;
	u64 since;				 /* --json: where the next table's span begins */
	u64 open_elsewhere;			 /* multipoint__add_open */
	u64 unopened[MULTIPOINT_MAX_POINTS];	 /* ends from point k that found no start */
	u64 dropped_seen[MULTIPOINT_MAX_POINTS]; /* pairs' ended_dropped, as last seen */
};

static void min_start(u64 key, u64 start, void *payload, void *arg)
{
	u64 *min = arg;

	(void)key, (void)payload;
	if (start < *min)
		*min = start;
}

static void start_free(void *payload)
{
	struct mt_start *st = payload;

	if (st->copy) {
		sample_copy__free(st->copy);
		free(st->copy);
	}
}

struct multipoint *multipoint__new(struct session *s, const struct multipoint_conf *conf)
{
	struct multipoint *mt = calloc(1, sizeof(*mt));

	if (!mt) {
		session__set_err(s, -ENOMEM, "out of memory");
		return NULL;
	}
	mt->conf = *conf;
	if (conf->lat)
		mt->lat = *conf->lat;
	mt->conf.lat = &mt->lat;
	mt->keep = conf->keep_start || conf->report || mt->lat.than || mt->lat.lower;
	mt->json = session__json(s);
	/* "TID" -> "tid" */
	snprintf(mt->key_name, sizeof(mt->key_name), "%s",
		 conf->key_title ? conf->key_title : "KEY");
	for (char *c = mt->key_name; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c == ' ' ? '_' : *c);
	/* one point pairs each event with the next of its key: only as a cycle */
	if (conf->nr_points < (conf->cycle ? 1 : 2) || conf->nr_points > MULTIPOINT_MAX_POINTS) {
		free(mt);
		session__usage_err(s, "%d points: give %d to %d", conf->nr_points,
				   conf->cycle ? 1 : 2, MULTIPOINT_MAX_POINTS);
		return NULL;
	}
	/* the window is a timeline: events in time order across CPUs */
	if (mt->lat.detail)
		session__want_order(s);
	if (mt->lat.detail && !(mt->detail = detail__new(&mt->lat.dopts))) {
		free(mt);
		session__set_err(s, -ENOMEM, "out of memory");
		return NULL;
	}
	for (int k = 0; k < conf->nr_points; k++) {
		if (!multipoint__opens(mt, k))
			continue;
		mt->store[k] =
			pairs__new(&(struct pairs_conf){ .payload_size = sizeof(struct mt_start),
							 .max_keys = MULTIPOINT_MAX_KEYS,
							 .idle_ns = MULTIPOINT_IDLE_NS,
							 .payload_free = start_free });
		if (!mt->store[k]) {
			multipoint__delete(mt);
			session__set_err(s, -ENOMEM, "out of memory");
			return NULL;
		}
	}
	return mt;
}

void multipoint__delete(struct multipoint *mt)
{
	if (!mt)
		return;
	for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++)
		pairs__delete(mt->store[k]);
	for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++)
		for (int j = 0; j < MULTIPOINT_MAX_POINTS; j++) {
			if (mt->heat[k][j])
				heatmap__close(mt->heat[k][j], NULL, NULL);
			free(mt->heat_name[k][j]);
		}
	lat_table__delete(mt->table);
	detail__delete(mt->detail);
	free(mt);
}

void multipoint__name(struct multipoint *mt, int k, const char *full, const char *brief)
{
	snprintf(mt->names[k], sizeof(mt->names[k]), "%s", full);
	snprintf(mt->briefs[k], sizeof(mt->briefs[k]), "%s", brief ? brief : full);
}

const char *multipoint__point_name(const struct multipoint *mt, int k)
{
	return mt->names[k];
}

bool multipoint__opens(const struct multipoint *mt, int k)
{
	return k < mt->conf.nr_points - 1 || mt->conf.cycle;
}

/* hex keys (pointers) take 18 columns */
static int key_width(const struct multipoint *mt)
{
	return !mt->conf.key_title || !strcmp(mt->conf.key_title, "KEY") ? 18 : 12;
}

/* keys as the text prints them: a number, above 32 bits (a pointer) in hex */
static bool hex_keys(const struct multipoint *mt)
{
	return !mt->conf.key_title || !strcmp(mt->conf.key_title, "KEY");
}

/*
 * --json: a slow pair's line, {"type":"slow","time_ns":END, the label under
 * json_row or "from" and "to", the key, "duration_ns":N, "start":{event},
 * "end":{event} (null: ended by a record)}; with --detail all but the
 * events begin the timeline's line.
 */
static void describe_slow(struct multipoint *mt)
{
	struct rt_col *c = mt->slow;
	int n = 0;

	c[n++] = (struct rt_col){ .name = "time_ns", .type = RT_U64, .unit = RT_UNIT_NS };
	if (mt->conf.json_row) {
		c[n++] = (struct rt_col){ .name = mt->conf.json_row, .type = RT_STR };
	} else {
		c[n++] = (struct rt_col){ .name = "from", .type = RT_STR };
		c[n++] = (struct rt_col){ .name = "to", .type = RT_STR };
	}
	c[n++] = (struct rt_col){ .name = mt->key_name, .type = hex_keys(mt) ? RT_STR : RT_U64 };
	c[n++] = (struct rt_col){ .name = "duration_ns", .type = RT_U64, .unit = RT_UNIT_NS };
	/* trace's event records: "start" when kept, "end" (null: ended by a record) */
	c[n++] = (struct rt_col){ .name = "start", .type = RT_ROW, .flags = RT_OMIT_EMPTY };
	c[n++] = (struct rt_col){ .name = "end", .type = RT_ROW };
	mt->slow_desc = (struct rt_desc){ .type = "slow", .cols = mt->slow, .ncols = n };
}

/*
 * The table's key columns: the row's label (its text, in label_width; JSON:
 * under json_row, else the pair's points as "from" and "to"), and with
 * --perins the key (JSON: under key_name, a number, or a "0x..." string
 * as the text prints it above 32 bits).  Returns their number.
 */
static int describe_keys(struct multipoint *mt)
{
	const char *title = mt->conf.row_title ? mt->conf.row_title : "START => END";
	struct rt_col *c = mt->keys;
	int n = 0, w = mt->label_width;

	/* alone, the label is as wide as its title (its rows too) */
	if (!mt->lat.perins && (int)strlen(title) > w)
		w = (int)strlen(title);
	c[n++] = (struct rt_col){ .name = mt->conf.json_row,
				  .title = title,
				  .type = RT_STR,
				  .width = w,
				  .flags = RT_LEFT | (mt->conf.json_row ? 0 : RT_NO_JSON) };
	if (!mt->conf.json_row) {
		c[n++] = (struct rt_col){ .name = "from", .type = RT_STR, .flags = RT_NO_TEXT };
		c[n++] = (struct rt_col){ .name = "to", .type = RT_STR, .flags = RT_NO_TEXT };
	}
	if (mt->lat.perins)
		c[n++] = (struct rt_col){ .name = mt->key_name,
					  .title = mt->conf.key_title ? mt->conf.key_title : "KEY",
					  .type = hex_keys(mt) ? RT_STR : RT_U64,
					  .width = key_width(mt) };
	mt->nr_keys = n;
	describe_slow(mt);
	return n;
}

/* A key column's value: hex keys are text that JSON writes as the number up to 32 bits. */
static struct rt_val key_val(const struct multipoint *mt, u64 key, char *buf, size_t len)
{
	if (!hex_keys(mt))
		return (struct rt_val){ .u = key };
	if (key > 0xffffffffULL) {
		snprintf(buf, len, "%#" PRIx64, key);
		return (struct rt_val){ .s = buf };
	}
	snprintf(buf, len, "%" PRIu64, key);
	return (struct rt_val){ .i = (int64_t)key, .s = buf, .num = true };
}

/* The labels "A => B" (with the systems when they fit) and the table, once names are known. */
static struct lat_table *table(struct multipoint *mt)
{
	int width;

	if (mt->table || mt->failed_alloc)
		return mt->table;
	for (int k = 0; k < mt->conf.nr_points; k++) {
		int to = (k + 1) % mt->conf.nr_points, l;
		size_t len = sizeof(mt->labels[k]);

		if (!multipoint__opens(mt, k))
			continue;
		if ((size_t)snprintf(mt->labels[k], len, "%s => %s", mt->names[k], mt->names[to]) >=
		    len)
			snprintf(mt->labels[k], len, "%s => %s", mt->briefs[k], mt->briefs[to]);
		l = (int)strlen(mt->labels[k]);
		if (l > mt->label_width)
			mt->label_width = l;
	}
	width = mt->conf.row_width ? mt->conf.row_width : mt->label_width;
	if (width > LAT_LABEL - 20)
		width = LAT_LABEL - 20;
	mt->label_width = width;
	mt->table = lat_table__new(
		"", NULL, (mt->lat.perins ? LAT_DROP_ROWS : 0) | (mt->lat.hist ? LAT_LOG2 : 0));
	if (!mt->table || lat_table__set_keys(mt->table, mt->keys, describe_keys(mt))) {
		lat_table__delete(mt->table);
		mt->table = NULL;
		mt->failed_alloc = true;
		return NULL;
	}
	lat_table__set_than(mt->table, mt->lat.than);
	lat_table__set_lower(mt->table, mt->lat.lower);
	if (mt->conf.mark_title)
		lat_table__set_mark(mt->table, mt->conf.mark_title);
	return mt->table;
}

static unsigned ends_of(const struct multipoint *mt, int k)
{
	return mt->conf.ends[k] ? mt->conf.ends[k] : 1u << ((k + 1) % mt->conf.nr_points);
}

static const struct session_ops multipoint_ops;

int multipoint__ready(struct multipoint *mt, struct session *s)
{
	int err;

	if (!table(mt))
		return session__set_err(s, -ENOMEM, "out of memory");
	for (int k = 0; mt->lat.heatmap && k < mt->conf.nr_points; k++) {
		for (int j = 0; multipoint__opens(mt, k) && j < mt->conf.nr_points; j++) {
			const char *sfx[] = { ".lat", ".svg" };
			char *file;

			if (!(ends_of(mt, k) & (1u << j)))
				continue;
			if (asprintf(&mt->heat_name[k][j], "%s-%s-%s", mt->lat.heatmap,
				     mt->briefs[k], mt->briefs[j]) < 0) {
				mt->heat_name[k][j] = NULL;
				return session__set_err(s, -ENOMEM, "out of memory");
			}
			/* made at the first pair, and at the end: a run that never starts touches nothing */
			for (int x = 0; x < 2; x++) {
				if (asprintf(&file, "%s%s", mt->heat_name[k][j], sfx[x]) < 0)
					return session__set_err(s, -ENOMEM, "out of memory");
				err = outfile__check(file);
				if (err)
					session__set_err(s, err,
							 "cannot write the heat map '%s': %s", file,
							 ofile__strerror(-err));
				free(file);
				if (err)
					return err;
			}
		}
	}
	return session__add_ops(s, &multipoint_ops, mt);
}

void multipoint__see(struct multipoint *mt, struct session *s, struct evsel *ev,
		     const struct sample *smp, u64 key, bool has_key)
{
	struct detail *d = mt->detail;

	if (!d)
		return;
	if (detail__add(d, ev, smp, key, has_key))
		mt->failed_alloc = true;
	if (detail__flush(d, s, false))
		mt->failed_alloc = true;
	if (detail__trim_due(d)) {
		u64 horizon = smp->time, before = mt->lat.dopts.before, need;

		/* the oldest open start, or now (this event may start a pair) */
		for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++)
			if (mt->store[k])
				pairs__for_each_pending(mt->store[k], min_start, &horizon);
		horizon = horizon > before ? horizon - before : 0;
		need = detail__oldest_needed(d); /* waiting timelines, their own -N included */
		detail__trim(d, need < horizon ? need : horizon);
	}
}

u64 *multipoint__start(struct multipoint *mt, struct session *s, int k, u64 key, struct evsel *ev,
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
	if (st->copy)
		st->copy->valid = false;
	if (mt->keep && ((!st->copy && !(st->copy = calloc(1, sizeof(*st->copy)))) ||
			 sample_copy__save(st->copy, smp, true)))
		mt->failed_alloc = true;
	return st->data;
}

u64 *multipoint__pending(struct multipoint *mt, int k, u64 key, u64 *start)
{
	struct mt_start *st = mt->store[k] ? pairs__pending(mt->store[k], key, start) : NULL;

	return st ? st->data : NULL;
}

void multipoint__cancel(struct multipoint *mt, int k, u64 key)
{
	if (mt->store[k])
		pairs__cancel(mt->store[k], key);
}

void multipoint__print_event(struct session *s, struct evsel *ev, const struct sample *smp,
			     FILE *out)
{
	evline__print(s, ev, smp, out, NULL);
}

static void fmt_key(const struct multipoint *mt, u64 key, char *buf, size_t len)
{
	bool expr = !mt->conf.key_title || !strcmp(mt->conf.key_title, "KEY");

	if (expr && key > 0xffffffffULL)
		snprintf(buf, len, "%#" PRIx64, key);
	else
		snprintf(buf, len, "%" PRIu64, key);
}

/* --json: a slow pair's events, each an event line's row kept (its comm copied) */
struct slow_ev {
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	char comm[EVL_COMM_LEN];
};

/*
 * --json: the slow pair's row of slow_desc: its events "start" (if kept) and
 * "end" (null: ended by a record) from @ev[2] (NULL: the row without them).
 */
static void slow_row(struct multipoint *mt, struct session *s, const struct multipoint_pair *p,
		     const char *label, struct slow_ev *ev, char *kbuf, size_t len,
		     struct rt_val *v)
{
	int n = 0;

	v[n++] = (struct rt_val){ .u = session__wall_ns(s, p->start + p->delta) };
	if (mt->conf.json_row) {
		v[n++] = (struct rt_val){ .s = label };
	} else {
		v[n++] = (struct rt_val){ .s = mt->names[p->from] };
		v[n++] = (struct rt_val){ .s = mt->names[p->to] };
	}
	v[n++] = key_val(mt, p->key, kbuf, len);
	v[n++] = (struct rt_val){ .u = p->delta };
	if (!ev)
		return;
	if (p->start_smp)
		evline__row_kept(ev[0].v, &ev[0].stk, ev[0].comm, s, p->start_ev, p->start_smp,
				 NULL);
	if (p->end_ev)
		evline__row_kept(ev[1].v, &ev[1].stk, ev[1].comm, s, p->end_ev, p->end_smp, NULL);
	v[n++] = (struct rt_val){ .row = { &evline_desc, p->start_smp ? ev[0].v : NULL } };
	v[n++] = (struct rt_val){ .row = { &evline_desc, p->end_ev ? ev[1].v : NULL } };
}

static void print_slow(struct multipoint *mt, struct session *s, const struct multipoint_pair *p,
		       const char *label)
{
	FILE *out = session__out(s);
	char dbuf[32], kbuf[32], header[LAT_LABEL + 128], *frag = NULL;
	struct rt_val v[LAT_MAX_KEYS + 4];

	if (mt->json && !mt->detail) {
		struct slow_ev ev[2];

		slow_row(mt, s, p, label, ev, kbuf, sizeof(kbuf), v);
		rtable__record(out, true, &mt->slow_desc, v);
		return;
	}
	if (mt->json) {
		/* the timeline's line begins with these members: the row without its events */
		struct rt_desc d = mt->slow_desc;

		d.ncols -= 2;
		slow_row(mt, s, p, label, NULL, kbuf, sizeof(kbuf), v);
		if (!(frag = rt_json__frag(&d, v))) {
			mt->failed_alloc = true;
			return;
		}
	} else {
		fmt_key(mt, p->key, kbuf, sizeof(kbuf));
		snprintf(header, sizeof(header), "%s: %s key %s%s", label,
			 stats_table__fmt_ns(p->delta, dbuf, sizeof(dbuf)), kbuf,
			 p->end_ev ? "" : " (ended by a record: an exit or a switch-in)");
	}
	if (mt->detail) {
		struct detail_pair dp = {
			.start = p->start,
			.end = p->start + p->delta,
			.key = p->key,
			.has_end_event = p->end_smp != NULL,
		};

		if (p->start_smp) {
			dp.cpu[0] = p->start_smp->cpu;
			dp.pid[0] = p->start_smp->pid;
			dp.tid[0] = p->start_smp->tid;
		}
		if (p->end_smp) {
			dp.cpu[1] = p->end_smp->cpu;
			dp.pid[1] = p->end_smp->pid;
			dp.tid[1] = p->end_smp->tid;
		}
		if (detail__pair(mt->detail, s, &dp, frag ? frag : header))
			mt->failed_alloc = true;
		free(frag);
		return;
	}
	fprintf(out, "%s\n", header);
	if (p->start_smp)
		multipoint__print_event(s, p->start_ev, p->start_smp, out);
	if (p->end_ev)
		multipoint__print_event(s, p->end_ev, p->end_smp, out);
}

/* One line in the pair's .lat, opened at its first pair; an error stops that file, said once. */
static void heat_add(struct multipoint *mt, struct session *s, const struct multipoint_pair *p)
{
	int *err = &mt->heat_err[p->from][p->to];
	const char *name = mt->heat_name[p->from][p->to];
	struct heatmap **h = &mt->heat[p->from][p->to];

	if (*err || !name)
		return;
	if (!*h) {
		char lat[PATH_MAX];

		snprintf(lat, sizeof(lat), "%s.lat", name);
		if (!(*h = heatmap__open(lat)))
			*err = -errno;
	}
	if (*h && !*err)
		*err = heatmap__add(*h, p->start, p->delta);
	if (*err)
		session__output_err(s,
				    "writing the heat map %s.lat: %s (no more pairs written to it)",
				    name, ofile__strerror(-*err));
}

/* The table's row of @row for pairs @from => @to under @key, its key columns set; NULL: no memory. */
static struct lat_row *keyed_row(struct multipoint *mt, struct lat_table *t, int from, int to,
				 u64 key, const struct multipoint_row *row)
{
	struct lat_row *r =
		lat_table__row2(t, row->key, mt->lat.perins ? key : 0, row->group, NULL);
	struct rt_val kv[LAT_MAX_KEYS];
	char kbuf[32];
	int n = 0;

	if (!r)
		return NULL;
	kv[n++] = (struct rt_val){ .s = row->label };
	if (!mt->conf.json_row) {
		kv[n++] = (struct rt_val){ .s = mt->names[from] };
		kv[n++] = (struct rt_val){ .s = mt->names[to] };
	}
	if (mt->lat.perins)
		kv[n++] = key_val(mt, key, kbuf, sizeof(kbuf));
	return lat_row__set_keys(t, r, kv) ? NULL : r;
}

void multipoint__record_hist(struct multipoint *mt, int from, int to, u64 key,
			     const struct multipoint_row *row, const struct hist *h, u64 marked)
{
	struct lat_table *t = table(mt);
	struct multipoint_row own = { .key = (u64)from, .group = from };
	struct multipoint_pair pair = { .from = from, .to = to, .key = key };
	struct lat_row *r;

	if (!row) {
		snprintf(own.label, sizeof(own.label), "%s", mt->labels[from]);
		if (mt->conf.row) /* a pair with neither events nor delta: its row alone */
			mt->conf.row(mt->conf.arg, &pair, &own);
		row = &own;
	}
	r = t && !row->skip ? keyed_row(mt, t, from, to, key, row) : NULL;

	if (t && !row->skip && (!r || lat_table__merge(t, r, h, marked)))
		mt->failed_alloc = true;
	else if (r && row->over)
		lat_row__add_over(r, row->over);
}

void multipoint__heat_pair(struct multipoint *mt, struct session *s, int from, int to, u64 start,
			   u64 delta)
{
	struct multipoint_pair p = { .from = from, .to = to, .start = start, .delta = delta };

	if (mt->lat.heatmap && from >= 0 && from < MULTIPOINT_MAX_POINTS && to >= 0 &&
	    to < MULTIPOINT_MAX_POINTS)
		heat_add(mt, s, &p);
}

void multipoint__own_row(struct multipoint *mt, int from, int to, u64 key,
			 struct multipoint_row *row)
{
	struct multipoint_pair pair = { .from = from, .to = to, .key = key };

	*row = (struct multipoint_row){ .key = (u64)from, .group = from };
	snprintf(row->label, sizeof(row->label), "%s", mt->labels[from]);
	if (mt->conf.row) /* a pair with neither events nor delta: its row alone */
		mt->conf.row(mt->conf.arg, &pair, row);
}

void multipoint__print_pair(struct multipoint *mt, struct session *s,
			    const struct multipoint_pair *p)
{
	struct multipoint_row row = { .key = (u64)p->from, .group = p->from };

	snprintf(row.label, sizeof(row.label), "%s", mt->labels[p->from]);
	if (mt->conf.row)
		mt->conf.row(mt->conf.arg, p, &row);
	if (!row.skip && !row.quiet)
		print_slow(mt, s, p, row.label);
}

void multipoint__add_exited(struct multipoint *mt, int k, u64 n)
{
	if (mt->store[k])
		pairs__add_exited(mt->store[k], n);
}

void multipoint__add_dropped(struct multipoint *mt, int k, u64 replaced, u64 backwards)
{
	if (mt->store[k])
		pairs__add_dropped(mt->store[k], replaced, backwards);
}

void multipoint__add_open(struct multipoint *mt, u64 n)
{
	mt->open_elsewhere += n;
}

static void record(struct multipoint *mt, struct session *s, const struct multipoint_pair *p)
{
	struct multipoint_row row = { .key = (u64)p->from, .group = p->from };
	struct lat_table *t = table(mt);
	struct lat_row *r;

	if (!t)
		return;
	snprintf(row.label, sizeof(row.label), "%s", mt->labels[p->from]);
	if (mt->conf.row)
		mt->conf.row(mt->conf.arg, p, &row);
	if (row.skip)
		return;
	r = keyed_row(mt, t, p->from, p->to, p->key, &row);
	if (!r || lat_table__record(t, r, p->delta, NULL))
		mt->failed_alloc = true;
	else if (row.mark)
		lat_row__mark(r);
	if (mt->lat.heatmap)
		heat_add(mt, s, p);
	if (row.quiet)
		return;
	if ((mt->lat.than && p->delta > mt->lat.than) ||
	    (mt->lat.lower && p->delta < mt->lat.lower))
		print_slow(mt, s, p, row.label);
}

bool multipoint__end(struct multipoint *mt, struct session *s, int from, int to, u64 key,
		     struct evsel *ev, const struct sample *smp, u64 time)
{
	struct pair_span span;
	struct multipoint_pair p;
	struct mt_start *st;

	if (!mt->store[from])
		return false;
	if (!pairs__end(mt->store[from], key, ev ? smp->time : time, &span)) {
		const struct pairs_counts *c = pairs__counts(mt->store[from]);

		/* (the end of an interval a loss dropped is not an end without a start) */
		if (c->ended_dropped == mt->dropped_seen[from])
			mt->unopened[from]++;
		mt->dropped_seen[from] = c->ended_dropped;
		return false;
	}
	st = span.payload;
	p = (struct multipoint_pair){
		.from = from,
		.to = to,
		.key = key,
		.start = span.start,
		.delta = span.delta,
		.data = st->data,
		.start_ev = st->ev,
		.start_smp = st->copy && st->copy->valid ? &st->copy->smp : NULL,
		.end_ev = ev,
		.end_smp = ev ? smp : NULL,
	};
	record(mt, s, &p);
	return true;
}

struct open_walk {
	void (*fn)(u64 key, u64 start, struct evsel *ev, const struct sample *smp, void *arg);
	void *arg;
};

static void open_one(u64 key, u64 start, void *payload, void *arg)
{
	struct mt_start *st = payload;
	struct open_walk *w = arg;

	w->fn(key, start, st->ev, st->copy && st->copy->valid ? &st->copy->smp : NULL, w->arg);
}

void multipoint__for_each_open(struct multipoint *mt, int k,
			       void (*fn)(u64 key, u64 start, struct evsel *ev,
					  const struct sample *smp, void *arg),
			       void *arg)
{
	struct open_walk w = { fn, arg };

	if (mt->store[k])
		pairs__for_each_pending(mt->store[k], open_one, &w);
}

void multipoint__pair_counts(const struct multipoint *mt, int k, u64 *opened, u64 *closed,
			     u64 *unopened, u64 *after_loss, u64 *closed_after_loss)
{
	const struct pairs_counts *c = mt->store[k] ? pairs__counts(mt->store[k]) : NULL;

	*opened = c ? c->started : 0;
	*closed = c ? c->ended : 0;
	*unopened = mt->unopened[k];
	*after_loss = c ? c->lost : 0;
	*closed_after_loss = c ? c->ended_dropped : 0;
}

bool multipoint__json(const struct multipoint *mt)
{
	return mt->json;
}

int multipoint__nr_points(const struct multipoint *mt)
{
	return mt->conf.nr_points;
}

void multipoint__lost(struct multipoint *mt)
{
	for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++)
		if (mt->store[k])
			pairs__lost(mt->store[k]);
}

void multipoint__forget(struct multipoint *mt, u64 key)
{
	for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++)
		if (mt->store[k])
			pairs__forget(mt->store[k], key);
}

/*
 * The table to the text or JSON sink (with the interval's stamp), the drops
 * (text: a sentence each; JSON: a "dropped" row per point that dropped
 * pairs), the notices (with --json on stderr).
 */
static void print(struct multipoint *mt, struct session *s, int when)
{
	FILE *out = session__out(s), *notes = mt->json ? stderr : out;
	struct lat_table *t = table(mt);
	struct stats_stamp st;
	union rt_sinks u;
	/* text: after the time, except at the end of the run */
	struct rt_sink *sink = stats_stamp__sink(s, &u, &st, &mt->since, when);

	if (mt->conf.report)
		mt->conf.report(mt, mt->conf.report_arg, s);
	else if (t && !mt->lat.only) /* --only-than: the slow pairs only */
		lat_table__emit(t, sink);
	if (t && mt->lat.hist && !mt->json && !mt->lat.only && !mt->conf.report)
		lat_table__print_log2(t, out, NULL, "ns");
	for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++) {
		if (!mt->store[k])
			continue;
		pairs__emit_drops(mt->store[k], sink, "pairs", mt->names[k], mt->conf.who,
				  "the start came again before an end");
	}
	if (mt->detail)
		detail__emit_drops(mt->detail, sink, mt->conf.who);
	if (mt->failed_alloc)
		stats_note(s, mt->conf.who, "out of memory, some pairs were not counted");
	if (session__verbose(s))
		for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++)
			if (mt->store[k])
				pairs__print_usage(mt->store[k], notes, mt->conf.who, mt->names[k]);
	fflush(out);
}

void multipoint__print(struct multipoint *mt, struct session *s)
{
	print(mt, s, STATS_END);
}

void multipoint__reset(struct multipoint *mt)
{
	if (mt->table)
		lat_table__reset(mt->table);
	for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++)
		if (mt->store[k])
			pairs__reset_counts(mt->store[k]);
	memset(mt->unopened, 0, sizeof(mt->unopened));
	memset(mt->dropped_seen, 0, sizeof(mt->dropped_seen));
	mt->failed_alloc = false;
}

/* The module's hook set (multipoint__ready registers it, @priv the multipoint). */
static void on_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct multipoint *mt = priv;

	if (mt->conf.see_by_thread)
		multipoint__see(mt, s, ev, smp, smp->tid, true);
}

static void on_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	(void)s, (void)cpu, (void)nr;
	multipoint__lost(priv);
}

static void on_exit_rec(struct session *s, void *priv, const struct rec_task *t)
{
	struct multipoint *mt = priv;

	(void)s;
	if (mt->conf.exit_forgets)
		multipoint__forget(mt, t->tid);
}

void multipoint__interval(struct multipoint *mt, struct session *s)
{
	print(mt, s, STATS_INTERVAL);
	multipoint__reset(mt);
}

static void on_interval(struct session *s, void *priv)
{
	multipoint__interval(priv, s);
}

static void on_snapshot(struct session *s, void *priv)
{
	print(priv, s, STATS_SO_FAR);
}

static const struct session_ops multipoint_ops = {
	.sample = on_sample,
	.lost = on_lost,
	.exit = on_exit_rec,
	.interval = on_interval,
	.snapshot = on_snapshot,
};

static void count_open(u64 key, u64 start, void *payload, void *arg)
{
	(void)key, (void)start, (void)payload;
	(*(u64 *)arg)++;
}

/* The pairs left open: a sentence in text, {"type":"summary","time_ns","open_pairs"}. */
static const struct rt_col open_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	RT_COL("time_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("open_pairs", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
};
static const struct rt_desc open_desc = { .type = "summary", .cols = open_cols, .ncols = 3 };

void multipoint__finish(struct multipoint *mt, struct session *s)
{
	u64 open = mt->open_elsewhere;

	if (mt->detail && detail__flush(mt->detail, s, true))
		mt->failed_alloc = true;
	multipoint__print(mt, s);
	for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++)
		if (mt->store[k])
			pairs__for_each_pending(mt->store[k], count_open, &open);
	if (open && !mt->conf.report) { /* the report lists them */
		char text[128];

		snprintf(text, sizeof(text), "%s: %llu pairs still open at the end (no end seen)",
			 mt->conf.who, (unsigned long long)open);
		rtable__record(session__out(s), mt->json, &open_desc,
			       (struct rt_val[]){ { .s = text },
						  { .u = session__wall_ns(s, session__now(s)) },
						  { .u = open } });
	}
	for (int k = 0; k < MULTIPOINT_MAX_POINTS; k++)
		for (int j = 0; j < MULTIPOINT_MAX_POINTS; j++) {
			char *svg, title[2 * MULTIPOINT_NAME + 32];
			int err;

			if (!mt->heat[k][j]) {
				if (mt->heat_name[k][j] && !mt->heat_err[k][j])
					session__warn(s, "no %s => %s pairs: no heat map %s",
						      mt->names[k], mt->names[j],
						      mt->heat_name[k][j]);
				continue;
			}
			if (mt->heat_err[k][j]) { /* said when it failed: no SVG of a short .lat */
				heatmap__close(mt->heat[k][j], NULL, NULL);
				mt->heat[k][j] = NULL;
				continue;
			}
			snprintf(title, sizeof(title), "%s: %s => %s latency", mt->conf.who,
				 mt->names[k], mt->names[j]);
			if (asprintf(&svg, "%s.svg", mt->heat_name[k][j]) < 0)
				svg = NULL;
			err = heatmap__close(mt->heat[k][j], svg, title);
			mt->heat[k][j] = NULL;
			if (err && err != -ENODATA)
				session__output_err(s, "writing the heat map %s (.lat, .svg): %s",
						    mt->heat_name[k][j], ofile__strerror(-err));
			free(svg);
		}
}

void multipoint__done(struct multipoint *mt, struct session *s)
{
	if (mt && session__started(s))
		multipoint__finish(mt, s);
	multipoint__delete(mt);
}
