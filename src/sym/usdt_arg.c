// SPDX-License-Identifier: GPL-2.0
/*
 * The operands of a USDT note: "SIZE@OPERAND" in the AT&T syntax that gcc
 * and clang print into the note for each probe argument (sys/sdt.h's
 * "nor" constraint: a constant, an offsettable memory reference or a
 * register).  Registers are named by their x86-64 perf register numbers,
 * which is what PERF_SAMPLE_REGS_USER and the uprobe fetch args index.
 */
#include <asm/perf_regs.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "sym/probe_elf.h"

#define SYM_MAX 256

/* The legacy registers in each width: 64, 32, 16 and the low 8 bits. */
static const struct {
	const char *name[4];
	signed char reg;
} legacy[] = {
	{ { "rax", "eax", "ax", "al" }, PERF_REG_X86_AX },
	{ { "rbx", "ebx", "bx", "bl" }, PERF_REG_X86_BX },
	{ { "rcx", "ecx", "cx", "cl" }, PERF_REG_X86_CX },
	{ { "rdx", "edx", "dx", "dl" }, PERF_REG_X86_DX },
	{ { "rsi", "esi", "si", "sil" }, PERF_REG_X86_SI },
	{ { "rdi", "edi", "di", "dil" }, PERF_REG_X86_DI },
	{ { "rbp", "ebp", "bp", "bpl" }, PERF_REG_X86_BP },
	{ { "rsp", "esp", "sp", "spl" }, PERF_REG_X86_SP },
};

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/*
 * "%NAME" at *@pp: its perf register number and width in bytes.  %rip is
 * PERF_REG_X86_IP (only a memory base may be %rip); the high byte
 * registers (%ah...) hold bits 8-15, which no "low SIZE bytes" can say.
 */
static int parse_reg(const char **pp, const char *end, int *reg, int *width)
{
	const char *p = *pp + 1, *s = p;
	size_t n;
	int i, w;

	if (*pp >= end || **pp != '%')
		return -EINVAL;
	while (p < end && is_lower_alnum(*p))
		p++;
	n = (size_t)(p - s);
	*pp = p;
	if (n == 3 && !memcmp(s, "rip", 3)) {
		*reg = PERF_REG_X86_IP;
		*width = 8;
		return 0;
	}
	for (i = 0; i < (int)(sizeof(legacy) / sizeof(legacy[0])); i++) {
		for (w = 0; w < 4; w++) {
			if (strlen(legacy[i].name[w]) == n && !memcmp(s, legacy[i].name[w], n)) {
				*reg = legacy[i].reg;
				*width = 8 >> w;
				return 0;
			}
		}
	}
	/* %r8 .. %r15 with the suffixes d (32), w (16), b or l (8) */
	if (n >= 2 && s[0] == 'r' && s[1] >= '1' && s[1] <= '9') {
		int num = s[1] - '0';
		size_t k = 2;

		if (k < n && s[k] >= '0' && s[k] <= '9')
			num = num * 10 + (s[k++] - '0');
		if (num < 8 || num > 15 || n - k > 1)
			return -EINVAL;
		w = 8;
		if (k < n) {
			if (s[k] == 'd')
				w = 4;
			else if (s[k] == 'w')
				w = 2;
			else if (s[k] == 'b' || s[k] == 'l')
				w = 1;
			else
				return -EINVAL;
		}
		*reg = PERF_REG_X86_R8 + (num - 8);
		*width = w;
		return 0;
	}
	return -EINVAL;
}

/*
 * [+-]DIGITS or [+-]0xHEX at *@pp (a sign only if @sign), wrapping into
 * 64 bits the way the assembler does ("$-1" and "$0xffffffffffffffff" are
 * the same constant); more than 64 bits is refused.
 */
static int parse_num(const char **pp, const char *end, bool sign, s64 *v)
{
	const char *p = *pp;
	unsigned int base = 10;
	bool neg = false;
	u64 mag = 0;
	int digits = 0;

	if (sign && p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (; p < end; p++, digits++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned int)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned int)(*p - 'A' + 10);
		else
			break;
		if (mag > (UINT64_MAX - d) / base)
			return -EINVAL;
		mag = mag * base + d;
	}
	if (!digits)
		return -EINVAL;
	*pp = p;
	*v = (s64)(neg ? 0 - mag : mag);
	return 0;
}

static bool sym_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
	       (!first && c >= '0' && c <= '9');
}

/*
 * The displacement before "(": a sum of numbers and at most one symbol,
 * in the orders gcc prints them ("-32", "sym", "sym+16", "16+sym").
 */
