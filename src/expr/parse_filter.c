// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's filter syntax in the expression grammar: unquoted words as
 * strings, CPU/COMM names, and (before the event is known, EXPR_SYNTAX)
 * any name, NAME.function and CPUS{LIST}.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "expr/parse_int.h"

/*
 * In a filter, after a string and ==, != or ~: whether the right side is a
 * bare word (the kernel's unquoted string) rather than an operand of the
 * language (a string, a parenthesis, a field, a function, a _variable).
 */
static bool bare_word_next(const struct parser *p)
{
	const char *s = p->lx.text + p->lx.pos;
	struct field f;
	char name[128];
	int n = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '"' || *s == '(')
		return false;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	if (s[0] == '_') /* _cpu, _pid...: the language's */
		return false;
	if (!n || n >= (int)sizeof(name) || isdigit((unsigned char)s[0]))
		return true;
	snprintf(name, sizeof(name), "%.*s", n, s);
	while (isspace((unsigned char)s[n]))
		n++;
	if (s[n] == '(')
		return false;
	return !(p->ev && !evsel__field(p->ev, name, &f));
}

/*
 * Whether the current token, after a right side of ==, != or ~ in the
 * language, continues the expression: another operator (the comma too),
 * the end, or what closes the construct around (')' always, ']' of an
 * index, ':' of '?:').  Anything else ("kworker:0", "bash!", "ba=sh",
 * "b[a]sh") means the right side was a bare word of which the language
 * read a part.
 */
static bool continues(const struct parser *p)
{
	int prec;

	switch (p->tok.type) {
	case T_EOF:
	case T_RPAREN:
	case T_COMMA: /* C's comma operator, or the end of a call's argument */
		return true;
	case T_QUEST: /* "a ? b : c"; the glob "a?b" has no blank before it */
		return p->tok.pos > 0 && isspace((unsigned char)p->lx.text[p->tok.pos - 1]);
	case T_COLON:
		return p->ctx == CTX_COND;
	case T_RBRACK:
		return p->ctx == CTX_INDEX;
	default:
		px_binop(p->tok.type, &prec);
		return prec > 0;
	}
}

/*
 * EXPR_SYNTAX: the right side of a string compare whose left side's type
 * is not known.  It is an operand of the language if one parses there and
 * the expression goes on after it (a == b + 1), else the kernel's bare word
 * (comm ~ ksoft*, comm == kworker:0), or its quoted string without escapes
 * ("a\q"): whatever the old build ran, in the kernel or in user space.
 */
static struct node *syntax_rhs(struct parser *p, int prec)
{
	struct lexer lx = p->lx;
	struct token tok = p->tok; /* the operator: no string */
	struct expr_error err = *p->lx.err;
	enum parse_ctx ctx = p->ctx;
	int depth = p->depth;
	bool want_addr = p->want_addr, want_lval = p->want_lval;
	struct node *b = px_next(p) ? px_binary(p, prec + 1) : NULL;
	const char *s;

	if (b && continues(p))
		return b;
	/*
	 * A parenthesis or nothing is no bare word, and past its budget of
	 * tokens the check tries no more (text made to nest tries): the
	 * language's verdict stands.
	 */
	for (s = lx.text + lx.pos; isspace((unsigned char)*s); s++)
		;
	if (!*s || *s == '(' || p->work > p->work_max)
		return b;
	free(p->tok.str);
	p->lx = lx;
	p->tok = tok;
	*p->lx.err = err;
	p->depth = depth;
	p->ctx = ctx;
	p->want_addr = want_addr;
	p->want_lval = want_lval;
	if (!lex__bareword(&p->lx, &p->tok))
		return NULL;
	return px_binary(p, prec + 1);
}

struct node *px_filter_rhs(struct parser *p, const struct node *a, int prec)
{
	if (a->is_str && bare_word_next(p)) {
		free(p->tok.str);
		if (!lex__bareword(&p->lx, &p->tok))
			return NULL;
		return px_binary(p, prec + 1);
	}
	if (p->flags & EXPR_SYNTAX)
		return syntax_rhs(p, prec);
	return px_next(p) ? px_binary(p, prec + 1) : NULL;
}

/* Names the kernel's filters know beyond the format's fields. */
struct node *px_filter_name(struct parser *p, const char *name, int col)
{
	struct node *n, *tid;

