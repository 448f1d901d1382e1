/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stdio stream over a file descriptor that keeps the errno of the first
 * write that failed.  stdio keeps only an error flag, and by the time it is
 * looked at errno belongs to some later call: a full disk said
 * "Input/output error" (or ENOENT of an unrelated open) instead of "No
 * space left on device".
 *
 * The stream can exist before its file: what is written before
 * ostream__attach waits in memory, so that an output is opened (and an
 * old file truncated) only once there is something certain to write, and
 * a stream closed without a file leaves no file at all.
 */
#ifndef PP_OSTREAM_H
#define PP_OSTREAM_H

#include <stdio.h>

struct ostream;

/* A stream writing to @fd (owned from now on), or -1: none yet.  NULL with errno. */
FILE *ostream__open(int fd, struct ostream **os);
/*
 * Write to @fd (owned from now on) from now on, what waited in memory
 * first; the previous fd, if any, is closed (flush the stream before).
 * 0 or -errno of writing what waited.
 */
int ostream__attach(struct ostream *os, int fd);
/* The fd written to, -1 while none is attached. */
int ostream__fd(const struct ostream *os);
/* Where the errno of the first failed write is kept (0 while none failed). */
const int *ostream__errno(const struct ostream *os);
/*
 * fclose @fp and free @os: 0, or -errno of the first failure (a write, the
 * flush, the close).  What waited for a file that never came is dropped.
 */
int ostream__close(FILE *fp, struct ostream *os);

#endif
