// SPDX-License-Identifier: GPL-2.0
/* Nested calls per key and their call tree: see calltree.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "analysis/latency/calltree.h"
#include "engine/session.h"
#include "report/hist.h"
#include "report/rtable.h"
#include "report/stats_table.h"

struct node {
	int func;			    /* -1: the root, or a key's (--perins) */
	uint64_t key;			    /* a key node's */
	struct node *parent, *child, *next; /* children: a list */
	struct hist *lat;
	UT_hash_handle hh; /* a key's, in calltree.keys */
};

struct frame {
	int func;
	uint64_t start;
	struct node *node;
	void *data;
};

struct kstack {
	uint64_t key;
	int depth;
	/* per function, the calls entered above CALLTREE_DEPTH, not kept: their exits come first */
	uint32_t over[CALLTREE_MAX_FUNCS];
	uint32_t nr_over;
	struct frame f[CALLTREE_DEPTH];
	UT_hash_handle hh;
};

struct calltree {
	const char *names[CALLTREE_MAX_FUNCS];
	int nr_funcs, name_width;
	struct node root;
	struct node *keys; /* --perins: the keys' trees by key (also the root's children) */
	struct kstack *stacks;
	struct kstack *spare; /* one freed stack, reused */
	void (*free_data)(void *data);
	/* drops, for the run */
	uint64_t too_deep, unwound, orphan_exits, lost, exited, nomem;
	bool failed_alloc;
	bool per_thread;       /* calltree__add_hooks: the keys are thread ids */
	const char *key_title; /* calltree__set_perins: a tree per key */
};

struct calltree *calltree__new(const char *const *names, void (*free_data)(void *data))
{
	struct calltree *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->free_data = free_data;
	for (; names[t->nr_funcs] && t->nr_funcs < CALLTREE_MAX_FUNCS; t->nr_funcs++) {
		int l = (int)strlen(names[t->nr_funcs]);

		t->names[t->nr_funcs] = names[t->nr_funcs];
		if (l > t->name_width)
			t->name_width = l;
	}
	t->root.func = -1;
	return t;
}

static void node_free(struct node *n)
{
	while (n->child) {
		struct node *c = n->child;

		n->child = c->next;
		node_free(c);
		free(c);
	}
	hist__delete(n->lat);
}

void calltree__delete(struct calltree *t)
{
	if (!t)
		return;
	calltree__lost(t); /* frees the stacks and their data */
	free(t->spare);
	HASH_CLEAR(hh, t->keys); /* the nodes: the root's children */
	node_free(&t->root);
	free(t);
}

static struct node *child_of(struct calltree *t, struct node *parent, int func)
{
	struct node *c;

	for (c = parent->child; c; c = c->next)
		if (c->func == func)
			return c;
	c = calloc(1, sizeof(*c));
	if (!c) {
		t->failed_alloc = true;
		return NULL;
	}
	c->func = func;
	c->parent = parent;
	c->next = parent->child;
	parent->child = c;
	return c;
}

/* --perins: the node of @key's tree, under the root */
static struct node *key_node(struct calltree *t, uint64_t key)
{
	struct node *c;

	HASH_FIND(hh, t->keys, &key, sizeof(key), c);
	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c) {
		t->failed_alloc = true;
		return NULL;
	}
	c->func = -1;
	c->key = key;
	c->parent = &t->root;
	c->next = t->root.child;
	t->root.child = c;
	HASH_ADD(hh, t->keys, key, sizeof(c->key), c);
	return c;
}

void calltree__set_perins(struct calltree *t, const char *key_title)
{
	t->key_title = key_title;
}

static void drop_stack(struct calltree *t, struct kstack *k)
{
	HASH_DEL(t->stacks, k);
	if (!t->spare)
		t->spare = k;
	else
		free(k);
}

