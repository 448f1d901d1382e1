/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --detail: what happened between the two ends of a slow pair.  A window
 * of copied events in time order (every event a latency profiler sees,
 * untraced ones included) is kept back to the oldest start still open;
 * when a pair slower than --than closes, its events from start to end
 * (and N before / after with -N / +N) print as a timeline, each with its
 * offset from the start:
 *
 *   sys_enter_read => sys_exit_read: 12.345ms key 4242
 *   S        +0ns  2026-... reader 4242 [001] syscalls:sys_enter_read: ...
 *       +15.200us  2026-... reader 4242 [001] sched:sched_switch: ...
 *   E    +12.345ms 2026-... reader 4242 [000] syscalls:sys_exit_read: ...
 *
 * A pair with events after its end waits until events past end + N came
 * (or the run ends).  Memory: events older than every open start leave the
 * window; beyond DETAIL_MAX_BYTES the oldest go anyway (counted, and a
 * timeline that lost its beginning says so).
 */
#ifndef PP_DETAIL_H
#define PP_DETAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/session.h"

#define DETAIL_MAX_BYTES (64u << 20)

struct detail_opts {
	u64 before, after; /* -N, +N (ns) */
	u64 hide;	   /* hide<N: runs of events closer than N collapse */
	bool samecpu, samepid, sametid, samekey;
	/* "1", "2": same* compare with the start's (bit 0) or end's (bit 1) event only; 0: both */
	unsigned ends;
};

/*
 * Parse --detail's value: comma-separated -N, +N (times: "10us", a bare
 * number is us), samecpu, samepid, sametid, samekey, hide<N, 1 and 2 (same*
 * of the start's, of the end's event only); NULL or ""
 * for none.  0, or -1 with one line in @err.
 */
int detail__parse(const char *text, struct detail_opts *o, char *err, size_t len);

struct detail;

struct detail *detail__new(const struct detail_opts *o);
void detail__delete(struct detail *d);

/* An event, in time order; @key: its key when @has_key.  0 or -ENOMEM. */
int detail__add(struct detail *d, struct evsel *ev, const struct sample *smp, u64 key,
		bool has_key);

/* The ends of a slow pair (from the latency engine). */
struct detail_pair {
	u64 start, end, key;
	u32 cpu[2], pid[2], tid[2]; /* of the start and end events */
	bool has_end_event;
};
/*
 * Print @p's timeline under @header now, or once the window reaches end + N.
 * --json: @header is the members (rt_json__frag) the timeline's one line
 * begins with: {"type":"slow",HEADER,"timeline":[{"mark":"S","offset_ns":0,
 * "time_ns":...,"comm":...,"pid":...,"tid":...,"cpu":...,"event":...,
 * "fields":{...},"stack":[...]},...]} (the event as the event line's members)
 * ("mark" "S" or "E" at the pair's ends only; "hidden": N on an event after
 * N events hide< left out; "truncated_ns": the offset before which events
 * left the full window).  0, or -ENOMEM: the pair printed without what
 * came after its end, or (--json) without its events.
 */
int detail__pair(struct detail *d, struct session *s, const struct detail_pair *p,
		 const char *header);
/*
 * Print the waiting timelines the window now covers (all of them with @all).
 * 0, or -ENOMEM: a --json timeline printed without its events.
 */
int detail__flush(struct detail *d, struct session *s, bool all);

/* The oldest time the window must keep for the waiting timelines (U64_MAX: none). */
u64 detail__oldest_needed(const struct detail *d);
/* Drop events older than @horizon. */
void detail__trim(struct detail *d, u64 horizon);
/* Events held, and whether a trim is due (every few thousand events). */
bool detail__trim_due(const struct detail *d);
/* Events that left the window early (full). */
u64 detail__dropped(const struct detail *d);
/*
 * The events that left early, if any, as one record to the sink @k
 * (report/rtable.h): text "WHO: N events left the --detail window early
 * (...)"; JSON {"type":"dropped", the stamp, "what":"detail_events","full":N}.
 */
struct rt_sink;
void detail__emit_drops(const struct detail *d, struct rt_sink *k, const char *who);

#endif
