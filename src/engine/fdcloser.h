/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Closing many perf events fast.  The kernel ends each tracepoint's last
 * perf event with an RCU grace period (tracepoint_synchronize_unregister,
 * under event_mutex, so one at a time): closing 700 tracepoints takes
 * 10-30 s.  A helper process (perf-prof itself, exec'd with FDCLOSER_ARG)
 * inherits the descriptors and closes them after we are gone; our own
 * closes then only drop a reference.
 */
#ifndef PP_FDCLOSER_H
#define PP_FDCLOSER_H

#include <sys/types.h>

#define FDCLOSER_ARG "--close-perf-fds"
/*
 * From this many descriptors on.  On a busy host one grace period takes
 * seconds (the two of task-state's tracepoints: 0.15 s idle, 5 s under
 * stress-ng and CPU hogs), so even one is worth a helper (~1 ms to start).
 */
#define FDCLOSER_MIN_FDS 1

/*
 * Hand @fds to a helper in a session of its own, with its standard streams
 * on /dev/null (a pipe reading our output sees its end when we exit).
 * Returns its pid, or -errno (then close them yourself).  Not waited for.
 */
pid_t fdcloser__spawn(const int *fds, int n);

/* The helper: main() of "perf-prof FDCLOSER_ARG".  Returns the exit status. */
int fdcloser__main(void);

#endif
