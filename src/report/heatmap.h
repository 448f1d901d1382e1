/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report/heatmap.h: latency heat maps.  A .lat file has one "TIME LATENCY"
 * line per measured pair (both unsigned decimal nanoseconds; TIME is the
 * pair's start in the events' clock); blank lines and lines starting with
 * '#' are skipped, and so is a last line without its newline that does not
 * parse (a line still being written to a live file).  The SVG: time across (columns), latency up (log2-spaced
 * rows, [2^k, 2^(k+1)) ns, the lowest [0, 2)), each cell coloured by how
 * many pairs fell in it, a hover <title> on each cell giving its time
 * range, latency range and count.  Memory does not depend on the number of
 * lines: the .lat is read twice (ranges, then a grid of at most
 * HEATMAP_MAX_COLS x 64 cells).
 */
#ifndef PP_HEATMAP_H
#define PP_HEATMAP_H

#include <stdint.h>

#define HEATMAP_MAX_COLS 200

struct heatmap;

/*
 * Open NAME for writing the .lat (written as pairs come, flushed at
 * heatmap__close; created or truncated in place, a long run's file grows
 * live; a planted symlink is not followed: util/ofile.h).  NULL with errno
 * (OFILE_E*: such a name refused, util/ofile.h).
 */
struct heatmap *heatmap__open(const char *lat_path);
/*
 * The same for plain numbers over time (num-dist's values), not latencies:
 * the .lat begins with the comment line HEATMAP_NUMBERS_LINE, and the SVG
 * drawn from it (here or by the heatmap command) shows values and events
 * where a latency map shows latencies and pairs, its rows labelled 1, 2,
 * 4 ... 512, 1K, 2K ... (1024 each).
 */
#define HEATMAP_NUMBERS_LINE "# perf-prof heat map of numbers"
struct heatmap *heatmap__open_numbers(const char *lat_path);

/* One pair (or number, @latency_ns the number).  0 or -errno (a write error is remembered and returned by close too). */
int heatmap__add(struct heatmap *h, uint64_t time_ns, uint64_t latency_ns);

/*
 * Close the .lat; if @svg_path is non-NULL, draw it from the .lat just
 * written (heatmap__lat_to_svg: -ENODATA if no pair was added).  Frees @h.
 * 0 or -errno.
 */
int heatmap__close(struct heatmap *h, const char *svg_path, const char *title);

struct lat_stats {
	unsigned long lines;	 /* lines that are neither blank nor '#' comments */
	unsigned long bad;	 /* of those, not "TIME LATENCY": skipped */
	unsigned long first_bad; /* the first of those (1-based line number), 0 if none */
};

/*
 * Draw @svg from the .lat file @lat (@title: NULL or "" for "Latency Heat
 * Map").  A line is "TIME LATENCY", two whole decimal numbers of
 * nanoseconds (at most 64 bits) separated by blanks; blank lines and '#'
 * comments are ignored; any other line is skipped and counted in @st (may
 * be NULL), with the number of the first.  The SVG is written to a
 * temporary file renamed over @svg (report/outfile.h).  0, -ENODATA for a
 * file without a line, -EINVAL for one without a single valid line,
 * -EISDIR, -errno.
 */
int heatmap__lat_to_svg(const char *lat, const char *svg, const char *title, struct lat_stats *st);

#endif
