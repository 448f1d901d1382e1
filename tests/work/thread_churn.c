// SPDX-License-Identifier: GPL-2.0
/*
 * thread_churn N SECS: N short-lived threads, one after another, spread
 * over SECS seconds; each names itself "churn-<i>", sleeps 1 ms (so that
 * it switches out once) and exits.  Prints the number of threads created.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void *worker(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "churn-%ld", (long)arg);
	pthread_setname_np(pthread_self(), name);
	usleep(1000);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	double secs = argc > 2 ? atof(argv[2]) : 10;
	long gap_us = n > 0 ? (long)(secs * 1e6 / n) : 0;
	long made = 0;

	for (long i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, worker, (void *)i))
			continue;
		pthread_join(t, NULL);
		made++;
		if (gap_us > 1000)
			usleep(gap_us - 1000);
	}
	printf("%ld\n", made);
	return 0;
}
