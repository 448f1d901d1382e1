/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -o FILE stream: stdio over the file, remembering the errno of the
 * write that failed.  stdio keeps only an error flag, and by the time it is
 * looked at errno belongs to some later call (an open of /proc/PID/comm
 * made "-o /dev/full" report ENOENT).
 */
#ifndef PP_CLI_OUTPUT_H
#define PP_CLI_OUTPUT_H

#include <stdio.h>

struct output;

/* Open @path for writing (truncated).  NULL with errno set on failure. */
FILE *output__open(const char *path, struct output **o);
/* Where the errno of the first failed write is kept (0 while none failed). */
const int *output__errno(const struct output *o);
/*
 * Write to @path from now on, appended, created if missing (SIGHUP: log
 * rotation).  Flush the stream first.  Returns 0 or -errno (then the old
 * file is still written).
 */
int output__reopen(struct output *o, const char *path);
/* Close the stream (fclose) and free @o.  Returns 0 or an errno of a failure. */
int output__close(FILE *fp, struct output *o);

#endif
