// SPDX-License-Identifier: GPL-2.0
/* The log-linear histogram against exact answers from sorted arrays. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "report/hist.h"
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
	struct hist *h = hist__new();
	uint64_t sum = 0;
	int bad = 0;

	CHECK(h != NULL, "%s: alloc", name);
	if (!h)
		return;
	for (size_t i = 0; i < n; i++) {
		bad += hist__record(h, v[i]) != 0;
		sum += v[i];
	}
	CHECK(bad == 0, "%s: record failed", name);
	qsort(v, n, sizeof(*v), cmp_u64);
	CHECK_INT(hist__count(h), n);
	CHECK(hist__min(h) == v[0], "%s: min %llu != %llu", name, (unsigned long long)hist__min(h),
	      (unsigned long long)v[0]);
	CHECK(hist__max(h) == v[n - 1], "%s: max", name);
	CHECK(hist__sum(h) == sum, "%s: sum", name);
	CHECK(fabs(hist__mean(h) - (double)sum / n) <= 1e-9 * ((double)sum / n) + 1e-9, "%s: mean",
	      name);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		uint64_t want = exact_quantile(v, n, qs[i]), got = hist__quantile(h, qs[i]);
		uint64_t err = got > want ? got - want : want - got;

		if (err > (want >> HDR_SUB_BITS)) {
			bad++;
			printf("  %s q=%g: got %llu want %llu\n", name, qs[i],
			       (unsigned long long)got, (unsigned long long)want);
		}
	}
	CHECK(bad == 0, "%s: %d quantiles outside 2^-%d", name, bad, HDR_SUB_BITS);
	CHECK(hist__quantile(h, 0) == v[0], "%s: q0 is min", name);
	CHECK(hist__quantile(h, 1) == v[n - 1], "%s: q1 is max", name);
	hist__delete(h);
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
	struct hist *h = hist__new();

	for (uint64_t i = 0; i < HDR_SUB; i++)
		CHECK(hist__bucket_lo(i) == i && hist__bucket_hi(i) == i, "exact %llu",
		      (unsigned long long)i);
	CHECK(hist__bucket_hi(UINT64_MAX) == UINT64_MAX, "top bucket");
	CHECK(hist__bucket_lo(1ull << 63) == 1ull << 63, "2^63");
	/* Buckets are never wider than lo / 2^SUB_BITS. */
	for (int e = HDR_SUB_BITS; e < 64; e++) {
		uint64_t v = (1ull << e) + 12345 % (1ull << e);

		CHECK(hist__bucket_hi(v) - hist__bucket_lo(v) + 1 <= hist__bucket_lo(v) >>
			      HDR_SUB_BITS,
		      "width at 2^%d", e);
		CHECK(hist__bucket_lo(v) <= v && v <= hist__bucket_hi(v), "contains at 2^%d", e);
	}
	CHECK(hist__count(h) == 0 && hist__quantile(h, 0.5) == 0 && hist__mean(h) == 0, "empty");
	hist__record(h, UINT64_MAX);
	hist__record(h, UINT64_MAX);
	CHECK(hist__sum(h) == UINT64_MAX, "sum saturates");
	CHECK(hist__quantile(h, 0.5) == UINT64_MAX, "top quantile");
	hist__reset(h);
	CHECK(hist__count(h) == 0 && hist__max(h) == 0, "reset");
	hist__record_n(h, 1000, 5);
	CHECK(hist__count(h) == 5 && hist__sum(h) == 5000, "record_n");
	hist__delete(h);
	hist__delete(NULL);
}

static void test_merge(void)
{
	struct hist *a = hist__new(), *b = hist__new(), *all = hist__new();
	uint64_t v;

	for (int i = 0; i < 10000; i++) {
		v = xorshift() % 50000000;
		hist__record(i & 1 ? a : b, v);
		hist__record(all, v);
	}
	hist__record(b, 7); /* a new small block in b only */
	hist__record(all, 7);
	CHECK_INT(hist__merge(a, b), 0);
	CHECK(hist__count(a) == hist__count(all), "merge count");
	CHECK(hist__sum(a) == hist__sum(all), "merge sum");
	CHECK(hist__min(a) == 7 && hist__max(a) == hist__max(all), "merge min/max");
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		CHECK(hist__quantile(a, qs[i]) == hist__quantile(all, qs[i]), "merge q=%g", qs[i]);
	hist__reset(b);
	CHECK_INT(hist__merge(a, b), 0);
	CHECK(hist__count(a) == hist__count(all), "merge empty");
	hist__delete(a);
	hist__delete(b);
	hist__delete(all);
}

int main(void)
{
	test_distributions();
	test_small_exact_and_edges();
	test_merge();
	return ut_done("test_hist");
}
