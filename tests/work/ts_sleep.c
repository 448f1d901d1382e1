// SPDX-License-Identifier: GPL-2.0
/*
 * task-state ground truth: sleep N times for MS milliseconds and print the
 * wall time the sleeps took, measured here, in ns.
 * usage: ts_sleep [N [MS]]   (default 200 x 5 ms)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200;
	int ms = argc > 2 ? atoi(argv[2]) : 5;
	struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
	unsigned long long total = 0, t;

	for (int i = 0; i < n; i++) {
		t = now_ns();
		nanosleep(&d, NULL);
		total += now_ns() - t;
	}
	printf("ts_sleep: sleeps=%d ms=%d slept_ns=%llu pid=%d\n", n, ms, total, (int)getpid());
	return 0;
}
