/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One description per report.  A table (or a report of one row per record)
 * declares its columns once, in a struct rt_desc; its producer emits rows
 * of values; sinks render them.  The text table and the JSON lines of
 * --json are two sinks of the same rows, so neither is written by hand and
 * a new sink (SQL tables, metrics) is one more struct rt_sink_ops.
 *
 * A column (struct rt_col) says:
 *   name   the JSON member's name ("comm", "total_ns"); NULL: none
 *          (RT_STATS and RT_JSON with no name put their members in the row)
 *   title  the text header ("COMM", ">10ms")
 *   type   what a value is and which member of struct rt_val holds it:
 *            RT_STR   .s (NULL: null)         RT_U64  .u    RT_S64 .i
 *            RT_F64   .d                      RT_BOOL .b    RT_HEX .u
 *            RT_NS    .u, a duration in ns (text: "5.062ms", units__fmt_ns)
 *            RT_STATS .h, a struct hist: calls, total, min, avg, p50, p95,
 *                     p99, max (text: 8 cells; JSON: "count", "total_ns",
 *                     ... or, unless the unit is ns, "total", ..., "avg"
 *                     the exact mean)
 *            RT_LOG2  .l2, a struct log2_hist (JSON: an array of the slots
 *                     that hold values, {"lo","hi","count"}, "lo_ns" and
 *                     "hi_ns" in ns; no text cell: log2_hist__print)
 *            RT_STRS  .sv, .n strings (JSON: an array; text: joined by ';')
 *            RT_JSON  .s, members already written (rt_json__frag), or NULL
 *            RT_STACK .stk, a stack (struct rt_stack; JSON: an array of
 *                     frames; text: no cell, its frames under the row)
 *            RT_FIELDS .rec, a record's payload: .rec.of its struct evsel,
 *                     .rec.smp the sample (JSON: an object of its fields,
 *                     evsel__json_fields; text: the event line's sink)
 *            RT_ROW   .row, a row of another description as one value
 *                     (JSON: an object of its members; .row.v NULL: null;
 *                     a column without a name puts the members in the row)
 *            RT_ROWS  .row and .n, a list of rows of another description:
 *                     .n rows of .row.d's columns, .row.v their values,
 *                     row after row (n * .row.d->ncols); .null: none
 *                     (JSON: an array of objects, each the row's members
 *                     as RT_ROW writes them, [] for no rows; a name is
 *                     needed; text: no cell, the producer prints its lines)
 *            RT_NUMS  .dv, .n numbers (JSON: an array, each an integer
 *                     when it is one, NaN null; text: no cell)
 *            RT_EACH  .each, a list of rows made one at a time, as the
 *                     sink writes them: .each.fn(.each.arg, emit, ctx)
 *                     calls emit(ctx, desc, values) once per row (the
 *                     values are read during the call only); JSON and
 *                     text as RT_ROWS.  For a list too long to hold.
 *   unit   RT_UNIT_NS, _BYTES, _COUNT, _PERCENT or _NONE: for sinks that
 *          keep units apart (and RT_STATS/RT_LOG2 print times by it)
 *   obj    JSON: the column is a member of this object of the row; the
 *          columns next to each other with the same obj share it ("values")
 *   width, decimals, flags: the text format.  Cells are right-aligned in
 *          @width (RT_LEFT: left), separated by one space; RT_FIT widens
 *          the column to its widest value; RT_F64 prints @decimals.
 *
 * The record's "type" ("row") and a stamp (struct stats_stamp: "scope",
 * "time_ns", "interval_ns") begin each JSON line, before the columns; the
 * text sink does not print them.  A row's key members come first among
 * the columns; members text does not show are RT_NO_TEXT columns, and a
 * text label JSON does not show is an RT_NO_JSON column.
 *
 * A producer describes its table and emits its rows:
 *
 *   static const struct rt_col cols[] = {
 *       { .name = "comm", .title = "COMM", .type = RT_STR, .width = 16, .flags = RT_LEFT },
 *       { .name = "tid", .title = "TID", .type = RT_U64, .width = 7 },
 *       { .type = RT_STATS, .unit = RT_UNIT_NS },
 *   };
 *   const struct rt_desc d = { .type = "row", .cols = cols, .ncols = 3 };
 *   union rt_sinks u;
 *   struct rt_sink *k = json ? rt_json__init(&u.json, fp, &stamp) : rt_text__init(&u.text, fp);
 *
 *   rtable__begin(k, &d);
 *   for each row:
 *       rtable__row(k, (struct rt_val[]){ { .s = comm }, { .u = tid }, { .h = hist } });
 *   rtable__end(k);
 *
 * A table with RT_FIT columns passes each row to rtable__fit() before
 * rtable__begin (the text sink measures them; others ignore it).  A value
 * is read only during the call that gets it: nothing is kept, and no sink
 * allocates per value or per row.
 *
 * The shared tables render through it: stats_table (one row of RT_STATS),
 * lat_table (lat_table__emit; its key declared with lat_table__set_keys),
 * top_table (top_table__emit) and calltree (calltree__emit).  A profiler
 * with such a table picks the sink (text, or JSON with its stamp) and
 * calls the emit; a profiler with a table of its own describes it as above.
 *
 * A sink is a struct rt_sink whose ops get the description at begin, then
 * every row's values in column order, then end (a sink for SQL would
 * create its table at begin, insert at row and commit at end).  Embed
 * struct rt_sink first in the sink's own state and set its ops: see
 * tests/unit/test_rtable.c for a sink that captures the rows.
 */
