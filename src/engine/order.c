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

struct order_queue {
	struct entry *heap;
	size_t len, cap, max_len;
	uint64_t seq;
	struct perf_event_header *last; /* popped, freed on the next pop */
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

int order__push(struct order_queue *q, uint64_t time, const struct perf_event_header *rec, int tag)
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
	e.rec = malloc(rec->size);
	if (!e.rec)
		return -ENOMEM;
	memcpy(e.rec, rec, rec->size);
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
