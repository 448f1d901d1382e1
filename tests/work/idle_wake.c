// SPDX-License-Identifier: GPL-2.0
/*
 * idle_wake N MS: slow wakeups for joint analysis's ground truth.  The
 * main thread ("waker") and a SCHED_IDLE thread ("idler") are pinned to
 * CPU 0.  N times: the waker wakes the idler (a byte down a pipe), then
 * burns MS ms of wall time before it blocks on the idler's answer; an idle
 * thread does not preempt a normal one, so each wakeup waits for the CPU
 * while the waker runs.  Prints "done N".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static int to_idler[2], to_waker[2];
static volatile unsigned long sink;

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void pin0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *idler(void *arg)
{
	struct sched_param sp = { 0 };
	char c;

	(void)arg;
	prctl(PR_SET_NAME, "idler");
	pin0();
	sched_setscheduler(0, SCHED_IDLE, &sp);
	while (read(to_idler[0], &c, 1) == 1)
		if (write(to_waker[1], &c, 1) != 1)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10, ms = argc > 2 ? atol(argv[2]) : 5;
	pthread_t t;
	char c = 'x';

	if (pipe(to_idler) || pipe(to_waker))
		return 1;
	prctl(PR_SET_NAME, "waker");
	pin0();
	if (pthread_create(&t, NULL, idler, NULL))
		return 1;
	usleep(20000); /* the idler is waiting in read */
	for (long i = 0; i < n; i++) {
		long long end;

		if (write(to_idler[1], &c, 1) != 1)
			return 1;
		end = now_ns() + ms * 1000000LL;
		while (now_ns() < end)
			sink++;
		if (read(to_waker[0], &c, 1) != 1)
			return 1;
	}
	close(to_idler[1]);
	pthread_join(t, NULL);
	printf("done %ld\n", n);
	return 0;
}
