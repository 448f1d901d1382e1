// SPDX-License-Identifier: GPL-2.0
/*
 * burst [-f FIFO] [-c CPU] [-s] BURSTS SIZE GAP_MS: hrcount's and hrtimer's
 * ground truth.  Pinned to CPU (-c), it makes BURSTS bursts, GAP_MS apart
 * (the first GAP_MS after the start), each of SIZE getppid() calls in a
 * tight loop (raw syscalls: libc caches nothing), and no getppid() at all
 * otherwise.  Between bursts it spins on the vDSO clock (no system call),
 * so the CPU never idles and a timer on it fires every period, without
 * any other task coming on the CPU (which would add context switches);
 * with -s it sleeps instead (the CPU idles between bursts).  Prints
 * "pid=PID", then one "burst I" line per burst and "done BURSTS SIZE".
 * -f: after "pid=PID", waits for a line on FIFO before starting.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Burn the CPU in user mode until @t. */
static void spin_until(long long t)
{
	while (now_ns() < t)
		;
}

static void sleep_until(long long t)
{
	struct timespec ts = { .tv_sec = t / 1000000000LL, .tv_nsec = t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

static void burst(long size)
{
	for (long i = 0; i < size; i++)
		syscall(SYS_getppid);
}

int main(int argc, char **argv)
{
	const char *fifo = NULL;
	int cpu = -1, opt;
	bool sleeps = false;
	long bursts, size, gap;
	long long t;
	char line[16];

	while ((opt = getopt(argc, argv, "f:c:s")) != -1) {
		if (opt == 'f')
			fifo = optarg;
		else if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 's')
			sleeps = true;
		else
			return 2;
	}
	if (argc - optind != 3) {
		fprintf(stderr, "usage: burst [-f FIFO] [-c CPU] [-s] BURSTS SIZE GAP_MS\n");
		return 2;
	}
	bursts = atol(argv[optind]);
	size = atol(argv[optind + 1]);
	gap = atol(argv[optind + 2]) * 1000000L;
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sched_setaffinity");
			return 1;
		}
	}
	printf("pid=%d\n", getpid());
	fflush(stdout);
	if (fifo) {
		FILE *f = fopen(fifo, "r");

		if (!f || !fgets(line, sizeof(line), f))
			return 1;
		fclose(f);
	}
	t = now_ns();
	for (long i = 0; i < bursts; i++) {
		t += gap;
		if (sleeps)
			sleep_until(t);
		else
			spin_until(t);
		burst(size);
		printf("burst %ld\n", i);
		fflush(stdout);
	}
	t += gap / 2; /* the last burst's period ends before the exit */
	if (sleeps)
		sleep_until(t);
	else
		spin_until(t);
	printf("done %ld %ld\n", bursts, size);
	return 0;
}
