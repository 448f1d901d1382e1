// SPDX-License-Identifier: GPL-2.0
/*
 * A known leak for gperftools' heap checker with perf-prof as PPROF_PATH:
 * main -> leak_outer -> leak_inner -> malloc(4096) x 10, never freed
 * (40960 bytes in 10 objects, one stack).  keep_outer's block stays
 * reachable from a global and freed_block's is freed: neither is a leak.
 */
#include <stdlib.h>
#include <string.h>

#define LEAK_SIZE 4096
#define LEAK_COUNT 10

void *kept;

__attribute__((noinline)) void leak_inner(void)
{
	/* volatile: the last pointer must not linger in a register */
	void *volatile p;

	p = malloc(LEAK_SIZE);
	memset(p, 1, LEAK_SIZE);
	p = NULL;
}

__attribute__((noinline)) void leak_outer(void)
{
	int i;

	for (i = 0; i < LEAK_COUNT; i++)
		leak_inner();
}

__attribute__((noinline)) void keep_outer(void)
{
	kept = malloc(1000);
	memset(kept, 2, 1000);
}

__attribute__((noinline)) void freed_block(void)
{
	void *volatile p = malloc(2000);

	memset(p, 3, 2000);
	free(p);
}

int main(void)
{
	leak_outer();
	keep_outer();
	freed_block();
	return 0;
}
