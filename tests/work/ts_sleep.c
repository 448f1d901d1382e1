// SPDX-License-Identifier: GPL-2.0
/*
 * task-state ground truth: sleep N times for MS milliseconds and print the
 * wall time the sleeps took, measured here, in ns.
 * usage: ts_sleep [N [MS [DELAY_MS [SIDE]]]]   (default 200 x 5 ms)
 * DELAY_MS: one sleep first, so that a monitor can attach with -p/-t (the
 * sleep it attached in is not counted: its switch-out was not seen).
 * SIDE: a second thread sleeps SIDE x MS ms meanwhile, for -t.  Both
 * threads' ids are printed on a first line before the delay.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static struct timespec d;
static atomic_int side_done, side_tid;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static unsigned long long sleeps(int n)
{
	unsigned long long total = 0, t;

	for (int i = 0; i < n; i++) {
		t = now_ns();
		nanosleep(&d, NULL);
		total += now_ns() - t;
	}
	return total;
}

static void delay(int ms)
{
	struct timespec dl = { ms / 1000, (ms % 1000) * 1000000L };

	if (ms > 0)
		nanosleep(&dl, NULL);
}

struct side {
	int n, delay_ms;
	unsigned long long slept;
};

static void *side_thread(void *arg)
{
	struct side *sd = arg;

	atomic_store(&side_tid, (int)gettid());
	delay(sd->delay_ms);
	sd->slept = sleeps(sd->n);
	atomic_store(&side_done, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200;
	int ms = argc > 2 ? atoi(argv[2]) : 5;
	int delay_ms = argc > 3 ? atoi(argv[3]) : 0;
	struct side sd = { .n = argc > 4 ? atoi(argv[4]) : 0, .delay_ms = delay_ms };
	unsigned long long total;
	pthread_t th;

	d.tv_sec = ms / 1000;
	d.tv_nsec = (ms % 1000) * 1000000L;
	if (sd.n > 0) {
		if (pthread_create(&th, NULL, side_thread, &sd))
			return 1;
		while (!atomic_load(&side_tid))
			sched_yield();
		printf("ts_sleep: start pid=%d tid_main=%d tid_side=%d\n", (int)getpid(),
		       (int)gettid(), atomic_load(&side_tid));
	} else if (delay_ms > 0) {
		printf("ts_sleep: start pid=%d tid_main=%d\n", (int)getpid(), (int)gettid());
	}
	fflush(stdout);
	delay(delay_ms);
	total = sleeps(n);
	/*
	 * No pthread_join: it may block (an extra S sleep).  Yielding is R,
	 * which -S does not count.
	 */
	while (sd.n > 0 && !atomic_load(&side_done))
		sched_yield();
	printf("ts_sleep: sleeps=%d ms=%d slept_ns=%llu pid=%d\n", n, ms, total, (int)getpid());
	if (sd.n > 0)
		printf("ts_sleep: side sleeps=%d slept_ns=%llu\n", sd.n, sd.slept);
	return 0;
}
