// SPDX-License-Identifier: GPL-2.0
/*
 * libstk.so / libstk_nofp.so: the shared-library half of the call chain of
 * stk_fp / stk_nofp (see stk.c): lib_b -> lib_c -> getppid().
 */
#include <unistd.h>

#include "stk.h"

volatile int stk_lib_sink;

STK_FN int lib_c(int x)
{
	int r = getppid();

	return r + x + stk_lib_sink;
}

STK_FN int lib_b(int x)
{
	int r = lib_c(x + 1);

	return r + stk_lib_sink;
}
