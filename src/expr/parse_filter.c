// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's filter syntax in the expression grammar: unquoted words as
 * strings, CPU/COMM names, and (before the event is known, EXPR_SYNTAX)
 * any name, NAME.function and CPUS{LIST}.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "expr/parse_int.h"

/*
 * In a filter, after a string and ==, != or ~: whether the right side is a
 * bare word (the kernel's unquoted string) rather than an operand of the
 * language (a string, a parenthesis, a field, a function, a _variable).
 */
bool px_bare_word_next(const struct parser *p)
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
	if (!px_next(p) || !(idx = px_expr(p)) || !px_need_int(p, idx))
		return NULL;
	if (p->tok.type != T_RBRACK) {
		px_err(p, p->tok.pos, "expected ']', found %s", px_tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	return px_next(p) ? n : NULL;
}

/* EXPR_SYNTAX in a filter: the kernel's CPUS{0-3,5} (a CPU mask) at the current name. */
struct node *px_cpus_mask(struct parser *p, int col)
{
	const char *s = p->lx.text, *close = strchr(s + p->lx.pos, '}');
	struct node *n;

	for (const char *c = s + p->lx.pos + 1; close && c < close; c++)
		if (!isdigit((unsigned char)*c) && *c != ',' && *c != '-') {
			px_err(p, (int)(c - s), "bad CPU list in CPUS{...}");
			return NULL;
		}
	if (!close) {
		px_err(p, p->lx.pos, "'{' of CPUS{...} without its '}'");
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
