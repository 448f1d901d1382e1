// SPDX-License-Identifier: GPL-2.0
/* A latency table of keyed histograms with sub-rows: see lat_table.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "report/hist.h"
#include "report/lat_table.h"
#include "report/log2_hist.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "util/units.h"

struct lat_row {
	uint64_t key[2];
	int group;
	char label[LAT_LABEL];
	struct hist *total;
	struct hist *sub[LAT_MAX_SUB];
	struct log2_hist *log2;		/* LAT_LOG2 */
	uint64_t over;			/* totals above the table's than */
	uint64_t under;			/* totals below the table's lower */
	uint64_t marked;		/* lat_row__mark */
	struct rt_val kv[LAT_MAX_KEYS]; /* lat_row__set_keys (strings copied) */
	bool keyed;
	UT_hash_handle hh;
};

struct lat_table {
	char *key_title;
	const char *subs[LAT_MAX_SUB];
	int nr_subs;
	bool drop_rows;
	bool log2;			  /* LAT_LOG2 */
	unsigned row_flags;		  /* STATS_* */
	uint64_t than;			  /* lat_table__set_than */
	uint64_t lower;			  /* lat_table__set_lower */
	char *mark;			  /* lat_table__set_mark */
	char *json_mark;		  /* its --json member name */
	struct rt_col keys[LAT_MAX_KEYS]; /* lat_table__set_keys */
	int nr_keys;
	struct lat_row *rows;
	unsigned nr_rows;
};

struct lat_table *lat_table__new(const char *key_title, const char *const *subs, unsigned flags)
{
	struct lat_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->key_title = strdup(key_title);
	if (!t->key_title) {
		free(t);
		return NULL;
	}
	for (; subs && subs[t->nr_subs] && t->nr_subs < LAT_MAX_SUB; t->nr_subs++)
		t->subs[t->nr_subs] = subs[t->nr_subs];
	t->drop_rows = flags & LAT_DROP_ROWS;
	t->log2 = flags & LAT_LOG2;
	t->row_flags = flags & LAT_PLAIN ? STATS_PLAIN : 0;
	return t;
}

static void row_free(struct lat_table *t, struct lat_row *r)
{
	HASH_DEL(t->rows, r);
	hist__delete(r->total);
	for (int i = 0; i < t->nr_subs; i++)
		hist__delete(r->sub[i]);
	free(r->log2);
	for (int i = 0; i < t->nr_keys; i++)
		if (t->keys[i].type == RT_STR)
			free((char *)r->kv[i].s);
	free(r);
	t->nr_rows--;
}

void lat_table__delete(struct lat_table *t)
{
	struct lat_row *r, *tmp;

	if (!t)
		return;
	HASH_ITER(hh, t->rows, r, tmp)
	{
		row_free(t, r);
	}
	free(t->key_title);
	free(t->mark);
	free(t->json_mark);
	free(t);
}

void lat_table__set_than(struct lat_table *t, uint64_t ns)
{
	t->than = ns;
}

void lat_table__set_lower(struct lat_table *t, uint64_t ns)
{
	t->lower = ns;
}

void lat_table__set_mark(struct lat_table *t, const char *title)
{
	free(t->mark);
	free(t->json_mark);
	t->mark = title ? strdup(title) : NULL;
	/* "guest-kernel" -> "guest_kernel" */
	t->json_mark = title ? strdup(title) : NULL;
	for (char *c = t->json_mark; c && *c; c++)
		if (*c == '-' || *c == ' ')
			*c = '_';
}

int lat_table__set_keys(struct lat_table *t, const struct rt_col *keys, int n)
{
	char title[LAT_LABEL], *dup;

	if (n > LAT_MAX_KEYS)
		return -EINVAL;
	rt_text__line(keys, n, NULL, title, sizeof(title));
	dup = strdup(title);
	if (!dup)
		return -ENOMEM;
	free(t->key_title);
	t->key_title = dup;
	memcpy(t->keys, keys, n * sizeof(*keys));
	t->nr_keys = n;
	return 0;
}

