/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space allocators through uprobes: malloc, calloc, realloc,
 * reallocarray, memalign, aligned_alloc, valloc, pvalloc, posix_memalign,
 * free, C++ new/delete (every variant) and, if asked, mmap/munmap, in each
 * file the target maps (or, for a command, the files the dynamic linker
 * will load) that defines them.  Entry arguments are paired with return
 * values per thread; a call made inside another (operator new calling
 * malloc, delete calling free) counts once, as the outermost.
 */
#ifndef PP_UMALLOC_H
#define PP_UMALLOC_H

#include <stdbool.h>

#include "engine/session.h"

struct umalloc;

struct umalloc_ops {
	/*
	 * An allocation of @size bytes at @ptr (0: it failed); @smp is the
	 * return's sample: its stack is the allocation's (the caller's).
	 */
	void (*alloc)(void *arg, struct session *s, const struct sample *smp, u64 ptr, u64 size);
	void (*free)(void *arg, struct session *s, const struct sample *smp, u64 ptr);
};

struct umalloc_stats {
	u64 nested;	/* calls inside an outer allocator call, not counted again */
	u64 unmatched;	/* a return without its entry (after lost events) */
	u64 late_reads; /* posix_memalign results read from the process, not the sample */
	u64 unreadable; /* posix_memalign results that could not be read: not counted */
	u64 unwound;	/* calls left by an exception or longjmp (no return seen) */
	int files;	/* files probed */
	int probes;	/* events added */
};

/*
 * Add the probes for the session's target (-p, -t or -- COMMAND; else a
 * usage error), each with its handler, and the module's hooks (lost
 * records, task exits): @ops sees the pairs, the profiler needs no hooks of
 * its own for them.  @mmap: mmap/munmap too.  0 or -errno with the message
 * set.
 */
int umalloc__add(struct session *s, bool mmap, const struct umalloc_ops *ops, void *arg,
		 struct umalloc **out);
/*
 * The pairing alone (umalloc__add uses them; tests too): an empty set, and
 * @ev as the entry (or, @ret, the return) probe of allocator function @fn
 * ("malloc", "_Znwm", ...).  0, -ENOENT (not one of them) or -ENOMEM.
 */
struct umalloc *umalloc__new(const struct umalloc_ops *ops, void *arg);
int umalloc__watch(struct umalloc *u, struct evsel *ev, const char *fn, bool ret);
/* Whether @ev is one of its events (then the sample was taken). */
bool umalloc__sample(struct umalloc *u, struct session *s, struct evsel *ev,
		     const struct sample *smp);
/* After lost records: pending entries may have lost their returns. */
void umalloc__lost(struct umalloc *u);
void umalloc__exit(struct umalloc *u, u32 tid);
void umalloc__stats(const struct umalloc *u, struct umalloc_stats *st);
void umalloc__delete(struct umalloc *u);

#endif
