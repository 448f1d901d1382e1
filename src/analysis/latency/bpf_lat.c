// SPDX-License-Identifier: GPL-2.0
/* Latency rows kept in the kernel: see bpf_lat.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "analysis/latency/bpf_lat.h"
#include "report/hist.h"

/* A row's value (u64 words, per CPU): cumulative counts, min/max by the interval's parity. */
enum { V_COUNT, V_MARKED, V_SUM, V_SLOT, V_WORDS = V_SLOT + 6 };
enum { S_TAG, S_MIN, S_MAX }; /* a slot: the interval it holds, its min, its max */

/* The scratch stack, from @scratch up. */
enum {
	X_BKEY = 0,   /* bucket key: row key (16), bucket (8) */
	X_ONE = 24,   /* a new bucket's count */
	X_ZERO = 32,  /* the epoch map's key */
	X_EPOCH = 40, /* the interval (epoch) */
	X_VALUE = 48, /* a new row's value */
	X_END = X_VALUE + V_WORDS * 8,
};
_Static_assert(X_END <= BPF_LAT_SCRATCH, "bpf_lat's scratch stack");

/* What the last read saw of a row, and what this read gained. */
struct lrow {
	uint64_t key[2];
	uint64_t count, marked, sum; /* cumulative, as last read */
	struct hist *h;		     /* this read's buckets */
	UT_hash_handle hh;
};

struct lbucket {
	uint64_t key[3];
	uint64_t count; /* cumulative, as last read */
	UT_hash_handle hh;
};

struct bpf_lat {
	struct bpf_back *b;
	int rows, buckets, epoch; /* map fds */
	int drop_rows, drop_buckets;
	uint64_t cur; /* the interval programs record now (from 1) */
	int ncpu;
	struct lrow *lrows;
	struct lbucket *lbuckets;
	unsigned entries; /* rows the map holds */
	uint64_t *gone;	  /* bpf_lat__forget's second key words, until a reap */
	size_t nr_gone, cap_gone;
	/* the read in progress: the interval it reads, whom it gives the rows */
	uint64_t ival;
	void (*fn)(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked);
	void *arg;
};

struct bpf_lat *bpf_lat__new(struct bpf_back *b, const char *name, unsigned entries, char *err,
			     size_t errlen)
{
	return bpf_lat__new_sized(b, name, entries, entries * BPF_LAT_BUCKETS_PER_ROW, false, err,
				  errlen);
}

struct bpf_lat *bpf_lat__new_sized(struct bpf_back *b, const char *name, unsigned rows,
				   unsigned buckets, bool prealloc, char *err, size_t errlen)
{
	unsigned flags = prealloc ? 0 : BPF_F_NO_PREALLOC;
	struct bpf_lat *l = calloc(1, sizeof(*l));
	char mname[16];

	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->b = b;
	l->entries = rows;
	l->ncpu = bpf_back__nr_cpus();
	if (l->ncpu <= 0) {
		snprintf(err, errlen, "no possible CPUs");
		free(l);
		return NULL;
	}
	/* inserts are rare (a key's first value): memory as keys occur, unless @prealloc */
	snprintf(mname, sizeof(mname), "%s_rows", name);
	l->rows = bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, mname, 16, V_WORDS * 8, rows, flags);
	snprintf(mname, sizeof(mname), "%s_hist", name);
	l->buckets = l->rows < 0
			     ? l->rows
			     : bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, mname, 24, 8, buckets,
					     flags);
	snprintf(mname, sizeof(mname), "%s_ival", name);
	l->epoch = l->buckets < 0 ? l->buckets
				  : bpf_back__map(b, BPF_MAP_TYPE_ARRAY, mname, 4, 8, 1, 0);
	if (l->epoch < 0) {
		snprintf(err, errlen, "%s: its maps: %s", name, strerror(-l->epoch));
		bpf_lat__delete(l);
		return NULL;
	}
	/* interval 1 first: 0 is the tag of a CPU's slot never written */
	l->cur = 1;
	if (bpf_map_update_elem(l->epoch, &(uint32_t){ 0 }, &l->cur, BPF_ANY)) {
		snprintf(err, errlen, "%s: its interval: %s", name, strerror(errno));
		bpf_lat__delete(l);
		return NULL;
	}
	/* (not preallocated: a burst of new keys can also find the kernel's element cache empty) */
	l->drop_rows = bpf_back__drop_slot(b, "latency rows not kept: map full (--bpf-entries) "
					      "or out of memory");
	l->drop_buckets = bpf_back__drop_slot(b, "latency buckets not kept: map full "
						 "(--bpf-entries) or out of memory");
	if (l->drop_rows < 0 || l->drop_buckets < 0) {
		snprintf(err, errlen, "%s: no drop slot left", name);
		bpf_lat__delete(l);
		return NULL;
	}
	return l;
}