int lat_row__set_keys(struct lat_table *t, struct lat_row *r, const struct rt_val *v)
{
	bool same = r->keyed;

	for (int i = 0; i < t->nr_keys && same; i++)
		if (t->keys[i].type == RT_STR)
			same = r->kv[i].s && v[i].s && !strcmp(r->kv[i].s, v[i].s);
		else
			same = r->kv[i].u == v[i].u;
	if (same)
		return 0;
	for (int i = 0; i < t->nr_keys; i++) {
		if (t->keys[i].type != RT_STR) {
			r->kv[i] = v[i];
			continue;
		}
		if (r->kv[i].s && v[i].s && !strcmp(r->kv[i].s, v[i].s))
			continue;
		free((char *)r->kv[i].s);
		/* .num and .i: a number's text, written as the number */
		r->kv[i] = (struct rt_val){ .i = v[i].i,
					    .s = v[i].s ? strdup(v[i].s) : NULL,
					    .num = v[i].num };
		if (v[i].s && !r->kv[i].s)
			return -ENOMEM;
	}
	r->keyed = true;
	/* the label: what the key's columns print, for lat_table__print_log2 */
	rt_text__line(t->keys, t->nr_keys, r->kv, r->label, sizeof(r->label));
	return 0;
}

void lat_row__mark(struct lat_row *r)
{
	r->marked++;
}

void lat_row__add_over(struct lat_row *r, uint64_t n)
{
	r->over += n;
}

void lat_row__label(struct lat_row *r, const char *label)
{
	snprintf(r->label, sizeof(r->label), "%s", label);
}

struct lat_row *lat_table__row2(struct lat_table *t, uint64_t key, uint64_t key2, int group,
				const char *label)
{
	uint64_t k[2] = { key, key2 };
	struct lat_row *r;

	HASH_FIND(hh, t->rows, k, sizeof(k), r);
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			return NULL;
		memcpy(r->key, k, sizeof(k));
		r->group = group;
		HASH_ADD(hh, t->rows, key, sizeof(r->key), r);
		t->nr_rows++;
	}
	if (label)
		lat_row__label(r, label);
	return r;
}

struct lat_row *lat_table__row(struct lat_table *t, uint64_t key, int group, const char *label)
{
	return lat_table__row2(t, key, 0, group, label);
}

static int record(struct hist **h, uint64_t v)
{
	if (!*h && !(*h = hist__new()))
		return -ENOMEM;
	return hist__record(*h, v);
}

int lat_table__record(struct lat_table *t, struct lat_row *r, uint64_t total, const uint64_t *sub)
{
	if (record(&r->total, total))
		return -ENOMEM;
	if (t->than && total > t->than)
		r->over++;
	if (t->lower && total < t->lower)
		r->under++;
	if (t->log2) {
		if (!r->log2 && !(r->log2 = calloc(1, sizeof(*r->log2))))
			return -ENOMEM;
		log2_hist__add(r->log2, total);
	}
	for (int i = 0; sub && i < t->nr_subs; i++)
		if (record(&r->sub[i], sub[i]))
			return -ENOMEM;
	return 0;
}

static void log2_add(uint64_t lo, uint64_t n, void *arg)
{
	/* a bucket lies within one power of two (hist.h): its low bound's slot is its values' */
	log2_hist__add_n(arg, lo, n);
}

int lat_table__merge(struct lat_table *t, struct lat_row *r, const struct hist *h, uint64_t marked)
{
	if (!hist__count(h))
		return 0;
	if (!r->total && !(r->total = hist__new()))
		return -ENOMEM;
	if (t->log2 && !r->log2 && !(r->log2 = calloc(1, sizeof(*r->log2))))
		return -ENOMEM;
	if (hist__merge(r->total, h))
		return -ENOMEM;
	if (t->log2)
		hist__for_each(h, log2_add, r->log2);
	r->marked += marked;
	return 0;
}

int lat_table__merge_sub(struct lat_table *t, struct lat_row *r, int sub, const struct hist *h)
{
	if (sub < 0 || sub >= t->nr_subs)
		return -EINVAL;
	if (!hist__count(h))
		return 0;
	if (!r->sub[sub] && !(r->sub[sub] = hist__new()))
		return -ENOMEM;
	return hist__merge(r->sub[sub], h) ? -ENOMEM : 0;
}

