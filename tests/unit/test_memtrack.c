// SPDX-License-Identifier: GPL-2.0
/* The allocation table against a plain reference array, and its grouping. */
#include <stdlib.h>

#include "analysis/memory/memtrack.h"
#include "ut.h"

#define N 20000

static u64 ref_size[N]; /* by slot: 0 = free */

static u64 addr_of(int i)
{
	return 0x7f0000000000ULL + (u64)i * 48; /* clustered addresses: long probe runs */
}

static void test_random(void)
{
	struct memtrack *mt = memtrack__new(0);
	u64 live = 0, bytes = 0, allocs = 0, frees = 0, ignored = 0;
	struct memtrack_stats st;
	unsigned seed = 1;
	bool ok = true;

	for (int step = 0; step < 400000; step++) {
		int i = rand_r(&seed) % N;

		if (ref_size[i]) {
			ok &= memtrack__free(mt, addr_of(i), NULL);
			bytes -= ref_size[i];
			ref_size[i] = 0;
			live--;
			frees++;
		} else if (rand_r(&seed) % 8 == 0) {
			ok &= !memtrack__free(mt, addr_of(i),
					      NULL); /* allocated before the start */
			ignored++;
		} else {
			ref_size[i] = 1 + rand_r(&seed) % 5000;
			ok &= !memtrack__alloc(mt, addr_of(i), ref_size[i], step, 1 + i % 7, "w");
			bytes += ref_size[i];
			live++;
			allocs++;
		}
	}
	CHECK(ok, "a free found what the reference says, and only that");
	CHECK_INT(memtrack__live(mt), live);
	CHECK_INT(memtrack__live_bytes(mt), bytes);
	memtrack__stats(mt, &st);
	CHECK_INT(st.allocs, allocs);
	CHECK_INT(st.frees, frees);
	CHECK_INT(st.ignored_frees, ignored);
	for (int i = 0; i < N; i++)
		if (ref_size[i])
			ok &= memtrack__free(mt, addr_of(i), NULL);
	CHECK(ok, "every live one found at the end");
	CHECK_INT(memtrack__live(mt), 0);
	CHECK_INT(memtrack__live_bytes(mt), 0);
	memtrack__delete(mt);
}

static void test_groups(void)
{
	struct memtrack *mt = memtrack__new(0);
	struct memtrack_group *g;
	struct memtrack_stats st;
	int n;

	for (int i = 0; i < 10; i++) /* stack 1: 10 x 4096, from t=100 */
		memtrack__alloc(mt, 0x1000 + i * 0x1000, 4096, 100 + i, 1, "a");
	for (int i = 0; i < 5; i++) /* stack 2: 5 x 100, two comms */
		memtrack__alloc(mt, 0x100000 + i * 0x100, 100, 50 + i, 2, i < 2 ? "a" : "b");
	memtrack__alloc(mt, 0x200000, 777, 1000, 3, "a");
	memtrack__alloc(mt, 0, 1 << 30, 5, 4, "a"); /* failed: NULL */
	memtrack__alloc(mt, 0x300000, 10, 5, 4, "a");
	u64 sz = 0;

	CHECK(memtrack__free(mt, 0x300000, &sz) && sz == 10, "a free gives the size back");
	n = memtrack__groups(mt, 2000, 0, false, &g);
	CHECK_INT(n, 3);
	if (n == 3) {
		CHECK(g[0].stack == 1 && g[0].bytes == 40960 && g[0].objects == 10 &&
			      g[0].oldest == 100,
		      "largest first: %u %llu", g[0].stack, (unsigned long long)g[0].bytes);
		CHECK(g[1].stack == 3 && g[1].bytes == 777 && g[1].objects == 1, "then 777");
		CHECK(g[2].stack == 2 && g[2].bytes == 500 && g[2].objects == 5 &&
			      g[2].oldest == 50,
		      "then 5 x 100");
	}
	free(g);
	n = memtrack__groups(mt, 2000, 0, true, &g);
	CHECK_INT(n, 4);
	free(g);
	/* --than 1500 ns at 2000: only those allocated at or before 500 */
	n = memtrack__groups(mt, 2000, 1500, false, &g);
	CHECK_INT(n, 2);
	free(g);
	memtrack__stats(mt, &st);
	CHECK_INT(st.failed, 1);
	CHECK_INT(st.allocs, 17);
	/* the same address again without a free: replaced, counted */
	memtrack__alloc(mt, 0x200000, 10, 1001, 3, "a");
	memtrack__stats(mt, &st);
	CHECK_INT(st.replaced, 1);
	CHECK_INT(memtrack__live_bytes(mt), 40960 + 500 + 10);
	memtrack__delete(mt);

	/* the cap: beyond it, counted as untracked */
	mt = memtrack__new(3);
	for (int i = 1; i <= 5; i++)
		memtrack__alloc(mt, (u64)i * 16, 1, 0, 1, "c");
	memtrack__stats(mt, &st);
	CHECK_INT(memtrack__live(mt), 3);
	CHECK_INT(st.untracked, 2);
	memtrack__delete(mt);
}

int main(void)
{
	test_random();
	test_groups();
	return ut_done("test_memtrack");
}
