// SPDX-License-Identifier: GPL-2.0
/*
 * Two tables: raw callchains (the kernel's ips, and the pid when user
 * frames are in it: addresses mean something per process) to ids, so a
 * stack seen again costs a hash; and resolved frames to ids, so equal
 * stacks of different processes (or runs of a DWARF unwind) merge.  A
 * resolved frame is keyed by its symbol, offset and object; an unresolved
 * one in a known mapping of a file by its file offset and object (a
 * stripped binary loaded at other addresses by each process is still one
 * stack), otherwise by its address.  A stack keeps the frames of its first
 * sample: an unresolved frame shows that process's address.  The raw
 * callchains of a process are keyed by its pid and image (stack_ctx__image:
 * another after an exec, an exit or a reuse of the pid), so that those of
 * the program before are not found again; a sweep drops them.  Frame
 * strings are copied into one interned set,
 * counted by the frames that use them: symbol tables go away with the
 * processes that mapped them.
 *
 * Generations: every sweep starts a new one; a stack or raw callchain
 * seen gets the current one.  A sweep drops the raw callchains of older
 * generations, and (a full sweep) the stacks of older generations that
 * nobody holds.  A raw callchain of the current generation points to a
 * stack of the current generation, so no raw entry outlives its stack.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "analysis/stacks/stackdb.h"
#include "util/hash.h"

#define MAX_FRAMES 512
#define STK_SWEEP_MIN 4096 /* stacks kept before the first sweep */
#define RAW_SWEEP_MIN 4096

struct str {
	UT_hash_handle hh;
	u32 refs; /* frames of kept stacks naming it */
	char s[];
};

struct raw {
	UT_hash_handle hh;
	u32 id;
	u32 gen;
	u32 len;   /* bytes of key */
	u64 key[]; /* pid, its image, then the ips */
};

struct stk {
	UT_hash_handle hh;
	u32 id;
	u32 refs;
	u32 gen;
	int nr;
	u32 keylen;
	struct frame *frames; /* after the key, in the same block */
	u64 key[];	      /* per frame: off (addr when unresolved), the interned sym and dso */
};

struct stackdb {
	struct str *strs;
	struct raw *raws;
	struct stk *stks;
	struct stk **by_id; /* [id - 1], NULL when free */
	u32 *free_ids;	    /* ids to hand out again, nr_free of them */
	u32 nr_ids, cap, nr_free;
	u32 nr_stks, nr_raws, nr_held, peak;
	u32 gen;
	/* the next sweep when reached: stacks nobody holds, raw callchains */
	u32 stk_limit, raw_limit;
	u64 added, dropped, raws_dropped, bytes;
	struct frame buf[MAX_FRAMES];
	struct frame_map maps[MAX_FRAMES];
	u64 keybuf[MAX_FRAMES * 3 + 2];
};

struct stackdb *stackdb__new(void)
{
	struct stackdb *db = calloc(1, sizeof(struct stackdb));

	if (!db)
		return NULL;
	db->stk_limit = STK_SWEEP_MIN;
	db->raw_limit = RAW_SWEEP_MIN;
	return db;
}

static void str_put(struct stackdb *db, const char *s)
{
	struct str *e;

	if (!s)
		return;
	e = (struct str *)(s - offsetof(struct str, s));
	if (--e->refs)
		return;
	HASH_DEL(db->strs, e);
	db->bytes -= sizeof(*e) + strlen(e->s) + 1;
	free(e);
}

static void raw_free(struct stackdb *db, struct raw *r)
{
	HASH_DEL(db->raws, r);
	db->bytes -= sizeof(*r) + r->len;
	db->nr_raws--;
	free(r);
}

static void stk_free(struct stackdb *db, struct stk *k)
{
	HASH_DEL(db->stks, k);
	for (int i = 0; i < k->nr; i++) {
		str_put(db, k->frames[i].sym);
		str_put(db, k->frames[i].dso);
	}
	db->by_id[k->id - 1] = NULL;
	db->free_ids[db->nr_free++] = k->id;
	db->bytes -= sizeof(*k) + k->keylen + (u64)k->nr * sizeof(*k->frames);
	db->nr_stks--;
	free(k);
}

void stackdb__delete(struct stackdb *db)
{
	if (!db)
		return;
	HASH_FREE_ALL(hh, db->raws);
	HASH_FREE_ALL(hh, db->stks);
	HASH_FREE_ALL(hh, db->strs);
	free(db->by_id);
	free(db->free_ids);
	free(db);
}

/* Drop the raw callchains not seen in this generation (all with @all). */
static void sweep_raws(struct stackdb *db, bool all)
{
	struct raw *r, *tr;

	HASH_ITER(hh, db->raws, r, tr)
	{
		if (all || r->gen != db->gen) {
			raw_free(db, r);
			db->raws_dropped++;
		}
	}
}

