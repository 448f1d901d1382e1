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
	X(prof_stat)		\
	X(prof_percpu_stat)	\
	X(prof_hwstat)		\
	X(prof_split_lock)	\
	X(prof_irq_off)		\
	X(prof_watchdog)	\
	X(prof_breakpoint)	\
	X(prof_oncpu)		\
	X(prof_cpu_util)	\
	X(prof_hrcount)		\
	X(prof_hrtimer)		\
	/* end */
/* clang-format on */

#define DECLARE(p) extern const struct profiler p;
PROFILERS(DECLARE)
#define ENTRY(p) &p,
const struct profiler *const profilers[] = { PROFILERS(ENTRY) };
const int nr_profilers = sizeof(profilers) / sizeof(profilers[0]);
