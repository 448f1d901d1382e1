/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pprof output: stacks and their values gathered in memory and written at
 * the end as a gzipped profile.proto message, the format that go tool
 * pprof, Pyroscope, Parca and speedscope read.  The encoder is the C code
 * protoc-c generates from the upstream profile.proto at build time.
 *
 * Strings, functions, mappings and locations are deduplicated as they come
 * (ids start at 1, string 0 is ""); samples with the same locations and
 * labels add their values up.
 */
#ifndef PP_PPROF_H
#define PP_PPROF_H

#include <stdint.h>
#include <stdio.h>

#include "sym/stack.h"

#define PPROF_MAX_VALUES 4
#define PPROF_MAX_LABELS 8

struct pprof;

/* A sample type or the period's type: "cpu", "nanoseconds". */
struct pprof_type {
	const char *type, *unit;
};

/* A sample's label: a string (@str not NULL) or a number (@num, in @unit, may be NULL). */
struct pprof_label {
	const char *key;
	const char *str;
	int64_t num;
	const char *unit;
};

/*
 * A profile whose samples carry @nr values (at most PPROF_MAX_VALUES) of
 * the types @types; @main (an index of @types) is the one shown by
 * default.  NULL with errno.
 */
struct pprof *pprof__new(const struct pprof_type *types, int nr, int main);
void pprof__delete(struct pprof *p);

/* Where an address lies in the source: its function's file and first line, its line. */
struct pprof_src {
	const char *file;
	int64_t start_line, line;
};
/* A source lookup: 0 with *@out filled, or an error (nothing known). */
typedef int (*pprof_src_fn)(void *arg, const struct frame_map *fm, struct pprof_src *out);
/*
 * Look up the source of each location whose frame had a file
 * (frame_map.dso), with @fn, once, when the profile is first encoded: the
 * function gets the file (and its first line), the location's line its
 * line number.  Frames without get none.
 */
void pprof__set_src(struct pprof *p, pprof_src_fn fn, void *arg);

/* Each sample stands for @period of @type (a CPU profile's sampling period). */
void pprof__set_period(struct pprof *p, const struct pprof_type *type, int64_t period);
/* When the profile started (ns since the epoch) and how long it ran. */
void pprof__set_time(struct pprof *p, int64_t time_nanos, int64_t duration_nanos);
/* A line for the profile's comments (pprof -comments). */
int pprof__comment(struct pprof *p, const char *text);

/*
 * Add @values to the sample of the stack @frames (@nr, innermost first,
 * as stack__frames gives them) with @labels (@nr_labels, at most
 * PPROF_MAX_LABELS).  @maps (may be NULL) holds the mapping of each frame;
 * a frame without one gets a mapping per file (its range: the addresses
 * seen).  Frames named "[unknown]" get a location without a function (a
 * tool may symbolize the address).  Returns 0 or -ENOMEM (then the
 * profile is marked failed: pprof__write returns the error).
 */
int pprof__add(struct pprof *p, const struct frame *frames, const struct frame_map *maps, int nr,
	       const struct pprof_label *labels, int nr_labels, const int64_t *values);

/* Counts, for tests and -v. */
struct pprof_stats {
	uint32_t samples, locations, functions, mappings, strings;
};
void pprof__stats(const struct pprof *p, struct pprof_stats *st);

/* The profile, encoded (not compressed): *@buf (malloc'd), *@len.  0 or -errno. */
int pprof__pack(struct pprof *p, uint8_t **buf, size_t *len);
/* The profile, encoded and gzipped, to @fp.  0 or -errno. */
int pprof__write(struct pprof *p, FILE *fp);

#endif