/*
 * A new generation, after dropping the raw callchains of older ones and,
 * with @stacks, the stacks of older ones that nobody holds.
 */
static void sweep(struct stackdb *db, bool stacks)
{
	u32 unheld;

	sweep_raws(db, false);
	if (stacks) {
		struct stk *k, *tk;

		HASH_ITER(hh, db->stks, k, tk)
		{
			if (!k->refs && k->gen != db->gen) {
				stk_free(db, k);
				db->dropped++;
			}
		}
		unheld = db->nr_stks - db->nr_held;
		db->stk_limit = unheld * 2 > STK_SWEEP_MIN ? unheld * 2 : STK_SWEEP_MIN;
	}
	db->raw_limit = db->nr_raws * 2 > RAW_SWEEP_MIN ? db->nr_raws * 2 : RAW_SWEEP_MIN;
	if (db->raw_limit > STACKDB_RAW_MAX)
		db->raw_limit = STACKDB_RAW_MAX;
	/* every one was seen since the last sweep: a cache that holds none of the next */
	if (db->nr_raws > db->raw_limit / 4 * 3)
		sweep_raws(db, true);
	db->gen++;
}

static const char *intern(struct stackdb *db, const char *s)
{
	struct str *e;
	size_t len;

	if (!s)
		return NULL;
	len = strlen(s);
	HASH_FIND(hh, db->strs, s, len, e);
	if (e) {
		e->refs++;
		return e->s;
	}
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	e->refs = 1;
	memcpy(e->s, s, len + 1);
	HASH_ADD_KEYPTR(hh, db->strs, e->s, len, e);
	db->bytes += sizeof(*e) + len + 1;
	return e->s;
}

