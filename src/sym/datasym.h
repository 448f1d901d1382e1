/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data symbols: the variable a data address lies in (a PEBS sample's data
 * address, a watched address), beside the function lookup of stacks.  A
 * kernel address is named from kallsyms' variables (ksyms__find_data); a
 * user one from the OBJECT symbols (.symtab, .dynsym or the debug file's)
 * of the file whose memory it is.  That file is found through the
 * process's executable mappings (the maps that name code, which MMAP2
 * records keep up to date, also after the process exited): each file
 * mapped there is loaded at one bias (its code mapping's address less the
 * link-time address of its file offset), so the address less that bias
 * is a link-time address of the file; the file whose variable holds it is
 * the one (files' memory does not overlap).  Its data, its .bss past the
 * file's last page (anonymous memory), its read-only data: all named.
 * Heap, stack and anonymous memory have no variable.
 */
#ifndef PP_DATASYM_H
#define PP_DATASYM_H

#include <stdbool.h>

#include "engine/sample.h"

struct dso_cache;
struct ksyms;
struct maps;

struct data_sym {
	const char *sym; /* the variable; valid until the dso cache (ksyms) goes */
	u64 off;	 /* the address - the variable's start */
	const char *dso; /* "[kernel.kallsyms]", a module "[ext4]", or the file's path */
	bool kernel;
};

/* The variable of user address @addr in process @pid (@m's): 0 with @out set, or -ENOENT. */
int datasym__user(struct maps *m, struct dso_cache *dc, u32 pid, u64 addr, struct data_sym *out);
/* The variable of kernel address @addr in @ks: 0 with @out set, or -ENOENT. */
int datasym__kernel(struct ksyms *ks, u64 addr, struct data_sym *out);

#endif