static uint64_t row_sum(const struct lat_row *r)
{
	return r->total ? hist__sum(r->total) : 0;
}

static int row_cmp(const struct lat_row *a, const struct lat_row *b)
{
	uint64_t x = row_sum(a), y = row_sum(b);

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (x != y)
		return x > y ? -1 : 1;
	if (a->key[0] != b->key[0])
		return a->key[0] < b->key[0] ? -1 : 1;
	return a->key[1] < b->key[1] ? -1 : a->key[1] > b->key[1];
}

#define LAT_COUNT_WIDTH 16

/*
 * The table's description: the label (text) or the key's members (JSON),
 * the statistics of the totals, the threshold's and the mark's counts if
 * set, the sub-rows, the log2 histogram if kept.  @at: where each of
 * C_* went (-1: not in this table).  Returns the number of columns.
 */
enum {
	C_LABEL,
	C_STATS,
	C_THAN_NS,
	C_SLOW,
	C_LOWER_NS,
	C_FAST,
	C_MARK,
	C_LOG2,
	C_SUB,
	C_KEYS = C_SUB + LAT_MAX_SUB
};
#define LAT_COLS (C_KEYS + LAT_MAX_KEYS)

static int describe(const struct lat_table *t, struct rt_col *c, int *at, char *than, size_t len,
		    char *lower)
{
	enum rt_unit unit = t->row_flags & STATS_PLAIN ? RT_UNIT_COUNT : RT_UNIT_NS;
	char tb[32];
	int n = 0;

	for (int i = 0; i < LAT_COLS; i++)
		at[i] = -1;
	for (int i = 0; i < t->nr_keys; i++) {
		at[C_KEYS + i] = n;
		c[n++] = t->keys[i];
	}
	if (!t->nr_keys) {
		/* a label the owner formats (text only) */
		at[C_LABEL] = n;
		c[n++] = (struct rt_col){ .title = t->key_title,
					  .type = RT_STR,
					  .width = (int)strlen(t->key_title),
					  .flags = RT_LEFT | RT_NO_JSON };
	}
	at[C_STATS] = n;
	c[n++] = (struct rt_col){ .type = RT_STATS, .unit = unit };
	if (t->than) {
		/* the threshold as the command line spells it: ">100ms", ">1500us"; plain ">100" */
		if (unit == RT_UNIT_NS)
			snprintf(than, len, ">%s", units__fmt_exact(t->than, tb, sizeof(tb)));
		else
			snprintf(than, len, ">%llu", (unsigned long long)t->than);
		at[C_THAN_NS] = n;
		c[n++] = unit == RT_UNIT_NS ? (struct rt_col){ .name = "than_ns",
							       .type = RT_NS,
							       .flags = RT_NO_TEXT }
					    : (struct rt_col){ .name = "than",
							       .type = RT_U64,
							       .flags = RT_NO_TEXT };
		at[C_SLOW] = n;
		c[n++] = (struct rt_col){ .name = "slow",
					  .title = than,
					  .type = RT_U64,
					  .width = LAT_COUNT_WIDTH,
					  .flags = RT_PCT_OF };
	}
	if (t->lower) { /* ns tables only (multi-trace --lower) */
		snprintf(lower, len, "<%s", units__fmt_exact(t->lower, tb, sizeof(tb)));
		at[C_LOWER_NS] = n;
		c[n++] = (struct rt_col){ .name = "lower_ns", .type = RT_NS, .flags = RT_NO_TEXT };
		at[C_FAST] = n;
		c[n++] = (struct rt_col){ .name = "fast",
					  .title = lower,
					  .type = RT_U64,
					  .width = LAT_COUNT_WIDTH,
					  .flags = RT_PCT_OF };
	}
	if (t->mark) {
		at[C_MARK] = n;
		c[n++] = (struct rt_col){ .name = t->json_mark,
					  .title = t->mark,
					  .type = RT_U64,
					  .width = LAT_COUNT_WIDTH,
					  .flags = RT_PCT_OF };
	}
	for (int i = 0; i < t->nr_subs; i++) {
		at[C_SUB + i] = n;
		c[n++] = (struct rt_col){ .name = t->subs[i],
					  .title = t->subs[i],
					  .type = RT_STATS,
					  .unit = unit,
					  .flags = RT_SUBROW | RT_OMIT_EMPTY };
	}
	if (t->log2) {
		at[C_LOG2] = n;
		c[n++] = (struct rt_col){
			.name = "hist", .type = RT_LOG2, .unit = unit, .flags = RT_NO_TEXT
		};
	}
	return n;
}