void bpf_lat__delete(struct bpf_lat *l)
{
	struct lrow *r, *rt;
	struct lbucket *k, *kt;

	if (!l)
		return;
	HASH_ITER(hh, l->lrows, r, rt)
	{
		HASH_DEL(l->lrows, r);
		hist__delete(r->h);
		free(r);
	}
	HASH_ITER(hh, l->lbuckets, k, kt)
	{
		HASH_DEL(l->lbuckets, k);
		free(k);
	}
	free(l->gone);
	free(l); /* the maps are the session's */
}

/* ---- the program's part ---- */

/* R1 = map, R2 = R10 + @key, R3 = R10 + @val, R4 = @flags; call update: R0 = 0 or -errno */
static void emit_update(struct bpfb *c, int fd, int16_t key, int16_t val, int flags)
{
	b_ldmap(c, R1, fd);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, key);
	b_mov(c, R3, R10);
	b_alui(c, BPF_ADD, R3, val);
	b_movi(c, R4, flags);
	b_call(c, BPF_FUNC_map_update_elem);
}

void bpf_lat__emit_bucket(struct bpfb *c, int dst, int src, int t1, int t2)
{
	int done = bpfb__label(c);

	/* below 256: the value itself (block 0 exact, block 1 one value a bucket) */
	b_mov(c, dst, src);
	b_jmpi(c, BPF_JLT, src, 256, done);
	/* t1: floor(log2 v) by halving: 32, 16, 8, 4, 2, 1 */
	b_movi(c, t1, 0);
	b_mov(c, dst, src);
	for (int sh = 32; sh; sh >>= 1) {
		int next = bpfb__label(c);

		b_mov(c, t2, dst);
		b_alui(c, BPF_RSH, t2, sh);
		b_jmpi(c, BPF_JEQ, t2, 0, next);
		b_mov(c, dst, t2);
		b_alui(c, BPF_ADD, t1, sh);
		bpfb__here(c, next);
	}
	/* sh = bit length - 8 = floor(log2 v) - 7; bucket (sh << 7) + (v >> sh) */
	b_alui(c, BPF_SUB, t1, 7);
	b_mov(c, dst, src);
	b_alu(c, BPF_RSH, dst, t1);
	b_alui(c, BPF_LSH, t1, 7);
	b_alu(c, BPF_ADD, dst, t1);
	bpfb__here(c, done);
}

/* *(u64 *)(R0 + @off) += @src (per-CPU value: no atomic) */
static void emit_add(struct bpfb *c, int16_t off, int src)
{
	b_ldx(c, 8, R1, R0, off);
	b_alu(c, BPF_ADD, R1, src);
	b_stx(c, 8, R0, off, R1);
}

