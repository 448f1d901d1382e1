// SPDX-License-Identifier: GPL-2.0
/* USDT note operands ("-4@%edi", "8@-16(%rbp)", ...): every form gcc writes, and malformed ones. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <asm/perf_regs.h>

#include "sym/probe_elf.h"
#include "ut.h"

/* ---- USDT operands ---- */

static int fake_sym(void *priv, const char *name, u64 *addr)
{
	(void)priv;
	if (strcmp(name, "sym") && strcmp(name, "sym.0"))
		return -ENOENT;
	*addr = 0x1000;
	return 0;
}

#define AX PERF_REG_X86_AX
#define BX PERF_REG_X86_BX
#define SI PERF_REG_X86_SI
#define DI PERF_REG_X86_DI
#define BP PERF_REG_X86_BP
#define SP PERF_REG_X86_SP
#define IP PERF_REG_X86_IP
#define R(n) (PERF_REG_X86_R8 + (n)-8)

#define BAD(t)                            \
	{                                 \
		.text = t, .ret = -EINVAL \
	}

static const struct arg_case {
	const char *text;
	int ret;
	enum usdt_arg_kind kind;
	int size, is_signed, reg, index, scale, rip;
	s64 value;
} arg_cases[] = {
	{ "-4@%edi", 0, USDT_ARG_REG, 4, 1, DI, -1, 0, 0, 0 },
	{ "8@%rax", 0, USDT_ARG_REG, 8, 0, AX, -1, 0, 0, 0 },
	{ "-8@%r14", 0, USDT_ARG_REG, 8, 1, R(14), -1, 0, 0, 0 },
	{ "1@%al", 0, USDT_ARG_REG, 1, 0, AX, -1, 0, 0, 0 },
	{ "2@%ax", 0, USDT_ARG_REG, 2, 0, AX, -1, 0, 0, 0 },
	{ "-1@%dil", 0, USDT_ARG_REG, 1, 1, DI, -1, 0, 0, 0 },
	{ "2@%di", 0, USDT_ARG_REG, 2, 0, DI, -1, 0, 0, 0 },
	{ "8@%rdi", 0, USDT_ARG_REG, 8, 0, DI, -1, 0, 0, 0 },
	{ "1@%bpl", 0, USDT_ARG_REG, 1, 0, BP, -1, 0, 0, 0 },
	{ "1@%spl", 0, USDT_ARG_REG, 1, 0, SP, -1, 0, 0, 0 },
	{ "1@%r8b", 0, USDT_ARG_REG, 1, 0, R(8), -1, 0, 0, 0 },
	{ "2@%r9w", 0, USDT_ARG_REG, 2, 0, R(9), -1, 0, 0, 0 },
	{ "4@%r10d", 0, USDT_ARG_REG, 4, 0, R(10), -1, 0, 0, 0 },
	{ "8@%r15", 0, USDT_ARG_REG, 8, 0, R(15), -1, 0, 0, 0 },
	{ "%edi", 0, USDT_ARG_REG, 4, 0, DI, -1, 0, 0, 0 },
	{ "%r12w", 0, USDT_ARG_REG, 2, 0, R(12), -1, 0, 0, 0 },
	{ "4@$5", 0, USDT_ARG_IMM, 4, 0, -1, -1, 0, 0, 5 },
	{ "-4@$-1", 0, USDT_ARG_IMM, 4, 1, -1, -1, 0, 0, -1 },
	{ "8@$0x10", 0, USDT_ARG_IMM, 8, 0, -1, -1, 0, 0, 16 },
	{ "8@$18446744073709551615", 0, USDT_ARG_IMM, 8, 0, -1, -1, 0, 0, -1 },
	{ "$5", 0, USDT_ARG_IMM, 8, 0, -1, -1, 0, 0, 5 },
	{ "-8@-32(%rbp)", 0, USDT_ARG_MEM, 8, 1, BP, -1, 0, 0, -32 },
	{ "4@8(%rax,%rbx,4)", 0, USDT_ARG_MEM, 4, 0, AX, BX, 4, 0, 8 },
	{ "8@8(%rax,%rbx,4)", 0, USDT_ARG_MEM, 8, 0, AX, BX, 4, 0, 8 },
	{ "8@(%rax,%rbx)", 0, USDT_ARG_MEM, 8, 0, AX, BX, 1, 0, 0 },
	{ "8@(,%rsi,8)", 0, USDT_ARG_MEM, 8, 0, -1, SI, 8, 0, 0 },
	{ "8@(%rsp)", 0, USDT_ARG_MEM, 8, 0, SP, -1, 0, 0, 0 },
	{ "-8@24(%rsp)", 0, USDT_ARG_MEM, 8, 1, SP, -1, 0, 0, 24 },
	{ "4@0x10(%r12)", 0, USDT_ARG_MEM, 4, 0, R(12), -1, 0, 0, 16 },
	{ "-32(%rbp)", 0, USDT_ARG_MEM, 8, 0, BP, -1, 0, 0, -32 },
	{ "8@sym(%rip)", 0, USDT_ARG_MEM, 8, 0, IP, -1, 0, 1, 0x1000 },
	{ "8@sym+16(%rip)", 0, USDT_ARG_MEM, 8, 0, IP, -1, 0, 1, 0x1010 },
	{ "-8@16+sym(%rip)", 0, USDT_ARG_MEM, 8, 1, IP, -1, 0, 1, 0x1010 },
	{ "4@sym-8(%rip)", 0, USDT_ARG_MEM, 4, 0, IP, -1, 0, 1, 0xff8 },
	{ "4@sym.0(%rip)", 0, USDT_ARG_MEM, 4, 0, IP, -1, 0, 1, 0x1000 },
	/* refused */
	BAD(""),
	BAD("8@"),
	BAD("@%rax"),
	BAD("-@%rax"),
	BAD("0@%rax"),
	BAD("3@%rax"),
	BAD("16@%xmm0"),
	BAD("99999999999999999999@%rax"),
	BAD("8@%xmm0"),
	BAD("8@%rip"),
	BAD("1@%ah"),
	BAD("1@%bh"),
	BAD("8@%r16"),
	BAD("8@%r7"),
	BAD("8@%r8x"),
	BAD("8@%r08"),
	BAD("8@%"),
	BAD("8@rax"),
	BAD("8@%rax junk"),
	BAD("8@%RAX"),
	BAD("8@$"),
	BAD("8@$x"),
	BAD("8@$5x"),
	BAD("8@$-"),
	BAD("8@$0x"),
	BAD("8@$99999999999999999999"),
	BAD("8@$sym"),
	BAD("8@(%rax"),
	BAD("8@8(%rax))"),
	BAD("8@()"),
	BAD("8@(%rax,)"),
	BAD("8@8(%rax,%rbx,3)"),
	BAD("8@8(%rax,%rbx,44)"),
	BAD("8@8(%rax,%rip,1)"),
	BAD("8@(,%rsp,2)"),
	BAD("8@(%eax)"),
	BAD("8@16(%rip)"),
	BAD("8@(%rip)"),
	BAD("8@nosuch(%rip)"),
	BAD("8@sym(%rax)"),
	BAD("8@sym@GOTPCREL(%rip)"),
	BAD("8@sym+sym(%rip)"),
	BAD("8@-sym(%rip)"),
	BAD("8@sym(%rip,%rax,1)"),
	BAD("8@sym"),
	BAD("8@16"),
	BAD("8@%fs:8"),
	BAD("8@%fs:8(%rax)"),
	BAD("8@8(%rax) "),
};

