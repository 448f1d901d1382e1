/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Key -> columns aggregation in the kernel (the BPF back end, engine/bpf.h):
 * for each event, a classic tracepoint program tests the session's targets
 * and the event's filter, computes the key (an expression, or the thread)
 * and adds the columns' values (expressions, or 1 for a count) into a
 * per-CPU hash map; nothing crosses the ring buffer.  The task's comm is
 * taken when its key is first seen.  Each drain reads the map (by batches)
 * and gives every key whose values changed since the last drain, with the
 * changes.  Once the map is half full, the keys that did not change leave
 * it (the programs set aside meanwhile, into a second map read then: no
 * add lost to a delete), so keys that come and go (threads) do not fill
 * it; keys beyond --bpf-entries at once are counted as lost.  top's back
 * end (which drains every BPF_READ_MS without -i, bpf_back__on_read).
 */
#ifndef PP_BPF_KEYED_H
#define PP_BPF_KEYED_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/sample.h"

struct session;
struct bpf_back;
struct evsel;
struct expr;

#define BKEYED_MAX_COLS 40 /* the value must fit the program's stack once */

struct bkeyed;

/* A table of @ncols columns, at most @entries keys.  NULL: out of memory (message set). */
struct bkeyed *bkeyed__new(struct session *s, struct bpf_back *b, int ncols, unsigned entries);
void bkeyed__delete(struct bkeyed *k);

/*
 * The program of @ev: pass @filter (NULL: every event), key @key (NULL:
 * the thread id), add @vals[i] to column @col0 + i (@nvals 0: 1 to column
 * @col0, a count).  0, or -EOPNOTSUPP with @why saying what does not
 * compile (the caller falls back to the ring path), or -errno (message set).
 */
int bkeyed__add(struct bkeyed *k, struct evsel *ev, struct expr *filter, struct expr *key,
		struct expr *const *vals, int nvals, int col0, char *why, size_t len);

/* One key's changes since the last drain; @comm: the task's when the key was first seen. */
typedef void (*bkeyed_fn)(void *arg, u64 key, const char *comm, const u64 *delta, u64 events);
/* Every key that changed since the last drain.  0 or -errno. */
int bkeyed__drain(struct bkeyed *k, bkeyed_fn fn, void *arg);

#endif
