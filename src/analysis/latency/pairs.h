/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A keyed start -> end store: the pairing under every latency profiler.
 *
 * An event opens an interval under a key (a tid, a pointer, a vCPU) with a
 * payload the profiler fills (state, stack, comm); a later event closes it
 * and gets the start and the delta.  Pending intervals are invalidated when
 * records were lost (which ones lack their end is unknown) and when their
 * task exits; a start on a key that is already pending replaces it (the
 * first start never saw its end).  Nothing invents a duration.
 *
 * Memory is bounded: at most max_keys keys (starts beyond are refused and
 * counted), and keys with nothing pending for idle_ns of event time are
 * freed.  A key's payload survives from one interval to the next, so
 * buffers in it (a saved stack) are reused; payload_free releases them when
 * the key goes.  Every dropped interval is counted, and reported one way
 * (pairs__print_drops).
 */
#ifndef PP_PAIRS_H
#define PP_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/sample.h"

struct pairs_conf {
	size_t payload_size; /* bytes of payload per key, zeroed when the key is made */
	size_t max_keys;     /* 0: no limit */
	u64 idle_ns;	     /* keys idle this long (event time) are freed; 0: never */
	void (*payload_free)(void *payload); /* what the payload owns, not the payload */
};

struct pairs_counts {
	/* per interval: pairs__reset_counts zeroes them */
	u64 started, ended;
	u64 replaced;	   /* started again before any end: the first start is dropped */
	u64 lost;	   /* pending when records were lost */
	u64 ended_dropped; /* ends of those (pairs__end false): not ends without a start */
	u64 exited;	   /* pending when its key was forgotten (the task exited) */
	u64 full;	   /* starts refused: max_keys keys held */
	u64 nomem;	   /* starts refused: out of memory */
	u64 backwards;	   /* an end before its start (never in time order) */
	/* for the whole run */
	u64 keys, peak_keys, evicted;
};

/*
 * What pairs__end gives back: the payload stays valid until the next
 * pairs__start, pairs__forget or pairs__delete (a start's idle sweep may
 * free other keys).
 */
struct pair_span {
	u64 start, delta;
	u32 start_cpu;
	void *payload;
};

struct pairs;

struct pairs *pairs__new(const struct pairs_conf *conf);
void pairs__delete(struct pairs *p);

/*
 * Open an interval under @key at @time: the key's payload, for the caller
 * to fill, or NULL if refused (counted in full).  A pending interval under
 * the same key is replaced (counted); its payload is the one returned.
 */
void *pairs__start(struct pairs *p, u64 key, u64 time, u32 cpu);
/* The payload of @key's pending interval, or NULL (sets *start if given). */
void *pairs__pending(struct pairs *p, u64 key, u64 *start);
/*
 * Close @key's pending interval at @time; false if none was pending (also
 * the first end after a loss dropped the key's interval: counted in
 * ended_dropped, see pairs__counts, not an end without a start).
 */
bool pairs__end(struct pairs *p, u64 key, u64 time, struct pair_span *span);
/* Drop @key's pending interval without counting it (not wanted after all). */
void pairs__cancel(struct pairs *p, u64 key);
/* Records were lost: every pending interval is dropped (counted in lost). */
void pairs__lost(struct pairs *p);
/* The key is gone (task exit, free): its entry is freed; pending counts as exited. */
void pairs__forget(struct pairs *p, u64 key);
/*
 * Keys that are thread ids: @p's own hooks in session @s (before it opens),
 * records lost drop every pending interval (pairs__lost), a task's exit
 * its own (pairs__forget).  0, or -ENOMEM with the session's error set.
 */
struct session;
int pairs__add_hooks(struct pairs *p, struct session *s);
/* Call @fn on every pending interval (in no order). */
void pairs__for_each_pending(struct pairs *p,
			     void (*fn)(u64 key, u64 start, void *payload, void *arg), void *arg);

const struct pairs_counts *pairs__counts(const struct pairs *p);
/* Pairs kept elsewhere (a BPF map) that were dropped: @exited at their task's exit. */
void pairs__add_exited(struct pairs *p, u64 exited);
/* ... started again before an end (@replaced), ended before they started (@backwards). */
void pairs__add_dropped(struct pairs *p, u64 replaced, u64 backwards);
void pairs__reset_counts(struct pairs *p);

/*
 * Dropped intervals, one line each, "WHO: N pending WHAT dropped after lost
 * events" and so on; @why says why a start replaced by the next one had no
 * end ("switch-in not seen").  The text of pairs__emit_drops.
 */
void pairs__print_drops(const struct pairs *p, FILE *fp, const char *who, const char *what,
			const char *why);
/* Whether any of the counts pairs__print_drops says is not 0. */
bool pairs__dropped(const struct pairs *p);
/*
 * The same counts as a one-row table to the sink @k (report/rtable.h), the
 * row only when pairs__dropped: text, pairs__print_drops's lines (@who,
 * @why); JSON, {"type":"dropped", the sink's stamp, "what":@what, "from":
 * @from (NULL: none), "lost", "exited", "replaced", "full", "nomem",
 * "backwards"}.
 */
struct rt_sink;
void pairs__emit_drops(const struct pairs *p, struct rt_sink *k, const char *what, const char *from,
		       const char *who, const char *why);
/* "WHO: N KEY entries at the end (peak N), N evicted idle" (for -v). */
void pairs__print_usage(const struct pairs *p, FILE *fp, const char *who, const char *key);

#endif
