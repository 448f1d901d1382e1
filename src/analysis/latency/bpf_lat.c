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
enum { V_COUNT, V_MARKED, V_SUM, V_OVER, V_SLOT, V_WORDS = V_SLOT + 6 };
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
	uint64_t over;		     /* ... above than */
	struct hist *h;		     /* this read's buckets */
	bool idle;		     /* nothing came since the read before the last */
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
	int arows, abuckets;	  /* ... the aside maps: written while a reap runs */
	int drop_rows, drop_buckets;
	uint64_t cur; /* the interval programs record now (from 1) */
	int ncpu;
	struct lrow *lrows;
	struct lbucket *lbuckets;
	unsigned entries, nbuckets; /* rows and buckets the maps hold */
	bool no_delete;		    /* no reap (the programs could not be set aside) */
	uint64_t than;		    /* bpf_lat__set_than (0: none) */
	uint64_t row_over; /* the row given to fn: its latencies above than since the last read */
	uint64_t *gone;	   /* bpf_lat__forget's second key words, until a reap */
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

void bpf_lat__prealloc_fit(int ncpu, unsigned *rows, unsigned *buckets)
{
	/* a per-CPU value is its size rounded to 8, per possible CPU */
	unsigned long long need = (unsigned long long)(ncpu > 0 ? ncpu : 1) *
				  ((unsigned long long)*rows * V_WORDS * 8 + *buckets * 8ull);

	if (need <= BPF_LAT_PREALLOC_BYTES)
		return;
	*rows = (unsigned)(*rows * BPF_LAT_PREALLOC_BYTES / need);
	*buckets = (unsigned)(*buckets * BPF_LAT_PREALLOC_BYTES / need);
	if (*rows < BPF_LAT_MIN_ROWS)
		*rows = BPF_LAT_MIN_ROWS;
	if (*buckets < BPF_LAT_MIN_BUCKETS)
		*buckets = BPF_LAT_MIN_BUCKETS;
}

unsigned bpf_lat__rows_for(const struct opt_set *opts, bool per_key)
{
	unsigned n = bpf_back__entries(opts);

	return per_key || n < BPF_LAT_FEW_ROWS ? n : BPF_LAT_FEW_ROWS;
}

unsigned bpf_lat__buckets_for(const struct opt_set *opts, bool per_key)
{
	unsigned n = bpf_back__entries(opts);

	return per_key ? n * BPF_LAT_BUCKETS_PER_ROW : n / 4;
}

static unsigned aside_size(unsigned n, unsigned min)
{
	return n / 4 > min ? n / 4 : min < n ? min : n;
}

