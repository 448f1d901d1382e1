/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols from /proc/kallsyms (core kernel, modules, BPF programs). */
#ifndef PP_KSYMS_H
#define PP_KSYMS_H

#include "sym/symtab.h"

struct ksyms;

/*
 * Load @path (NULL: /proc/kallsyms).  Returns 0, -EPERM when the kernel
 * hides the addresses (all zero), or another -errno.
 */
int ksyms__load(const char *path, struct ksyms **out);
void ksyms__delete(struct ksyms *ks);

/*
 * The text symbol containing @addr or NULL; @dso (may be NULL) gets
 * "[kernel.kallsyms]" or "[module]".
 */
const struct sym *ksyms__find(struct ksyms *ks, u64 addr, const char **dso);

/*
 * The variable containing @addr (a data address) or NULL: kallsyms' d, D,
 * b, B, r and R symbols (all of them only with CONFIG_KALLSYMS_ALL), read
 * at the first call; a symbol ends where the next one starts (kallsyms
 * has no sizes).  A kallsyms of fewer than 1000 (no CONFIG_KALLSYMS_ALL:
 * section markers only) names nothing.  @dso as for ksyms__find.
 */
const struct sym *ksyms__find_data(struct ksyms *ks, u64 addr, const char **dso);

size_t ksyms__nr(const struct ksyms *ks);

#endif
