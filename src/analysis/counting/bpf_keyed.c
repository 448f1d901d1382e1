// SPDX-License-Identifier: GPL-2.0
/* Key -> columns aggregation in the kernel (bpf_keyed.h). */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counting/bpf_keyed.h"
#include "engine/bpf.h"
#include "engine/session.h"
#include "expr/expr.h"
#include "util/hash.h"

#define COMM_LEN 16

struct seen {
	u64 key;
	char comm[COMM_LEN + 1];
	bool idle; /* nothing gained at the last drain */
	UT_hash_handle hh;
	u64 last[]; /* events, then the columns: the totals at the last drain */
};

struct bkeyed {
	struct session *s;
	struct bpf_back *b;
	int ncols;
	unsigned entries;
	int map, aside; /* the keys; those of the events that came while a reap ran */
	int drop_slot;
	unsigned vsize; /* per CPU: events, columns, comm */
	struct seen *seen;
	bool no_delete; /* the keys cannot be taken out (setting aside or a delete failed) */
};

struct bkeyed *bkeyed__new(struct session *s, struct bpf_back *b, int ncols, unsigned entries)
{
	struct bkeyed *k = calloc(1, sizeof(*k));

	if (!k || ncols < 1 || ncols > BKEYED_MAX_COLS) {
		free(k);
		session__set_err(s, -ENOMEM, "out of memory");
		return NULL;
	}
	k->s = s;
	k->b = b;
	k->ncols = ncols;
	k->entries = entries;
	k->vsize = 8 + 8 * ncols + COMM_LEN;
	/* allocated as keys come: a preallocated per-CPU map costs entries x CPUs at once */
	k->map = bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, "pp_keyed", 8, k->vsize, entries,
			       BPF_F_NO_PREALLOC);
	k->aside = k->map < 0 ? k->map
			      : bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH, "pp_keyed_aside", 8,
					      k->vsize, entries, BPF_F_NO_PREALLOC);
	if (k->aside < 0) {
		bkeyed__delete(k);
		return NULL;
	}
	k->drop_slot = bpf_back__drop_slot(b, "keys not kept: BPF map full (--bpf-entries)");
	return k;
}

void bkeyed__delete(struct bkeyed *k)
{
	if (!k)
		return;
	HASH_FREE_ALL(hh, k->seen);
	free(k);
}

/* Frame: the back end's scratch, the key, the value being made, then the expressions'. */
#define KEY_OFF (-16)

/*
 * R0: the value of the key at KEY_OFF in @map, then to @have; a new key is
 * made first (a zero value with the task's comm, unless another CPU just
 * made it); a full map is a drop, and @out.
 */
static void emit_value(struct bkeyed *k, struct bpfb *c, int map, short val_off, int have, int out)
{
	int again = bpfb__label(c);

	b_lookup(c, map, KEY_OFF);
	b_jmpi(c, BPF_JNE, R0, 0, have);
	for (int off = 0; off < (int)((k->vsize + 7) & ~7u); off += 8)
		b_st(c, 8, R10, (short)(val_off + off), 0);
	b_mov(c, R1, R10);
	b_alui(c, BPF_ADD, R1, val_off + 8 + 8 * k->ncols);
	b_movi(c, R2, COMM_LEN);
	b_call(c, BPF_FUNC_get_current_comm);
	b_update(c, map, KEY_OFF, val_off, BPF_NOEXIST);
	b_jmpi(c, BPF_JEQ, R0, 0, again);
	b_jmpi(c, BPF_JEQ, R0, -EEXIST, again);
	bpf_back__emit_drop(k->b, c, k->drop_slot);
	b_ja(c, out);
	bpfb__here(c, again);
	b_lookup(c, map, KEY_OFF);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_ja(c, have);
}

int bkeyed__add(struct bkeyed *k, struct evsel *ev, struct expr *filter, struct expr *key,
		struct expr *const *vals, int nvals, int col0, char *why, size_t len)
{
	short val_off = (short)(KEY_OFF - (int)((k->vsize + 7) & ~7u));
	struct expr_bpf_env env = {
		.ctx_reg = R6,
		.pid_tgid_reg = R9,
		.stack_lo = -512,
		.stack_hi = val_off,
	};
	char err[160];
	struct bpfb c;
	int out, have, aside, fd, ret;

