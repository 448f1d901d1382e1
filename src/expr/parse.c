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
#include "expr/expr_int.h"

/* Deeper trees are refused: evaluation recurses once per level. */
#define MAX_DEPTH 128

struct parser {
	struct lexer lx;
	struct token tok; /* the current token */
	const struct evsel *ev;
	struct expr *e;
	unsigned flags;
	int depth;		 /* recursion of the parser itself */
	const char *const *vars; /* bound names (expr__compile_vars), or NULL */
	int nr_vars;
	bool want_addr; /* the operand of '&': an array's name is its address */
	bool want_lval; /* the operand of prefix ++/--: an unknown name is a variable */
};

static void perr(struct parser *p, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void perr(struct parser *p, int col, const char *fmt, ...)
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

static bool next(struct parser *p)
{
	free(p->tok.str);
	p->tok.str = NULL;
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
static const char *tok_text(const struct parser *p, char *buf, size_t len)
{
	int n = p->tok.end - p->tok.pos;

	if (p->tok.type == T_EOF)
		return "the end";
	if (n > 32)
		n = 32;
	snprintf(buf, len, "'%.*s'", n, p->lx.text + p->tok.pos);
	return buf;
}

static struct node *new_node(struct parser *p, enum op op, int col)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n) {
		perr(p, -1, "out of memory");
		return NULL;
	}
	n->op = op;
	n->col = col;
	n->next_alloc = p->e->nodes;
	p->e->nodes = n;
	return n;
}

static struct node *parse_expr(struct parser *p);
static struct node *parse_assign(struct parser *p);
static struct node *parse_cond(struct parser *p);
static struct node *parse_unary(struct parser *p);
static struct node *parse_postfix(struct parser *p);

static bool need_int(struct parser *p, const struct node *n)
{
	if (!n->is_str)
		return true;
	perr(p, n->col, "a string used as a number (strings compare with ==, != and ~)");
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
		perr(p, n->col, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return false;
	}
	return true;
}

/* @n takes @from's type (a string, signedness, pointer). */
static void copy_type(struct node *n, const struct node *from)
{
	n->is_str = from->is_str;
	n->uns = from->uns;
	n->any = from->any;
	n->ptr = from->ptr;
	n->psize = from->psize;
	n->psigned = from->psigned;
}

/* The bytes one step of pointer @n moves by: what it points to. */
static unsigned char ptr_scale(const struct node *n)
{
	return n->ptr > 1 ? 8 : n->psize ? n->psize : 1;
}

/* The slot of the name at @n (a new one if none): 1 + its index, 0 on error. */
static int slot_of(struct parser *p, const struct node *n, bool user)
{
	struct expr *e = p->e;

	for (int i = 0; i < e->nr_slots; i++)
		if (e->slots[i].len == n->nlen &&
		    !strncmp(e->text + e->slots[i].col, e->text + n->col, n->nlen))
			return i + 1;
	if (e->nr_slots == EXPR_MAX_SLOTS) {
		perr(p, n->col, "too many names assigned (%d at most)", EXPR_MAX_SLOTS);
		return 0;
	}
	e->slots[e->nr_slots] = (struct slot){ .col = n->col, .len = n->nlen, .user = user };
	return ++e->nr_slots;
}

/*
 * Whether @n can be assigned by @op: a field, a _variable, a bound name or
 * a variable of the expression, each a number.
 */
static bool lvalue(struct parser *p, struct node *n, const char *op)
{
	if (n->any)
		return true;
	switch (n->op) {
	case OP_FIELD:
	case OP_CPU ... OP_VAR:
	case OP_UVAR:
		if (n->nlen)
			break;
		/* fall through */
	default:
		perr(p, n->col,
		     "'%s' needs a name: a field, a _variable or a variable of the expression", op);
		return false;
	}
	n->slot = slot_of(p, n, n->op == OP_UVAR);
	return n->slot != 0;
}

/* A variable's type is its first assignment's (a number or a pointer). */
static void uvar_type(struct parser *p, struct node *var, const struct node *val)
{
	struct slot *sl = &p->e->slots[var->slot - 1];

	if (sl->typed)
		return;
	sl->typed = true;
	sl->ptr = val->ptr;
	sl->psize = val->psize;
	sl->psigned = val->psigned;
	sl->uns = val->uns;
	var->ptr = sl->ptr;
	var->psize = sl->psize;
	var->psigned = sl->psigned;
	var->uns = sl->uns;
}

/* P + N, N + P, P - N (N scaled by what P points to) and P - Q (in those units). */
static struct node *ptr_arith(struct parser *p, enum op op, int opcol, struct node *a,
			      struct node *b)
{
	struct node *n;

