// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/order.h"

/*
 * The queue delivers its records by (time, push order), whatever holds
 * them.  A ring buffer's records nearly always come in time order, so
 * each tag (buffer) has a run: a FIFO of records pushed in time order,
 * whose head is its oldest.  A record older than its run's newest goes
 * to a heap of stragglers instead.  The oldest record is the oldest of
 * the runs' heads (a heap of runs by their head) and the stragglers' top.
 * Popping from a run costs a sift over the runs, not over every record.
 *
 * The copies are carved from chunks (a slab), not malloc'd one by one: a
 * chunk counts its live records and is reused when the last is popped.
 */

struct entry {
	uint64_t time;
	uint64_t seq;
	struct perf_event_header *rec;
	int tag;
};

/* A buffer's records in time order: a ring of entries. */
struct run {
	struct entry *e;
	size_t head, len, cap; /* cap a power of two */
	size_t pos;	       /* index in q->runs_heap while not empty */
};

/* What a gap looks like to the consumer: a PERF_RECORD_LOST record. */
struct gap_rec {
	struct perf_event_header h;
	uint64_t id;
	uint64_t lost;
};

/*
 * Chunks of copies.  Each copy is preceded by its chunk's address.  A
 * record is at most 64 KiB (the header's size is 16 bits), so it fits.
 */
#define CHUNK_DATA (128 * 1024)
#define CHUNK_SPARE 8 /* empty chunks kept for reuse */
/* a record this far (ns) past the reader's clock (order__set_now) is copied on its own */
#ifndef ORDER_FAR_AHEAD
#define ORDER_FAR_AHEAD 1000000000ULL
#endif

struct chunk {
	struct chunk *next; /* on the spare list */
	size_t used;
	size_t live;
	uint64_t data[CHUNK_DATA / 8];
};

#define RUNS_MAX 4096 /* tags -1 .. RUNS_MAX - 2 have runs; others go to the heap */

struct order_queue {
	struct entry *heap; /* the stragglers */
	size_t hlen, hcap;
	struct run **runs; /* by tag + 1, made when first used */
	size_t nr_runs;
	struct run **runs_heap; /* the non-empty runs, by their head */
	size_t nr_active;
	size_t len, max_len;
	size_t bytes, max_bytes, budget;
	uint64_t dropped, dropped_kept;
	uint64_t seq;
	struct chunk *cur, *spare;
	int nr_spare, nr_chunks;	/* nr_chunks: allocated, spares included */
	size_t nr_alone;		/* bytes of copies allocated on their own */
	uint64_t now;			/* the reader's clock (0: not given) */
	struct perf_event_header *last; /* popped, released on the next pop */
	/* the gap marker refusals add to while nothing was queued after it */
	struct gap_rec *gap;
	uint64_t gap_time;
	int gap_tag;
};

struct order_queue *order__new(void)
{
	return calloc(1, sizeof(struct order_queue));
}

/*
 * Room for a copy of @size bytes, or NULL.  @alone: a record far ahead of
 * the others (a clock out of step) has an allocation of its own: in a
 * chunk it would keep the whole chunk as long as it waits, and one such
 * each time round would keep a chunk each.
 */
static void *copy_alloc(struct order_queue *q, size_t size, int alone)
{
	size_t need = 1 + (size + 7) / 8; /* in words: the chunk's address, the record */
	struct chunk *c = q->cur;
	uint64_t *p;

	if (alone) {
		p = malloc(need * 8);
		if (!p)
			return NULL;
		memset(p, 0, 8); /* no chunk */
		q->nr_alone += need * 8;
		return p + 1;
	}

	/* (a chunk without live records is empty: copy_release starts it over) */
	if (!c || c->used + need > CHUNK_DATA / 8) {
		if (q->spare) {
			c = q->spare;
			q->spare = c->next;
			q->nr_spare--;
			c->used = 0;
		} else {
			c = malloc(sizeof(*c));
			if (!c)
				return NULL;
			c->used = 0;
			c->live = 0;
			q->nr_chunks++;
		}
		/* the old chunk is released when its last record is */
		q->cur = c;
	}
	p = &c->data[c->used];
	memcpy(p, &c, sizeof(c));
	c->used += need;
	c->live++;
	return p + 1;
}

static void copy_release(struct order_queue *q, void *rec)
{
	struct chunk *c;

	memcpy(&c, (uint64_t *)rec - 1, sizeof(c));
	if (!c) {
		q->nr_alone -= (1 + (((struct perf_event_header *)rec)->size + 7) / 8) * 8;
		free((uint64_t *)rec - 1);
		return;
	}
	if (--c->live)
		return;
	if (c == q->cur) {
		c->used = 0; /* empty: start over, its memory still warm */
	} else if (q->nr_spare < CHUNK_SPARE) {
		c->next = q->spare;
		q->spare = c;
		q->nr_spare++;
	} else {
		free(c);
		q->nr_chunks--;
	}
}

