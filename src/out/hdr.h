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
#ifndef PP_HDR_H
#define PP_HDR_H

#include <stdint.h>

#define HDR_SUB_BITS 7
#define HDR_SUB (1u << HDR_SUB_BITS)

struct hdr;

/* Returns NULL on allocation failure. */
struct hdr *hdr__new(void);
void hdr__delete(struct hdr *h);

/* Record @v (@n times).  Returns 0 or -ENOMEM (then nothing is recorded). */
int hdr__record(struct hdr *h, uint64_t v);
int hdr__record_n(struct hdr *h, uint64_t v, uint64_t n);

/* Add everything recorded in @src to @dst.  Returns 0 or -ENOMEM. */
int hdr__merge(struct hdr *dst, const struct hdr *src);

/* Forget all values (keeps the memory for the next interval). */
void hdr__reset(struct hdr *h);

uint64_t hdr__count(const struct hdr *h);
uint64_t hdr__min(const struct hdr *h); /* 0 when empty */
uint64_t hdr__max(const struct hdr *h);
uint64_t hdr__sum(const struct hdr *h); /* exact; saturates at UINT64_MAX */
double hdr__mean(const struct hdr *h);	/* 0 when empty */

/*
 * The value at quantile @q (0..1): the ceil(q * count)-th smallest value,
 * within the relative error bound; q <= 0 gives min, q >= 1 gives max.
 * 0 when empty.
 */
uint64_t hdr__quantile(const struct hdr *h, double q);

/* Bucket geometry, exposed for tests: lowest and highest value sharing @v's bucket. */
uint64_t hdr__bucket_lo(uint64_t v);
uint64_t hdr__bucket_hi(uint64_t v);

#endif
