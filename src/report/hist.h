/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A log-linear (HDR-style) histogram of u64 values, e.g. latencies in ns.
 * Every power of two is split into HDR_SUB (128) equal buckets, so a
 * bucket is at most 1/128 of its lower bound wide: quantiles are within
 * 2^-HDR_SUB_BITS (0.8%) of the exact answer, while count, min, max and
 * sum are exact.  Memory depends only on the range of recorded values
 * (one block of HDR_SUB counters per power of two that occurs, at most
 * 58 blocks), never on how many values were recorded.
 */
#ifndef PP_HIST_H
#define PP_HIST_H

#include <stdint.h>

#define HDR_SUB_BITS 7
#define HDR_SUB (1u << HDR_SUB_BITS)

struct hist;

/* Returns NULL on allocation failure. */
struct hist *hist__new(void);
void hist__delete(struct hist *h);

/* Record @v (@n times).  Returns 0 or -ENOMEM (then nothing is recorded). */
int hist__record(struct hist *h, uint64_t v);
int hist__record_n(struct hist *h, uint64_t v, uint64_t n);

/* Add everything recorded in @src to @dst.  Returns 0 or -ENOMEM. */
int hist__merge(struct hist *dst, const struct hist *src);

/*
 * The totals of values counted elsewhere, exactly (a BPF map's row), over
 * the buckets recorded with hist__record_n at their low bounds: @count,
 * @min, @max and @sum replace what the buckets gave; quantiles still come
 * from the buckets, clamped to [min, max].
 */
void hist__set_stats(struct hist *h, uint64_t count, uint64_t min, uint64_t max, uint64_t sum);
/* Call @fn for every non-empty bucket, lowest first: its low bound and its count. */
void hist__for_each(const struct hist *h, void (*fn)(uint64_t lo, uint64_t n, void *arg),
		    void *arg);

/* Forget all values (keeps the memory for the next interval). */
void hist__reset(struct hist *h);

uint64_t hist__count(const struct hist *h);
uint64_t hist__min(const struct hist *h); /* 0 when empty */
uint64_t hist__max(const struct hist *h);
uint64_t hist__sum(const struct hist *h); /* exact; saturates at UINT64_MAX */
double hist__mean(const struct hist *h);  /* 0 when empty */

/*
 * The value at quantile @q (0..1): the ceil(q * count)-th smallest value,
 * within the relative error bound; q <= 0 gives min, q >= 1 gives max.
 * 0 when empty.
 */
uint64_t hist__quantile(const struct hist *h, double q);

/* Bucket geometry, exposed for tests: lowest and highest value sharing @v's bucket. */
uint64_t hist__bucket_lo(uint64_t v);
uint64_t hist__bucket_hi(uint64_t v);

#endif
