/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A key -> columns table, perf-top style: each key (a number or a string)
 * has a label (what prints in the key column), a comm, and one 64-bit sum
 * per column; rows print sorted by the "by" columns in order, then by the
 * other columns, largest first, and are dropped at each reset (interval).
 * On a terminal, a screen view redraws in place within its height.
 * Memory is bounded: past TOP_MAX_ROWS keys in one interval, samples of new
 * keys are counted as not kept.
 */
#ifndef PP_TOP_TABLE_H
#define PP_TOP_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TOP_MAX_ROWS (1u << 20)
#define TOP_KEY_MAX 64 /* string keys are cut to this many bytes */

struct top_table;
struct top_row;

struct top_col {
	const char *title;
	bool by; /* sort by it (top-by), in column order */
};

/* @key_title: "TID", "COMM", "KEY"...; @comm: a COMM column after the key. */
struct top_table *top_table__new(const char *key_title, bool comm, const struct top_col *cols,
				 int ncols);
void top_table__delete(struct top_table *t);

/*
 * The row of a number key (@str NULL) or a string key (@str, @len bytes),
 * created with every column 0; *@created tells whether it is new (give it
 * a label then).  NULL when out of memory or over TOP_MAX_ROWS (counted).
 */
struct top_row *top_table__row(struct top_table *t, uint64_t num, const char *str, int len,
			       bool *created);
void top_row__set_label(struct top_row *r, const char *label, int len);
void top_row__set_comm(struct top_row *r, const char *comm, int len);
/* Add @v to column @col (@neg: @v is a negative s64, printed signed). */
void top_row__add(struct top_table *t, struct top_row *r, int col, uint64_t v, bool neg);

/* Keys in the table now. */
unsigned top_table__nr_rows(const struct top_table *t);
/*
 * The rows, sorted, under a header line; at most @max_rows rows (0: all)
 * and "... N more" when cut.  Then "N samples of new keys not kept" if any.
 */
void top_table__print(struct top_table *t, FILE *out, int max_rows);
/*
 * The rows, sorted, to the sink @k (rtable.h), all of them: text, the
 * table as top_table__print prints it (without its last line); JSON, one
 * line each, {"type":"row", the stamp, KEY:label,"comm":"..",
 * "values":{TITLE:N}}: KEY is "tid", "comm" or "key" by the key column's
 * title; a label that came from a number is a number.  The samples of new
 * keys not kept: top_table__not_kept.  Returns 0 or -ENOMEM (nothing sent).
 */
struct rt_sink;
int top_table__emit(struct top_table *t, struct rt_sink *k);
uint64_t top_table__not_kept(const struct top_table *t);
/* Drop every row (a new interval). */
void top_table__reset(struct top_table *t);

/*
 * A screen for the table: when @out is a terminal, clear it and put the
 * cursor home, and return the rows it has (following resizes; a very
 * large number when it does not say); otherwise return 0 and write nothing.
 */
int top_screen__begin(FILE *out);

#endif
