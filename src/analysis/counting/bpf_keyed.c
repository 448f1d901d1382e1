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
	UT_hash_handle hh;
	u64 last[]; /* events, then the columns: the totals at the last drain */
};

struct bkeyed {
	struct session *s;
	struct bpf_back *b;
	int ncols;
	unsigned entries;
	int map;
	int drop_slot;
	unsigned vsize; /* per CPU: events, columns, comm */
	struct seen *seen;
	u64 *buf; /* one lookup's values, every CPU */
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
	k->buf = calloc((size_t)bpf_back__nr_cpus(), k->vsize);
	if (k->map < 0 || !k->buf) {
		if (!k->buf)
			session__set_err(s, -ENOMEM, "out of memory");
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
	free(k->buf);
	free(k);
}

/* Frame: the back end's scratch, the key, the value being made, then the expressions'. */
#define KEY_OFF (-16)

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
	int out, have, again, fd, ret;

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
	again = bpfb__label(&c);
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
	b_lookup(&c, k->map, KEY_OFF);
	b_jmpi(&c, BPF_JNE, R0, 0, have);
	/* a new key: a zero value with the task's comm, created unless another CPU just did */
	for (int off = 0; off < (int)((k->vsize + 7) & ~7u); off += 8)
		b_st(&c, 8, R10, (short)(val_off + off), 0);
	b_mov(&c, R1, R10);
	b_alui(&c, BPF_ADD, R1, val_off + 8 + 8 * k->ncols);
	b_movi(&c, R2, COMM_LEN);
	b_call(&c, BPF_FUNC_get_current_comm);
	b_update(&c, k->map, KEY_OFF, val_off, BPF_NOEXIST);
	b_jmpi(&c, BPF_JEQ, R0, 0, again);
	b_jmpi(&c, BPF_JEQ, R0, -EEXIST, again);
	bpf_back__emit_drop(k->b, &c, k->drop_slot);
	b_ja(&c, out);
	bpfb__here(&c, again);
	b_lookup(&c, k->map, KEY_OFF);
	b_jmpi(&c, BPF_JEQ, R0, 0, out);
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
	b_ret(&c, 0);
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

int bkeyed__drain(struct bkeyed *k, bkeyed_fn fn, void *arg)
{
	int ncpu = bpf_back__nr_cpus(), nw = 1 + k->ncols;
	u64 *sum = calloc((size_t)nw * 2, sizeof(u64)), *delta = sum + nw;
	u64 cur, next;
	void *prev = NULL;

	if (!sum)
		return -ENOMEM;
	while (!bpf_map_get_next_key(k->map, prev, &next)) {
		struct seen *e;
		bool changed = false;

		cur = next;
		prev = &cur;
		if (bpf_map_lookup_elem(k->map, &cur, k->buf))
			continue; /* (gone: never deleted, but be safe) */
		memset(sum, 0, sizeof(u64) * nw);
		for (int c = 0; c < ncpu; c++) {
			const u64 *v = (const u64 *)((const char *)k->buf + (size_t)c * k->vsize);

			for (int w = 0; w < nw; w++)
				sum[w] += v[w];
		}
		HASH_FIND(hh, k->seen, &cur, sizeof(cur), e);
		if (!e) {
			e = calloc(1, sizeof(*e) + sizeof(u64) * nw);
			if (!e) {
				free(sum);
				return -ENOMEM;
			}
			e->key = cur;
			/* the comm of the CPU that made the key */
			for (int c = 0; c < ncpu && !e->comm[0]; c++)
				memcpy(e->comm,
				       (const char *)k->buf + (size_t)c * k->vsize + 8 * nw,
				       COMM_LEN);
			HASH_ADD(hh, k->seen, key, sizeof(e->key), e);
		}
		for (int w = 0; w < nw; w++) {
			delta[w] = sum[w] - e->last[w];
			changed |= delta[w] != 0;
			e->last[w] = sum[w];
		}
		if (changed)
			fn(arg, cur, e->comm, delta + 1, delta[0]);
	}
	free(sum);
	return 0;
}
