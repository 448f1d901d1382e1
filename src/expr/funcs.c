// SPDX-License-Identifier: GPL-2.0
/*
 * The functions of the language (all pure: no I/O at evaluation but the
 * lookups their context provides), glob matching and the syscall names.
 */
#include <string.h>

#include "expr/expr_int.h"

static const struct func funcs[] = {
	{ "ksymbol", OP_KSYM, "i", true, EXPR_USES_KSYMS },
	{ "syscall_name", OP_SYSCALL, "i", true, 0 },
	{ "comm_get", OP_COMM, "i", true, EXPR_USES_COMM },
	{ "ntohs", OP_NTOHS, "i", false, 0 },
	{ "ntohl", OP_NTOHL, "i", false, 0 },
	{ "htons", OP_NTOHS, "i", false, 0 },
	{ "htonl", OP_NTOHL, "i", false, 0 },
	{ "strncmp", OP_STRNCMP, "ssi", false, 0 },
};

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
