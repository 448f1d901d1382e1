/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF program builder: perf-prof writes its in-kernel programs as
 * instructions (no compiler at run time, as ply does), from the typed
 * expression tree (expr/expr_bpf.c) or by hand for a profiler's fixed
 * program (syscalls, rundelay).  The encoding is the kernel's
 * (Documentation/bpf/standardization/instruction-set.rst, linux/bpf.h).
 *
 * Jumps go to labels: bpfb__label() makes one, bpfb__here() places it,
 * the jump emitters take it, and bpfb__finish() resolves the offsets.
 * Errors (out of memory, too long, an unplaced label, an offset that does
 * not fit) stick: every emitter becomes a no-op and finish returns the
 * first one.  Registers: R0 the result and helpers' return, R1-R5
 * arguments (clobbered by a call), R6-R9 kept across calls, R10 the frame
 * pointer (512 bytes of stack below it).
 */
#ifndef PP_BPF_INSN_H
#define PP_BPF_INSN_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

/* The kernel's limit for an unprivileged program; ours stay far below. */
#define BPFB_MAX_INSNS 4096
#define BPFB_MAX_LABELS 1024

enum { R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };

struct bpfb {
	struct bpf_insn *insn;
	int n, cap;
	int label_at[BPFB_MAX_LABELS]; /* instruction index, -1 until placed */
	int nr_labels;
	int err;       /* the first error, -errno (sticky) */
	char what[96]; /* what failed, for the message */
};

void bpfb__init(struct bpfb *b);
void bpfb__free(struct bpfb *b);
/* Append one instruction (jumps' off is a label id when the code is a jump to a label). */
void bpfb__emit(struct bpfb *b, struct bpf_insn insn);
/* Mark the builder failed with @err (-errno) and a reason, unless it already is. */
void bpfb__fail(struct bpfb *b, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A new label (>= 0), not yet placed. */
int bpfb__label(struct bpfb *b);
/* Place @label at the next instruction. */
void bpfb__here(struct bpfb *b, int label);
/* Resolve every jump: 0, or the first error (message in b->what). */
int bpfb__finish(struct bpfb *b);

/* ---- emitters ---- */
/* BPF_SIZE of a load or store of @bytes (1, 2, 4, 8). */
static inline uint8_t bpfb__size(int bytes)
{
	return bytes == 1 ? BPF_B : bytes == 2 ? BPF_H : bytes == 4 ? BPF_W : BPF_DW;
}

#define BPFB_INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/* dst = src / imm (64 bits) */
static inline void b_mov(struct bpfb *b, int dst, int src)
{
	bpfb__emit(b, BPFB_INSN(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0));
}
static inline void b_movi(struct bpfb *b, int dst, int32_t imm)
{
	bpfb__emit(b, BPFB_INSN(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm));
}
/* dst = a 64-bit constant (two instructions) */
void b_ld64(struct bpfb *b, int dst, uint64_t v);
/* dst = the map of fd @fd (two instructions: a BPF_PSEUDO_MAP_FD load) */
void b_ldmap(struct bpfb *b, int dst, int fd);
/* dst op= src / imm, 64-bit: op is BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_OR, BPF_AND,
 * BPF_LSH, BPF_RSH, BPF_ARSH, BPF_XOR, BPF_NEG (unsigned DIV and MOD) */
static inline void b_alu(struct bpfb *b, int op, int dst, int src)
{
	bpfb__emit(b, BPFB_INSN(BPF_ALU64 | op | BPF_X, dst, src, 0, 0));
}
static inline void b_alui(struct bpfb *b, int op, int dst, int32_t imm)
{
	bpfb__emit(b, BPFB_INSN(BPF_ALU64 | op | BPF_K, dst, 0, 0, imm));
}
/* 32-bit ALU: the upper half of dst becomes 0 (b_alu32i(b, BPF_MOV, r, 0) zero-extends) */
static inline void b_alu32(struct bpfb *b, int op, int dst, int src)
{
	bpfb__emit(b, BPFB_INSN(BPF_ALU | op | BPF_X, dst, src, 0, 0));
}
static inline void b_alu32i(struct bpfb *b, int op, int dst, int32_t imm)
{
	bpfb__emit(b, BPFB_INSN(BPF_ALU | op | BPF_K, dst, 0, 0, imm));
}
/* dst = *(size *)(src + off), zero-extended; @bytes 1, 2, 4 or 8 */
static inline void b_ldx(struct bpfb *b, int bytes, int dst, int src, int16_t off)
{
	bpfb__emit(b, BPFB_INSN(BPF_LDX | BPF_MEM | bpfb__size(bytes), dst, src, off, 0));
}
/* *(size *)(dst + off) = src */
static inline void b_stx(struct bpfb *b, int bytes, int dst, int16_t off, int src)
{
	bpfb__emit(b, BPFB_INSN(BPF_STX | BPF_MEM | bpfb__size(bytes), dst, src, off, 0));
}
/* *(size *)(dst + off) = imm */
static inline void b_st(struct bpfb *b, int bytes, int dst, int16_t off, int32_t imm)
{
	bpfb__emit(b, BPFB_INSN(BPF_ST | BPF_MEM | bpfb__size(bytes), dst, 0, off, imm));
}
/* *(u64 *)(dst + off) += src, atomically (a map value shared between CPUs) */
static inline void b_xadd(struct bpfb *b, int dst, int16_t off, int src)
{
	bpfb__emit(b, BPFB_INSN(BPF_STX | BPF_ATOMIC | BPF_DW, dst, src, off, BPF_ADD));
}
/* call helper @fn (BPF_FUNC_*): R0 = fn(R1..R5), R1-R5 clobbered */
static inline void b_call(struct bpfb *b, int fn)
{
	bpfb__emit(b, BPFB_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, fn));
}
static inline void b_exit(struct bpfb *b)
{
	bpfb__emit(b, BPFB_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
}
/* R0 = @v; exit */
static inline void b_ret(struct bpfb *b, int32_t v)
{
	b_movi(b, R0, v);
	b_exit(b);
}
/*
 * if (dst op src/imm) goto label: op is BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE,
 * BPF_JLT, BPF_JLE (unsigned), BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE
 * (signed), BPF_JSET (dst & src)
 */
void b_jmp(struct bpfb *b, int op, int dst, int src, int label);
void b_jmpi(struct bpfb *b, int op, int dst, int32_t imm, int label);
/* goto label */
void b_ja(struct bpfb *b, int label);

/* dst = &(array map @fd's first value) + @off: no helper call (BPF_PSEUDO_MAP_VALUE) */
void b_ldvalue(struct bpfb *b, int dst, int fd, int32_t off);
/* R1 = map @fd, R2 = R10 + @key_off, call map_lookup_elem: R0 = the value or NULL */
void b_lookup(struct bpfb *b, int fd, int16_t key_off);
/* map_update_elem(map @fd, R10 + @key_off, R10 + @val_off, @flags): R0 = 0 or -errno */
void b_update(struct bpfb *b, int fd, int16_t key_off, int16_t val_off, int32_t flags);

#endif
