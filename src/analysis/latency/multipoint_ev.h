/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic front of the latency engine (multi-trace, mpdelay): every
 * -e event is a point, keyed by its key=EXPR, else -k EXPR, else the
 * thread under -p/-t/--, else the CPU; role=EXPR (bit 0 may open a pair,
 * bit 1 may close one) narrows what an event does.  An event at point k
 * closes the pair from k-1 (the last point with --cycle), then opens the
 * pair from k.  Keys other than the CPU cross CPUs: the session is asked
 * for time order.  On the BPF back end (where the request compiles: see
 * multipoint_bpf.h) the same rules run in the kernel.
 */
#ifndef PP_MULTIPOINT_EV_H
#define PP_MULTIPOINT_EV_H

#include "analysis/latency/multipoint.h"

struct multipoint_ev_conf {
	const char *who; /* "multi-trace" */
	bool by_index;	 /* mpdelay: every -e event is its own point, in order */
	bool cycle;
	const struct lat_opts *lat;
	const char *key_text; /* -k EXPR, NULL none */
	bool pair;	      /* --impl pair: the pairs left open in place of the table */
	/* its options (bpf_group: the back end, analysis/latency/multipoint_bpf.h); NULL: ring */
	const struct opt_set *opts;
};

struct multipoint_ev;

/*
 * Add the -e events to @s, each with its handler, and the latency
 * engine's hooks (multipoint__ready: keyed by thread, a task's exit drops
 * its pairs), and a set of its own whose inner_sample takes an inner
 * profiler's samples (joint analysis: "profile/-F 99/untraced/" in -e) as
 * untraced events, in the --detail timelines only: the profiler needs no
 * hooks of its own.  NULL with the session's error set.
 */
struct multipoint_ev *multipoint_ev__new(struct session *s, const struct multipoint_ev_conf *conf);
/* The end (deinit): the final report if the session started, then free (NULL: nothing). */
void multipoint_ev__delete(struct multipoint_ev *m, struct session *s);

/*
 * The point of each -e position: the positions with an event that is not
 * untraced, in order (-1: untraced events only).  Returns how many.  For
 * profilers that take the original's -e spelling (syscalls, rundelay).
 */
int multipoint_ev__points(const struct event_opts *eo, int pt[EV_MAX_POS]);

#endif
