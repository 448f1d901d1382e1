// SPDX-License-Identifier: GPL-2.0
/*
 * stk_exit [N]: call getppid() N times (default 1) through
 *
 *	main -> exit_a -> exit_b (libstk_exit.so) -> getppid (libc)
 *
 * and exit at once, so that its samples are printed after the process
 * (and its maps) are gone: its stacks must still resolve.  -O0 with frame
 * pointers; libstk_exit.so found through rpath $ORIGIN.
 *   DWARF:          getppid, exit_b, exit_a, main
 *   frame pointers: getppid, exit_a, main  (see stk.c)
 */
#include <stdlib.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__)
#define STK_FN __attribute__((noipa))
#else
#define STK_FN __attribute__((noinline))
#endif

#ifdef STK_EXIT_LIB
volatile int exit_lib_sink;

STK_FN int exit_b(int x)
{
	int r = getppid();

	return r + x + exit_lib_sink;
}
#else
int exit_b(int x);

volatile int exit_sink;

STK_FN int exit_a(int x)
{
	int r = exit_b(x + 1);

	return r + exit_sink;
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 1;

	for (i = 0; i < n; i++)
		exit_sink += exit_a(i);
	_exit(0);
}
#endif
