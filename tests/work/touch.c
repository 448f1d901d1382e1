// SPDX-License-Identifier: GPL-2.0
/*
 * touch N [M]: page-faults' and stat's ground truth.  Maps N fresh
 * anonymous pages (no huge pages: one fault per page), prints
 * "buf=0xADDR len=BYTES", writes one byte in each page (one fault each),
 * then sleeps M times 1 ms (one voluntary context switch each: a sleep whose
 * timer fired while the CPU was taken before it blocked is made again) and
 * prints "done" and "csw=V+I": the voluntary and involuntary context
 * switches the kernel counted for it (/proc/self/status) from main() on.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static void switches(long *v, long *iv)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	*v = *iv = 0;
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "voluntary_ctxt_switches: %ld", v);
		sscanf(line, "nonvoluntary_ctxt_switches: %ld", iv);
	}
	if (f)
		fclose(f);
}

/* the voluntary context switches of this thread so far */
static long voluntary(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

int main(int argc, char **argv)
{
	long v0, iv0, v1, iv1;

	switches(&v0, &iv0);
	long n = argc > 1 ? atol(argv[1]) : 0, page = sysconf(_SC_PAGESIZE);
	long m = argc > 2 ? atol(argv[2]) : 0;
	struct timespec ms = { 0, 1000000 };
	volatile char *buf;

	if (n <= 0)
		return 2;
	buf = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	madvise((void *)buf, n * page, MADV_NOHUGEPAGE);
	printf("buf=%p len=%ld\n", (void *)buf, n * page);
	fflush(stdout);
	for (long i = 0; i < n; i++)
		buf[i * page] = 1;
	for (long i = 0; i < m; i++) {
		long v = voluntary();

		do
			nanosleep(&ms, NULL);
		while (v >= 0 && voluntary() == v);
	}
	switches(&v1, &iv1);
	printf("done\ncsw=%ld+%ld\n", v1 - v0, iv1 - iv0);
	return 0;
}
