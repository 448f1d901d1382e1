/* SPDX-License-Identifier: GPL-2.0 */
/* Small readers of /proc/PID files shared by the engine. */
#ifndef PP_PROCFS_H
#define PP_PROCFS_H

#include <sys/types.h>

/*
 * State letter (R, S, D, Z, X, ...) and parent pid of @pid from
 * /proc/PID/stat.  Returns 0, or -errno (-ENOENT when it is gone).
 */
int procfs__stat(pid_t pid, char *state, pid_t *ppid);

/* The process (thread group) of thread @tid, from /proc/TID/status: > 0, or -errno. */
pid_t procfs__tgid(pid_t tid);

#endif
