// SPDX-License-Identifier: GPL-2.0
/*
 * comm_esc [N]: a comm with every kind of byte JSON must escape.  Names
 * itself (prctl(PR_SET_NAME): task:task_rename) with the 14 bytes
 *   a " b \ c LF d TAB e ESC 0xff z é
 * ('"', '\', a newline, a tab, an escape, a byte that is not UTF-8 and a
 * valid two-byte character), then calls getppid() N times (default 5; raw
 * syscall) and sends itself one SIGUSR1 (handled).  Prints "done N".
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got = 1;
}

int main(int argc, char **argv)
{
	static const char name[] = "a\"b\\c\nd\te\x1b\xff"
				   "z\xc3\xa9";
	long n = argc > 1 ? atol(argv[1]) : 5;

	signal(SIGUSR1, on_usr1);
	if (prctl(PR_SET_NAME, name, 0, 0, 0)) {
		perror("prctl");
		return 1;
	}
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	kill(getpid(), SIGUSR1);
	while (!got)
		;
	printf("done %ld\n", n);
	return 0;
}
