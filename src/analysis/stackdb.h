/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stacks kept for a report made later (kmemleak's allocation sites, a
 * profile's top stacks): each distinct stack is resolved to frames once,
 * when first seen (the process may be gone by the report), and named by a
 * small id.  Two callchains that resolve to the same frames share an id.
 */
#ifndef PP_STACKDB_H
#define PP_STACKDB_H

#include "engine/sample.h"
#include "sym/stack.h"

struct stackdb;

struct stackdb *stackdb__new(void);
void stackdb__delete(struct stackdb *db); /* NULL is fine */

/*
 * The id (>= 1) of @smp's stack as @ctx resolves it; 0 when the sample has
 * no stack (or @ctx is NULL).  Returns 0 or -ENOMEM.
 */
int stackdb__add(struct stackdb *db, struct stack_ctx *ctx, const struct sample *smp, u32 *id);

/* The frames of @id (innermost first), NULL with *@nr 0 for id 0. */
const struct frame *stackdb__frames(const struct stackdb *db, u32 id, int *nr);

/* Distinct stacks kept. */
u32 stackdb__count(const struct stackdb *db);

#endif
