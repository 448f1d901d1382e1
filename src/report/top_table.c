// SPDX-License-Identifier: GPL-2.0
/* The key -> columns table of top (report/top_table.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <uthash.h>

#include "report/rtable.h"
#include "report/top_table.h"

struct top_row {
	UT_hash_handle hh;
	unsigned char key[1 + TOP_KEY_MAX]; /* 'n' + 8 bytes, or 's' + the string */
	unsigned keylen;
	char label[TOP_KEY_MAX + 1];
	char comm[17];
	uint64_t v[];
};

struct top_table {
	char *key_title;
	bool comm;
	struct top_col *cols;
	bool *neg; /* a column saw a negative value: print signed */
	int ncols;
	struct top_row *rows;
	unsigned nr_rows;
	uint64_t not_kept;
};

struct top_table *top_table__new(const char *key_title, bool comm, const struct top_col *cols,
				 int ncols)
{
	struct top_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->key_title = strdup(key_title);
	t->cols = calloc(ncols ? ncols : 1, sizeof(*t->cols));
	t->neg = calloc(ncols ? ncols : 1, sizeof(*t->neg));
	if (!t->key_title || !t->cols || !t->neg) {
		top_table__delete(t);
		return NULL;
	}
	memcpy(t->cols, cols, ncols * sizeof(*cols));
	t->ncols = ncols;
	t->comm = comm;
	return t;
}

void top_table__reset(struct top_table *t)
{
	struct top_row *r, *tmp;

	HASH_ITER(hh, t->rows, r, tmp)
	{
		HASH_DEL(t->rows, r);
		free(r);
	}
	t->nr_rows = 0;
	t->not_kept = 0;
}

void top_table__delete(struct top_table *t)
{
	if (!t)
		return;
	top_table__reset(t);
	free(t->key_title);
	free(t->cols);
	free(t->neg);
	free(t);
}

struct top_row *top_table__row(struct top_table *t, uint64_t num, const char *str, int len,
			       bool *created)
{
	unsigned char key[1 + TOP_KEY_MAX];
	struct top_row *r;
	unsigned keylen;

	if (str) {
		if (len < 0)
			len = 0;
		if (len > TOP_KEY_MAX)
			len = TOP_KEY_MAX;
		key[0] = 's';
		memcpy(key + 1, str, len);
		keylen = 1 + (unsigned)len;
	} else {
		key[0] = 'n';
		memcpy(key + 1, &num, sizeof(num));
		keylen = 1 + sizeof(num);
	}
	*created = false;
	HASH_FIND(hh, t->rows, key, keylen, r);
	if (r)
		return r;
	if (t->nr_rows >= TOP_MAX_ROWS ||
	    !(r = calloc(1, sizeof(*r) + t->ncols * sizeof(r->v[0])))) {
		t->not_kept++;
		return NULL;
	}
	memcpy(r->key, key, keylen);
	r->keylen = keylen;
	HASH_ADD(hh, t->rows, key, keylen, r);
	t->nr_rows++;
	*created = true;
	return r;
}

static void copy_text(char *dst, size_t size, const char *src, int len)
{
	if (len < 0)
		len = 0;
	if ((size_t)len >= size)
		len = (int)size - 1;
	memcpy(dst, src, len);
	dst[len] = 0;
	dst[strnlen(dst, len)] = 0; /* up to a NUL inside */
}

void top_row__set_label(struct top_row *r, const char *label, int len)
{
	copy_text(r->label, sizeof(r->label), label, len);
}

void top_row__set_comm(struct top_row *r, const char *comm, int len)
{
	copy_text(r->comm, sizeof(r->comm), comm, len);
}

void top_row__add(struct top_table *t, struct top_row *r, int col, uint64_t v, bool neg)
{
	r->v[col] += v;
	if (neg)
		t->neg[col] = true;
}

unsigned top_table__nr_rows(const struct top_table *t)
{
	return t->nr_rows;
}

static const struct top_table *sort_table; /* qsort has no context argument */

static int cmp_col(const struct top_row *a, const struct top_row *b, int c, bool neg)
{
	if (neg) {
		int64_t x = (int64_t)a->v[c], y = (int64_t)b->v[c];

		return x < y ? 1 : x > y ? -1 : 0;
	}
	return a->v[c] < b->v[c] ? 1 : a->v[c] > b->v[c] ? -1 : 0;
}

