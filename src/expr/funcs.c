// SPDX-License-Identifier: GPL-2.0
/*
 * The functions of the language (all pure: no I/O at evaluation but the
 * lookups their context provides), glob matching and the syscall names.
 */
#include <string.h>

#include "engine/kvm_reasons.h"
#include "expr/expr_int.h"

static const struct func funcs[] = {
	{ "printf", OP_PRINTF, "s*", false, 0 },
	{ "system", OP_SYSTEM, "s*", false, 0 },
	{ "ksymbol", OP_KSYM, "i", true, EXPR_USES_KSYMS },
	{ "syscall_name", OP_SYSCALL, "i", true, 0 },
	{ "comm_get", OP_COMM, "i", true, EXPR_USES_COMM },
	{ "exit_reason_str", OP_EXITREASON, "ii", true, 0 },
	{ "strncmp", OP_STRNCMP, "ssi", false, 0 },
	{ "ntohl", OP_NTOHL, "i", false, 0 },
	{ "ntohs", OP_NTOHS, "i", false, 0 },
	{ "htonl", OP_NTOHL, "i", false, 0 },
	{ "htons", OP_NTOHS, "i", false, 0 },
};

/* Prototypes for help, in the order of funcs[]. */
static const char *const protos[] = {
	"int printf(char *fmt, ...)      print to the output (6 values at most); the bytes printed",
	("int system(char *fmt, ...)      format and run a shell command with perf-prof's own "
	 "privileges; its status"),
	"char *ksymbol(long addr)        the kernel symbol at addr",
	"char *syscall_name(int nr)      the x86_64 name of syscall nr",
	"char *comm_get(int pid)         the name of task pid",
	"char *exit_reason_str(int isa, int val)  the VM exit reason (isa 1 VMX, 2 SVM)",
	"int strncmp(char *a, char *b, long n)",
	"int ntohl(int v)",
	"short ntohs(short v)",
	"int htonl(int v)",
	"short htons(short v)",
};

const struct func *func__at(int i)
{
	return i >= 0 && i < (int)(sizeof(funcs) / sizeof(funcs[0])) ? &funcs[i] : NULL;
}

const char *func__proto(const struct func *fn)
{
	return protos[fn - funcs];
}

const char *expr__exit_reason(u64 isa, u64 reason, char *buf, size_t len)
{
	if (isa == KVM_ISA_VMX)
		reason &= 0xffff; /* the basic exit reason, without its flags */
	return kvm_reasons__fmt(kvm_reasons__host(), (u32)isa, (u32)reason, buf, len);
}

const struct func *func__find(const char *name, int len)
{
	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
		if ((int)strlen(funcs[i].name) == len && !strncmp(funcs[i].name, name, len))
			return &funcs[i];
	return NULL;
}

/*
 * x86_64 syscall names by number, generated at build time from the kernel
 * headers (<asm/unistd_64.h>) into $(BUILD)/gen by the Makefile: lines
 * '[NR] = "name",' in ascending order (none without the header).
 */
static const char *const syscall_names[] = {
#include <expr_syscalls.h>
	NULL
};

const char *expr__syscall_name(u64 nr)
{
	if (nr >= sizeof(syscall_names) / sizeof(syscall_names[0]))
		return NULL;
	return syscall_names[nr];
}

/*
 * One pattern element at @p against @c: '?', a class, an escaped or plain
 * character.  *@np: where the next element starts.
 */
static bool match_one(const char *pat, int plen, int p, unsigned char c, int *np)
{
	int q;
	bool neg, hit = false, first = true;

	switch (pat[p]) {
	case '?':
		*np = p + 1;
		return true;
	case '\\':
		if (p + 1 < plen) {
			*np = p + 2;
			return (unsigned char)pat[p + 1] == c;
		}
		break;
	case '[':
		q = p + 1;
		neg = q < plen && (pat[q] == '!' || pat[q] == '^');
		if (neg)
			q++;
		/* a ']' right after '[' (or '[!') is a member, as in shells */
		while (q < plen && (pat[q] != ']' || first)) {
			unsigned char lo = pat[q], hi = lo;

			first = false;
			if (q + 2 < plen && pat[q + 1] == '-' && pat[q + 2] != ']') {
				hi = pat[q + 2];
				q += 3;
			} else {
				q++;
			}
			if (lo <= c && c <= hi)
				hit = true;
		}
		if (q >= plen) /* no ']': a plain '[' */
			break;
		*np = q + 1;
		return hit != neg;
	default:
		break;
	}
	*np = p + 1;
	return (unsigned char)pat[p] == c;
}

bool expr__glob(const char *pat, int plen, const char *s, int slen)
{
	int p = 0, i = 0, star_p = -1, star_i = 0, np;

	/* one backtracking point is enough: only '*' matches a variable length */
	while (i < slen) {
		if (p < plen && pat[p] == '*') {
			star_p = ++p;
			star_i = i;
			continue;
		}
		if (p < plen && match_one(pat, plen, p, s[i], &np)) {
			p = np;
			i++;
			continue;
		}
		if (star_p < 0)
			return false;
		p = star_p;
		i = ++star_i;
	}
	while (p < plen && pat[p] == '*')
		p++;
	return p == plen;
}