void **calltree__entry(struct calltree *t, uint64_t key, int func, uint64_t time)
{
	struct kstack *k;
	struct frame *f;
	struct node *n;

	HASH_FIND(hh, t->stacks, &key, sizeof(key), k);
	if (!k) {
		k = t->spare ? t->spare : malloc(sizeof(*k));
		t->spare = NULL;
		if (!k) {
			t->nomem++;
			return NULL;
		}
		k->key = key;
		k->depth = 0;
		memset(k->over, 0, sizeof(k->over));
		k->nr_over = 0;
		HASH_ADD(hh, t->stacks, key, sizeof(k->key), k);
	}
	if (k->depth == CALLTREE_DEPTH) {
		t->too_deep++;
		if (func >= 0 && func < CALLTREE_MAX_FUNCS) {
			k->over[func]++;
			k->nr_over++;
		}
		return NULL;
	}
	if (k->depth)
		n = k->f[k->depth - 1].node;
	else
		n = t->key_title ? key_node(t, key) : &t->root;
	n = n ? child_of(t, n, func) : NULL;
	if (!n) {
		t->nomem++;
		if (!k->depth)
			drop_stack(t, k);
		return NULL;
	}
	f = &k->f[k->depth++];
	f->func = func;
	f->start = time;
	f->node = n;
	f->data = NULL;
	return &f->data;
}

bool calltree__exit(struct calltree *t, uint64_t key, int func, uint64_t time,
		    struct calltree_ret *ret)
{
	struct kstack *k;
	struct frame *f;
	int d;

	HASH_FIND(hh, t->stacks, &key, sizeof(key), k);
	/* a call of @func not kept returns (a recursion's, often): the innermost first */
	if (k && func >= 0 && func < CALLTREE_MAX_FUNCS && k->over[func]) {
		k->over[func]--;
		k->nr_over--;
		return false;
	}
	for (d = k ? k->depth - 1 : -1; d >= 0 && k->f[d].func != func; d--)
		;
	if (d < 0 || time < k->f[d].start) {
		t->orphan_exits++;
		return false;
	}
	/* the calls above it never returned (their exits were not seen), those not kept too */
	t->unwound += (uint64_t)(k->depth - 1 - d) + k->nr_over;
	memset(k->over, 0, sizeof(k->over));
	k->nr_over = 0;
	for (int i = d + 1; i < k->depth; i++)
		if (t->free_data && k->f[i].data)
			t->free_data(k->f[i].data);
	f = &k->f[d];
	*ret = (struct calltree_ret){
		.func = func,
		.depth = d,
		.start = f->start,
		.delta = time - f->start,
		.data = f->data,
	};
	if ((f->node->lat || (f->node->lat = hist__new())) &&
	    !hist__record(f->node->lat, ret->delta))
		;
	else
		t->failed_alloc = true;
	k->depth = d;
	if (!k->depth)
		drop_stack(t, k);
	return true;
}

static void drop_all(struct calltree *t, struct kstack *k, uint64_t *count)
{
	for (int d = 0; d < k->depth; d++)
		if (t->free_data && k->f[d].data)
			t->free_data(k->f[d].data);
	*count += (uint64_t)k->depth + k->nr_over;
	drop_stack(t, k);
}

void calltree__lost(struct calltree *t)
{
	struct kstack *k, *tmp;

	HASH_ITER(hh, t->stacks, k, tmp)
	{
		drop_all(t, k, &t->lost);
	}
}

void calltree__forget(struct calltree *t, uint64_t key)
{
	struct kstack *k;

	HASH_FIND(hh, t->stacks, &key, sizeof(key), k);
	if (k)
		drop_all(t, k, &t->exited);
}

static void on_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	(void)s, (void)cpu, (void)nr;
	calltree__lost(priv);
}

static void on_exit_rec(struct session *s, void *priv, const struct rec_task *t)
{
	struct calltree *tree = priv;

	(void)s;
	if (tree->per_thread)
		calltree__forget(tree, t->tid);
}

static const struct session_ops calltree_ops = { .lost = on_lost, .exit = on_exit_rec };

int calltree__add_hooks(struct calltree *t, struct session *s, bool per_thread)
{
	t->per_thread = per_thread;
	return session__add_ops(s, &calltree_ops, t);
}

static uint64_t node_total(const struct node *n)
{
	return n->lat ? hist__sum(n->lat) : 0;
}

static int by_total(const void *a, const void *b)
{
	const struct node *x = *(const struct node *const *)a, *y = *(const struct node *const *)b;
	uint64_t tx = node_total(x), ty = node_total(y);

	if (x->func < 0 && y->func < 0) /* keys' trees: by key */
		return x->key < y->key ? -1 : x->key > y->key;
	if (tx != ty)
		return tx > ty ? -1 : 1;
	return x->func - y->func;
}

