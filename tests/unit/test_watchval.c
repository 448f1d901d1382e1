// SPDX-License-Identifier: GPL-2.0
/*
 * watchval: the records the breakpoint programs copy out, paired with the
 * samples of their hits: by the hit's number (the event's count) with a
 * record missing (that hit alone has no value), samples lost, the idle
 * tasks of two CPUs, breakpoints interleaved, more records than are held;
 * by time (inherited events) in the kernel's two orders (the sample's
 * time before the program's record: Linux 6.3 on; the record first:
 * before), with samples lost, threads and breakpoints interleaved, records
 * read ahead of their samples, a record missing (one hit in error), a
 * failed read, and no record.
 */
#include <errno.h>
#include <string.h>

#include "analysis/memory/watchval.h"
#include "ut.h"

static void rec(struct watchval *w, u64 time, u32 tid, u32 cpu, u32 id, u64 value)
{
	struct watchval_rec r = {
		.time = time, .value = value, .tid = tid, .cpu = cpu, .id = id, .err = 0
	};

	watchval__push(w, &r);
}

static int get(struct watchval *w, u64 time, u32 tid, u32 cpu, int id, u64 *v)
{
	struct sample smp = { .time = time, .tid = tid, .pid = tid, .cpu = cpu };

	*v = ~0ULL;
	return watchval__get(w, &smp, id, v);
}

/* The sample's time first, then the record (Linux 6.3 on). */
static void test_after(void)
{
	struct watchval *w = watchval__new();
	u64 v;

	/* records read ahead of their samples: all of them first (time order) */
	for (u64 i = 1; i <= 5; i++)
		rec(w, i * 100 + 10, 7, 1, 0, i);
	for (u64 i = 1; i <= 5; i++)
		CHECK(!get(w, i * 100, 7, 1, 0, &v) && v == i, "hit %llu: value %llu",
		      (unsigned long long)i, (unsigned long long)v);
	/* a sample lost (hit 6's): hit 7 takes its own, not hit 6's */
	rec(w, 610, 7, 1, 0, 6);
	rec(w, 710, 7, 1, 0, 7);
	CHECK(!get(w, 700, 7, 1, 0, &v) && v == 7, "after a lost sample: %llu",
	      (unsigned long long)v);
	/* two threads and two breakpoints interleaved on two CPUs */
	rec(w, 810, 8, 0, 1, 81);
	rec(w, 820, 7, 1, 0, 8);
	rec(w, 830, 8, 0, 0, 80);
	CHECK(!get(w, 815, 7, 1, 0, &v) && v == 8, "thread 7: %llu", (unsigned long long)v);
	CHECK(!get(w, 825, 8, 0, 0, &v) && v == 80, "thread 8, breakpoint 0: %llu",
	      (unsigned long long)v);
	CHECK(!get(w, 805, 8, 0, 1, &v) && v == 81, "thread 8, breakpoint 1: %llu",
	      (unsigned long long)v);
	/* no record (the ring buffer was full): none, not the next hit's */
	CHECK(get(w, 900, 7, 1, 0, &v) == -ENOENT, "no record: no value");
	/* a read that failed: no value */
	watchval__push(w, &(struct watchval_rec){ .time = 1010, .tid = 7, .cpu = 1, .err = -14 });
	CHECK(get(w, 1000, 7, 1, 0, &v) == -ENOENT, "a failed read: no value");
	/* a record of another CPU than the sample's: not its own */
	rec(w, 1110, 7, 0, 0, 11);
	CHECK(get(w, 1100, 7, 1, 0, &v) == -ENOENT, "another CPU's record: no value");
	watchval__free(w);
}

/*
 * By time, the sample first: a hit whose record is missing takes the next
 * hit's; the next hit, whose sample came before that record, has none,
 * and the ones after it their own: one hit in error, not all after it.
 */
static void test_bounded(void)
{
	struct watchval *w = watchval__new();
	u64 v;

	for (u64 i = 1; i <= 6; i++)
		if (i != 3)
			rec(w, i * 100 + 10, 7, 1, 0, i);
	for (u64 i = 1; i <= 2; i++)
		CHECK(!get(w, i * 100, 7, 1, 0, &v) && v == i, "hit %llu: %llu",
		      (unsigned long long)i, (unsigned long long)v);
	get(w, 300, 7, 1, 0, &v); /* hit 3: hit 4's (no number to tell) */
	CHECK(get(w, 400, 7, 1, 0, &v) == -ENOENT, "hit 4: its record was taken: none (%llu)",
	      (unsigned long long)v);
	for (u64 i = 5; i <= 6; i++)
		CHECK(!get(w, i * 100, 7, 1, 0, &v) && v == i, "hit %llu: its own again, %llu",
		      (unsigned long long)i, (unsigned long long)v);
	watchval__free(w);
}

/* The record first, then the sample's time (before Linux 6.3). */
static void test_before(void)
{
	struct watchval *w = watchval__new();
	u64 v;

	for (u64 i = 1; i <= 3; i++)
		rec(w, i * 100 - 10, 7, 1, 0, i);
	for (u64 i = 1; i <= 3; i++)
		CHECK(!get(w, i * 100, 7, 1, 0, &v) && v == i, "hit %llu: value %llu",
		      (unsigned long long)i, (unsigned long long)v);
	/* a sample lost: the next takes the newest record before it */
	rec(w, 390, 7, 1, 0, 4);
	rec(w, 490, 7, 1, 0, 5);
	CHECK(!get(w, 500, 7, 1, 0, &v) && v == 5, "after a lost sample: %llu",
	      (unsigned long long)v);
	CHECK(get(w, 600, 7, 1, 0, &v) == -ENOENT, "no record: no value");
	watchval__free(w);
}

