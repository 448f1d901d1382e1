// SPDX-License-Identifier: GPL-2.0
/*
 * --sampling-limit: at most N a second per CPU or thread, also when a
 * thread's samples of two seconds come out of order (one ring per CPU,
 * each drained whole in turn).
 */
#include "engine/conf.h"
#include "engine/rate.h"
#include "ut.h"

/* how many of @n samples of @tid in second @sec are admitted */
static int admit(struct rate *r, int cpu, unsigned tid, unsigned long long sec, int n)
{
	int ok = 0;

	for (int i = 0; i < n; i++)
		ok += rate__admit(r, cpu, tid, sec);
	return ok;
}

static void test_thread_out_of_order(void)
{
	struct run_opts run = { .sampling_limit = 5 };
	struct rate *r = rate__new(&run, 2, true);
	int n;

	CHECK(r && rate__limits(r), "rate__new");
	/* CPU 0's ring: seconds 100 and 101; then CPU 1's: second 100 again */
	CHECK((n = admit(r, 0, 42, 100, 3)) == 3, "100 on CPU 0: %d", n);
	CHECK((n = admit(r, 0, 42, 101, 7)) == 5, "101: %d", n);
	CHECK((n = admit(r, 1, 42, 100, 7)) == 2, "100 again, from CPU 1: %d (the count was reset)",
	      n);
	CHECK((n = admit(r, 1, 42, 101, 1)) == 0, "101 is full: %d", n);
	/* another thread has its own count */
	CHECK((n = admit(r, 1, 43, 101, 6)) == 5, "tid 43: %d", n);
	/* a new second, after a gap: the seconds between start empty */
	CHECK((n = admit(r, 0, 42, 103, 6)) == 5, "103: %d", n);
	CHECK((n = admit(r, 0, 42, 102, 6)) == 5, "102, late: %d", n);
	/* a second beyond the window is admitted, not counted against another */
	CHECK((n = admit(r, 0, 42, 99, 2)) == 2, "99, too late to count: %d", n);
	CHECK((n = admit(r, 0, 42, 103, 1)) == 0, "103 still full: %d", n);
	CHECK(rate__dropped(r) == 2 + 5 + 1 + 1 + 1 + 1 + 1, "dropped %llu",
	      (unsigned long long)rate__dropped(r));
	rate__delete(r);
}

static void test_cpu(void)
{
	struct run_opts run = { .sampling_limit = 2 };
	struct rate *r = rate__new(&run, 2, false);
	int n;

	CHECK((n = admit(r, 0, 1, 7, 3)) == 2, "CPU 0: %d", n);
	CHECK((n = admit(r, 1, 1, 7, 3)) == 2, "CPU 1 counts apart: %d", n);
	CHECK((n = admit(r, 0, 1, 8, 3)) == 2, "CPU 0, next second: %d", n);
	CHECK((n = admit(r, 5, 1, 8, 3)) == 3, "a CPU beyond the possible: admitted, %d", n);
	rate__delete(r);
}

int main(void)
{
	test_thread_out_of_order();
	test_cpu();
	return ut_done("test_rate");
}
