// SPDX-License-Identifier: GPL-2.0
/*
 * analysis/latency/lat_maps: the latencies a BPF program records (count,
 * sum, min, max and report/hist.h's bucket, per CPU) read back into
 * histograms equal to the ones user space would have built from the same
 * values: count, sum, min and max exact, every bucket the same (so every
 * quantile is), per interval (an interval has only its own values, min and
 * max too), snapshots that do not move on, a full map counted as drops.
 * The program is run by BPF_PROG_TEST_RUN on each CPU in turn (a raw
 * tracepoint program whose arguments are row, key and latency).  A burst
 * of new keys can find the kernel's element cache empty (ENOMEM: the maps
 * are not preallocated): that run is a counted drop, and is run again
 * here (the test is about what is recorded).  Needs bpf(2): skipped where
 * it is not allowed.
 */
#include <bpf/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/latency/lat_maps.h"
#include "engine/conf.h"
#include "engine/session.h"
#include "report/hist.h"
#include "ut.h"

#define NROWS 4

struct got {
	struct hist *h[NROWS][8]; /* [row][key] */
	int calls;
};

static void collect(void *arg, unsigned row, unsigned key, const struct hist *h)
{
	struct got *g = arg;

	g->calls++;
	if (row >= NROWS || key >= 8) {
		CHECK(0, "row %u key %u: not recorded", row, key);
		return;
	}
	if (!g->h[row][key])
		g->h[row][key] = hist__new();
	hist__merge(g->h[row][key], h);
}

static void got_free(struct got *g)
{
	for (int r = 0; r < NROWS; r++)
		for (int k = 0; k < 8; k++)
			hist__delete(g->h[r][k]);
	memset(g, 0, sizeof(*g));
}

/* row = args[0], key = args[1], latency = args[2]: lat_maps__emit_record */
static int load(struct bpf_back *b, struct lat_maps *lm)
{
	struct bpfb c;
	char err[160];
	int fd;

	bpfb__init(&c);
	b_mov(&c, R6, R1);
	b_ldx(&c, 8, R7, R6, 0);
	b_ldx(&c, 8, R8, R6, 8);
	b_ldx(&c, 8, R9, R6, 16);
	lat_maps__emit_record(lm, &c, R7, R8, R9);
	b_ret(&c, 0);
	fd = bpf_back__load(b, BPF_PROG_TYPE_RAW_TRACEPOINT, "ut_lat_maps", &c, NULL, err,
			    sizeof(err));
	bpfb__free(&c);
	CHECK(fd >= 0, "load: %s", err);
	return fd;
}

static int run_at;
static struct bpf_back *back;
static int drop_slot;

static void run_once(int fd, u64 row, u64 key, u64 v)
{
	u64 args[3] = { row, key, v };
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = args, .ctx_size_in = sizeof(args),
		    .flags = BPF_F_TEST_RUN_ON_CPU);
	int err;

	/* the CPUs in turn: the per-CPU copies add up */
	o.cpu = (u32)(run_at++ % bpf_back__nr_cpus());
	err = bpf_prog_test_run_opts(fd, &o);
	if (err) { /* a CPU that is not online */
		o.flags = 0;
		o.cpu = 0;
		err = bpf_prog_test_run_opts(fd, &o);
	}
	CHECK(!err, "test run: %d", err);
}

/* once recorded: again while it is a drop (the allocator's cache was empty) */
static void run(int fd, u64 row, u64 key, u64 v)
{
	for (int i = 0; i < 10; i++) {
		u64 d = bpf_back__drops(back, drop_slot);

		run_once(fd, row, key, v);
		if (bpf_back__drops(back, drop_slot) == d)
			return;
		usleep(1000);
	}
	CHECK(0, "%llu: dropped 10 times", (unsigned long long)v);
}

struct buckets {
	u64 lo[HDR_NR_BUCKETS], n[HDR_NR_BUCKETS];
	unsigned nr;
};

static void add_bucket(uint64_t lo, uint64_t hi, uint64_t n, void *arg)
{
	struct buckets *bk = arg;

	(void)hi;
	if (bk->nr < HDR_NR_BUCKETS) {
		bk->lo[bk->nr] = lo;
		bk->n[bk->nr++] = n;
	}
}

/* @got equals @want: stats exact, the same count in every bucket, so the same quantiles */
static void check_same(const struct hist *got, const struct hist *want, const char *what)
{
	static const double qs[] = { 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999 };
	static struct buckets a, b;

	CHECK(got != NULL, "%s: no row", what);
	if (!got)
		return;
	CHECK_INT(hist__count(got), hist__count(want));
	CHECK_INT(hist__sum(got), hist__sum(want));
	CHECK_INT(hist__min(got), hist__min(want));
	CHECK_INT(hist__max(got), hist__max(want));
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		CHECK(hist__quantile(got, qs[i]) == hist__quantile(want, qs[i]),
		      "%s: q%.3f %llu != %llu", what, qs[i],
		      (unsigned long long)hist__quantile(got, qs[i]),
		      (unsigned long long)hist__quantile(want, qs[i]));
	a.nr = b.nr = 0;
	hist__for_each_bucket(got, add_bucket, &a);
	hist__for_each_bucket(want, add_bucket, &b);
	CHECK(a.nr == b.nr && !memcmp(a.lo, b.lo, a.nr * sizeof(u64)) &&
		      !memcmp(a.n, b.n, a.nr * sizeof(u64)),
	      "%s: %u and %u buckets, not the same", what, a.nr, b.nr);
}