	if (a->ptr && b->ptr && op == OP_ADD) {
		perr(p, opcol, "adding two pointers");
		return NULL;
	}
	if (!a->ptr && op == OP_SUB) {
		perr(p, b->col, "a number minus a pointer");
		return NULL;
	}
	n = new_node(p, a->ptr && b->ptr ? OP_PTRDIFF : OP_PTRADD, a->col);
	if (!n)
		return NULL;
	if (!a->ptr) { /* N + P: P first */
		struct node *t = a;

		a = b;
		b = t;
	}
	n->a = a;
	n->b = b;
	n->cast_size = ptr_scale(a);
	n->cast_signed = op == OP_SUB; /* P - N */
	if (n->op == OP_PTRADD) {
		copy_type(n, a);
	} else {
		n->uns = false;
	}
	return check_depth(p, n) ? n : NULL;
}

static struct node *unary(struct parser *p, enum op op, int col, struct node *a)
{
	struct node *n;

	if (!need_int(p, a) || !(n = new_node(p, op, col)))
		return NULL;
	n->a = a;
	n->uns = op == OP_NOT ? false : a->uns;
	if (!check_depth(p, n))
		return NULL;
	fold(p, n);
	return n;
}

static enum op binop_of(enum tok_type t, int *prec)
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
			perr(p, b->col, "comparing a %s with a %s", a->is_str ? "string" : "number",
			     b->is_str ? "string" : "number");
			return NULL;
		}
		if (a->is_str)
			op = op == OP_EQ ? OP_SEQ : OP_SNE;
	} else if (op == OP_GLOB) {
		if (!a->is_str) {
			perr(p, a->col, "'~' matches a string against a glob: this is a number");
			return NULL;
		}
		if (!b->is_str) {
			perr(p, b->col, "the glob after '~' must be a string");
			return NULL;
		}
	} else if (a->is_str && b->is_str && op >= OP_LT && op <= OP_GE) {
		perr(p, opcol, "strings compare with ==, != and ~ only");
		return NULL;
	} else if (!need_int(p, a) || !need_int(p, b)) {
		return NULL;
	} else if ((op == OP_DIV || op == OP_MOD) && is_const(b) && !b->val) {
		perr(p, b->col, "division by zero");
		return NULL;
	} else if ((op == OP_ADD || op == OP_SUB) && (a->ptr || b->ptr)) {
		return ptr_arith(p, op, opcol, a, b);
	}
	n = new_node(p, op, a->col);
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

static struct node *parse_binary(struct parser *p, int minprec)
{
	const char *s;
	struct node *a, *b;
	enum op op;
	int prec, opcol;

