/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flame graphs: folded stacks ("root;...;leaf WEIGHT") aggregated in
 * memory, written as NAME.folded and/or drawn as an interactive SVG.
 */
#ifndef PP_FLAME_H
#define PP_FLAME_H

#include <stdint.h>
#include <stdio.h>

#include "sym/stack.h"

struct flame;

/*
 * @name: from --flame-graph.  "x.svg" writes the SVG (x.svg), anything else
 * writes NAME.folded.  @title: SVG title ("Off-CPU Time Flame Graph").
 * @count_name: unit of the weights ("samples", "us", "ms", "bytes").
 */
struct flame *flame__new(const char *name, const char *title, const char *count_name);
void flame__delete(struct flame *f);

/*
 * Add one stack: @comm becomes the root frame, then the frames of @frames
 * (innermost first, as stack__frames returns them) are reversed so the
 * root comes first, with a "-" separator frame between user and kernel
 * frames; @leaf (may be NULL) is appended as the last frame (e.g. a task
 * state).  Weights of identical stacks add up.
 */
void flame__add(struct flame *f, const char *comm, const struct frame *frames, int nr,
		const char *leaf, uint64_t weight);

/* For -i: the next stacks get a root timestamp frame "YYYY-MM-DD HH:MM:SS". */
void flame__interval(struct flame *f, const char *timestamp);

/* Write the output file(s). Returns 0 or -errno. */
int flame__write(struct flame *f);

/*
 * Turn a .folded file into an SVG (the "flamegraph" subcommand).  Lines
 * that are not "STACK COUNT" (ftrie__parse_folded_line) are skipped and
 * counted in @st (may be NULL), which also gets the first one's number
 * and the sum of the counts.  Returns 0, -ENODATA for a file without a
 * line or whose counts are all 0, -EINVAL if no line is "STACK COUNT",
 * -EISDIR for a directory, -EOVERFLOW with st->err_line when the counts
 * do not fit in 64 bits, -errno.
 */
struct folded_stats;
int flame__folded_to_svg(const char *folded, const char *svg, const char *title,
			 const char *count_name, struct folded_stats *st);

#endif
