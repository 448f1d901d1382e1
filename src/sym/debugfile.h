/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The separate debug file of an ELF file, looked up where Debian and GDB
 * put them: /usr/lib/debug/.build-id/xx/yyyy.debug, then by the
 * .gnu_debuglink name in the file's own directory, its .debug/ subdirectory
 * and under /usr/lib/debug/.  No debuginfod: no network while profiling.
 */
#ifndef PP_DEBUGFILE_H
#define PP_DEBUGFILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Called on each candidate that is ELF and whose build-id matches (see
 * debugfile__walk); true takes it and ends the search.
 */
typedef bool (*debugfile_accept_fn)(const char *file, void *arg);

/*
 * Try the candidates for the file named @path as its process sees it,
 * each under @root first ("" or "/proc/PID/root": the process's mount
 * namespace) and then as it is.  A candidate must be ELF and, when both it
 * and @build_id (@bid_len bytes, 0 if unknown) carry a build-id, the same
 * one: a debug file of another build gives wrong names and CFI.  The file
 * itself (@path, @root@path) is never a candidate.  @debuglink NULL or a
 * name with a '/' skips the debug link places.  @accept NULL takes the
 * first candidate.  The one taken is copied to @out.  Returns 0, or
 * -ENOENT when none is found.
 */
int debugfile__walk(const char *path, const char *root, const unsigned char *build_id,
		    size_t bid_len, const char *debuglink, debugfile_accept_fn accept, void *arg,
		    char *out, size_t outlen);

/* debugfile__walk taking the first candidate. */
int debugfile__find(const char *path, const char *root, const unsigned char *build_id,
		    size_t bid_len, const char *debuglink, char *out, size_t outlen);

#endif
