// SPDX-License-Identifier: GPL-2.0
/*
 * task-state ground truth: 10 sleeps of 30 ms from sleep_long() and 100
 * of 1 ms from sleep_short(), interleaved.  The nanosleep system call is
 * issued inline so that the user stack (frame pointers; Debian's libc has
 * none) starts in these functions.  A sleep whose timer fired while the
 * CPU was taken before it blocked (no S state) is made again: 110 in S.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define raw_nanosleep(ts)                                          \
	({                                                         \
		long ret;                                          \
		asm volatile("syscall"                             \
			     : "=a"(ret)                           \
			     : "0"(SYS_nanosleep), "D"(ts), "S"(0) \
			     : "rcx", "r11", "memory");            \
		ret;                                               \
	})

/* the voluntary context switches of this thread so far */
static long voluntary(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

/* one nanosleep that blocked (a voluntary switch), however many it takes */
#define blocking_nanosleep(ts)                        \
	do {                                          \
		long v_ = voluntary();                \
		do                                    \
			raw_nanosleep(ts);            \
		while (v_ >= 0 && voluntary() == v_); \
	} while (0)

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

__attribute__((noinline)) unsigned long long sleep_long(void)
{
	struct timespec d = { 0, 30000000L };
	unsigned long long t = now_ns();

	blocking_nanosleep(&d);
	return now_ns() - t;
}

__attribute__((noinline)) unsigned long long sleep_short(void)
{
	struct timespec d = { 0, 1000000L };
	unsigned long long t = now_ns();

	blocking_nanosleep(&d);
	return now_ns() - t;
}

int main(void)
{
	unsigned long long lt = 0, st = 0, each[10];
	int nl = 0;

	for (int i = 0; i < 110; i++) {
		if (i % 11 == 5) {
			each[nl] = sleep_long();
			lt += each[nl++];
		} else
			st += sleep_short();
	}
	printf("ts_mixed: long=10 long_ns=%llu short=100 short_ns=%llu pid=%d\n", lt, st,
	       (int)getpid());
	/* one line per long sleep, in order, to compare with --than's lines */
	for (int i = 0; i < nl; i++)
		printf("ts_mixed: long_sleep_ns=%llu\n", each[i]);
	return 0;
}
