/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-process maps: read from /proc/PID/maps on first use, then kept up
 * to date by MMAP2, exec (COMM), FORK and EXIT records.  Threads share
 * their process's maps (key: pid = tgid).  Processes that exited are kept
 * (the last MAPS_MAX_DEAD, LRU) so that their stacks still resolve.
 */
#ifndef PP_MAPS_H
#define PP_MAPS_H

#include <stdio.h>

#include "sym/dso.h"

#define MAPS_MAX_DEAD 1024
/* Live processes (as far as records tell) before we look for gone ones. */
#define MAPS_SWEEP_MIN 1024

struct map {
	u64 start, end, pgoff;
	struct dso *dso; /* NULL for anonymous memory */
	u64 time;	 /* of its MMAP2 record (0: read from /proc) */
};

struct maps;
struct proc;

struct maps *maps__new(struct dso_cache *dc);
void maps__delete(struct maps *m);
/*
 * Processes held: @live, @dead (exited, kept for their stacks); dead ones
 * dropped so far (@evicted) and live ones found gone without an EXIT
 * record (@vanished).
 */
void maps__stats(const struct maps *m, u32 *live, u32 *dead, u64 *evicted, u64 *vanished);

/* The process @pid, its maps read from /proc if not known yet.  NULL on -ENOMEM. */
struct proc *maps__proc(struct maps *m, u32 pid);
const struct map *proc__find(struct proc *p, u64 addr);

/*
 * @pid's maps read from /proc again, for a live process whose mappings no
 * MMAP2 record follows (none came in the session: stacks copied out of the
 * kernel by BPF programs), when an address is in none of them: a mapping
 * made since the first read (JIT code).  At most once a second a process.
 * Returns the number of mappings read (0: nothing done).
 */
int maps__refresh(struct maps *m, u32 pid);

/*
 * Parse /proc/PID/maps text (or pprof's copy of it) from @fp into @pid,
 * which then never reads /proc.  Only executable mappings are kept.
 * Returns the number of mappings added or -errno.
 */
int maps__load_text(struct maps *m, u32 pid, FILE *fp);

/*
 * A mapping (an MMAP2 record at @time) and an exec (a COMM record's, at
 * @time): without --order they can come out of their order (a process that
 * moved CPU right after its exec): an exec keeps the mappings made after
 * it, and a mapping older than the exec seen is the old image's.  @time 0:
 * unknown (an exec then replaces every mapping).
 */
void maps__mmap(struct maps *m, u32 pid, u64 start, u64 len, u64 pgoff, const char *path, u32 maj,
		u32 min, u64 ino, const unsigned char *bid, int bid_len, u64 time);
void maps__exec(struct maps *m, u32 pid, u64 time);
/* The records' clock (@now(@arg)): mappings read from /proc are stamped with it. */
void maps__set_clock(struct maps *m, u64 (*now)(void *), void *arg);
/*
 * The number of @pid's image: another one after an exec, an exit, or when
 * the pid is reused (never 0 but on -ENOMEM).  What is cached by a pid's
 * addresses is that image's.
 */
u32 maps__image(struct maps *m, u32 pid);
void maps__exit(struct maps *m, u32 pid);
void maps__fork(struct maps *m, u32 ppid, u32 pid);

struct resolved {
	const char *sym; /* NULL when unresolved */
	u64 off;
	const char *dso;
	const struct map *map; /* the mapping @lookup lies in, NULL if none */
	u64 vaddr;	       /* @lookup as a link-time address of map's file (in_file) */
	bool in_file;	       /* the file's symbols were read: vaddr is valid */
};

/*
 * Name @addr in process @pid; the symbol search uses @lookup (addr - 1 for
 * return addresses) but the offset is that of @addr.
 */
void maps__resolve(struct maps *m, u32 pid, u64 addr, u64 lookup, struct resolved *r);

/*
 * Each mapping of @pid (executable ones, in address order) to @fn, with
 * the pid its files open through (0 for a process gone: by their paths),
 * until @fn returns non-zero: that, or 0.
 */
int maps__each(struct maps *m, u32 pid, int (*fn)(void *arg, const struct map *mp, u32 open_pid),
	       void *arg);

/*
 * Whether @addr lies in an executable mapping of @pid: 1 yes, 0 no, -1 when
 * nothing is known of the process's mappings (then nothing can be judged).
 */
int maps__in_exec(struct maps *m, u32 pid, u64 addr);

/* The mapping of @addr in @pid with an openable path (for the unwinder). */
const struct map *maps__find(struct maps *m, u32 pid, u64 addr);

#endif
