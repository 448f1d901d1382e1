// SPDX-License-Identifier: GPL-2.0
/*
 * The keyed start -> end store: deltas, replaced starts, lost records, exits,
 * the key limit, idle eviction with payload buffers freed, and the report.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/pairs.h"
#include "report/rtable.h"
#include "ut.h"

#define MS 1000000ULL

struct payload {
	int state;
	char *buf; /* owned: freed by payload_free */
};

static int freed;

static void payload_free(void *pl)
{
	struct payload *p = pl;

	free(p->buf);
	freed++;
}

static void test_pairing(void)
{
	struct pairs_conf conf = { .payload_size = sizeof(struct payload),
				   .payload_free = payload_free };
	struct pairs *p = pairs__new(&conf);
	struct pair_span sp;
	struct payload *pl;
	u64 start = 0;

	/* an end without a start is nothing */
	CHECK_INT(pairs__end(p, 7, 100, &sp), 0);
	pl = pairs__start(p, 7, 1000, 1);
	CHECK(pl != NULL, "start");
	CHECK_INT(pl->state, 0); /* zeroed when the key is made */
	pl->state = 2;
	pl->buf = strdup("stack");
	CHECK(pairs__pending(p, 7, &start) == pl, "pending");
	CHECK_INT(start, 1000);
	CHECK(pairs__pending(p, 8, NULL) == NULL, "other key");
	CHECK_INT(pairs__end(p, 7, 1000 + 5 * MS, &sp), 1);
	CHECK_INT(sp.start, 1000);
	CHECK_INT(sp.delta, 5 * MS);
	CHECK_INT(sp.start_cpu, 1);
	CHECK(sp.payload == pl && ((struct payload *)sp.payload)->state == 2, "payload");
	/* closed: a second end finds nothing */
	CHECK_INT(pairs__end(p, 7, 2000 + 5 * MS, &sp), 0);

	/* the payload (and its buffer) is kept for the next interval */
	pl = pairs__start(p, 7, 10 * MS, 0);
	CHECK(pl && pl->state == 2 && pl->buf && !strcmp(pl->buf, "stack"), "payload kept");
	/* a second start before an end replaces the first */
	pl = pairs__start(p, 7, 11 * MS, 0);
	CHECK_INT(pairs__counts(p)->replaced, 1);
	CHECK_INT(pairs__end(p, 7, 12 * MS, &sp), 1);
	CHECK_INT(sp.delta, 1 * MS);

	/* cancel: not pending, not counted */
	pairs__start(p, 9, 20 * MS, 0);
	pairs__cancel(p, 9);
	CHECK(pairs__pending(p, 9, NULL) == NULL, "cancelled");

	/* an end before its start never makes a negative delta */
	pairs__start(p, 9, 30 * MS, 0);
	CHECK_INT(pairs__end(p, 9, 29 * MS, &sp), 0);
	CHECK_INT(pairs__counts(p)->backwards, 1);

	CHECK_INT(pairs__counts(p)->started, 5);
	CHECK_INT(pairs__counts(p)->ended, 2);
	CHECK_INT(pairs__counts(p)->keys, 2);
	pairs__delete(p);
	CHECK_INT(freed, 2);
}

static void count_pending(u64 key, u64 start, void *payload, void *arg)
{
	(void)key;
	(void)start;
	(void)payload;
	(*(int *)arg)++;
}

static void test_lost_and_exit(void)
{
	struct pairs_conf conf = { .payload_size = 8 };
	struct pairs *p = pairs__new(&conf);
	struct pair_span sp;
	int n = 0;

	for (u64 k = 1; k <= 10; k++)
		pairs__start(p, k, k * MS, 0);
	pairs__end(p, 10, 20 * MS, &sp);
	pairs__for_each_pending(p, count_pending, &n);
	CHECK_INT(n, 9);
	/* records lost: which intervals lack their end is unknown, all go */
	pairs__lost(p);
	CHECK_INT(pairs__counts(p)->lost, 9);
	for (u64 k = 1; k <= 10; k++)
		CHECK_INT(pairs__end(p, k, 30 * MS, &sp), 0);
	/* the 9 ends of the dropped intervals are told apart, once each */
	CHECK_INT(pairs__counts(p)->ended_dropped, 9);
	CHECK_INT(pairs__end(p, 2, 31 * MS, &sp), 0);
	CHECK_INT(pairs__counts(p)->ended_dropped, 9);
	/* an exit frees the key; a pending interval is counted */
	pairs__start(p, 3, 40 * MS, 0);
	pairs__forget(p, 3);
	pairs__forget(p, 4);
	pairs__forget(p, 99);
	CHECK_INT(pairs__counts(p)->exited, 1);
	CHECK_INT(pairs__counts(p)->keys, 8);
	CHECK_INT(pairs__end(p, 3, 50 * MS, &sp), 0);
	/* a new interval on an exited key starts from scratch */
	CHECK(pairs__start(p, 3, 60 * MS, 0) != NULL, "restart");
	CHECK_INT(pairs__end(p, 3, 61 * MS, &sp), 1);
	CHECK_INT(sp.delta, MS);

	/* per-interval counts reset, key counts stay */
	pairs__reset_counts(p);
	CHECK_INT(pairs__counts(p)->lost, 0);
	CHECK_INT(pairs__counts(p)->started, 0);
	CHECK_INT(pairs__counts(p)->keys, 9);
	CHECK_INT(pairs__counts(p)->peak_keys, 10);
	pairs__delete(p);
}

