/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Nested calls per key, aggregated into a call tree: an entry pushes a call
 * on its key's stack, the exit of a function pops it (and the calls above
 * it, which never returned: counted), and the call's latency goes to the
 * tree node of its path (A > B > C).  The tree prints as a latency table,
 * children under their parent, indented, largest total first:
 *
 *   CALL                          calls       total  ...
 *   local_timer                     812     5.100ms  ...
 *     hrtimer_expire                200   300.000us  ...
 *
 * Memory: one node per distinct path (depth at most CALLTREE_DEPTH), one
 * stack per key with calls open (freed when it empties).
 */
#ifndef PP_CALLTREE_H
#define PP_CALLTREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CALLTREE_DEPTH 32
#define CALLTREE_MAX_FUNCS 16

struct calltree;

/* What a return hands back. */
struct calltree_ret {
	int func, depth; /* depth 0: outermost */
	uint64_t start, delta;
	void *data; /* what calltree__entry's caller stored with the call: the caller's now */
};

/*
 * @names: the functions' names (NULL-terminated, at most CALLTREE_MAX_FUNCS).
 * @free_data: frees what callers store with calls that are dropped (NULL: nothing).
 */
struct calltree *calltree__new(const char *const *names, void (*free_data)(void *data));
void calltree__delete(struct calltree *t);

/*
 * --perins: a tree per key, keys in order, each row with its key first
 * (a column titled @key_title: "CPU", "THREAD", the -k expression; JSON
 * "key").  Before the first call.
 */
void calltree__set_perins(struct calltree *t, const char *key_title);
/*
 * @func is entered under @key at @time: a slot for the caller's data with
 * the call (NULL: not kept, the stack is CALLTREE_DEPTH deep; counted).
 */
void **calltree__entry(struct calltree *t, uint64_t key, int func, uint64_t time);
/*
 * @func returns under @key at @time: true with *@ret filled when it was
 * open (the calls above it are dropped, counted); false when not (an exit
 * whose entry was not seen).  ret->data stays valid until the next call.
 */
bool calltree__exit(struct calltree *t, uint64_t key, int func, uint64_t time,
		    struct calltree_ret *ret);
/* Records were lost: every open call is dropped (counted). */
void calltree__lost(struct calltree *t);
/* The key is gone (its task exited): its open calls are dropped. */
void calltree__forget(struct calltree *t, uint64_t key);
/*
 * The tree's own hooks in session @s (before it opens): records lost drop
 * every open call (calltree__lost); with @per_thread (the keys are thread
 * ids), a task's exit drops its open calls (calltree__forget).  0, or
 * -ENOMEM with the session's error set.
 */
struct session;
int calltree__add_hooks(struct calltree *t, struct session *s, bool per_thread);

/*
 * The tree as a table, to the sink @k (report/rtable.h), or as text to @fp;
 * reset empties the latencies (the tree stays; --perins: a key's tree
 * without a call in the interval nor an open one goes).  JSON: one line per call,
 * {"type":"row", the stamp, "func":"hrtimer_expire","depth":1,
 * "path":["local_timer","hrtimer_expire"],"count":..,"total_ns":..,...}.
 */
struct rt_sink;
void calltree__emit(struct calltree *t, struct rt_sink *k);
void calltree__print(struct calltree *t, FILE *fp);
void calltree__reset(struct calltree *t);
/* --perins: the keys' trees held (a reset drops those without a call in the interval) */
unsigned calltree__nr_keys(const struct calltree *t);
uint64_t calltree__nr_open(const struct calltree *t);
/* The start of the oldest call still open, or @now if none is older. */
uint64_t calltree__oldest_open(const struct calltree *t, uint64_t now);
/*
 * The drops (counted for the run) as one record to the sink @k
 * (report/rtable.h): text "WHO: N calls dropped: ..." lines, if any (the
 * out-of-memory one also when calltree__failed_alloc); JSON, when any:
 * {"type":"dropped", the stamp, "what":"calls","unwound","orphan_exits",
 * "lost","exited","too_deep","nomem"}.  @end (the run's last table): also
 * the calls entered whose exit has not come (calltree__nr_open), "open".
 */
void calltree__emit_drops(struct calltree *t, struct rt_sink *k, const char *who, bool end);
bool calltree__failed_alloc(const struct calltree *t);

#endif
