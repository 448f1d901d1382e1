// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/ring.h"

int ring__mmap(struct ring *r, int fd, int cpu, unsigned pages, bool backward)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	void *base;

	if (!pages || (pages & (pages - 1)))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	/* read-only: the kernel ignores data_tail and overwrites the oldest */
	base = mmap(NULL, (pages + 1) * psz, backward ? PROT_READ : PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	r->meta = base;
	r->data = (unsigned char *)base + psz;
	r->size = pages * psz;
	r->fd = fd;
	r->cpu = cpu;
	return 0;
}

void ring__munmap(struct ring *r)
{
	if (r->meta)
		munmap(r->meta, r->size + (size_t)sysconf(_SC_PAGESIZE));
	free(r->scratch);
	r->meta = NULL;
	r->scratch = NULL;
}

uint64_t ring__begin(struct ring *r)
{
	/* Pairs with the kernel's write barrier before it updates data_head. */
	r->head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	r->pos = r->meta->data_tail;
	return r->head - r->pos;
}

const struct perf_event_header *ring__next(struct ring *r)
{
	size_t mask = r->size - 1, off;
	struct perf_event_header h;
	unsigned char *dst;

	if (r->head - r->pos < sizeof(h))
		return NULL;
	off = r->pos & mask;
	if (off + sizeof(h) <= r->size) {
		memcpy(&h, r->data + off, sizeof(h));
	} else {
		size_t first = r->size - off;

		memcpy(&h, r->data + off, first);
		memcpy((unsigned char *)&h + first, r->data, sizeof(h) - first);
	}
	if (h.size < sizeof(h) || h.size > r->head - r->pos)
		return NULL; /* corrupt or not yet complete: stop here */
	if (off + h.size <= r->size) {
		r->pos += h.size;
		return (const struct perf_event_header *)(r->data + off);
	}
	if (!r->scratch) {
		/* header.size is 16 bits: no record is larger */
		r->scratch = malloc(65536);
		if (!r->scratch)
			return NULL;
		r->scratch_size = 65536;
	}
	dst = r->scratch;
	memcpy(dst, r->data + off, r->size - off);
	memcpy(dst + (r->size - off), r->data, h.size - (r->size - off));
	r->pos += h.size;
	return (const struct perf_event_header *)r->scratch;
}

void ring__end(struct ring *r)
{
	/* Our reads must complete before the kernel may overwrite the space. */
	__atomic_store_n(&r->meta->data_tail, r->pos, __ATOMIC_RELEASE);
}

void ring__copy(const unsigned char *data, size_t size, uint64_t from, size_t len, void *dst)
{
	size_t off = from & (size - 1), first = size - off;

	if (len <= first) {
		memcpy(dst, data + off, len);
		return;
	}
	memcpy(dst, data + off, first);
	memcpy((unsigned char *)dst + first, data, len - first);
}

uint64_t ring__backward_span(const unsigned char *data, size_t size, uint64_t head, uint64_t old)
{
	uint64_t limit = old - head, pos = 0; /* bytes written since @old */
	struct perf_event_header h;

	if (limit > size)
		limit = size;
	while (pos + sizeof(h) <= limit) {
		ring__copy(data, size, head + pos, sizeof(h), &h);
		/* an unwritten (zeroed) area or garbage ends the walk too */
		if (h.size < sizeof(h) || h.size % 8 || !h.type || pos + h.size > limit)
			break;
		pos += h.size;
	}
	return pos;
}
