// SPDX-License-Identifier: GPL-2.0
/*
 * task-state ground truth for D state: a vfork() parent waits for its
 * child in TASK_KILLABLE, which sched_switch reports as prev_state D.
 * The child sleeps MS ms and exits, so the parent spends N known periods
 * in D, and each child exactly one in S: a nanosleep whose timer fired
 * before the child blocked (its virtual CPU taken by the host between
 * arming the timer and blocking) is made again until one blocked.
 * Prints the parent's measured total wait in ns.
 * usage: ts_dstate [N [MS]]   (default 20 x 10 ms)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	int ms = argc > 2 ? atoi(argv[2]) : 10;
	static struct timespec d;
	unsigned long long total = 0, t, *each;

	if (n < 1 || !(each = calloc(n, sizeof(*each))))
		return 1;
	d.tv_sec = ms / 1000;
	d.tv_nsec = (ms % 1000) * 1000000L;
	for (int i = 0; i < n; i++) {
		t = now_ns();
		/* The child shares our memory: only raw system calls in it. */
		if (vfork() == 0) {
			static struct rusage ru;
			static long before;

			before = syscall(SYS_getrusage, RUSAGE_SELF, &ru) ? -1 : ru.ru_nvcsw;
			do
				syscall(SYS_nanosleep, &d, NULL);
			while (before >= 0 && !syscall(SYS_getrusage, RUSAGE_SELF, &ru) &&
			       ru.ru_nvcsw == before);
			_exit(0);
		}
		each[i] = now_ns() - t;
		total += each[i];
	}
	qsort(each, n, sizeof(*each), cmp_ull);
	printf("ts_dstate: waits=%d ms=%d d_ns=%llu pid=%d\n", n, ms, total, (int)getpid());
	/* the median as task-state's p50 takes it: the value of rank ceil(n/2) */
	printf("ts_dstate: d_p50_ns=%llu d_max_ns=%llu\n", each[(n - 1) / 2], each[n - 1]);
	/* the next rank: task-state's p50 if it saw one more (longer) D, e.g. at exec */
	printf("ts_dstate: d_p50next_ns=%llu\n", each[n / 2 < n - 1 ? n / 2 : n - 1]);
	free(each);
	return 0;
}