void order__delete(struct order_queue *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->hlen; i++)
		copy_release(q, q->heap[i].rec);
	for (size_t r = 0; r < q->nr_runs; r++) {
		struct run *run = q->runs[r];

		for (size_t i = 0; run && i < run->len; i++)
			copy_release(q, run->e[(run->head + i) & (run->cap - 1)].rec);
		if (run)
			free(run->e);
		free(run);
	}
	if (q->last)
		copy_release(q, q->last);
	free(q->cur);
	while (q->spare) {
		struct chunk *c = q->spare;

		q->spare = c->next;
		free(c);
	}
	free(q->runs);
	free(q->runs_heap);
	free(q->heap);
	free(q);
}

static int before(const struct entry *a, const struct entry *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static size_t cost(size_t size)
{
	return size + ORDER_ENTRY_COST;
}

void order__set_now(struct order_queue *q, uint64_t now)
{
	q->now = now < UINT64_MAX / 2 ? now : 0;
}

void order__set_budget(struct order_queue *q, size_t bytes)
{
	q->budget = bytes;
}

int order__room(const struct order_queue *q, size_t size)
{
	return !q->budget || q->bytes + cost(size) <= q->budget;
}

static const struct entry *run_head(const struct run *r)
{
	return &r->e[r->head];
}

/* The runs' heap: its entry @i moved up or down to its place. */
static void runs_up(struct order_queue *q, size_t i)
{
	struct run *r = q->runs_heap[i];

	for (; i > 0; i = (i - 1) / 2) {
		struct run *p = q->runs_heap[(i - 1) / 2];

		if (!before(run_head(r), run_head(p)))
			break;
		q->runs_heap[i] = p;
		p->pos = i;
	}
	q->runs_heap[i] = r;
	r->pos = i;
}

static void runs_down(struct order_queue *q, size_t i)
{
	struct run *r = q->runs_heap[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= q->nr_active)
			break;
		if (c + 1 < q->nr_active &&
		    before(run_head(q->runs_heap[c + 1]), run_head(q->runs_heap[c])))
			c++;
		if (!before(run_head(q->runs_heap[c]), run_head(r)))
			break;
		q->runs_heap[i] = q->runs_heap[c];
		q->runs_heap[i]->pos = i;
		i = c;
	}
	q->runs_heap[i] = r;
	r->pos = i;
}

/* @tag's run, or NULL (the stragglers' heap takes the record). */
static struct run *run_of(struct order_queue *q, int tag)
{
	size_t i = (size_t)((long)tag + 1);

	if (tag < -1 || i >= RUNS_MAX)
		return NULL;
	if (i < q->nr_runs && q->runs[i])
		return q->runs[i];
	if (i >= q->nr_runs) {
		size_t n = q->nr_runs ? q->nr_runs : 4;
		struct run **runs, **heap;

		while (n <= i)
			n *= 2;
		heap = realloc(q->runs_heap, n * sizeof(*heap));
		if (!heap)
			return NULL;
		q->runs_heap = heap;
		runs = realloc(q->runs, n * sizeof(*runs));
		if (!runs)
			return NULL;
		memset(runs + q->nr_runs, 0, (n - q->nr_runs) * sizeof(*runs));
		q->runs = runs;
		q->nr_runs = n;
	}
	q->runs[i] = calloc(1, sizeof(struct run));
	return q->runs[i];
}

/* Append @e to @r (its newest); false when out of memory. */
static int run_push(struct order_queue *q, struct run *r, const struct entry *e)
{
	if (r->len == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct entry *n = malloc(cap * sizeof(*n));

		if (!n)
			return 0;
		for (size_t i = 0; i < r->len; i++)
			n[i] = r->e[(r->head + i) & (r->cap - 1)];
		free(r->e);
		r->e = n;
		r->head = 0;
		r->cap = cap;
	}
	r->e[(r->head + r->len) & (r->cap - 1)] = *e;
	if (!r->len++) {
		q->runs_heap[q->nr_active] = r;
		runs_up(q, q->nr_active++);
	}
	return 1;
}

static int heap_push(struct order_queue *q, const struct entry *e)
{
	size_t i;

	if (q->hlen == q->hcap) {
		size_t cap = q->hcap ? q->hcap * 2 : 4096;
		struct entry *h = realloc(q->heap, cap * sizeof(*h));

		if (!h)
			return 0;
		q->heap = h;
		q->hcap = cap;
	}
	/* sift up */
	for (i = q->hlen++; i > 0; i = (i - 1) / 2) {
		struct entry *p = &q->heap[(i - 1) / 2];

		if (!before(e, p))
			break;
		q->heap[i] = *p;
	}
	q->heap[i] = *e;
	return 1;
}

