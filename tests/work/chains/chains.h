/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CHAINS_H
#define CHAINS_H

#include <sys/syscall.h>

typedef void (*chains_step)(unsigned int path, int level);

/* 8 steps in the executable, 8 in libchains.so: a path walks both */
#define CHAINS_STEPS 16

/* The table the library's steps dispatch through (it lives in the executable). */
void chains_lib_init(const chains_step *steps);
void lib_step0(unsigned int path, int level);
void lib_step1(unsigned int path, int level);
void lib_step2(unsigned int path, int level);
void lib_step3(unsigned int path, int level);
void lib_step4(unsigned int path, int level);
void lib_step5(unsigned int path, int level);
void lib_step6(unsigned int path, int level);
void lib_step7(unsigned int path, int level);

/*
 * Path P is 20 + P % 21 steps deep (20-40); the step at each level is a hash of
 * (P, level), so every path is a distinct chain through both objects.
 */
static inline int chains_depth(unsigned int path)
{
	return 20 + (int)(path % 21);
}

static inline unsigned int chains_pick(unsigned int path, int level)
{
	unsigned int h = path * 2654435761u ^ (unsigned int)level * 40503u;

	h ^= h >> 13;
	h *= 0x5bd1e995u;
	h ^= h >> 15;
	return h % CHAINS_STEPS;
}

/*
 * The leaf: a sleeping syscall issued right here (not through libc, which has
 * no frame pointers and would hide this frame), so the task switches out with
 * a kernel stack under the user one.  The syscall varies with the path so the
 * kernel side has more than one shape too.
 */
static inline void chains_leaf(unsigned int path)
{
	static const long nr[3] = { SYS_nanosleep, SYS_clock_nanosleep, SYS_select };
	struct {
		long sec, nsec;
	} ts = { 0, 1000 };
	struct {
		long sec, usec;
	} tv = { 0, 1 };
	long n = nr[path % 3], ret;
	long a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0;

	if (n == SYS_nanosleep) {
		a1 = (long)&ts;
	} else if (n == SYS_clock_nanosleep) {
		a1 = 1; /* CLOCK_MONOTONIC */
		a3 = (long)&ts;
	} else {
		a5 = (long)&tv;
	}
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(n), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	(void)ret;
}

/* Every step: the leaf at the path's depth, else the next step; never a tail call. */
#define CHAINS_STEP_BODY(tab, path, level)                                  \
	do {                                                                \
		if ((level) >= chains_depth(path))                          \
			chains_leaf(path);                                  \
		else                                                        \
			(tab)[chains_pick(path, level)](path, (level) + 1); \
		__asm__ volatile("" ::: "memory");                          \
	} while (0)

#endif
