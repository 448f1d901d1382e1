/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signals that end a run (SIGINT, SIGTERM, SIGQUIT, SIGHUP), held from
 * the first instruction of main.  A stop that comes while perf-prof starts
 * (options parsed, symbols loaded, probes made, events opened) waits in the
 * pending set until the event loop reads it, instead of killing the process
 * half-way (a probe left in tracefs, an output truncated) or, when the
 * signal was ignored at start (a script's background job), being
 * discarded: the kernel queues a blocked signal even if it is ignored.
 * SIGHUP ignored at start (nohup) stays ignored and unblocked.
 */
#ifndef PP_STOPSIG_H
#define PP_STOPSIG_H

#include <signal.h>
#include <stdbool.h>

/*
 * Block the stop signals, SIGUSR1/SIGUSR2 and SIGPIPE; remember the mask we
 * were started with.  The first thing main does.
 */
void stopsig__hold(void);
/* Back to the mask we were started with (commands: a stop kills them as usual). */
void stopsig__release(void);
/* The stop signals: SIGINT, SIGTERM, SIGQUIT, and SIGHUP unless it was ignored at start. */
void stopsig__set(sigset_t *set);
/* Is a stop signal pending (held, not yet read)?  SIGHUP counts only with @hup (no -o FILE). */
bool stopsig__pending(bool hup);
/* Is @sig's disposition SIG_IGN? */
bool stopsig__ignored(int sig);
/* A stop signal was read (by the event loop's signalfd): remembered for stopsig__stopped. */
void stopsig__note(void);
/*
 * Has a stop come, read or pending?  What a wait that may never end (a
 * FIFO output without a reader: util/ofile.h) checks to give up.
 */
bool stopsig__stopped(void);

#endif