void bpf_lat__emit_record(struct bpf_lat *l, struct bpfb *c, int16_t key_off, int delta_reg,
			  int mark_reg, int16_t x)
{
	int epoch = bpfb__label(c), bnew = bpfb__label(c), bdrop = bpfb__label(c);
	int badd = bpfb__label(c), row = bpfb__label(c), rlook = bpfb__label(c);
	int rhave = bpfb__label(c), rdrop = bpfb__label(c), slot0 = bpfb__label(c);
	int same = bpfb__label(c), nomin = bpfb__label(c), done = bpfb__label(c);

	/* the bucket: (row key, bucket of delta) -> count + 1 */
	b_ldx(c, 8, R1, R10, key_off);
	b_stx(c, 8, R10, x + X_BKEY, R1);
	b_ldx(c, 8, R1, R10, key_off + 8);
	b_stx(c, 8, R10, x + X_BKEY + 8, R1);
	bpf_lat__emit_bucket(c, R1, delta_reg, R2, R3);
	b_stx(c, 8, R10, x + X_BKEY + 16, R1);
	b_lookup(c, l->buckets, x + X_BKEY);
	b_jmpi(c, BPF_JEQ, R0, 0, bnew);
	bpfb__here(c, badd);
	b_movi(c, R2, 1);
	emit_add(c, 0, R2);
	b_ja(c, epoch);
	/* a new bucket, made with its count (another CPU may make it first) */
	bpfb__here(c, bnew);
	b_st(c, 8, R10, x + X_ONE, 1);
	emit_update(c, l->buckets, x + X_BKEY, x + X_ONE, BPF_NOEXIST);
	b_jmpi(c, BPF_JEQ, R0, 0, epoch);
	b_jmpi(c, BPF_JNE, R0, -EEXIST, bdrop);
	b_lookup(c, l->buckets, x + X_BKEY);
	b_jmpi(c, BPF_JNE, R0, 0, badd);
	bpfb__here(c, bdrop);
	bpf_back__emit_drop(l->b, c, l->drop_buckets);

	/* the interval: which min/max slot */
	bpfb__here(c, epoch);
	b_st(c, 4, R10, x + X_ZERO, 0);
	b_lookup(c, l->epoch, x + X_ZERO);
	b_movi(c, R1, 0);
	b_jmpi(c, BPF_JEQ, R0, 0, row);
	b_ldx(c, 8, R1, R0, 0);
	bpfb__here(c, row);
	b_stx(c, 8, R10, x + X_EPOCH, R1);

	/* the row, made empty if new (both slots of no interval) */
	b_lookup(c, l->rows, key_off);
	b_jmpi(c, BPF_JNE, R0, 0, rhave);
	for (int i = 0; i < V_WORDS; i++)
		b_st(c, 8, R10, x + X_VALUE + 8 * i,
		     (i - V_SLOT) % 3 == S_TAG && i >= V_SLOT ? -1 : 0);
	emit_update(c, l->rows, key_off, x + X_VALUE, BPF_NOEXIST);
	b_jmpi(c, BPF_JEQ, R0, 0, rlook);
	b_jmpi(c, BPF_JNE, R0, -EEXIST, rdrop);
	bpfb__here(c, rlook);
	b_lookup(c, l->rows, key_off);
	b_jmpi(c, BPF_JEQ, R0, 0, rdrop);
	bpfb__here(c, rhave);
	b_movi(c, R2, 1);
	emit_add(c, 8 * V_COUNT, R2);
	if (mark_reg >= 0)
		emit_add(c, 8 * V_MARKED, mark_reg);
	emit_add(c, 8 * V_SUM, delta_reg);
	/* R0 to this interval's slot; a slot of another interval starts over */
	b_ldx(c, 8, R2, R10, x + X_EPOCH);
	b_mov(c, R3, R2);
	b_alui(c, BPF_AND, R3, 1);
	b_jmpi(c, BPF_JEQ, R3, 0, slot0);
	b_alui(c, BPF_ADD, R0, 24);
	bpfb__here(c, slot0);
	b_ldx(c, 8, R1, R0, 8 * (V_SLOT + S_TAG));
	b_jmp(c, BPF_JEQ, R1, R2, same);
	b_stx(c, 8, R0, 8 * (V_SLOT + S_TAG), R2);
	b_stx(c, 8, R0, 8 * (V_SLOT + S_MIN), delta_reg);
	b_stx(c, 8, R0, 8 * (V_SLOT + S_MAX), delta_reg);
	b_ja(c, done);
	bpfb__here(c, same);
	b_ldx(c, 8, R1, R0, 8 * (V_SLOT + S_MIN));
	b_jmp(c, BPF_JGE, delta_reg, R1, nomin);
	b_stx(c, 8, R0, 8 * (V_SLOT + S_MIN), delta_reg);
	bpfb__here(c, nomin);
	b_ldx(c, 8, R1, R0, 8 * (V_SLOT + S_MAX));
	b_jmp(c, BPF_JLE, delta_reg, R1, done);
	b_stx(c, 8, R0, 8 * (V_SLOT + S_MAX), delta_reg);
	b_ja(c, done);
	bpfb__here(c, rdrop);
	bpf_back__emit_drop(l->b, c, l->drop_rows);
	bpfb__here(c, done);
}

