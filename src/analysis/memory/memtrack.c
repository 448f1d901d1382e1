// SPDX-License-Identifier: GPL-2.0
/*
 * Linear probing with backward-shift deletion (no tombstones: a table
 * that sees millions of alloc/free pairs does not fill up with them).
 * Address 0 is never an allocation, so it marks an empty slot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "analysis/memory/memtrack.h"
#include "util/hash.h"

#define DEFAULT_CAP (1ULL << 22)

struct slot {
	u64 ptr; /* 0: empty */
	u64 size;
	u64 time;
	u32 stack;
	u32 comm;
};

struct comm_ent {
	UT_hash_handle hh;
	u32 id;
	char s[];
};

struct memtrack {
	struct slot *t;
	u64 mask, used, cap, bytes;
	struct memtrack_stats st;
	struct comm_ent *comms;
	const char **comm_by_id;
	u32 nr_comms;
	struct stackdb *db; /* the live allocations hold their stacks */
};

static u64 hash64(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

struct memtrack *memtrack__new(u64 cap)
{
	struct memtrack *mt = calloc(1, sizeof(*mt));

	if (!mt)
		return NULL;
	mt->cap = cap ? cap : DEFAULT_CAP;
	mt->mask = 1023;
	mt->t = calloc(mt->mask + 1, sizeof(*mt->t));
	if (!mt->t) {
		free(mt);
		return NULL;
	}
	return mt;
}

void memtrack__set_stackdb(struct memtrack *mt, struct stackdb *db)
{
	mt->db = db;
}

void memtrack__delete(struct memtrack *mt)
{
	if (!mt)
		return;
	HASH_FREE_ALL(hh, mt->comms);
	free(mt->comm_by_id);
	free(mt->t);
	free(mt);
}

static int comm_id(struct memtrack *mt, const char *comm, u32 *id)
{
	struct comm_ent *c;
	size_t len = strlen(comm);

	HASH_FIND(hh, mt->comms, comm, len, c);
	if (!c) {
		const char **b = realloc(mt->comm_by_id, (mt->nr_comms + 1) * sizeof(*b));

		if (!b)
			return -ENOMEM;
		mt->comm_by_id = b;
		c = malloc(sizeof(*c) + len + 1);
		if (!c)
			return -ENOMEM;
		memcpy(c->s, comm, len + 1);
		c->id = mt->nr_comms++;
		b[c->id] = c->s;
		HASH_ADD_KEYPTR(hh, mt->comms, c->s, len, c);
	}
	*id = c->id;
	return 0;
}

static struct slot *find(const struct memtrack *mt, u64 ptr)
{
	for (u64 i = hash64(ptr) & mt->mask;; i = (i + 1) & mt->mask) {
		if (mt->t[i].ptr == ptr)
			return &mt->t[i];
		if (!mt->t[i].ptr)
			return NULL;
	}
}

static void put(struct memtrack *mt, const struct slot *s)
{
	u64 i = hash64(s->ptr) & mt->mask;

	while (mt->t[i].ptr)
		i = (i + 1) & mt->mask;
	mt->t[i] = *s;
}

static int grow(struct memtrack *mt)
{
	struct slot *old = mt->t;
	u64 n = mt->mask + 1;

	mt->t = calloc(n * 2, sizeof(*mt->t));
	if (!mt->t) {
		mt->t = old;
		return -ENOMEM;
	}
	mt->mask = n * 2 - 1;
	for (u64 i = 0; i < n; i++)
		if (old[i].ptr)
			put(mt, &old[i]);
	free(old);
	return 0;
}

/* Empty slot @i, shifting back the entries of its cluster that probed past it. */
static void erase(struct memtrack *mt, u64 i)
{
	u64 j = i;

	mt->bytes -= mt->t[i].size;
	mt->used--;
	if (mt->db)
		stackdb__put(mt->db, mt->t[i].stack);
	for (;;) {
		mt->t[i].ptr = 0;
		for (;;) {
			j = (j + 1) & mt->mask;
			if (!mt->t[j].ptr)
				return;
			u64 home = hash64(mt->t[j].ptr) & mt->mask;

			/* j's entry may move to i if its home is not in (i, j] cyclically */
			if (i <= j ? (home <= i || home > j) : (home <= i && home > j))
				break;
		}
		mt->t[i] = mt->t[j];
		i = j;
	}
}

int memtrack__alloc(struct memtrack *mt, u64 ptr, u64 size, u64 time, u32 stack, const char *comm)
{
	struct slot s = { .ptr = ptr, .size = size, .time = time, .stack = stack }, *o;

	if (!ptr) {
		mt->st.failed++;
		return 0;
	}
	mt->st.allocs++;
	if (comm && comm_id(mt, comm, &s.comm))
		return -ENOMEM;
	o = find(mt, ptr);
	if (o) { /* its free was not seen */
		mt->st.replaced++;
		mt->bytes -= o->size;
		if (mt->db) {
			stackdb__get(mt->db, stack);
			stackdb__put(mt->db, o->stack);
		}
		*o = s;
		mt->bytes += size;
		return 0;
	}
	if (mt->used >= mt->cap) {
		mt->st.untracked++;
		return 0;
	}
	if ((mt->used + 1) * 10 > (mt->mask + 1) * 7 && grow(mt))
		return -ENOMEM;
	put(mt, &s);
	mt->used++;
	mt->bytes += size;
	if (mt->db)
		stackdb__get(mt->db, stack);
	return 0;
}

bool memtrack__free(struct memtrack *mt, u64 ptr, u64 *size)
{
	bool tracked = memtrack__free_quiet(mt, ptr, size);

	if (ptr && !tracked)
		mt->st.ignored_frees++;
	return tracked;
}

bool memtrack__free_quiet(struct memtrack *mt, u64 ptr, u64 *size)
{
	struct slot *o = ptr ? find(mt, ptr) : NULL;

	if (size)
		*size = o ? o->size : 0;
	if (!o)
		return false; /* free(NULL), or not ours */
	mt->st.frees++;
	erase(mt, (u64)(o - mt->t));
	return true;
}

void memtrack__failed(struct memtrack *mt)
{
	mt->st.failed++;
}

void memtrack__stats(const struct memtrack *mt, struct memtrack_stats *st)
{
	*st = mt->st;
}

u64 memtrack__live(const struct memtrack *mt)
{
	return mt->used;
}

u64 memtrack__live_bytes(const struct memtrack *mt)
{
	return mt->bytes;
}

struct gkey {
	u32 stack, comm;
};

struct gent {
	UT_hash_handle hh;
	struct gkey k;
	struct memtrack_group g;
};

static int cmp_group(const void *a, const void *b)
{
	const struct memtrack_group *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	if (x->objects != y->objects)
		return x->objects < y->objects ? 1 : -1;
	return x->stack < y->stack ? -1 : x->stack > y->stack;
}

int memtrack__groups(const struct memtrack *mt, u64 now, u64 than_ns, bool by_comm,
		     struct memtrack_group **groups)
{
	struct gent *all = NULL, *e, *tmp;
	struct memtrack_group *out;
	int n = 0, err = 0;

	*groups = NULL;
	for (u64 i = 0; i <= mt->mask; i++) {
		const struct slot *s = &mt->t[i];
		struct gkey k = { s->stack, by_comm ? s->comm : 0 };

		if (!s->ptr || (than_ns && (now < s->time || now - s->time < than_ns)))
			continue;
		HASH_FIND(hh, all, &k, sizeof(k), e);
		if (!e) {
			e = calloc(1, sizeof(*e));
			if (!e) {
				err = -ENOMEM;
				break;
			}
			e->k = k;
			e->g.stack = s->stack;
			e->g.comm =
				by_comm && s->comm < mt->nr_comms ? mt->comm_by_id[s->comm] : NULL;
			e->g.oldest = s->time;
			HASH_ADD(hh, all, k, sizeof(k), e);
			n++;
		}
		e->g.bytes += s->size;
		e->g.objects++;
		if (s->time < e->g.oldest)
			e->g.oldest = s->time;
	}
	out = err ? NULL : malloc((n ? n : 1) * sizeof(*out));
	n = 0;
	HASH_ITER(hh, all, e, tmp)
	{
		if (out)
			out[n++] = e->g;
		HASH_DEL(all, e);
		free(e);
	}
	if (!out)
		return -ENOMEM;
	qsort(out, n, sizeof(*out), cmp_group);
	*groups = out;
	return n;
}
