// SPDX-License-Identifier: GPL-2.0
/* A latency table of keyed histograms with sub-rows: see lat_table.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "report/hist.h"
#include "report/lat_table.h"
#include "report/log2_hist.h"
#include "report/stats_table.h"

struct lat_row {
	uint64_t key;
	int group;
	char label[LAT_LABEL];
	struct hist *total;
	struct hist *sub[LAT_MAX_SUB];
	struct log2_hist *log2; /* LAT_LOG2 */
	UT_hash_handle hh;
};

struct lat_table {
	char *key_title;
	const char *subs[LAT_MAX_SUB];
	int nr_subs;
	bool drop_rows;
	bool log2;	    /* LAT_LOG2 */
	unsigned row_flags; /* STATS_* */
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
	free(t);
}

void lat_row__label(struct lat_row *r, const char *label)
{
	snprintf(r->label, sizeof(r->label), "%s", label);
}

struct lat_row *lat_table__row(struct lat_table *t, uint64_t key, int group, const char *label)
{
	struct lat_row *r;

	HASH_FIND(hh, t->rows, &key, sizeof(key), r);
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			return NULL;
		r->key = key;
		r->group = group;
		HASH_ADD(hh, t->rows, key, sizeof(r->key), r);
		t->nr_rows++;
	}
	if (label)
		lat_row__label(r, label);
	return r;
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
	return a->key < b->key ? -1 : a->key > b->key;
}

void lat_table__print(struct lat_table *t, FILE *fp)
{
	int width = (int)strlen(t->key_title);
	char buf[LAT_LABEL + 16];
	struct lat_row *r, *tmp;

	HASH_SORT(t->rows, row_cmp);
	stats_table__header(fp, t->key_title);
	HASH_ITER(hh, t->rows, r, tmp)
	{
		if (!r->total || !hist__count(r->total))
			continue;
		snprintf(buf, sizeof(buf), "%-*s", width, r->label);
		stats_table__row_ex(fp, buf, r->total, t->row_flags);
		for (int i = 0; i < t->nr_subs; i++) {
			if (!r->sub[i] || !hist__count(r->sub[i]))
				continue;
			snprintf(buf, sizeof(buf), "  %-*s", width > 2 ? width - 2 : 0, t->subs[i]);
			stats_table__row_ex(fp, buf, r->sub[i], t->row_flags);
		}
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