/* ---- user space: the reads ---- */

static struct lrow *lrow_of(struct bpf_lat *l, const uint64_t key[2])
{
	struct lrow *r;

	HASH_FIND(hh, l->lrows, key, 2 * sizeof(uint64_t), r);
	if (r)
		return r;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	memcpy(r->key, key, sizeof(r->key));
	HASH_ADD(hh, l->lrows, key, sizeof(r->key), r);
	return r;
}

/*
 * Every entry of the per-CPU map @fd (@ksz-byte keys, @vwords u64 a CPU) to
 * @fn: by batches of BATCH (one bpf(2) call each), or one key at a time
 * where the kernel has no batch lookup.  0 or -errno.
 */
#define BATCH 1024
static int each_entry(struct bpf_lat *l, int fd, size_t ksz, int vwords,
		      int (*fn)(struct bpf_lat *l, const void *key, const uint64_t *vals))
{
	size_t vsz = (size_t)l->ncpu * vwords * sizeof(uint64_t);
	uint64_t tok_in = 0, tok_out = 0;
	char *keys = malloc(BATCH * ksz), *prev = NULL, key[32], next[32];
	uint64_t *vals = malloc(BATCH * vsz);
	bool first = true;
	int err = -ENOMEM;

	if (!keys || !vals)
		goto out;
	for (;;) {
		__u32 n = BATCH;

		err = bpf_map_lookup_batch(fd, first ? NULL : &tok_in, &tok_out, keys, vals, &n,
					   NULL);
		if (err && err != -ENOENT)
			break;
		for (__u32 i = 0; i < n; i++)
			if ((err = fn(l, keys + i * ksz, (uint64_t *)((char *)vals + i * vsz))))
				goto out;
		if (err == -ENOENT) {
			err = 0;
			goto out;
		}
		tok_in = tok_out;
		first = false;
	}
	if (!first || (err != -EINVAL && err != -EOPNOTSUPP && err != -524 /* ENOTSUPP */))
		goto out;
	/* no batches here: key by key */
	while (!(err = bpf_map_get_next_key(fd, prev, next))) {
		memcpy(key, next, ksz);
		prev = key;
		if (bpf_map_lookup_elem(fd, key, vals))
			continue; /* cannot be deleted: ours never are */
		if ((err = fn(l, key, vals)))
			goto out;
	}
	err = err == -ENOENT ? 0 : err;
out:
	free(keys);
	free(vals);
	return err;
}

/* A bucket's growth into its row's hist. */
static int read_bucket(struct bpf_lat *l, const void *kp, const uint64_t *vals)
{
	uint64_t key[3], sum = 0;
	struct lbucket *k;
	struct lrow *r;

	memcpy(key, kp, sizeof(key));
	for (int c = 0; c < l->ncpu; c++)
		sum += vals[c];
	HASH_FIND(hh, l->lbuckets, key, sizeof(key), k);
	if (!k) {
		if (!(k = calloc(1, sizeof(*k))))
			return -ENOMEM;
		memcpy(k->key, key, sizeof(key));
		HASH_ADD(hh, l->lbuckets, key, sizeof(k->key), k);
	}
	if (sum == k->count)
		return 0;
	if (!(r = lrow_of(l, key)) || (!r->h && !(r->h = hist__new())) ||
	    hist__record_n(r->h, bpf_lat__bucket_lo(key[2]), sum - k->count))
		return -ENOMEM;
	k->count = sum;
	return 0;
}

