/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time ordering of records from several ring buffers: copied records
 * delivered by (time, arrival), from a run per buffer (tag) of records
 * pushed in time order and a heap of those that were not (order.c says
 * how).  The session pushes every record it reads and pops those older
 * than a safe horizon: the time at which every buffer was last read,
 * minus a margin for records that were time-stamped but not yet
 * committed when the buffer was read.  Nothing is delivered before all
 * buffers have been read past its time, and the horizon advances with
 * every read, so nothing waits forever.
 */
#ifndef PP_ORDER_H
#define PP_ORDER_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct order_queue;

struct order_queue *order__new(void);
void order__delete(struct order_queue *q);

/*
 * A memory budget for queued records (0: none).  A record costs its size
 * plus ORDER_ENTRY_COST of bookkeeping.  Once the queue holds @bytes,
 * droppable records (samples) are refused; records pushed with @keep
 * (COMM, FORK, EXIT, MMAP2, lost: names and symbols depend on them) may
 * use a reserve of a quarter more before they are refused too.  Refused
 * records leave a gap marker in the queue at the time of the first one:
 * a PERF_RECORD_LOST record with id ORDER_GAP_ID and the number refused,
 * popped in time order like the others, so that the consumer forgets
 * whatever spans the gap exactly where it starts.
 */
#define ORDER_ENTRY_COST 48
#define ORDER_GAP_ID (~0ULL)
/*
 * The reader's clock, on the records' clock (when it last read a ring): a
 * record more than a second after it has a clock out of step, and its copy
 * an allocation of its own (in a shared chunk it would keep the chunk for
 * as long as it waits).  0: not known.
 */
void order__set_now(struct order_queue *q, uint64_t now);
void order__set_budget(struct order_queue *q, size_t bytes);

/*
 * Copy @rec into the queue.  Returns 0, -ENOBUFS when the budget refused
 * it (counted, see order__dropped) or -ENOMEM.
 */
int order__push(struct order_queue *q, uint64_t time, const struct perf_event_header *rec, int tag,
		int keep);

/*
 * The oldest record with time <= @horizon (or NULL).  It stays valid
 * until the next order__pop/order__delete.  @tag gets what was pushed.
 */
const struct perf_event_header *order__pop(struct order_queue *q, uint64_t horizon, int *tag,
					   uint64_t *time);

size_t order__len(const struct order_queue *q);
/* Highest number of records held at once (for -v). */
size_t order__max_len(const struct order_queue *q);
/* Bytes held now and at most (records and their bookkeeping). */
size_t order__bytes(const struct order_queue *q);
size_t order__max_bytes(const struct order_queue *q);
/* The memory its copies take: chunks (spares included) and those of their own. */
size_t order__mem(const struct order_queue *q);
/* Records refused by the budget so far: droppable ones, and kept ones past the reserve. */
uint64_t order__dropped(const struct order_queue *q, uint64_t *kept);
/* True when the budget has room for a droppable record of @size bytes. */
int order__room(const struct order_queue *q, size_t size);

#endif