#ifndef PP_RTABLE_H
#define PP_RTABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct hist;
struct log2_hist;
struct stats_stamp;
struct sample;
struct rt_desc;
struct rt_val;
struct json;

enum rt_type {
	RT_STR,
	RT_U64,
	RT_S64,
	RT_F64,
	RT_BOOL,
	RT_HEX,
	RT_NS,
	RT_STATS,
	RT_LOG2,
	RT_STRS,
	RT_JSON,
	RT_STACK,
	RT_FIELDS,
	RT_ROW,
	RT_ROWS,
	RT_EACH,
	RT_NUMS,
};

enum rt_unit {
	RT_UNIT_NONE,
	RT_UNIT_NS,
	RT_UNIT_BYTES,
	RT_UNIT_COUNT,
	RT_UNIT_PERCENT,
};

/* Text format and placement of a column. */
#define RT_LEFT 0x01	   /* left-aligned (default: right) */
#define RT_FIT 0x02	   /* as wide as its widest value (rtable__fit) or title */
#define RT_NO_TEXT 0x04	   /* JSON only: the text table has no such column */
#define RT_NO_JSON 0x08	   /* text only (a label that JSON writes as key members) */
#define RT_SUBROW 0x10	   /* RT_STATS: a text line of its own under the row, its */
			   /* title indented in the first column: "  sleep  ..." */
#define RT_OMIT_EMPTY 0x20 /* no member (nor sub-row) when NULL or without values */
#define RT_EMPTY_NULL 0x40 /* RT_STR: "" is "-" in text and null in JSON */
#define RT_PCT_OF 0x80	   /* RT_U64: text "N (x.x%)" of the value's .n */
#define RT_GAP 0x100	   /* text: two spaces before the cell, not one */
#define RT_NAN_DASH 0x200  /* RT_F64: text "-" when not finite (JSON: null) */
#define RT_PCT_SIGN 0x400  /* RT_F64: text "12.5%" */
#define RT_HEAD_ONLY 0x800 /* text: a title, no cell (the row's lines below: a stack) */
/*
 * More of the text format:
 *  - RT_OMIT_EMPTY on a number: no JSON member when it has no value
 *    (rt_val.null); on an RT_STR, no text cell either when it is NULL and
 *    not null (a row none of whose cells prints is no line).
 *  - RT_OMIT_ZERO on a number: no JSON member when it is 0 either.
 *  - A table none of whose text columns has a title prints no header: a
 *    record whose text is a sentence (its one RT_NO_JSON RT_STR column, any
 *    length, lines apart by '\n') and whose members are RT_NO_TEXT.
 */
