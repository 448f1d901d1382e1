/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader of one perf mmap ring buffer (perf_event_open(2), "MMAP layout").
 * The kernel writes at data_head; we consume up to it and publish
 * data_tail.  A record that wraps around the end of the buffer is copied
 * to a scratch buffer so callers always see contiguous records.
 */
#ifndef PP_RING_H
#define PP_RING_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ring {
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	size_t size;   /* data area size, power of two */
	uint64_t head; /* snapshot of data_head */
	uint64_t pos;  /* our read position */
	unsigned char *scratch;
	size_t scratch_size;
	int fd;
	int cpu; /* CPU of the events writing here, -1 for per-thread */
};

/*
 * Map @pages data pages (power of two) of @fd. Returns 0 or -errno.
 * @backward: the event writes backward (attr.write_backward) and the ring
 * is mapped read-only, so the kernel overwrites its oldest records.
 */
int ring__mmap(struct ring *r, int fd, int cpu, unsigned pages, bool backward);
void ring__munmap(struct ring *r);

/* Take a snapshot of what the kernel has written. Returns bytes available. */
uint64_t ring__begin(struct ring *r);
/* Next record of the snapshot, or NULL. Valid until the next call. */
const struct perf_event_header *ring__next(struct ring *r);
/* Give the consumed space back to the kernel. */
void ring__end(struct ring *r);

/*
 * An overwritable ring (written backward): data_head moves down from 0,
 * each record starts at the head as written and the older ones follow it.
 * Bytes from @head that hold complete records written after @old (the
 * head of the last read, 0 before any): the walk stops where a record
 * would reach past what was written since @old or past the ring's @size
 * (the oldest record, partly overwritten by the newest), and at a header
 * that cannot be a record's.
 */
uint64_t ring__backward_span(const unsigned char *data, size_t size, uint64_t head, uint64_t old);
/* Copy @len bytes from position @from of the ring (wrapping at @size) to @dst. */
void ring__copy(const unsigned char *data, size_t size, uint64_t from, size_t len, void *dst);

#endif
