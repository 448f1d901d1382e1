// SPDX-License-Identifier: GPL-2.0
/*
 * spin [-c CPU] SECONDS: profile's ground truth.  The main thread (comm
 * "spinner") burns CPU for SECONDS, three quarters of it in spin_a and one
 * quarter in spin_b (alternating slices of 3 ms and 1 ms of its own CPU time);
 * a second thread (comm "sleeper") sleeps in 10 ms naps meanwhile.  -c:
 * the spinner is pinned to CPU.  Prints "done" at the end.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	int opt, cpu = -1;
	long long end;
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
	end = now_ns() + (long long)(atof(argv[optind]) * 1e9);
	while (now_ns() < end) {
		spin_a();
		spin_b();
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("done\n");
	return 0;
}
