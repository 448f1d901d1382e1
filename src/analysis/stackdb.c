// SPDX-License-Identifier: GPL-2.0
/*
 * Two tables: raw callchains (the kernel's ips, and the pid when user
 * frames are in it: addresses mean something per process) to ids, so a
 * stack seen again costs a hash; and resolved frames to ids, so equal
 * stacks of different processes or runs of a DWARF unwind merge.  Frame
 * strings are copied into one interned set: symbol tables go away with
 * the processes that mapped them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "analysis/stackdb.h"

#define MAX_FRAMES 512

struct str {
	UT_hash_handle hh;
	char s[];
};

struct raw {
	UT_hash_handle hh;
	u32 id;
	u32 len;   /* bytes of key */
	u64 key[]; /* pid, then the ips */
};

struct stk {
	UT_hash_handle hh;
	u32 id;
	int nr;
	u32 keylen;
	struct frame *frames;
	u64 key[]; /* addr and the interned sym/dso pointers of each frame */
};

struct stackdb {
	struct str *strs;
	struct raw *raws;
	struct stk *stks;
	struct stk **by_id; /* [id - 1] */
	u32 nr, cap;
	struct frame buf[MAX_FRAMES];
	u64 keybuf[MAX_FRAMES * 3 + 1];
};

struct stackdb *stackdb__new(void)
{
	return calloc(1, sizeof(struct stackdb));
}

void stackdb__delete(struct stackdb *db)
{
	struct str *s, *ts;
	struct raw *r, *tr;
	struct stk *k, *tk;

	if (!db)
		return;
	HASH_ITER(hh, db->raws, r, tr)
	{
		HASH_DEL(db->raws, r);
		free(r);
	}
	HASH_ITER(hh, db->stks, k, tk)
	{
		HASH_DEL(db->stks, k);
		free(k->frames);
		free(k);
	}
	HASH_ITER(hh, db->strs, s, ts)
	{
		HASH_DEL(db->strs, s);
		free(s);
	}
	free(db->by_id);
	free(db);
}

static const char *intern(struct stackdb *db, const char *s)
{
	struct str *e;
	size_t len;

	if (!s)
		return NULL;
	len = strlen(s);
	HASH_FIND(hh, db->strs, s, len, e);
	if (e)
		return e->s;
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	memcpy(e->s, s, len + 1);
	HASH_ADD_KEYPTR(hh, db->strs, e->s, len, e);
	return e->s;
}

/* The id of the resolved frames in db->buf[0..n). */
static int frames_id(struct stackdb *db, int n, u32 *id)
{
	struct stk *k;
	u32 len = 0;

	for (int i = 0; i < n; i++) {
		struct frame *f = &db->buf[i];

		f->sym = intern(db, f->sym);
		f->dso = f->dso ? intern(db, f->dso) : NULL;
		if (!f->sym)
			return -ENOMEM;
		db->keybuf[len++] = f->addr;
		db->keybuf[len++] = (u64)(uintptr_t)f->sym;
		db->keybuf[len++] = (u64)(uintptr_t)f->dso;
	}
	len *= sizeof(u64);
	HASH_FIND(hh, db->stks, db->keybuf, len, k);
	if (k) {
		*id = k->id;
		return 0;
	}
	if (db->nr == db->cap) {
		u32 cap = db->cap ? db->cap * 2 : 256;
		struct stk **b = realloc(db->by_id, cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		db->by_id = b;
		db->cap = cap;
	}
	k = malloc(sizeof(*k) + len);
	if (!k)
		return -ENOMEM;
	k->frames = malloc((n ? n : 1) * sizeof(*k->frames));
	if (!k->frames) {
		free(k);
		return -ENOMEM;
	}
	memcpy(k->frames, db->buf, n * sizeof(*k->frames));
	memcpy(k->key, db->keybuf, len);
	k->nr = n;
	k->keylen = len;
	k->id = ++db->nr;
	db->by_id[k->id - 1] = k;
	HASH_ADD(hh, db->stks, key, len, k);
	*id = k->id;
	return 0;
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
	/* a DWARF stack is unwound every time: its ips are not in the record */
	if (!smp->stack && smp->nr_ips < MAX_FRAMES * 3) {
		for (u64 i = 0; i < smp->nr_ips; i++)
			user |= smp->ips[i] == (u64)PERF_CONTEXT_USER;
		db->keybuf[0] = user ? smp->pid : 0;
		memcpy(&db->keybuf[1], smp->ips, smp->nr_ips * sizeof(u64));
		len = (u32)((smp->nr_ips + 1) * sizeof(u64));
		HASH_FIND(hh, db->raws, db->keybuf, len, r);
		if (r) {
			*id = r->id;
			return 0;
		}
		r = malloc(sizeof(*r) + len);
		if (!r)
			return -ENOMEM;
		memcpy(r->key, db->keybuf, len);
		r->len = len;
		n = stack__frames(ctx, smp, db->buf, MAX_FRAMES);
		err = frames_id(db, n, &r->id);
		if (err) {
			free(r);
			return err;
		}
		HASH_ADD(hh, db->raws, key, len, r);
		*id = r->id;
		return 0;
	}
	n = stack__frames(ctx, smp, db->buf, MAX_FRAMES);
	return frames_id(db, n, id);
}

const struct frame *stackdb__frames(const struct stackdb *db, u32 id, int *nr)
{
	*nr = 0;
	if (!id || id > db->nr)
		return NULL;
	*nr = db->by_id[id - 1]->nr;
	return db->by_id[id - 1]->frames;
}

u32 stackdb__count(const struct stackdb *db)
{
	return db->nr;
}