struct bpf_lat *bpf_lat__new_sized(struct bpf_back *b, const char *name, unsigned rows,
				   unsigned buckets, bool prealloc, char *err, size_t errlen)
{
	unsigned flags = prealloc ? 0 : BPF_F_NO_PREALLOC, arows, abuckets;
	struct bpf_lat *l = calloc(1, sizeof(*l));
	char mname[16];

	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->b = b;
	l->entries = rows;
	l->nbuckets = buckets;
	l->ncpu = bpf_back__nr_cpus();
	if (l->ncpu <= 0) {
		snprintf(err, errlen, "no possible CPUs");
		free(l);
		return NULL;
	}
	/* inserts are rare (a key's first value): memory as keys occur, unless @prealloc */
	if (prealloc)
		bpf_lat__prealloc_fit(l->ncpu, &rows, &buckets);
	l->entries = rows;
	l->nbuckets = buckets;
	snprintf(mname, sizeof(mname), "%s_rows", name);
	l->rows = bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, mname, 16, V_WORDS * 8, rows, flags);
	snprintf(mname, sizeof(mname), "%s_hist", name);
	l->buckets = l->rows < 0 ? l->rows
				 : bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, mname, 24, 8, buckets,
						 flags);
	/*
	 * The aside maps: what comes during a reap (tens of ms; a burst of new
	 * threads' rows then is all new keys): as large, or a quarter of a
	 * preallocated map (its memory is taken at once).
	 */
	arows = prealloc ? aside_size(rows, BPF_LAT_MIN_ROWS) : rows;
	abuckets = prealloc ? aside_size(buckets, BPF_LAT_MIN_BUCKETS) : buckets;
	snprintf(mname, sizeof(mname), "%s_arows", name);
	l->arows = l->buckets < 0 ? l->buckets
				  : bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, mname, 16,
						  V_WORDS * 8, arows, flags);
	snprintf(mname, sizeof(mname), "%s_ahist", name);
	l->abuckets = l->arows < 0 ? l->arows
				   : bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, mname, 24, 8,
						   abuckets, flags);
	snprintf(mname, sizeof(mname), "%s_ival", name);
	l->epoch = l->abuckets < 0 ? l->abuckets
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
	/* a bucket not kept loses no event: its row has it (only the quantiles miss it) */
	l->drop_buckets = bpf_back__note_slot(
		b, prealloc ? "latency values left out of the quantiles only (count, total, min, "
			      "max exact): bucket map full (--bpf-entries)"
			    : "latency values left out of the quantiles only (count, total, min, "
			      "max exact): bucket map full (--bpf-entries) or out of memory");
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

/* bpf_lat__emit_record into the maps @rows and @buckets (the main ones or the aside ones) */
static void emit_record_in(struct bpf_lat *l, struct bpfb *c, int rows, int buckets,
			   int16_t key_off, int delta_reg, int mark_reg, int16_t x)
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
	b_lookup(c, buckets, x + X_BKEY);
	b_jmpi(c, BPF_JEQ, R0, 0, bnew);
	bpfb__here(c, badd);
	b_movi(c, R2, 1);
	emit_add(c, 0, R2);
	b_ja(c, epoch);
	/* a new bucket, made with its count (another CPU may make it first) */
	bpfb__here(c, bnew);
	b_st(c, 8, R10, x + X_ONE, 1);
	emit_update(c, buckets, x + X_BKEY, x + X_ONE, BPF_NOEXIST);
	b_jmpi(c, BPF_JEQ, R0, 0, epoch);
	b_jmpi(c, BPF_JNE, R0, -EEXIST, bdrop);
	b_lookup(c, buckets, x + X_BKEY);
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
	b_lookup(c, rows, key_off);
	b_jmpi(c, BPF_JNE, R0, 0, rhave);
	for (int i = 0; i < V_WORDS; i++)
		b_st(c, 8, R10, x + X_VALUE + 8 * i,
		     (i - V_SLOT) % 3 == S_TAG && i >= V_SLOT ? -1 : 0);
	emit_update(c, rows, key_off, x + X_VALUE, BPF_NOEXIST);
	b_jmpi(c, BPF_JEQ, R0, 0, rlook);
	b_jmpi(c, BPF_JNE, R0, -EEXIST, rdrop);
	bpfb__here(c, rlook);
	b_lookup(c, rows, key_off);
	b_jmpi(c, BPF_JEQ, R0, 0, rdrop);
	bpfb__here(c, rhave);
	b_movi(c, R2, 1);
	emit_add(c, 8 * V_COUNT, R2);
	if (mark_reg >= 0)
		emit_add(c, 8 * V_MARKED, mark_reg);
	emit_add(c, 8 * V_SUM, delta_reg);
	if (l->than) {
		int under = bpfb__label(c);

		b_ld64(c, R2, l->than);
		b_jmp(c, BPF_JLE, delta_reg, R2, under);
		b_movi(c, R2, 1);
		emit_add(c, 8 * V_OVER, R2);
		bpfb__here(c, under);
	}
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

