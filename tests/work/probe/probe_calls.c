// SPDX-License-Identifier: GPL-2.0
/*
 * probe_calls [-f FIFO] N: the dynamic probes' ground truth.  Calls
 * pp_add(i, 1000 + i) for i = 0..N-1 (it returns a + b), pp_greet() with
 * "hello-0", "hello-1", "hello-2" in turn, and fires the USDT probes
 * ppwork:tick(i, 2 * i) and, while a tracer holds its semaphore,
 * ppwork:sematick(i), and ppwork:twice(i, SITE) from two places (two notes
 * of one probe: SITE 1 for even i, 2 for odd i).  At the end it prints
 * "sum=S sema=K done N" (K: the sematick probes that fired because the
 * semaphore was set).  -f: prints
 * "pid=PID" and waits for a line on FIFO (a monitor attaches with -p).
 * Built twice: -O2 (USDT operands in registers) and -O0 (on the stack);
 * sematick is in probe_sema.c, built with semaphores (tick has none).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <unistd.h>

#include "probe_sema.h"

__attribute__((noinline)) long pp_add(int a, long b)
{
	__asm__ volatile("" ::: "memory");
	return a + b;
}

__attribute__((noinline)) int pp_greet(const char *who)
{
	__asm__ volatile("" ::: "memory");
	return who[0];
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "hello-0", "hello-1", "hello-2" };
	const char *fifo = NULL;
	long n, sum = 0, sema = 0;
	int opt;

	while ((opt = getopt(argc, argv, "f:")) != -1) {
		if (opt != 'f')
			return 2;
		fifo = optarg;
	}
	if (optind >= argc)
		return 2;
	n = atol(argv[optind]);
	if (fifo) {
		char line[16];
		FILE *f;

		printf("pid=%d\n", getpid());
		fflush(stdout);
		f = fopen(fifo, "r");
		if (!f || !fgets(line, sizeof(line), f))
			return 1;
		fclose(f);
	}
	for (long i = 0; i < n; i++) {
		sum += pp_add((int)i, 1000 + i);
		sum += pp_greet(names[i % 3]);
		DTRACE_PROBE2(ppwork, tick, i, 2 * i);
		sema += pp_sematick(i);
		if (i & 1)
			DTRACE_PROBE2(ppwork, twice, i, 2);
		else
			DTRACE_PROBE2(ppwork, twice, i, 1);
	}
	printf("sum=%ld sema=%ld done %ld\n", sum, sema, n);
	return 0;
}
