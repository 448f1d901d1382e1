/* SPDX-License-Identifier: GPL-2.0 */
/*
 * End-of-run output files are written to a temporary name beside the
 * target and renamed over it once complete: a failed or killed run leaves
 * the old file (or none), never a truncated one.  What a rename would
 * destroy is written in place instead: a device (/dev/null), a symlink
 * (/dev/stdout, a link the user keeps), a FIFO, a file with other hard
 * links; so is a file whose directory takes no new files.  Every file is
 * created through util/ofile.h: a symlink another user planted in /tmp is
 * not followed.
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

/*
 * Could @path be written (created or replaced)?  0 or -errno; touches
 * nothing.  -OFILE_E*: a name ofile refuses (util/ofile.h: say why with
 * ofile__strerror, as for any error here).
 */
int outfile__check(const char *path);

struct outfile;

/*
 * Create a new file beside @path for writing (util/ofile.h: an
 * unpredictable name, removed if a fatal signal comes first), or open
 * @path itself when it is written in place; *@of gets what
 * outfile__commit needs.  The stream keeps the errno of its first failed
 * write.  NULL with errno (OFILE_E*: a planted name refused).
 */
FILE *outfile__create(const char *path, struct outfile **of);

/*
 * Open @path for appending (created if missing): a folded file written at
 * every -i interval after its first write.  Planted symlinks refused as by
 * outfile__create.  NULL with errno.
 */
FILE *outfile__append(const char *path, struct outfile **of);

/*
 * Close @fp; if @err is 0 and everything reached the file, put the
 * temporary in place of the target, otherwise remove it (nothing to rename
 * when written in place).  Frees @of.  Returns @err, or -errno of the
 * first failure (a full disk is ENOSPC, not EIO).
 */
int outfile__commit(FILE *fp, struct outfile *of, int err);

#endif
