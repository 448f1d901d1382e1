/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF unwinding of user stacks from the registers and the stack copy
 * that a sample carries (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER).
 * Frame-pointer callchains stop in code built without frame pointers
 * (Debian's libc); CFI from .eh_frame / .debug_frame does not.
 *
 * The unwinder knows nothing about process maps: the caller passes a
 * lookup function (sym/stack.c's per-process maps), so that stacks of a
 * process that already exited still unwind.  Per-process state (the ELF
 * files and their CFI) is cached until unwinder__forget().
 */
#ifndef PP_UNWIND_H
#define PP_UNWIND_H

#include "engine/sample.h"

/* One file mapping of a process.  @path must be openable by us (prefix it
 * with /proc/PID/root for other mount namespaces); "[vdso]" is understood. */
struct unwind_map {
	u64 start, end, pgoff;
	const char *path;
};

/* Return the mapping containing @addr, or NULL.  The result need only stay
 * valid until the next call. */
typedef const struct unwind_map *(*unwind_find_map_fn)(void *arg, u64 addr);

struct unwinder;

/* Returns NULL with errno set. */
struct unwinder *unwinder__new(void);
void unwinder__delete(struct unwinder *u);

/*
 * Unwind the user stack of @smp (uses smp->pid/tid, smp->regs/regs_mask/
 * regs_abi, smp->stack/stack_size/stack_dyn_size); writes IPs innermost
 * first into ips[] (ips[0] = the sampled user IP, the others return
 * addresses), returns the count (>= 0) or -errno: -EINVAL without usable
 * registers, -ENOTSUP for 32-bit processes or other architectures.
 */
int unwinder__user(struct unwinder *u, const struct sample *smp, unwind_find_map_fn find, void *arg,
		   u64 *ips, int max);

/* Forget cached state of a process (exec/exit). */
void unwinder__forget(struct unwinder *u, u32 pid);

/* The register mask to request in perf_event_attr.sample_regs_user here. */
u64 unwinder__regs_mask(void);

#endif
