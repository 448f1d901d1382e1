/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -o FILE stream (util/ostream.h): it exists from the start of a run,
 * but the file is opened (an old one truncated) only once the run has
 * started, its events on and its workload's exec done: a run that fails
 * before (a command that does not exist) leaves an old file as it was and
 * creates none.  What the profiler printed before waits in memory.
 */
#ifndef PP_CLI_OUTPUT_H
#define PP_CLI_OUTPUT_H

#include <stdio.h>

struct output;

/* The stream for @path, the file not opened yet.  NULL with errno. */
FILE *output__new(const char *path, struct output **o);
/*
 * Open (create or truncate) the file, without following a planted symlink
 * (util/ofile.h), and write what waited.  0 or -errno.
 */
int output__start(struct output *o);
/* Where the errno of the first failed write is kept (0 while none failed). */
const int *output__errno(const struct output *o);
/*
 * Write to the file's path from now on, appended, created if missing
 * (SIGHUP: log rotation).  Flush the stream first.  Returns 0 or -errno
 * (then the old file is still written).
 */
int output__reopen(struct output *o);
/*
 * Close the stream (fclose) and free @o.  Returns 0 or an errno of a
 * failure.  A file never started is not created.
 */
int output__close(FILE *fp, struct output *o);

#endif