static void crec(struct watchval *w, u64 time, u32 tid, u32 cpu, u32 id, u64 count, u64 value)
{
	struct watchval_rec r = { .time = time,
				  .value = value,
				  .count = count,
				  .tid = tid,
				  .cpu = cpu,
				  .id = id,
				  .err = 0 };

	watchval__push(w, &r);
}

static int cget(struct watchval *w, u64 time, u32 tid, u32 cpu, int id, u64 count, u64 *v)
{
	u64 rv[1] = { count };
	struct sample smp = { .sample_type = PERF_SAMPLE_READ,
			      .time = time,
			      .tid = tid,
			      .pid = tid,
			      .cpu = cpu,
			      .read_nr = 1,
			      .read_values = rv };

	*v = ~0ULL;
	return watchval__get(w, &smp, id, v);
}

/* Paired by the hit's number (the event's count): a missing record costs its hit only. */
static void test_count(void)
{
	struct watchval *w = watchval__new();
	u64 v;

	/* hit 3's record missing (the ring was full, the program skipped) */
	for (u64 i = 1; i <= 6; i++)
		if (i != 3)
			crec(w, i * 100 + 10, 7, 1, 0, i, i * 11);
	for (u64 i = 1; i <= 6; i++) {
		int ret = cget(w, i * 100, 7, 1, 0, i, &v);

		if (i == 3)
			CHECK(ret == -ENOENT, "hit 3, no record: no value, not hit 4's (%llu)",
			      (unsigned long long)v);
		else
			CHECK(!ret && v == i * 11, "hit %llu: its own value %llu",
			      (unsigned long long)i, (unsigned long long)v);
	}
	/* samples lost (hits 7, 8): their records are dropped, hit 9 takes its own */
	for (u64 i = 7; i <= 9; i++)
		crec(w, i * 100 + 10, 7, 1, 0, i, i * 11);
	CHECK(!cget(w, 900, 7, 1, 0, 9, &v) && v == 99, "after lost samples: %llu",
	      (unsigned long long)v);
	/* the idle tasks of two CPUs (tid 0), same numbers; CPU 1's samples come first */
	crec(w, 1000, 0, 0, 0, 1, 1000);
	crec(w, 1100, 0, 0, 0, 2, 1001);
	crec(w, 1010, 0, 1, 0, 1, 2000);
	crec(w, 1110, 0, 1, 0, 2, 2001);
	CHECK(!cget(w, 1005, 0, 1, 0, 1, &v) && v == 2000, "CPU 1's hit 1: %llu",
	      (unsigned long long)v);
	CHECK(!cget(w, 1105, 0, 1, 0, 2, &v) && v == 2001, "CPU 1's hit 2: %llu",
	      (unsigned long long)v);
	CHECK(!cget(w, 995, 0, 0, 0, 1, &v) && v == 1000, "CPU 0's hit 1: %llu",
	      (unsigned long long)v);
	CHECK(!cget(w, 1095, 0, 0, 0, 2, &v) && v == 1001, "CPU 0's hit 2: %llu",
	      (unsigned long long)v);
	/* two breakpoints: each its own numbers */
	crec(w, 1200, 7, 1, 1, 1, 5);
	crec(w, 1210, 7, 1, 0, 10, 110);
	CHECK(!cget(w, 1205, 7, 1, 0, 10, &v) && v == 110, "breakpoint 0: %llu",
	      (unsigned long long)v);
	CHECK(!cget(w, 1195, 7, 1, 1, 1, &v) && v == 5, "breakpoint 1: %llu",
	      (unsigned long long)v);
	/* the last hit's record missing: none (no next one to take) */
	CHECK(cget(w, 1300, 7, 1, 0, 11, &v) == -ENOENT, "no record: no value");
	watchval__free(w);
}

/* More records than are held: the oldest go (their hits have none), the newest pair still. */
static void test_full(void)
{
	struct watchval *w = watchval__new();
	u64 v;

	for (u64 i = 1; i <= 10000; i++)
		crec(w, i * 10 + 5, 9, 0, 0, i, i);
	CHECK(cget(w, 10, 9, 0, 0, 1, &v) == -ENOENT, "the oldest went: no value (%llu)",
	      (unsigned long long)v);
	CHECK(cget(w, 5000, 9, 0, 0, 500, &v) == -ENOENT, "hit 500's went too");
	for (u64 i = 9000; i <= 10000; i++)
		CHECK(!cget(w, i * 10, 9, 0, 0, i, &v) && v == i, "hit %llu: %llu",
		      (unsigned long long)i, (unsigned long long)v);
	CHECK(watchval__get(NULL, &(struct sample){ 0 }, 0, &v) == -ENOENT, "none: no value");
	watchval__free(w);
}

int main(void)
{
	test_count();
	test_after();
	test_bounded();
	test_before();
	test_full();
	return ut_done("test_watchval");
}
