/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PROTOTYPE, not used yet (the plan: session_int.h's top comment).
 *
 * A source of events: what a session reads samples and task events from.
 * The perf ring source (perf_event_open, the rings, the counters) is to be
 * the first behind it, then the injected records of tests, a profiler
 * seen as a source, a BPF back end.  A source knows its events only as the
 * catalogue describes them (struct evsel without its perf state); the
 * session knows no source's insides.
 */
#ifndef PP_SOURCE_H
#define PP_SOURCE_H

#include <stdbool.h>

#include "engine/sample.h"

struct session;
struct evsel;
struct counter_val;
struct source;

/* What a source lost or left out, for the lost report (today's lost.c). */
struct source_stats {
	u64 lost;      /* records the kernel (or the producer) could not write */
	u64 throttled; /* throttle episodes */
	u64 abandoned; /* records left unread by an interrupt */
	u64 nr_read;   /* records read */
};

struct source_ops {
	const char *name;
	/* Take @ev (0), or leave it to another source (-EOPNOTSUPP); else -errno, message set. */
	int (*add)(struct source *src, struct evsel *ev);
	/* Open what was added on the session's targets; nothing flows yet. */
	int (*open)(struct source *src);
	/* Start: events flow from now (a workload's exec comes after). */
	int (*enable)(struct source *src);
	/* Register the fds the loop waits on in @epfd, each with @tag (its source). */
	int (*poll_fds)(struct source *src, int epfd, u64 tag);
	/*
	 * Deliver what is ready (@final: everything, after disable) to the
	 * session, each sample parsed once: session__deliver(s, ev, smp) or
	 * its task events (COMM, FORK, EXIT, MMAP2, SWITCH, LOST).  0 or -errno.
	 */
	int (*read)(struct source *src, bool final);
	/* A counting event's counter @i (< 0: their sum). */
	int (*counters)(struct source *src, struct evsel *ev, int i, struct counter_val *v);
	void (*stats)(struct source *src, struct source_stats *st);
	/* Stop the flow; read(final) drains what was written before. */
	void (*disable)(struct source *src);
	/* Release everything; safe after any partial open. */
	void (*close)(struct source *src);
};

struct source {
	const struct source_ops *ops;
	struct session *s;
	/*
	 * Each stream of the source (a perf ring: one CPU's) is in time
	 * order; across streams the session's order queue orders, holding
	 * back this long (ns) for the slowest stream.
	 */
	u64 order_margin;
	void *priv; /* the source's own state (the perf source: fds, rings, ids) */
};

#endif
