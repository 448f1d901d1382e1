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
#include "ut.h"

/* Run @c (ALU64 and jumps only) with R1 = @v: R0 at exit, or ~0 on an unknown instruction. */
static uint64_t run(const struct bpfb *c, uint64_t v)
{
	uint64_t r[11] = { 0 };

	r[1] = v;
	for (int pc = 0, steps = 0; pc < c->n && steps < 10000; pc++, steps++) {
		const struct bpf_insn *i = &c->insn[pc];
		uint64_t src =
			BPF_SRC(i->code) == BPF_X ? r[i->src_reg] : (uint64_t)(int64_t)i->imm;
		uint64_t *d = &r[i->dst_reg];
		bool jump;

		if (BPF_CLASS(i->code) == BPF_ALU64) {
			switch (BPF_OP(i->code)) {
			case BPF_MOV:
				*d = src;
				break;
			case BPF_ADD:
				*d += src;
				break;
			case BPF_SUB:
				*d -= src;
				break;
			case BPF_AND:
				*d &= src;
				break;
			case BPF_LSH:
				*d <<= src & 63;
				break;
			case BPF_RSH:
				*d >>= src & 63;
				break;
			default:
				return ~0ull;
			}
			continue;
		}
		if (BPF_CLASS(i->code) != BPF_JMP)
			return ~0ull;
		switch (BPF_OP(i->code)) {
		case BPF_EXIT:
			return r[0];
		case BPF_JA:
			jump = true;
			break;
		case BPF_JEQ:
			jump = *d == src;
			break;
		case BPF_JNE:
			jump = *d != src;
			break;
		case BPF_JLT:
			jump = *d < src;
			break;
		case BPF_JLE:
			jump = *d <= src;
			break;
		case BPF_JGT:
			jump = *d > src;
			break;
		case BPF_JGE:
			jump = *d >= src;
			break;
		default:
			return ~0ull;
		}
		if (jump)
			pc += i->off;
	}
	return ~0ull;
}

static void check_value(const struct bpfb *c, uint64_t v)
{
	uint64_t idx = run(c, v);

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

int main(void)
{
	test_buckets();
	test_merge();
	return ut_done("bpf_lat");
}
