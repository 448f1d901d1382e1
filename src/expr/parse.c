// SPDX-License-Identifier: GPL-2.0
/*
 * The expression parser: recursive descent with C's precedence, typing
 * against the event's format as it goes (names become field handles, every
 * operator checks its operands), constant folding, and errors that carry
 * the column of the culprit.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/probe.h"
#include "expr/parser.h"

void parse__error(struct parser *p, int col, const char *fmt, ...)
{
	va_list ap;

	if (p->lx.failed)
		return;
	p->lx.failed = true;
	p->lx.err->col = col;
	va_start(ap, fmt);
	vsnprintf(p->lx.err->msg, sizeof(p->lx.err->msg), fmt, ap);
	va_end(ap);
}

bool parse__next(struct parser *p)
{
	free(p->tok.str);
	p->tok.str = NULL;
	p->work++;
	return lex__next(&p->lx, &p->tok);
}

/* The token after the current one, without consuming it. */
static enum tok_type peek(struct parser *p, struct token *t)
{
	struct lexer save = p->lx;
	struct expr_error err = *p->lx.err;

	if (!lex__next(&p->lx, t))
		t->type = T_EOF;
	free(t->str);
	t->str = NULL;
	p->lx = save;
	*p->lx.err = err;
	return t->type;
}

static bool word_is(const struct parser *p, const struct token *t, const char *word)
{
	return t->type == T_IDENT && (int)strlen(word) == t->len &&
	       !strncmp(p->lx.text + t->pos, word, t->len);
}

/* "'text'" of the current token for messages. */
const char *parse__tok_text(const struct parser *p, char *buf, size_t len)
{
	int n = p->tok.end - p->tok.pos;

	if (p->tok.type == T_EOF)
		return "the end";
	if (n > 32)
		n = 32;
	snprintf(buf, len, "'%.*s'", n, p->lx.text + p->tok.pos);
	return buf;
}

struct node *parse__node(struct parser *p, enum op op, int col)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n) {
		parse__error(p, -1, "out of memory");
		return NULL;
	}
	n->op = op;
	n->col = col;
	n->next_alloc = p->e->nodes;
	p->e->nodes = n;
	return n;
}

static struct node *parse_cond(struct parser *p);
static struct node *parse_unary(struct parser *p);
static struct node *parse_postfix(struct parser *p);

bool parse__need_int(struct parser *p, const struct node *n)
{
	if (!n->is_str)
		return true;
	parse__error(p, n->col, "a string used as a number (strings compare with ==, != and ~)");
	return false;
}

static bool is_const(const struct node *n)
{
	return n && n->op == OP_INT;
}

/* Replace @n by its value when its operands are constants. */
static void fold(struct parser *p, struct node *n)
{
	struct expr_ctx ctx = { 0 };
	u64 v;

	if (n->is_str || !is_const(n->a) || (n->b && !is_const(n->b)) || (n->c && !is_const(n->c)))
		return;
	switch (n->op) {
	case OP_NEG ... OP_LOR:
	case OP_COND:
	case OP_NTOHS:
	case OP_NTOHL:
		break;
	default:
		return;
	}
	v = eval__int(p->e, n, &ctx);
	n->op = OP_INT;
	n->val = v;
	n->a = n->b = n->c = NULL;
	n->depth = 1;
}

/* Tree depth, checked as nodes are built: evaluation recurses once per level. */
static bool check_depth(struct parser *p, struct node *n)
{
	int d = 0;

	if (n->a && n->a->depth > d)
		d = n->a->depth;
	if (n->b && n->b->depth > d)
		d = n->b->depth;
	if (n->c && n->c->depth > d)
		d = n->c->depth;
	n->depth = d + 1;
	if (n->depth > MAX_DEPTH) {
		parse__error(p, n->col, "expression nested too deeply (%d levels at most)",
			     MAX_DEPTH);
		return false;
	}
	return true;
}

static struct node *unary(struct parser *p, enum op op, int col, struct node *a)
{
	struct node *n;

