// SPDX-License-Identifier: GPL-2.0
/*
 * The reason of a migration from the mover's kernel stack: the stacks this
 * kernel gives (the stopper moving a running task, its completion waking
 * it; a wakeup from a pipe write; the new-idle balancer; an affinity change
 * moving a queued task in the caller's context), names of other kernel
 * versions, a compiler's suffix, user frames left out, the most specific
 * reason first; a new task's first CPU (no event) and exec (the stopper's)
 * are no reasons of their own.
 */
#include "analysis/cpu/migreason.h"
#include "ut.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	static const char *const stopper[] = {
		"set_task_cpu",	      "try_to_wake_up",	   "complete_all", "migration_cpu_stop",
		"cpu_stopper_thread", "smpboot_thread_fn", "kthread",	   "ret_from_fork"
	};
	static const char *const wakeup[] = { "set_task_cpu",	  "try_to_wake_up",
					      "__wake_up_common", "anon_pipe_write",
					      "vfs_write",	  "do_syscall_64" };
	static const char *const newidle[] = { "set_task_cpu", "detach_tasks", "sched_balance_rq",
					       "sched_balance_newidle", "__schedule" };
	static const char *const old_lb[] = { "set_task_cpu", "load_balance", "rebalance_domains",
					      "run_rebalance_domains", "__do_softirq" };
	static const char *const numa[] = { "set_task_cpu", "__migrate_swap_task.part.0",
					    "migrate_swap_stop", "cpu_stopper_thread" };
	static const char *const affinity[] = { "set_task_cpu",	       "move_queued_task",
						"affine_move_task",    "__set_cpus_allowed_ptr",
						"__sched_setaffinity", "do_syscall_64" };
	static const char *const fork[] = { "set_task_cpu", "wake_up_new_task", "kernel_clone" };
	static const char *const exec[] = { "set_task_cpu", "sched_exec", "bprm_execve" };
	static const char *const none[] = { "set_task_cpu", "something_else" };
	/* a prefix of a name is not the name */
	static const char *const prefix[] = { "set_task_cpu", "try_to_wake_up_noop" };
	struct frame fr[] = {
		{ .sym = "set_task_cpu", .kernel = true },
		{ .sym = "try_to_wake_up", .kernel = true },
		{ .sym = "migration_cpu_stop", .kernel = false }, /* a user symbol of that name */
	};

	CHECK_INT(mig_reason__of_syms(stopper, N(stopper)), MR_STOPPER);
	CHECK_INT(mig_reason__of_syms(affinity, N(affinity)), MR_AFFINITY);
	CHECK_INT(mig_reason__of_syms(wakeup, N(wakeup)), MR_WAKEUP);
	CHECK_INT(mig_reason__of_syms(newidle, N(newidle)), MR_BALANCE);
	CHECK_INT(mig_reason__of_syms(old_lb, N(old_lb)), MR_BALANCE);
	CHECK_INT(mig_reason__of_syms(numa, N(numa)), MR_NUMA);
	CHECK_INT(mig_reason__of_syms(fork, N(fork)), MR_OTHER);
	CHECK_INT(mig_reason__of_syms(exec, N(exec)), MR_OTHER);
	CHECK_INT(mig_reason__of_syms(none, N(none)), MR_OTHER);
	CHECK_INT(mig_reason__of_syms(prefix, N(prefix)), MR_OTHER);
	CHECK_INT(mig_reason__of_syms(NULL, 0), MR_OTHER);
	CHECK_INT(mig_reason__of_frames(fr, N(fr)), MR_WAKEUP);
	CHECK_STR(mig_reason__name(MR_AFFINITY), "affinity");
	CHECK_STR(mig_reason__name(MR_STOPPER), "stopper");
	CHECK_STR(mig_reason__name(MR_WAKEUP), "wakeup");
	CHECK_STR(mig_reason__name(MR_RT_PUSH), "rt-push");
	CHECK_STR(mig_reason__name(MR_NR), "other");
	return ut_done("migreason");
}
