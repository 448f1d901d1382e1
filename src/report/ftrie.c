// SPDX-License-Identifier: GPL-2.0
/*
 * Frame trie of a flame graph.  The hot path (ftrie__intern, ftrie__child)
 * is two open-addressing lookups per frame; tables grow at half load so
 * that probes stay short.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/ftrie.h"

#define ARENA_BLOCK (64 * 1024)

/* Eight bytes a step: names are hashed on every sample, so this is hot. */
static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = 0x243f6a8885a308d3ULL ^ len, w;
	size_t total = len;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 31;
	}
	if (len && total >= 8) {
		/* The last 8 bytes, overlapping: no variable-length copy. */
		memcpy(&w, s + len - 8, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	} else if (len) {
		w = 0;
		memcpy(&w, s, len);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

static inline uint32_t slot_of(uint64_t h, uint32_t mask)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (uint32_t)h & mask;
}

int ftrie__init(struct ftrie *t)
{
	memset(t, 0, sizeof(*t));
	t->cap_nodes = 1024;
	t->nodes = calloc(t->cap_nodes, sizeof(*t->nodes));
	t->emask = 2047;
	t->edges = calloc(t->emask + 1, sizeof(*t->edges));
	t->cap_names = 256;
	t->names = calloc(t->cap_names, sizeof(*t->names));
	t->nmask = 511;
	t->ntab = calloc(t->nmask + 1, sizeof(*t->ntab));
	if (!t->nodes || !t->edges || !t->names || !t->ntab) {
		ftrie__exit(t);
		return -ENOMEM;
	}
	t->nr_nodes = 1;
	return 0;
}

void ftrie__exit(struct ftrie *t)
{
	void *b = t->blocks;

	while (b) {
		void *prev = *(void **)b;

		free(b);
		b = prev;
	}
	free(t->nodes);
	free(t->edges);
	free(t->names);
	free(t->ntab);
	free(t->kids);
	memset(t, 0, sizeof(*t));
}

static char *arena_copy(struct ftrie *t, const char *s, size_t len)
{
	char *p;

	if (t->arena_used + len + 1 > t->arena_size) {
		size_t sz = len + 1 + sizeof(void *);
		void *b;

		if (sz < ARENA_BLOCK)
			sz = ARENA_BLOCK;
		b = malloc(sz);
		if (!b)
			return NULL;
		*(void **)b = t->blocks;
		t->blocks = b;
		t->arena = (char *)b + sizeof(void *);
		t->arena_size = sz - sizeof(void *);
		t->arena_used = 0;
	}
	p = t->arena + t->arena_used;
	memcpy(p, s, len);
	p[len] = '\0';
	t->arena_used += len + 1;
	return p;
}

static int names_grow(struct ftrie *t)
{
	uint32_t nmask = t->nmask * 2 + 1;
	uint32_t *ntab = calloc((size_t)nmask + 1, sizeof(*ntab));

	if (!ntab)
		return -ENOMEM;
	for (uint32_t id = 0; id < t->nr_names; id++) {
		uint32_t i = slot_of(t->names[id].hash, nmask);

		while (ntab[i])
			i = (i + 1) & nmask;
		ntab[i] = id + 1;
	}
	free(t->ntab);
	t->ntab = ntab;
	t->nmask = nmask;
	return 0;
}

int ftrie__intern(struct ftrie *t, const char *s, size_t len, uint32_t *id)
{
	uint64_t h = str_hash(s, len);
	uint32_t i = slot_of(h, t->nmask);
	struct fname *n;

	while (t->ntab[i]) {
		n = &t->names[t->ntab[i] - 1];
		if (n->hash == h && n->len == len && memcmp(n->s, s, len) == 0) {
			*id = t->ntab[i] - 1;
			return 0;
		}
		i = (i + 1) & t->nmask;
	}
	if (len > UINT32_MAX)
		return -EINVAL;
	if (t->nr_names == t->cap_names) {
		struct fname *nn = realloc(t->names, 2 * sizeof(*nn) * t->cap_names);

		if (!nn)
			return -ENOMEM;
		t->names = nn;
		t->cap_names *= 2;
	}
	n = &t->names[t->nr_names];
	n->s = arena_copy(t, s, len);
	if (!n->s)
		return -ENOMEM;
	n->len = len;
	n->hash = h;
	n->rank = 0;
	t->ntab[i] = ++t->nr_names;
	*id = t->nr_names - 1;
	t->sorted = 0;
	if (t->nr_names * 2 > t->nmask)
		return names_grow(t);
	return 0;
}

static inline uint32_t edge_slot(uint32_t parent1, uint32_t name, uint32_t mask)
{
	return slot_of((uint64_t)parent1 << 32 | name, mask);
}

static int edges_grow(struct ftrie *t)
{
	uint32_t emask = t->emask * 2 + 1;
	struct fedge *edges = calloc((size_t)emask + 1, sizeof(*edges));

	if (!edges)
		return -ENOMEM;
	for (uint32_t j = 0; j <= t->emask; j++) {
		const struct fedge *e = &t->edges[j];
		uint32_t i;

		if (!e->parent1)
			continue;
		i = edge_slot(e->parent1, e->name, emask);
		while (edges[i].parent1)
			i = (i + 1) & emask;
		edges[i] = *e;
	}
	free(t->edges);
	t->edges = edges;
	t->emask = emask;
	return 0;
}

int ftrie__child(struct ftrie *t, uint32_t parent, uint32_t name, uint32_t *child)
{
	uint32_t parent1 = parent + 1, i = edge_slot(parent1, name, t->emask);
	struct fnode *n;

	while (t->edges[i].parent1) {
		if (t->edges[i].parent1 == parent1 && t->edges[i].name == name) {
			*child = t->edges[i].child;
			return 0;
		}
		i = (i + 1) & t->emask;
	}
	if (t->nr_nodes >= UINT32_MAX - 1)
		return -ENOMEM;
	if (t->nr_nodes == t->cap_nodes) {
		struct fnode *nn = realloc(t->nodes, 2 * sizeof(*nn) * t->cap_nodes);

		if (!nn)
			return -ENOMEM;
		t->nodes = nn;
		t->cap_nodes *= 2;
	}
	n = &t->nodes[t->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->name = name;
	n->depth = t->nodes[parent].depth + 1;
	t->edges[i] = (struct fedge){ .parent1 = parent1, .name = name, .child = t->nr_nodes };
	*child = t->nr_nodes++;
	t->nr_edges++;
	t->sorted = 0;
	/* Grow at 70% load: linear probing stays short, and big tries stay smaller. */
	if ((uint64_t)t->nr_edges * 10 > (uint64_t)t->emask * 7)
		return edges_grow(t);
	return 0;
}

static int name_cmp(const void *a, const void *b, void *arg)
{
	const struct fname *names = arg;
	const struct fname *x = &names[*(const uint32_t *)a], *y = &names[*(const uint32_t *)b];
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

static int kid_cmp(const void *a, const void *b, void *arg)
{
	const struct ftrie *t = arg;
	uint32_t x = t->names[t->nodes[*(const uint32_t *)a].name].rank;
	uint32_t y = t->names[t->nodes[*(const uint32_t *)b].name].rank;

	return x < y ? -1 : x > y;
}

int ftrie__sort(struct ftrie *t)
{
	uint32_t *order, *fill;

	if (t->sorted)
		return 0;
	order = malloc(sizeof(*order) * (t->nr_names + 1));
	fill = calloc(t->nr_nodes, sizeof(*fill));
	free(t->kids);
	t->kids = malloc(sizeof(*t->kids) * t->nr_nodes);
	if (!order || !fill || !t->kids) {
		free(order);
		free(fill);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < t->nr_names; i++)
		order[i] = i;
	qsort_r(order, t->nr_names, sizeof(*order), name_cmp, t->names);
	for (uint32_t i = 0; i < t->nr_names; i++)
		t->names[order[i]].rank = i;

	/* Children always have higher ids than their parent. */
	for (uint32_t i = 0; i < t->nr_nodes; i++) {
		t->nodes[i].total = t->nodes[i].self;
		t->nodes[i].nr_kids = 0;
	}
	for (uint32_t i = t->nr_nodes - 1; i > 0; i--) {
		struct fnode *p = &t->nodes[t->nodes[i].parent];

		p->total += t->nodes[i].total;
		p->nr_kids++;
	}
	/* Group the children by parent (counting sort), then order each group by name. */
	for (uint32_t i = 0, pos = 0; i < t->nr_nodes; i++) {
		t->nodes[i].first_child = pos;
		pos += t->nodes[i].nr_kids;
	}
	for (uint32_t i = 1; i < t->nr_nodes; i++) {
		uint32_t p = t->nodes[i].parent;

		t->kids[t->nodes[p].first_child + fill[p]++] = i;
	}
	for (uint32_t i = 0; i < t->nr_nodes; i++) {
		if (t->nodes[i].nr_kids > 1)
			qsort_r(&t->kids[t->nodes[i].first_child], t->nodes[i].nr_kids,
				sizeof(*t->kids), kid_cmp, t);
	}
	free(order);
	free(fill);
	t->sorted = 1;
	return 0;
}

static uint32_t max_depth(const struct ftrie *t)
{
	uint32_t maxd = 0;

	for (uint32_t i = 0; i < t->nr_nodes; i++)
		if (t->nodes[i].depth > maxd)
			maxd = t->nodes[i].depth;
	return maxd;
}

int ftrie__walk(const struct ftrie *t, ftrie_visit_fn visit, void *arg)
{
	struct {
		uint32_t node, next;
	} *st = malloc(sizeof(*st) * (max_depth(t) + 1));
	uint32_t sp = 0;
	int ret = 0;

	if (!st)
		return -ENOMEM;
	st[0].node = 0;
	st[0].next = 0;
	for (;;) {
		const struct fnode *n = &t->nodes[st[sp].node];
		uint32_t c;

		if (st[sp].next == n->nr_kids) {
			if (sp == 0)
				break;
			sp--;
			continue;
		}
		c = t->kids[n->first_child + st[sp].next++];
		ret = visit(arg, c, sp + 1);
		if (ret < 0)
			break;
		if (ret > 0) {
			sp++;
			st[sp].node = c;
			st[sp].next = 0;
		}
		ret = 0;
	}
	free(st);
	return ret;
}

struct folded {
	const struct ftrie *t;
	FILE *fp;
	char *path;
	size_t cap;
	size_t *len; /* [depth]: path length up to that depth's name */
};

static int put_line(void *arg, uint32_t c, uint32_t depth)
{
	struct folded *f = arg;
	const struct fname *nm = &f->t->names[f->t->nodes[c].name];
	size_t start = f->len[depth - 1], len = start + (depth > 1 ? 1 : 0) + nm->len;

	if (len + 1 > f->cap) {
		size_t cap = f->cap;
		char *np;

		while (len + 1 > cap)
			cap *= 2;
		np = realloc(f->path, cap);
		if (!np)
			return -ENOMEM;
		f->path = np;
		f->cap = cap;
	}
	if (depth > 1)
		f->path[start] = ';';
	memcpy(f->path + len - nm->len, nm->s, nm->len);
	f->len[depth] = len;
	if (f->t->nodes[c].self) {
		fwrite(f->path, 1, len, f->fp);
		fprintf(f->fp, " %llu\n", (unsigned long long)f->t->nodes[c].self);
	}
	return 1;
}

int ftrie__write_folded(struct ftrie *t, FILE *fp)
{
	struct folded f = { .t = t, .fp = fp, .cap = 4096 };
	int err;

	err = ftrie__sort(t);
	if (err)
		return err;
	f.path = malloc(f.cap);
	f.len = calloc(max_depth(t) + 1, sizeof(*f.len));
	err = f.path && f.len ? ftrie__walk(t, put_line, &f) : -ENOMEM;
	free(f.path);
	free(f.len);
	if (!err && ferror(fp))
		err = -EIO;
	return err;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

int ftrie__parse_folded_line(const char *line, size_t len, size_t *stack_len, uint64_t *w)
{
	const char *end = line + len, *sep = end, *p;
	bool over = false;
	uint64_t x = 0;

	while (sep > line && !blank(sep[-1]))
		sep--;
	if (sep == line || sep == end)
		return 0; /* no blank, or nothing after the last one */
	for (p = sep; p < end; p++) {
		unsigned d = (unsigned char)*p - '0';

		if (d > 9)
			return 0;
		if (x > (UINT64_MAX - d) / 10)
			over = true;
		else
			x = x * 10 + d;
	}
	while (sep > line && blank(sep[-1]))
		sep--;
	if (sep == line)
		return 0; /* a count without a stack */
	for (p = line; p < sep; p++) {
		unsigned char c = *p;

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 0;
	}
	if (over)
		return -EOVERFLOW;
	*stack_len = sep - line;
	*w = x;
	return 1;
}

/*
 * Folded files are usually sorted, so a line mostly repeats the frames that
 * start the line before it: those are found by comparing the two lines and
 * their nodes reused, without a lookup.
 */
struct prev_line {
	char *s;
	size_t len, cap;
	uint32_t *nodes; /* node of each frame */
	size_t nr, nodes_cap;
};

static int add_stack(struct ftrie *t, struct prev_line *pl, const char *s, size_t n, uint32_t *leaf)
{
	size_t c = 0, lim = n < pl->len ? n : pl->len, k = 0;
	const char *p = s, *end;
	uint32_t node = 0, id;
	int err = 0;

	for (uint64_t a, b; c + 8 <= lim; c += 8) {
		memcpy(&a, s + c, 8);
		memcpy(&b, pl->s + c, 8);
		if (a != b)
			break;
	}
	while (c < lim && s[c] == pl->s[c])
		c++;
	for (;; p = end + 1, k++) {
		size_t e;

		end = memchr(p, ';', s + n - p);
		if (!end)
			end = s + n;
		e = end - s;
		if (k >= pl->nodes_cap) {
			size_t nc = pl->nodes_cap ? 2 * pl->nodes_cap : 64;
			uint32_t *nn = realloc(pl->nodes, nc * sizeof(*nn));

			if (!nn)
				return -ENOMEM;
			pl->nodes = nn;
			pl->nodes_cap = nc;
		}
		if (k < pl->nr && e <= c && (e == pl->len || pl->s[e] == ';')) {
			node = pl->nodes[k];
		} else {
			c = 0; /* the rest differs */
			err = ftrie__intern(t, p, end - p, &id);
			if (!err)
				err = ftrie__child(t, node, id, &node);
			if (err)
				return err;
		}
		pl->nodes[k] = node;
		if (end == s + n)
			break;
	}
	if (n + 1 > pl->cap) {
		char *ns = realloc(pl->s, n + 1);

		if (!ns)
			return -ENOMEM;
		pl->s = ns;
		pl->cap = n + 1;
	}
	memcpy(pl->s, s, n);
	pl->len = n;
	pl->nr = k + 1;
	*leaf = node;
	return 0;
}

int ftrie__read_folded(struct ftrie *t, FILE *fp, struct folded_stats *st)
{
	struct prev_line pl = { 0 };
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int err = 0;

	*st = (struct folded_stats){ 0 };
	t->err_line = 0;
	while ((errno = 0, len = getline(&line, &cap, fp)) >= 0) {
		size_t n;
		uint32_t node;
		uint64_t w;
		int ok;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
				   line[len - 1] == ' ' || line[len - 1] == '\t'))
			line[--len] = '\0';
		if (len == 0)
			continue;
		st->lines++;
		ok = ftrie__parse_folded_line(line, len, &n, &w);
		/* every frame's total is at most the sum of all counts: it must fit */
		if (ok < 0 || (ok > 0 && st->total + w < st->total)) {
			st->err_line = t->err_line = lineno;
			err = -EOVERFLOW;
			break;
		}
		if (!ok) {
			if (!st->bad++)
				st->first_bad = lineno;
			continue;
		}
		st->total += w;
		if (!w)
			continue; /* a valid line with nothing to draw */
		err = add_stack(t, &pl, line, n, &node);
		if (err)
			break;
		t->nodes[node].self += w;
	}
	if (!err && ferror(fp))
		err = errno ? -errno : -EIO; /* getline's: EISDIR for a directory */
	free(line);
	free(pl.s);
	free(pl.nodes);
	return err;
}
