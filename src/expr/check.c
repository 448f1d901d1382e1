// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's filter syntax inside the language (bare words, CPU, COMM,
 * CPUS{LIST}, NAME.function) and the syntax-only check of -e filters and
 * -k keys before any event is known (EXPR_SYNTAX: names not looked up).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/parser.h"

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

struct node *check__filter_rhs(struct parser *p, const struct node *a, int prec)
{
	const char *s;

	/*
	 * EXPR_SYNTAX, a name of unknown type on the left: the right side is
	 * an operand of the language if it parses as one (a > b + 1), else the
	 * kernel's bare word (comm ~ ksoft*).
	 */
	if ((p->flags & EXPR_SYNTAX) && a->any) {
		struct lexer lx = p->lx;
		struct token tok = p->tok; /* the operator: no string */
		struct expr_error err = *p->lx.err;
		int depth = p->depth;
		struct node *b = parse__next(p) ? parse__binary(p, prec + 1) : NULL;

		if (b)
			return b;
		/* as bare_word_next: not a string, a parenthesis or nothing */
		for (s = lx.text + lx.pos; isspace((unsigned char)*s); s++)
			;
		if (!*s || *s == '"' || *s == '(')
			return NULL;
		free(p->tok.str);
		p->lx = lx;
		p->tok = tok;
		*p->lx.err = err;
		p->depth = depth;
		if (!lex__bareword(&p->lx, &p->tok))
			return NULL;
	} else if (a->is_str && bare_word_next(p)) {
		free(p->tok.str);
		if (!lex__bareword(&p->lx, &p->tok))
			return NULL;
	} else if (!parse__next(p)) {
		return NULL;
	}
	return parse__binary(p, prec + 1);
}

/* Names the kernel's filters know beyond the format's fields. */
struct node *check__filter_name(struct parser *p, const char *name, int col)
{
	struct node *n, *tid;

	if (!strcmp(name, "CPU") || !strcmp(name, "cpu") || !strcmp(name, "common_cpu"))
		return parse__node(p, OP_CPU, col);
	if (strcmp(name, "COMM") && strcmp(name, "comm"))
		return NULL;
	n = parse__node(p, OP_COMM, col);
	tid = parse__node(p, OP_TID, col);
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
struct node *check__any_name(struct parser *p, int col)
{
	struct node *n = parse__node(p, OP_FIELD, col), *idx;
	const char *s = p->lx.text;
	char buf[48];

	if (!n)
		return NULL;
	n->any = true;
	n->depth = 1;
	if ((p->flags & EXPR_FILTER) && !strncmp(s + p->lx.pos, ".function", 9) &&
	    !isalnum((unsigned char)s[p->lx.pos + 9]) && s[p->lx.pos + 9] != '_')
		p->lx.pos += 9;
	if (!parse__next(p))
		return NULL;
	if (p->tok.type != T_LBRACK)
		return n;
	if (!parse__next(p) || !(idx = parse__expr(p)) || !parse__need_int(p, idx))
		return NULL;
	if (p->tok.type != T_RBRACK) {
		parse__error(p, p->tok.pos, "expected ']', found %s",
			     parse__tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	return parse__next(p) ? n : NULL;
}

/* EXPR_SYNTAX in a filter: the kernel's CPUS{0-3,5} (a CPU mask) at the current name. */
struct node *check__cpus(struct parser *p, int col)
{
	const char *s = p->lx.text, *close = strchr(s + p->lx.pos, '}');
	struct node *n;

	for (const char *c = s + p->lx.pos + 1; close && c < close; c++)
		if (!isdigit((unsigned char)*c) && *c != ',' && *c != '-') {
			parse__error(p, (int)(c - s), "bad CPU list in CPUS{...}");
			return NULL;
		}
	if (!close) {
		parse__error(p, p->lx.pos, "'{' of CPUS{...} without its '}'");
		return NULL;
	}
	n = parse__node(p, OP_FIELD, col);
	if (!n)
		return NULL;
	n->any = true;
	n->depth = 1;
	p->lx.pos = (int)(close - s) + 1;
	return parse__next(p) ? n : NULL;
}

static int check(const char *text, unsigned flags, struct expr_error *err)
{
	struct expr *e = expr__compile_ex(text, NULL, flags | EXPR_SYNTAX, err);

	if (!e)
		return err->col < 0 ? -ENOMEM : -EINVAL;
	expr__free(e);
	return 0;
}

int expr__check_filter(const char *text, struct expr_error *err)
{
	return check(text, EXPR_FILTER, err);
}

int expr__check_syntax(const char *text, struct expr_error *err)
{
	return check(text, 0, err);
}
