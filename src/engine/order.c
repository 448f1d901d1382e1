// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/order.h"

struct entry {
	uint64_t time;
	uint64_t seq;
	struct perf_event_header *rec;
	int tag;
};

/* What a gap looks like to the consumer: a PERF_RECORD_LOST record. */
struct gap_rec {
	struct perf_event_header h;
	uint64_t id;
	uint64_t lost;
};

struct order_queue {
	struct entry *heap;
	size_t len, cap, max_len;
	size_t bytes, max_bytes, budget;
	uint64_t dropped, dropped_kept;
	uint64_t seq;
	struct perf_event_header *last; /* popped, freed on the next pop */
	/* the gap marker refusals add to while nothing was queued after it */
	struct gap_rec *gap;
	uint64_t gap_time;
	int gap_tag;
};

struct order_queue *order__new(void)
{
	return calloc(1, sizeof(struct order_queue));
}

void order__delete(struct order_queue *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->len; i++)
		free(q->heap[i].rec);
	free(q->last);
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

void order__set_budget(struct order_queue *q, size_t bytes)
{
	q->budget = bytes;
}

int order__room(const struct order_queue *q, size_t size)
{
	return !q->budget || q->bytes + cost(size) <= q->budget;
}

/* Put @rec (ours now) into the heap. */
static int insert(struct order_queue *q, uint64_t time, struct perf_event_header *rec, int tag)
{
	struct entry e;
	size_t i;

	if (q->len == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 4096;
		struct entry *h = realloc(q->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		q->heap = h;
		q->cap = cap;
	}
	e.rec = rec;
	e.time = time;
	e.seq = q->seq++;
	e.tag = tag;
	/* sift up */
	for (i = q->len++; i > 0; i = (i - 1) / 2) {
		struct entry *p = &q->heap[(i - 1) / 2];

		if (!before(&e, p))
			break;
		q->heap[i] = *p;
	}
	q->heap[i] = e;
	if (q->len > q->max_len)
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
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOBUFS;
	g->h.type = PERF_RECORD_LOST;
	g->h.size = sizeof(*g);
	g->id = ORDER_GAP_ID;
	g->lost = 1;
	if (insert(q, time, &g->h, tag)) {
		free(g);
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
	copy = malloc(rec->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec, rec->size);
	if (insert(q, time, copy, tag)) {
		free(copy);
		return -ENOMEM;
	}
	q->gap = NULL;
	return 0;
}

const struct perf_event_header *order__pop(struct order_queue *q, uint64_t horizon, int *tag,
					   uint64_t *time)
{
	struct entry top, last;
	size_t i = 0;

	free(q->last);
	q->last = NULL;
	if (!q->len || q->heap[0].time > horizon)
		return NULL;
	top = q->heap[0];
	last = q->heap[--q->len];
	/* sift the last entry down from the root */
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= q->len)
			break;
		if (c + 1 < q->len && before(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!before(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->len)
		q->heap[i] = last;
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
