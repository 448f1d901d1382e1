// SPDX-License-Identifier: GPL-2.0
/* The log-linear histogram against exact answers from sorted arrays. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "out/hdr.h"
#include "ut.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t exact_quantile(const uint64_t *sorted, size_t n, double q)
{
	double r = q * (double)n;
	size_t rank = (size_t)r;

	if ((double)rank < r)
		rank++;
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static const double qs[] = { 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999 };

/* Record @v[0..n), then check every statistic against the exact answer. */
static void check_dist(const char *name, uint64_t *v, size_t n)
{
	struct hdr *h = hdr__new();
	uint64_t sum = 0;
	int bad = 0;

	CHECK(h != NULL, "%s: alloc", name);
	if (!h)
		return;
	for (size_t i = 0; i < n; i++) {
		bad += hdr__record(h, v[i]) != 0;
		sum += v[i];
	}
	CHECK(bad == 0, "%s: record failed", name);
	qsort(v, n, sizeof(*v), cmp_u64);
	CHECK_INT(hdr__count(h), n);
	CHECK(hdr__min(h) == v[0], "%s: min %llu != %llu", name, (unsigned long long)hdr__min(h),
	      (unsigned long long)v[0]);
	CHECK(hdr__max(h) == v[n - 1], "%s: max", name);
	CHECK(hdr__sum(h) == sum, "%s: sum", name);
	CHECK(fabs(hdr__mean(h) - (double)sum / n) <= 1e-9 * ((double)sum / n) + 1e-9, "%s: mean",
	      name);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		uint64_t want = exact_quantile(v, n, qs[i]), got = hdr__quantile(h, qs[i]);
		uint64_t err = got > want ? got - want : want - got;

		if (err > (want >> HDR_SUB_BITS)) {
			bad++;
			printf("  %s q=%g: got %llu want %llu\n", name, qs[i],
			       (unsigned long long)got, (unsigned long long)want);
		}
	}
	CHECK(bad == 0, "%s: %d quantiles outside 2^-%d", name, bad, HDR_SUB_BITS);
	CHECK(hdr__quantile(h, 0) == v[0], "%s: q0 is min", name);
	CHECK(hdr__quantile(h, 1) == v[n - 1], "%s: q1 is max", name);
	hdr__delete(h);
}

static void test_distributions(void)
{
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));

	if (!v)
		return;
	for (size_t i = 0; i < n; i++) /* uniform 0..1 s */
		v[i] = xorshift() % 1000000000ull;
	check_dist("uniform", v, n);
	for (size_t i = 0; i < n; i++) /* exponential, mean 5 ms */
		v[i] = (uint64_t)(-log((xorshift() % 1000000 + 1) / 1000001.0) * 5e6);
	check_dist("exponential", v, n);
	for (size_t i = 0; i < n; i++) /* log-uniform over 1 ns .. 2^44 ns */
		v[i] = 1ull << (xorshift() % 44) | (xorshift() & 0xff);
	check_dist("log-uniform", v, n);
	for (size_t i = 0; i < n; i++) /* bimodal: 1 ms and 30 ms sleeps */
		v[i] = (i % 11 ? 1000000 : 30000000) + xorshift() % 100000;
	check_dist("bimodal", v, n);
	for (size_t i = 0; i < 1000; i++) /* small values are exact */
		v[i] = i % HDR_SUB;
	check_dist("small", v, 1000);
	v[0] = 42;
	check_dist("single", v, 1);
	free(v);
}

static void test_small_exact_and_edges(void)
{
	struct hdr *h = hdr__new();

	for (uint64_t i = 0; i < HDR_SUB; i++)
		CHECK(hdr__bucket_lo(i) == i && hdr__bucket_hi(i) == i, "exact %llu",
		      (unsigned long long)i);
	CHECK(hdr__bucket_hi(UINT64_MAX) == UINT64_MAX, "top bucket");
	CHECK(hdr__bucket_lo(1ull << 63) == 1ull << 63, "2^63");
	/* Buckets are never wider than lo / 2^SUB_BITS. */
	for (int e = HDR_SUB_BITS; e < 64; e++) {
		uint64_t v = (1ull << e) + 12345 % (1ull << e);

		CHECK(hdr__bucket_hi(v) - hdr__bucket_lo(v) + 1 <= hdr__bucket_lo(v) >>
			      HDR_SUB_BITS,
		      "width at 2^%d", e);
		CHECK(hdr__bucket_lo(v) <= v && v <= hdr__bucket_hi(v), "contains at 2^%d", e);
	}
	CHECK(hdr__count(h) == 0 && hdr__quantile(h, 0.5) == 0 && hdr__mean(h) == 0, "empty");
	hdr__record(h, UINT64_MAX);
	hdr__record(h, UINT64_MAX);
	CHECK(hdr__sum(h) == UINT64_MAX, "sum saturates");
	CHECK(hdr__quantile(h, 0.5) == UINT64_MAX, "top quantile");
	hdr__reset(h);
	CHECK(hdr__count(h) == 0 && hdr__max(h) == 0, "reset");
	hdr__record_n(h, 1000, 5);
	CHECK(hdr__count(h) == 5 && hdr__sum(h) == 5000, "record_n");
	hdr__delete(h);
	hdr__delete(NULL);
}

static void test_merge(void)
{
	struct hdr *a = hdr__new(), *b = hdr__new(), *all = hdr__new();
	uint64_t v;

	for (int i = 0; i < 10000; i++) {
		v = xorshift() % 50000000;
		hdr__record(i & 1 ? a : b, v);
		hdr__record(all, v);
	}
	hdr__record(b, 7); /* a new small block in b only */
	hdr__record(all, 7);
	CHECK_INT(hdr__merge(a, b), 0);
	CHECK(hdr__count(a) == hdr__count(all), "merge count");
	CHECK(hdr__sum(a) == hdr__sum(all), "merge sum");
	CHECK(hdr__min(a) == 7 && hdr__max(a) == hdr__max(all), "merge min/max");
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		CHECK(hdr__quantile(a, qs[i]) == hdr__quantile(all, qs[i]), "merge q=%g", qs[i]);
	hdr__reset(b);
	CHECK_INT(hdr__merge(a, b), 0);
	CHECK(hdr__count(a) == hdr__count(all), "merge empty");
	hdr__delete(a);
	hdr__delete(b);
	hdr__delete(all);
}

int main(void)
{
	test_distributions();
	test_small_exact_and_edges();
	test_merge();
	return ut_done("test_hdr");
}
