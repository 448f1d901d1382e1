// SPDX-License-Identifier: GPL-2.0
/*
 * wake_names N: wakeups on CPU 0 by a task whose FORK and COMM happen on
 * CPU 1 (t_compat_comm's -C 0 case), and the stopper migration/0 at work.
 * N times: the main thread ("wake_names") moves to CPU 1 (from CPU 0:
 * migration/0 moves it) and forks there a child that names itself
 * "short_waker" on CPU 1; the main thread goes back to CPU 0 and blocks in
 * read on a pipe; the child moves to CPU 0, writes a byte (waking the main
 * thread on its own CPU) and exits at once.  Prints "pid=PID" first and
 * "done N" at the end.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;
	int fd[2];
	char c;

	printf("pid=%d\n", getpid());
	fflush(stdout);
	if (pipe(fd) || pin(0))
		return 1;
	for (long i = 0; i < n; i++) {
		pid_t child;

		if (pin(1))
			return 1;
		child = fork();
		if (child < 0)
			return 1;
		if (!child) {
			prctl(PR_SET_NAME, "short_waker");
			usleep(5000); /* the parent is back on CPU 0, in read, meanwhile */
			if (pin(0) || write(fd[1], "x", 1) != 1)
				_exit(1);
			_exit(0);
		}
		if (pin(0) || read(fd[0], &c, 1) != 1 || waitpid(child, NULL, 0) != child)
			return 1;
	}
	printf("done %ld\n", n);
	return 0;
}
