// SPDX-License-Identifier: GPL-2.0
/*
 * burst [-f FIFO] [-c CPU] [-m] [-s] [-l MS] BURSTS SIZE GAP_MS: hrcount's and hrtimer's
 * ground truth.  Pinned to CPU (-c), it makes BURSTS bursts, GAP_MS apart
 * (the first GAP_MS after the start), each of SIZE getppid() calls in a
 * tight loop (raw syscalls: libc caches nothing), and no getppid() at all
 * otherwise.  Between bursts it spins on the vDSO clock (no system call),
 * so the CPU never idles and a timer on it fires every period, without
 * any other task coming on the CPU (which would add context switches);
 * with -s it sleeps instead (the CPU idles between bursts).  Prints
 * "pid=PID", then one "burst I at_ns=T cpu_ns=C end_ns=E" line per burst
 * (when it began: CLOCK_MONOTONIC, and the thread's CPU time, which tell
 * whether a task that hogged the CPU brought two bursts together; when it
 * ended: CLOCK_MONOTONIC) and "done BURSTS
 * SIZE cpu_ns=C".
 * -f: after "pid=PID", waits for a line on FIFO before starting.
 * -m: moves between CPU 0 and CPU 1 (pinned to each in turn) halfway to
 * every burst: a thread that migrates, each burst on the other CPU.
 * -l MS: after the bursts (and "done"), sleeps MS and makes one last
 * getppid() call, and prints "last call": a tracer's ring, drained
 * meanwhile, takes its sample, whose counter value (PERF_SAMPLE_READ)
 * counts every call before it (event-lost's ground truth).
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

static long long clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
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

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

/* Wait until @t, spinning or sleeping; moving to the other CPU halfway (-m). */
static void wait_until(long long t, long long gap, bool sleeps, bool moves, int *cpu)
{
	long long half = t - gap / 2;

	if (moves) {
		if (sleeps)
			sleep_until(half);
		else
			spin_until(half);
		*cpu = !*cpu;
		pin(*cpu);
	}
	if (sleeps)
		sleep_until(t);
	else
		spin_until(t);
}

static void burst(long size)
{
	for (long i = 0; i < size; i++)
		syscall(SYS_getppid);
}

int main(int argc, char **argv)
{
	const char *fifo = NULL;
	int cpu = -1, opt, last_ms = -1;
	bool sleeps = false, moves = false;
	long bursts, size, gap;
	long long t, at, cpu_ns;
	char line[16];

	while ((opt = getopt(argc, argv, "f:c:msl:")) != -1) {
		if (opt == 'f')
			fifo = optarg;
		else if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 's')
			sleeps = true;
		else if (opt == 'm')
			moves = true;
		else if (opt == 'l')
			last_ms = atoi(optarg);
		else
			return 2;
	}
	if (argc - optind != 3) {
		fprintf(stderr, "usage: burst [-f FIFO] [-c CPU] [-m] [-s] BURSTS SIZE GAP_MS\n");
		return 2;
	}
	bursts = atol(argv[optind]);
	size = atol(argv[optind + 1]);
	gap = atol(argv[optind + 2]) * 1000000L;
	if (moves && cpu < 0)
		cpu = 0;
	if (cpu >= 0)
		pin(cpu);
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
		wait_until(t, gap, sleeps, moves, &cpu);
		at = now_ns();
		cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		burst(size);
		printf("burst %ld at_ns=%lld cpu_ns=%lld end_ns=%lld\n", i, at, cpu_ns, now_ns());
		fflush(stdout);
	}
	t += gap / 2; /* the last burst's period ends before the exit */
	wait_until(t, 0, sleeps, false, &cpu);
	printf("done %ld %ld cpu_ns=%lld\n", bursts, size, clock_ns(CLOCK_THREAD_CPUTIME_ID));
	if (last_ms >= 0) {
		fflush(stdout);
		sleep_until(now_ns() + last_ms * 1000000LL);
		syscall(SYS_getppid);
		printf("last call\n");
	}
	return 0;
}
