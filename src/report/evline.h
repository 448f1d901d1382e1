/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event line: one record per event, declared once (evline_desc) and
 * rendered by two sinks, as trace prints it and as the profilers that
 * print single events (nested-trace --than, multi-trace, num-dist --than,
 * expr) do, so they read the same.
 *
 * Its columns (the JSON members, in this order):
 *   time_ns  the wall clock (RT_U64, ns)       text: TIME (session__fmt_time)
 *   comm     the thread's name                  text: %16s
 *   pid                                         (JSON only)
 *   tid                                         text: %7u
 *   cpu                                         text: [%03u]
 *   event    sys:name                           text: "NAME: "
 *   fields   RT_FIELDS: the payload             text: the kernel's print format
 *   stack    RT_STACK, when the sample has one and stacks are resolved:
 *            text: the frames under the line, indented
 *
 * JSON is the rt_json sink of these rows:
 *   {"type":"event","time_ns":N,"comm":"..","pid":N,"tid":N,"cpu":N,
 *    "event":"sys:name","fields":{...},"stack":[...]}
 * and an event inside another record is an RT_ROW of them (the same
 * members, without the type).  The text line is a sink of its own
 * (evline_text): trace prints every event, so the line is assembled by
 * hand from the row's values (evline__head, the payload by the compiled
 * printer fastprint, no printf per cell) rather than by the text table's
 * cells; the columns, their order and their values are the description's.
 */
#ifndef PP_EVLINE_H
#define PP_EVLINE_H

#include <stdint.h>
#include <stdio.h>

#include "report/rtable.h"

struct session;
struct evsel;
struct sample;

enum evline_col {
	EVL_TIME,
	EVL_COMM,
	EVL_PID,
	EVL_TID,
	EVL_CPU,
	EVL_EVENT,
	EVL_FIELDS,
	EVL_STACK,
	EVL_NCOLS,
};

extern const struct rt_col evline_cols[EVL_NCOLS];
extern const struct rt_desc evline_desc;

/*
 * The row of one event into @v[EVL_NCOLS] (its stack's value in @stk, which
 * lives as long as @v): @comm NULL: the thread's comm at the sample's time;
 * @name the event's name (NULL: @ev's); @ev NULL: no fields (a record of
 * the profiler's own).
 */
void evline__row(struct rt_val *v, struct rt_stack *stk, struct session *s, struct evsel *ev,
		 const struct sample *smp, const char *comm, const char *name);

/*
 * evline__row for a row kept while more are made (a list of rows, RT_ROWS):
 * its comm copied into @comm[EVL_COMM_LEN], since a later row's comm lookup
 * may move the table the first one's points into.
 */
#define EVL_COMM_LEN 16
void evline__row_kept(struct rt_val *v, struct rt_stack *stk, char *comm, struct session *s,
		      struct evsel *ev, const struct sample *smp, const char *name);

/* The text line: a sink of evline_desc's rows, each line after @prefix (NULL: none). */
struct evline_text {
	struct rt_sink sink;
	struct session *s;
	FILE *fp;
	const char *prefix;
};
struct rt_sink *evline_text__init(struct evline_text *t, struct session *s, FILE *fp,
				  const char *prefix);

/* Room for the sink an event line goes to. */
union evline_sinks {
	struct evline_text text;
	struct rt_json json;
};
/* The sink --json picks for event lines on @fp. */
struct rt_sink *evline__sink(union evline_sinks *u, struct session *s, FILE *fp);

/* One record of @d (evline_desc's, or one as below) through evline__sink. */
void evline__emit(struct session *s, FILE *fp, const struct rt_desc *d, const struct rt_val *v);

/*
 * The head of a text line, "TIME COMM TID [CPU] NAME: ", as
 * printf("%s %16s %7u [%03u] %s: ") would, cheaper.  @ts is up to 26
 * characters (session__fmt_time).
 */
void evline__head(FILE *out, const char *ts, const char *comm, uint32_t tid, uint32_t cpu,
		  const char *name);

/* One whole event as trace's text prints it, after @prefix (NULL: none). */
void evline__print(struct session *s, struct evsel *ev, const struct sample *smp, FILE *out,
		   const char *prefix);

/*
 * A record of a profiler's own about one event is the event line's head
 * and stack around columns of its own.  Through the event line's text
 * sink (evline__emit), its text line is the head, then the payload of an
 * RT_FIELDS column and the strings of the RT_STR columns text shows, in
 * their order (no space between), then the stack's frames indented by
 * its column's width:
 *
 *   { .type = RT_ROW },      evline_head: time_ns, comm, pid, tid, cpu, event
 *   ... its own columns ...  (RT_NO_JSON RT_STR: words of the text only)
 *   EVL_STACK_COL,           the event's stack
 *
 * with the values of evline__row (ev NULL: no fields): { .row = { &evline_head, v } }
 * and { .stk = v[EVL_STACK].stk }.  A text head naming something else than
 * the event is an RT_NO_JSON row of its own before an RT_NO_TEXT one (signal).
 */
extern const struct rt_desc evline_head;
#define EVL_STACK_COL                                                                 \
	{                                                                             \
		.name = "stack", .type = RT_STACK, .width = 4, .flags = RT_OMIT_EMPTY \
	}

#endif
