/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "-- command args" workload: forked early and held before exec
 * until the events (enable_on_exec) are open on it.
 */
#ifndef PP_WORKLOAD_H
#define PP_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

struct workload {
	pid_t pid;
	int go_fd;  /* write end: a byte lets the child exec */
	int err_fd; /* read end: errno from a failed exec, EOF on success */
	int status; /* wait(2) status once exited */
	bool exited;
};

/* Fork the child; it waits for workload__start. Returns 0 or -errno. */
int workload__prepare(struct workload *w, char *const argv[]);
/* Let it exec.  Returns 0, or -errno of a failed exec (child reaped). */
int workload__start(struct workload *w);
/* Reap if exited (non-blocking). Returns true once it has exited. */
bool workload__reap(struct workload *w);
/* Send @sig to the workload and every process that descends from it. */
void workload__signal_tree(struct workload *w, int sig);
/* Kill and reap a workload that never started or must stop. */
void workload__kill(struct workload *w);

#endif
