// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-buffer reader on a buffer in plain memory: the test plays the
 * kernel (writes records at data_head, wrapping at the end of the data
 * area, never past data_tail) and checks that every record comes back
 * contiguous and intact and that data_tail follows the reads.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ring.h"
#include "ut.h"

struct fake {
	struct perf_event_mmap_page meta;
	unsigned char *data;
	size_t size;
	struct ring r;
};

static int fake_init(struct fake *f, size_t size)
{
	memset(f, 0, sizeof(*f));
	/* exactly the data area, so ASan catches any access past it */
	f->data = malloc(size);
	if (!f->data)
		return -1;
	memset(f->data, 0xcc, size);
	f->size = size;
	/* what ring__mmap would set up, without a perf fd */
	f->r.meta = &f->meta;
	f->r.data = f->data;
	f->r.size = size;
	f->r.fd = -1;
	f->r.cpu = 0;
	return 0;
}

static void fake_free(struct fake *f)
{
	free(f->r.scratch);
	free(f->data);
}

/*
 * Record sizes vary from 8 to 8 + 24 * align.  The kernel keeps records
 * 8-byte aligned; align 4 also splits headers at the end of the buffer.
 */
static unsigned align = 8;

static uint16_t rec_size(uint64_t seq)
{
	return (uint16_t)(8 + align * (seq * 7 % 25));
}

static unsigned char rec_byte(uint64_t seq, unsigned i)
{
	return (unsigned char)(seq * 13 + i);
}

/* Write one record at data_head as the kernel does. Returns 0 if it did not
 * fit. */
static int kwrite(struct fake *f, uint64_t seq)
{
	uint16_t size = rec_size(seq);
	uint64_t head = f->meta.data_head;
	unsigned char rec[8 + 8 * 24];
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = 0, .size = size };

	if (head + size - f->meta.data_tail > f->size)
		return 0;
	memcpy(rec, &h, sizeof(h));
	for (unsigned i = sizeof(h); i < size; i++)
		rec[i] = rec_byte(seq, i);
	for (unsigned i = 0; i < size; i++)
		f->data[(head + i) & (f->size - 1)] = rec[i];
	__atomic_store_n(&f->meta.data_head, head + size, __ATOMIC_RELEASE);
	return 1;
}

static int intact(const struct perf_event_header *h, uint64_t seq)
{
	const unsigned char *p = (const void *)h;

	if (h->type != PERF_RECORD_SAMPLE || h->size != rec_size(seq))
		return 0;
	for (unsigned i = sizeof(*h); i < h->size; i++)
		if (p[i] != rec_byte(seq, i))
			return 0;
	return 1;
}

/* Many rounds of "kernel writes a few, we read them all", wrapping many times.
 */
static void test_wrap(size_t size, unsigned al)
{
	struct fake f;
	uint64_t wseq = 0, rseq = 0, wrapped = 0, split_hdr = 0;
	unsigned bad = 0, tail_wrong = 0, avail_wrong = 0;

	align = al;
	if (fake_init(&f, size))
		return;
	for (int round = 0; round < 3000; round++) {
		const struct perf_event_header *h;
		uint64_t avail;
		int n = 1 + round % 9;

		while (n-- > 0 && kwrite(&f, wseq))
			wseq++;
		avail = ring__begin(&f.r);
		avail_wrong += avail != f.meta.data_head - f.meta.data_tail;
		while ((h = ring__next(&f.r))) {
			uint64_t off = (f.r.pos - h->size) & (size - 1);

			if (off + h->size > size) {
				wrapped++;
				split_hdr += off + sizeof(*h) > size;
				/* a wrapped record is handed out from the scratch copy */
				bad += (const unsigned char *)h != f.r.scratch;
			} else {
				bad += (const unsigned char *)h != f.data + off;
			}
			bad += !intact(h, rseq);
			rseq++;
		}
		ring__end(&f.r);
		tail_wrong += f.meta.data_tail != f.meta.data_head;
	}
	CHECK(wseq > 1000, "size %zu: %llu records written", size, (unsigned long long)wseq);
	CHECK(rseq == wseq, "size %zu: read %llu of %llu", size, (unsigned long long)rseq,
	      (unsigned long long)wseq);
	CHECK(f.meta.data_head > 4 * size, "size %zu: the buffer wrapped several times", size);
	CHECK(wrapped > 0, "size %zu: records split at the end: %llu", size,
	      (unsigned long long)wrapped);
	CHECK_INT(bad, 0);
	CHECK_INT(tail_wrong, 0);
	CHECK_INT(avail_wrong, 0);
	if (al == 4)
		CHECK(split_hdr > 0, "size %zu: headers split at the end: %llu", size,
		      (unsigned long long)split_hdr);
	fake_free(&f);
	align = 8;
}

