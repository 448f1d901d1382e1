// SPDX-License-Identifier: GPL-2.0
/* Latency rows in BPF maps: see lat_maps.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "analysis/latency/lat_maps.h"
#include "report/hist.h"

/* A row's value in the kernel (per CPU). */
struct lm_row {
	u64 count, sum, min, max, epoch;
};
enum { V_COUNT = 0, V_SUM = 8, V_MIN = 16, V_MAX = 24, V_EPOCH = 32 };

struct lm_rkey {
	u32 row, key;
};
struct lm_bkey {
	u32 row, key, idx, pad;
};

/* the stack of emit_record */
enum { S_BKEY = -24, S_RKEY = -32, S_RVAL = -72, S_BVAL = -80 };

/* user space: what was printed (the base), and a row's sums while reading */
struct lm_seen {
	struct lm_bkey k; /* idx ~0: a row */
	u64 count, sum;	  /* printed */
	u64 now, now_sum, min, max;
	bool has_minmax;
	struct hist *h;
	UT_hash_handle hh;
};

struct lat_maps {
	struct bpf_back *b;
	int rows, buckets, epoch;
	int drop;
	u64 cur_epoch, since; /* the programs' epoch; the interval's first */
	struct lm_seen *seen;
};

struct lat_maps *lat_maps__new(struct bpf_back *b, unsigned entries)
{
	struct lat_maps *m = calloc(1, sizeof(*m));
	u32 zero = 0;

	if (!m)
		return NULL;
	m->b = b;
	m->rows = bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, "pp_lat_rows", sizeof(struct lm_rkey),
				sizeof(struct lm_row), entries, BPF_F_NO_PREALLOC);
	m->buckets = m->rows < 0 ? m->rows
				 : bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, "pp_lat_buckets",
						 sizeof(struct lm_bkey), 8, 8 * entries,
						 BPF_F_NO_PREALLOC);
	m->epoch = m->buckets < 0
			   ? m->buckets
			   : bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_lat_epoch", 4, 8, 1, 0);
	if (m->epoch < 0) {
		free(m);
		return NULL;
	}
	/* epoch 1: a CPU's new copy of a row (zeroed, epoch 0) starts its min and max */
	m->cur_epoch = m->since = 1;
	if (bpf_map_update_elem(m->epoch, &zero, &m->cur_epoch, BPF_ANY)) {
		free(m);
		return NULL;
	}
	m->drop = bpf_back__drop_slot(
		b, "latencies not counted: map full (--bpf-entries) or out of memory");
	return m;
}

void lat_maps__delete(struct lat_maps *m)
{
	struct lm_seen *e, *tmp;

	if (!m)
		return;
	HASH_ITER(hh, m->seen, e, tmp)
	{
		HASH_DEL(m->seen, e);
		hist__delete(e->h);
		free(e);
	}
	free(m);
}

/* R@dst = &array map @map's value (no helper call) */
static void ld_value(struct bpfb *c, int dst, int map)
{
	bpfb__emit(c, BPFB_INSN(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_VALUE, 0, map));
	bpfb__emit(c, BPFB_INSN(0, 0, 0, 0, 0));
}

/*
 * R1 = hist__index(@v): below HDR_SUB the value; else with e the top
 * bit's position, (e - HDR_SUB_BITS + 1) * HDR_SUB + (v >> (e -
 * HDR_SUB_BITS)) - HDR_SUB.  Uses R1-R3.
 */
static void emit_index(struct bpfb *c, int v)
{
	int big = bpfb__label(c), done = bpfb__label(c);

	b_mov(c, R1, v);
	b_jmpi(c, BPF_JGE, R1, HDR_SUB, big);
	b_ja(c, done);
	bpfb__here(c, big);
	b_movi(c, R2, 0); /* e */
	for (int sh = 32; sh; sh /= 2) {
		int skip = bpfb__label(c);

		b_mov(c, R3, R1);
		b_alui(c, BPF_RSH, R3, sh);
		b_jmpi(c, BPF_JEQ, R3, 0, skip);
		b_mov(c, R1, R3);
		b_alui(c, BPF_ADD, R2, sh);
		bpfb__here(c, skip);
	}
	/* R1 = v >> (e - SUB_BITS) - SUB */
	b_mov(c, R1, v);
	b_mov(c, R3, R2);
	b_alui(c, BPF_SUB, R3, HDR_SUB_BITS);
	b_alu(c, BPF_RSH, R1, R3);
	b_alui(c, BPF_SUB, R1, HDR_SUB);
	/* + (e - SUB_BITS + 1) * SUB */
	b_alui(c, BPF_SUB, R2, HDR_SUB_BITS - 1);
	b_alui(c, BPF_LSH, R2, HDR_SUB_BITS);
	b_alu(c, BPF_ADD, R1, R2);
	bpfb__here(c, done);
}

