// SPDX-License-Identifier: GPL-2.0
/*
 * many_stacks LEVELS MS [sleep]: 2^LEVELS calls, each from a call chain of
 * its own (LEVELS levels, each through walk_a or walk_b by a bit of the
 * call's number): getppid, or with "sleep" a nanosleep of 1 ns (a switch
 * out); then late_sleeper sleeps MS ms (nanosleep), its stack the last
 * and the only slow one (late_sleeper is in it).  More distinct stacks
 * than a stack map of bpf_get_stackid holds come first (tests of -g
 * --than).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static int levels, sleeping;
static volatile int sink;

static void walk(unsigned int i, int level);

static void walk_a(unsigned int i, int level)
{
	walk(i, level + 1);
	sink++; /* (no tail call: this frame stays on the stack) */
}

static void walk_b(unsigned int i, int level)
{
	walk(i, level + 1);
	sink++;
}

static void walk(unsigned int i, int level)
{
	struct timespec ts = { 0, 1 };

	if (level == levels) {
		if (sleeping)
			nanosleep(&ts, NULL);
		else
			syscall(SYS_getppid);
		return;
	}
	if (i >> level & 1)
		walk_b(i, level);
	else
		walk_a(i, level);
	sink++;
}

/* (libc's nanosleep keeps no frame pointer: its caller's frame is not seen, this one's is) */
static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
	sink++;
}

static void late_sleeper(long ms)
{
	sleep_ms(ms);
	sink++;
}

int main(int argc, char **argv)
{
	long ms = argc > 2 ? atol(argv[2]) : 30;

	levels = argc > 1 ? atoi(argv[1]) : 14;
	sleeping = argc > 3 && !strcmp(argv[3], "sleep");
	if (levels < 0 || levels > 24)
		return 2;
	for (unsigned int i = 0; i < 1u << levels; i++)
		walk(i, 0);
	late_sleeper(ms);
	printf("done %u\n", 1u << levels);
	return 0;
}