void bpf_lat__emit_record(struct bpf_lat *l, struct bpfb *c, int16_t key_off, int delta_reg,
			  int mark_reg, int16_t x)
{
	int aside = bpfb__label(c), done = bpfb__label(c);

	/* while a reap runs, into the aside maps (see reap) */
	bpf_back__emit_aside(l->b, c, R0, aside);
	emit_record_in(l, c, l->rows, l->buckets, key_off, delta_reg, mark_reg, x);
	b_ja(c, done);
	bpfb__here(c, aside);
	emit_record_in(l, c, l->arows, l->abuckets, key_off, delta_reg, mark_reg, x);
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
	r->idle = true; /* until a read finds it in the rows map (a bucket can come first) */
	HASH_ADD(hh, l->lrows, key, sizeof(r->key), r);
	return r;
}

/* each_entry's walk: the map's values handed to the reader with its state */
struct walk {
	struct bpf_lat *l;
	int (*fn)(struct bpf_lat *l, const void *key, const uint64_t *vals);
};

static int walk_one(void *arg, const void *key, const void *val)
{
	struct walk *w = arg;

	return w->fn(w->l, key, val);
}

/* Every entry of the per-CPU map @fd (@ksz-byte keys, @vwords u64 a CPU) to @fn. */
static int each_entry(struct bpf_lat *l, int fd, size_t ksz, int vwords,
		      int (*fn)(struct bpf_lat *l, const void *key, const uint64_t *vals))
{
	struct walk w = { l, fn };

	return bpf_back__each(fd, ksz, (size_t)l->ncpu * vwords * sizeof(uint64_t), walk_one, &w);
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
	uint64_t key[2], count = 0, marked = 0, sum = 0, over = 0, min = UINT64_MAX, max = 0;
	struct lrow *r;

	memcpy(key, kp, sizeof(key));
	for (int c = 0; c < l->ncpu; c++) {
		const uint64_t *v = vals + c * V_WORDS;

		count += v[V_COUNT];
		marked += v[V_MARKED];
		sum += v[V_SUM];
		over += v[V_OVER];
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
	r->idle = count == r->count;
	if (r->idle)
		return 0;
	if (!r->h && !(r->h = hist__new()))
		return -ENOMEM;
	/* none in this interval's slot (the values came as it ended): the buckets' bounds */
	if (min > max) {
		min = hist__count(r->h) ? hist__min(r->h) : sum - r->sum;
		max = hist__count(r->h) ? hist__max(r->h) : sum - r->sum;
	}
	hist__set_stats(r->h, count - r->count, min, max, sum - r->sum);
	l->row_over = over - r->over;
	l->fn(l->arg, key, r->h, marked - r->marked);
	l->row_over = 0;
	r->over = over;
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
	return l->nr_gone && bsearch(&key1, l->gone, l->nr_gone, sizeof(key1), cmp_u64) != NULL;
}

/* A row leaves the maps at a reap: its thread is gone, or nothing came to it in the read. */
static bool reaped(struct bpf_lat *l, const uint64_t key[2])
{
	struct lrow *r;

	if (gone(l, key[1]))
		return true;
	HASH_FIND(hh, l->lrows, key, 2 * sizeof(uint64_t), r);
	return r && r->idle;
}

/* The tables of what was read, emptied (the aside maps' keys deleted there too, @fd >= 0). */
static void forget_all(struct lrow **rows, struct lbucket **buckets, int rfd, int bfd)
{
	struct lbucket *k, *kt;
	struct lrow *r, *rt;

	HASH_ITER(hh, *buckets, k, kt)
	{
		if (bfd >= 0)
			bpf_map_delete_elem(bfd, k->key);
		HASH_DEL(*buckets, k);
		free(k);
	}
	HASH_ITER(hh, *rows, r, rt)
	{
		if (rfd >= 0)
			bpf_map_delete_elem(rfd, r->key);
		HASH_DEL(*rows, r);
		hist__delete(r->h);
		free(r);
	}
}

/*
 * The aside maps, still: what came while the programs were set aside, all
 * of it new (read into tables of their own, which start from nothing),
 * given as the rows' growth; then emptied.
 */
static int read_aside(struct bpf_lat *l)
{
	struct lrow *rows = l->lrows;
	struct lbucket *buckets = l->lbuckets;
	int err;

	l->lrows = NULL;
	l->lbuckets = NULL;
	err = each_entry(l, l->abuckets, 24, 1, read_bucket);
	if (!err)
		err = each_entry(l, l->arows, 16, V_WORDS, read_row);
	forget_all(&l->lrows, &l->lbuckets, l->arows, l->abuckets);
	l->lrows = rows;
	l->lbuckets = buckets;
	return err;
}

/*
 * After a read: the forgotten keys' buckets and rows taken out of the maps
 * and out of what we remember.  A program that found a row before its
 * delete would add to freed memory after it (or to an element recycled for
 * another key): so the programs are set aside first (bpf_back__aside: they
 * write to the aside maps), each key to go, still, is read once more (what
 * came since the read) and deleted; then the programs come back, and the
 * aside maps, still in their turn, are read and emptied at the next read
 * (bpf_lat__read: by then the names of the threads that came meanwhile
 * have been read too; the other keys' growth waits for it as well).  Every
 * value is counted once.
 */
static int reap(struct bpf_lat *l)
{
	size_t vsz = (size_t)l->ncpu * V_WORDS * sizeof(uint64_t);
	uint64_t *vals = malloc(vsz);
	struct lbucket *k, *kt;
	struct lrow *r, *rt;
	int still, err = 0;

	if (!vals)
		return -ENOMEM;
	if (l->nr_gone)
		qsort(l->gone, l->nr_gone, sizeof(*l->gone), cmp_u64);
	still = bpf_back__aside(l->b, true);
	if (still < 0) { /* (no reap: a full map's values are said) */
		bpf_back__aside(l->b, false);
		l->no_delete = true;
		goto out;
	}
	/* (the maps still: each key's last values read, then it goes) */
	HASH_ITER(hh, l->lbuckets, k, kt)
	{
		if (err || !reaped(l, k->key))
			continue;
		if (!bpf_map_lookup_elem(l->buckets, k->key, vals))
			err = read_bucket(l, k->key, vals);
		bpf_map_delete_elem(l->buckets, k->key);
		HASH_DEL(l->lbuckets, k);
		free(k);
	}
	HASH_ITER(hh, l->lrows, r, rt)
	{
		if (err || !(r->idle || gone(l, r->key[1])))
			continue;
		if (!bpf_map_lookup_elem(l->rows, r->key, vals))
			err = read_row(l, r->key, vals);
		bpf_map_delete_elem(l->rows, r->key);
		HASH_DEL(l->lrows, r);
		hist__delete(r->h);
		free(r);
	}
	if (still > 0)
		bpf_back__aside(l->b, false);
out:
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
	/* (the aside maps: what came while another table's reap set the programs aside) */
	if ((err = each_entry(l, l->buckets, 24, 1, read_bucket)) ||
	    (err = each_entry(l, l->rows, 16, V_WORDS, read_row)) || (err = read_aside(l)))
		return err;
	/*
	 * Deletes cost (the kernel frees each element): only when the rows or
	 * the buckets fill half their map, so keys that come and go (threads)
	 * do not fill them.
	 */
	if ((flags & BPF_LAT_LAST) ||
	    (HASH_COUNT(l->lrows) < l->entries / 2 && HASH_COUNT(l->lbuckets) < l->nbuckets / 2))
		return 0;
	if (l->no_delete) {
		l->nr_gone = 0;
		return 0;
	}
	return reap(l);
}

void bpf_lat__set_than(struct bpf_lat *l, uint64_t ns)
{
	l->than = ns;
}

uint64_t bpf_lat__over(const struct bpf_lat *l)
{
	return l->row_over;
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