	if (!parse__need_int(p, a) || !(n = parse__node(p, op, col)))
		return NULL;
	n->a = a;
	n->uns = op == OP_NOT ? false : a->uns;
	if (!check_depth(p, n))
		return NULL;
	fold(p, n);
	return n;
}

enum op parse__binop(enum tok_type t, int *prec)
{
	switch (t) {
	case T_OROR:
		*prec = 1;
		return OP_LOR;
	case T_ANDAND:
		*prec = 2;
		return OP_LAND;
	case T_PIPE:
		*prec = 3;
		return OP_BOR;
	case T_CARET:
		*prec = 4;
		return OP_BXOR;
	case T_AMP:
		*prec = 5;
		return OP_BAND;
	case T_EQ:
		*prec = 6;
		return OP_EQ;
	case T_NE:
		*prec = 6;
		return OP_NE;
	case T_TILDE:
		*prec = 6;
		return OP_GLOB;
	case T_LT:
		*prec = 7;
		return OP_LT;
	case T_LE:
		*prec = 7;
		return OP_LE;
	case T_GT:
		*prec = 7;
		return OP_GT;
	case T_GE:
		*prec = 7;
		return OP_GE;
	case T_SHL:
		*prec = 8;
		return OP_SHL;
	case T_SHR:
		*prec = 8;
		return OP_SHR;
	case T_PLUS:
		*prec = 9;
		return OP_ADD;
	case T_MINUS:
		*prec = 9;
		return OP_SUB;
	case T_STAR:
		*prec = 10;
		return OP_MUL;
	case T_SLASH:
		*prec = 10;
		return OP_DIV;
	case T_PCT:
		*prec = 10;
		return OP_MOD;
	default:
		*prec = 0;
		return OP_INT;
	}
}

static struct node *binary(struct parser *p, enum op op, int opcol, struct node *a, struct node *b)
{
	struct node *n;

	if (a->any || b->any) {
		/* EXPR_SYNTAX: a name of unknown type; only the syntax counts */
	} else if (op == OP_EQ || op == OP_NE) {
		if (a->is_str != b->is_str) {
			parse__error(p, b->col, "comparing a %s with a %s",
				     a->is_str ? "string" : "number",
				     b->is_str ? "string" : "number");
			return NULL;
		}
		if (a->is_str)
			op = op == OP_EQ ? OP_SEQ : OP_SNE;
	} else if (op == OP_GLOB) {
		if (!a->is_str) {
			parse__error(p, a->col,
				     "'~' matches a string against a glob: this is a number");
			return NULL;
		}
		if (!b->is_str) {
			parse__error(p, b->col, "the glob after '~' must be a string");
			return NULL;
		}
	} else if (a->is_str && b->is_str && op >= OP_LT && op <= OP_GE) {
		parse__error(p, opcol, "strings compare with ==, != and ~ only");
		return NULL;
	} else if (!parse__need_int(p, a) || !parse__need_int(p, b)) {
		return NULL;
	} else if ((op == OP_DIV || op == OP_MOD) && is_const(b) && !b->val) {
		parse__error(p, b->col, "division by zero");
		return NULL;
	}
	n = parse__node(p, op, a->col);
	if (!n)
		return NULL;
	n->a = a;
	n->b = b;
	switch (op) {
	case OP_SHL:
	case OP_SHR:
		n->uns = a->uns;
		break;
	case OP_MUL ... OP_SUB:
	case OP_BAND ... OP_BOR:
		n->uns = a->uns || b->uns;
		break;
	default:
		n->uns = false;
	}
	if (!check_depth(p, n))
		return NULL;
	fold(p, n);
	return n;
}

struct node *parse__binary(struct parser *p, int minprec)
{
	struct node *a, *b;
	enum op op;
	int prec, opcol;

	if (++p->depth > MAX_DEPTH) {
		parse__error(p, p->tok.pos, "expression nested too deeply (%d levels at most)",
			     MAX_DEPTH);
		return NULL;
	}
	a = parse_unary(p);
	while (a) {
		op = parse__binop(p->tok.type, &prec);
		if (!prec || prec < minprec)
			break;
		opcol = p->tok.pos;
		if ((p->flags & EXPR_FILTER) && (a->is_str || a->any) &&
		    (op == OP_EQ || op == OP_NE || op == OP_GLOB))
			b = check__filter_rhs(p, a, prec);
		else
			b = parse__next(p) ? parse__binary(p, prec + 1) : NULL;
		if (!b)
			return NULL;
		a = binary(p, op, opcol, a, b);
	}
	p->depth--;
	return a;
}

