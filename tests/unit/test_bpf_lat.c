// SPDX-License-Identifier: GPL-2.0
/*
 * analysis/latency/bpf_lat: the bucket the BPF program computes is
 * report/hist.h's, for every bit length and at the boundaries (the emitted
 * instructions run here by a small interpreter of the ALU and jumps they
 * use), and a row rebuilt from buckets with exact totals prints them.
 */
#include <stdint.h>
#include <stdlib.h>

#include "analysis/latency/bpf_lat.h"
#include "engine/bpf_insn.h"
#include "report/hist.h"
#include "report/lat_table.h"
#include "bpf_run.h"
#include "ut.h"

static void check_value(const struct bpfb *c, uint64_t v)
{
	uint64_t idx = bpf_run(c, v, 0);

	CHECK(idx == bpf_lat__bucket(v), "v=%llu: the program's bucket %llu, C's %llu",
	      (unsigned long long)v, (unsigned long long)idx,
	      (unsigned long long)bpf_lat__bucket(v));
	CHECK(bpf_lat__bucket_lo(idx) == hist__bucket_lo(v), "v=%llu: low bound %llu, hist's %llu",
	      (unsigned long long)v, (unsigned long long)bpf_lat__bucket_lo(idx),
	      (unsigned long long)hist__bucket_lo(v));
	CHECK(idx < (64 - 7 + 1) * 128, "v=%llu: bucket %llu out of hist's range",
	      (unsigned long long)v, (unsigned long long)idx);
}

static void test_buckets(void)
{
	struct bpfb c;

	bpfb__init(&c);
	bpf_lat__emit_bucket(&c, R0, R1, R2, R3);
	b_exit(&c);
	CHECK_INT(bpfb__finish(&c), 0);
	for (int bits = 0; bits <= 64; bits++) {
		uint64_t p = bits == 64 ? 0 : 1ull << bits; /* 2^bits (0: wrapped) */

		if (bits < 64) {
			check_value(&c, p);
			check_value(&c, p + 1);
			check_value(&c, p + p / 3);
		}
		check_value(&c, p - 1); /* all ones of @bits bits */
		if (bits >= 1)
			check_value(&c, (p - 1) ^ 1);
	}
	for (uint64_t v = 0; v < 4096; v++)
		check_value(&c, v);
	/* the widest bucket's neighbours */
	check_value(&c, UINT64_MAX);
	check_value(&c, UINT64_MAX - (1ull << 56));
	bpfb__free(&c);
}

/* A row read from the maps: buckets at their low bounds, totals exact. */
static void test_merge(void)
{
	struct lat_table *t = lat_table__new("SYSCALL", NULL, LAT_LOG2);
	struct hist *h = hist__new(), *ref = hist__new();
	uint64_t vals[] = { 2000100, 2000900, 2093000, 2500000, 9186000 }, sum = 0;
	struct lat_row *r;

	for (unsigned i = 0; i < 5; i++) {
		hist__record_n(h, bpf_lat__bucket_lo(bpf_lat__bucket(vals[i])), 1);
		hist__record(ref, vals[i]);
		sum += vals[i];
	}
	hist__set_stats(h, 5, vals[0], vals[4], sum);
	r = lat_table__row(t, 1, 0, "clock_nanosleep");
	CHECK_INT(lat_table__merge(t, r, h, 2), 0);
	hist__reset(h);
	hist__record(h, 7);
	hist__set_stats(h, 1, 7, 7, 7);
	CHECK_INT(lat_table__merge(t, r, h, 0), 0);
	/* the exact ones exact, quantiles as the value-by-value hist's */
	hist__record(ref, 7);
	{
		char *buf = NULL, *want = NULL;
		size_t len = 0, wlen = 0;
		FILE *fp = open_memstream(&buf, &len), *wp = open_memstream(&want, &wlen);
		struct lat_table *u = lat_table__new("SYSCALL", NULL, LAT_LOG2);
		struct lat_row *ur = lat_table__row(u, 1, 0, "clock_nanosleep");
		uint64_t all[] = { 2000100, 2000900, 2093000, 2500000, 9186000, 7 };

		for (unsigned i = 0; i < 6; i++)
			lat_table__record(u, ur, all[i], NULL);
		lat_row__mark(ur);
		lat_row__mark(ur);
		lat_table__set_mark(t, "errors");
		lat_table__set_mark(u, "errors");
		lat_table__print(t, fp);
		lat_table__print_log2(t, fp, NULL, "ns");
		lat_table__print(u, wp);
		lat_table__print_log2(u, wp, NULL, "ns");
		fclose(fp);
		fclose(wp);
		CHECK_STR(buf, want);
		free(buf);
		free(want);
		lat_table__delete(u);
	}
	hist__delete(h);
	hist__delete(ref);
	lat_table__delete(t);
}

