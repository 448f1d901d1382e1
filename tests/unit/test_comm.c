// SPDX-License-Identifier: GPL-2.0
/*
 * The comm cache stays bounded by the live tasks plus those that exited in
 * the last few seconds (event time), and never forgets a live task or one
 * that exited recently.
 */
#include <stdio.h>
#include <string.h>

#include "engine/comm.h"
#include "ut.h"

#define SEC 1000000000ULL

static void test_churn(void)
{
	struct comm_map *m = comm_map__new();
	size_t evicted = 0, peak = 0;
	char name[16];

	if (!m)
		return;
	/* long-lived tasks 1..99 */
	for (unsigned pid = 1; pid < 100; pid++) {
		snprintf(name, sizeof(name), "live-%u", pid);
		comm_map__set(m, pid, name);
	}
	/* 100 short-lived tasks a second for 60 s: each exits 10 ms after it starts */
	for (unsigned i = 0; i < 6000; i++) {
		unsigned pid = 1000 + i;
		unsigned long long t = (unsigned long long)i * SEC / 100;

		snprintf(name, sizeof(name), "churn-%u", i);
		comm_map__set(m, pid, name);
		comm_map__exit(m, pid, t + 10000000ULL);
		if (comm_map__count(m, NULL) > peak)
			peak = comm_map__count(m, NULL);
	}
	CHECK_INT(comm_map__count(m, &evicted) <= 99 + 100 * 10 * 2, 1);
	CHECK(peak <= 99 + 100 * 10 * 2, "peak %zu entries for ~500 recent exits", peak);
	CHECK(evicted >= 6000 - 100 * 10 * 2, "evicted %zu", evicted);
	/* live ones stay */
	for (unsigned pid = 1; pid < 100; pid++) {
		snprintf(name, sizeof(name), "live-%u", pid);
		CHECK(!strcmp(comm_map__get(m, pid), name), "live %u: %s", pid,
		      comm_map__get(m, pid));
	}
	/* the last second's exits are still named */
	for (unsigned i = 5900; i < 6000; i++) {
		snprintf(name, sizeof(name), "churn-%u", i);
		CHECK(!strcmp(comm_map__get(m, 1000 + i), name), "recent %u: %s", i,
		      comm_map__get(m, 1000 + i));
	}
	/* a reused pid is alive again: not evicted however old its last exit */
	comm_map__set(m, 1000 + 5900, "reborn");
	for (unsigned i = 0; i < 2000; i++)
		comm_map__exit(m, 900000 + i, 200 * SEC + i * SEC / 10);
	CHECK(!strcmp(comm_map__get(m, 1000 + 5900), "reborn"), "reborn: %s",
	      comm_map__get(m, 1000 + 5900));
	comm_map__delete(m);
}

int main(void)
{
	test_churn();
	return ut_done("test_comm");
}