	if (!bpf_back__classic_tp(ev)) {
		snprintf(why, len, "a probe's programs are not generated yet");
		return -EOPNOTSUPP;
	}
	if (col0 < 0 || col0 + (nvals ? nvals : 1) > k->ncols) {
		snprintf(why, len, "too many columns for the kernel's map");
		return -EOPNOTSUPP;
	}
	bpfb__init(&c);
	out = bpfb__label(&c);
	have = bpfb__label(&c);
	aside = bpfb__label(&c);
	b_mov(&c, R6, R1);
	bpf_back__emit_running(k->b, &c, out);
	b_call(&c, BPF_FUNC_get_current_pid_tgid);
	b_mov(&c, R9, R0);
	b_mov(&c, R8, R0);
	b_alui(&c, BPF_RSH, R8, 32);
	b_mov(&c, R7, R9);
	b_alui(&c, BPF_LSH, R7, 32);
	b_alui(&c, BPF_RSH, R7, 32);
	ret = bpf_back__emit_target(k->b, &c, R8, R7, out, why, len);
	if (ret)
		goto fail;
	if (filter) {
		ret = expr__bpf(filter, &c, &env, why, len);
		if (ret)
			goto fail;
		b_jmpi(&c, BPF_JEQ, R0, 0, out);
	}
	if (key) {
		ret = expr__bpf(key, &c, &env, why, len);
		if (ret)
			goto fail;
		b_stx(&c, 8, R10, KEY_OFF, R0);
	} else {
		b_mov(&c, R0, R9);
		b_alui(&c, BPF_LSH, R0, 32);
		b_alui(&c, BPF_RSH, R0, 32);
		b_stx(&c, 8, R10, KEY_OFF, R0);
	}
	/* while a reap runs, into the aside map (see forget_idle) */
	bpf_back__emit_aside(k->b, &c, R0, aside);
	emit_value(k, &c, k->map, val_off, have, out);
	bpfb__here(&c, aside);
	emit_value(k, &c, k->aside, val_off, have, out);
	bpfb__here(&c, have);
	/* per CPU: plain adds, no atomics */
	b_mov(&c, R7, R0);
	b_ldx(&c, 8, R1, R7, 0);
	b_alui(&c, BPF_ADD, R1, 1);
	b_stx(&c, 8, R7, 0, R1);
	if (!nvals) {
		b_ldx(&c, 8, R1, R7, (short)(8 + 8 * col0));
		b_alui(&c, BPF_ADD, R1, 1);
		b_stx(&c, 8, R7, (short)(8 + 8 * col0), R1);
	}
	for (int i = 0; i < nvals; i++) {
		short off = (short)(8 + 8 * (col0 + i));

		ret = expr__bpf(vals[i], &c, &env, why, len);
		if (ret)
			goto fail;
		b_ldx(&c, 8, R1, R7, off);
		b_alu(&c, BPF_ADD, R1, R0);
		b_stx(&c, 8, R7, off, R1);
	}
	bpfb__here(&c, out);
	b_ret(&c, 1); /* every hit goes on to the tracepoint's other perf users (bpf_attach.c) */
	fd = bpf_back__load(k->b, BPF_PROG_TYPE_TRACEPOINT, "pp_keyed", &c, NULL, err, sizeof(err));
	bpfb__free(&c);
	if (fd < 0) {
		/* the verifier refused what the compiler made: the ring path, saying why */
		snprintf(why, len, "the kernel refused the program of %s: %s", ev->name, err);
		return -EOPNOTSUPP;
	}
	return bpf_back__attach_perf(k->b, ev, fd);
fail:
	bpfb__free(&c);
	return ret == -EOPNOTSUPP || ret == -EINVAL ? -EOPNOTSUPP : ret;
}

struct drain {
	struct bkeyed *k;
	bkeyed_fn fn;
	void *arg;
	u64 *sum, *delta; /* 1 + ncols words each */
	bool again;	  /* the walk of a still map: idle only if idle at the first too */
	u64 *keys;	  /* the aside map's */
	size_t nr_keys, cap_keys;
};

/* A key's value summed over the CPUs into d->sum. */
static void sum_cpus(struct drain *d, const void *val)
{
	int nw = 1 + d->k->ncols;

	memset(d->sum, 0, sizeof(u64) * nw);
	for (int c = 0; c < bpf_back__nr_cpus(); c++) {
		const u64 *v = (const u64 *)((const char *)val + (size_t)c * d->k->vsize);

		for (int w = 0; w < nw; w++)
			d->sum[w] += v[w];
	}
}

/* What @e's key gained since the last drain (d->sum now), to the caller's fn. */
static bool report(struct drain *d, struct seen *e)
{
	bool changed = false;

	for (int w = 0; w < 1 + d->k->ncols; w++) {
		d->delta[w] = d->sum[w] - e->last[w];
		changed |= d->delta[w] != 0;
		e->last[w] = d->sum[w];
	}
	if (changed)
		d->fn(d->arg, e->key, e->comm, d->delta + 1, d->delta[0]);
	return changed;
}