/* text: an empty cell (or title) is not printed, nor the space before it (optional words) */
#define RT_TAIL 0x1000
#define RT_OMIT_ZERO 0x2000  /* a number: no JSON member when 0 (RT_OMIT_EMPTY: when null) */
#define RT_NULL_BLANK 0x4000 /* text: a number without a value (.null) is blank, not "-" */
/* an RT_BOOL, RT_NO_TEXT | RT_NO_JSON: when false, the JSON sink writes no record of the row */
#define RT_ROW_IF 0x8000

/* The text cells of RT_STATS: "calls" is one narrower than the values. */
#define RT_STATS_WIDTH 11

struct rt_col {
	const char *name;
	const char *title;
	enum rt_type type;
	enum rt_unit unit;
	const char *obj;
	int width;
	int decimals;
	unsigned flags;
};

/*
 * A column in one line (clang-format spreads a designated initializer
 * over a line per member): RT_COL("samples", "SAMPLES", RT_U64,
 * RT_UNIT_COUNT, 10, 0).
 */
#define RT_COL(n, t, ty, u, w, f)                                                                \
	{                                                                                        \
		.name = (n), .title = (t), .type = (ty), .unit = (u), .width = (w), .flags = (f) \
	}

struct rt_desc {
	const char *type; /* JSON: the record's "type" */
	const struct rt_col *cols;
	int ncols;
};

/*
 * RT_STACK's value: the frames @fr[0..@nf) (a stackdb's), or, when @smp is
 * set, the sample's stack, resolved by @ctx.  No JSON member when the
 * value or @ctx is NULL.  Text: the frames under the row (and its
 * sub-rows), one a line, indented by the column's width; when there are
 * none (the value or @ctx NULL, or no frames @fr), the column's title so
 * indented ("[no stack]"), if it has one.
 */
struct stack_ctx;
struct frame;
struct sample;
struct rt_stack {
	struct stack_ctx *ctx;
	const struct frame *fr;
	int nf;
	const struct sample *smp;
};

/* RT_EACH: a row of @d's columns, values @v, written as it comes */
typedef void rt_emit_fn(void *ctx, const struct rt_desc *d, const struct rt_val *v);

struct rt_val {
	union {
		uint64_t u;
		int64_t i;
		double d;
		bool b;
		const struct hist *h;
		const struct log2_hist *l2;
		const char *const *sv;
		const double *dv;
		const struct rt_stack *stk;
		struct {
			const void *of; /* RT_FIELDS: struct evsel */
			const struct sample *smp;
		} rec;
		struct {
			const struct rt_desc *d;
			const struct rt_val *v;
		} row;
		struct {
			void (*fn)(void *arg, rt_emit_fn *emit, void *ctx);
			void *arg;
		} each;
	};
	const char *s;
	uint64_t n; /* RT_STRS, RT_ROWS, RT_NUMS: how many; RT_PCT_OF: the whole */
	bool num;   /* RT_STR: the text of the number .i (JSON writes the number) */
	bool real;  /* RT_STR with .num: the number is .d, a real */
	/*
	 * No value: JSON null, and text .s for RT_STR ("<not counted>"), else
	 * "-".  With RT_OMIT_EMPTY a number without one has no member; an
	 * RT_STR's missing value is a NULL .s, so a null RT_STR stays (null).
	 */
	bool null;
};

struct rt_sink;
struct rt_sink_ops {
	void (*fit)(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v);
	void (*begin)(struct rt_sink *k, const struct rt_desc *d);
	void (*row)(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v);
	void (*end)(struct rt_sink *k, const struct rt_desc *d);
};