/*
 * Preallocated per-CPU maps hold their values once per possible CPU:
 * task-state --perins's (16384 rows, 65536 buckets: 3.7 MB on 2 CPUs)
 * would take 235 MB on 128; they are kept within the budget there, as
 * large as it allows, and are untouched where they fit.
 */
static void test_prealloc_fit(void)
{
	static const int cpus[] = { 1, 2, 8, 64, 128, 1024, 8192 };

	for (unsigned i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		unsigned rows = 16384, buckets = 65536;
		unsigned long long bytes;

		bpf_lat__prealloc_fit(cpus[i], &rows, &buckets);
		/* a row is 10 words (count, marked, sum, over, two min/max/tag slots) */
		bytes = (unsigned long long)cpus[i] * (rows * 80ull + buckets * 8ull);
		if (cpus[i] <= 8) {
			CHECK(rows == 16384 && buckets == 65536, "%d CPUs: %u rows, %u buckets",
			      cpus[i], rows, buckets);
			continue;
		}
		CHECK(bytes <= BPF_LAT_PREALLOC_BYTES ||
			      (rows == BPF_LAT_MIN_ROWS && buckets == BPF_LAT_MIN_BUCKETS),
		      "%d CPUs: %llu bytes for %u rows, %u buckets", cpus[i], bytes, rows, buckets);
		CHECK(rows >= BPF_LAT_MIN_ROWS && buckets >= BPF_LAT_MIN_BUCKETS,
		      "%d CPUs: at least the minimum (%u, %u)", cpus[i], rows, buckets);
		CHECK(cpus[i] > 128 || bytes > BPF_LAT_PREALLOC_BYTES * 9 / 10,
		      "%d CPUs: the budget used (%llu bytes)", cpus[i], bytes);
	}
}

/* --than on BPF: the count above the threshold comes from the kernel, exact, not the buckets */
static void test_merge_than(void)
{
	struct lat_table *t = lat_table__new("SYSCALL", NULL, 0),
			 *u = lat_table__new("SYSCALL", NULL, 0);
	uint64_t vals[] = { 2000100, 2499999, 2500000, 2500001, 9186000 }, sum = 0;
	struct hist *h = hist__new();
	struct lat_row *r = lat_table__row(t, 1, 0, "read"), *ur = lat_table__row(u, 1, 0, "read");
	char *buf = NULL, *want = NULL;
	size_t len = 0, wlen = 0;
	FILE *fp, *wp;

	lat_table__set_than(t, 2500000);
	lat_table__set_than(u, 2500000);
	for (unsigned i = 0; i < 5; i++) {
		hist__record_n(h, bpf_lat__bucket_lo(bpf_lat__bucket(vals[i])), 1);
		lat_table__record(u, ur, vals[i], NULL);
		sum += vals[i];
	}
	hist__set_stats(h, 5, vals[0], vals[4], sum);
	CHECK_INT(lat_table__merge(t, r, h, 0), 0);
	lat_row__add_over(r, 2); /* 2500001 and 9186000: the kernel's count (2500000 is not over) */
	fp = open_memstream(&buf, &len);
	wp = open_memstream(&want, &wlen);
	lat_table__print(t, fp);
	lat_table__print(u, wp);
	fclose(fp);
	fclose(wp);
	CHECK(strstr(buf, "2 (40.0%)") != NULL, "the count over 2.5ms: %s", buf);
	CHECK_STR(buf, want);
	free(buf);
	free(want);
	hist__delete(h);
	lat_table__delete(t);
	lat_table__delete(u);
}

int main(void)
{
	test_buckets();
	test_merge();
	test_prealloc_fit();
	test_merge_than();
	return ut_done("bpf_lat");
}
