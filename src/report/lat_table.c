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
#include "report/stats_table.h"
#include "util/units.h"
#include "util/json.h"

struct lat_row {
	uint64_t key[2];
	int group;
	char label[LAT_LABEL];
	struct hist *total;
	struct hist *sub[LAT_MAX_SUB];
	struct log2_hist *log2; /* LAT_LOG2 */
	uint64_t over;		/* totals above the table's than */
	uint64_t marked;	/* lat_row__mark */
	char *json_key;		/* --json: the key's members */
	UT_hash_handle hh;
};

struct lat_table {
	char *key_title;
	const char *subs[LAT_MAX_SUB];
	int nr_subs;
	bool drop_rows;
	bool log2;	    /* LAT_LOG2 */
	unsigned row_flags; /* STATS_* */
	uint64_t than;	    /* lat_table__set_than */
	char *mark;	    /* lat_table__set_mark */
	char *json_mark;    /* its --json member name */
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
	free(r->json_key);
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

void lat_row__mark(struct lat_row *r)
{
	r->marked++;
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

/* "N (x.x%)" of @calls. */
static void print_count(FILE *fp, uint64_t n, uint64_t calls)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%" PRIu64 " (%.1f%%)", n, calls ? 100.0 * n / calls : 0.0);
	fprintf(fp, " %*s", LAT_COUNT_WIDTH, buf);
}

void lat_table__print(struct lat_table *t, FILE *fp)
{
	int width = (int)strlen(t->key_title);
	char buf[LAT_LABEL + 16];
	struct lat_row *r, *tmp;

	HASH_SORT(t->rows, row_cmp);
	stats_table__header_open(fp, t->key_title);
	if (t->than) {
		char tb[32];

		/* the threshold as the command line spells it: ">100ms", ">1500us" */
		snprintf(buf, sizeof(buf), ">%s", units__fmt_exact(t->than, tb, sizeof(tb)));
		fprintf(fp, " %*s", LAT_COUNT_WIDTH, buf);
	}
	if (t->mark)
		fprintf(fp, " %*s", LAT_COUNT_WIDTH, t->mark);
	fputc('\n', fp);
	HASH_ITER(hh, t->rows, r, tmp)
	{
		if (!r->total || !hist__count(r->total))
			continue;
		snprintf(buf, sizeof(buf), "%-*s", width, r->label);
		stats_table__row_ex(fp, buf, r->total, t->row_flags | STATS_NO_EOL);
		if (t->than)
			print_count(fp, r->over, hist__count(r->total));
		if (t->mark)
			print_count(fp, r->marked, hist__count(r->total));
		fputc('\n', fp);
		for (int i = 0; i < t->nr_subs; i++) {
			if (!r->sub[i] || !hist__count(r->sub[i]))
				continue;
			snprintf(buf, sizeof(buf), "  %-*s", width > 2 ? width - 2 : 0, t->subs[i]);
			stats_table__row_ex(fp, buf, r->sub[i], t->row_flags);
		}
	}
}

void lat_row__set_json_key(struct lat_row *r, char *members)
{
	free(r->json_key);
	r->json_key = members;
}

bool lat_row__has_json_key(const struct lat_row *r)
{
	return r->json_key != NULL;
}

static void json_row(struct lat_table *t, struct lat_row *r, FILE *fp, const struct stats_stamp *st)
{
	struct json j;

	json__begin(&j, fp, "row");
	stats_stamp__json(&j, st);
	json__raw(&j, r->json_key);
	stats_table__json(&j, r->total, t->row_flags);
	if (t->than) {
		json__u64(&j, "than_ns", t->than);
		json__u64(&j, "slow", r->over);
	}
	if (t->json_mark)
		json__u64(&j, t->json_mark, r->marked);
	for (int i = 0; i < t->nr_subs; i++) {
		if (!r->sub[i] || !hist__count(r->sub[i]))
			continue;
		json__obj(&j, t->subs[i]);
		stats_table__json(&j, r->sub[i], t->row_flags);
		json__close(&j);
	}
	if (r->log2)
		log2_hist__json(r->log2, &j, "hist", !(t->row_flags & STATS_PLAIN));
	json__end(&j);
}

void lat_table__json(struct lat_table *t, FILE *fp, const struct stats_stamp *st)
{
	struct lat_row *r, *tmp;

	HASH_SORT(t->rows, row_cmp);
	HASH_ITER(hh, t->rows, r, tmp)
	{
		if (r->total && hist__count(r->total))
			json_row(t, r, fp, st);
	}
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
		r->over = r->marked = 0;
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
