// SPDX-License-Identifier: GPL-2.0
/*
 * fork_getppid NPARENT NCHILD [--wait]: forks one child that calls
 * getppid() NCHILD times at once and exits, while the parent calls it
 * NPARENT times, then reaps the child and prints "done PARENT CHILD".
 * With --wait it prints "ready PID" and waits for a line on stdin first
 * (so a monitor can attach with -p or -t).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long np = argc > 1 ? atol(argv[1]) : 100;
	long nc = argc > 2 ? atol(argv[2]) : 100;
	char line[16];
	pid_t child;
	int st;

	if (argc > 3 && !strcmp(argv[3], "--wait")) {
		printf("ready %d\n", getpid());
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			return 1;
	}
	fflush(stdout);
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		for (long i = 0; i < nc; i++)
			syscall(SYS_getppid);
		_exit(0);
	}
	for (long i = 0; i < np; i++)
		syscall(SYS_getppid);
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st))
		return 1;
	printf("done %d %d\n", getpid(), child);
	return 0;
}
