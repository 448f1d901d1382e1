// SPDX-License-Identifier: GPL-2.0
/*
 * probe_names N: USDT probes of provider ppname whose tracefs events'
 * names meet (t_usdt.sh), each fired N times:
 * - foo(i) and foo_1(i): "usdt del ppname:foo@..." must leave foo_1's event;
 * - tick(i) from two sites of different operands (one s64; then s64 and
 *   the constant 1, s32): the kernel will not put both in one event, so
 *   usdt add makes its second site an event of its own, EVENT_N;
 * - tick_1(i, 2), operands of the same types as tick's second site: its
 *   event must stay its own, not merge with that EVENT_N.
 * Prints "done N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1;

	for (long i = 0; i < n; i++) {
		DTRACE_PROBE1(ppname, foo, i);
		DTRACE_PROBE1(ppname, foo_1, i);
		DTRACE_PROBE1(ppname, tick, i);
		DTRACE_PROBE2(ppname, tick, i, 1);
		DTRACE_PROBE2(ppname, tick_1, i, 2);
	}
	printf("done %ld\n", n);
	return 0;
}