/* Put @rec (ours now) into the queue. */
static int insert(struct order_queue *q, uint64_t time, struct perf_event_header *rec, int tag)
{
	struct entry e = { .time = time, .seq = q->seq, .rec = rec, .tag = tag };
	struct run *r = run_of(q, tag);
	int ok;

	/* in its run while the buffer's times do not go back */
	if (r && (!r->len || r->e[(r->head + r->len - 1) & (r->cap - 1)].time <= time))
		ok = run_push(q, r, &e);
	else
		ok = heap_push(q, &e);
	if (!ok)
		return -ENOMEM;
	q->seq++;
	if (++q->len > q->max_len)
		q->max_len = q->len;
	q->bytes += cost(rec->size);
	if (q->bytes > q->max_bytes)
		q->max_bytes = q->bytes;
	return 0;
}

/*
 * Count a refused record and mark where the stream has a hole: a new
 * marker unless the last thing pushed was a marker of the same buffer at
 * or before @time.  Markers are tiny and never more numerous than the
 * records queued between them, so they may exceed the budget.
 */
static int refuse(struct order_queue *q, uint64_t time, int tag, int keep)
{
	struct gap_rec *g;

	if (keep)
		q->dropped_kept++;
	else
		q->dropped++;
	if (q->gap && q->gap_tag == tag && q->gap_time <= time) {
		q->gap->lost++;
		return -ENOBUFS;
	}
	g = copy_alloc(q, sizeof(*g), 0);
	if (!g)
		return -ENOBUFS;
	memset(g, 0, sizeof(*g));
	g->h.type = PERF_RECORD_LOST;
	g->h.size = sizeof(*g);
	g->id = ORDER_GAP_ID;
	g->lost = 1;
	if (insert(q, time, &g->h, tag)) {
		copy_release(q, g);
		return -ENOBUFS;
	}
	q->gap = g;
	q->gap_time = time;
	q->gap_tag = tag;
	return -ENOBUFS;
}

int order__push(struct order_queue *q, uint64_t time, const struct perf_event_header *rec, int tag,
		int keep)
{
	size_t limit = q->budget + (keep ? q->budget / 4 : 0);
	struct perf_event_header *copy;

	if (q->budget && q->bytes + cost(rec->size) > limit)
		return refuse(q, time, tag, keep);
	copy = copy_alloc(q, rec->size, q->now && time > q->now + ORDER_FAR_AHEAD);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec, rec->size);
	if (insert(q, time, copy, tag)) {
		copy_release(q, copy);
		return -ENOMEM;
	}
	q->gap = NULL;
	return 0;
}

/* The stragglers' oldest out of their heap. */
static struct entry heap_pop(struct order_queue *q)
{
	struct entry top = q->heap[0], last = q->heap[--q->hlen];
	size_t i = 0;

	/* sift the last entry down from the root */
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= q->hlen)
			break;
		if (c + 1 < q->hlen && before(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!before(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->hlen)
		q->heap[i] = last;
	return top;
}

/* The oldest run's head out of it. */
static struct entry run_pop(struct order_queue *q)
{
	struct run *r = q->runs_heap[0];
	struct entry top = r->e[r->head];

	r->head = (r->head + 1) & (r->cap - 1);
	if (--r->len) {
		runs_down(q, 0); /* its new head is newer */
	} else if (--q->nr_active) {
		q->runs_heap[0] = q->runs_heap[q->nr_active];
		runs_down(q, 0);
	}
	return top;
}

const struct perf_event_header *order__pop(struct order_queue *q, uint64_t horizon, int *tag,
					   uint64_t *time)
{
	const struct entry *oldest = NULL;
	struct entry top;
	int straggler = 0;

	if (q->last) {
		copy_release(q, q->last);
		q->last = NULL;
	}
	if (q->nr_active)
		oldest = run_head(q->runs_heap[0]);
	if (q->hlen && (!oldest || before(&q->heap[0], oldest))) {
		oldest = &q->heap[0];
		straggler = 1;
	}
	if (!oldest || oldest->time > horizon)
		return NULL;
	top = straggler ? heap_pop(q) : run_pop(q);
	q->len--;
	q->bytes -= cost(top.rec->size);
	if (q->gap && &q->gap->h == top.rec)
		q->gap = NULL;
	q->last = top.rec;
	if (tag)
		*tag = top.tag;
	if (time)
		*time = top.time;
	return top.rec;
}

size_t order__len(const struct order_queue *q)
{
	return q->len;
}

size_t order__max_len(const struct order_queue *q)
{
	return q->max_len;
}

size_t order__mem(const struct order_queue *q)
{
	return (size_t)q->nr_chunks * sizeof(struct chunk) + q->nr_alone;
}

size_t order__bytes(const struct order_queue *q)
{
	return q->bytes;
}

size_t order__max_bytes(const struct order_queue *q)
{
	return q->max_bytes;
}

uint64_t order__dropped(const struct order_queue *q, uint64_t *kept)
{
	if (kept)
		*kept = q->dropped_kept;
	return q->dropped;
}
