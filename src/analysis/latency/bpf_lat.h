/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency rows kept in the kernel (the BPF back end, engine/bpf.h): a
 * program that has measured a latency adds it to the row of a 16-byte key
 * (two u64: a syscall and a thread, a pair of points and a key) with
 * bpf_lat__emit_record; user space reads the rows at each interval and at
 * the end, as report/hist.h histograms with their count, min, max and sum
 * exact, to print through lat_table as the ring path does.
 *
 * In the kernel, per-CPU hash maps, updated in place (no atomics):
 *   rows:    key -> count, marked, sum, and min/max in two slots by the
 *            interval's parity (an interval's min and max are its own);
 *   buckets: (key, bucket) -> count, the buckets exactly report/hist.h's
 *            (HDR_SUB_BITS 7), kept sparsely: only those that occur.
 * Counts and sums are cumulative, never reset: a read takes what grew
 * since the last read, so nothing is lost to a concurrent update.  A full
 * map counts its drops in the back end's drop slots (reported as lost), and
 * so does an insert the kernel could not allocate (a map that is not
 * preallocated, bpf_lat__new: a burst of new keys, or a program in an
 * interrupt, can find its element cache empty; bpf_lat__new_sized's
 * preallocated maps fail only when full).
 */
#ifndef PP_BPF_LAT_H
#define PP_BPF_LAT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/bpf.h"

struct bpf_lat;
struct hist;

/* Stack bytes bpf_lat__emit_record needs below its @scratch offset. */
#define BPF_LAT_SCRATCH 128

/*
 * The maps of @name's rows (@entries rows; the buckets map holds
 * BPF_LAT_BUCKETS_PER_ROW times as many).  NULL with @err set.
 */
#define BPF_LAT_BUCKETS_PER_ROW 4
struct bpf_lat *bpf_lat__new(struct bpf_back *b, const char *name, unsigned entries, char *err,
			     size_t errlen);
/*
 * The same with @rows rows and @buckets buckets, preallocated with
 * @prealloc: a program that runs with interrupts off (sched_switch) finds
 * the kernel's element cache of a map that allocates as keys come empty
 * in a burst of new keys (-ENOMEM: counted drops); a preallocated map
 * fails only when full.
 */
struct bpf_lat *bpf_lat__new_sized(struct bpf_back *b, const char *name, unsigned rows,
				   unsigned buckets, bool prealloc, char *err, size_t errlen);
/*
 * A preallocated per-CPU map holds its values once per possible CPU from
 * its creation: with @prealloc, bpf_lat__new_sized keeps its two maps'
 * values within BPF_LAT_PREALLOC_BYTES, with @rows and @buckets scaled
 * down alike where needed (not below BPF_LAT_MIN_ROWS and
 * BPF_LAT_MIN_BUCKETS): 16384 rows (80 bytes) and 65536 buckets take
 * 3.7 MB on 2 CPUs, and would take 235 MB on 128 (there 2340 rows, 9362
 * buckets).
 * What does not fit is a counted drop, as a full map's.
 */
#define BPF_LAT_PREALLOC_BYTES (32ull << 20)
#define BPF_LAT_MIN_ROWS 64
#define BPF_LAT_MIN_BUCKETS 256
void bpf_lat__prealloc_fit(int ncpu, unsigned *rows, unsigned *buckets);
/*
 * The rows and buckets of a latency table of --bpf-entries keys (@opts)
 * with a row per key (@per_key: BPF_LAT_BUCKETS_PER_ROW buckets a row),
 * or a few rows (the pairs of points, the labels: at most
 * BPF_LAT_FEW_ROWS) sharing a quarter of --bpf-entries buckets.
 */
#define BPF_LAT_FEW_ROWS 4096
struct opt_set;
unsigned bpf_lat__rows_for(const struct opt_set *opts, bool per_key);
unsigned bpf_lat__buckets_for(const struct opt_set *opts, bool per_key);
void bpf_lat__delete(struct bpf_lat *l);

/*
 * Add the latency in @delta_reg to the row whose key (16 bytes) is on the
 * stack at R10 + @key_off, marked when @mark_reg holds 1 (@mark_reg < 0:
 * never).  @delta_reg and @mark_reg are R6-R9 (kept); uses R0-R5 and the
 * stack [R10 + @scratch, + BPF_LAT_SCRATCH).
 */
void bpf_lat__emit_record(struct bpf_lat *l, struct bpfb *code, int16_t key_off, int delta_reg,
			  int mark_reg, int16_t scratch);

/*
 * hist.h's bucket of the value in @src, into @dst: for v < 256 v itself,
 * else (sh << 7) + (v >> sh) with sh = bit length - 8 (the bit length by a
 * ladder of shifts).  Uses @t1, @t2 (all four distinct; @src kept).
 */
void bpf_lat__emit_bucket(struct bpfb *code, int dst, int src, int t1, int t2);
/* The same in C, and a bucket's lowest value (hist.h's bucket_lo). */
static inline uint64_t bpf_lat__bucket(uint64_t v)
{
	unsigned sh;

	if (v < 256)
		return v;
	sh = 64 - __builtin_clzll(v) - 8;
	return ((uint64_t)sh << 7) + (v >> sh);
}
static inline uint64_t bpf_lat__bucket_lo(uint64_t idx)
{
	uint64_t b = idx >> 7, s = idx & 127;

	return b ? (128 + s) << (b - 1) : s;
}

/*
 * Count, per row, the latencies above @ns (--than: exact, not from the
 * buckets), before the first bpf_lat__emit_record.  A read's callback
 * finds the row's count since the last read with bpf_lat__over.
 */
void bpf_lat__set_than(struct bpf_lat *l, uint64_t ns);
uint64_t bpf_lat__over(const struct bpf_lat *l);

/*
 * The rows that grew since the last read: @fn gets each row's key and
 * what it gained, as a histogram (count, min, max, sum exact) and the
 * marked among them.  @flags: BPF_LAT_NEXT_INTERVAL, an interval ends
 * here (the next values' min and max go to the other slot);
 * BPF_LAT_LAST, the run's last read (nothing to make room for).  Reads
 * add up: any number of them between two prints give the interval's
 * values.  0 or -errno.
 */
#define BPF_LAT_NEXT_INTERVAL 0x1
#define BPF_LAT_LAST 0x2
int bpf_lat__read(struct bpf_lat *l, unsigned flags,
		  void (*fn)(void *arg, const uint64_t key[2], const struct hist *h,
			     uint64_t marked),
		  void *arg);

/*
 * Once the rows or the buckets fill half their map, a read ends by taking
 * out of the maps the rows that gained nothing since the read before, and
 * those whose second key word was given here (@key1: a thread that
 * exited), with what they hold then (reported by that read): the maps
 * keep room for the live keys, and keys that come and go (threads) do not
 * fill them.  A key that comes back is a new row.  Meanwhile the programs
 * write to aside maps (as large; a quarter of a preallocated one), read at
 * the next read: no value is lost to a delete (bpf_back__aside).  0 or
 * -ENOMEM.
 */
int bpf_lat__forget(struct bpf_lat *l, uint64_t key1);

#endif