/* hist__index: the buckets as the BPF program numbers them */
static void test_index(void)
{
	u64 vs[] = { 0, 1, 127, 128, 129, 255, 256, 257, 1000, 65535, 1ULL << 40, ~0ULL };

	for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++) {
		uint32_t x = hist__index(vs[i]);

		CHECK(x < HDR_NR_BUCKETS, "index %u", x);
		CHECK_INT(hist__index_lo(x), hist__bucket_lo(vs[i]));
	}
	CHECK_INT(hist__index(127), 127);
	CHECK_INT(hist__index(128), 128);
	CHECK_INT(hist__index(256), 256);
	CHECK_INT(hist__index(258), 257);
}

int main(void)
{
	struct log_opts log = { 0 };
	struct target_opts tg = { 0 };
	struct engine_conf conf = { .log = &log, .target = &tg };
	struct session *s;
	struct bpf_back *b;
	struct lat_maps *lm, *small;
	struct hist *want[2];
	struct got g = { 0 };
	int fd, slot;
	u64 before;

	test_index();
	if (*bpf_back__host_why_not()) {
		printf("# skip the BPF cases: %s\n", bpf_back__host_why_not());
		return ut_done("test_lat_maps");
	}
	s = session__new(&conf, stderr);
	CHECK(s && bpf_back__get(s, NULL, &b) == 1, "the BPF back end");
	back = b;
	drop_slot = bpf_back__drop_slot(
		b, "latencies not counted: map full (--bpf-entries) or out of memory");
	lm = lat_maps__new(b, 1024);
	CHECK(lm != NULL, "maps");
	fd = lm ? load(b, lm) : -1;
	if (fd < 0)
		return ut_done("test_lat_maps");

	/* interval 1: values across every power of two, on both sides of 128 */
	want[0] = hist__new();
	want[1] = hist__new();
	srand(23);
	for (int i = 0; i < 3000; i++) {
		u64 v = (u64)rand() >> (rand() % 31);

		if (i % 100 == 0)
			v = (u64)i / 100; /* small exact values */
		run(fd, 0, 0, v);
		hist__record(want[0], v);
		if (i % 3 == 0) {
			run(fd, 2, 7, v * 1000 + 1);
			hist__record(want[1], v * 1000 + 1);
		}
	}
	/* a snapshot, then the interval: the same, and the snapshot moved nothing on */
	CHECK_INT(lat_maps__read(lm, false, collect, &g), 0);
	check_same(g.h[0][0], want[0], "snapshot row 0");
	got_free(&g);
	CHECK_INT(lat_maps__read(lm, true, collect, &g), 0);
	CHECK_INT(g.calls, 2);
	check_same(g.h[0][0], want[0], "row 0");
	check_same(g.h[2][7], want[1], "row 2 key 7");
	got_free(&g);

	/* interval 2: only its own values, min and max its own */
	hist__reset(want[0]);
	for (u64 v = 5000; v < 5010; v++) {
		run(fd, 0, 0, v);
		hist__record(want[0], v);
	}
	CHECK_INT(lat_maps__read(lm, true, collect, &g), 0);
	CHECK_INT(g.calls, 1);
	check_same(g.h[0][0], want[0], "row 0, interval 2");
	got_free(&g);

	/* an interval with nothing: no row */
	CHECK_INT(lat_maps__read(lm, true, collect, &g), 0);
	CHECK_INT(g.calls, 0);

	/* a full map (16 rows): the rest are drops */
	small = lat_maps__new(b, 16);
	fd = small ? load(b, small) : -1;
	slot = bpf_back__drop_slot(
		b, "latencies not counted: map full (--bpf-entries) or out of memory");
	before = bpf_back__drops(b, slot);
	for (u64 k = 0; fd >= 0 && k < 20; k++)
		run_once(fd, 1, k, 10);
	/* (4 beyond its size; one more if the allocator's cache ran dry) */
	CHECK(bpf_back__drops(b, slot) - before >= 4 && bpf_back__drops(b, slot) - before <= 6,
	      "drops: %llu", (unsigned long long)(bpf_back__drops(b, slot) - before));
	lat_maps__delete(small);

	hist__delete(want[0]);
	hist__delete(want[1]);
	lat_maps__delete(lm);
	session__delete(s);
	return ut_done("test_lat_maps");
}
