// SPDX-License-Identifier: GPL-2.0
/*
 * touch N: page-faults' ground truth.  Maps N fresh anonymous pages,
 * prints "buf=0xADDR len=BYTES", writes one byte in each page (one fault
 * each) and prints "done".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, page = sysconf(_SC_PAGESIZE);
	volatile char *buf;

	if (n <= 0)
		return 2;
	buf = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	printf("buf=%p len=%ld\n", (void *)buf, n * page);
	fflush(stdout);
	for (long i = 0; i < n; i++)
		buf[i * page] = 1;
	printf("done\n");
	return 0;
}
