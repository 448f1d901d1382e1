// SPDX-License-Identifier: GPL-2.0
/*
 * spin [-c CPU] SECONDS: profile's ground truth.  The main thread (comm
 * "spinner") burns CPU for SECONDS, three quarters of it in spin_a and one
 * quarter in spin_b (alternating slices of 3 ms and 1 ms of its own CPU time);
 * a second thread (comm "sleeper") sleeps in 10 ms naps meanwhile.  -c:
 * the spinner is pinned to CPU.  At the end, the spinner's own CPU time in
 * each second of CLOCK_MONOTONIC (the clock perf-prof's samples and --than's
 * seconds are on) that it ran in: "sec S ms=MS" (to within its 3 ms slice
 * at each edge, where the clock is read), then "offset=NS", CLOCK_REALTIME -
 * CLOCK_MONOTONIC (to turn printed wall times into those seconds), and
 * "done".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_SECS 64

static volatile int stop;
static volatile unsigned long sink;

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/*
 * The thread's own CPU time: a slice is 3 ms (or 1 ms) of CPU whatever
 * preempts the spinner on a busy host, so the 75/25 split holds under load
 * (by the wall clock, time spent preempted went to whichever slice it hit).
 */
static long long cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

__attribute__((noinline)) void spin_for(long long ns)
{
	long long end = cpu_ns() + ns;

	/* ~20 us of work per clock read: the read is a system call (1-2% kernel time) */
	while (cpu_ns() < end)
		for (int i = 0; i < 20000; i++)
			sink += (unsigned long)i * 7;
}

__attribute__((noinline)) void spin_a(void)
{
	spin_for(3000000);
}

__attribute__((noinline)) void spin_b(void)
{
	spin_for(1000000);
}

static void *sleeper(void *arg)
{
	struct timespec nap = { 0, 10000000 };

	(void)arg;
	prctl(PR_SET_NAME, "sleeper");
	while (!stop)
		nanosleep(&nap, NULL);
	return NULL;
}

/* CLOCK_REALTIME - CLOCK_MONOTONIC: the tightest of a few bracketing reads */
static long long wall_offset(void)
{
	long long best = 0, best_gap = -1;

	for (int i = 0; i < 5; i++) {
		struct timespec r1, r2;
		long long m, gap;

		clock_gettime(CLOCK_REALTIME, &r1);
		m = now_ns();
		clock_gettime(CLOCK_REALTIME, &r2);
		gap = (r2.tv_sec - r1.tv_sec) * 1000000000LL + (r2.tv_nsec - r1.tv_nsec);
		if (best_gap < 0 || gap < best_gap) {
			best_gap = gap;
			best = r1.tv_sec * 1000000000LL + r1.tv_nsec + gap / 2 - m;
		}
	}
	return best;
}

int main(int argc, char **argv)
{
	int opt, cpu = -1, n = 0;
	long long end, now, sec, mark[MAX_SECS + 1];
	pthread_t t;

	while ((opt = getopt(argc, argv, "c:")) != -1) {
		if (opt != 'c')
			return 2;
		cpu = atoi(optarg);
	}
	if (optind >= argc)
		return 2;
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	prctl(PR_SET_NAME, "spinner");
	pthread_create(&t, NULL, sleeper, NULL);
	now = now_ns();
	end = now + (long long)(atof(argv[optind]) * 1e9);
	/* mark[i]: the spinner's CPU time when it first saw second sec + i */
	sec = now / 1000000000LL;
	mark[n++] = cpu_ns();
	while (now < end) {
		spin_a();
		spin_b();
		now = now_ns();
		while (n < MAX_SECS && now / 1000000000LL >= sec + n)
			mark[n++] = cpu_ns();
	}
	mark[n] = cpu_ns();
	stop = 1;
	pthread_join(t, NULL);
	for (int i = 0; i < n; i++)
		printf("sec %lld ms=%.3f\n", sec + i, (mark[i + 1] - mark[i]) / 1e6);
	printf("offset=%lld\n", wall_offset());
	printf("done\n");
	return 0;
}
