/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session's run control (engine/signals.c): the signals it reads through
 * the loop's signalfd and what they asked for, and the "-- command"
 * workload as the session runs it (the process itself: workload.h).  The
 * functions are the session's (session_int.h): session__block_signals,
 * session__loop_sigset, session__handle_signals, session__restore_signals,
 * session__reap_workload, session__signal_time.
 */
#ifndef PP_SIGNALS_H
#define PP_SIGNALS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/workload.h"

/* After the first stop signal, what is left is processed this long at most. */
#define ABANDON_NS (200 * 1000000ULL)

struct session_signals {
	int fd;		   /* the loop's signalfd, or -1 */
	sigset_t old_mask; /* restored after the run */
	void (*old_pipe)(int);
	bool blocked;
	bool hup_ignored;	  /* SIGHUP was ignored at start (nohup): it stays so */
	bool want_snapshot;	  /* SIGUSR1 seen */
	bool want_usage;	  /* SIGUSR2 seen */
	bool want_reopen;	  /* SIGHUP seen, with an output file */
	bool interrupted;	  /* SIGINT/SIGTERM/SIGQUIT/SIGHUP (passed on to the workload) */
	unsigned nr_interrupts;	  /* stop signals received */
	unsigned interrupts_seen; /* ... when the loops started to give up */
	uint64_t abandon_at;	  /* after an interrupt, stop processing at this time */
	uint64_t signal_cpu;	  /* our CPU time (ns) at the first stop signal */
};

struct session_workload {
	struct workload proc; /* pid -1 until forked */
	bool forked;	      /* there is a workload (-- command), prepared at open */
	bool stopped;	      /* we ended the workload (-N, output error) */
	bool unstarted;	      /* stopped during start-up: the command never ran */
	int signal;	      /* the first stop signal passed on to it while it ran */
};

#endif
