// SPDX-License-Identifier: GPL-2.0
/* The reason of a task migration from the mover's kernel functions. */
#include <string.h>

#include "analysis/cpu/migreason.h"

static const char *const names[MR_NR] = { "hotplug",  "numa",	 "rt-push", "balance",
					  "affinity", "stopper", "wakeup",  "other" };

static const struct {
	const char *fn;
	enum mig_reason r;
} fns[] = {
	{ "__balance_push_cpu_stop", MR_HOTPLUG },
	{ "balance_push", MR_HOTPLUG },
	{ "migrate_tasks", MR_HOTPLUG },
	{ "migrate_swap_stop", MR_NUMA },
	{ "__migrate_swap_task", MR_NUMA },
	{ "task_numa_migrate", MR_NUMA },
	{ "migrate_task_to", MR_NUMA },
	{ "push_rt_task", MR_RT_PUSH },
	{ "pull_rt_task", MR_RT_PUSH },
	{ "push_dl_task", MR_RT_PUSH },
	{ "pull_dl_task", MR_RT_PUSH },
	{ "push_cpu_stop", MR_RT_PUSH },
	{ "sched_balance_rq", MR_BALANCE },
	{ "load_balance", MR_BALANCE },
	{ "active_load_balance_cpu_stop", MR_BALANCE },
	{ "sched_balance_newidle", MR_BALANCE },
	{ "newidle_balance", MR_BALANCE },
	{ "sched_balance_softirq", MR_BALANCE },
	{ "run_rebalance_domains", MR_BALANCE },
	{ "affine_move_task", MR_AFFINITY },
	{ "__set_cpus_allowed_ptr", MR_AFFINITY },
	{ "__sched_setaffinity", MR_AFFINITY },
	{ "migrate_enable", MR_AFFINITY },
	{ "migration_cpu_stop", MR_STOPPER },
	{ "try_to_wake_up", MR_WAKEUP },
	{ "select_task_rq", MR_WAKEUP },
};

const char *mig_reason__name(enum mig_reason r)
{
	return r >= 0 && r < MR_NR ? names[r] : names[MR_OTHER];
}

/* The reason of one function name (MR_OTHER: none), its suffix after '.' left out. */
static enum mig_reason of_sym(const char *sym)
{
	size_t len = strcspn(sym, ".");

	for (size_t j = 0; j < sizeof(fns) / sizeof(fns[0]); j++)
		if (strlen(fns[j].fn) == len && !strncmp(sym, fns[j].fn, len))
			return fns[j].r;
	return MR_OTHER;
}

enum mig_reason mig_reason__of_syms(const char *const *syms, int n)
{
	enum mig_reason best = MR_OTHER, r;

	for (int i = 0; i < n; i++)
		if (syms[i] && (r = of_sym(syms[i])) < best)
			best = r;
	return best;
}

enum mig_reason mig_reason__of_frames(const struct frame *fr, int n)
{
	enum mig_reason best = MR_OTHER, r;

	for (int i = 0; i < n; i++)
		if (fr[i].kernel && (r = of_sym(fr[i].sym)) < best)
			best = r;
	return best;
}