/* R1 = map, R2 = R10 + @key, R3 = R10 + @val, update (BPF_ANY): R0 = 0 or -errno */
static void emit_update(struct bpfb *c, int map, int key, int val)
{
	b_ldmap(c, R1, map);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, key);
	b_mov(c, R3, R10);
	b_alui(c, BPF_ADD, R3, val);
	b_movi(c, R4, BPF_ANY);
	b_call(c, BPF_FUNC_map_update_elem);
}

void lat_maps__emit_record(struct lat_maps *m, struct bpfb *c, int row_reg, int key_reg,
			   int delta_reg)
{
	int new_bucket = bpfb__label(c), stats = bpfb__label(c), new_row = bpfb__label(c);
	int reset = bpfb__label(c), no_min = bpfb__label(c), add = bpfb__label(c);
	int drop = bpfb__label(c), done = bpfb__label(c);

	/* the bucket: count one more (this CPU's copy: no atomics) */
	b_stx(c, 4, R10, S_BKEY, row_reg);
	b_stx(c, 4, R10, S_BKEY + 4, key_reg);
	emit_index(c, delta_reg);
	b_stx(c, 4, R10, S_BKEY + 8, R1);
	b_st(c, 4, R10, S_BKEY + 12, 0);
	b_lookup(c, m->buckets, S_BKEY);
	b_jmpi(c, BPF_JEQ, R0, 0, new_bucket);
	b_ldx(c, 8, R1, R0, 0);
	b_alui(c, BPF_ADD, R1, 1);
	b_stx(c, 8, R0, 0, R1);
	b_ja(c, stats);
	bpfb__here(c, new_bucket);
	/* (another CPU's insert since the lookup: this CPU's copy is 0 there, 1 is right) */
	b_st(c, 8, R10, S_BVAL, 1);
	emit_update(c, m->buckets, S_BKEY, S_BVAL);
	b_jmpi(c, BPF_JNE, R0, 0, drop);

	/* the row's count, sum, min, max */
	bpfb__here(c, stats);
	b_stx(c, 4, R10, S_RKEY, row_reg);
	b_stx(c, 4, R10, S_RKEY + 4, key_reg);
	b_lookup(c, m->rows, S_RKEY);
	ld_value(c, R1, m->epoch);
	b_ldx(c, 8, R1, R1, 0);
	b_jmpi(c, BPF_JEQ, R0, 0, new_row);
	b_ldx(c, 8, R2, R0, V_EPOCH);
	b_jmp(c, BPF_JNE, R2, R1, reset);
	b_ldx(c, 8, R2, R0, V_MIN);
	b_jmp(c, BPF_JGE, delta_reg, R2, no_min);
	b_stx(c, 8, R0, V_MIN, delta_reg);
	bpfb__here(c, no_min);
	b_ldx(c, 8, R2, R0, V_MAX);
	b_jmp(c, BPF_JLE, delta_reg, R2, add);
	b_stx(c, 8, R0, V_MAX, delta_reg);
	b_ja(c, add);
	bpfb__here(c, reset); /* this CPU's first pair of the interval */
	b_stx(c, 8, R0, V_MIN, delta_reg);
	b_stx(c, 8, R0, V_MAX, delta_reg);
	b_stx(c, 8, R0, V_EPOCH, R1);
	bpfb__here(c, add);
	b_ldx(c, 8, R1, R0, V_COUNT);
	b_alui(c, BPF_ADD, R1, 1);
	b_stx(c, 8, R0, V_COUNT, R1);
	b_ldx(c, 8, R1, R0, V_SUM);
	b_alu(c, BPF_ADD, R1, delta_reg);
	b_stx(c, 8, R0, V_SUM, R1);
	b_ja(c, done);
	bpfb__here(c, new_row);
	b_st(c, 8, R10, S_RVAL + V_COUNT, 1);
	b_stx(c, 8, R10, S_RVAL + V_SUM, delta_reg);
	b_stx(c, 8, R10, S_RVAL + V_MIN, delta_reg);
	b_stx(c, 8, R10, S_RVAL + V_MAX, delta_reg);
	b_stx(c, 8, R10, S_RVAL + V_EPOCH, R1);
	emit_update(c, m->rows, S_RKEY, S_RVAL);
	b_jmpi(c, BPF_JEQ, R0, 0, done);
	bpfb__here(c, drop);
	bpf_back__emit_drop(m->b, c, m->drop);
	bpfb__here(c, done);
}

/* ---- reading ---- */

static struct lm_seen *seen(struct lat_maps *m, const struct lm_bkey *k)
{
	struct lm_seen *e;

	HASH_FIND(hh, m->seen, k, sizeof(*k), e);
	if (e)
		return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->k = *k;
	HASH_ADD(hh, m->seen, k, sizeof(e->k), e);
	return e;
}

