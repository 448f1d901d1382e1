// SPDX-License-Identifier: GPL-2.0
/*
 * probe_many N: five USDT probes of provider ppmany fired N times each, in
 * note order one, two, a name longer than tracefs takes (64 characters),
 * four, five: "usdt add" of the whole file fails at the third and must undo
 * the first two.  Prints "done N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1;

	for (long i = 0; i < n; i++) {
		DTRACE_PROBE1(ppmany, one, i);
		DTRACE_PROBE1(ppmany, two, i);
		DTRACE_PROBE1(ppmany,
			      a_probe_name_much_longer_than_the_sixty_four_characters_tracefs_takes,
			      i);
		DTRACE_PROBE1(ppmany, four, i);
		DTRACE_PROBE1(ppmany, five, i);
	}
	printf("done %ld\n", n);
	return 0;
}
