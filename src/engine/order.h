/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time ordering of records from several ring buffers: a min-heap of
 * copied records keyed by (time, arrival).  The session pushes every
 * record it reads and pops those older than a safe horizon: the time at
 * which every buffer was last read, minus a margin for records that were
 * time-stamped but not yet committed when the buffer was read.  Nothing
 * is delivered before all buffers have been read past its time, and the
 * horizon advances with every read, so nothing waits forever.
 */
#ifndef PP_ORDER_H
#define PP_ORDER_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct order_queue;

struct order_queue *order__new(void);
void order__delete(struct order_queue *q);

/* Copy @rec into the queue. Returns 0 or -ENOMEM. */
int order__push(struct order_queue *q, uint64_t time, const struct perf_event_header *rec, int tag);

/*
 * The oldest record with time <= @horizon (or NULL).  It stays valid
 * until the next order__pop/order__delete.  @tag gets what was pushed.
 */
const struct perf_event_header *order__pop(struct order_queue *q, uint64_t horizon, int *tag,
					   uint64_t *time);

size_t order__len(const struct order_queue *q);
/* Highest number of records held at once (for -v). */
size_t order__max_len(const struct order_queue *q);

#endif
