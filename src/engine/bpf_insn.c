// SPDX-License-Identifier: GPL-2.0
/* The BPF program builder (bpf_insn.h): a growing array, labels resolved at the end. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bpf_insn.h"

void bpfb__init(struct bpfb *b)
{
	memset(b, 0, sizeof(*b));
}

void bpfb__free(struct bpfb *b)
{
	free(b->insn);
	bpfb__init(b);
}

void bpfb__fail(struct bpfb *b, int err, const char *fmt, ...)
{
	va_list ap;

	if (b->err)
		return;
	b->err = err;
	va_start(ap, fmt);
	vsnprintf(b->what, sizeof(b->what), fmt, ap);
	va_end(ap);
}

void bpfb__emit(struct bpfb *b, struct bpf_insn insn)
{
	if (b->err)
		return;
	if (b->n == b->cap) {
		int cap = b->cap ? b->cap * 2 : 64;
		struct bpf_insn *p;

		if (cap > BPFB_MAX_INSNS) {
			bpfb__fail(b, -E2BIG, "program longer than %d instructions",
				   BPFB_MAX_INSNS);
			return;
		}
		p = realloc(b->insn, (size_t)cap * sizeof(*p));
		if (!p) {
			bpfb__fail(b, -ENOMEM, "out of memory");
			return;
		}
		b->insn = p;
		b->cap = cap;
	}
	b->insn[b->n++] = insn;
}

int bpfb__label(struct bpfb *b)
{
	if (b->nr_labels == BPFB_MAX_LABELS) {
		bpfb__fail(b, -E2BIG, "more than %d jumps' labels", BPFB_MAX_LABELS);
		return 0;
	}
	b->label_at[b->nr_labels] = -1;
	return b->nr_labels++;
}

void bpfb__here(struct bpfb *b, int label)
{
	if (!b->err && label >= 0 && label < b->nr_labels)
		b->label_at[label] = b->n;
}

int bpfb__finish(struct bpfb *b)
{
	if (b->err)
		return b->err;
	for (int i = 0; i < b->n; i++) {
		struct bpf_insn *in = &b->insn[i];
		int label, target;
		long off;

		if (BPF_CLASS(in->code) != BPF_JMP || BPF_OP(in->code) == BPF_CALL ||
		    BPF_OP(in->code) == BPF_EXIT)
			continue;
		/* label jumps carry the label + 1 in the high bits of off until here */
		if (!(in->off & 0x4000))
			continue;
		label = in->off & 0x3fff;
		if (label >= b->nr_labels || b->label_at[label] < 0) {
			bpfb__fail(b, -EINVAL, "jump to a label never placed");
			return b->err;
		}
		target = b->label_at[label];
		off = (long)target - (i + 1);
		if (off < -32768 || off > 16383) {
			bpfb__fail(b, -E2BIG, "jump too far");
			return b->err;
		}
		in->off = (int16_t)off;
	}
	return 0;
}

static void emit_jump(struct bpfb *b, struct bpf_insn in, int label)
{
	if (label < 0 || label >= BPFB_MAX_LABELS) {
		bpfb__fail(b, -EINVAL, "bad label %d", label);
		return;
	}
	in.off = (int16_t)(0x4000 | label);
	bpfb__emit(b, in);
}

void b_jmp(struct bpfb *b, int op, int dst, int src, int label)
{
	emit_jump(b, BPFB_INSN(BPF_JMP | op | BPF_X, dst, src, 0, 0), label);
}

void b_jmpi(struct bpfb *b, int op, int dst, int32_t imm, int label)
{
	emit_jump(b, BPFB_INSN(BPF_JMP | op | BPF_K, dst, 0, 0, imm), label);
}

void b_ja(struct bpfb *b, int label)
{
	emit_jump(b, BPFB_INSN(BPF_JMP | BPF_JA, 0, 0, 0, 0), label);
}

void b_ld64(struct bpfb *b, int dst, uint64_t v)
{
	bpfb__emit(b, BPFB_INSN(BPF_LD | BPF_DW | BPF_IMM, dst, 0, 0, (int32_t)(uint32_t)v));
	bpfb__emit(b, BPFB_INSN(0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32)));
}

void b_ldmap(struct bpfb *b, int dst, int fd)
{
	bpfb__emit(b, BPFB_INSN(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd));
	bpfb__emit(b, BPFB_INSN(0, 0, 0, 0, 0));
}

void b_lookup(struct bpfb *b, int fd, int16_t key_off)
{
	b_ldmap(b, R1, fd);
	b_mov(b, R2, R10);
	b_alui(b, BPF_ADD, R2, key_off);
	b_call(b, BPF_FUNC_map_lookup_elem);
}

void b_update(struct bpfb *b, int fd, int16_t key_off, int16_t val_off, int32_t flags)
{
	b_ldmap(b, R1, fd);
	b_mov(b, R2, R10);
	b_alui(b, BPF_ADD, R2, key_off);
	b_mov(b, R3, R10);
	b_alui(b, BPF_ADD, R3, val_off);
	b_movi(b, R4, flags);
	b_call(b, BPF_FUNC_map_update_elem);
}

void b_ldvalue(struct bpfb *b, int dst, int fd, int32_t off)
{
	bpfb__emit(b, BPFB_INSN(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_VALUE, 0, fd));
	bpfb__emit(b, BPFB_INSN(0, 0, 0, 0, off));
}
