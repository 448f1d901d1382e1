// SPDX-License-Identifier: GPL-2.0
/*
 * The time-ordering merge: records pushed from several simulated CPUs,
 * each CPU's stream in time order as a ring buffer delivers it, popped
 * under a horizon as the session does.
 */
#include <errno.h>
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
		CHECK_INT(order__push(q, in[i].t, &r.h, in[i].cpu, 0), 0);
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
		order__push(q, r.time, &r.h, 0, 0);
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
			if (order__push(q, r.time, &r.h, c, 0)) {
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

static int is_gap(const struct perf_event_header *h, uint64_t *lost)
{
	uint64_t id;

	if (h->type != PERF_RECORD_LOST || h->size != sizeof(*h) + 16)
		return 0;
	memcpy(&id, h + 1, 8);
	memcpy(lost, (const char *)(h + 1) + 8, 8);
	return id == ORDER_GAP_ID;
}

/* A record of @size bytes (a multiple of 8, >= 40) carrying @time and @seq. */
static struct perf_event_header *sized(int type, uint16_t size, uint64_t time, uint64_t seq)
{
	static uint64_t buf[8192];
	struct trec *r = (struct trec *)buf;

	memset(buf, 0, size);
	r->h.type = (uint32_t)type;
	r->h.size = size;
	r->time = time;
	r->seq = seq;
	return &r->h;
}

/*
 * Budget: samples are refused once the queue holds the budget, kept
 * records use a reserve of a quarter more, every refusal is counted and
 * leaves one gap marker per run of refusals, at the time of the first.
 */
static void test_budget(void)
{
	const size_t rec = 1000, c = rec + ORDER_ENTRY_COST;
	struct order_queue *q = order__new();
	const struct perf_event_header *h;
	uint64_t kept = 99, lost, t, nr_gaps = 0, gap_lost = 0, samples = 0, others = 0;
	int tag;

	if (!q)
		return;
	order__set_budget(q, 10 * c);
	/* ten fit exactly */
	for (int i = 0; i < 10; i++)
		CHECK_INT(order__push(q, 100 + i, sized(PERF_RECORD_SAMPLE, rec, 100 + i, i), 0, 0),
			  0);
	CHECK_INT(order__bytes(q), 10 * c);
	CHECK(!order__room(q, rec), "no room at the budget");
	/* the next three are refused: one marker at 110 holding 3 */
	for (int i = 0; i < 3; i++)
		CHECK_INT(order__push(q, 110 + i, sized(PERF_RECORD_SAMPLE, rec, 110 + i, 10 + i),
				      0, 0),
			  -ENOBUFS);
	CHECK_INT(order__dropped(q, &kept), 3);
	CHECK_INT(kept, 0);
	/* a kept record goes into the reserve (2.5 records here) and ends the run */
	CHECK_INT(order__push(q, 113, sized(PERF_RECORD_FORK, rec, 113, 13), 0, 1), 0);
	CHECK_INT(order__push(q, 114, sized(PERF_RECORD_SAMPLE, rec, 114, 14), 0, 0), -ENOBUFS);
	CHECK_INT(order__push(q, 115, sized(PERF_RECORD_COMM, rec, 115, 15), 0, 1), 0);
	/* the reserve is used up: kept records are refused too, and counted apart */
	CHECK_INT(order__push(q, 116, sized(PERF_RECORD_MMAP2, rec, 116, 16), 0, 1), -ENOBUFS);
	CHECK_INT(order__dropped(q, &kept), 4);
	CHECK_INT(kept, 1);
	/* another buffer's refusal gets its own marker, at its own time */
	CHECK_INT(order__push(q, 105, sized(PERF_RECORD_SAMPLE, rec, 105, 17), 1, 0), -ENOBUFS);
	CHECK(order__bytes(q) <= 10 * c + 10 * c / 4 + 4 * 64, "bytes %zu within budget + reserve",
	      order__bytes(q));
	CHECK(order__max_bytes(q) == order__bytes(q), "max_bytes");

	t = 0;
	while ((h = order__pop(q, UINT64_MAX, &tag, &t))) {
		if (is_gap(h, &lost)) {
			nr_gaps++;
			gap_lost += lost;
			/* where each run of refusals began */
			CHECK((t == 110 && lost == 3 && tag == 0) || (t == 114 && lost == 1) ||
				      (t == 116 && lost == 1) ||
				      (t == 105 && lost == 1 && tag == 1),
			      "gap at %llu holding %llu", (unsigned long long)t,
			      (unsigned long long)lost);
			continue;
		}
		samples += h->type == PERF_RECORD_SAMPLE;
		others += h->type != PERF_RECORD_SAMPLE;
	}
	CHECK_INT(nr_gaps, 4);
	CHECK_INT(gap_lost, 6);
	CHECK_INT(samples, 10);
	CHECK_INT(others, 2);
	CHECK_INT(order__bytes(q), 0);
	CHECK(order__room(q, rec), "room again when empty");
	/* popping frees the budget: pushes succeed again */
	CHECK_INT(order__push(q, 200, sized(PERF_RECORD_SAMPLE, rec, 200, 20), 0, 0), 0);
	order__delete(q); /* with a record queued: ASan checks it is freed */

	/* no budget: nothing is refused */
	q = order__new();
	if (!q)
		return;
	for (int i = 0; i < 1000; i++)
		CHECK_INT(order__push(q, i, sized(PERF_RECORD_SAMPLE, 4096, i, i), 0, 0), 0);
	CHECK_INT(order__dropped(q, NULL), 0);
	order__delete(q);
}

/*
 * A consumer slower than its producers: a budget of 64 records, bursts
 * from 4 buffers, pops limited per round.  Whatever is refused is
 * accounted by the markers; the rest comes out in time order; memory
 * never passes budget + reserve + markers.
 */
static void test_budget_random(void)
{
	const uint16_t size = 64;
	struct order_queue *q = order__new();
	uint64_t cpu_time[NCPU] = { 0 }, pushed = 0, refused = 0, out = 0, gap_lost = 0;
	uint64_t prev = 0, disorder = 0, lost, t;
	size_t cap = 64 * (size + ORDER_ENTRY_COST), peak = 0;
	const struct perf_event_header *h;

	if (!q)
		return;
	order__set_budget(q, cap);
	for (int round = 0; round < 2000; round++) {
		uint64_t horizon = UINT64_MAX;

		for (int c = 0; c < NCPU; c++) {
			int burst = (int)(rnd() % 40);

			for (int i = 0; i < burst; i++) {
				int keep = rnd() % 8 == 0, err;

				cpu_time[c] += 1 + rnd() % 3;
				err = order__push(
					q, cpu_time[c],
					sized(keep ? PERF_RECORD_COMM : PERF_RECORD_SAMPLE, size,
					      cpu_time[c], pushed),
					c, keep);
				pushed++;
				refused += err == -ENOBUFS;
				CHECK(err == 0 || err == -ENOBUFS, "push: %d", err);
			}
			if (cpu_time[c] < horizon)
				horizon = cpu_time[c];
		}
		if (order__bytes(q) > peak)
			peak = order__bytes(q);
		/* the consumer keeps up with only half of it */
		for (int i = 0; i < 40 && (h = order__pop(q, horizon, NULL, &t)); i++) {
			disorder += t < prev;
			prev = t;
			if (is_gap(h, &lost))
				gap_lost += lost;
			else
				out++;
		}
	}
	while ((h = order__pop(q, UINT64_MAX, NULL, &t))) {
		disorder += t < prev;
		prev = t;
		if (is_gap(h, &lost))
			gap_lost += lost;
		else
			out++;
	}
	{
		uint64_t kept, dropped = order__dropped(q, &kept);

		CHECK(refused > 0, "the slow consumer made the budget refuse records");
		CHECK_INT(dropped + kept, refused);
		CHECK_INT(gap_lost, refused);
		CHECK_INT(out + refused, pushed);
	}
	CHECK_INT(disorder, 0);
	/* markers are 40 bytes + cost, at most one per queued record */
	CHECK(peak <= cap + cap / 4 +
			      (cap / (size + ORDER_ENTRY_COST) + 1) * (40 + ORDER_ENTRY_COST),
	      "peak %zu bytes for a budget of %zu", peak, cap);
	order__delete(q);
}

/* (time, push order) of the reference */
static int by_time_seq(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/*
 * The queue keeps a run per tag for records in time order and a heap for
 * those that go back in time: whatever the mix, the records come out in
 * exactly (time, push order), as a sort gives them.  Tags beyond the
 * runs (negative, huge) and a tag shared by interleaved streams (per-thread
 * buffers) included; pops under random horizons between the pushes.
 */
#define NEXACT 60000
static void test_exact(void)
{
	static uint64_t ref[NEXACT][2];
	static const int tags[] = { 0, 1, 2, 3, -1, 7, 5000, -7 };
	uint64_t stream_time[2 * 8] = { 0 }, seq = 0, t;
	struct order_queue *q = order__new();
	const struct perf_event_header *h;
	size_t out = 0, wrong = 0, broken = 0;
	struct trec r;
	int tag;

	if (!q)
		return;
	while (seq < NEXACT) {
		int k = (int)(rnd() % 8), burst = 1 + (int)(rnd() % 100);
		uint64_t horizon;

		for (; burst > 0 && seq < NEXACT; burst--) {
			/* two streams per tag; one in 16 records goes back in time */
			uint64_t *st = &stream_time[2 * k + (int)(rnd() % 2)];

			if (rnd() % 16 == 0)
				t = *st > 50 ? *st - rnd() % 50 : 0;
			else
				t = *st += rnd() % 4;
			mk(&r, tags[k], t, seq);
			ref[seq][0] = t;
			ref[seq][1] = seq;
			seq++;
			CHECK_INT(order__push(q, t, &r.h, tags[k], 0), 0);
		}
		horizon = rnd() % 4 ? stream_time[rnd() % 16] : UINT64_MAX;
		/* the reference: what is queued, sorted, up to the horizon */
		qsort(ref + out, seq - out, sizeof(ref[0]), by_time_seq);
		while ((h = order__pop(q, horizon, &tag, &t))) {
			const struct trec *p = (const void *)h;

			wrong += out >= seq || p->seq != ref[out][1] || t != ref[out][0] ||
				 tag != (int)p->cpu;
			broken += !intact(h) || p->time != t;
			out++;
		}
		CHECK(out == seq || ref[out][0] > horizon, "stopped at the horizon");
		CHECK_INT(order__len(q), seq - out);
	}
	qsort(ref + out, seq - out, sizeof(ref[0]), by_time_seq);
	while ((h = order__pop(q, UINT64_MAX, &tag, &t))) {
		const struct trec *p = (const void *)h;

		wrong += out >= seq || p->seq != ref[out][1] || t != ref[out][0];
		broken += !intact(h);
		out++;
	}
	CHECK_INT(out, NEXACT);
	CHECK_INT(wrong, 0);
	CHECK_INT(broken, 0);
	CHECK_INT(order__bytes(q), 0);
	order__delete(q);
}

/*
 * A record far ahead of the reader's clock (a clock out of step) would keep the
 * chunk its copy is in as long as it waits: one each time round kept a
 * chunk each (400 rounds: 52 MB under a 1 MiB budget).  Such a record is
 * copied on its own: the chunks stay few, nothing is refused.
 */
static void test_far_ahead(void)
{
	struct order_queue *q = order__new();
	uint64_t now = 1000, kept, refused = 0;

	if (!q)
		return;
	order__set_budget(q, 1 << 20);
	for (int round = 0; round < 400; round++) {
		order__set_now(q, now);
		if (order__push(q, 1ULL << 60, sized(PERF_RECORD_SAMPLE, 16, 1ULL << 60, 0), 0, 0))
			refused++;
		for (int i = 0; i < 130; i++, now++)
			if (order__push(q, now, sized(PERF_RECORD_SAMPLE, 1000, now, 1), 1, 0))
				refused++;
		while (order__pop(q, now, NULL, NULL))
			;
	}
	CHECK(refused == 0 && order__dropped(q, &kept) == 0, "nothing refused: %llu",
	      (unsigned long long)refused);
	CHECK_INT(order__len(q), 400);
	CHECK(order__mem(q) <= 12 * 128 * 1024 + 400 * 64,
	      "copies take %zu bytes (chunks and the 400 far ahead)", order__mem(q));
	/* at the end they come, in their order */
	for (int i = 0; i < 400; i++)
		CHECK(order__pop(q, UINT64_MAX, NULL, NULL) != NULL, "far record %d", i);
	CHECK(order__pop(q, UINT64_MAX, NULL, NULL) == NULL, "then none");
	order__delete(q);
}

int main(void)
{
	test_basic();
	test_delete_full();
	test_random();
	test_budget();
	test_budget_random();
	test_exact();
	test_far_ahead();
	return ut_done("test_order");
}
