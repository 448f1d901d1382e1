// SPDX-License-Identifier: GPL-2.0
/* The profiler table: one line per profiler, in the order -h lists them. */
#include <string.h>

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
	X(prof_kvmmmu)		\
	X(prof_rundelay)	\
	X(prof_blktrace)	\
	X(prof_nested_trace)	\
	X(prof_kmemleak)	\
	X(prof_kmemprof)	\
	X(prof_profile)		\
	X(prof_signal)		\
	X(prof_sched_migrate)	\
	X(prof_page_faults)	\
	X(prof_stat)		\
	X(prof_percpu_stat)	\
	X(prof_hwstat)		\
	X(prof_split_lock)	\
	X(prof_llcstat)		\
	X(prof_tlbstat)		\
	X(prof_ldlat_loads)	\
	X(prof_ldlat_stores)	\
	X(prof_irq_off)		\
	X(prof_watchdog)	\
	X(prof_breakpoint)	\
	X(prof_oncpu)		\
	X(prof_cpu_util)	\
	X(prof_hrcount)		\
	X(prof_hrtimer)		\
	X(prof_event_care)	\
	X(prof_event_lost)	\
	X(prof_sql)		\
	X(prof_misc)		\
	X(prof_python)		\
	/* end */
/* clang-format on */

#define DECLARE(p) extern const struct profiler p;
PROFILERS(DECLARE)
#define ENTRY(p) &p,
const struct profiler *const profilers[] = { PROFILERS(ENTRY) };
const int nr_profilers = sizeof(profilers) / sizeof(profilers[0]);

const struct profiler *profiler__find(const char *name)
{
	for (int i = 0; i < nr_profilers; i++) {
		if (!strcmp(profilers[i]->name, name))
			return profilers[i];
		for (int j = 0; profilers[i]->aliases && profilers[i]->aliases[j]; j++)
			if (!strcmp(profilers[i]->aliases[j], name))
				return profilers[i];
	}
	return NULL;
}
