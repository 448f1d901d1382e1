// SPDX-License-Identifier: GPL-2.0
/*
 * The expression parser: recursive descent with C's precedence, typing
 * against the event's format as it goes (names become field handles, every
 * operator checks its operands), constant folding, and errors that carry
 * the column of the culprit.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/probe.h"
#include "expr/parse_int.h"

void px_err(struct parser *p, int col, const char *fmt, ...)
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

bool px_next(struct parser *p)
{
	free(p->tok.str);
	p->tok.str = NULL;
	p->work++;
	return lex__next(&p->lx, &p->tok);
}

/* The token after the current one, without consuming it. */
enum tok_type px_peek(struct parser *p, struct token *t)
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

bool px_word_is(const struct parser *p, const struct token *t, const char *word)
{
	return t->type == T_IDENT && (int)strlen(word) == t->len &&
	       !strncmp(p->lx.text + t->pos, word, t->len);
}

/* "'text'" of the current token for messages. */
const char *px_tok_text(const struct parser *p, char *buf, size_t len)
{
	int n = p->tok.end - p->tok.pos;

	if (p->tok.type == T_EOF)
		return "the end";
	if (n > 32)
		n = 32;
	snprintf(buf, len, "'%.*s'", n, p->lx.text + p->tok.pos);
	return buf;
}

struct node *px_node(struct parser *p, enum op op, int col)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n) {
		px_err(p, -1, "out of memory");
		return NULL;
	}
	n->op = op;
	n->col = col;
	n->next_alloc = p->e->nodes;
	p->e->nodes = n;
	return n;
}

static struct node *parse_cond(struct parser *p);
static struct node *parse_postfix(struct parser *p);

bool px_need_int(struct parser *p, const struct node *n)
{
	if (!n->is_str)
		return true;
	px_err(p, n->col, "a string used as a number (strings compare with ==, != and ~)");
	return false;
}

bool px_is_const(const struct node *n)
{
	return n && n->op == OP_INT;
}

/* Replace @n by its value when its operands are constants. */
void px_fold(struct parser *p, struct node *n)
{
	struct expr_ctx ctx = { 0 };
	u64 v;

	if (n->is_str || !px_is_const(n->a) || (n->b && !px_is_const(n->b)) ||
	    (n->c && !px_is_const(n->c)))
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
bool px_check_depth(struct parser *p, struct node *n)
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
		px_err(p, n->col, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return false;
	}
	return true;
}

static struct node *unary(struct parser *p, enum op op, int col, struct node *a)
{
	struct node *n;

	if (!px_need_int(p, a) || !(n = px_node(p, op, col)))
		return NULL;
	n->a = a;
	n->uns = op == OP_NOT ? false : a->uns;
	if (!px_check_depth(p, n))
		return NULL;
	px_fold(p, n);
	return n;
}

enum op px_binop(enum tok_type t, int *prec)
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
			px_err(p, b->col, "comparing a %s with a %s",
			       a->is_str ? "string" : "number", b->is_str ? "string" : "number");
			return NULL;
		}
		if (a->is_str)
			op = op == OP_EQ ? OP_SEQ : OP_SNE;
	} else if (op == OP_GLOB) {
		if (!a->is_str) {
			px_err(p, a->col, "'~' matches a string against a glob: this is a number");
			return NULL;
		}
		if (!b->is_str) {
			px_err(p, b->col, "the glob after '~' must be a string");
			return NULL;
		}
	} else if (a->is_str && b->is_str && op >= OP_LT && op <= OP_GE) {
		px_err(p, opcol, "strings compare with ==, != and ~ only");
		return NULL;
	} else if (!px_need_int(p, a) || !px_need_int(p, b)) {
		return NULL;
	} else if ((op == OP_DIV || op == OP_MOD) && px_is_const(b) && !b->val) {
		px_err(p, b->col, "division by zero");
		return NULL;
	} else if ((op == OP_ADD || op == OP_SUB) && (a->ptr || b->ptr)) {
		return px_ptr_arith(p, op, opcol, a, b);
	}
	n = px_node(p, op, a->col);
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
	if (!px_check_depth(p, n))
		return NULL;
	px_fold(p, n);
	return n;
}

