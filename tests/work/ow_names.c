// SPDX-License-Identifier: GPL-2.0
/*
 * ow_names N1 [N2 READY GO]: the flight recorder's ground truth.  N1 times:
 * names itself "owA%05d" (1, 2, ...) and sleeps 100 us, so that each
 * sched_switch away from it carries the count as prev_comm (a sleep whose
 * timer fired while the CPU was taken from it before it blocked switches
 * nothing: it sleeps again, until the kernel counts a voluntary switch
 * under that name).  With N2: then
 * creates the file READY, waits for a line on the FIFO GO, and does N2
 * more as "owB%05d".  Prints nothing.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

/* the voluntary context switches of this thread so far */
static long voluntary(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

static void phase(char p, long n)
{
	char name[16];

	for (long i = 1; i <= n; i++) {
		snprintf(name, sizeof(name), "ow%c%05ld", p, i % 100000);
		prctl(PR_SET_NAME, name, 0, 0, 0);
		long v = voluntary();

		do
			usleep(100);
		while (v >= 0 && voluntary() == v);
	}
}

int main(int argc, char **argv)
{
	char line[16];
	FILE *f;

	if (argc != 2 && argc != 5)
		return 2;
	phase('A', atol(argv[1]));
	if (argc == 2)
		return 0;
	f = fopen(argv[3], "w");
	if (!f)
		return 1;
	fclose(f);
	f = fopen(argv[4], "r");
	if (!f || !fgets(line, sizeof(line), f))
		return 1;
	fclose(f);
	phase('B', atol(argv[2]));
	return 0;
}
