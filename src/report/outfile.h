/* SPDX-License-Identifier: GPL-2.0 */
/*
 * End-of-run output files are written to a temporary name beside the
 * target and renamed over it once complete: a failed or killed run leaves
 * the old file (or none), never a truncated one.  What a rename would
 * destroy is written in place instead: a device (/dev/null), a symlink
 * (/dev/stdout, a link the user keeps), a FIFO, a file with other hard
 * links; so is a file whose directory takes no new files.
 */
#ifndef PP_OUTFILE_H
#define PP_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/opt.h"

/* The output group: -o FILE. */
struct output_opts {
	const char *path;
	bool json; /* --json: JSON lines (util/json.h) */
};
extern const struct opt_group output_group;

/* Could @path be written (created or replaced)?  0 or -errno; touches nothing. */
int outfile__check(const char *path);

/*
 * Create a new file beside @path for writing; *@tmp gets its name (NULL
 * when @path itself is written in place).  NULL with errno.
 */
FILE *outfile__create(const char *path, char **tmp);

/*
 * Close @fp; if @err is 0 and everything reached the file, rename @tmp to
 * @path, otherwise remove @tmp (nothing to rename when written in place).
 * Frees @tmp.  Returns @err, or -errno.
 */
int outfile__commit(FILE *fp, char *tmp, const char *path, int err);

#endif
