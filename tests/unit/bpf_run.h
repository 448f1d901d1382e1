/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small interpreter of the generated BPF instructions that the unit tests
 * of analysis/latency's program parts need: 64-bit immediate loads, the
 * ALU64 operations MOV, ADD, SUB, AND, OR, LSH, RSH, and the jumps (JA,
 * JEQ, JNE, JLT, JLE, JGT, JGE, EXIT).  No memory, no calls: anything else
 * ends the run with ~0, as does a program that runs 10000 instructions.
 *
 *	uint64_t r0 = bpf_run(&c, r1, r2);	(bpf_run3: R3 too)
 */
#ifndef PP_BPF_RUN_H
#define PP_BPF_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/bpf_insn.h"

/* Run @c with R1-R3 given (the others 0): R0 at exit, or ~0 on an unknown instruction. */
static inline uint64_t bpf_run3(const struct bpfb *c, uint64_t r1, uint64_t r2, uint64_t r3)
{
	uint64_t r[11] = { 0 };

	r[1] = r1;
	r[2] = r2;
	r[3] = r3;
	for (int pc = 0, steps = 0; pc < c->n && steps < 10000; pc++, steps++) {
		const struct bpf_insn *i = &c->insn[pc];
		uint64_t src =
			BPF_SRC(i->code) == BPF_X ? r[i->src_reg] : (uint64_t)(int64_t)i->imm;
		uint64_t *d = &r[i->dst_reg];
		bool jump;

		if (i->code == (BPF_LD | BPF_DW | BPF_IMM)) {
			if (pc + 1 >= c->n)
				return ~0ull;
			*d = (uint32_t)i->imm | (uint64_t)(uint32_t)i[1].imm << 32;
			pc++;
			continue;
		}
		if (BPF_CLASS(i->code) == BPF_ALU64) {
			switch (BPF_OP(i->code)) {
			case BPF_MOV:
				*d = src;
				break;
			case BPF_ADD:
				*d += src;
				break;
			case BPF_SUB:
				*d -= src;
				break;
			case BPF_AND:
				*d &= src;
				break;
			case BPF_OR:
				*d |= src;
				break;
			case BPF_LSH:
				*d <<= src & 63;
				break;
			case BPF_RSH:
				*d >>= src & 63;
				break;
			default:
				return ~0ull;
			}
			continue;
		}
		if (BPF_CLASS(i->code) != BPF_JMP)
			return ~0ull;
		switch (BPF_OP(i->code)) {
		case BPF_EXIT:
			return r[0];
		case BPF_JA:
			jump = true;
			break;
		case BPF_JEQ:
			jump = *d == src;
			break;
		case BPF_JNE:
			jump = *d != src;
			break;
		case BPF_JLT:
			jump = *d < src;
			break;
		case BPF_JLE:
			jump = *d <= src;
			break;
		case BPF_JGT:
			jump = *d > src;
			break;
		case BPF_JGE:
			jump = *d >= src;
			break;
		default:
			return ~0ull;
		}
		if (jump)
			pc += i->off;
	}
	return ~0ull;
}

/* The same with R3 = 0 */
static inline uint64_t bpf_run(const struct bpfb *c, uint64_t r1, uint64_t r2)
{
	return bpf_run3(c, r1, r2, 0);
}

#endif
