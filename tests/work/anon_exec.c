// SPDX-License-Identifier: GPL-2.0
/*
 * anon_exec N: sleeps N times 10 ms from code copied into three mappings
 * that are not ELF files: anonymous memory (//anon in MMAP2 records), a
 * memfd ("/memfd:anon_exec (deleted)") and a shared mapping of /dev/zero
 * ("/dev/zero (deleted)"), as JIT compilers do.  Each stub is
 * "mov $35, %eax; syscall; ret": nanosleep(rdi, rsi).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const unsigned char stub[] = { 0xb8, 0x23, 0, 0, 0, 0x0f, 0x05, 0xc3 };

typedef long (*sleep_fn)(const struct timespec *, struct timespec *);

static sleep_fn place(int fd, int flags)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, flags, fd, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, stub, sizeof(stub));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		return NULL;
	return (sleep_fn)p;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5;
	struct timespec ts = { 0, 10000000 };
	int mfd = memfd_create("anon_exec", 0), zfd = open("/dev/zero", O_RDWR);
	sleep_fn fns[3];

	if (mfd < 0 || zfd < 0 || ftruncate(mfd, 4096))
		return 1;
	fns[0] = place(-1, MAP_PRIVATE | MAP_ANONYMOUS);
	fns[1] = place(mfd, MAP_SHARED);
	fns[2] = place(zfd, MAP_SHARED);
	for (int i = 0; i < 3; i++)
		if (!fns[i])
			return 1;
	for (long i = 0; i < n; i++)
		for (int j = 0; j < 3; j++)
			fns[j](&ts, NULL);
	printf("done %ld\n", n);
	return 0;
}