#define BATCH 512
int lat_maps__walk(int map, size_t ksz, size_t vsz, int ncpu,
		   int (*fn)(void *arg, const void *key, const void *vals, int ncpu), void *arg)
{
	char *keys = malloc(BATCH * ksz), *vals = malloc(BATCH * vsz * ncpu);
	u64 in = 0, out = 0; /* (a hash map's batch token: a bucket number) */
	bool first = true;
	int err = 0;

	if (!keys || !vals) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		__u32 n = BATCH;
		int r = bpf_map_lookup_batch(map, first ? NULL : &in, &out, keys, vals, &n, NULL);
		bool end = r && errno == ENOENT;

		if (r && !end) {
			if (!first)
				err = -errno;
			break; /* (no batches here: key by key below) */
		}
		for (__u32 i = 0; i < n && !err; i++)
			err = fn(arg, keys + i * ksz, vals + (size_t)i * vsz * ncpu, ncpu);
		if (end || err) {
			free(keys);
			free(vals);
			return err;
		}
		in = out;
		first = false;
	}
	if (!err) {
		char *key = keys, *next = keys + ksz;
		void *prev = NULL;

		while (!err && !bpf_map_get_next_key(map, prev, next)) {
			memcpy(key, next, ksz);
			prev = key;
			if (!bpf_map_lookup_elem(map, key, vals))
				err = fn(arg, key, vals, ncpu);
		}
	}
out:
	free(keys);
	free(vals);
	return err;
}

/* A row's sums over the CPUs (now, min and max of the interval). */
static int one_row(void *arg, const void *key, const void *vals, int ncpu)
{
	struct lat_maps *m = arg;
	const struct lm_rkey *rk = key;
	const struct lm_row *v = vals;
	struct lm_bkey k = { rk->row, rk->key, ~0u, 0 };
	struct lm_seen *e = seen(m, &k);

	if (!e)
		return -ENOMEM;
	e->now = e->now_sum = 0;
	e->has_minmax = false;
	for (int c = 0; c < ncpu; c++) {
		e->now += v[c].count;
		e->now_sum += v[c].sum;
		if (!v[c].count || v[c].epoch < m->since)
			continue;
		if (!e->has_minmax || v[c].min < e->min)
			e->min = v[c].min;
		if (!e->has_minmax || v[c].max > e->max)
			e->max = v[c].max;
		e->has_minmax = true;
	}
	return 0;
}

/* A bucket's count beyond the printed one, into its row's histogram. */
static int one_bucket(void *arg, const void *key, const void *vals, int ncpu)
{
	struct lat_maps *m = arg;
	const struct lm_bkey *bk = key;
	const u64 *v = vals;
	struct lm_bkey rk = { bk->row, bk->key, ~0u, 0 };
	struct lm_seen *e, *r;
	u64 n = 0;

	for (int c = 0; c < ncpu; c++)
		n += v[c];
	e = seen(m, bk);
	HASH_FIND(hh, m->seen, &rk, sizeof(rk), r);
	if (!e)
		return -ENOMEM;
	e->now = n;
	if (n == e->count || !r)
		return 0; /* (a row not yet there: the next read has it) */
	if (!r->h && !(r->h = hist__new()))
		return -ENOMEM;
	return hist__record_bucket(r->h, bk->idx, n - e->count);
}

int lat_maps__read(struct lat_maps *m, bool interval,
		   void (*fn)(void *arg, unsigned row, unsigned key, const struct hist *h),
		   void *arg)
{
	int ncpu = bpf_back__nr_cpus(), err;
	struct lm_seen *e, *tmp;
	u32 zero = 0;

	if (interval) {
		/* pairs closed from now on belong to the next interval's min and max */
		m->cur_epoch++;
		if (bpf_map_update_elem(m->epoch, &zero, &m->cur_epoch, BPF_ANY))
			return -errno;
	}
	err = lat_maps__walk(m->rows, sizeof(struct lm_rkey), sizeof(struct lm_row), ncpu, one_row,
			     m)
		      ?: lat_maps__walk(m->buckets, sizeof(struct lm_bkey), sizeof(u64), ncpu,
					one_bucket, m);
	HASH_ITER(hh, m->seen, e, tmp)
	{
		if (e->k.idx != ~0u)
			continue;
		if (!err && e->h && hist__count(e->h)) {
			hist__set_exact(e->h, e->has_minmax ? e->min : hist__min(e->h),
					e->has_minmax ? e->max : hist__max(e->h),
					e->now_sum - e->sum);
			fn(arg, e->k.row, e->k.key, e->h);
		}
		if (e->h)
			hist__reset(e->h);
	}
	if (interval && !err) {
		HASH_ITER(hh, m->seen, e, tmp)
		{
			e->count = e->now;
			e->sum = e->now_sum;
		}
		m->since = m->cur_epoch;
	}
	return err;
}
