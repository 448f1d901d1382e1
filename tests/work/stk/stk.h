/* SPDX-License-Identifier: GPL-2.0 */
/* Stack-test workloads: the functions of libstk.so (see stk.c). */
#ifndef STK_H
#define STK_H

/* Keep every function a real, separately named frame: no inlining, no
 * cloning (stk_a.isra.0), no tail calls (built with
 * -fno-optimize-sibling-calls as well). */
#if defined(__GNUC__) && !defined(__clang__)
#define STK_FN __attribute__((noipa, used))
#else
#define STK_FN __attribute__((noinline, used))
#endif

int lib_b(int x);
int lib_c(int x);

#endif
