// SPDX-License-Identifier: GPL-2.0
/*
 * The backward walk of an overwritable ring (--overwrite) on a ring image
 * in plain memory: the test plays the kernel writing backward (data_head
 * moves down from 0, each record starts at the new head, the oldest bytes
 * are overwritten once the ring is full) and checks that the walk finds
 * exactly the newest complete records: none of a partly overwritten oldest
 * record, none written before the last read, wrap-around at the ring's
 * end (also headers split there), and ring__copy's contiguous copy.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ring.h"
#include "ut.h"

struct bring {
	unsigned char *data;
	size_t size;
	uint64_t head;
};

/* 16..208 bytes, multiples of 8: the kernel keeps records 8-byte aligned. */
static uint16_t rec_size(uint64_t seq)
{
	return (uint16_t)(16 + 8 * (seq * 7 % 25));
}

static void kwrite(struct bring *r, uint64_t seq)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = rec_size(seq) };
	unsigned char rec[256];

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), &seq, sizeof(seq));
	for (unsigned i = 16; i < h.size; i++)
		rec[i] = (unsigned char)(seq * 13 + i);
	r->head -= h.size;
	for (unsigned i = 0; i < h.size; i++)
		r->data[(r->head + i) & (r->size - 1)] = rec[i];
}

/*
 * Walks the span: the records must be @newest, @newest - 1, ... intact, and
 * their count is returned (-1 if any is wrong).
 */
static long check_span(struct bring *r, uint64_t span, uint64_t newest)
{
	unsigned char *copy = malloc(span ? span : 1);
	uint64_t pos = 0, seq = newest;
	long n = 0;

	if (!copy)
		return -1;
	ring__copy(r->data, r->size, r->head, span, copy);
	while (pos < span) {
		struct perf_event_header h;
		uint64_t got;

		memcpy(&h, copy + pos, sizeof(h));
		memcpy(&got, copy + pos + sizeof(h), sizeof(got));
		if (h.size != rec_size(seq) || got != seq || pos + h.size > span)
			break;
		for (unsigned i = 16; i < h.size; i++)
			if (copy[pos + i] != (unsigned char)(seq * 13 + i))
				goto bad;
		pos += h.size;
		n++;
		seq--;
	}
	free(copy);
	return pos == span ? n : -1;
bad:
	free(copy);
	return -1;
}

static void test_fresh(void)
{
	struct bring r = { .size = 1024 };
	uint64_t span, total = 0;

	r.data = calloc(1, r.size);
	if (!r.data)
		return;
	CHECK_INT(ring__backward_span(r.data, r.size, r.head, 0), 0);
	for (uint64_t s = 1; s <= 5; s++) {
		kwrite(&r, s);
		total += rec_size(s);
	}
	span = ring__backward_span(r.data, r.size, r.head, 0);
	CHECK_INT(span, total); /* all of it: nothing overwritten yet */
	CHECK_INT(check_span(&r, span, 5), 5);
	free(r.data);
}

/* The ring wrapped many times: the newest records that fit, none more. */
static void test_wrapped(size_t size, uint64_t nr)
{
	struct bring r = { .size = size };
	uint64_t span, oldest_kept;
	long n;

	r.data = malloc(size);
	if (!r.data)
		return;
	memset(r.data, 0xcc, size);
	for (uint64_t s = 1; s <= nr; s++)
		kwrite(&r, s);
	span = ring__backward_span(r.data, r.size, r.head, 0);
	n = check_span(&r, span, nr);
	CHECK(n > 0, "size %zu: %ld records", size, n);
	CHECK(span <= size, "size %zu: span %llu", size, (unsigned long long)span);
	oldest_kept = nr - (uint64_t)n + 1;
	/* the next older one was partly overwritten: it would not fit */
	CHECK(span + rec_size(oldest_kept - 1) > size, "size %zu: %llu + %u fits in %zu", size,
	      (unsigned long long)span, rec_size(oldest_kept - 1), size);
	free(r.data);
}

/* A read stops where the one before began; more than a ring since: a ring's worth. */
static void test_since_last(void)
{
	struct bring r = { .size = 2048 };
	uint64_t old, span, total = 0;

	r.data = calloc(1, r.size);
	if (!r.data)
		return;
	for (uint64_t s = 1; s <= 100; s++)
		kwrite(&r, s);
	old = r.head;
	for (uint64_t s = 101; s <= 104; s++) {
		kwrite(&r, s);
		total += rec_size(s);
	}
	span = ring__backward_span(r.data, r.size, r.head, old);
	CHECK_INT(span, total);
	CHECK_INT(check_span(&r, span, 104), 4);
	CHECK_INT(ring__backward_span(r.data, r.size, r.head, r.head), 0); /* nothing new */
	for (uint64_t s = 105; s <= 300; s++)
		kwrite(&r, s);
	span = ring__backward_span(r.data, r.size, r.head, old);
	CHECK(span <= r.size && span + rec_size(300 - check_span(&r, span, 300)) > r.size,
	      "overrun since the last read: span %llu", (unsigned long long)span);
	free(r.data);
}

/* A header at the very end of the ring split in two, and garbage ending the walk. */
static void test_split_and_garbage(void)
{
	struct bring r = { .size = 256 };
	struct perf_event_header bad = { .type = PERF_RECORD_SAMPLE, .size = 12 };
	uint64_t span;

	r.data = calloc(1, r.size);
	if (!r.data)
		return;
	/* record 7 (208 bytes) from 204 down: its header at 252 wraps (past 0 too) */
	r.head = 204;
	kwrite(&r, 7);
	CHECK_INT(r.head & 255, 252);
	span = ring__backward_span(r.data, r.size, r.head, 204);
	CHECK_INT(span, rec_size(7));
	CHECK_INT(check_span(&r, span, 7), 1);
	/* a record whose size is not a multiple of 8 ends the walk before it */
	r.head = 0;
	memset(r.data, 0, r.size);
	kwrite(&r, 1);
	kwrite(&r, 2);
	memcpy(r.data + ((r.head + rec_size(2)) & 255), &bad, sizeof(bad));
	CHECK_INT(ring__backward_span(r.data, r.size, r.head, 0), rec_size(2));
	/* a zeroed header (never written) too */
	memset(r.data + ((r.head + rec_size(2)) & 255), 0, 8);
	CHECK_INT(ring__backward_span(r.data, r.size, r.head, 0), rec_size(2));
	free(r.data);
}

int main(void)
{
	test_fresh();
	test_wrapped(1024, 1000);
	test_wrapped(4096, 777);
	test_wrapped(256, 5);
	test_wrapped(256, 37);
	test_since_last();
	test_split_and_garbage();
	return ut_done("ring_backward");
}