	if (!strcmp(name, "CPU") || !strcmp(name, "cpu") || !strcmp(name, "common_cpu"))
		return px_node(p, OP_CPU, col);
	if (strcmp(name, "COMM") && strcmp(name, "comm"))
		return NULL;
	n = px_node(p, OP_COMM, col);
	tid = px_node(p, OP_TID, col);
	if (!n || !tid)
		return NULL;
	n->a = tid;
	n->is_str = true;
	n->depth = 2;
	p->e->uses |= EXPR_USES_COMM;
	return n;
}

/*
 * EXPR_SYNTAX: the current name, not looked up, as a value of any type;
 * NAME[INDEX] and, in a filter, the kernel's NAME.function (a symbol
 * compare) are taken too.
 */
struct node *px_any_name(struct parser *p, int col)
{
	struct node *n = px_node(p, OP_FIELD, col), *idx;
	const char *s = p->lx.text;
	char buf[48];

	if (!n)
		return NULL;
	n->any = true;
	n->depth = 1;
	if ((p->flags & EXPR_FILTER) && !strncmp(s + p->lx.pos, ".function", 9) &&
	    !isalnum((unsigned char)s[p->lx.pos + 9]) && s[p->lx.pos + 9] != '_')
		p->lx.pos += 9;
	if (!px_next(p))
		return NULL;
	if (p->tok.type != T_LBRACK)
		return n;
	if (!px_next(p) || !(idx = px_expr_in(p, CTX_INDEX)) || !px_need_int(p, idx))
		return NULL;
	if (p->tok.type != T_RBRACK) {
		px_err(p, p->tok.pos, "expected ']', found %s", px_tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	return px_next(p) ? n : NULL;
}

/* A number of a CPU list at s[*i]: decimal digits, or N (the last CPU). */
static bool cpu_num(const char *s, int end, int *i)
{
	int b = *i;

	if (*i < end && s[*i] == 'N')
		return ++*i, true;
	while (*i < end && isdigit((unsigned char)s[*i]))
		++*i;
	return *i > b;
}

static bool cpu_sep(const char *s, int end, int i)
{
	return i == end || s[i] == ',' || isspace((unsigned char)s[i]);
}

/*
 * The kernel's CPU list (cpulist_parse) in s[i..end): regions apart by
 * commas or blanks, each "all" or A or A-B, the last two with a pattern
 * ":USED/GROUP"; numbers decimal or N.  The ranges are the kernel's to
 * judge (it knows the CPUs).  Returns the offset of the first bad byte or
 * -1.
 */
static int cpulist_bad(const char *s, int i, int end)
{
	while (i < end) {
		if (cpu_sep(s, end, i)) {
			i++;
			continue;
		}
		if (end - i >= 3 && !strncasecmp(s + i, "all", 3)) {
			i += 3;
		} else {
			if (!cpu_num(s, end, &i))
				return i;
			if (cpu_sep(s, end, i))
				continue;
			if (s[i] != '-')
				return i;
			i++;
			if (!cpu_num(s, end, &i))
				return i;
		}
		if (cpu_sep(s, end, i))
			continue;
		if (s[i] != ':')
			return i;
		i++;
		if (!cpu_num(s, end, &i))
			return i;
		if (i == end || s[i] != '/')
			return i;
		i++;
		if (!cpu_num(s, end, &i))
			return i;
		if (!cpu_sep(s, end, i))
			return i;
	}
	return -1;
}

/*
 * EXPR_SYNTAX in a filter: the kernel's CPUS{0-3,5} (a CPU mask) at the
 * current name.  "{}" is refused as the kernel does ("{ }" it takes).
 */
struct node *px_cpus_mask(struct parser *p, int col)
{
	const char *s = p->lx.text, *close = strchr(s + p->lx.pos, '}');
	int open = p->lx.pos, bad;
	struct node *n;

	if (!close) {
		px_err(p, open, "'{' of CPUS{...} without its '}'");
		return NULL;
	}
	bad = close == s + open + 1 ? open + 1 : cpulist_bad(s, open + 1, (int)(close - s));
	if (bad >= 0) {
		px_err(p, bad, "bad CPU list in CPUS{...}");
		return NULL;
	}
	n = px_node(p, OP_FIELD, col);
	if (!n)
		return NULL;
	n->any = true;
	n->depth = 1;
	p->lx.pos = (int)(close - s) + 1;
	return px_next(p) ? n : NULL;
}
