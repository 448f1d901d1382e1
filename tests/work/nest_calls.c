// SPDX-License-Identifier: GPL-2.0
/*
 * nest_calls N: nested calls with known durations, the ground truth of
 * nested-trace on uprobes.  N times nc_outer(), which sleeps 1ms and calls
 * nc_inner() twice; nc_inner() sleeps 2ms.  So nc_outer: N calls of at
 * least 5ms, nc_inner: 2N calls of at least 2ms, always inside nc_outer,
 * all on one thread.  Prints "done N" at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

__attribute__((noinline)) void nc_inner(void)
{
	sleep_ms(2);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void nc_outer(void)
{
	sleep_ms(1);
	nc_inner();
	nc_inner();
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;

	for (long i = 0; i < n; i++)
		nc_outer();
	printf("done %ld\n", n);
	return 0;
}
