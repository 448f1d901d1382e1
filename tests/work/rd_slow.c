// SPDX-License-Identifier: GPL-2.0
/*
 * rd_slow [-f FIFO] CPU N BLOCK_MS: rundelay --than's ground truth.  Two
 * threads pinned to CPU: "rd_hog", SCHED_FIFO priority 50 (the kernel's
 * prio 49), and "rd_sleeper", SCHED_OTHER nice 0 (prio 120).  N rounds of
 * each kind, one round every BLOCK_MS + 10 ms on a common clock (t0):
 *   wakeup   the sleeper sleeps until t0 + 1 ms, while the hog, woken at
 *            t0, spins until t0 + BLOCK_MS: the sleeper's wakeup waits
 *            about BLOCK_MS - 1 ms for the CPU (sched_wakeup, then the
 *            hog's switch-out asleep);
 *   preempt  the sleeper spins from before t0 until it has run past t0 +
 *            2 ms, the hog wakes at t0 and takes the CPU from it until
 *            t0 + BLOCK_MS: the sleeper waits about BLOCK_MS preempted
 *            (sched_switch with prev_state R+, then the hog's switch-out).
 * The hog runs BLOCK_MS of every BLOCK_MS + 10 ms (a real-time thread that
 * cannot starve the host).  Prints "hog tid=TID", "sleeper tid=TID" and
 * "done" at the end, or "nort: REASON" when SCHED_FIFO is refused.  -f:
 * prints "pid=PID" first and waits for a line on FIFO (a monitor attaches
 * with -p).
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

#define MS 1000000LL

static int cpu, rounds;
static long long block, base;

static long long now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void sleep_until(long long t)
{
	struct timespec ts = { .tv_sec = t / 1000000000LL, .tv_nsec = t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void spin_until(long long t)
{
	while (now() < t)
		;
}

/* round @i's t0 */
static long long t0(int i)
{
	return base + i * (block + 10 * MS);
}

static int pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *hog(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "rd_hog");
	printf("hog tid=%ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	for (int i = 0; i < 2 * rounds; i++) {
		sleep_until(t0(i));
		spin_until(t0(i) + block);
	}
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "rd_sleeper");
	printf("sleeper tid=%ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	for (int i = 0; i < rounds; i++) /* wakeups */
		sleep_until(t0(i) + MS);
	for (int i = rounds; i < 2 * rounds; i++) { /* preempted */
		sleep_until(t0(i) - 2 * MS);
		spin_until(t0(i) + 2 * MS);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 50 };
	const char *fifo = NULL;
	pthread_attr_t rt;
	pthread_t h, s;
	int opt, err;

	while ((opt = getopt(argc, argv, "f:")) != -1) {
		if (opt != 'f')
			return 2;
		fifo = optarg;
	}
	if (argc - optind != 3) {
		fprintf(stderr, "usage: rd_slow [-f FIFO] CPU N BLOCK_MS\n");
		return 2;
	}
	cpu = atoi(argv[optind]);
	rounds = atoi(argv[optind + 1]);
	block = atoll(argv[optind + 2]) * MS;
	if (pin()) {
		perror("sched_setaffinity");
		return 1;
	}
	if (fifo) {
		char line[16];
		FILE *f;

		printf("pid=%d\n", getpid());
		fflush(stdout);
		f = fopen(fifo, "r");
		if (!f || !fgets(line, sizeof(line), f)) {
			perror(fifo);
			return 1;
		}
		fclose(f);
	}
	pthread_attr_init(&rt);
	pthread_attr_setinheritsched(&rt, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&rt, SCHED_FIFO);
	pthread_attr_setschedparam(&rt, &sp);
	base = now() + 50 * MS;
	err = pthread_create(&h, &rt, hog, NULL);
	if (err) {
		printf("nort: %s\n", strerror(err));
		return 0;
	}
	if ((err = pthread_create(&s, NULL, sleeper, NULL))) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		return 1;
	}
	pthread_join(h, NULL);
	pthread_join(s, NULL);
	printf("done\n");
	return 0;
}