void lat_table__emit(struct lat_table *t, struct rt_sink *k)
{
	struct rt_col cols[LAT_COLS];
	struct rt_desc d = { .type = "row", .cols = cols };
	struct rt_val v[LAT_COLS + 1]; /* + 1: what is not in the table */
	struct lat_row *r, *tmp;
	int at[LAT_COLS];
	char than[48], lower[48];

	d.ncols = describe(t, cols, at, than, sizeof(than), lower);
	for (int i = 0; i < LAT_COLS; i++)
		if (at[i] < 0)
			at[i] = LAT_COLS;
	HASH_SORT(t->rows, row_cmp);
	rtable__begin(k, &d);
	HASH_ITER(hh, t->rows, r, tmp)
	{
		uint64_t calls = r->total ? hist__count(r->total) : 0;

		if (!calls)
			continue;
		v[at[C_LABEL]] = (struct rt_val){ .s = r->label };
		v[at[C_STATS]] = (struct rt_val){ .h = r->total };
		v[at[C_THAN_NS]] = (struct rt_val){ .u = t->than };
		v[at[C_SLOW]] = (struct rt_val){ .u = r->over, .n = calls };
		v[at[C_LOWER_NS]] = (struct rt_val){ .u = t->lower };
		v[at[C_FAST]] = (struct rt_val){ .u = r->under, .n = calls };
		v[at[C_MARK]] = (struct rt_val){ .u = r->marked, .n = calls };
		v[at[C_LOG2]] = (struct rt_val){ .l2 = r->log2 };
		for (int i = 0; i < t->nr_subs; i++)
			v[at[C_SUB + i]] = (struct rt_val){ .h = r->sub[i] };
		for (int i = 0; i < t->nr_keys; i++)
			v[at[C_KEYS + i]] = r->kv[i];
		rtable__row(k, v);
	}
	rtable__end(k);
}

void lat_table__print(struct lat_table *t, FILE *fp)
{
	struct rt_text tx;

	lat_table__emit(t, rt_text__init(&tx, fp));
}

void lat_table__reset(struct lat_table *t)
{
	struct lat_row *r, *tmp;

	HASH_ITER(hh, t->rows, r, tmp)
	{
		if (t->drop_rows) {
			row_free(t, r);
			continue;
		}
		if (r->total)
			hist__reset(r->total);
		for (int i = 0; i < t->nr_subs; i++)
			if (r->sub[i])
				hist__reset(r->sub[i]);
		if (r->log2)
			log2_hist__reset(r->log2);
		r->over = r->under = r->marked = 0;
	}
}

/* @src without the padding of its columns (one space between words) into @dst. */
static void collapse(char *dst, size_t len, const char *src)
{
	size_t j = 0;

	for (; *src && j + 1 < len; src++)
		if (*src != ' ' || (j && dst[j - 1] != ' '))
			dst[j++] = *src;
	while (j > 0 && dst[j - 1] == ' ')
		j--;
	dst[j] = 0;
}

void lat_table__print_log2(struct lat_table *t, FILE *fp, const char *what, const char *title)
{
	char label[LAT_LABEL], key[LAT_LABEL];
	struct lat_row *r, *tmp;

	collapse(key, sizeof(key), t->key_title);
	HASH_SORT(t->rows, row_cmp);
	HASH_ITER(hh, t->rows, r, tmp)
	{
		if (!r->log2 || !log2_hist__count(r->log2))
			continue;
		collapse(label, sizeof(label), r->label);
		fprintf(fp, "\n%s (%s)%s%s\n", label, key, what ? " " : "", what ? what : "");
		log2_hist__print(r->log2, title, fp);
	}
}

unsigned lat_table__rows(const struct lat_table *t)
{
	return t->nr_rows;
}