static struct node *parse_cond(struct parser *p)
{
	struct node *c = parse__binary(p, 1), *a, *b, *n;

	if (!c || p->tok.type != T_QUEST)
		return c;
	if (!parse__need_int(p, c) || !parse__next(p))
		return NULL;
	a = parse__expr_in(p, CTX_COND);
	if (!a)
		return NULL;
	if (p->tok.type != T_COLON) {
		char buf[48];

		parse__error(p, p->tok.pos, "expected ':' of '?:', found %s",
			     parse__tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	if (!parse__next(p) || !(b = parse_cond(p)))
		return NULL;
	/* EXPR_SYNTAX: a name of unknown type takes the other side's */
	if (!a->any && !b->any && a->is_str != b->is_str) {
		parse__error(p, b->col, "both sides of ':' must be numbers or both strings");
		return NULL;
	}
	n = parse__node(p, OP_COND, c->col);
	if (!n)
		return NULL;
	n->a = c;
	n->b = a;
	n->c = b;
	n->is_str = a->any ? b->is_str : a->is_str;
	n->any = a->any && b->any;
	n->uns = a->uns || b->uns;
	if (!check_depth(p, n))
		return NULL;
	if (is_const(c) && !a->is_str)
		fold(p, n);
	return n;
}

struct node *parse__expr_in(struct parser *p, enum parse_ctx ctx)
{
	enum parse_ctx outer = p->ctx;
	struct node *n;

	p->ctx = ctx;
	n = parse__expr(p);
	p->ctx = outer;
	return n;
}

struct node *parse__expr(struct parser *p)
{
	if (++p->depth > MAX_DEPTH) {
		parse__error(p, p->tok.pos, "expression nested too deeply (%d levels at most)",
			     MAX_DEPTH);
		return NULL;
	}
	struct node *n = parse_cond(p);

	p->depth--;
	return n;
}

/* Cast types: fixed-width names, then C's keyword combinations. */
static const struct {
	const char *name;
	unsigned char size;
	bool is_signed;
} typedefs[] = {
	{ "u8", 1, false },	  { "s8", 1, true },	    { "u16", 2, false },
	{ "s16", 2, true },	  { "u32", 4, false },	    { "s32", 4, true },
	{ "u64", 8, false },	  { "s64", 8, true },	    { "__u8", 1, false },
	{ "__s8", 1, true },	  { "__u16", 2, false },    { "__s16", 2, true },
	{ "__u32", 4, false },	  { "__s32", 4, true },	    { "__u64", 8, false },
	{ "__s64", 8, true },	  { "uint8_t", 1, false },  { "int8_t", 1, true },
	{ "uint16_t", 2, false }, { "int16_t", 2, true },   { "uint32_t", 4, false },
	{ "int32_t", 4, true },	  { "uint64_t", 8, false }, { "int64_t", 8, true },
	{ "size_t", 8, false },	  { "ssize_t", 8, true },   { "pid_t", 4, true },
	{ "bool", 0, false },
};
static const char *const keywords[] = { "unsigned", "signed", "char", "short", "int", "long" };

static int typedef_of(const struct parser *p, const struct token *t)
{
	for (size_t i = 0; i < sizeof(typedefs) / sizeof(typedefs[0]); i++)
		if (word_is(p, t, typedefs[i].name))
			return (int)i;
	return -1;
}

static int keyword_of(const struct parser *p, const struct token *t)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (word_is(p, t, keywords[i]))
			return (int)i;
	return -1;
}

/* At the '(' of a cast: the type up to ')' into @n; the token after ')' is current. */
static bool parse_type(struct parser *p, struct node *n)
{
	int cnt[6] = { 0 }, k, col = p->tok.pos, td;
	char buf[48];

	if (!parse__next(p))
		return false;
	td = typedef_of(p, &p->tok);
	if (td >= 0) {
		n->cast_size = typedefs[td].size;
		n->cast_signed = typedefs[td].is_signed;
		if (!parse__next(p))
			return false;
	} else {
		while ((k = keyword_of(p, &p->tok)) >= 0) {
			cnt[k]++;
			if (!parse__next(p))
				return false;
		}
		/* unsigned signed char short int long */
		if ((cnt[0] && cnt[1]) || cnt[0] > 1 || cnt[1] > 1 || cnt[2] > 1 || cnt[3] > 1 ||
		    cnt[4] > 1 || cnt[5] > 2 || (cnt[2] && (cnt[3] || cnt[4] || cnt[5])) ||
		    (cnt[3] && cnt[5])) {
			parse__error(p, col, "bad cast: not a C integer type");
			return false;
		}
		if (p->tok.type == T_IDENT) {
			parse__error(p, p->tok.pos, "bad cast: %s is not an integer type",
				     parse__tok_text(p, buf, sizeof(buf)));
			return false;
		}
		n->cast_size = cnt[2] ? 1 : cnt[3] ? 2 : cnt[5] ? 8 : 4;
		n->cast_signed = !cnt[0];
	}
	if (p->tok.type == T_STAR) {
		parse__error(p, p->tok.pos,
			     "bad cast: pointers cannot be cast to (the language has none)");
		return false;
	}
	if (p->tok.type != T_RPAREN) {
		parse__error(p, p->tok.pos, "bad cast: expected ')' after the type, found %s",
			     parse__tok_text(p, buf, sizeof(buf)));
		return false;
	}
	return parse__next(p);
}

static struct node *parse_cast(struct parser *p)
{
	struct node *n = parse__node(p, OP_CAST, p->tok.pos), *a;