static void test_bounds(void)
{
	struct pairs_conf conf = { .payload_size = sizeof(struct payload),
				   .max_keys = 100,
				   .idle_ns = 1000 * MS,
				   .payload_free = payload_free };
	struct pairs *p = pairs__new(&conf);
	struct pair_span sp;
	u64 t = 0;

	freed = 0;
	/* 150 keys pending at once: 50 refused */
	for (u64 k = 0; k < 150; k++) {
		struct payload *pl = pairs__start(p, k, t += MS, 0);

		if (pl && !pl->buf)
			pl->buf = malloc(64);
	}
	CHECK_INT(pairs__counts(p)->full, 50);
	CHECK_INT(pairs__counts(p)->keys, 100);
	for (u64 k = 0; k < 100; k++)
		pairs__end(p, k, t += MS, &sp);
	pairs__delete(p);
	CHECK_INT(freed, 100);

	/*
	 * 10,000 short-lived keys over 110 s, no key limit: idle ones go,
	 * the table holds about two idle periods of keys (2 s / 11 ms).
	 */
	conf.max_keys = 0;
	p = pairs__new(&conf);
	freed = 0;
	for (u64 k = 1000; k < 11000; k++) {
		struct payload *pl = pairs__start(p, k, t += 10 * MS, 0);

		if (pl && !pl->buf)
			pl->buf = malloc(64);
		pairs__end(p, k, t += MS, &sp);
	}
	CHECK(pairs__counts(p)->peak_keys <= 200, "peak %llu",
	      (unsigned long long)pairs__counts(p)->peak_keys);
	CHECK(pairs__counts(p)->evicted > 9000, "evicted %llu",
	      (unsigned long long)pairs__counts(p)->evicted);
	CHECK_INT(freed, pairs__counts(p)->evicted);
	/* a pending interval is never evicted, however old */
	pairs__start(p, 5, t += MS, 0);
	for (u64 k = 20000; k < 20050; k++) {
		pairs__start(p, k, t += 100 * MS, 0);
		pairs__end(p, k, t += MS, &sp);
	}
	CHECK_INT(pairs__end(p, 5, t, &sp), 1);
	CHECK(sp.delta > 5000 * MS, "long pending interval kept (%llu ns)",
	      (unsigned long long)sp.delta);
	pairs__delete(p);
}

static void test_report(void)
{
	struct pairs_conf conf = { .payload_size = 0, .max_keys = 1 };
	struct pairs *p = pairs__new(&conf);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct rt_json j;

	pairs__start(p, 1, 10, 0);
	pairs__start(p, 1, 20, 0); /* replaced */
	pairs__start(p, 2, 30, 0); /* full */
	pairs__lost(p);
	pairs__print_drops(p, fp, "lat", "intervals", "the end event not seen");
	pairs__print_usage(p, fp, "lat", "task");
	fclose(fp);
	CHECK_STR(buf, "lat: 1 pending intervals dropped after lost events\n"
		       "lat: 1 intervals dropped: the end event not seen\n"
		       "lat: 1 intervals not counted: 1 pending at once is the limit\n"
		       "lat: 1 task entries at the end (peak 1), 0 evicted idle\n");
	free(buf);
	/* the same row to the JSON sink: the counts, not the sentences */
	fp = open_memstream(&buf, &len);
	pairs__emit_drops(p, rt_json__init(&j, fp, NULL), "intervals", "a:b", "lat", "why");
	fclose(fp);
	CHECK_STR(buf, "{\"type\":\"dropped\",\"what\":\"intervals\",\"from\":\"a:b\",\"lost\":1,"
		       "\"exited\":0,\"replaced\":1,\"full\":1,\"nomem\":0,\"backwards\":0}\n");
	free(buf);
	/* nothing dropped: no row in either sink */
	pairs__reset_counts(p);
	fp = open_memstream(&buf, &len);
	pairs__emit_drops(p, rt_json__init(&j, fp, NULL), "intervals", NULL, "lat", "why");
	pairs__print_drops(p, fp, "lat", "intervals", "why");
	fclose(fp);
	CHECK_STR(buf, "");
	free(buf);
	pairs__delete(p);
}

int main(void)
{
	test_pairing();
	test_lost_and_exit();
	test_bounds();
	test_report();
	return ut_done("test_pairs");
}
