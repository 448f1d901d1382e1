// SPDX-License-Identifier: GPL-2.0
/*
 * watchval: the records the breakpoint programs copy out, paired with the
 * samples of their hits, in the kernel's two orders (the sample's time
 * before the program's record: Linux 6.3 on; the record first: before),
 * with samples lost, threads and breakpoints interleaved, records read
 * ahead of their samples (time order), a failed read, and no record.
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

/* More records than are held: the oldest go, the newest pair still. */
static void test_full(void)
{
	struct watchval *w = watchval__new();
	u64 v;

	for (u64 i = 1; i <= 10000; i++)
		rec(w, i * 10 + 5, 9, 0, 0, i);
	CHECK(get(w, 10, 9, 0, 0, &v) == -ENOENT || v != 1, "the oldest went");
	CHECK(!get(w, 99990, 9, 0, 0, &v) && v == 9999, "the newest: %llu", (unsigned long long)v);
	CHECK(watchval__get(NULL, &(struct sample){ 0 }, 0, &v) == -ENOENT, "none: no value");
	watchval__free(w);
}

int main(void)
{
	test_after();
	test_before();
	test_full();
	return ut_done("test_watchval");
}
