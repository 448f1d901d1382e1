// SPDX-License-Identifier: GPL-2.0
/* The stacks of slow cases on the BPF back end: see bpf_stack.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/bpf_stack.h"
#include "engine/session.h"
#include "sym/stack.h"

#define MAX_DEPTH 127
#define PLUMBING 8 /* the most frames of the program's own call (plumbing()) */
/* a preallocated map of kept stacks stays under this (its whole size at once) */
#define KEEP_BYTES (16u << 20)

struct bpf_stacks {
	struct bpf_back *b;
	int keep_map, zero; /* the kept stacks; a zero value to make a key's */
	int depth;	    /* frames a slot holds: --max-stack's and the plumbing's */
	int max;	    /* --max-stack: frames of a callchain, kernel and user */
	int keep;	    /* the kinds kept (BPF_STACKS_*) */
	bool kernel, user;  /* the kinds taken (-g's options) */
	int drop;
};

struct bpf_stacks *bpf_stacks__new(struct session *s, struct bpf_back *b, unsigned entries,
				   unsigned key_size, int keep, bool prealloc, char *why,
				   size_t len)
{
	const struct capture_opts *cap = session__conf(s)->capture;
	struct bpf_stacks *st;
	unsigned vsize, n;

	if (cap && cap->cg == CG_DWARF) {
		snprintf(why, len, "--call-graph dwarf: user stacks are unwound in user space");
		return NULL;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	st->b = b;
	st->keep_map = st->zero = -1;
	st->max = cap && cap->max_stack > 0 && cap->max_stack < MAX_DEPTH ? cap->max_stack
									  : MAX_DEPTH;
	/* (the frames above the traced function, left out in user space, come first) */
	st->depth = st->max + PLUMBING < MAX_DEPTH ? st->max + PLUMBING : MAX_DEPTH;
	st->kernel = !cap || !cap->no_kernel;
	st->user = !cap || !cap->no_user;
	st->keep = keep & ((st->kernel ? BPF_STACKS_KERNEL : 0) | (st->user ? BPF_STACKS_USER : 0));
	if (!st->keep)
		return st;
	vsize = bpf_stacks__size(st, st->keep);
	n = prealloc && KEEP_BYTES / vsize < entries ? KEEP_BYTES / vsize : entries;
	/* (a note, not lost events: the event is counted, and printed without them when slow) */
	st->drop = bpf_back__note_slot(b, "starts' stacks not kept: more starts pending than the "
					  "stack map holds; slow cases among them printed "
					  "without their stacks");
	st->keep_map = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_slow_stack", key_size, vsize,
				     n ? n : 1, prealloc ? 0 : BPF_F_NO_PREALLOC);
	st->zero = st->keep_map < 0
			   ? st->keep_map
			   : bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_slow_stack0", 4, vsize, 1, 0);
	if (st->zero < 0 || st->drop < 0) {
		snprintf(why, len, "the stack map: %s",
			 strerror(st->zero < 0 ? -st->zero : ENOSPC));
		free(st);
		return NULL;
	}
	return st;
}

void bpf_stacks__delete(struct bpf_stacks *st)
{
	free(st); /* the maps are the session's */
}

unsigned bpf_stacks__slot(const struct bpf_stacks *st)
{
	return 8 + 8 * (unsigned)st->depth;
}

int bpf_stacks__taken(const struct bpf_stacks *st)
{
	return (st->kernel ? BPF_STACKS_KERNEL : 0) | (st->user ? BPF_STACKS_USER : 0);
}

int bpf_stacks__kept(const struct bpf_stacks *st)
{
	return st->keep;
}

unsigned bpf_stacks__size(const struct bpf_stacks *st, int kinds)
{
	return bpf_stacks__slot(st) *
	       ((kinds & BPF_STACKS_KERNEL ? 1u : 0u) + (kinds & BPF_STACKS_USER ? 1u : 0u));
}

const void *bpf_stacks__slot_of(const struct bpf_stacks *st, const void *base, int kinds, int kind)
{
	if (!base || !(kinds & kind))
		return NULL;
	return (const char *)base +
	       (kind == BPF_STACKS_USER && (kinds & BPF_STACKS_KERNEL) ? bpf_stacks__slot(st) : 0);
}

/*
 * One slot at (@dst_reg or the pointer spilled at R10 + @spill) + @off: the
 * stack of @kind taken, or length 0 when it is not.
 */
