// SPDX-License-Identifier: GPL-2.0
/*
 * lseek_loop N: calls lseek(12345, 67890, SEEK_END) N times on a descriptor
 * that is not open, so every syscall tracepoint payload is known in advance
 * (fd 0x3039, offset 0x10932, whence 2, return -EBADF).  Prints "done N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;

	for (long i = 0; i < n; i++)
		syscall(SYS_lseek, 12345, 67890L, SEEK_END);
	printf("done %ld\n", n);
	return 0;
}
