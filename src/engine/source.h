/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A source of events: what a session reads samples and task events from
 * (the plan: session_int.h's top comment).  The perf ring source
 * (engine/perf_ops.c: perf_event_open, the rings, the counters) is the
 * first behind it, the injected records of tests (engine/inject.c, a
 * replay source) the second; a profiler seen as a source and a BPF back
 * end are to come.  The session holds a list of sources and goes through
 * these ops only: open and enable in order, the loop waits on every
 * source's fds, reads every source, disables, reads each one last time,
 * and asks each for its losses.
 *
 * Records are delivered in the session's record format, perf's
 * (struct perf_event_header, the sample_id fields of BASE_SAMPLE_TYPE,
 * PERF_SAMPLE_IDENTIFIER first in a sample): session__source_record()
 * dispatches one, or puts it into the order queue, which orders every
 * source's records by time.  A source that is not perf gives its events
 * sample ids with session__add_id (the inject ids: session__inject_id).
 */
#ifndef PP_SOURCE_H
#define PP_SOURCE_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/sample.h"

struct session;
struct evsel;
struct counter_val;
struct source;
struct perf_event_header;

/* What a source lost or left out, for the lost report (lost.c). */
struct source_stats {
	u64 lost;	     /* records the kernel (or the producer) could not write */
	const u64 *lost_cpu; /* ... per CPU (session's max_cpu entries), or NULL */
	u64 throttled;	     /* throttle episodes */
	u64 abandoned;	     /* bytes left unread by an interrupt */
	u64 nr_read;	     /* records read */
	/* events the source's own store could not keep (a full BPF map), said by its report op */
	u64 dropped;
	/* what its store left out without losing an event (a histogram bucket), said by report */
	u64 noted;
};

/* read()'s @how */
enum {
	SOURCE_READ_FINAL = 1,	  /* after disable: everything there is */
	SOURCE_READ_SNAPSHOT = 2, /* an interval or SIGUSR1: a flight recorder reads now */
	SOURCE_READ_PULL = 4,	  /* the order queue has room: move what piled up (no horizon) */
};

struct source_ops {
	const char *name;
	/*
	 * Its records are handed out as read, not through the order queue
	 * (the BPF back end's copied-out slow cases): with time order, what
	 * the sources read before it ordered is delivered first, up to their
	 * horizon (the task records its samples are resolved with).
	 */
	bool unordered;
	/*
	 * Take @ev (0), or leave it to another source (-EOPNOTSUPP); else
	 * -errno, message set.  Not called yet: every event is the perf
	 * source's in a run, the replay source's when injected.
	 */
	int (*add)(struct source *src, struct evsel *ev);
	/* Open what was added on the session's targets; nothing flows yet.  0 or -errno, message set. */
	int (*open)(struct source *src);
	/* Start: events flow from now (a workload's exec comes after). */
	int (*enable)(struct source *src);
	/* Register the fds the loop waits on in @epfd, each with @tag | its own low 32 bits. */
	int (*poll_fds)(struct source *src, int epfd, u64 tag);
	/*
	 * An fd registered by poll_fds (@id: its low 32 bits) polled @events:
	 * read what it says (without time order), or return 1 to have every
	 * source read at once (time order, a hang-up); 0, 1 or -errno.
	 */
	int (*ready)(struct source *src, u32 id, u32 events);
	/*
	 * Deliver what is ready (@how: SOURCE_READ_*) with
	 * session__source_record.  With time order and not final, lower
	 * *@horizon to the time before which this source has nothing more to
	 * give (its streams' read time less its margin).  0 or -ENOMEM.
	 */
	int (*read)(struct source *src, unsigned how, u64 *horizon);
	/* A counting event's counter @i (< 0: their sum): 0 or -errno (zeros). */
	int (*counters)(struct source *src, struct evsel *ev, int i, struct counter_val *v);
	void (*stats)(struct source *src, struct source_stats *st);
	/* Optional: one line per kind of its stats' dropped events, what they were and why. */
	void (*report)(struct source *src, FILE *fp);
	/* Stop the flow; read(final) delivers what was written before. */
	void (*disable)(struct source *src);
	/* Interrupted while behind: count what is still unread (stats' abandoned). */
	void (*abandon)(struct source *src);
	/* Release everything; safe after any partial open, and twice. */
	void (*close)(struct source *src);
};

struct source {
	const struct source_ops *ops;
	struct session *s;
	void *priv; /* the source's own state (the perf source: &s->perf) */
	u64 tag;    /* its fds' tag in the loop (poll_fds), its index above 32 bits */
};

/* Add @src (its ops and priv set) to @s's sources, read after those before: 0 or -ENOMEM. */
int session__add_source(struct session *s, struct source *src);
/*
 * Deliver one record read by a source: dispatch it, or (time order) put
 * it into the order queue at its time.  0, or -ENOMEM.
 */
int session__source_record(struct session *s, const struct perf_event_header *h, int cpu);
/*
 * Read every source (@how: SOURCE_READ_*) and, with time order, deliver
 * the queue up to the sources' horizon (all of it when final).  The
 * loop's; tests drive it as the loop would.  0 or -ENOMEM.
 */
int session__read_sources(struct session *s, unsigned how);
/* Start time order (the order queue) as --order does, for tests: 0 or -ENOMEM. */
int session__start_order(struct session *s);

#endif
