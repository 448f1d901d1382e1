// SPDX-License-Identifier: GPL-2.0
/*
 * The time-ordering merge: records pushed from several simulated CPUs,
 * each CPU's stream in time order as a ring buffer delivers it, popped
 * under a horizon as the session does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/order.h"
#include "ut.h"

/* A record that carries what the test needs to verify its delivery. */
struct trec {
	struct perf_event_header h;
	uint64_t time;
	uint64_t seq; /* push order over all CPUs */
	uint32_t cpu;
	uint32_t pad;
	unsigned char fill[24]; /* varying length: records are copied by size */
};

static void mk(struct trec *r, int cpu, uint64_t time, uint64_t seq)
{
	memset(r, 0, sizeof(*r));
	r->h.type = PERF_RECORD_SAMPLE;
	r->h.size = (uint16_t)(offsetof(struct trec, fill) + (seq % 4) * 8);
	r->time = time;
	r->seq = seq;
	r->cpu = (uint32_t)cpu;
	for (unsigned i = 0; i < (seq % 4) * 8; i++)
		r->fill[i] = (unsigned char)(seq + i);
}

static int intact(const struct perf_event_header *h)
{
	const struct trec *r = (const void *)h;

	if (h->size != offsetof(struct trec, fill) + (r->seq % 4) * 8)
		return 0;
	for (unsigned i = 0; i < (r->seq % 4) * 8; i++)
		if (r->fill[i] != (unsigned char)(r->seq + i))
			return 0;
	return 1;
}

