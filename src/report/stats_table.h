/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency statistics table shared by task-state, kvm-exit and
 * multi-point latency profilers: one row per key (state, comm, thread...)
 *
 *   KEY...        calls      total        min        avg        p50        p95        p99        max
 *   S               200     1.012s    5.050ms    5.062ms    5.061ms    5.080ms    5.091ms    5.120ms
 *
 * Every time value carries its own unit (ns, us, ms, s) with 3 decimals,
 * right-aligned in a fixed width, so columns stay aligned and each value
 * stays readable whatever its magnitude.
 *
 * Numbers that are not times (num-dist: bytes, counts, sizes) print plain
 * with STATS_PLAIN: integers as they are, the average with two decimals.
 */
#ifndef PP_STATS_TABLE_H
#define PP_STATS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/rtable.h"

struct hist;

/*
 * The statistics of a histogram are a column type of report/rtable.h,
 * RT_STATS: these print one text row (or a header) with it, for callers
 * that print rows one at a time.  Tables go through rtable.
 */
/* Width of one value column. */
#define STATS_COL_WIDTH RT_STATS_WIDTH

/* @key_title: the key columns' titles, already padded by the caller to the keys' width. */
void stats_table__header(FILE *fp, const char *key_title);
/* One row: @key (padded like the title), then the statistics of @h. */
void stats_table__row(FILE *fp, const char *key, const struct hist *h);

/* Flags of stats_table__row_ex. */
#define STATS_PLAIN 0x1 /* plain numbers, not times */
void stats_table__row_ex(FILE *fp, const char *key, const struct hist *h, unsigned flags);

/* "812ns", "12.345us", "5.062ms", "1.234s".  Returns @buf. */
char *stats_table__fmt_ns(uint64_t ns, char *buf, size_t len);

/*
 * --json: when a table's numbers were taken, written first in each of its
 * rows (rt_json__init's stamp): "scope" ("interval": one -i interval's, reset after it; "run": the
 * whole run's, at its end without -i; "so_far": SIGUSR1's, not reset),
 * "time_ns" (wall clock, ns since the epoch) and "interval_ns", the span
 * its numbers cover (since the events were enabled, or since the previous
 * -i interval: the last table of a run with -i covers what came after the
 * last interval).
 */
struct json;
struct session;
struct stats_stamp {
	const char *scope;
	uint64_t time_ns, interval_ns;
};
/* What a table is printed for. */
enum { STATS_END, STATS_INTERVAL, STATS_SO_FAR };
/*
 * The stamp of a table printed now for @when (STATS_*); *@since (0 at
 * first) is where its span begins, in the events' clock, and moves to now
 * at STATS_INTERVAL.
 */
void stats_stamp__now(struct session *s, uint64_t *since, int when, struct stats_stamp *st);
void stats_stamp__json(struct json *j, const struct stats_stamp *st);
/*
 * The sink of a table printed now for @when: with --json, JSON lines
 * stamped with *@st (stats_stamp__now over *@since); else the text table,
 * after the time on a line of its own for an interval or a snapshot.
 */
struct rt_sink *stats_stamp__sink(struct session *s, union rt_sinks *u, struct stats_stamp *st,
				  uint64_t *since, int when);
/*
 * A note under such a table (values not counted): "WHO: MSG" on a line of
 * the output; with --json on stderr (session__warn), the output holding
 * JSON only.
 */
void stats_note(struct session *s, const char *who, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * A sentence of a drops record's text (lines apart by '\n') when @n is not
 * 0: "WHO: " and @fmt's words appended at @at of @buf (@len); the new
 * length (@len when full).
 */
size_t stats_drop_line(char *buf, size_t at, size_t len, uint64_t n, const char *who,
		       const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
