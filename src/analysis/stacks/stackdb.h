/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stacks kept for a report made later (kmemleak's allocation sites, a
 * profile's top stacks): each distinct stack is resolved to frames once,
 * when first seen (the process may be gone by the report), and named by a
 * small id.  Two callchains that resolve to the same frames (symbol,
 * offset and object, whatever the process and its load address; for a
 * frame without a symbol in a file's mapping, its file offset and object)
 * share an id; the first one's addresses are shown.
 *
 * Memory follows what the reports hold, not the length of the run: a table
 * that keeps an id takes a reference (stackdb__get) and drops it
 * (stackdb__put) when the row goes.  Unreferenced stacks stay as a cache
 * of the recently seen; a sweep, when they have doubled since the last
 * one (4096 at least), drops those not seen since it.  The raw callchains that
 * lead to ids (per process and program: addresses mean something in one
 * process's image only; stack_ctx__image)
 * are a cache of at most STACKDB_RAW_MAX, swept the same way, so the
 * callchains of exited processes go.
 */
#ifndef PP_STACKDB_H
#define PP_STACKDB_H

#include <stdio.h>

#include "engine/sample.h"
#include "sym/stack.h"

/* Raw callchains cached at most (a cache: beyond, stacks are resolved again). */
#define STACKDB_RAW_MAX (1u << 16)

struct stackdb;

struct stackdb *stackdb__new(void);
void stackdb__delete(struct stackdb *db); /* NULL is fine */

/*
 * The id (>= 1) of @smp's stack as @ctx resolves it; 0 when the sample has
 * no stack (or @ctx is NULL).  Returns 0 or -ENOMEM.  The id is valid until
 * the next stackdb__add unless a reference is taken on it.
 */
int stackdb__add(struct stackdb *db, struct stack_ctx *ctx, const struct sample *smp, u32 *id);

/* Take and drop a reference on @id (0 is ignored): held stacks are never dropped. */
void stackdb__get(struct stackdb *db, u32 id);
void stackdb__put(struct stackdb *db, u32 id);

/* The frames of @id (innermost first), NULL with *@nr 0 for id 0 (or one dropped). */
const struct frame *stackdb__frames(const struct stackdb *db, u32 id, int *nr);

/* Distinct stacks kept now (held or cached). */
u32 stackdb__count(const struct stackdb *db);

struct stackdb_stats {
	u32 stacks, held, peak; /* kept now, of them referenced; most kept at once */
	u64 added, dropped;	/* stacks resolved so far; unreferenced ones swept */
	u32 raws;		/* raw callchains cached */
	u64 raws_dropped;	/* ... swept */
	u64 bytes;		/* heap of the stacks, frames, names and cache (about) */
};
void stackdb__stats(const struct stackdb *db, struct stackdb_stats *st);
/* -v: "NAME: N stacks kept at the end (peak P, H held by the report), ..." on @fp. */
void stackdb__print_stats(const struct stackdb *db, const char *name, FILE *fp);

#endif
