// SPDX-License-Identifier: GPL-2.0
/*
 * stk_fp / stk_nofp [N]: call getppid() N times (default 1) through
 *
 *	main -> stk_a -> lib_b (libstk.so) -> lib_c (libstk.so) -> getppid (libc)
 *
 * stk_fp is built -O0 -fno-omit-frame-pointer with libstk.so; stk_nofp is
 * built -O2 -fomit-frame-pointer with libstk_nofp.so; both -fno-inline and
 * without tail calls, both found through rpath $ORIGIN.
 *
 * Expected user stack at syscalls:sys_enter_getppid, innermost first:
 *   DWARF (either binary):  getppid, lib_c, lib_b, stk_a, main, then libc's
 *                           start code (__libc_start_call_main, ...).
 *   frame pointers, stk_fp: getppid, lib_b, stk_a, main - lib_c is missing:
 *                           libc's getppid sets up no frame, so the first
 *                           saved frame pointer is lib_c's own and the
 *                           chain continues at lib_c's return address.
 *   frame pointers, stk_nofp: getppid and then garbage or nothing.
 * Kernel frames above the user ones end in the syscall entry
 * (entry_SYSCALL_64 / do_syscall_64).
 */
#include <stdlib.h>

#include "stk.h"

volatile int stk_sink;

STK_FN int stk_a(int x)
{
	int r = lib_b(x + 1);

	return r + stk_sink;
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 1;

	for (i = 0; i < n; i++)
		stk_sink += stk_a(i);
	return 0;
}