static int parse_disp(const char **pp, const char *end, const char **sym, size_t *sym_len,
		      s64 *disp)
{
	const char *p = *pp;
	bool first = true;
	u64 sum = 0;
	s64 v;

	for (; p < end && *p != '('; first = false) {
		bool neg = false;

		if (*p == '+' || *p == '-')
			neg = *p++ == '-';
		else if (!first)
			return -EINVAL;
		if (p < end && sym_char(*p, true)) {
			if (*sym || neg)
				return -EINVAL;
			*sym = p;
			while (p < end && sym_char(*p, false))
				p++;
			*sym_len = (size_t)(p - *sym);
			continue;
		}
		if (parse_num(&p, end, false, &v))
			return -EINVAL;
		sum = neg ? sum - (u64)v : sum + (u64)v;
	}
	*pp = p;
	*disp = (s64)sum;
	return 0;
}

/* "DISP(BASE,INDEX,SCALE)" with any part but the parentheses optional; "SYM+DISP(%rip)". */
static int parse_mem(const char *p, const char *end, struct usdt_arg *a,
		     int (*rip_sym)(void *priv, const char *name, u64 *addr), void *priv)
{
	const char *sym = NULL;
	size_t sym_len = 0;
	s64 disp = 0;
	int reg, width;

	if (parse_disp(&p, end, &sym, &sym_len, &disp))
		return -EINVAL;
	if (p >= end || *p++ != '(')
		return -EINVAL;
	if (p < end && *p == '%') {
		if (parse_reg(&p, end, &reg, &width) || width != 8)
			return -EINVAL;
		a->reg = (signed char)reg;
	}
	if (p < end && *p == ',') {
		p++;
		if (parse_reg(&p, end, &reg, &width) || width != 8 || reg == PERF_REG_X86_IP ||
		    reg == PERF_REG_X86_SP)
			return -EINVAL;
		a->index = (signed char)reg;
		a->scale = 1;
		if (p < end && *p == ',') {
			p++;
			if (p >= end || (*p != '1' && *p != '2' && *p != '4' && *p != '8'))
				return -EINVAL;
			a->scale = (unsigned char)(*p++ - '0');
		}
	}
	if (p >= end || *p++ != ')' || p != end || (a->reg < 0 && a->index < 0))
		return -EINVAL;
	a->kind = USDT_ARG_MEM;
	a->value = disp;
	if (a->reg != PERF_REG_X86_IP)
		/* a symbol's absolute address would need the load bias: not a USDT operand */
		return sym ? -EINVAL : 0;
	/*
	 * %rip-relative: the displacement counts from the end of an instruction
	 * we do not have, so only the symbolic form can be placed.
	 */
	if (!sym || a->index >= 0 || !rip_sym || sym_len >= SYM_MAX)
		return -EINVAL;
	{
		char name[SYM_MAX];
		u64 addr;

		memcpy(name, sym, sym_len);
		name[sym_len] = '\0';
		if (rip_sym(priv, name, &addr))
			return -EINVAL;
		a->value = (s64)(addr + (u64)disp);
	}
	a->rip_rel = true;
	return 0;
}

int usdt_arg__parse(const char *text, int len, struct usdt_arg *a,
		    int (*rip_sym)(void *priv, const char *name, u64 *addr), void *priv)
{
	const char *p = text, *end, *q;
	int size = 0, reg, width, err;
	bool is_signed = false;

	if (!text || !a)
		return -EINVAL;
	end = text + (len < 0 ? (int)strlen(text) : len);
	memset(a, 0, sizeof(*a));
	a->reg = a->index = -1;

	/* "[-]SIZE@": without it (very old notes) the operand's own width, unsigned */
	q = p;
	if (q < end && *q == '-')
		q++;
	if (q < end && *q >= '1' && *q <= '8' && q + 1 < end && q[1] == '@') {
		size = *q - '0';
		if (size != 1 && size != 2 && size != 4 && size != 8)
			return -EINVAL;
		is_signed = *p == '-';
		p = q + 2;
	} else if (q < end && *q >= '0' && *q <= '9') {
		/* "16@%xmm0", "0@..." or a memory operand "-8(%rbp)" */
		const char *r = q;

		while (r < end && *r >= '0' && *r <= '9')
			r++;
		if (r < end && *r == '@')
			return -EINVAL;
	}
	if (p >= end)
		return -EINVAL;
	if (*p == '%') {
		err = parse_reg(&p, end, &reg, &width);
		if (err || p != end || reg == PERF_REG_X86_IP)
			return -EINVAL;
		a->kind = USDT_ARG_REG;
		a->reg = (signed char)reg;
		if (!size)
			size = width;
	} else if (*p == '$') {
		p++;
		if (parse_num(&p, end, true, &a->value) || p != end)
			return -EINVAL;
		a->kind = USDT_ARG_IMM;
	} else {
		err = parse_mem(p, end, a, rip_sym, priv);
		if (err)
			return err;
	}
	a->size = (unsigned char)(size ? size : 8);
	a->is_signed = is_signed;
	return 0;
}