/*
 * The tree's description: the call indented by its depth (text), or its
 * "func", "depth" and "path" (outermost first), then its statistics.
 */
enum { C_KEY, C_LABEL, C_FUNC, C_DEPTH, C_PATH, C_STATS, NR_COLS };

static void emit_node(struct calltree *t, const struct node *n, int depth, uint64_t key,
		      struct rt_sink *k)
{
	const char *path[CALLTREE_DEPTH + 1];
	char label[CALLTREE_DEPTH * 2 + 64];
	int np = 0, width = t->name_width + 2 * 8;
	const struct node **kids;
	struct rt_val v[NR_COLS];
	int nr = 0;

	if (n->func >= 0 && n->lat && hist__count(n->lat)) {
		for (const struct node *p = n; p && p->func >= 0 && np <= CALLTREE_DEPTH;
		     p = p->parent)
			np++;
		for (const struct node *p = n; p && p->func >= 0 && nr < np; p = p->parent)
			path[np - ++nr] = t->names[p->func];
		nr = 0;
		snprintf(label, sizeof(label), "%*s%-*s", 2 * depth, "",
			 width > 2 * depth ? width - 2 * depth : 0, t->names[n->func]);
		v[C_KEY] = (struct rt_val){ .u = key };
		v[C_LABEL] = (struct rt_val){ .s = label };
		v[C_FUNC] = (struct rt_val){ .s = t->names[n->func] };
		v[C_DEPTH] = (struct rt_val){ .u = (uint64_t)depth };
		v[C_PATH] = (struct rt_val){ .sv = path, .n = (uint64_t)np };
		v[C_STATS] = (struct rt_val){ .h = n->lat };
		rtable__row(k, t->key_title ? v : v + 1);
	}
	for (const struct node *c = n->child; c; c = c->next)
		nr++;
	if (!nr)
		return;
	kids = malloc((size_t)nr * sizeof(*kids));
	if (!kids) {
		t->failed_alloc = true;
		return;
	}
	nr = 0;
	for (const struct node *c = n->child; c; c = c->next)
		kids[nr++] = c;
	/* children by total, largest first */
	qsort(kids, (size_t)nr, sizeof(*kids), by_total);
	for (int i = 0; i < nr; i++)
		emit_node(t, kids[i], n->func >= 0 ? depth + 1 : depth,
			  n == &t->root && kids[i]->func < 0 ? kids[i]->key : key, k);
	free(kids);
}

void calltree__emit(struct calltree *t, struct rt_sink *k)
{
	const struct rt_col cols[NR_COLS] = {
		[C_KEY] = { .name = "key",
			    .title = t->key_title,
			    .type = RT_U64,
			    .width = 6,
			    .flags = RT_LEFT },
		[C_LABEL] = { .title = "CALL",
			      .type = RT_STR,
			      .width = t->name_width + 2 * 8,
			      .flags = RT_LEFT | RT_NO_JSON },
		[C_FUNC] = { .name = "func", .type = RT_STR, .flags = RT_NO_TEXT },
		[C_DEPTH] = { .name = "depth", .type = RT_U64, .flags = RT_NO_TEXT },
		[C_PATH] = { .name = "path", .type = RT_STRS, .flags = RT_NO_TEXT },
		[C_STATS] = { .type = RT_STATS, .unit = RT_UNIT_NS },
	};
	const struct rt_desc d = { .type = "row",
				   .cols = t->key_title ? cols : cols + 1,
				   .ncols = NR_COLS - !t->key_title };

	rtable__begin(k, &d);
	emit_node(t, &t->root, 0, 0, k);
	rtable__end(k);
}

void calltree__print(struct calltree *t, FILE *fp)
{
	struct rt_text tx;

	calltree__emit(t, rt_text__init(&tx, fp));
}

uint64_t calltree__oldest_open(const struct calltree *t, uint64_t now)
{
	for (const struct kstack *k = t->stacks; k; k = k->hh.next)
		if (k->depth && k->f[0].start < now)
			now = k->f[0].start;
	return now;
}

