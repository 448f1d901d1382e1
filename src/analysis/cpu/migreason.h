/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why the scheduler moved a task to another CPU, told by the kernel
 * functions on the stack of the code that moved it (sched:sched_migrate_task
 * fires in set_task_cpu, in the mover's context): the first reason of this
 * order whose function is on the stack, the most specific first (a load
 * balancer's move happens in no wakeup; the stopper may place the task
 * through a wakeup).  The stopper thread's stack (migration_cpu_stop) never
 * shows who asked for the move: an affinity change of a running task,
 * migrate_enable, a NUMA move of one task (migrate_task_to: the profiler
 * may tell it by sched:sched_move_numa), exec balancing (sched_exec) all
 * give MR_STOPPER.  A new task's first CPU (wake_up_new_task) fires no
 * event (__set_task_cpu).  Names of several kernel versions
 * (load_balance became sched_balance_rq); a compiler's suffix
 * ("task_numa_migrate.isra.0") is left out.
 */
#ifndef PP_MIGREASON_H
#define PP_MIGREASON_H

#include "sym/stack.h"

enum mig_reason {
	MR_HOTPLUG,  /* a CPU going down pushes its tasks away */
	MR_NUMA,     /* NUMA balancing moves or swaps a task */
	MR_RT_PUSH,  /* real-time or deadline tasks pushed or pulled */
	MR_BALANCE,  /* the load balancer: periodic, new-idle, active */
	MR_AFFINITY, /* an affinity change moving a task that is not running */
	MR_STOPPER,  /* migration_cpu_stop: affinity, migrate_enable, NUMA, exec */
	MR_WAKEUP,   /* a woken task placed on another CPU */
	MR_OTHER,
	MR_NR,
};

/* "hotplug", "numa", "rt-push", "balance", "affinity", "stopper", "wakeup", "other". */
const char *mig_reason__name(enum mig_reason r);
/* The reason the function names @syms[0..@n) tell. */
enum mig_reason mig_reason__of_syms(const char *const *syms, int n);
/* The same of the kernel frames among @fr[0..@n) (stack__frames'). */
enum mig_reason mig_reason__of_frames(const struct frame *fr, int n);

#endif