/* A row's growth: its totals exact, its min and max this interval's. */
static int read_row(struct bpf_lat *l, const void *kp, const uint64_t *vals)
{
	uint64_t key[2], count = 0, marked = 0, sum = 0, min = UINT64_MAX, max = 0;
	struct lrow *r;

	memcpy(key, kp, sizeof(key));
	for (int c = 0; c < l->ncpu; c++) {
		const uint64_t *v = vals + c * V_WORDS;

		count += v[V_COUNT];
		marked += v[V_MARKED];
		sum += v[V_SUM];
		for (int s = 0; s < 2; s++) {
			const uint64_t *sl = v + V_SLOT + 3 * s;

			if (sl[S_TAG] != l->ival)
				continue;
			if (sl[S_MIN] < min)
				min = sl[S_MIN];
			if (sl[S_MAX] > max)
				max = sl[S_MAX];
		}
	}
	if (!(r = lrow_of(l, key)))
		return -ENOMEM;
	if (count == r->count)
		return 0;
	if (!r->h && !(r->h = hist__new()))
		return -ENOMEM;
	/* none in this interval's slot (the values came as it ended): the buckets' bounds */
	if (min > max) {
		min = hist__count(r->h) ? hist__min(r->h) : sum - r->sum;
		max = hist__count(r->h) ? hist__max(r->h) : sum - r->sum;
	}
	hist__set_stats(r->h, count - r->count, min, max, sum - r->sum);
	l->fn(l->arg, key, r->h, marked - r->marked);
	/* its buckets are in the table's row now: no second copy kept */
	hist__delete(r->h);
	r->h = NULL;
	r->count = count;
	r->marked = marked;
	r->sum = sum;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool gone(const struct bpf_lat *l, uint64_t key1)
{
	return bsearch(&key1, l->gone, l->nr_gone, sizeof(key1), cmp_u64) != NULL;
}

/*
 * After a read: the forgotten keys' buckets and rows taken out of the maps
 * (lookup and delete: what came since the read, a reused thread id's, is
 * taken too and reported), and out of what we remember.
 */
static int reap(struct bpf_lat *l)
{
	size_t vsz = (size_t)l->ncpu * V_WORDS * sizeof(uint64_t);
	uint64_t *vals = malloc(vsz);
	struct lbucket *k, *kt;
	struct lrow *r, *rt;
	int err = 0;

	if (!vals)
		return -ENOMEM;
	qsort(l->gone, l->nr_gone, sizeof(*l->gone), cmp_u64);
	HASH_ITER(hh, l->lbuckets, k, kt)
	{
		if (!gone(l, k->key[1]))
			continue;
		if (!bpf_map_lookup_and_delete_elem(l->buckets, k->key, vals) &&
		    (err = read_bucket(l, k->key, vals)))
			break;
		HASH_DEL(l->lbuckets, k);
		free(k);
	}
	HASH_ITER(hh, l->lrows, r, rt)
	{
		if (err || !gone(l, r->key[1]))
			continue;
		if (!bpf_map_lookup_and_delete_elem(l->rows, r->key, vals) &&
		    (err = read_row(l, r->key, vals)))
			break;
		HASH_DEL(l->lrows, r);
		hist__delete(r->h);
		free(r);
	}
	l->nr_gone = 0;
	free(vals);
	return err;
}

int bpf_lat__read(struct bpf_lat *l, unsigned flags,
		  void (*fn)(void *arg, const uint64_t key[2], const struct hist *h,
			     uint64_t marked),
		  void *arg)
{
	bool next_interval = flags & BPF_LAT_NEXT_INTERVAL;
	int err;

	l->ival = l->cur;
	l->fn = fn;
	l->arg = arg;
	if (next_interval) {
		uint32_t zero = 0;
		uint64_t e = l->cur + 1;

		if ((err = bpf_map_update_elem(l->epoch, &zero, &e, BPF_ANY)))
			return err;
		l->cur = e;
	}
	if ((err = each_entry(l, l->buckets, 24, 1, read_bucket)) ||
	    (err = each_entry(l, l->rows, 16, V_WORDS, read_row)))
		return err;
	/* deletes cost (the kernel frees each element): only when the rows fill half the map */
	if (!l->nr_gone || (flags & BPF_LAT_LAST) || HASH_COUNT(l->lrows) < l->entries / 2)
		return 0;
	return reap(l);
}

int bpf_lat__forget(struct bpf_lat *l, uint64_t key1)
{
	if (l->nr_gone == l->cap_gone) {
		size_t cap = l->cap_gone ? 2 * l->cap_gone : 64;
		uint64_t *g = realloc(l->gone, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		l->gone = g;
		l->cap_gone = cap;
	}
	l->gone[l->nr_gone++] = key1;
	return 0;
}
