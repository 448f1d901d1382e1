// SPDX-License-Identifier: GPL-2.0
/* The profiler table: one line per profiler, in the order -h lists them. */
#include "profiler.h"

/* clang-format off */
#define PROFILERS(X)		\
	X(prof_trace)		\
	X(prof_task_state)	\
	X(prof_num_dist)	\
	X(prof_top)		\
	X(prof_expr)		\
	X(prof_multi_trace)	\
	X(prof_mpdelay)		\
	X(prof_syscalls)	\
	X(prof_kvm_exit)	\
	X(prof_rundelay)	\
	X(prof_blktrace)	\
	X(prof_nested_trace)	\
	X(prof_kmemleak)	\
	X(prof_kmemprof)	\
	X(prof_profile)		\
	X(prof_signal)		\
	X(prof_page_faults)	\
	/* end */
/* clang-format on */

#define DECLARE(p) extern const struct profiler p;
PROFILERS(DECLARE)
#define ENTRY(p) &p,
const struct profiler *const profilers[] = { PROFILERS(ENTRY) };
const int nr_profilers = sizeof(profilers) / sizeof(profilers[0]);
