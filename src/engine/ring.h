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

/* Map @pages data pages (power of two) of @fd. Returns 0 or -errno. */
int ring__mmap(struct ring *r, int fd, int cpu, unsigned pages);
void ring__munmap(struct ring *r);

/* Take a snapshot of what the kernel has written. Returns bytes available. */
uint64_t ring__begin(struct ring *r);
/* Next record of the snapshot, or NULL. Valid until the next call. */
const struct perf_event_header *ring__next(struct ring *r);
/* Give the consumed space back to the kernel. */
void ring__end(struct ring *r);

#endif
