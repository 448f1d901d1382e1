/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data symbols: the variable a data address lies in (a PEBS sample's data
 * address, a watched address), beside the function lookup of stacks.  A
 * kernel address is named from kallsyms' variables (ksyms__find_data); a
 * user one from the OBJECT symbols (.symtab, .dynsym or the debug file's)
 * of the file mapped there.  The process maps that name code keep only
 * executable mappings: these keep every mapping of a process, read from
 * /proc/PID/maps at the first address and again (at most once a second)
 * when an address is in none, for DATASYM_PROCS processes (the least
 * recently used go).  An address in anonymous memory right after a file's
 * mapping is in that file's .bss (the part past the file's last page).
 */
#ifndef PP_DATASYM_H
#define PP_DATASYM_H

#include <stdbool.h>

#include "engine/sample.h"

#define DATASYM_PROCS 64

struct datasyms;
struct dso_cache;
struct ksyms;

struct data_sym {
	const char *sym; /* the variable; valid until the dso cache (ksyms) goes */
	u64 off;	 /* the address - the variable's start */
	const char *dso; /* "[kernel.kallsyms]", a module "[ext4]", or the file's path */
	bool kernel;
};

/* Files from @dc (not owned). NULL on -ENOMEM. */
struct datasyms *datasyms__new(struct dso_cache *dc);
void datasyms__delete(struct datasyms *ds);

/* The variable of user address @addr in process @pid: 0 with @out set, or -ENOENT. */
int datasyms__user(struct datasyms *ds, u32 pid, u64 addr, struct data_sym *out);
/* The variable of kernel address @addr in @ks: 0 with @out set, or -ENOENT. */
int datasyms__kernel(struct ksyms *ks, u64 addr, struct data_sym *out);

#endif
