// SPDX-License-Identifier: GPL-2.0
/*
 * cpu_hop [-f FIFO] N: sched-migrate's ground truth.  A thread pins itself
 * to CPU 0 (as "hop_prep"; its start, as "cpu_hop", and that pinning may
 * move it, or not), renames itself "cpu_hop_t", then moves itself N times
 * with sched_setaffinity:
 * to CPU 1, back to CPU 0, and so on.  Each call leaves the thread running
 * on the one CPU it allows and returns only once it runs there, so the
 * kernel migrates it exactly N times under that name: ceil(N/2) times
 * 0 -> 1 and floor(N/2) times 1 -> 0, and never otherwise (a thread allowed
 * one CPU is not balanced).  Prints "pid=PID", "tid=TID", and at the end
 * "hops=N" (the hops that landed on the CPU asked for) and "done".
 * -f: after "tid=TID", waits for a line on FIFO before hopping.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static long n;
static const char *fifo;
static long landed;

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *hop(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "hop_prep");
	if (pin(0)) {
		perror("sched_setaffinity");
		exit(1);
	}
	prctl(PR_SET_NAME, "cpu_hop_t");
	printf("tid=%ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	if (fifo) {
		char line[64];
		FILE *f = fopen(fifo, "r");

		if (!f || !fgets(line, sizeof(line), f)) {
			perror(fifo);
			exit(1);
		}
		fclose(f);
		/* the open and the read may have slept: still on CPU 0 only */
	}
	for (long i = 1; i <= n; i++) {
		int to = (int)(i & 1);

		if (pin(to)) {
			perror("sched_setaffinity");
			exit(1);
		}
		if (sched_getcpu() == to)
			landed++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;
	int opt;

	while ((opt = getopt(argc, argv, "f:")) != -1) {
		if (opt != 'f') {
			fprintf(stderr, "usage: cpu_hop [-f FIFO] N\n");
			return 2;
		}
		fifo = optarg;
	}
	if (optind >= argc || (n = atol(argv[optind])) <= 0) {
		fprintf(stderr, "usage: cpu_hop [-f FIFO] N\n");
		return 2;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "cpu_hop: needs 2 CPUs\n");
		return 1;
	}
	printf("pid=%d\n", getpid());
	fflush(stdout);
	if (pthread_create(&th, NULL, hop, NULL)) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}
	pthread_join(th, NULL);
	printf("hops=%ld\ndone\n", landed);
	return 0;
}
