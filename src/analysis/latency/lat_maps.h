/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency rows kept in BPF maps: what an in-kernel program records for
 * each closed pair, and how user space reads it back into a multipoint
 * table, so that a profiler on the BPF back end prints the ring path's
 * report (count, total, min and max exact, quantiles within
 * report/hist.h's error).
 *
 * A row is (row, key): the row a profiler's row hook would choose (a pair
 * of points, a syscall) and the --perins key (a thread; 0 without).  Per
 * row, a per-CPU hash holds {count, sum, min, max, epoch}; per (row, key,
 * bucket) another holds the count of report/hist.h's bucket
 * (hist__index: HDR_SUB_BITS sub-buckets per power of two), sparse.  The
 * values only grow: an interval is the difference from what was printed
 * (nothing is deleted under a program that may be updating it).  min and
 * max are per interval: a program that finds its CPU's copy of an older
 * epoch starts them again from its value; lat_maps__read moves the epoch
 * on at each interval.
 *
 * Maps hold --bpf-entries rows and 8 times as many buckets (created
 * without preallocation); a pair that finds either full is a counted drop
 * ("latencies not counted: map full (--bpf-entries) or out of memory": the
 * maps allocate as keys come, and a burst of new keys can find the
 * kernel's element cache empty).
 */
#ifndef PP_LAT_MAPS_H
#define PP_LAT_MAPS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/bpf.h"

struct hist;
struct lat_maps;

/* The stack lat_maps__emit_record uses: [R10 - LAT_MAPS_STACK, R10 - BPF_BACK_SCRATCH). */
#define LAT_MAPS_STACK 96

/* The maps, made in init: NULL with the session's error set. */
struct lat_maps *lat_maps__new(struct bpf_back *b, unsigned entries);
void lat_maps__delete(struct lat_maps *m);

/*
 * Record the pair of latency @delta_reg (ns) under row @row_reg, key
 * @key_reg (u32 values): R6-R9 are kept, R0-R5 used, the stack as said
 * above.  Falls through when done (recorded or counted as a drop).
 */
void lat_maps__emit_record(struct lat_maps *m, struct bpfb *c, int row_reg, int key_reg,
			   int delta_reg);

/*
 * What the maps hold beyond what was printed: @fn once per (row, key)
 * with values, with their histogram (exact count, sum, min, max).
 * @interval: the end of an interval (what was read counts as printed,
 * and the epoch moves on); else a snapshot or the end.  0 or -errno.
 */
int lat_maps__read(struct lat_maps *m, bool interval,
		   void (*fn)(void *arg, unsigned row, unsigned key, const struct hist *h),
		   void *arg);

/*
 * @fn on every key of map @map with its value (@ncpu values of @vsz bytes
 * for a per-CPU map, 1 for another): by batches (BPF_MAP_LOOKUP_BATCH),
 * key by key where the kernel has none.  0 or the first error.
 */
int lat_maps__walk(int map, size_t ksz, size_t vsz, int ncpu,
		   int (*fn)(void *arg, const void *key, const void *vals, int ncpu), void *arg);

#endif
