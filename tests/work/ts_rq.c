// SPDX-License-Identifier: GPL-2.0
/*
 * task-state ground truth for run-queue delay: two threads pinned to one
 * CPU spin for SECS seconds of wall time.  Each is runnable all the time,
 * so the time it waits preempted (state R) is its wall time minus its CPU
 * time; both are printed, in ns.
 * usage: ts_rq [SECS [CPU]]   (default 1 s on CPU 0)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static double secs = 1;
static int cpu;
static pthread_barrier_t start;

static unsigned long long clk(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void *spin(void *arg)
{
	const char *name = arg;
	unsigned long long t0, c0, end, wall, cpu_ns;

	prctl(PR_SET_NAME, name);
	pthread_barrier_wait(&start);
	t0 = clk(CLOCK_MONOTONIC);
	c0 = clk(CLOCK_THREAD_CPUTIME_ID);
	end = t0 + (unsigned long long)(secs * 1e9);
	while (clk(CLOCK_MONOTONIC) < end)
		;
	wall = clk(CLOCK_MONOTONIC) - t0;
	cpu_ns = clk(CLOCK_THREAD_CPUTIME_ID) - c0;
	printf("ts_rq: thread=%s tid=%d wall_ns=%llu cpu_ns=%llu wait_ns=%llu\n", name,
	       (int)gettid(), wall, cpu_ns, wall - cpu_ns);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	cpu_set_t set;

	if (argc > 1)
		secs = atof(argv[1]);
	if (argc > 2)
		cpu = atoi(argv[2]);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* Threads inherit the affinity. */
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	pthread_barrier_init(&start, NULL, 2);
	pthread_create(&a, NULL, spin, "ts_rq_a");
	pthread_create(&b, NULL, spin, "ts_rq_b");
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