	if (++p->depth > MAX_DEPTH) {
		perr(p, p->tok.pos, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	a = parse_unary(p);
	while (a) {
		op = binop_of(p->tok.type, &prec);
		if (!prec || prec < minprec)
			break;
		opcol = p->tok.pos;
		/*
		 * EXPR_SYNTAX, a name of unknown type on the left of ==, != or ~:
		 * the right side is an operand of the language if it parses as
		 * one (a > b + 1), else the kernel's bare word (comm ~ ksoft*).
		 */
		if ((p->flags & (EXPR_FILTER | EXPR_SYNTAX)) == (EXPR_FILTER | EXPR_SYNTAX) &&
		    a->any && (op == OP_EQ || op == OP_NE || op == OP_GLOB)) {
			struct lexer lx = p->lx;
			struct token tok = p->tok; /* the operator: no string */
			struct expr_error err = *p->lx.err;
			int depth = p->depth;

			b = next(p) ? parse_binary(p, prec + 1) : NULL;
			if (b) {
				a = binary(p, op, opcol, a, b);
				continue;
			}
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
		} else if ((p->flags & EXPR_FILTER) && a->is_str &&
			   (op == OP_EQ || op == OP_NE || op == OP_GLOB) && bare_word_next(p)) {
			free(p->tok.str);
			if (!lex__bareword(&p->lx, &p->tok))
				return NULL;
		} else if (!next(p)) {
			return NULL;
		}
		b = parse_binary(p, prec + 1);
		if (!b)
			return NULL;
		a = binary(p, op, opcol, a, b);
	}
	p->depth--;
	return a;
}

static struct node *parse_cond(struct parser *p)
{
	struct node *c = parse_binary(p, 1), *a, *b, *n;

	if (!c || p->tok.type != T_QUEST)
		return c;
	if (!need_int(p, c) || !next(p))
		return NULL;
	a = parse_expr(p);
	if (!a)
		return NULL;
	if (p->tok.type != T_COLON) {
		char buf[48];

		perr(p, p->tok.pos, "expected ':' of '?:', found %s",
		     tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	if (!next(p) || !(b = parse_cond(p)))
		return NULL;
	if (a->is_str != b->is_str) {
		perr(p, b->col, "both sides of ':' must be numbers or both strings");
		return NULL;
	}
	n = new_node(p, OP_COND, c->col);
	if (!n)
		return NULL;
	n->a = c;
	n->b = a;
	n->c = b;
	n->is_str = a->is_str;
	n->uns = a->uns || b->uns;
	if (!check_depth(p, n))
		return NULL;
	if (is_const(c) && !a->is_str)
		fold(p, n);
	return n;
}

/* NAME = VALUE, right to left; C's assignment expression. */
static struct node *parse_assign(struct parser *p)
{
	struct node *a, *b, *n;
	int opcol;

	if (++p->depth > MAX_DEPTH) {
		perr(p, p->tok.pos, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	a = parse_cond(p);
	if (a && p->tok.type == T_ASSIGN) {
		opcol = p->tok.pos;
		if (!lvalue(p, a, "=") || !next(p) || !(b = parse_assign(p)))
			return NULL;
		if (b->is_str && !b->any) {
			perr(p, b->col, "a string cannot be assigned: variables hold numbers");
			return NULL;
		}
		if (a->op == OP_UVAR)
			uvar_type(p, a, b);
		n = new_node(p, OP_ASSIGN, a->col);
		if (!n)
			return NULL;
		n->a = a;
		n->b = b;
		n->opcol = opcol;
		copy_type(n, a);
		if (!check_depth(p, n))
			return NULL;
		a = n;
	}
	p->depth--;
	return a;
}

/* A, B: both evaluated, B's value; the lowest precedence. */
static struct node *parse_expr(struct parser *p)
{
	struct node *a, *b, *n;

	if (++p->depth > MAX_DEPTH) {
		perr(p, p->tok.pos, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	a = parse_assign(p);
	while (a && p->tok.type == T_COMMA) {
		if (!next(p) || !(b = parse_assign(p)))
			return NULL;
		n = new_node(p, OP_COMMA, a->col);
		if (!n)
			return NULL;
		n->a = a;
		n->b = b;
		copy_type(n, b);
		if (!check_depth(p, n))
			return NULL;
		a = n;
	}
	p->depth--;
	return a;
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

	if (!next(p))
		return false;
	td = typedef_of(p, &p->tok);
	if (td >= 0) {
		n->cast_size = typedefs[td].size;
		n->cast_signed = typedefs[td].is_signed;
		if (!next(p))
			return false;
	} else {
		while ((k = keyword_of(p, &p->tok)) >= 0) {
			cnt[k]++;
			if (!next(p))
				return false;
		}
		/* unsigned signed char short int long */
		if ((cnt[0] && cnt[1]) || cnt[0] > 1 || cnt[1] > 1 || cnt[2] > 1 || cnt[3] > 1 ||
		    cnt[4] > 1 || cnt[5] > 2 || (cnt[2] && (cnt[3] || cnt[4] || cnt[5])) ||
		    (cnt[3] && cnt[5])) {
			perr(p, col, "bad cast: not a C integer type");
			return false;
		}
		if (p->tok.type == T_IDENT) {
			perr(p, p->tok.pos, "bad cast: %s is not an integer type",
			     tok_text(p, buf, sizeof(buf)));
			return false;
		}
		n->cast_size = cnt[2] ? 1 : cnt[3] ? 2 : cnt[5] ? 8 : 4;
		n->cast_signed = !cnt[0];
	}
	/* pointers: to the type, to pointers to it... */
	n->ptr = 0;
	n->psize = n->cast_size ? n->cast_size : 1;
	n->psigned = n->cast_signed;
	while (p->tok.type == T_STAR) {
		if (++n->ptr > 8) {
			perr(p, p->tok.pos, "bad cast: too many '*'");
			return false;
		}
		if (!next(p))
			return false;
	}
	if (n->ptr)
		n->cast_size = 8, n->cast_signed = false;
	if (p->tok.type != T_RPAREN) {
		perr(p, p->tok.pos, "bad cast: expected ')' after the type, found %s",
		     tok_text(p, buf, sizeof(buf)));
		return false;
	}
	return next(p);
}

static struct node *parse_cast(struct parser *p)
{
	struct node *n = new_node(p, OP_CAST, p->tok.pos), *a;

	if (!n)
		return NULL;
	/* counted like the unary operators: a folded cast is one level deep */
	if (++p->depth > MAX_DEPTH) {
		perr(p, n->col, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	if (!parse_type(p, n))
		return NULL;
	a = parse_unary(p);
	if (!a)
		return NULL;
	p->depth--;
	if (a->is_str && n->ptr && !a->any) {
		/* (char *)comm: the string's bytes */
		struct node *sp = new_node(p, OP_STR2PTR, a->col);

		if (!sp)
			return NULL;
		sp->a = a;
		if (!check_depth(p, sp))
			return NULL;
		a = sp;
	} else if (a->is_str && !a->any) {
		perr(p, n->col, "bad cast: a string cannot be cast to a number");
		return NULL;
	}
	n->a = a;
	n->uns = n->cast_size == 8 && !n->cast_signed;
	if (!check_depth(p, n))
		return NULL;
	fold(p, n);
	return n;
}

/* A string's bytes as a char pointer. */
static struct node *str_ptr(struct parser *p, struct node *a)
{
	struct node *n = new_node(p, OP_STR2PTR, a->col);

	if (!n)
		return NULL;
	n->a = a;
	n->ptr = 1;
	n->psize = 1;
	n->psigned = true; /* char */
	n->uns = true;
	return check_depth(p, n) ? n : NULL;
}

/* &NAME, &ARRAY, &ARRAY[I], &*P: an address inside the record. */
static struct node *addr_of(struct parser *p, struct node *a, int col)
{
	struct node *n;

	if (a->any)
		return a;
	switch (a->op) {
	case OP_ADDR: /* an array's name: already its address */
		return a;
	case OP_DEREF:
		return a->a;
	case OP_SFIELD:
		return str_ptr(p, a);
	case OP_FIELD:
	case OP_ELEM:
		if (a->nlen || a->op == OP_ELEM)
			break;
		/* fall through */
	default:
		perr(p, col, "'&' needs a field of the event: the address of what the record holds");
		return NULL;
	}
	n = new_node(p, OP_ADDR, col);
	if (!n)
		return NULL;
	n->f = a->f;
	n->a = a->op == OP_ELEM ? a->a : NULL;
	n->ptr = 1;
	n->psize = (unsigned char)(a->op == OP_ELEM ? a->f.elem_size : a->f.size);
	n->psigned = a->f.is_signed;
	n->uns = true;
	return check_depth(p, n) ? n : NULL;
}

/* *P: what P points to, read inside the record or a string (else a fault, 0). */
static struct node *deref(struct parser *p, struct node *a, int col)
{
	struct node *n;

	if (a->any)
		return a;
	if (a->is_str && !(a = str_ptr(p, a)))
		return NULL;
	if (!a->ptr) {
		perr(p, col, "'*' needs a pointer: a cast gives one, *(u32 *)&field");
		return NULL;
	}
	n = new_node(p, OP_DEREF, col);
	if (!n)
		return NULL;
	n->a = a;
	n->ptr = a->ptr - 1;
	n->psize = a->psize;
	n->psigned = a->psigned;
	n->cast_size = n->ptr ? 8 : a->psize;
	n->cast_signed = n->ptr ? false : a->psigned;
	n->uns = n->ptr || (n->cast_size == 8 && !n->cast_signed);
	return check_depth(p, n) ? n : NULL;
}

/* ++X, --X, X++, X-- */
static struct node *incdec(struct parser *p, enum op op, int col, struct node *a)
{
	struct node *n;

	if (!lvalue(p, a, op == OP_PREINC || op == OP_POSTINC ? "++" : "--"))
		return NULL;
	n = new_node(p, op, col);
	if (!n)
		return NULL;
	n->a = a;
	copy_type(n, a);
	n->cast_size = ptr_scale(a);
	return check_depth(p, n) ? n : NULL;
}

/* X[I] of a pointer or a string: *(X + I). */
static struct node *subscript(struct parser *p, struct node *a)
{
	struct node *idx, *sum;
	char buf[48];
	int col = p->tok.pos;

	if (!a->any && !a->is_str && !a->ptr) {
		perr(p, col, "'[' needs an array, a pointer or a string");
		return NULL;
	}
	if (!next(p) || !(idx = parse_expr(p)) || !need_int(p, idx))
		return NULL;
	if (p->tok.type != T_RBRACK) {
		perr(p, p->tok.pos, "expected ']', found %s", tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	if (!next(p))
		return NULL;
	if (a->any)
		return a;
	if (a->is_str && !(a = str_ptr(p, a)))
		return NULL;
	if (idx->ptr) {
		perr(p, idx->col, "a pointer as an index");
		return NULL;
	}
	sum = ptr_arith(p, OP_ADD, col, a, idx);
	return sum ? deref(p, sum, a->col) : NULL;
}

/* sizeof(TYPE), sizeof EXPR: C's sizes on x86_64 (a pointer, a long: 8). */
static struct node *parse_sizeof(struct parser *p)
{
	struct node *n = new_node(p, OP_INT, p->tok.pos), *a;
	struct token t;

	if (!n || !next(p))
		return NULL;
	n->depth = 1;
	if (p->tok.type == T_LPAREN && peek(p, &t) == T_IDENT &&
	    (typedef_of(p, &t) >= 0 || keyword_of(p, &t) >= 0)) {
		struct node ty = { 0 };

		if (!parse_type(p, &ty))
			return NULL;
		n->val = ty.ptr ? 8 : ty.cast_size ? ty.cast_size : 1;
		return n;
	}
	/* an expression: not evaluated, its type's size */
	a = parse_unary(p);
	if (!a)
		return NULL;
	if (a->ptr)
		n->val = 8;
	else if (a->op == OP_FIELD || a->op == OP_SFIELD)
		n->val = a->f.size;
	else if (a->op == OP_ELEM)
		n->val = a->f.elem_size;
	else if ((a->op == OP_CAST || a->op == OP_DEREF) && a->cast_size)
		n->val = a->cast_size;
	else if (a->op == OP_CPU || a->op == OP_PID || a->op == OP_TID)
		n->val = 4;
	else
		n->val = 8;
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
	case T_INC:
		op = OP_PREINC;
		break;
	case T_DEC:
		op = OP_PREDEC;
		break;
	case T_AMP:
		op = OP_ADDR;
		break;
	case T_STAR:
		op = OP_DEREF;
		break;
	case T_LPAREN:
		if (peek(p, &t) == T_IDENT && (typedef_of(p, &t) >= 0 || keyword_of(p, &t) >= 0))
			return parse_cast(p);
		return parse_postfix(p);
	case T_IDENT:
		if (word_is(p, &p->tok, "sizeof"))
			return parse_sizeof(p);
		return parse_postfix(p);
	default:
		return parse_postfix(p);
	}
	if (++p->depth > MAX_DEPTH) {
		perr(p, col, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	if (!next(p))
		return NULL;
	p->want_addr = op == OP_ADDR;
	p->want_lval = op == OP_PREINC || op == OP_PREDEC;
	a = parse_unary(p);
	p->want_addr = p->want_lval = false;
	if (!a)
		return NULL;
	p->depth--;
	if (op == OP_INT)
		return need_int(p, a) ? a : NULL;
	if (op == OP_ADDR)
		return addr_of(p, a, col);
	if (op == OP_DEREF)
		return deref(p, a, col);
	if (op == OP_PREINC || op == OP_PREDEC)
		return incdec(p, op, col, a);
	return unary(p, op, col, a);
}

/* printf(FMT, ...), system(FMT, ...): a literal format and up to 6 values. */
static struct node *parse_vcall(struct parser *p, const struct func *fn, int col)
{
	struct node *n = new_node(p, fn->op, col), *arg;
	char buf[48], msg[120];
	int fcol = 0, depth = 0;

	if (!n || !next(p) || !next(p)) /* the name, '(' */
		return NULL;
	n->args = calloc(7, sizeof(*n->args));
	if (!n->args) {
		perr(p, -1, "out of memory");
		return NULL;
	}
	while (p->tok.type != T_RPAREN || n->nargs) {
		if (n->nargs == 7) {
			perr(p, p->tok.pos, "%s() takes a format and 6 values at most", fn->name);
			return NULL;
		}
		arg = parse_assign(p);
		if (!arg)
			return NULL;
		if (!n->nargs && arg->op != OP_STR && !arg->any) {
			perr(p, arg->col, "the format of %s() must be a string in double quotes",
			     fn->name);
			return NULL;
		}
		if (arg->depth > depth)
			depth = arg->depth;
		n->args[n->nargs++] = arg;
		if (p->tok.type == T_RPAREN)
			break;
		if (p->tok.type != T_COMMA) {
			perr(p, p->tok.pos, "expected ',' or ')' in the call of %s(), found %s",
			     fn->name, tok_text(p, buf, sizeof(buf)));
			return NULL;
		}
		if (!next(p))
			return NULL;
	}
	if (!n->nargs) {
		perr(p, p->tok.pos, "%s() needs a format", fn->name);
		return NULL;
	}
	if (!n->args[0]->any &&
	    fmt__check(n->args[0]->str, n->args[0]->len, n->args + 1, n->nargs - 1, msg,
		       sizeof(msg), &fcol)) {
		/* the column of the conversion inside the literal: after its quote */
		perr(p, n->args[0]->col + 1 + fcol, "%s(): %s", fn->name, msg);
		return NULL;
	}
	if (!next(p))
		return NULL;
	n->depth = depth + 1;
	if (n->depth > MAX_DEPTH) {
		perr(p, col, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	p->e->uses |= fn->uses;
	return n;
}

static struct node *parse_call(struct parser *p, const struct func *fn, int col)
{
	int nargs = (int)strlen(fn->args), i = 0;
	struct node *n = new_node(p, fn->op, col), *arg, **slot[3];
	char buf[48];

	if (fn->op == OP_PRINTF || fn->op == OP_SYSTEM)
		return parse_vcall(p, fn, col);
	if (!n || !next(p) || !next(p)) /* the name, '(' */
		return NULL;
	slot[0] = &n->a;
	slot[1] = &n->b;
	slot[2] = &n->c;
	while (p->tok.type != T_RPAREN || i) {
		if (i == nargs) {
			perr(p, p->tok.pos, "%s() takes %d argument%s", fn->name, nargs,
			     nargs == 1 ? "" : "s");
			return NULL;
		}
		arg = parse_assign(p);
		if (!arg)
			return NULL;
		if (!arg->any && arg->is_str != (fn->args[i] == 's')) {
			perr(p, arg->col, "argument %d of %s() must be a %s", i + 1, fn->name,
			     fn->args[i] == 's' ? "string" : "number");
			return NULL;
		}
		*slot[i++] = arg;
		if (p->tok.type == T_RPAREN)
			break;
		if (p->tok.type != T_COMMA) {
			perr(p, p->tok.pos, "expected ',' or ')' in the call of %s(), found %s",
			     fn->name, tok_text(p, buf, sizeof(buf)));
			return NULL;
		}
		if (!next(p))
			return NULL;
	}
	if (i != nargs) {
		perr(p, p->tok.pos, "%s() takes %d argument%s", fn->name, nargs,
		     nargs == 1 ? "" : "s");
		return NULL;
	}
	if (!next(p))
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

/* Names the kernel's filters know beyond the format's fields. */
static struct node *filter_name(struct parser *p, const char *name, int col)
{
	struct node *n, *tid;

	if (!strcmp(name, "CPU") || !strcmp(name, "cpu") || !strcmp(name, "common_cpu"))
		return new_node(p, OP_CPU, col);
	if (strcmp(name, "COMM") && strcmp(name, "comm"))
		return NULL;
	n = new_node(p, OP_COMM, col);
	tid = new_node(p, OP_TID, col);
	if (!n || !tid)
		return NULL;
	n->a = tid;
	n->is_str = true;
	n->depth = 2;
	p->e->uses |= EXPR_USES_COMM;
	return n;
}

static struct node *parse_index(struct parser *p, const struct field *f, const char *name, int col)
{
	struct node *n, *idx;
	char buf[48];
	int icol;

	if (!f->is_array) {
		perr(p, p->tok.pos, "'%s' is not an array", name);
		return NULL;
	}
	if (f->elem_size != 1 && f->elem_size != 2 && f->elem_size != 4 && f->elem_size != 8) {
		perr(p, col, "the elements of '%s' are %u bytes: not numbers", name, f->elem_size);
		return NULL;
	}
	if (!next(p))
		return NULL;
	icol = p->tok.pos;
	idx = parse_expr(p);
	if (!idx || !need_int(p, idx))
		return NULL;
	if (p->tok.type != T_RBRACK) {
		perr(p, p->tok.pos, "expected ']', found %s", tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	if (is_const(idx) && f->nr_elems && idx->val >= f->nr_elems) {
		perr(p, icol, "index %lld is outside '%s' (%u elements)", (long long)idx->val, name,
		     f->nr_elems);
		return NULL;
	}
	if (!next(p) || !(n = new_node(p, OP_ELEM, col)))
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
	perr(p, col, "unknown name '%s' (names: %s)", name, p->nr_vars ? list : "none");
}

/*
 * EXPR_SYNTAX: the current name, not looked up, as a value of any type;
 * NAME[INDEX] and, in a filter, the kernel's NAME.function (a symbol
 * compare) are taken too.
 */
static struct node *any_name(struct parser *p, int col)
{
	struct node *n = new_node(p, OP_FIELD, col), *idx;
	const char *s = p->lx.text;
	char buf[48];

	if (!n)
		return NULL;
	n->any = true;
	n->depth = 1;
	if ((p->flags & EXPR_FILTER) && !strncmp(s + p->lx.pos, ".function", 9) &&
	    !isalnum((unsigned char)s[p->lx.pos + 9]) && s[p->lx.pos + 9] != '_')
		p->lx.pos += 9;
	if (!next(p))
		return NULL;
	if (p->tok.type != T_LBRACK)
		return n;
	if (!next(p) || !(idx = parse_expr(p)) || !need_int(p, idx))
		return NULL;
	if (p->tok.type != T_RBRACK) {
		perr(p, p->tok.pos, "expected ']', found %s", tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	return next(p) ? n : NULL;
}

/* EXPR_SYNTAX in a filter: the kernel's CPUS{0-3,5} (a CPU mask) at the current name. */
static struct node *cpus_mask(struct parser *p, int col)
{
	const char *s = p->lx.text, *close = strchr(s + p->lx.pos, '}');
	struct node *n;

	for (const char *c = s + p->lx.pos + 1; close && c < close; c++)
		if (!isdigit((unsigned char)*c) && *c != ',' && *c != '-') {
			perr(p, (int)(c - s), "bad CPU list in CPUS{...}");
			return NULL;
		}
	if (!close) {
		perr(p, p->lx.pos, "'{' of CPUS{...} without its '}'");
		return NULL;
	}
	n = new_node(p, OP_FIELD, col);
	if (!n)
		return NULL;
	n->any = true;
	n->depth = 1;
	p->lx.pos = (int)(close - s) + 1;
	return next(p) ? n : NULL;
}

/* A variable of the expression: @name assigned before, or being assigned now (@lval). */
static struct node *user_var(struct parser *p, int col, bool lval)
{
	struct expr *e = p->e;
	struct node *n;
	int i;

	for (i = 0; i < e->nr_slots; i++)
		if (e->slots[i].user && e->slots[i].len == p->tok.len &&
		    !strncmp(e->text + e->slots[i].col, e->text + col, p->tok.len))
			break;
	if (i == e->nr_slots && !lval)
		return NULL;
	n = new_node(p, OP_UVAR, col);
	if (!n)
		return NULL;
	n->nlen = p->tok.len;
	n->depth = 1;
	n->slot = slot_of(p, n, true);
	if (!n->slot || !next(p))
		return NULL;
	n->ptr = e->slots[n->slot - 1].ptr;
	n->psize = e->slots[n->slot - 1].psize;
	n->psigned = e->slots[n->slot - 1].psigned;
	n->uns = e->slots[n->slot - 1].uns;
	return n;
}

static struct node *parse_ident(struct parser *p)
{
	int col = p->tok.pos;
	bool want_addr = p->want_addr, lval = p->want_lval;
	const struct func *fn;
	struct token t;
	struct field f;
	struct node *n;
	char name[128];
	enum tok_type nt;

	if (p->tok.len >= (int)sizeof(name)) {
		perr(p, col, "name too long");
		return NULL;
	}
	snprintf(name, sizeof(name), "%.*s", p->tok.len, p->lx.text + col);
	if ((p->flags & (EXPR_SYNTAX | EXPR_FILTER)) == (EXPR_SYNTAX | EXPR_FILTER) &&
	    !strcmp(name, "CPUS") && p->lx.text[p->lx.pos] == '{')
		return cpus_mask(p, col);
	p->want_addr = p->want_lval = false;
	nt = peek(p, &t);
	lval = lval || nt == T_ASSIGN || nt == T_INC || nt == T_DEC;
	if (nt == T_LPAREN) {
		fn = func__find(name, p->tok.len);
		if (!fn) {
			perr(p, col, "unknown function '%s'", name);
			return NULL;
		}
		return parse_call(p, fn, col);
	}
	for (int i = 0; p->vars && i < p->nr_vars; i++) {
		if (strcmp(name, p->vars[i]))
			continue;
		n = new_node(p, OP_VAR, col);
		if (!n || !next(p))
			return NULL;
		n->val = (u64)i;
		n->depth = 1;
		n->nlen = (int)strlen(name);
		return n;
	}
	for (size_t i = 0; i < sizeof(sample_vars) / sizeof(sample_vars[0]); i++) {
		if (strcmp(name, sample_vars[i].name))
			continue;
		n = new_node(p, sample_vars[i].op, col);
		if (!n || !next(p))
			return NULL;
		n->uns = sample_vars[i].uns;
		n->depth = 1;
		n->nlen = (int)strlen(name);
		return n;
	}
	if (!(p->flags & EXPR_SYNTAX) && (!p->ev || evsel__field(p->ev, name, &f)) &&
	    ((n = user_var(p, col, lval)) || p->lx.failed))
		return n;
	if (p->vars) {
		unknown_var(p, name, col);
		return NULL;
	}
	if (!p->ev || evsel__field(p->ev, name, &f)) {
		if (p->flags & EXPR_FILTER) {
			n = filter_name(p, name, col);
			if (n) {
				n->nlen = n->op == OP_CPU ? (int)strlen(name) : 0;
				return next(p) ? n : NULL;
			}
		}
		const char *why = NULL;

		if (p->ev && p->ev->probe) {
			struct field pf;

			probe__field(p->ev, name, &pf, &why);
		}
		if (p->flags & EXPR_SYNTAX)
			return any_name(p, col);
		if (why)
			perr(p, col, "no '%s' here: %s", name, why);
		else
			perr(p, col, "unknown field '%s'", name);
		return NULL;
	}
	if (!next(p))
		return NULL;
	if (p->tok.type == T_LBRACK)
		return parse_index(p, &f, name, col);
	if (f.is_string) {
		n = new_node(p, OP_SFIELD, col);
		if (n)
			n->is_str = true;
	} else if (f.is_array && want_addr) {
		/* &array: its first element's address */
		n = new_node(p, OP_ADDR, col);
		if (n) {
			n->ptr = 1;
			n->psize = (unsigned char)f.elem_size;
			n->psigned = f.is_signed;
			n->uns = true;
		}
	} else if (f.is_array) {
		perr(p, col, "'%s' is an array: give an index, %s[0]", name, name);
		return NULL;
	} else if (f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8) {
		n = new_node(p, OP_FIELD, col);
		if (n) {
			n->uns = f.size == 8 && !f.is_signed;
			n->nlen = (int)strlen(name);
		}
	} else {
		perr(p, col, "'%s' is %u bytes: not a number", name, f.size);
		return NULL;
	}
	if (n) {
		n->f = f;
		n->depth = 1;
	}
	return n;
}

static struct node *parse_primary(struct parser *p);

/* A primary, then its [I], ++ and -- */
static struct node *parse_postfix(struct parser *p)
{
	struct node *n = parse_primary(p);
	int col;

	while (n) {
		col = p->tok.pos;
		if (p->tok.type == T_LBRACK)
			n = subscript(p, n);
		else if (p->tok.type == T_INC)
			n = next(p) ? incdec(p, OP_POSTINC, col, n) : NULL;
		else if (p->tok.type == T_DEC)
			n = next(p) ? incdec(p, OP_POSTDEC, col, n) : NULL;
		else
			break;
	}
	return n;
}

static struct node *parse_primary(struct parser *p)
{
	struct node *n;
	char buf[48];

	if (p->tok.type != T_IDENT)
		p->want_addr = p->want_lval = false;
	switch (p->tok.type) {
	case T_NUM:
		n = new_node(p, OP_INT, p->tok.pos);
		if (!n)
			return NULL;
		n->val = p->tok.num;
		n->uns = p->tok.uns;
		n->depth = 1;
		return next(p) ? n : NULL;
	case T_STR:
		n = new_node(p, OP_STR, p->tok.pos);
		if (!n)
			return NULL;
		n->str = p->tok.str;
		n->len = p->tok.len;
		n->is_str = true;
		n->depth = 1;
		p->tok.str = NULL;
		return next(p) ? n : NULL;
	case T_IDENT:
		return parse_ident(p);
	case T_LPAREN: {
		int col = p->tok.pos;

		if (!next(p) || !(n = parse_expr(p)))
			return NULL;
		if (p->tok.type != T_RPAREN) {
			perr(p, p->tok.pos, "expected ')' to close the '(' at column %d, found %s",
			     col, tok_text(p, buf, sizeof(buf)));
			return NULL;
		}
		return next(p) ? n : NULL;
	}
	default:
		perr(p, p->tok.pos, "expected an operand, found %s", tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
}

/* Every read of an assigned name looks at its slot first. */
static void bind_slots(struct expr *e)
{
	for (struct node *n = e->nodes; n; n = n->next_alloc) {
		if (!n->nlen || n->any || n->slot)
			continue;
		for (int i = 0; i < e->nr_slots; i++)
			if (e->slots[i].len == n->nlen &&
			    !strncmp(e->text + e->slots[i].col, e->text + n->col, n->nlen))
				n->slot = i + 1;
	}
}

static struct expr *compile(const char *text, const struct evsel *ev, unsigned flags,
			    const char *const *vars, int nr_vars, struct expr_error *err)
{
	struct parser p = { .ev = ev, .flags = flags, .vars = vars, .nr_vars = nr_vars };
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
	if (next(&p)) {
		if (p.tok.type == T_EOF)
			perr(&p, 0, "empty expression");
		else
			root = parse_expr(&p);
	}
	if (root && p.tok.type == T_ASSIGN)
		perr(&p, p.tok.pos, "'=' is not an operator: compare with '=='");
	else if (root && p.tok.type == T_RPAREN)
		perr(&p, p.tok.pos, "')' without its '('");
	else if (root && p.tok.type != T_EOF)
		perr(&p, p.tok.pos, "expected an operator, found %s",
		     tok_text(&p, buf, sizeof(buf)));
	else if (root && (flags & EXPR_FILTER) && root->is_str)
		perr(&p, 0, "a filter must be a condition, not a string");
	else if (root && (flags & EXPR_FILTER) && root->op == OP_ASSIGN)
		perr(&p, root->opcol, "'=' assigns: a filter compares with '=='");
	if (root && !p.lx.failed)
		bind_slots(p.e);
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
		free(n->args);
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
