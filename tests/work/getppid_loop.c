// SPDX-License-Identifier: GPL-2.0
/*
 * getppid_loop N [DELAY_MS] [--wait]: calls getppid() N times (raw syscall,
 * so libc cannot cache it), optionally sleeping DELAY_MS first; with --wait
 * it waits for a line on stdin before starting (so a monitor can attach
 * with -p).  Prints "done N" at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long delay = argc > 2 ? atol(argv[2]) : 0;
	char line[16];

	if (argc > 3 && !strcmp(argv[3], "--wait")) {
		printf("ready %d\n", getpid());
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			return 1;
	}
	if (delay)
		usleep(delay * 1000);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	printf("done %ld\n", n);
	return 0;
}