uint64_t calltree__nr_open(const struct calltree *t)
{
	uint64_t n = 0;

	for (const struct kstack *k = t->stacks; k; k = k->hh.next)
		n += (uint64_t)k->depth;
	return n;
}

/* Text: a sentence a line; JSON: the counts.  The row is JSON's only when any. */
static const struct rt_col drop_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	{ .type = RT_BOOL, .flags = RT_NO_TEXT | RT_NO_JSON | RT_ROW_IF },
	RT_COL("what", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("unwound", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("orphan_exits", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("lost", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("exited", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("too_deep", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("nomem", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	/* the last table's only */
	RT_COL("open", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
};

void calltree__emit_drops(struct calltree *t, struct rt_sink *k, const char *who, bool end)
{
	uint64_t open = end ? calltree__nr_open(t) : 0;
	struct rt_desc d = { .type = "dropped",
			     .cols = drop_cols,
			     .ncols = (int)(sizeof(drop_cols) / sizeof(drop_cols[0])) - !end };
	bool any = t->unwound || t->orphan_exits || t->lost || t->exited || t->too_deep ||
		   t->nomem || open;
	char text[1024];
	size_t n = 0, l = sizeof(text);

	text[0] = 0;
	n = stats_drop_line(text, n, l, t->unwound, who,
			    "%" PRIu64 " calls dropped: an outer call returned first", t->unwound);
	n = stats_drop_line(text, n, l, t->orphan_exits, who,
			    "%" PRIu64 " returns without their entry (not seen, or filtered)",
			    t->orphan_exits);
	n = stats_drop_line(text, n, l, t->lost, who,
			    "%" PRIu64 " open calls dropped after lost events", t->lost);
	n = stats_drop_line(text, n, l, t->exited, who,
			    "%" PRIu64 " open calls dropped: their task exited", t->exited);
	n = stats_drop_line(text, n, l, t->too_deep, who,
			    "%" PRIu64 " calls nested deeper than %d not counted", t->too_deep,
			    CALLTREE_DEPTH);
	n = stats_drop_line(text, n, l, t->nomem || t->failed_alloc, who,
			    "out of memory, %" PRIu64 " calls not counted", t->nomem);
	stats_drop_line(text, n, l, open, who,
			"%" PRIu64 " call%s still open at the end (no exit seen)", open,
			open == 1 ? "" : "s");
	rtable__begin(k, &d);
	if (any || t->failed_alloc)
		rtable__row(k, (struct rt_val[]){ { .s = text },
						  { .b = any },
						  { .s = "calls" },
						  { .u = t->unwound },
						  { .u = t->orphan_exits },
						  { .u = t->lost },
						  { .u = t->exited },
						  { .u = t->too_deep },
						  { .u = t->nomem },
						  { .u = open } });
	rtable__end(k);
}

bool calltree__failed_alloc(const struct calltree *t)
{
	return t->failed_alloc;
}

static void node_reset(struct node *n)
{
	if (n->lat)
		hist__reset(n->lat);
	for (struct node *c = n->child; c; c = c->next)
		node_reset(c);
}

static uint64_t subtree_count(const struct node *n)
{
	uint64_t c = n->lat ? hist__count(n->lat) : 0;

	for (const struct node *k = n->child; k; k = k->next)
		c += subtree_count(k);
	return c;
}

/*
 * --perins: a key's tree without a call in the interval and without an open
 * call (its stack's frames point into it) goes: threads come and go for
 * hours, the keys do not pile up.
 */
void calltree__reset(struct calltree *t)
{
	struct node **pp = &t->root.child;

	if (t->root.lat)
		hist__reset(t->root.lat);
	while (*pp) {
		struct node *c = *pp;
		struct kstack *k = NULL;

		if (c->func < 0)
			HASH_FIND(hh, t->stacks, &c->key, sizeof(c->key), k);
		if (c->func < 0 && !k && !subtree_count(c)) {
			*pp = c->next;
			HASH_DEL(t->keys, c);
			node_free(c);
			free(c);
			continue;
		}
		node_reset(c);
		pp = &c->next;
	}
}

unsigned calltree__nr_keys(const struct calltree *t)
{
	return HASH_COUNT(t->keys);
}
