// SPDX-License-Identifier: GPL-2.0
/*
 * write_n FIFO [N]: opens /dev/null, prints "pid=PID fd=FD", waits for a
 * line on FIFO (so a monitor can be started with a filter on both), then
 * calls write(fd, buf, n) for n = 1..N (100) and prints "done N".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[4096];
	long n = argc > 2 ? atol(argv[2]) : 100;
	char line[16];
	FILE *go;
	int fd;

	if (argc < 2 || n < 1 || n > (long)sizeof(buf)) {
		fprintf(stderr, "usage: write_n FIFO [N <= %zu]\n", sizeof(buf));
		return 2;
	}
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return 1;
	printf("pid=%d fd=%d\n", getpid(), fd);
	fflush(stdout);
	go = fopen(argv[1], "r");
	if (!go || !fgets(line, sizeof(line), go))
		return 1;
	fclose(go);
	for (long i = 1; i <= n; i++)
		if (write(fd, buf, i) != i)
			return 1;
	printf("done %ld\n", n);
	return 0;
}
