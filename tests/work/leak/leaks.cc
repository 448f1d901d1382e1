// SPDX-License-Identifier: GPL-2.0
/*
 * leaks [-f FIFO] [-s SEC] [-n N]: kmemleak's ground truth.  Leaks, from known call
 * chains (main -> leak_X): 10 x 4096 bytes from leak_a (malloc), 5 x 100
 * from leak_b (calloc), one block grown by realloc to 777 bytes from
 * leak_c, one C++ new of 1234 bytes from leak_d.  Besides: N (100,000)
 * malloc/free pairs, a huge malloc that fails, a posix_memalign and an
 * aligned_alloc that are freed, a new/delete pair, and 1,000 blocks
 * allocated by one thread and freed by another.  Nothing else is leaked.
 * -f: prints "pid=PID" and waits for a line on FIFO (a monitor attaches);
 * -s: sleeps SEC seconds before exiting (the leaks stay live meanwhile).
 * Prints "elapsed_ns=NS" (the work, timed) and "done" at the end.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static void *volatile keep[32];
static void *volatile sink;

extern "C" {
NOINLINE void leak_a(int i)
{
	keep[i] = malloc(4096);
}

NOINLINE void leak_b(int i)
{
	keep[10 + i] = calloc(1, 100);
}

NOINLINE void leak_c(void)
{
	void *p = malloc(100);

	p = realloc(p, 400);
	keep[15] = realloc(p, 777);
}

NOINLINE void leak_d(void)
{
	keep[16] = new char[1234];
}

static long nchurn = 100000;

NOINLINE void churn(void)
{
	for (long i = 0; i < nchurn; i++) {
		void *p = malloc(64 + i % 512);

		sink = p;
		free(p);
	}
}

NOINLINE void no_leaks(void)
{
	void *p = NULL;

	sink = malloc(SIZE_MAX / 2); /* fails: NULL, not a leak */
	if (!posix_memalign(&p, 64, 300))
		free(p);
	p = aligned_alloc(64, 640);
	free(p);
	char *c = new char[50];

	sink = c;
	delete[] c;
}
}

#define XFER 1000
static void *blocks[XFER];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static int made;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 0; i < XFER; i++) {
		void *p = malloc(32);

		pthread_mutex_lock(&lock);
		blocks[made++] = p;
		pthread_cond_signal(&ready);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (int i = 0; i < XFER; i++) {
		pthread_mutex_lock(&lock);
		while (made <= i)
			pthread_cond_wait(&ready, &lock);
		void *p = blocks[i];
		pthread_mutex_unlock(&lock);
		free(p);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *fifo = NULL;
	int opt, sec = 0;
	pthread_t t1, t2;

	while ((opt = getopt(argc, argv, "f:s:n:")) != -1) {
		if (opt == 'f')
			fifo = optarg;
		else if (opt == 'n')
			nchurn = atol(optarg);
		else if (opt == 's')
			sec = atoi(optarg);
		else
			return 2;
	}
	if (fifo) {
		char line[16];
		FILE *f;

		printf("pid=%d\n", getpid());
		fflush(stdout);
		f = fopen(fifo, "r");
		if (!f || !fgets(line, sizeof(line), f))
			return 1;
		fclose(f);
	}
	struct timespec ts0, ts1;

	clock_gettime(CLOCK_MONOTONIC, &ts0);
	for (int i = 0; i < 10; i++)
		leak_a(i);
	for (int i = 0; i < 5; i++)
		leak_b(i);
	leak_c();
	leak_d();
	churn();
	no_leaks();
	pthread_create(&t1, NULL, producer, NULL);
	pthread_create(&t2, NULL, consumer, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts1);
	printf("elapsed_ns=%lld\ndone\n",
	       (ts1.tv_sec - ts0.tv_sec) * 1000000000LL + (ts1.tv_nsec - ts0.tv_nsec));
	fflush(stdout);
	if (sec)
		sleep(sec);
	return 0;
}
