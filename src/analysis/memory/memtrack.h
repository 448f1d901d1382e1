/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Outstanding allocations by address (kmemleak, kmemprof): an allocation
 * is kept until its free; what is left is reported grouped by allocation
 * stack (and comm), largest first.  One compact open-addressing table of
 * 32-byte slots, at most 70% full (46 to 91 bytes per live allocation),
 * and a cap (4M live allocations by default, a table of 256 MiB at most)
 * beyond which allocations are counted as untracked rather than grow
 * memory without bound.
 */
#ifndef PP_MEMTRACK_H
#define PP_MEMTRACK_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/stacks/stackdb.h"
#include "engine/sample.h"

struct memtrack;

struct memtrack_stats {
	u64 allocs;	   /* allocations seen */
	u64 frees;	   /* frees of a tracked allocation */
	u64 ignored_frees; /* frees of memory allocated before monitoring started */
	u64 failed;	   /* failed allocations (NULL): not leaks */
	u64 replaced;	   /* an allocation at an address still tracked: its free was missed */
	u64 untracked;	   /* over the cap */
};

/* @cap: live allocations kept at most (0: 1 << 22). */
struct memtrack *memtrack__new(u64 cap);
void memtrack__delete(struct memtrack *mt); /* NULL is fine */
/*
 * The stacks of @mt's allocations are ids of @db: each live allocation
 * holds its stack (stackdb__get) until its free, so that the stacks of
 * freed memory can go.  @db must outlive the allocations' frees (delete
 * drops no reference).
 */
void memtrack__set_stackdb(struct memtrack *mt, struct stackdb *db);

/* @comm: the allocating task's name (interned here). 0 or -ENOMEM. */
int memtrack__alloc(struct memtrack *mt, u64 ptr, u64 size, u64 time, u32 stack, const char *comm);
/*
 * Whether @ptr was tracked (then forgotten; *@size, if given, gets its
 * size, else 0); an untracked one counts as ignored.
 */
bool memtrack__free(struct memtrack *mt, u64 ptr, u64 *size);
/* The same, an untracked @ptr not counted (a free by a task that is not a target). */
bool memtrack__free_quiet(struct memtrack *mt, u64 ptr, u64 *size);
void memtrack__failed(struct memtrack *mt);
/* Forget everything (after a loss, when the caller wants a clean start). */
void memtrack__stats(const struct memtrack *mt, struct memtrack_stats *st);
u64 memtrack__live(const struct memtrack *mt);
u64 memtrack__live_bytes(const struct memtrack *mt);

/* One group of the report: a stack (and a comm with by_comm). */
struct memtrack_group {
	u32 stack;
	const char *comm; /* NULL unless by_comm */
	u64 bytes, objects;
	u64 oldest; /* time of the oldest allocation */
};

/*
 * The live allocations older than @than_ns at @now, grouped by stack (and
 * comm), largest bytes first.  *@groups is malloc'd (free it).  Count or
 * -ENOMEM.
 */
int memtrack__groups(const struct memtrack *mt, u64 now, u64 than_ns, bool by_comm,
		     struct memtrack_group **groups);

#endif
