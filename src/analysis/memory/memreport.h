/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kmemleak and kmemprof share: the ptr=/size= expressions of an
 * allocator's events (with their defaults), and the report of what is
 * still allocated, grouped by stack.
 */
#ifndef PP_MEMREPORT_H
#define PP_MEMREPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/memory/memtrack.h"
#include "analysis/stacks/stackdb.h"
#include "engine/session.h"

struct expr;
struct stack_flame;

/*
 * ptr= of @ev (default: its field "ptr"; none: a usage error naming
 * ptr=EXPR) and, for an allocation, size= (default: bytes_alloc,
 * bytes_req or size; none: *@size NULL, objects counted without bytes).
 * 0 or -errno with the session's message set.
 */
int memreport__exprs(struct session *s, struct evsel *ev, bool alloc, struct expr **ptr,
		     struct expr **size);

/* size= of @ev, else its bytes_alloc, bytes_req or size field (none: *@size NULL). */
int memreport__size(struct session *s, struct evsel *ev, struct expr **size);

/* The frames of stack @id as the stack options print them ("[no stack]" without). */
void memreport__stack(struct session *s, struct stackdb *db, u32 id, FILE *out);

/*
 * "TIME WHO: B bytes in N objects outstanding from K stacks", then each
 * group (older than @than_ns if set) largest first with its stack (the
 * first @max, 0: all); each group's bytes go to @flame if given.  --json:
 * {"type":"outstanding","scope":@scope,"time_ns","bytes","objects","stacks",
 * "than_ns" (if set)}, then per group {"type":"row","scope","time_ns",
 * "table":"outstanding","bytes","objects","age_ns" (of its oldest),"comm"
 * (@by_comm),"stack"} ({...,"more_stacks":N} past @max).  Returns the number
 * of groups, or -ENOMEM.
 */
int memreport__outstanding(struct session *s, const struct memtrack *mt, struct stackdb *db,
			   u64 than_ns, bool by_comm, struct stack_flame *flame, const char *who,
			   int max, const char *scope);

/* --json: a line {"type":@type,"scope":@scope,"time_ns":@now (CLOCK_MONOTONIC)... */
struct json;
void memreport__json_head(struct session *s, struct json *j, const char *type, const char *scope,
			  u64 now);
/* ... and the member "stack" of stack @id (none without stacks). */
void memreport__json_stack(struct session *s, struct stackdb *db, u32 id, struct json *j);

/* Now in the events' clock (session__now). */
u64 memreport__now(struct session *s);

#endif
