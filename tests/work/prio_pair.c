// SPDX-License-Identifier: GPL-2.0
/*
 * prio_pair SECONDS: --prio's ground truth.  Two threads for SECONDS, each
 * 10 ms naps followed by 5 ms of its own CPU time (a third of a CPU, so a
 * real-time one cannot starve a shared host): "rt_burst", SCHED_FIFO
 * priority 50 (the kernel's prio 49) on CPU 0, and "nrm_burst", SCHED_OTHER
 * nice 0 (prio 120) on CPU 1 (CPU 0 on a single-CPU host).  The main thread
 * ("prio_pair") waits.  Prints "rt tid=TID naps=N", "nrm tid=TID naps=N"
 * and "done" at the end, or "nort: REASON" when SCHED_FIFO is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double secs;

struct burst {
	const char *name;
	int cpu, fifo;
	long tid, naps;
	int err;
};

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static double wall_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void *run(void *arg)
{
	struct burst *b = arg;
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	volatile unsigned long sink = 0;
	cpu_set_t set;
	double end;

	b->tid = syscall(SYS_gettid);
	/* real-time before its name (the real-time thread is born so; this is a check) */
	if (b->fifo && sched_getscheduler(0) != SCHED_FIFO) {
		struct sched_param sp = { .sched_priority = b->fifo };

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			b->err = errno;
			return NULL;
		}
	}
	prctl(PR_SET_NAME, b->name, 0, 0, 0);
	CPU_ZERO(&set);
	CPU_SET(b->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	end = wall_now() + secs;
	while (wall_now() < end) {
		double until;

		nanosleep(&nap, NULL);
		b->naps++;
		until = cpu_now() + 0.005;
		while (cpu_now() < until)
			sink++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct burst rt = { "rt_burst", 0, 50, 0, 0, 0 }, nrm = { "nrm_burst", 1, 0, 0, 0, 0 };
	pthread_t a, b;

	if (argc != 2)
		return 2;
	secs = atof(argv[1]);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		nrm.cpu = 0;
	prctl(PR_SET_NAME, "prio_pair", 0, 0, 0);
	{
		/*
		 * Born real-time: the parent is SCHED_FIFO while it creates the
		 * thread, which inherits the policy in clone.  (Explicit thread
		 * attributes would not do: glibc starts the thread at the
		 * parent's policy and sets the new one after.)  The parent then
		 * goes back to SCHED_OTHER for the other thread.
		 */
		struct sched_param sp = { .sched_priority = rt.fifo }, other = { 0 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			printf("nort: %s\n", strerror(errno));
			return 1;
		}
		rt.err = pthread_create(&a, NULL, run, &rt);
		if (sched_setscheduler(0, SCHED_OTHER, &other) || rt.err) {
			printf("nort: %s\n", strerror(rt.err ? rt.err : errno));
			return 1;
		}
	}
	pthread_create(&b, NULL, run, &nrm);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (rt.err) {
		printf("nort: %s\n", strerror(rt.err));
		return 1;
	}
	printf("rt tid=%ld naps=%ld\nnrm tid=%ld naps=%ld\ndone\n", rt.tid, rt.naps, nrm.tid,
	       nrm.naps);
	return 0;
}
