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
#include "report/rtable.h"

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

/* An allocator's event, its handler's data: its side and expressions, and the profiler's. */
struct memreport_ev {
	void *owner;
	struct memreport_ev *next; /* every event's, to free */
	bool alloc;
	struct expr *ptr, *size;
};

/*
 * Adds @spec's events (with stacks if @callchain), each to @fn with a
 * struct memreport_ev of @owner put on *@list: its address key= (or ptr=)
 * of the event, else @key, else as memreport__exprs; an allocation's size
 * as memreport__size.  0 or -errno with the session's message set.
 */
int memreport__add_spec(struct session *s, struct ev_spec *spec, bool alloc, bool callchain,
			const char *key,
			void (*fn)(struct session *s, void *priv, struct evsel *ev,
				   struct sample *smp),
			void *owner, struct memreport_ev **list);
/* Frees the events of *@list. */
void memreport__evs_free(struct memreport_ev **list);

/*
 * The sink of a report on the session's output: the text table, or JSON
 * lines (--json) whose rows carry their own stamp (MEMREPORT_STAMP_COLS).
 */
struct rt_sink *memreport__sink(struct session *s, union rt_sinks *u);

/* "scope" and "time_ns" (wall clock) first in each JSON record: values a scope and session__wall_ns. */
#define MEMREPORT_STAMP_COLS                                                               \
	{ .name = "scope", .type = RT_STR, .flags = RT_NO_TEXT },                          \
	{                                                                                  \
		.name = "time_ns", .type = RT_U64, .unit = RT_UNIT_NS, .flags = RT_NO_TEXT \
	}

/* A row's stack (memreport__stack_val): the frames under the row, "[no stack]" without. */
#define MEMREPORT_STACK_COL                                                          \
	{                                                                            \
		.name = "stack", .title = "[no stack]", .type = RT_STACK, .width = 8 \
	}
/* The value of stack @id of @db for MEMREPORT_STACK_COL. */
void memreport__stack_val(struct session *s, struct stackdb *db, u32 id, struct rt_stack *st);

/*
 * After a table's first rows, "... N more stacks"; --json: {"type":"row",
 * "scope","time_ns","table":@table,"more_stacks":N}.
 */
void memreport__more(struct session *s, struct rt_sink *k, const char *scope, u64 now,
		     const char *table, u64 n);

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

/* Now in the events' clock (session__now). */
u64 memreport__now(struct session *s);

#endif
