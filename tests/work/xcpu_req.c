// SPDX-License-Identifier: GPL-2.0
/*
 * xcpu_req FIFO N: requests that start on CPU 0 and end on CPU 1.  Prints
 * "pid=PID fd=FD" and waits for a line on FIFO; then, for i = 1..N, a
 * thread pinned to CPU 0 writes i bytes to a pipe (the start:
 * sys_enter_write with fd == FD and count == i), a thread pinned to CPU 1
 * reads them and calls lseek(devnull, i, SEEK_SET) (the end:
 * sys_enter_lseek with offset == i), then acknowledges; the next request
 * starts after the acknowledgement.  Prints "done N".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int req[2], ack[2], devnull;
static long n;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		exit(1);
}

static void *server(void *arg)
{
	static char buf[4096];

	(void)arg;
	pin(1);
	for (long i = 1; i <= n; i++) {
		ssize_t got = 0, r;

		while (got < i && (r = read(req[0], buf, (size_t)(i - got))) > 0)
			got += r;
		lseek(devnull, got, SEEK_SET);
		if (write(ack[1], "a", 1) != 1)
			exit(1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static char buf[4096];
	char line[16];
	pthread_t t;
	FILE *go;

	if (argc < 3 || (n = atol(argv[2])) < 1 || n > (long)sizeof(buf)) {
		fprintf(stderr, "usage: xcpu_req FIFO N (<= 4096)\n");
		return 2;
	}
	devnull = open("/dev/null", O_RDONLY);
	if (devnull < 0 || pipe(req) || pipe(ack))
		return 1;
	printf("pid=%d fd=%d\n", getpid(), req[1]);
	fflush(stdout);
	go = fopen(argv[1], "r");
	if (!go || !fgets(line, sizeof(line), go))
		return 1;
	fclose(go);
	pin(0);
	if (pthread_create(&t, NULL, server, NULL))
		return 1;
	for (long i = 1; i <= n; i++) {
		if (write(req[1], buf, (size_t)i) != i || read(ack[0], line, 1) != 1)
			return 1;
	}
	pthread_join(t, NULL);
	printf("done %ld\n", n);
	return 0;
}
