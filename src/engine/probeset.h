/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session's probes in tracefs (see probe.h): the dynamic events it made
 * for what the kprobe/uprobe PMUs cannot give, the stop signals held while
 * they exist, and the resolver of user probes the symbol layer gave.  The
 * events are made in a group named for this process (perf_prof_PID) and
 * removed when the session ends; the groups of dead perf-prof runs are
 * removed before the first is made.  Nothing here knows the session.
 */
#ifndef PP_PROBESET_H
#define PP_PROBESET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/probe.h"

struct probeset {
	probe_resolve_fn resolve; /* user probes' sites (session__set_probe_resolver) */
	char **names;		  /* "FILE\n-:GROUP/EVENT": how each tracefs event of ours goes */
	int nr;
	bool stale_tried; /* the groups of dead runs removed */
	bool sigs_held;	  /* stop signals held while tracefs events of ours exist */
	sigset_t old_mask;
	char filter_err[256]; /* why user space could not take a probe's filter (open.c) */
};

/*
 * Remove the groups of dead perf-prof runs, once per set (probe__remove_stale):
 * with @verbose, say which.
 */
void probeset__cleanup_stale(struct probeset *ps, bool verbose);

/*
 * Make the tracefs event "p:GROUP/EVENT ..." of @line in @file
 * ("kprobe_events", "uprobe_events"), stop signals held from then on (the
 * caller removed the stale groups first).  0; or -errno with why the kernel refused it
 * in @why (never empty); or -ENOMEM with @why empty (the event made could
 * not be recorded: it was removed again).
 */
int probeset__make(struct probeset *ps, const char *file, const char *line, const char *group,
		   const char *event, char *why, size_t len);

/*
 * Remove the tracefs events of the set (after their perf events are
 * closed); @warn(@arg, "GROUP/EVENT", errno) for each the kernel kept.
 * Then the stop signals held for them: those pending are what the removal
 * does, and they stay blocked (the process is ending).
 */
void probeset__remove_all(struct probeset *ps, void (*warn)(void *arg, const char *event, int err),
			  void *arg);

#endif
