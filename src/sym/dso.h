/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files that processes map, cached once for all processes: a dso is
 * one file as mapped (path + device + inode, or build-id); its symbols
 * are loaded on first use and shared by build-id between dsos (the same
 * library seen through different mount namespaces).
 */
#ifndef PP_DSO_H
#define PP_DSO_H

#include <stdbool.h>

#include "sym/elfsyms.h"

struct dso;
struct dso_cache;

struct dso_cache *dso_cache__new(void);
/* Frees every dso: names handed out stay valid until here. */
void dso_cache__delete(struct dso_cache *dc);

/*
 * The dso for @path (as in /proc/PID/maps or MMAP2), with a reference.
 * "[vdso]" is the kernel's vdso; other "[...]" names and "//anon" are
 * pseudo files without symbols.  @bid may be NULL.  NULL on -ENOMEM.
 */
struct dso *dso_cache__get(struct dso_cache *dc, const char *path, u32 maj, u32 min, u64 ino,
			   const unsigned char *bid, int bid_len);
void dso__get(struct dso *d);
void dso__put(struct dso *d);

const char *dso__name(const struct dso *d);
/* The separate debug file its symbols came from, NULL if none (or not loaded). */
const char *dso__debug_path(const struct dso *d);
/* Its build-id (from MMAP2, or the file once its symbols are loaded), NULL if not known. */
const unsigned char *dso__build_id(const struct dso *d, int *len);
bool dso__is_file(const struct dso *d);

/*
 * The symbols of @d, loaded on first call: the file is opened as process
 * @pid sees it (/proc/PID/root), or through the mapping [@start, @end)
 * (/proc/PID/map_files) when it was deleted or replaced.  @pid 0: open
 * the path as is.  NULL if the file cannot be read (warned once).
 */
struct elfsyms *dso__syms(struct dso_cache *dc, struct dso *d, u32 pid, u64 start, u64 end);

/* A path that opens the file (after dso__syms), NULL if none. */
const char *dso__open_path(const struct dso *d);
/*
 * dso__open_path(), re-resolved through process @pid and its mapping
 * [@start, @end) when it was a /proc/PID/ path of a process now gone.
 */
const char *dso__path_for(struct dso *d, u32 pid, u64 start, u64 end);

#endif
