/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A latency table: rows under a key (a state, a thread and its state, an
 * exit reason, an event pair), each a histogram of totals plus optional
 * named sub-rows (task-state's "sleep" and "runq"), printed through
 * stats_table and reset per interval (-i).
 *
 *   STATE          calls       total  ...
 *   S                200      1.012s  ...
 *     sleep          198      1.001s  ...
 *     runq           198     11.021ms ...
 *
 * Rows print ordered by their group (a profiler's key order: the state),
 * then by total time, largest first.  A row or sub-row with no values in
 * the interval is not printed.  Memory: one row per key seen in the
 * interval when rows are dropped at each reset (per-thread keys), else one
 * per key for the run.
 */
#ifndef PP_LAT_TABLE_H
#define PP_LAT_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LAT_MAX_SUB 4
#define LAT_LABEL 128

struct lat_table;
struct lat_row;

/*
 * @key_title: the key column's title, padded to the labels' width.
 * @subs: NULL-terminated names of the sub-rows (at most LAT_MAX_SUB).
 * @flags: LAT_DROP_ROWS: lat_table__reset frees the rows (keys that come
 * and go); LAT_PLAIN: the values are plain numbers (bytes, counts), not
 * times in ns, and print as such; LAT_LOG2: rows keep a log2 histogram
 * too (lat_table__print_log2).  (A bool true is LAT_DROP_ROWS.)
 */
#define LAT_DROP_ROWS 0x1
#define LAT_PLAIN 0x2
#define LAT_LOG2 0x4 /* each row also keeps a log2 histogram of its totals */
struct lat_table *lat_table__new(const char *key_title, const char *const *subs, unsigned flags);
void lat_table__delete(struct lat_table *t);

/*
 * The key's columns, declared once (report/rtable.h: name, title, type,
 * width; strings must outlive the table): the text prints them first, in
 * their widths (their titles replace @key_title), JSON writes them first
 * after the stamp.  At most LAT_MAX_KEYS.  Returns 0, -EINVAL or -ENOMEM.
 * Without them, the owner gives each row a label (text only: JSON rows
 * have no key).
 */
#define LAT_MAX_KEYS 4
struct rt_col;
struct rt_val;
int lat_table__set_keys(struct lat_table *t, const struct rt_col *keys, int n);
/*
 * The row's key values, in the key columns' order (strings are copied, with
 * .num and .i: rtable.h).  0 or -ENOMEM.
 */
int lat_row__set_keys(struct lat_table *t, struct lat_row *r, const struct rt_val *v);

/* The row of @key (made on first use); @label is set when it is made or non-NULL. */
struct lat_row *lat_table__row(struct lat_table *t, uint64_t key, int group, const char *label);
/* The same under a two-word key (a syscall and a thread, a pair of points and a key). */
struct lat_row *lat_table__row2(struct lat_table *t, uint64_t key, uint64_t key2, int group,
				const char *label);
/* Record one total, and one value per sub-row (@sub: as many as subs, or NULL). */
int lat_table__record(struct lat_table *t, struct lat_row *r, uint64_t total, const uint64_t *sub);
/*
 * Record the values of @h (counted elsewhere: a BPF map's row), @marked of
 * them marked (lat_row__mark).  Not counted above the threshold (a table
 * with --than records one total at a time).  0 or -ENOMEM.
 */
struct hist;
int lat_table__merge(struct lat_table *t, struct lat_row *r, const struct hist *h, uint64_t marked);
/* The same for sub-row @sub (0: the first of subs) of @r.  0, -EINVAL or -ENOMEM. */
int lat_table__merge_sub(struct lat_table *t, struct lat_row *r, int sub, const struct hist *h);
/*
 * Count columns after max, "N (x.x%)" of the row's calls: with a threshold
 * (--than), the totals above @ns, titled ">10ms" (LAT_PLAIN: ">100", a
 * number, JSON "than" instead of "than_ns"); with a mark (@title
 * "errors"), the records lat_row__mark counted.  0 / NULL: no column.
 */
void lat_table__set_than(struct lat_table *t, uint64_t ns);
void lat_table__set_mark(struct lat_table *t, const char *title);
/* The totals below @ns (multi-trace --lower), titled "<1ms", JSON "lower_ns" and "fast". */
void lat_table__set_lower(struct lat_table *t, uint64_t ns);
void lat_row__mark(struct lat_row *r);
/* Add @n to the threshold's column: totals above it counted elsewhere (a BPF map's row). */
void lat_row__add_over(struct lat_row *r, uint64_t n);
/* Update the label (a thread renamed itself). */
void lat_row__label(struct lat_row *r, const char *label);

void lat_table__print(struct lat_table *t, FILE *fp);

/*
 * The rows lat_table__print prints, in its order, to the sink @k (rtable.h):
 * text, the table as lat_table__print prints it; JSON, one line each,
 * {"type":"row", the sink's stamp, the row's key, its statistics (count,
 * total_ns, ..., max_ns; without "_ns" for LAT_PLAIN), "than_ns" and
 * "slow" (the totals above it) with a threshold, the mark column's count
 * under its title ("errors", "guest_kernel"), each sub-row that has values
 * as an object of its statistics ("sleep":{...}), and with LAT_LOG2 the
 * log2 histogram ("hist":[{"lo_ns":..,"hi_ns":..,"count":..}])}.
 */
struct rt_sink;
void lat_table__emit(struct lat_table *t, struct rt_sink *k);
/*
 * LAT_LOG2: each row's log2 histogram, in the table's order, under its
 * label, the key column's title in parentheses and @what (NULL: none):
 * "syscalls:sys_enter_write 1 (EVENT CPU)"; the value column titled @title.
 */
void lat_table__print_log2(struct lat_table *t, FILE *fp, const char *what, const char *title);
/* Empty the histograms (or free the rows, see drop_rows). */
void lat_table__reset(struct lat_table *t);
/* Rows held now. */
unsigned lat_table__rows(const struct lat_table *t);

#endif
