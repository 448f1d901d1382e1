/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source lines from DWARF: where an address of an ELF file lies in the
 * source, for pprof's functions and lines.  Each file is opened once
 * (libdw) and kept until srclines__delete.
 */
#ifndef PP_SRCLINE_H
#define PP_SRCLINE_H

#include "engine/sample.h"

struct srclines;

/*
 * The function an address is in (the outermost one, where code was
 * inlined into it): the file it is defined in and its first line; and the
 * line of the address in that file (for inlined code, the line of the
 * call).  Strings are owned by the srclines.
 */
struct srcline {
	const char *file;
	int fn_line; /* 0: not known */
	int line;    /* 0: not known */
};

struct srclines *srclines__new(void);
void srclines__delete(struct srclines *sl);

/*
 * @vaddr (a link-time address) in the DWARF of @path (the object, or its
 * separate debug file).  0, or -ENOENT when the file has no DWARF for it.
 */
int srclines__find(struct srclines *sl, const char *path, u64 vaddr, struct srcline *out);

#endif