static void emit_slot(struct bpf_stacks *st, struct bpfb *c, int ctx_reg, int16_t ctx_off,
		      int dst_reg, int16_t spill, int16_t off, int kind, bool user_regs)
{
	int ok = bpfb__label(c);
	bool take = kind == BPF_STACKS_KERNEL ? st->kernel && !user_regs : st->user;

	if (dst_reg < 0) {
		b_ldx(c, 8, R1, R10, spill);
		dst_reg = R1;
	}
	if (!take) {
		b_st(c, 8, dst_reg, off, 0);
		return;
	}
	b_mov(c, R2, dst_reg);
	b_alui(c, BPF_ADD, R2, off + 8);
	if (ctx_reg >= 0)
		b_mov(c, R1, ctx_reg);
	else
		b_ldx(c, 8, R1, R10, ctx_off);
	b_movi(c, R3, 8 * st->depth);
	b_movi(c, R4, kind == BPF_STACKS_USER ? BPF_F_USER_STACK : 0);
	b_call(c, BPF_FUNC_get_stack);
	b_jmpi(c, BPF_JSGE, R0, 0, ok);
	b_movi(c, R0, 0); /* no such stack (a kernel thread's user one) */
	bpfb__here(c, ok);
	if (dst_reg == R1) {
		b_ldx(c, 8, R1, R10, spill);
		b_stx(c, 8, R1, off, R0);
	} else {
		b_stx(c, 8, dst_reg, off, R0);
	}
}

void bpf_stacks__emit_take(struct bpf_stacks *st, struct bpfb *c, int ctx_reg, int16_t ctx_off,
			   int dst_reg, int16_t dst_off, int kinds, bool user_regs)
{
	if (kinds & BPF_STACKS_KERNEL) {
		emit_slot(st, c, ctx_reg, ctx_off, dst_reg, 0, dst_off, BPF_STACKS_KERNEL,
			  user_regs);
		dst_off = (int16_t)(dst_off + bpf_stacks__slot(st));
	}
	if (kinds & BPF_STACKS_USER)
		emit_slot(st, c, ctx_reg, ctx_off, dst_reg, 0, dst_off, BPF_STACKS_USER, user_regs);
}

void bpf_stacks__emit_keep(struct bpf_stacks *st, struct bpfb *c, int ctx_reg, int16_t ctx_off,
			   int16_t key_off, int16_t spill, bool user_regs)
{
	int have = bpfb__label(c), done = bpfb__label(c);
	int16_t off = 0;

	if (!st || !st->keep)
		return;
	b_lookup(c, st->keep_map, key_off);
	b_jmpi(c, BPF_JNE, R0, 0, have);
	b_ldmap(c, R1, st->keep_map);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, key_off);
	b_ldvalue(c, R3, st->zero, 0);
	b_movi(c, R4, BPF_NOEXIST);
	b_call(c, BPF_FUNC_map_update_elem); /* (made, or by another CPU now: either way) */
	b_lookup(c, st->keep_map, key_off);
	b_jmpi(c, BPF_JNE, R0, 0, have);
	bpf_back__emit_drop(st->b, c, st->drop);
	b_ja(c, done);
	bpfb__here(c, have);
	b_stx(c, 8, R10, spill, R0);
	if (st->keep & BPF_STACKS_KERNEL) {
		emit_slot(st, c, ctx_reg, ctx_off, -1, spill, off, BPF_STACKS_KERNEL, user_regs);
		off = (int16_t)bpf_stacks__slot(st);
	}
	if (st->keep & BPF_STACKS_USER)
		emit_slot(st, c, ctx_reg, ctx_off, -1, spill, off, BPF_STACKS_USER, user_regs);
	bpfb__here(c, done);
}

