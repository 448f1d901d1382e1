// SPDX-License-Identifier: GPL-2.0
/*
 * sigsend: signal's ground truth.  Forks child A (comm "sig_a") and child
 * B (comm "sig_b"), sends 10 SIGUSR1 to A and 5 SIGTERM to B, one at a
 * time (each child acknowledges each signal through a pipe, so none is
 * already pending when the next comes), then the children exit (their
 * SIGCHLDs come to the parent).  Prints "a=PID b=PID" and "done".
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int ack[2];
static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	char c = 1;

	(void)sig;
	got++;
	if (write(ack[1], &c, 1) != 1)
		_exit(3);
}

static pid_t child(const char *name, int sig, int n, int ready_fd)
{
	pid_t pid = fork();
	struct sigaction sa = { .sa_handler = on_sig };
	char c = 0;

	if (pid)
		return pid;
	prctl(PR_SET_NAME, name);
	sigaction(sig, &sa, NULL);
	if (write(ready_fd, &c, 1) != 1)
		_exit(3);
	while (got < n)
		pause();
	_exit(0);
}

static void send_n(pid_t pid, int sig, int n)
{
	char c;

	for (int i = 0; i < n; i++) {
		kill(pid, sig);
		if (read(ack[0], &c, 1) != 1)
			exit(1);
	}
}

int main(void)
{
	int ready[2];
	pid_t a, b;
	char c;

	if (pipe(ack) || pipe(ready))
		return 1;
	a = child("sig_a", SIGUSR1, 10, ready[1]);
	b = child("sig_b", SIGTERM, 5, ready[1]);
	if (read(ready[0], &c, 1) != 1 || read(ready[0], &c, 1) != 1)
		return 1;
	printf("a=%d b=%d\n", a, b);
	fflush(stdout);
	send_n(a, SIGUSR1, 10);
	send_n(b, SIGTERM, 5);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	printf("done\n");
	return 0;
}
