// SPDX-License-Identifier: GPL-2.0
/*
 * stk_stripped / stk_dbgframe [N]: call getppid() N times (default 1) through
 *
 *	main -> strip_a -> strip_b -> getppid (libc)
 *
 * Both are stripped (no .symtab) with a separate debug file beside them
 * (NAME.debug, found through .gnu_debuglink), so their own names can only
 * come from the debug file.
 *   stk_stripped: -O0 -fno-omit-frame-pointer, normal .eh_frame.
 *     DWARF:          getppid, strip_b, strip_a, main
 *     frame pointers: getppid, strip_a, main  (see stk.c)
 *   stk_dbgframe: -O2 -fomit-frame-pointer -fno-asynchronous-unwind-tables:
 *     no .eh_frame for these functions and no frame pointers; the CFI is
 *     only in .debug_frame, which is only in stk_dbgframe.debug.
 *     DWARF:          getppid, strip_b, strip_a, main
 */
#include <stdlib.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__)
#define STK_FN __attribute__((noipa))
#else
#define STK_FN __attribute__((noinline))
#endif

volatile int strip_sink;

STK_FN int strip_b(int x)
{
	int r = getppid();

	return r + x + strip_sink;
}

STK_FN int strip_a(int x)
{
	int r = strip_b(x + 1);

	return r + strip_sink;
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 1;

	for (i = 0; i < n; i++)
		strip_sink += strip_a(i);
	return 0;
}