/* Fill the buffer to the last byte (head - tail == size), then drain it. */
static void test_full(void)
{
	struct fake f;
	const struct perf_event_header *h;
	uint64_t seq = 0, rseq = 0;
	struct perf_event_header big = { .type = PERF_RECORD_SAMPLE };

	if (fake_init(&f, 256))
		return;
	/* offset the start so that the full buffer wraps */
	f.meta.data_head = f.meta.data_tail = 1000 * 256 + 200;
	while (kwrite(&f, seq))
		seq++;
	/* top up with a record that fills the gap exactly */
	big.size = (uint16_t)(256 - (f.meta.data_head - f.meta.data_tail));
	if (big.size >= 8) {
		uint64_t head = f.meta.data_head;

		for (unsigned i = 0; i < big.size; i++)
			f.data[(head + i) & 255] = i < 8 ? ((unsigned char *)&big)[i] : 0x77;
		f.meta.data_head = head + big.size;
	}
	CHECK_INT(ring__begin(&f.r), 256);
	while ((h = ring__next(&f.r)) && rseq < seq) {
		CHECK(intact(h, rseq), "full: record %llu", (unsigned long long)rseq);
		rseq++;
	}
	CHECK_INT(rseq, seq);
	if (big.size >= 8)
		CHECK(h && h->size == big.size && ((const unsigned char *)h)[big.size - 1] == 0x77,
		      "full: gap record");
	CHECK(ring__next(&f.r) == NULL, "full: then nothing");
	/* nothing is given back before ring__end */
	CHECK(f.meta.data_tail == 1000 * 256 + 200, "tail unchanged before ring__end");
	ring__end(&f.r);
	CHECK(f.meta.data_tail == f.meta.data_head, "tail == head after ring__end");
	fake_free(&f);
}

/*
 * Records the kernel has not finished (head inside a record) and corrupt
 * sizes stop the reader without consuming anything past them.
 */
static void test_partial(void)
{
	struct fake f;
	const struct perf_event_header *h;
	struct perf_event_header bad = { .type = PERF_RECORD_SAMPLE, .size = 4 };

	if (fake_init(&f, 512))
		return;
	kwrite(&f, 1);		/* 8 + 56 = 64 bytes */
	kwrite(&f, 2);		/* 8 + 112 = 120 bytes */
	f.meta.data_head -= 10; /* the second one is half written */
	CHECK_INT(ring__begin(&f.r), 174);
	h = ring__next(&f.r);
	CHECK(h && intact(h, 1), "complete record read");
	CHECK(ring__next(&f.r) == NULL, "incomplete record not read");
	ring__end(&f.r);
	CHECK_INT(f.meta.data_tail, 64);
	f.meta.data_head += 10;
	ring__begin(&f.r);
	h = ring__next(&f.r);
	CHECK(h && intact(h, 2), "completed record read");
	ring__end(&f.r);
	CHECK_INT(f.meta.data_tail, 184);

	/* a header shorter than itself: stop, do not loop or advance */
	memcpy(f.data + 184, &bad, sizeof(bad));
	f.meta.data_head = 184 + 64;
	ring__begin(&f.r);
	CHECK(ring__next(&f.r) == NULL, "corrupt size 4 stops the reader");
	ring__end(&f.r);
	CHECK_INT(f.meta.data_tail, 184);
	/* fewer than 8 bytes available: no header to read */
	f.meta.data_head = 184 + 7;
	CHECK_INT(ring__begin(&f.r), 7);
	CHECK(ring__next(&f.r) == NULL, "7 bytes: nothing");
	fake_free(&f);
}

int main(void)
{
	test_wrap(256, 8);
	test_wrap(1024, 8);
	test_wrap(4096, 8);
	test_wrap(256, 4);
	test_wrap(1024, 4);
	test_full();
	test_partial();
	return ut_done("test_ring");
}
