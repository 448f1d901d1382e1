// SPDX-License-Identifier: GPL-2.0
/*
 * mt_exit N [DELAY_MS] [--wait]: the main thread starts a worker and leaves
 * with pthread_exit(); the worker calls getppid() N times, 20 ms apart, after
 * DELAY_MS.  The process lives on with a zombie main thread.  With --wait
 * the main thread first prints "ready PID" and waits for a line on stdin.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long n = 20;

static void *worker(void *arg)
{
	(void)arg;
	for (long i = 0; i < n; i++) {
		syscall(SYS_getppid);
		usleep(20000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char line[16];

	n = argc > 1 ? atol(argv[1]) : 20;
	if (argc > 3 && !strcmp(argv[3], "--wait")) {
		printf("ready %d\n", getpid());
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			return 1;
	}
	usleep((argc > 2 ? atol(argv[2]) : 0) * 1000);
	pthread_create(&t, NULL, worker, NULL);
	pthread_exit(NULL);
}