static int new_id(struct stackdb *db, u32 *id)
{
	if (db->nr_free) {
		*id = db->free_ids[--db->nr_free];
		return 0;
	}
	if (db->nr_ids == db->cap) {
		u32 cap = db->cap ? db->cap * 2 : 256;
		struct stk **b = realloc(db->by_id, cap * sizeof(*b));
		u32 *f;

		if (!b)
			return -ENOMEM;
		db->by_id = b;
		f = realloc(db->free_ids, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		db->free_ids = f;
		db->cap = cap;
	}
	*id = ++db->nr_ids;
	return 0;
}

/* The id of the resolved frames in db->buf[0..n). */
static int frames_id(struct stackdb *db, int n, u32 *id)
{
	struct stk *k;
	u32 len = 0;
	int i;

	for (i = 0; i < n; i++) {
		struct frame *f = &db->buf[i];
		const char *sym = intern(db, f->sym);

		f->dso = f->dso ? intern(db, f->dso) : NULL;
		f->sym = sym;
		if (!sym)
			goto nomem;
		/*
		 * A resolved frame is the same in any process, whatever its
		 * address; an unresolved one in a file's mapping is the same
		 * at the same file offset (the file known by its name).
		 * Frames without a mapping (no dso) keep their address.
		 */
		if (strcmp(sym, "[unknown]"))
			db->keybuf[len++] = f->off;
		else if (f->dso && db->maps[i].end)
			db->keybuf[len++] = f->addr - db->maps[i].start + db->maps[i].pgoff;
		else
			db->keybuf[len++] = f->addr;
		db->keybuf[len++] = (u64)(uintptr_t)f->sym;
		db->keybuf[len++] = (u64)(uintptr_t)f->dso;
	}
	len *= sizeof(u64);
	HASH_FIND(hh, db->stks, db->keybuf, len, k);
	if (k) {
		for (i = 0; i < n; i++) { /* its own references hold them */
			str_put(db, db->buf[i].sym);
			str_put(db, db->buf[i].dso);
		}
		k->gen = db->gen;
		*id = k->id;
		return 0;
	}
	/* one block: the key, then the frames */
	k = malloc(sizeof(*k) + len + (size_t)n * sizeof(*k->frames));
	if (!k)
		goto nomem;
	k->frames = (struct frame *)((char *)k->key + len);
	if (new_id(db, &k->id)) {
		free(k);
		goto nomem;
	}
	memcpy(k->frames, db->buf, n * sizeof(*k->frames));
	memcpy(k->key, db->keybuf, len);
	k->nr = n;
	k->keylen = len;
	k->refs = 0;
	k->gen = db->gen;
	db->by_id[k->id - 1] = k;
	HASH_ADD(hh, db->stks, key, len, k);
	db->bytes += sizeof(*k) + len + (u64)n * sizeof(*k->frames);
	db->added++;
	if (++db->nr_stks > db->peak)
		db->peak = db->nr_stks;
	*id = k->id;
	return 0;
nomem:
	/* frames [0, i) hold their strings, frame i perhaps its dso */
	if (i < n && db->buf[i].dso && !db->buf[i].sym)
		str_put(db, db->buf[i].dso);
	while (i-- > 0) {
		str_put(db, db->buf[i].sym);
		str_put(db, db->buf[i].dso);
	}
	return -ENOMEM;
}

int stackdb__add(struct stackdb *db, struct stack_ctx *ctx, const struct sample *smp, u32 *id)
{
	struct raw *r;
	bool user = smp->stack != NULL;
	u32 len;
	int n, err;

	*id = 0;
	if (!ctx || (!smp->nr_ips && !smp->stack))
		return 0;
	if (db->nr_stks - db->nr_held >= db->stk_limit)
		sweep(db, true);
	else if (db->nr_raws >= db->raw_limit)
		sweep(db, false);
	/* a DWARF stack is unwound every time: its ips are not in the record */
	if (!smp->stack && smp->nr_ips < MAX_FRAMES * 3) {
		/* user frames: after a marker, or (no markers) in the lower half */
		for (u64 i = 0; i < smp->nr_ips; i++)
			user |= smp->ips[i] == (u64)PERF_CONTEXT_USER || (s64)smp->ips[i] >= 0;
		db->keybuf[0] = user ? smp->pid : 0;
		db->keybuf[1] = user ? stack_ctx__image(ctx, smp->pid) : 0;
		memcpy(&db->keybuf[2], smp->ips, smp->nr_ips * sizeof(u64));
		len = (u32)((smp->nr_ips + 2) * sizeof(u64));
		HASH_FIND(hh, db->raws, db->keybuf, len, r);
		if (r) {
			r->gen = db->gen;
			db->by_id[r->id - 1]->gen = db->gen;
			*id = r->id;
			return 0;
		}
		r = malloc(sizeof(*r) + len);
		if (!r)
			return -ENOMEM;
		memcpy(r->key, db->keybuf, len);
		r->len = len;
		r->gen = db->gen;
		n = stack__frames_maps(ctx, smp, db->buf, db->maps, MAX_FRAMES);
		err = frames_id(db, n, &r->id);
		if (err) {
			free(r);
			return err;
		}
		HASH_ADD(hh, db->raws, key, len, r);
		db->bytes += sizeof(*r) + len;
		db->nr_raws++;
		*id = r->id;
		return 0;
	}
	n = stack__frames_maps(ctx, smp, db->buf, db->maps, MAX_FRAMES);
	return frames_id(db, n, id);
}

static struct stk *by_id(const struct stackdb *db, u32 id)
{
	return id && id <= db->nr_ids ? db->by_id[id - 1] : NULL;
}

void stackdb__get(struct stackdb *db, u32 id)
{
	struct stk *k = by_id(db, id);

	if (k && !k->refs++)
		db->nr_held++;
}

void stackdb__put(struct stackdb *db, u32 id)
{
	struct stk *k = by_id(db, id);

	if (!k || !k->refs)
		return;
	if (!--k->refs) {
		db->nr_held--;
		/* it stays cached until a sweep: its gen says whether it was seen lately */
	}
}

const struct frame *stackdb__frames(const struct stackdb *db, u32 id, int *nr)
{
	const struct stk *k = by_id(db, id);

	*nr = k ? k->nr : 0;
	return k ? k->frames : NULL;
}

u32 stackdb__count(const struct stackdb *db)
{
	return db->nr_stks;
}

void stackdb__stats(const struct stackdb *db, struct stackdb_stats *st)
{
	*st = (struct stackdb_stats){
		.stacks = db->nr_stks,
		.held = db->nr_held,
		.peak = db->peak,
		.added = db->added,
		.dropped = db->dropped,
		.raws = db->nr_raws,
		.raws_dropped = db->raws_dropped,
		.bytes = db->bytes + (u64)db->cap * (sizeof(*db->by_id) + sizeof(*db->free_ids)),
	};
}

void stackdb__print_stats(const struct stackdb *db, const char *name, FILE *fp)
{
	struct stackdb_stats st;

	if (!db)
		return;
	stackdb__stats(db, &st);
	fprintf(fp,
		"%s: %u stacks kept at the end (peak %u, %u held by the report), %llu resolved, "
		"%llu dropped unused; raw callchain cache %u (%llu dropped); %.1f MiB\n",
		name, st.stacks, st.peak, st.held, (unsigned long long)st.added,
		(unsigned long long)st.dropped, st.raws, (unsigned long long)st.raws_dropped,
		(double)st.bytes / 1048576.0);
}
