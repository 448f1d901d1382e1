// SPDX-License-Identifier: GPL-2.0
/*
 * The comm cache stays bounded by the live tasks plus those that exited in
 * the last few seconds (event time), and never forgets a live task or one
 * that exited recently.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* Records from several buffers come out of time order: names are kept by time. */
static void test_versions(void)
{
	struct comm_map *m = comm_map__new();

	if (!m)
		return;
	/* the rename (t=20) is applied before the fork (t=10) that named it after its parent */
	comm_map__set_at(m, 7, "worker", 20);
	comm_map__set_at(m, 7, "parent", 10);
	CHECK_STR(comm_map__get_at(m, 7, 15), "parent");
	CHECK_STR(comm_map__get_at(m, 7, 20), "worker");
	CHECK_STR(comm_map__get_at(m, 7, 25), "worker");
	CHECK_STR(comm_map__get_at(m, 7, 5), "parent"); /* before the first: the first */
	CHECK_STR(comm_map__get(m, 7), "worker");
	/* the same record applied twice changes nothing */
	comm_map__set_at(m, 7, "worker", 20);
	comm_map__set_at(m, 7, "parent", 10);
	CHECK_STR(comm_map__get_at(m, 7, 15), "parent");
	CHECK_STR(comm_map__get_at(m, 7, 21), "worker");
	/* more renames than kept: the oldest go */
	for (int i = 0; i < 10; i++) {
		char name[16];

		snprintf(name, sizeof(name), "r%d", i);
		comm_map__set_at(m, 7, name, 100 + i);
	}
	CHECK_STR(comm_map__get_at(m, 7, 109), "r9");
	CHECK_STR(comm_map__get_at(m, 7, 107), "r7");
	/* after its exit, a new task with the pid starts afresh */
	comm_map__exit(m, 7, 200);
	comm_map__set_at(m, 7, "newtask", 300);
	CHECK_STR(comm_map__get_at(m, 7, 150), "newtask");
	CHECK_STR(comm_map__get(m, 7), "newtask");
	/* a late COMM of the old task (before its exit) does not revive it */
	comm_map__exit(m, 8, 0);
	comm_map__set(m, 9, "snap");
	comm_map__exit(m, 9, 500);
	comm_map__set_at(m, 9, "late", 400);
	CHECK_STR(comm_map__get_at(m, 9, 450), "late");
	CHECK_STR(comm_map__get_at(m, 9, 300), "snap");
	comm_map__delete(m);
}

/*
 * Where a name comes from, in order: the map (COMM/FORK records, a
 * tracepoint's comm field), then /proc/PID/comm (kept), then "<...>";
 * pid 0 is "<idle>".  peek_at never reads /proc.
 */
static void test_fallback(void)
{
	struct comm_map *m = comm_map__new();
	uint32_t self = (uint32_t)getpid(), gone = 0x3ffffff0; /* above any pid_max */
	char own[32] = "";
	FILE *f = fopen("/proc/self/comm", "r");

	if (f) {
		if (fgets(own, sizeof(own), f))
			own[strcspn(own, "\n")] = 0;
		fclose(f);
	}
	CHECK(own[0] != 0, "read /proc/self/comm");
	CHECK(comm_map__peek_at(m, self, 5) == NULL, "peek_at: unknown, no /proc");
	CHECK_STR(comm_map__get(m, 0), "<idle>");
	CHECK_STR(comm_map__get(m, gone), "<...>");
	CHECK(comm_map__peek_at(m, gone, 5) == NULL, "no such task: still unknown");
	CHECK(!strcmp(comm_map__get_at(m, self, 5), own), "/proc"); /* /proc */
	CHECK(!strcmp(comm_map__peek_at(m, self, 5), own), "kept");
	/* a record's name wins over /proc's from its time on */
	comm_map__set_at(m, self, "renamed", 10);
	CHECK_STR(comm_map__get_at(m, self, 20), "renamed");
	CHECK(!strcmp(comm_map__get_at(m, self, 5), own), "before the rename");

	/* a tracepoint's comm field: an unknown task gets it */
	comm_map__seen(m, 4242, "migration/1\0xyz", 16, 100);
	CHECK_STR(comm_map__get_at(m, 4242, 100), "migration/1");
	/* /proc's "kworker/0:1-events" is the kernel's "kworker/0:1": kept as it is */
	comm_map__set(m, 4243, "kworker/0:1-eve");
	comm_map__seen(m, 4243, "kworker/0:1", 16, 100);
	CHECK_STR(comm_map__get_at(m, 4243, 200), "kworker/0:1-eve");
	/* a FORK's inherited name, the rename lost: the field's name from its time */
	comm_map__set_at(m, 4244, "kthreadd", 50);
	comm_map__seen(m, 4244, "kworker/1:2", 11, 150);
	CHECK_STR(comm_map__get_at(m, 4244, 100), "kthreadd");
	CHECK_STR(comm_map__get_at(m, 4244, 150), "kworker/1:2");
	/* the same name again adds nothing; empty fields are ignored */
	comm_map__seen(m, 4244, "kworker/1:2", 16, 160);
	comm_map__seen(m, 4245, "\0", 16, 160);
	CHECK(comm_map__peek_at(m, 4245, 160) == NULL, "an empty name names nobody");
	/* longer than a comm: cut at 15 bytes */
	comm_map__seen(m, 4246, "abcdefghijklmnopqrstuvwxyz", 26, 1);
	CHECK_STR(comm_map__get(m, 4246), "abcdefghijklmno");
	comm_map__delete(m);
}

int main(void)
{
	test_churn();
	test_versions();
	test_fallback();
	return ut_done("test_comm");
}