struct node *px_binary(struct parser *p, int minprec)
{
	struct node *a, *b;
	enum op op;
	int prec, opcol;

	if (++p->depth > MAX_DEPTH) {
		px_err(p, p->tok.pos, "expression nested too deeply (%d levels at most)",
		       MAX_DEPTH);
		return NULL;
	}
	a = px_unary(p);
	while (a) {
		op = px_binop(p->tok.type, &prec);
		if (!prec || prec < minprec)
			break;
		opcol = p->tok.pos;
		if ((p->flags & EXPR_FILTER) && (a->is_str || a->any) &&
		    (op == OP_EQ || op == OP_NE || op == OP_GLOB))
			b = px_filter_rhs(p, a, prec);
		else
			b = px_next(p) ? px_binary(p, prec + 1) : NULL;
		if (!b)
			return NULL;
		a = binary(p, op, opcol, a, b);
	}
	p->depth--;
	return a;
}

static struct node *parse_cond(struct parser *p)
{
	struct node *c = px_binary(p, 1), *a, *b, *n;

	if (!c || p->tok.type != T_QUEST)
		return c;
	if (!px_need_int(p, c) || !px_next(p))
		return NULL;
	a = px_expr_in(p, CTX_COND);
	if (!a)
		return NULL;
	if (p->tok.type != T_COLON) {
		char buf[48];

		px_err(p, p->tok.pos, "expected ':' of '?:', found %s",
		       px_tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	if (!px_next(p) || !(b = parse_cond(p)))
		return NULL;
	/* EXPR_SYNTAX: a name of unknown type takes the other side's */
	if (!a->any && !b->any && a->is_str != b->is_str) {
		px_err(p, b->col, "both sides of ':' must be numbers or both strings");
		return NULL;
	}
	n = px_node(p, OP_COND, c->col);
	if (!n)
		return NULL;
	n->a = c;
	n->b = a;
	n->c = b;
	n->is_str = a->any ? b->is_str : a->is_str;
	n->any = a->any && b->any;
	n->uns = a->uns || b->uns;
	if (!px_check_depth(p, n))
		return NULL;
	if (px_is_const(c) && !a->is_str)
		px_fold(p, n);
	return n;
}

/* NAME = VALUE, right to left; C's assignment expression. */
struct node *px_assign(struct parser *p)
{
	struct node *a, *b, *n;
	int opcol;

	if (++p->depth > MAX_DEPTH) {
		px_err(p, p->tok.pos, "expression nested too deeply (%d levels at most)",
		       MAX_DEPTH);
		return NULL;
	}
	a = parse_cond(p);
	if (a && p->tok.type == T_ASSIGN) {
		opcol = p->tok.pos;
		if (!px_lvalue(p, a, "=") || !px_next(p) || !(b = px_assign(p)))
			return NULL;
		if (b->is_str && !b->any) {
			px_err(p, b->col, "a string cannot be assigned: variables hold numbers");
			return NULL;
		}
		if (a->op == OP_UVAR)
			px_uvar_type(p, a, b);
		n = px_node(p, OP_ASSIGN, a->col);
		if (!n)
			return NULL;
		n->a = a;
		n->b = b;
		n->opcol = opcol;
		px_copy_type(n, a);
		if (!px_check_depth(p, n))
			return NULL;
		a = n;
	}
	p->depth--;
	return a;
}

struct node *px_expr_in(struct parser *p, enum parse_ctx ctx)
{
	enum parse_ctx outer = p->ctx;
	struct node *n;

	p->ctx = ctx;
	n = ctx == CTX_CALL ? px_assign(p) : px_expr(p);
	p->ctx = outer;
	return n;
}

/* A, B: both evaluated, B's value; the lowest precedence. */
struct node *px_expr(struct parser *p)
{
	struct node *a, *b, *n;

	if (++p->depth > MAX_DEPTH) {
		px_err(p, p->tok.pos, "expression nested too deeply (%d levels at most)",
		       MAX_DEPTH);
		return NULL;
	}
	a = px_assign(p);
	while (a && p->tok.type == T_COMMA) {
		if (!px_next(p) || !(b = px_assign(p)))
			return NULL;
		n = px_node(p, OP_COMMA, a->col);
		if (!n)
			return NULL;
		n->a = a;
		n->b = b;
		px_copy_type(n, b);
		if (!px_check_depth(p, n))
			return NULL;
		a = n;
	}
	p->depth--;
	return a;
}

struct node *px_unary(struct parser *p)
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
		if (px_peek(p, &t) == T_IDENT &&
		    (px_typedef_of(p, &t) >= 0 || px_keyword_of(p, &t) >= 0))
			return px_cast(p);
		return parse_postfix(p);
	case T_IDENT:
		if (px_word_is(p, &p->tok, "sizeof"))
			return px_sizeof(p);
		return parse_postfix(p);
	default:
		return parse_postfix(p);
	}
	if (++p->depth > MAX_DEPTH) {
		px_err(p, col, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	if (!px_next(p))
		return NULL;
	p->want_addr = op == OP_ADDR;
	p->want_lval = op == OP_PREINC || op == OP_PREDEC;
	a = px_unary(p);
	p->want_addr = p->want_lval = false;
	if (!a)
		return NULL;
	p->depth--;
	if (op == OP_INT)
		return px_need_int(p, a) ? a : NULL;
	if (op == OP_ADDR)
		return px_addr_of(p, a, col);
	if (op == OP_DEREF)
		return px_deref(p, a, col);
	if (op == OP_PREINC || op == OP_PREDEC)
		return px_incdec(p, op, col, a);
	return unary(p, op, col, a);
}

static struct node *parse_call(struct parser *p, const struct func *fn, int col)
{
	int nargs = (int)strlen(fn->args), i = 0;
	struct node *n = px_node(p, fn->op, col), *arg, **slot[3];
	char buf[48];

	if (fn->op == OP_PRINTF || fn->op == OP_SYSTEM)
		return px_vcall(p, fn, col);
	if (!n || !px_next(p) || !px_next(p)) /* the name, '(' */
		return NULL;
	slot[0] = &n->a;
	slot[1] = &n->b;
	slot[2] = &n->c;
	while (p->tok.type != T_RPAREN || i) {
		if (i == nargs) {
			px_err(p, p->tok.pos, "%s() takes %d argument%s", fn->name, nargs,
			       nargs == 1 ? "" : "s");
			return NULL;
		}
		arg = px_expr_in(p, CTX_CALL);
		if (!arg)
			return NULL;
		if (!arg->any && arg->is_str != (fn->args[i] == 's')) {
			px_err(p, arg->col, "argument %d of %s() must be a %s", i + 1, fn->name,
			       fn->args[i] == 's' ? "string" : "number");
			return NULL;
		}
		*slot[i++] = arg;
		if (p->tok.type == T_RPAREN)
			break;
		if (p->tok.type != T_COMMA) {
			px_err(p, p->tok.pos, "expected ',' or ')' in the call of %s(), found %s",
			       fn->name, px_tok_text(p, buf, sizeof(buf)));
			return NULL;
		}
		if (!px_next(p))
			return NULL;
	}
	if (i != nargs) {
		px_err(p, p->tok.pos, "%s() takes %d argument%s", fn->name, nargs,
		       nargs == 1 ? "" : "s");
		return NULL;
	}
	if (!px_next(p))
		return NULL;
	n->is_str = fn->ret_str;
	p->e->uses |= fn->uses;
	if (!px_check_depth(p, n))
		return NULL;
	px_fold(p, n);
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
		px_err(p, p->tok.pos, "'%s' is not an array", name);
		return NULL;
	}
	if (f->elem_size != 1 && f->elem_size != 2 && f->elem_size != 4 && f->elem_size != 8) {
		px_err(p, col, "the elements of '%s' are %u bytes: not numbers", name,
		       f->elem_size);
		return NULL;
	}
	if (!px_next(p))
		return NULL;
	icol = p->tok.pos;
	idx = px_expr_in(p, CTX_INDEX);
	if (!idx || !px_need_int(p, idx))
		return NULL;
	if (p->tok.type != T_RBRACK) {
		px_err(p, p->tok.pos, "expected ']', found %s", px_tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	if (px_is_const(idx) && f->nr_elems && idx->val >= f->nr_elems) {
		px_err(p, icol, "index %lld is outside '%s' (%u elements)", (long long)idx->val,
		       name, f->nr_elems);
		return NULL;
	}
	if (!px_next(p) || !(n = px_node(p, OP_ELEM, col)))
		return NULL;
	n->f = *f;
	n->a = idx;
	n->uns = f->elem_size == 8 && !f->is_signed;
	return px_check_depth(p, n) ? n : NULL;
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
	px_err(p, col, "unknown name '%s' (names: %s)", name, p->nr_vars ? list : "none");
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
		px_err(p, col, "name too long");
		return NULL;
	}
	snprintf(name, sizeof(name), "%.*s", p->tok.len, p->lx.text + col);
	if ((p->flags & (EXPR_SYNTAX | EXPR_FILTER)) == (EXPR_SYNTAX | EXPR_FILTER) &&
	    !strcmp(name, "CPUS") && p->lx.text[p->lx.pos] == '{')
		return px_cpus_mask(p, col);
	p->want_addr = p->want_lval = false;
	nt = px_peek(p, &t);
	lval = lval || nt == T_ASSIGN || nt == T_INC || nt == T_DEC;
	if (nt == T_LPAREN) {
		fn = func__find(name, p->tok.len);
		if (!fn) {
			px_err(p, col, "unknown function '%s'", name);
			return NULL;
		}
		return parse_call(p, fn, col);
	}
	for (int i = 0; p->vars && i < p->nr_vars; i++) {
		if (strcmp(name, p->vars[i]))
			continue;
		n = px_node(p, OP_VAR, col);
		if (!n || !px_next(p))
			return NULL;
		n->val = (u64)i;
		n->depth = 1;
		n->nlen = (int)strlen(name);
		return n;
	}
	if ((p->flags & EXPR_KEY) && !strcmp(name, "key")) {
		n = px_node(p, OP_KEY, col);
		if (!n || !px_next(p))
			return NULL;
		n->is_str = (p->flags & EXPR_KEY_STR) != 0;
		n->depth = 1;
		n->nlen = 3;
		return n;
	}
	for (size_t i = 0; i < sizeof(sample_vars) / sizeof(sample_vars[0]); i++) {
		if (strcmp(name, sample_vars[i].name))
			continue;
		n = px_node(p, sample_vars[i].op, col);
		if (!n || !px_next(p))
			return NULL;
		n->uns = sample_vars[i].uns;
		n->depth = 1;
		n->nlen = (int)strlen(name);
		return n;
	}
	if (!(p->flags & EXPR_SYNTAX) && (!p->ev || evsel__field(p->ev, name, &f)) &&
	    ((n = px_user_var(p, col, lval)) || p->lx.failed))
		return n;
	if (p->vars) {
		unknown_var(p, name, col);
		return NULL;
	}
	if (!p->ev || evsel__field(p->ev, name, &f)) {
		if (p->flags & EXPR_FILTER) {
			n = px_filter_name(p, name, col);
			if (n) {
				n->nlen = n->op == OP_CPU ? (int)strlen(name) : 0;
				return px_next(p) ? n : NULL;
			}
		}
		const char *why = NULL;

		if (p->ev && p->ev->probe) {
			struct field pf;

			probe__field(p->ev, name, &pf, &why);
		}
		if (p->flags & EXPR_SYNTAX)
			return px_any_name(p, col);
		if (why)
			px_err(p, col, "no '%s' here: %s", name, why);
		else
			px_err(p, col, "unknown field '%s'", name);
		return NULL;
	}
	if (!px_next(p))
		return NULL;
	if (p->tok.type == T_LBRACK)
		return parse_index(p, &f, name, col);
	if (f.is_string) {
		n = px_node(p, OP_SFIELD, col);
		if (n)
			n->is_str = true;
	} else if (f.is_array && want_addr) {
		/* &array: its first element's address */
		n = px_node(p, OP_ADDR, col);
		if (n) {
			n->ptr = 1;
			n->psize = (unsigned char)f.elem_size;
			n->psigned = f.is_signed;
			n->uns = true;
		}
	} else if (f.is_array) {
		px_err(p, col, "'%s' is an array: give an index, %s[0]", name, name);
		return NULL;
	} else if (f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8) {
		n = px_node(p, OP_FIELD, col);
		if (n) {
			n->uns = f.size == 8 && !f.is_signed;
			n->nlen = (int)strlen(name);
		}
	} else {
		px_err(p, col, "'%s' is %u bytes: not a number", name, f.size);
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
			n = px_subscript(p, n);
		else if (p->tok.type == T_INC)
			n = px_next(p) ? px_incdec(p, OP_POSTINC, col, n) : NULL;
		else if (p->tok.type == T_DEC)
			n = px_next(p) ? px_incdec(p, OP_POSTDEC, col, n) : NULL;
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
		n = px_node(p, OP_INT, p->tok.pos);
		if (!n)
			return NULL;
		n->val = p->tok.num;
		n->uns = p->tok.uns;
		n->depth = 1;
		return px_next(p) ? n : NULL;
	case T_STR:
		n = px_node(p, OP_STR, p->tok.pos);
		if (!n)
			return NULL;
		n->str = p->tok.str;
		n->len = p->tok.len;
		n->is_str = true;
		n->depth = 1;
		p->tok.str = NULL;
		return px_next(p) ? n : NULL;
	case T_IDENT:
		return parse_ident(p);
	case T_LPAREN: {
		int col = p->tok.pos;

		if (!px_next(p) || !(n = px_expr_in(p, CTX_PAREN)))
			return NULL;
		if (p->tok.type != T_RPAREN) {
			px_err(p, p->tok.pos,
			       "expected ')' to close the '(' at column %d, found %s", col,
			       px_tok_text(p, buf, sizeof(buf)));
			return NULL;
		}
		return px_next(p) ? n : NULL;
	}
	default:
		px_err(p, p->tok.pos, "expected an operand, found %s",
		       px_tok_text(p, buf, sizeof(buf)));
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
	if (px_next(&p)) {
		if (p.tok.type == T_EOF)
			px_err(&p, 0, "empty expression");
		else
			root = px_expr(&p);
	}
	if (root && p.tok.type == T_ASSIGN)
		px_err(&p, p.tok.pos, "'=' is not an operator: compare with '=='");
	else if (root && p.tok.type == T_RPAREN)
		px_err(&p, p.tok.pos, "')' without its '('");
	else if (root && p.tok.type != T_EOF)
		px_err(&p, p.tok.pos, "expected an operator, found %s",
		       px_tok_text(&p, buf, sizeof(buf)));
	else if (root && (flags & EXPR_FILTER) && root->is_str)
		px_err(&p, 0, "a filter must be a condition, not a string");
	else if (root && (flags & EXPR_FILTER) && root->op == OP_ASSIGN)
		px_err(&p, root->opcol, "'=' is not an operator in a filter: compare with '=='");
	if (root && !p.lx.failed)
		px_bind_slots(p.e);
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

bool expr__is_signed(const struct expr *e)
{
	return !e->root->is_str && !e->root->uns;
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