/* By the "by" columns in order, then the others, largest first; then the label. */
static int cmp_rows(const void *pa, const void *pb)
{
	const struct top_row *a = *(struct top_row *const *)pa, *b = *(struct top_row *const *)pb;
	const struct top_table *t = sort_table;
	int d;

	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < t->ncols; c++)
			if (t->cols[c].by == !pass && (d = cmp_col(a, b, c, t->neg[c])))
				return d;
	return strcmp(a->label, b->label);
}

/* A label that is a decimal number (the text of a number key), and its value. */
static bool label_num(const struct top_row *r, int64_t *v)
{
	const char *p = r->label;
	char *end;

	if (r->key[0] != 'n' || !*p || (*p == '-' ? !p[1] : *p < '0' || *p > '9'))
		return false;
	errno = 0;
	*v = strtoll(p, &end, 10);
	if (*end || errno)
		return false;
	if (*p != '-' && *v < 0)
		return false;
	return true;
}

/*
 * The table's description: the key (JSON: "tid", "comm" or "key" by its
 * title; a label that came from a number is a number), the comm, the
 * columns (JSON: in "values", by their titles), each as wide as its values.
 */
static int describe(const struct top_table *t, struct rt_col *c)
{
	int n = 0;

	c[n++] = (struct rt_col){ .name = !strcmp(t->key_title, "TID")	  ? "tid"
					  : !strcmp(t->key_title, "COMM") ? "comm"
									  : "key",
				  .title = t->key_title,
				  .type = RT_STR,
				  .flags = RT_LEFT | RT_FIT };
	if (t->comm)
		c[n++] = (struct rt_col){ .name = "comm",
					  .title = "COMM",
					  .type = RT_STR,
					  .width = 16,
					  .flags = RT_LEFT | RT_EMPTY_NULL };
	for (int i = 0; i < t->ncols; i++)
		c[n++] = (struct rt_col){ .name = t->cols[i].title,
					  .title = t->cols[i].title,
					  .type = t->neg[i] ? RT_S64 : RT_U64,
					  .obj = "values",
					  .flags = RT_FIT };
	return n;
}

static void row_vals(const struct top_table *t, const struct top_row *r, struct rt_val *v)
{
	int n = 0;

	v[n] = (struct rt_val){ .s = r->label };
	v[n].num = label_num(r, &v[n].i);
	n++;
	if (t->comm)
		v[n++] = (struct rt_val){ .s = r->comm };
	for (int i = 0; i < t->ncols; i++)
		v[n++] = (struct rt_val){ .u = r->v[i] };
}

int top_table__emit(struct top_table *t, struct rt_sink *k)
{
	struct rt_col *cols = malloc((2 + t->ncols) * sizeof(*cols));
	struct rt_val *v = malloc((2 + t->ncols) * sizeof(*v));
	struct rt_desc d = { .type = "row", .cols = cols };
	struct top_row **rows = NULL, *r, *tmp;
	int n = 0;

	if (t->nr_rows)
		rows = malloc(t->nr_rows * sizeof(*rows));
	if (!cols || !v || (t->nr_rows && !rows)) {
		free(cols);
		free(v);
		free(rows);
		return -ENOMEM;
	}
	d.ncols = describe(t, cols);
	HASH_ITER(hh, t->rows, r, tmp)
	{
		rows[n++] = r;
		row_vals(t, r, v);
		rtable__fit(k, &d, v);
	}
	sort_table = t;
	if (n > 1) /* (no rows: rows is NULL, which qsort must not get) */
		qsort(rows, n, sizeof(*rows), cmp_rows);
	rtable__begin(k, &d);
	for (int i = 0; i < n; i++) {
		row_vals(t, rows[i], v);
		rtable__row(k, v);
	}
	rtable__end(k);
	free(rows);
	free(v);
	free(cols);
	return 0;
}

void top_table__print(struct top_table *t, FILE *out, int max_rows)
{
	struct rt_text tx;

	rt_text__init(&tx, out);
	tx.max_rows = max_rows;
	if (top_table__emit(t, &tx.sink)) {
		fprintf(out, "top: out of memory\n");
		return;
	}
	if (t->not_kept)
		fprintf(out, "top: %" PRIu64 " samples of new keys not kept (%u keys at most)\n",
			t->not_kept, TOP_MAX_ROWS);
}

uint64_t top_table__not_kept(const struct top_table *t)
{
	return t->not_kept;
}

int top_screen__begin(FILE *out)
{
	struct winsize ws;

	if (!isatty(fileno(out)))
		return 0;
	fputs("\033[H\033[2J", out);
	/* a terminal that does not say its size (a bare pty): no limit */
	if (ioctl(fileno(out), TIOCGWINSZ, &ws) || !ws.ws_row)
		return TOP_MAX_ROWS;
	return ws.ws_row;
}