void bpf_stacks__emit_copy(struct bpf_stacks *st, struct bpfb *c, int16_t key_off, int dst_reg,
			   int16_t dst_off, int kinds, bool forget)
{
	int none = bpfb__label(c), done = bpfb__label(c);
	int slot = (int)bpf_stacks__slot(st), kept = st->keep & kinds, first = 0, nr = 0;

	for (int k = BPF_STACKS_KERNEL, i = 0; k <= BPF_STACKS_USER; k <<= 1) {
		if (!(kinds & k))
			continue;
		if (!(kept & k)) /* not kept: none */
			b_st(c, 8, dst_reg, (int16_t)(dst_off + slot * i), 0);
		else if (!nr++)
			first = i;
		i++;
	}
	if (!nr)
		return;
	/* the kept ones are consecutive in both, in the same order */
	b_lookup(c, st->keep_map, key_off);
	b_jmpi(c, BPF_JEQ, R0, 0, none);
	b_mov(c, R3, R0);
	if (st->keep & ~kinds) /* (a kind kept that the record has no slot for) */
		b_alui(c, BPF_ADD, R3, kinds & BPF_STACKS_KERNEL ? 0 : slot);
	b_mov(c, R1, dst_reg);
	b_alui(c, BPF_ADD, R1, dst_off + slot * first);
	b_movi(c, R2, slot * nr);
	b_call(c, BPF_FUNC_probe_read_kernel);
	b_jmpi(c, BPF_JEQ, R0, 0, done);
	bpfb__here(c, none);
	for (int i = 0; i < nr; i++)
		b_st(c, 8, dst_reg, (int16_t)(dst_off + slot * (first + i)), 0);
	bpfb__here(c, done);
	if (forget)
		bpf_stacks__emit_forget(st, c, key_off);
}

void bpf_stacks__emit_forget(struct bpf_stacks *st, struct bpfb *c, int16_t key_off)
{
	if (!st || !st->keep)
		return;
	b_ldmap(c, R1, st->keep_map);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, key_off);
	b_call(c, BPF_FUNC_map_delete_elem);
}

/*
 * The frames of the program's own call above the traced function, where
 * the ring path's callchain starts: the program (its JIT address, named
 * after whatever symbol precedes it), then the tracepoint's plumbing.  Up
 * to the last plumbing frame among the first few (task_state.c's rule).
 */
static int plumbing(const struct frame *f, int n)
{
	int skip = 0;

	for (int i = 0; i < n && i < PLUMBING; i++)
		if (!strncmp(f[i].sym, "bpf_trace_run", 13) ||
		    !strncmp(f[i].sym, "__bpf_trace", 11) ||
		    !strncmp(f[i].sym, "__traceiter_", 12) || !strncmp(f[i].sym, "bpf_prog_", 9))
			skip = i + 1;
	while (skip < n && !strcmp(f[skip].sym, "[unknown]"))
		skip++;
	return skip;
}

/* The frames of @slot at @out: their number (at most the slot's depth). */
static int frames_of(struct bpf_stacks *st, const void *slot, u64 *out)
{
	u64 bytes;
	int n = 0;

	if (!slot)
		return 0;
	memcpy(&bytes, slot, 8);
	bytes /= 8;
	memcpy(out, (const char *)slot + 8,
	       (size_t)(bytes < (u64)st->depth ? bytes : (u64)st->depth) * sizeof(u64));
	while ((u64)n < bytes && n < st->depth && out[n])
		n++;
	return n;
}

void bpf_stacks__sample(struct bpf_stacks *st, struct stack_ctx *ctx, const void *kslot,
			const void *uslot, u64 *chain, struct sample *smp)
{
	u64 k[MAX_DEPTH];
	int nk, nu, n = 0, skip = 0;

	if (!st)
		return;
	nk = frames_of(st, kslot, k);
	if (nk && ctx) {
		struct frame f[MAX_DEPTH + 1];
		u64 kc[MAX_DEPTH + 1];
		struct sample ks = { .nr_ips = (u64)nk + 1, .ips = kc };

		kc[0] = PERF_CONTEXT_KERNEL;
		memcpy(kc + 1, k, (size_t)nk * sizeof(u64));
		skip = plumbing(f, stack__frames(ctx, &ks, f, MAX_DEPTH + 1));
	}
	/* at most --max-stack frames, kernel first, as perf's callchain */
	nk = nk - skip < st->max ? nk - skip : st->max;
	if (nk > 0) {
		chain[n++] = PERF_CONTEXT_KERNEL;
		memcpy(chain + n, k + skip, (size_t)nk * sizeof(u64));
		n += nk;
	}
	chain[n] = PERF_CONTEXT_USER;
	nu = frames_of(st, uslot, chain + n + 1);
	nu = nu < st->max - (nk > 0 ? nk : 0) ? nu : st->max - (nk > 0 ? nk : 0);
	/* (no MMAP2 records here: maps read since may miss a later mapping) */
	stack_ctx__untracked_ips(ctx, smp->pid, chain + n + 1, nu);
	if (nu)
		n += nu + 1;
	if (!n)
		return;
	smp->sample_type |= PERF_SAMPLE_CALLCHAIN;
	smp->nr_ips = (u64)n;
	smp->ips = chain;
}
