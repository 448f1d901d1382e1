// SPDX-License-Identifier: GPL-2.0
/*
 * exec_churn N SECS: N short-lived processes, one after another, spread
 * over SECS seconds: each is this program executed again (a new address
 * space, loaded at new random addresses), which burns about 2 ms of CPU in
 * churn_outer -> churn_mid -> churn_leaf and exits.  Every process has its
 * own pid and its own addresses for the same code: what a host that runs
 * short commands all day looks like to a profiler.  Prints the number of
 * processes that ran.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

__attribute__((noinline)) static void churn_leaf(long long until)
{
	while (now_ns() < until)
		for (int i = 0; i < 1000; i++)
			sink += i;
}

__attribute__((noinline)) static void churn_mid(long long until)
{
	churn_leaf(until);
	sink++;
}

__attribute__((noinline)) static void churn_outer(long long until)
{
	churn_mid(until);
	sink++;
}

int main(int argc, char **argv)
{
	long n, made = 0;
	double secs;
	long gap_us;

	if (argc == 2 && !strcmp(argv[1], "--child")) {
		churn_outer(now_ns() + 2000000);
		return 0;
	}
	n = argc > 1 ? atol(argv[1]) : 1000;
	secs = argc > 2 ? atof(argv[2]) : 10;
	gap_us = n > 0 ? (long)(secs * 1e6 / n) : 0;
	for (long i = 0; i < n; i++) {
		long long t0 = now_ns(), took;
		pid_t pid = fork();
		int st;

		if (pid < 0)
			continue;
		if (!pid) {
			execl("/proc/self/exe", argv[0], "--child", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st))
			made++;
		took = (now_ns() - t0) / 1000;
		if (gap_us > took)
			usleep(gap_us - took);
	}
	printf("%ld\n", made);
	return 0;
}
