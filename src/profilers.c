// SPDX-License-Identifier: GPL-2.0
/* The profiler table: one line per profiler. */
#include "profiler.h"

extern const struct profiler prof_trace, prof_task_state, prof_num_dist, prof_top, prof_expr,
	prof_multi_trace, prof_mpdelay, prof_syscalls, prof_kvm_exit, prof_rundelay, prof_blktrace,
	prof_nested_trace, prof_kmemleak, prof_kmemprof, prof_profile, prof_signal,
	prof_page_faults;

const struct profiler *const profilers[] = {
	&prof_trace,	   &prof_task_state,   &prof_num_dist, &prof_top,      &prof_expr,
	&prof_multi_trace, &prof_mpdelay,      &prof_syscalls, &prof_kvm_exit, &prof_rundelay,
	&prof_blktrace,	   &prof_nested_trace, &prof_kmemleak, &prof_kmemprof, &prof_profile, &prof_signal, &prof_page_faults,
};
const int nr_profilers = sizeof(profilers) / sizeof(profilers[0]);
