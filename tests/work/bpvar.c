// SPDX-License-Identifier: GPL-2.0
/*
 * bpvar [-f FIFO] [N]: breakpoint's ground truth.  Prints "pid=PID
 * bp_var=0xADDR bp_func=0xADDR getppid_at=0xADDR opterr=0xADDR" (the run-time
 * addresses of the variable, the function, a function of libc, and a
 * variable of libc this program copies into its own data), waits for a
 * line on FIFO if given, then calls bp_func() and libc's getppid() N times
 * each (100), writes bp_var exactly 100 times (bp_bump), and prints "done
 * bp_var=100".  Nothing else touches bp_var.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bp_var;
int bp_calls;

__attribute__((noinline)) void bp_func(void)
{
	/* not a pure function: every call must run */
	__asm__ volatile("" ::: "memory");
	bp_calls++;
}

__attribute__((noinline)) int bp_step(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

/* not a leaf: its frame is set up (the call) before the write, so stacks show main */
__attribute__((noinline)) void bp_bump(volatile int *v)
{
	*v = bp_step(*v);
}

int main(int argc, char **argv)
{
	const char *fifo = NULL;
	long n = 100;
	char line[16];

	if (argc > 2 && !strcmp(argv[1], "-f")) {
		fifo = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc > 1)
		n = atol(argv[1]);
	/* a PIE takes a libc function's address from its GOT: libc's own */
	printf("pid=%d bp_var=%p bp_func=%p getppid_at=%p opterr=%p\n", getpid(), (void *)&bp_var,
	       (void *)bp_func, (void *)getppid, (void *)&opterr);
	fflush(stdout);
	if (fifo) {
		FILE *go = fopen(fifo, "r");

		if (!go || !fgets(line, sizeof(line), go))
			return 1;
		fclose(go);
	}
	for (long i = 0; i < n; i++) {
		bp_func();
		getppid();
	}
	for (int i = 0; i < 100; i++)
		bp_bump(&bp_var);
	printf("done bp_var=%d\n", bp_var);
	return 0;
}
