// SPDX-License-Identifier: GPL-2.0
/*
 * eventfds [-f FIFO] N HOLD_MS CLOSE: kmemleak's kernel ground truth.  Creates N
 * eventfds (each a kmalloc made in eventfd2; closing frees it with kfree,
 * where a timerfd's kfree_rcu frees with no tracepoint), closes them
 * at once if CLOSE is 1, then sleeps HOLD_MS ms (the monitor stops in the
 * meantime) and exits.  Prints "created N" after creating them.  -f:
 * prints "pid=PID" first and waits for a line on FIFO (a monitor attaches).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n, hold, do_close, fds[4096];
	struct timespec ts;

	if (argc > 2 && !strcmp(argv[1], "-f")) {
		char line[16];
		FILE *f;

		printf("pid=%d\n", getpid());
		fflush(stdout);
		f = fopen(argv[2], "r");
		if (!f || !fgets(line, sizeof(line), f))
			return 1;
		fclose(f);
		argv += 2;
		argc -= 2;
	}
	if (argc < 4)
		return 2;
	n = atoi(argv[1]);
	hold = atoi(argv[2]);
	do_close = atoi(argv[3]);
	if (n < 0 || n > 4096)
		return 2;
	for (int i = 0; i < n; i++) {
		fds[i] = eventfd(0, 0);
		if (fds[i] < 0) {
			perror("eventfd");
			return 1;
		}
	}
	printf("created %d\n", n);
	fflush(stdout);
	for (int i = 0; do_close && i < n; i++)
		close(fds[i]);
	ts.tv_sec = hold / 1000;
	ts.tv_nsec = (long)(hold % 1000) * 1000000L;
	nanosleep(&ts, NULL);
	return 0;
}