static void test_basic(void)
{
	/* (cpu, time) in push order; each CPU's own times are non-decreasing */
	static const struct {
		int cpu;
		uint64_t t;
	} in[] = {
		{ 0, 10 }, { 0, 20 }, { 1, 5 },	 { 1, 20 }, { 2, 20 }, { 0, 20 },
		{ 2, 21 }, { 1, 30 }, { 0, 40 }, { 2, 40 }, { 1, 40 }, { 2, 50 },
	};
	/* expected seq order when everything is popped: time, then push order */
	static const uint64_t want[] = { 2, 0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	const size_t n = sizeof(in) / sizeof(in[0]);
	struct order_queue *q = order__new();
	const struct perf_event_header *h;
	struct trec r;
	uint64_t t = 0;
	size_t k = 0;
	int tag = -1;

	CHECK(q != NULL, "order__new");
	if (!q)
		return;
	CHECK(order__pop(q, UINT64_MAX, &tag, &t) == NULL, "empty queue pops nothing");
	for (size_t i = 0; i < n; i++) {
		mk(&r, in[i].cpu, in[i].t, i);
		CHECK_INT(order__push(q, in[i].t, &r.h, in[i].cpu), 0);
		memset(&r, 0xee, sizeof(r)); /* the queue must hold its own copy */
	}
	CHECK_INT(order__len(q), n);
	CHECK_INT(order__max_len(q), n);

	/* horizon 20: the records at 5, 10 and the four at 20, in push order */
	while ((h = order__pop(q, 20, &tag, &t))) {
		const struct trec *p = (const void *)h;

		CHECK(k < n && p->seq == want[k], "pop %zu: seq %llu want %llu", k,
		      (unsigned long long)p->seq, (unsigned long long)want[k]);
		CHECK(t == p->time && t <= 20, "pop %zu: time %llu", k, (unsigned long long)t);
		CHECK(tag == (int)p->cpu, "pop %zu: tag %d cpu %u", k, tag, p->cpu);
		CHECK(intact(h), "pop %zu: record intact", k);
		k++;
	}
	CHECK_INT(k, 6);
	CHECK_INT(order__len(q), n - 6);
	CHECK(order__pop(q, 20, NULL, NULL) == NULL, "nothing more at 20");
	CHECK(order__pop(q, 0, NULL, NULL) == NULL, "nothing at an older horizon");

	/* a later horizon releases only what is at or below it */
	h = order__pop(q, 21, NULL, NULL);
	CHECK(h && ((const struct trec *)h)->seq == 6, "21 releases the record at 21");
	CHECK(order__pop(q, 29, NULL, NULL) == NULL, "nothing below 30");
	k = 7;
	while ((h = order__pop(q, UINT64_MAX, NULL, &t))) {
		CHECK(k < n && ((const struct trec *)h)->seq == want[k], "drain %zu", k);
		k++;
	}
	CHECK_INT(k, n);
	CHECK_INT(order__len(q), 0);
	CHECK_INT(order__max_len(q), n);
	order__delete(q);
	order__delete(NULL);
}

/* Records left in the queue are freed by order__delete (ASan checks leaks). */
static void test_delete_full(void)
{
	struct order_queue *q = order__new();
	struct trec r;

	if (!q)
		return;
	for (int i = 0; i < 5000; i++) {
		mk(&r, i % 2, (uint64_t)(5000 - i), (uint64_t)i);
		order__push(q, r.time, &r.h, 0);
	}
	CHECK(order__pop(q, UINT64_MAX, NULL, NULL) != NULL, "pop before delete");
	CHECK_INT(order__len(q), 4999);
	order__delete(q);
}

/* xorshift64: deterministic across runs */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

#define NCPU 4
#define NREC 100000

/*
 * Each CPU's records come in time order, in bursts of random size, as
 * reads of its ring buffer; small time steps make equal times common.
 * The horizon is the oldest "last time read" over the CPUs that still
 * have records, as a k-way merge may safely deliver.
 */
static void test_random(void)
{
	struct order_queue *q = order__new();
	uint64_t cpu_time[NCPU] = { 0 }, last_read[NCPU] = { 0 };
	int left[NCPU];
	uint64_t seq = 0, popped = 0, prev_time = 0, prev_seq = 0, sum_in = 0, sum_out = 0;
	unsigned early = 0, disorder = 0, unfair = 0, broken = 0;
	const struct perf_event_header *h;
	struct trec r;
	uint64_t t;
	int total = NREC;

	if (!q)
		return;
	for (int c = 0; c < NCPU; c++)
		left[c] = NREC / NCPU;
	while (total > 0) {
		int c = (int)(rnd() % NCPU), burst = 1 + (int)(rnd() % 64);
		uint64_t horizon = UINT64_MAX;

		for (; burst > 0 && left[c] > 0; burst--, left[c]--, total--) {
			cpu_time[c] += rnd() % 3; /* 0: same time as the previous */
			mk(&r, c, cpu_time[c], seq++);
			sum_in += r.time * 31 + r.seq;
			if (order__push(q, r.time, &r.h, c)) {
				CHECK(0, "push failed");
				goto out;
			}
		}
		last_read[c] = cpu_time[c];
		for (int i = 0; i < NCPU; i++)
			if (left[i] > 0 && last_read[i] < horizon)
				horizon = last_read[i];
		while ((h = order__pop(q, horizon, NULL, &t))) {
			const struct trec *p = (const void *)h;

			early += t > horizon;
			disorder += t < prev_time;
			/* FIFO among equals: push order is seq order */
			unfair += popped && t == prev_time && p->seq < prev_seq;
			broken += !intact(h) || p->time != t;
			sum_out += p->time * 31 + p->seq;
			prev_time = t;
			prev_seq = p->seq;
			popped++;
		}
	}
	while ((h = order__pop(q, UINT64_MAX, NULL, &t))) {
		const struct trec *p = (const void *)h;

		disorder += t < prev_time;
		unfair += t == prev_time && p->seq < prev_seq;
		broken += !intact(h) || p->time != t;
		sum_out += p->time * 31 + p->seq;
		prev_time = t;
		prev_seq = p->seq;
		popped++;
	}
	CHECK_INT(popped, NREC);
	CHECK(sum_in == sum_out, "checksum of delivered records");
	CHECK_INT(early, 0);
	CHECK_INT(disorder, 0);
	CHECK_INT(unfair, 0);
	CHECK_INT(broken, 0);
	CHECK_INT(order__len(q), 0);
	CHECK(order__max_len(q) > 0 && order__max_len(q) < NREC, "max_len %zu", order__max_len(q));
out:
	order__delete(q);
}

int main(void)
{
	test_basic();
	test_delete_full();
	test_random();
	return ut_done("test_order");
}
