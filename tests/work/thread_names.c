// SPDX-License-Identifier: GPL-2.0
/*
 * thread_names N [--migrate] [--wait]: starts N threads at once; thread i names itself
 * "tn-%03d" (pthread_setname_np, a PERF_RECORD_COMM) and then calls
 * getppid() once (raw syscall), so every getppid event must carry the name
 * its own thread set just before.  The main thread is named "tn-main".
 * With --migrate (2 CPUs or more) each thread names itself on CPU 1 and
 * calls getppid() on CPU 0: the COMM record and the sample land in two
 * different ring buffers, and only time order tells which came first.
 * With --wait it says "ready PID" and waits for a line on stdin first.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_barrier_t start;
static int migrate;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *worker(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "tn-%03ld", (long)arg);
	pthread_barrier_wait(&start);
	if (migrate)
		pin(1);
	pthread_setname_np(pthread_self(), name);
	if (migrate)
		pin(0);
	syscall(SYS_getppid);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	pthread_t *t = calloc(n > 0 ? n : 1, sizeof(*t));
	char line[16];

	if (!t || n < 1)
		return 1;
	pthread_setname_np(pthread_self(), "tn-main");
	for (int i = 2; i < argc; i++)
		migrate |= !strcmp(argv[i], "--migrate");
	if (argc > 2 && !strcmp(argv[argc - 1], "--wait")) {
		printf("ready %d\n", getpid());
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			return 1;
	}
	pthread_barrier_init(&start, NULL, (unsigned)n + 1);
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 1;
	pthread_barrier_wait(&start);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("done %ld\n", n);
	return 0;
}