static void test_args(void)
{
	struct usdt_arg a;

	for (size_t i = 0; i < sizeof(arg_cases) / sizeof(arg_cases[0]); i++) {
		const struct arg_case *c = &arg_cases[i];
		size_t len = strlen(c->text);
		/* exactly @len bytes, no NUL: ASan sees a read past them */
		char *copy = malloc(len ? len : 1);
		int ret;

		memcpy(copy, c->text, len);
		ret = usdt_arg__parse(copy, (int)len, &a, fake_sym, NULL);
		free(copy);
		CHECK(ret == c->ret, "'%s': %d, not %d", c->text, ret, c->ret);
		if (ret || c->ret)
			continue;
		CHECK(a.kind == c->kind && a.size == c->size && a.is_signed == c->is_signed &&
			      a.reg == c->reg && a.index == c->index && a.scale == c->scale &&
			      a.rip_rel == c->rip && a.value == c->value,
		      "'%s': kind %d size %d signed %d reg %d index %d scale %d rip %d value %lld",
		      c->text, a.kind, a.size, a.is_signed, a.reg, a.index, a.scale, a.rip_rel,
		      (long long)a.value);
	}
	CHECK_INT(usdt_arg__parse("8@sym(%rip)", -1, &a, NULL, NULL), -EINVAL);
	CHECK_INT(usdt_arg__parse("8@%rax 4@$1", 6, &a, NULL, NULL), 0);
	CHECK(a.kind == USDT_ARG_REG && a.reg == AX, "the first of two");
	CHECK_INT(usdt_arg__parse("-4@$-1", -1, &a, NULL, NULL), 0);
	CHECK_INT(a.value, -1);
	CHECK_INT(usdt_arg__parse(NULL, 0, &a, NULL, NULL), -EINVAL);
}

int main(void)
{
	test_args();
	return ut_done("test_usdt_arg");
}