static int drain_one(void *arg, const void *key, const void *val)
{
	struct drain *d = arg;
	struct bkeyed *k = d->k;
	int nw = 1 + k->ncols;
	struct seen *e;
	u64 cur;

	memcpy(&cur, key, sizeof(cur));
	sum_cpus(d, val);
	HASH_FIND(hh, k->seen, &cur, sizeof(cur), e);
	if (!e) {
		e = calloc(1, sizeof(*e) + sizeof(u64) * nw);
		if (!e)
			return -ENOMEM;
		e->key = cur;
		/* the comm of the CPU that made the key */
		for (int c = 0; c < bpf_back__nr_cpus() && !e->comm[0]; c++)
			memcpy(e->comm, (const char *)val + (size_t)c * k->vsize + 8 * nw,
			       COMM_LEN);
		HASH_ADD(hh, k->seen, key, sizeof(e->key), e);
	}
	if (d->again)
		e->idle &= !report(d, e);
	else
		e->idle = !report(d, e);
	return 0;
}

/* An entry of the aside map: what it holds, all of it new, to the caller's fn. */
static int aside_one(void *arg, const void *key, const void *val)
{
	struct drain *d = arg;
	struct bkeyed *k = d->k;
	char comm[COMM_LEN + 1] = "";
	u64 cur;

	memcpy(&cur, key, sizeof(cur));
	if (d->nr_keys == d->cap_keys) {
		size_t cap = d->cap_keys ? 2 * d->cap_keys : 64;
		u64 *n = realloc(d->keys, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		d->keys = n;
		d->cap_keys = cap;
	}
	d->keys[d->nr_keys++] = cur;
	sum_cpus(d, val);
	for (int c = 0; c < bpf_back__nr_cpus() && !comm[0]; c++)
		memcpy(comm, (const char *)val + (size_t)c * k->vsize + 8 * (1 + k->ncols),
		       COMM_LEN);
	if (d->sum[0])
		d->fn(d->arg, cur, comm, d->sum + 1, d->sum[0]);
	return 0;
}

/*
 * The aside map, still (outside a reap, ours or another table's: the
 * programs write to it only during one): read, and emptied.
 */
static int empty_aside(struct drain *d)
{
	struct bkeyed *k = d->k;
	int err;

	d->nr_keys = 0;
	err = bpf_back__each(k->aside, sizeof(u64), (size_t)bpf_back__nr_cpus() * k->vsize,
			     aside_one, d);
	for (size_t i = 0; i < d->nr_keys; i++)
		bpf_map_delete_elem(k->aside, &d->keys[i]);
	return err;
}

/*
 * Keys that did not change in this drain leave the map once it is half
 * full, so a long run with churning keys (threads that come and go) does
 * not fill it.  A program that found a key before its delete would add to
 * freed memory after it: so the programs are set aside first (they write
 * to the aside map, bpf_back__aside), the map, still, is read again (what
 * came since the walk) and its idle keys deleted; then the programs come
 * back, and the aside map, still in its turn, is read and emptied at the
 * next drain (bkeyed__drain).  Every event is counted once.  A key that
 * comes back is made again, with the comm of its new task.
 */
static int forget_idle(struct drain *d)
{
	struct bkeyed *k = d->k;
	struct seen *e, *t;
	int still, err = 0;

	if (k->no_delete || HASH_COUNT(k->seen) < k->entries / 2)
		return 0;
	still = bpf_back__aside(k->b, true);
	if (still > 0) {
		d->again = true;
		err = bpf_back__each(k->map, sizeof(u64), (size_t)bpf_back__nr_cpus() * k->vsize,
				     drain_one, d);
	}
	if (still < 0 || err) {
		k->no_delete = still < 0; /* (keys stay: a full map's events are said) */
		goto back;
	}
	HASH_ITER(hh, k->seen, e, t)
	{
		if (!e->idle)
			continue;
		if (bpf_map_delete_elem(k->map, &e->key) && errno != ENOENT) {
			k->no_delete = true;
			break;
		}
		HASH_DEL(k->seen, e);
		free(e);
	}
back:
	if (still > 0)
		bpf_back__aside(k->b, false);
	return err;
}

int bkeyed__drain(struct bkeyed *k, bkeyed_fn fn, void *arg)
{
	int nw = 1 + k->ncols;
	struct drain d = { .k = k, .fn = fn, .arg = arg };
	int err;

	d.sum = calloc((size_t)nw * 2, sizeof(u64));
	if (!d.sum)
		return -ENOMEM;
	d.delta = d.sum + nw;
	err = bpf_back__each(k->map, sizeof(u64), (size_t)bpf_back__nr_cpus() * k->vsize, drain_one,
			     &d);
	/* (what came while another table's reap set the programs aside) */
	if (!err)
		err = empty_aside(&d);
	if (!err)
		err = forget_idle(&d);
	free(d.keys);
	free(d.sum);
	return err;
}