	if (!n)
		return NULL;
	/* counted like the unary operators: a folded cast is one level deep */
	if (++p->depth > MAX_DEPTH) {
		parse__error(p, n->col, "expression nested too deeply (%d levels at most)",
			     MAX_DEPTH);
		return NULL;
	}
	if (!parse_type(p, n))
		return NULL;
	a = parse_unary(p);
	if (!a)
		return NULL;
	p->depth--;
	if (a->is_str) {
		parse__error(p, n->col, "bad cast: a string cannot be cast to a number");
		return NULL;
	}
	n->a = a;
	n->uns = n->cast_size == 8 && !n->cast_signed;
	if (!check_depth(p, n))
		return NULL;
	fold(p, n);
	return n;
}

static struct node *parse_unary(struct parser *p)
{
	int col = p->tok.pos;
	struct token t;
	struct node *a;
	enum op op;

	switch (p->tok.type) {
	case T_MINUS:
		op = OP_NEG;
		break;
	case T_PLUS:
		op = OP_INT; /* unary plus: nothing to do */
		break;
	case T_BANG:
		op = OP_NOT;
		break;
	case T_TILDE:
		op = OP_BNOT;
		break;
	case T_LPAREN:
		if (peek(p, &t) == T_IDENT && (typedef_of(p, &t) >= 0 || keyword_of(p, &t) >= 0))
			return parse_cast(p);
		return parse_postfix(p);
	default:
		return parse_postfix(p);
	}
	if (++p->depth > MAX_DEPTH) {
		parse__error(p, col, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	if (!parse__next(p) || !(a = parse_unary(p)))
		return NULL;
	p->depth--;
	if (op == OP_INT)
		return parse__need_int(p, a) ? a : NULL;
	return unary(p, op, col, a);
}

static struct node *parse_call(struct parser *p, const struct func *fn, int col)
{
	int nargs = (int)strlen(fn->args), i = 0;
	struct node *n = parse__node(p, fn->op, col), *arg, **slot[3];
	char buf[48];

	if (!n || !parse__next(p) || !parse__next(p)) /* the name, '(' */
		return NULL;
	slot[0] = &n->a;
	slot[1] = &n->b;
	slot[2] = &n->c;
	while (p->tok.type != T_RPAREN || i) {
		if (i == nargs) {
			parse__error(p, p->tok.pos, "%s() takes %d argument%s", fn->name, nargs,
				     nargs == 1 ? "" : "s");
			return NULL;
		}
		arg = parse__expr_in(p, CTX_CALL);
		if (!arg)
			return NULL;
		if (!arg->any && arg->is_str != (fn->args[i] == 's')) {
			parse__error(p, arg->col, "argument %d of %s() must be a %s", i + 1,
				     fn->name, fn->args[i] == 's' ? "string" : "number");
			return NULL;
		}
		*slot[i++] = arg;
		if (p->tok.type == T_RPAREN)
			break;
		if (p->tok.type != T_COMMA) {
			parse__error(p, p->tok.pos,
				     "expected ',' or ')' in the call of %s(), found %s", fn->name,
				     parse__tok_text(p, buf, sizeof(buf)));
			return NULL;
		}
		if (!parse__next(p))
			return NULL;
	}
	if (i != nargs) {
		parse__error(p, p->tok.pos, "%s() takes %d argument%s", fn->name, nargs,
			     nargs == 1 ? "" : "s");
		return NULL;
	}
	if (!parse__next(p))
		return NULL;
	n->is_str = fn->ret_str;
	p->e->uses |= fn->uses;
	if (!check_depth(p, n))
		return NULL;
	fold(p, n);
	return n;
}

static const struct {
	const char *name;
	enum op op;
	bool uns;
} sample_vars[] = {
	{ "_cpu", OP_CPU, false },  { "_pid", OP_PID, false },	    { "_tid", OP_TID, false },
	{ "_time", OP_TIME, true }, { "_period", OP_PERIOD, true },
};

static struct node *parse_index(struct parser *p, const struct field *f, const char *name, int col)
{
	struct node *n, *idx;
	char buf[48];
	int icol;

	if (!f->is_array) {
		parse__error(p, p->tok.pos, "'%s' is not an array", name);
		return NULL;
	}
	if (f->elem_size != 1 && f->elem_size != 2 && f->elem_size != 4 && f->elem_size != 8) {
		parse__error(p, col, "the elements of '%s' are %u bytes: not numbers", name,
			     f->elem_size);
		return NULL;
	}
	if (!parse__next(p))
		return NULL;
	icol = p->tok.pos;
	idx = parse__expr_in(p, CTX_INDEX);
	if (!idx || !parse__need_int(p, idx))
		return NULL;
	if (p->tok.type != T_RBRACK) {
		parse__error(p, p->tok.pos, "expected ']', found %s",
			     parse__tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	if (is_const(idx) && f->nr_elems && idx->val >= f->nr_elems) {
		parse__error(p, icol, "index %lld is outside '%s' (%u elements)",
			     (long long)idx->val, name, f->nr_elems);
		return NULL;
	}
	if (!parse__next(p) || !(n = parse__node(p, OP_ELEM, col)))
		return NULL;
	n->f = *f;
	n->a = idx;
	n->uns = f->elem_size == 8 && !f->is_signed;
	return check_depth(p, n) ? n : NULL;
}

/* "unknown name 'x' (names: a, b, c)", as many names as the message holds */
static void unknown_var(struct parser *p, const char *name, int col)
{
	char list[120];
	size_t o = 0;

	list[0] = 0;
	for (int i = 0; i < p->nr_vars && o < sizeof(list); i++) {
		int n = snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "", p->vars[i]);

		if (n < 0 || (size_t)n >= sizeof(list) - o) {
			snprintf(list + o, sizeof(list) - o, "%s...", i ? ", " : "");
			break;
		}
		o += (size_t)n;
	}
	parse__error(p, col, "unknown name '%s' (names: %s)", name, p->nr_vars ? list : "none");
}

static struct node *parse_ident(struct parser *p)
{
	int col = p->tok.pos;
	const struct func *fn;
	struct token t;
	struct field f;
	struct node *n;
	char name[128];

	if (p->tok.len >= (int)sizeof(name)) {
		parse__error(p, col, "name too long");
		return NULL;
	}
	snprintf(name, sizeof(name), "%.*s", p->tok.len, p->lx.text + col);
	if ((p->flags & (EXPR_SYNTAX | EXPR_FILTER)) == (EXPR_SYNTAX | EXPR_FILTER) &&
	    !strcmp(name, "CPUS") && p->lx.text[p->lx.pos] == '{')
		return check__cpus(p, col);
	if (peek(p, &t) == T_LPAREN) {
		fn = func__find(name, p->tok.len);
		if (!fn) {
			parse__error(p, col, "unknown function '%s'", name);
			return NULL;
		}
		return parse_call(p, fn, col);
	}
	for (int i = 0; p->vars && i < p->nr_vars; i++) {
		if (strcmp(name, p->vars[i]))
			continue;
		n = parse__node(p, OP_VAR, col);
		if (!n || !parse__next(p))
			return NULL;
		n->val = (u64)i;
		n->depth = 1;
		return n;
	}
	for (size_t i = 0; i < sizeof(sample_vars) / sizeof(sample_vars[0]); i++) {
		if (strcmp(name, sample_vars[i].name))
			continue;
		n = parse__node(p, sample_vars[i].op, col);
		if (!n || !parse__next(p))
			return NULL;
		n->uns = sample_vars[i].uns;
		n->depth = 1;
		return n;
	}
	if (p->vars) {
		unknown_var(p, name, col);
		return NULL;
	}
	if (!p->ev || evsel__field(p->ev, name, &f)) {
		if (p->flags & EXPR_FILTER) {
			n = check__filter_name(p, name, col);
			if (n)
				return parse__next(p) ? n : NULL;
		}
		const char *why = NULL;

		if (p->ev && p->ev->probe) {
			struct field pf;

			probe__field(p->ev, name, &pf, &why);
		}
		if (p->flags & EXPR_SYNTAX)
			return check__any_name(p, col);
		if (why)
			parse__error(p, col, "no '%s' here: %s", name, why);
		else
			parse__error(p, col, "unknown field '%s'", name);
		return NULL;
	}
	if (!parse__next(p))
		return NULL;
	if (p->tok.type == T_LBRACK)
		return parse_index(p, &f, name, col);
	if (f.is_string) {
		n = parse__node(p, OP_SFIELD, col);
		if (n)
			n->is_str = true;
	} else if (f.is_array) {
		parse__error(p, col, "'%s' is an array: give an index, %s[0]", name, name);
		return NULL;
	} else if (f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8) {
		n = parse__node(p, OP_FIELD, col);
		if (n)
			n->uns = f.size == 8 && !f.is_signed;
	} else {
		parse__error(p, col, "'%s' is %u bytes: not a number", name, f.size);
		return NULL;
	}
	if (n) {
		n->f = f;
		n->depth = 1;
	}
	return n;
}

static struct node *parse_postfix(struct parser *p)
{
	struct node *n;
	char buf[48];

	switch (p->tok.type) {
	case T_NUM:
		n = parse__node(p, OP_INT, p->tok.pos);
		if (!n)
			return NULL;
		n->val = p->tok.num;
		n->uns = p->tok.uns;
		n->depth = 1;
		return parse__next(p) ? n : NULL;
	case T_STR:
		n = parse__node(p, OP_STR, p->tok.pos);
		if (!n)
			return NULL;
		n->str = p->tok.str;
		n->len = p->tok.len;
		n->is_str = true;
		n->depth = 1;
		p->tok.str = NULL;
		return parse__next(p) ? n : NULL;
	case T_IDENT:
		return parse_ident(p);
	case T_LPAREN: {
		int col = p->tok.pos;

		if (!parse__next(p) || !(n = parse__expr_in(p, CTX_PAREN)))
			return NULL;
		if (p->tok.type != T_RPAREN) {
			parse__error(p, p->tok.pos,
				     "expected ')' to close the '(' at column %d, found %s", col,
				     parse__tok_text(p, buf, sizeof(buf)));
			return NULL;
		}
		return parse__next(p) ? n : NULL;
	}
	default:
		parse__error(p, p->tok.pos, "expected an operand, found %s",
			     parse__tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
}

static struct expr *compile(const char *text, const struct evsel *ev, unsigned flags,
			    const char *const *vars, int nr_vars, struct expr_error *err)
{
	struct parser p = { .ev = ev,
			    .flags = flags,
			    .vars = vars,
			    .nr_vars = nr_vars,
			    .work_max = 16 * (long)strlen(text) + 1024 };
	struct node *root = NULL;
	char buf[48];

	memset(err, 0, sizeof(*err));
	p.e = calloc(1, sizeof(*p.e));
	if (!p.e || !(p.e->text = strdup(text))) {
		free(p.e);
		err->col = -1;
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	p.lx.text = p.e->text;
	p.lx.err = err;
	if (parse__next(&p)) {
		if (p.tok.type == T_EOF)
			parse__error(&p, 0, "empty expression");
		else
			root = parse__expr(&p);
	}
	if (root && p.tok.type == T_ASSIGN)
		parse__error(&p, p.tok.pos, "'=' is not an operator: compare with '=='");
	else if (root && p.tok.type == T_RPAREN)
		parse__error(&p, p.tok.pos, "')' without its '('");
	else if (root && p.tok.type != T_EOF)
		parse__error(&p, p.tok.pos, "expected an operator, found %s",
			     parse__tok_text(&p, buf, sizeof(buf)));
	else if (root && (flags & EXPR_FILTER) && root->is_str)
		parse__error(&p, 0, "a filter must be a condition, not a string");
	free(p.tok.str);
	if (p.lx.failed) {
		expr__free(p.e);
		errno = err->col < 0 ? ENOMEM : EINVAL;
		return NULL;
	}
	p.e->root = root;
	return p.e;
}

struct expr *expr__compile_ex(const char *text, const struct evsel *ev, unsigned flags,
			      struct expr_error *err)
{
	return compile(text, ev, flags, NULL, 0, err);
}

struct expr *expr__compile_vars(const char *text, const char *const *names, int nr_names, char *buf,
				size_t len)
{
	static const char *const none[1];
	struct expr_error err;
	struct expr *e = compile(text, NULL, 0, names ? names : none, names ? nr_names : 0, &err);

	if (!e && buf)
		expr__strerror(text, &err, buf, len);
	return e;
}

char *expr__strerror(const char *text, const struct expr_error *err, char *buf, size_t len)
{
	size_t n = strlen(text);
	char *line;

	if (!len)
		return buf;
	if (err->col < 0 || n > 4096 || !(line = strdup(text))) {
		snprintf(buf, len, "expr: %s", err->msg);
		return buf;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)line[i] < ' ' || line[i] == 0x7f)
			line[i] = ' ';
	snprintf(buf, len, "expr: %s\n  %s\n  %*s^", err->msg, line,
		 err->col > (int)n ? (int)n : err->col, "");
	free(line);
	return buf;
}

struct expr *expr__compile(const char *text, const struct evsel *ev, char *buf, size_t len)
{
	struct expr_error err;
	struct expr *e = expr__compile_ex(text, ev, 0, &err);

	if (!e && buf)
		expr__strerror(text, &err, buf, len);
	return e;
}

struct expr *expr__compile_filter(const char *text, const struct evsel *ev, char *buf, size_t len)
{
	struct expr_error err;
	struct expr *e = expr__compile_ex(text, ev, EXPR_FILTER, &err);

	if (!e && buf)
		expr__strerror(text, &err, buf, len);
	return e;
}

void expr__free(struct expr *e)
{
	struct node *n, *nx;

	if (!e)
		return;
	for (n = e->nodes; n; n = nx) {
		nx = n->next_alloc;
		free(n->str);
		free(n);
	}
	free(e->text);
	free(e);
}

bool expr__is_string(const struct expr *e)
{
	return e->root->is_str;
}

const char *expr__text(const struct expr *e)
{
	return e->text;
}

unsigned expr__uses(const struct expr *e)
{
	return e->uses;
}

void expr__faults(const struct expr *e, struct expr_faults *f)
{
	*f = e->faults;
}
