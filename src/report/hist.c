// SPDX-License-Identifier: GPL-2.0
/* Log-linear histogram: see hist.h for the error bound and memory model. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/hist.h"

/* Block 0 holds 0..HDR_SUB-1 exactly; block b >= 1 holds [2^(b+SUB_BITS-1), 2^(b+SUB_BITS)). */
#define NBLK (64 - HDR_SUB_BITS + 1)

struct hist {
	uint64_t count, min, max, sum;
	uint64_t blk_count[NBLK]; /* lets quantile() skip whole blocks */
	uint64_t *blk[NBLK];	  /* HDR_SUB counters each, allocated on first use */
};

static inline void hist_index(uint64_t v, unsigned *b, unsigned *s)
{
	unsigned e;

	if (v < HDR_SUB) {
		*b = 0;
		*s = v;
		return;
	}
	e = 63 - __builtin_clzll(v);
	*b = e - HDR_SUB_BITS + 1;
	*s = (v >> (e - HDR_SUB_BITS)) - HDR_SUB;
}

static inline uint64_t bucket_lo(unsigned b, unsigned s)
{
	return b ? (uint64_t)(HDR_SUB + s) << (b - 1) : s;
}

static inline uint64_t bucket_width(unsigned b)
{
	return b ? 1ull << (b - 1) : 1;
}

uint64_t hist__bucket_lo(uint64_t v)
{
	unsigned b, s;

	hist_index(v, &b, &s);
	return bucket_lo(b, s);
}

uint64_t hist__bucket_hi(uint64_t v)
{
	unsigned b, s;

	hist_index(v, &b, &s);
	return bucket_lo(b, s) + (bucket_width(b) - 1);
}

struct hist *hist__new(void)
{
	return calloc(1, sizeof(struct hist));
}

void hist__delete(struct hist *h)
{
	if (!h)
		return;
	for (int i = 0; i < NBLK; i++)
		free(h->blk[i]);
	free(h);
}

static void add_stats(struct hist *h, uint64_t min, uint64_t max, uint64_t sum, uint64_t n)
{
	if (!h->count || min < h->min)
		h->min = min;
	if (!h->count || max > h->max)
		h->max = max;
	h->sum = h->sum + sum < h->sum ? UINT64_MAX : h->sum + sum;
	h->count += n;
}

int hist__record_n(struct hist *h, uint64_t v, uint64_t n)
{
	unsigned b, s;
	uint64_t sum;

	if (!n)
		return 0;
	hist_index(v, &b, &s);
	if (!h->blk[b]) {
		h->blk[b] = calloc(HDR_SUB, sizeof(uint64_t));
		if (!h->blk[b])
			return -ENOMEM;
	}
	h->blk[b][s] += n;
	h->blk_count[b] += n;
	sum = (n > 1 && v > UINT64_MAX / n) ? UINT64_MAX : v * n;
	add_stats(h, v, v, sum, n);
	return 0;
}

int hist__record(struct hist *h, uint64_t v)
{
	return hist__record_n(h, v, 1);
}

int hist__merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return 0;
	/* Allocate first so that a failure leaves @dst unchanged. */
	for (int b = 0; b < NBLK; b++) {
		if (src->blk_count[b] && !dst->blk[b]) {
			dst->blk[b] = calloc(HDR_SUB, sizeof(uint64_t));
			if (!dst->blk[b])
				return -ENOMEM;
		}
	}
	for (int b = 0; b < NBLK; b++) {
		if (!src->blk_count[b])
			continue;
		for (unsigned s = 0; s < HDR_SUB; s++)
			dst->blk[b][s] += src->blk[b][s];
		dst->blk_count[b] += src->blk_count[b];
	}
	add_stats(dst, src->min, src->max, src->sum, src->count);
	return 0;
}

void hist__set_stats(struct hist *h, uint64_t count, uint64_t min, uint64_t max, uint64_t sum)
{
	h->count = count;
	h->min = min;
	h->max = max;
	h->sum = sum;
}

void hist__for_each(const struct hist *h, void (*fn)(uint64_t lo, uint64_t n, void *arg), void *arg)
{
	for (unsigned b = 0; b < NBLK; b++)
		for (unsigned s = 0; h->blk_count[b] && s < HDR_SUB; s++)
			if (h->blk[b][s])
				fn(bucket_lo(b, s), h->blk[b][s], arg);
}

void hist__reset(struct hist *h)
{
	for (int b = 0; b < NBLK; b++) {
		if (h->blk_count[b])
			memset(h->blk[b], 0, HDR_SUB * sizeof(uint64_t));
		h->blk_count[b] = 0;
	}
	h->count = h->min = h->max = h->sum = 0;
}

uint64_t hist__count(const struct hist *h)
{
	return h->count;
}

uint64_t hist__min(const struct hist *h)
{
	return h->min;
}

uint64_t hist__max(const struct hist *h)
{
	return h->max;
}

uint64_t hist__sum(const struct hist *h)
{
	return h->sum;
}

double hist__mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

uint64_t hist__quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0, v;
	double r;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	r = q * (double)h->count;
	rank = (uint64_t)r;
	if ((double)rank < r)
		rank++;
	if (rank < 1)
		rank = 1;
	for (unsigned b = 0; b < NBLK; b++) {
		if (seen + h->blk_count[b] < rank) {
			seen += h->blk_count[b];
			continue;
		}
		for (unsigned s = 0; s < HDR_SUB; s++) {
			seen += h->blk[b][s];
			if (seen < rank)
				continue;
			/* The middle of the bucket halves the worst-case error. */
			v = bucket_lo(b, s) + (bucket_width(b) - 1) / 2;
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}