struct rt_sink {
	const struct rt_sink_ops *ops;
	const struct rt_desc *desc; /* between begin and end */
	struct rt_sink *tap;	    /* between begin and end: rtable__tap's sink, or NULL */
};

void rtable__fit(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v);
void rtable__begin(struct rt_sink *k, const struct rt_desc *d);
void rtable__row(struct rt_sink *k, const struct rt_val *v);
void rtable__end(struct rt_sink *k);
/*
 * A text or JSON sink on @fp (rt_text__init, rt_json__init) renders into
 * @to from now on: its tables' begin, rows and end go to @to, nothing to
 * @fp (fit is dropped).  Joint analysis (cli/joint.c) taps an inner
 * profiler's output stream so that its rows become events of its outer
 * profiler.  @to NULL removes the tap.  0, or -ENOMEM.
 */
int rtable__tap(FILE *fp, struct rt_sink *to);

/* A table of one row: rtable__begin, rtable__row, rtable__end (a record). */
void rtable__one(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v);

/* Columns of a table, at most (top: a key, a comm and 64 values). */
#define RT_MAX_COLS 96

/*
 * The text table: a header line of the titles, then a line per row (and
 * its sub-rows).  @max_rows (0: all) cuts the table, then "... N more".
 * @no_header: rows only.
 */
struct rt_text {
	struct rt_sink sink;
	FILE *fp;
	int max_rows;
	bool no_header;
	int rows;
	int w[RT_MAX_COLS]; /* RT_FIT widths */
};
struct rt_sink *rt_text__init(struct rt_text *t, FILE *fp);
/*
 * The text cells of @c[0..n) as a row prints them (their widths, one space
 * apart), or their titles (@v NULL), into @buf: a row's label elsewhere (a
 * histogram's heading).  Returns its length.
 */
int rt_text__line(const struct rt_col *c, int n, const struct rt_val *v, char *buf, size_t len);

/* JSON lines: {"type":TYPE, the stamp (if any), the columns}, one per row. */
struct rt_json {
	struct rt_sink sink;
	FILE *fp;
	const struct stats_stamp *stamp;
};
struct rt_sink *rt_json__init(struct rt_json *j, FILE *fp, const struct stats_stamp *stamp);
/*
 * One row's members as the JSON sink writes them, into the open object of
 * @j: a row that is part of a line another writer ends (a timeline's
 * "slow" line begins with them).
 */
struct json;
void rt_json__members(struct json *j, const struct rt_desc *d, const struct rt_val *v);
/*
 * A row's members as rt_json__members writes them, kept as text (malloc'd;
 * NULL when out of memory): the value of an RT_JSON column of a record
 * written later (a slow pair's members begin its timeline's line).
 */
char *rt_json__frag(const struct rt_desc *d, const struct rt_val *v);

/* Room for either of the two, for a producer that picks one. */
union rt_sinks {
	struct rt_text text;
	struct rt_json json;
};
/* One record of @d on @fp: a JSON line if @json, else the text table's row. */
void rtable__record(FILE *fp, bool json, const struct rt_desc *d, const struct rt_val *v);

/*
 * A row as an event's fields in text (joint analysis: an inner profiler's
 * row that trace prints): "NAME=CELL" for each column JSON writes, one
 * space apart; an RT_STATS column is calls=, total=, min=, avg=, p50=,
 * p95=, p99=, max= (after "NAME_" if it has a name); histograms, arrays,
 * stacks and records are left out (JSON has them).  Returns its length.
 */
size_t rt_fields__text(const struct rt_desc *d, const struct rt_val *v, char *buf, size_t len);

/* The text of one cell (not RT_STATS, RT_LOG2, RT_JSON) into @buf.  Returns @buf. */
char *rt_cell(const struct rt_col *c, const struct rt_val *v, char *buf, size_t len);

#endif
