// SPDX-License-Identifier: GPL-2.0
/*
 * lat_sleep [-f FIFO] [-c CPU] N MS [NFAIL [SLOW SLOW_MS]]: the latency
 * profilers' ground truth.  Makes N clock_nanosleep calls of MS ms (the
 * first SLOW of them SLOW_MS ms instead), then NFAIL openat calls of a
 * missing path (each fails with ENOENT).  Each sleep is timed around the
 * call (CLOCK_MONOTONIC); at the end it prints "mean_ns=M slow=K
 * fails=F done N".  -f: prints "pid=PID" first and waits for a line on
 * FIFO (a monitor attaches with -p); -c: pinned to CPU; -o MS: before the
 * last line, "over=K": the sleeps that took MS ms or more as timed here (a
 * busy host can stretch a short one: what a latency threshold must see).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *fifo = NULL;
	long n, ms, nfail = 0, slow = 0, slow_ms = 0, fails = 0;
	long long sum = 0, over_ns = 0;
	long over = 0;
	int opt, cpu = -1;

	while ((opt = getopt(argc, argv, "f:c:o:")) != -1) {
		if (opt == 'f')
			fifo = optarg;
		else if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 'o')
			over_ns = atoll(optarg) * 1000000LL;
		else
			return 2;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: lat_sleep [-f FIFO] [-c CPU] [-o MS] N MS [NFAIL [SLOW "
				"SLOW_MS]]\n");
		return 2;
	}
	n = atol(argv[optind]);
	ms = atol(argv[optind + 1]);
	if (argc - optind > 2)
		nfail = atol(argv[optind + 2]);
	if (argc - optind > 4) {
		slow = atol(argv[optind + 3]);
		slow_ms = atol(argv[optind + 4]);
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return 1;
	}
	if (fifo) {
		char line[16];
		FILE *go;

		printf("pid=%d\n", getpid());
		fflush(stdout);
		go = fopen(fifo, "r");
		if (!go || !fgets(line, sizeof(line), go))
			return 1;
		fclose(go);
	}
	for (long i = 0; i < n; i++) {
		long t = i < slow ? slow_ms : ms;
		struct timespec ts = { t / 1000, (t % 1000) * 1000000 };
		long long t0 = now_ns();

		long long d;

		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		d = now_ns() - t0;
		sum += d;
		if (over_ns && d >= over_ns)
			over++;
	}
	for (long i = 0; i < nfail; i++)
		if (open("/nonexistent-perf-prof-test/x", O_RDONLY) < 0)
			fails++;
	if (over_ns)
		printf("over=%ld\n", over);
	printf("mean_ns=%lld slow=%ld fails=%ld done %ld\n", n ? sum / n : 0, slow, fails, n);
	fflush(stdout);
	return 0;
}
