// SPDX-License-Identifier: GPL-2.0
/*
 * C's side of the expression grammar: cast types and sizeof, pointers (&,
 * *, [] and their arithmetic), names assigned (=, ++, --) and the variables
 * of an expression, printf()/system() calls.  parse.c calls these at each
 * level; the nodes are evaluated by eval.c.
 */
#include <stdlib.h>
#include <string.h>

#include "expr/parse_int.h"

/* @n takes @from's type (a string, signedness, pointer). */
void px_copy_type(struct node *n, const struct node *from)
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
		px_err(p, n->col, "too many names assigned (%d at most)", EXPR_MAX_SLOTS);
		return 0;
	}
	e->slots[e->nr_slots] = (struct slot){ .col = n->col, .len = n->nlen, .user = user };
	return ++e->nr_slots;
}

/*
 * Whether @n can be assigned by @op: a field, a _variable, a bound name or
 * a variable of the expression, each a number.
 */
bool px_lvalue(struct parser *p, struct node *n, const char *op)
{
	if (n->any)
		return true;
	if (n->op == OP_KEY && n->is_str) {
		px_err(p, n->col, "'%s' on key: the key is a string here, only numbers change", op);
		return false;
	}
	switch (n->op) {
	case OP_FIELD:
	case OP_CPU ... OP_VAR:
	case OP_UVAR:
		if (n->nlen && !n->is_str)
			break;
		/* fall through */
	default:
		px_err(p, n->col,
		       "'%s' needs a name: a field, a _variable or a variable of the expression",
		       op);
		return false;
	}
	n->slot = slot_of(p, n, n->op == OP_UVAR);
	return n->slot != 0;
}

/* A variable's type is its first assignment's (a number or a pointer). */
void px_uvar_type(struct parser *p, struct node *var, const struct node *val)
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
struct node *px_ptr_arith(struct parser *p, enum op op, int opcol, struct node *a, struct node *b)
{
	struct node *n;

	if (a->ptr && b->ptr && op == OP_ADD) {
		px_err(p, opcol, "adding two pointers");
		return NULL;
	}
	if (!a->ptr && op == OP_SUB) {
		px_err(p, b->col, "a number minus a pointer");
		return NULL;
	}
	n = px_node(p, a->ptr && b->ptr ? OP_PTRDIFF : OP_PTRADD, a->col);
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
		px_copy_type(n, a);
	} else {
		n->uns = false;
	}
	return px_check_depth(p, n) ? n : NULL;
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

int px_typedef_of(const struct parser *p, const struct token *t)
{
	for (size_t i = 0; i < sizeof(typedefs) / sizeof(typedefs[0]); i++)
		if (px_word_is(p, t, typedefs[i].name))
			return (int)i;
	return -1;
}

int px_keyword_of(const struct parser *p, const struct token *t)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (px_word_is(p, t, keywords[i]))
			return (int)i;
	return -1;
}

/* At the '(' of a cast: the type up to ')' into @n; the token after ')' is current. */
static bool parse_type(struct parser *p, struct node *n)
{
	int cnt[6] = { 0 }, k, col = p->tok.pos, td;
	char buf[48];

	if (!px_next(p))
		return false;
	td = px_typedef_of(p, &p->tok);
	if (td >= 0) {
		n->cast_size = typedefs[td].size;
		n->cast_signed = typedefs[td].is_signed;
		if (!px_next(p))
			return false;
	} else {
		while ((k = px_keyword_of(p, &p->tok)) >= 0) {
			cnt[k]++;
			if (!px_next(p))
				return false;
		}
		/* unsigned signed char short int long */
		if ((cnt[0] && cnt[1]) || cnt[0] > 1 || cnt[1] > 1 || cnt[2] > 1 || cnt[3] > 1 ||
		    cnt[4] > 1 || cnt[5] > 2 || (cnt[2] && (cnt[3] || cnt[4] || cnt[5])) ||
		    (cnt[3] && cnt[5])) {
			px_err(p, col, "bad cast: not a C integer type");
			return false;
		}
		if (p->tok.type == T_IDENT) {
			px_err(p, p->tok.pos, "bad cast: %s is not an integer type",
			       px_tok_text(p, buf, sizeof(buf)));
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
			px_err(p, p->tok.pos, "bad cast: too many '*'");
			return false;
		}
		if (!px_next(p))
			return false;
	}
	if (n->ptr)
		n->cast_size = 8, n->cast_signed = false;
	if (p->tok.type != T_RPAREN) {
		px_err(p, p->tok.pos, "bad cast: expected ')' after the type, found %s",
		       px_tok_text(p, buf, sizeof(buf)));
		return false;
	}
	return px_next(p);
}

struct node *px_cast(struct parser *p)
{
	struct node *n = px_node(p, OP_CAST, p->tok.pos), *a;

	if (!n)
		return NULL;
	/* counted like the unary operators: a folded cast is one level deep */
	if (++p->depth > MAX_DEPTH) {
		px_err(p, n->col, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	if (!parse_type(p, n))
		return NULL;
	a = px_unary(p);
	if (!a)
		return NULL;
	p->depth--;
	if (a->is_str && n->ptr && !a->any) {
		/* (char *)comm: the string's bytes */
		struct node *sp = px_node(p, OP_STR2PTR, a->col);

		if (!sp)
			return NULL;
		sp->a = a;
		if (!px_check_depth(p, sp))
			return NULL;
		a = sp;
	} else if (a->is_str && !a->any) {
		px_err(p, n->col, "bad cast: a string cannot be cast to a number");
		return NULL;
	}
	n->a = a;
	n->uns = n->cast_size == 8 && !n->cast_signed;
	if (!px_check_depth(p, n))
		return NULL;
	px_fold(p, n);
	return n;
}

/* A string's bytes as a char pointer. */
static struct node *str_ptr(struct parser *p, struct node *a)
{
	struct node *n = px_node(p, OP_STR2PTR, a->col);

	if (!n)
		return NULL;
	n->a = a;
	n->ptr = 1;
	n->psize = 1;
	n->psigned = true; /* char */
	n->uns = true;
	return px_check_depth(p, n) ? n : NULL;
}

/* &NAME, &ARRAY, &ARRAY[I], &*P: an address inside the record. */
struct node *px_addr_of(struct parser *p, struct node *a, int col)
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
		px_err(p, col,
		       "'&' needs a field of the event: the address of what the record holds");
		return NULL;
	}
	n = px_node(p, OP_ADDR, col);
	if (!n)
		return NULL;
	n->f = a->f;
	n->a = a->op == OP_ELEM ? a->a : NULL;
	n->ptr = 1;
	n->psize = (unsigned char)(a->op == OP_ELEM ? a->f.elem_size : a->f.size);
	n->psigned = a->f.is_signed;
	n->uns = true;
	return px_check_depth(p, n) ? n : NULL;
}

/* *P: what P points to, read inside the record or a string (else a fault, 0). */
struct node *px_deref(struct parser *p, struct node *a, int col)
{
	struct node *n;

	if (a->any)
		return a;
	if (a->is_str && !(a = str_ptr(p, a)))
		return NULL;
	if (!a->ptr) {
		px_err(p, col, "'*' needs a pointer: a cast gives one, *(u32 *)&field");
		return NULL;
	}
	n = px_node(p, OP_DEREF, col);
	if (!n)
		return NULL;
	n->a = a;
	n->ptr = a->ptr - 1;
	n->psize = a->psize;
	n->psigned = a->psigned;
	n->cast_size = n->ptr ? 8 : a->psize;
	n->cast_signed = n->ptr ? false : a->psigned;
	n->uns = n->ptr || (n->cast_size == 8 && !n->cast_signed);
	return px_check_depth(p, n) ? n : NULL;
}

/* ++X, --X, X++, X-- */
struct node *px_incdec(struct parser *p, enum op op, int col, struct node *a)
{
	struct node *n;

	if (!px_lvalue(p, a, op == OP_PREINC || op == OP_POSTINC ? "++" : "--"))
		return NULL;
	n = px_node(p, op, col);
	if (!n)
		return NULL;
	n->a = a;
	px_copy_type(n, a);
	n->cast_size = ptr_scale(a);
	return px_check_depth(p, n) ? n : NULL;
}

/* X[I] of a pointer or a string: *(X + I). */
struct node *px_subscript(struct parser *p, struct node *a)
{
	struct node *idx, *sum;
	char buf[48];
	int col = p->tok.pos;

	if (!a->any && !a->is_str && !a->ptr) {
		px_err(p, col, "'[' needs an array, a pointer or a string");
		return NULL;
	}
	if (!px_next(p) || !(idx = px_expr_in(p, CTX_INDEX)) || !px_need_int(p, idx))
		return NULL;
	if (p->tok.type != T_RBRACK) {
		px_err(p, p->tok.pos, "expected ']', found %s", px_tok_text(p, buf, sizeof(buf)));
		return NULL;
	}
	if (!px_next(p))
		return NULL;
	if (a->any)
		return a;
	if (a->is_str && !(a = str_ptr(p, a)))
		return NULL;
	if (idx->ptr) {
		px_err(p, idx->col, "a pointer as an index");
		return NULL;
	}
	sum = px_ptr_arith(p, OP_ADD, col, a, idx);
	return sum ? px_deref(p, sum, a->col) : NULL;
}

/* sizeof(TYPE), sizeof EXPR: C's sizes on x86_64 (a pointer, a long: 8). */
struct node *px_sizeof(struct parser *p)
{
	struct node *n = px_node(p, OP_INT, p->tok.pos), *a;
	struct token t;

	if (!n || !px_next(p))
		return NULL;
	n->depth = 1;
	if (p->tok.type == T_LPAREN && px_peek(p, &t) == T_IDENT &&
	    (px_typedef_of(p, &t) >= 0 || px_keyword_of(p, &t) >= 0)) {
		struct node ty = { 0 };

		if (!parse_type(p, &ty))
			return NULL;
		n->val = ty.ptr ? 8 : ty.cast_size ? ty.cast_size : 1;
		return n;
	}
	/* an expression: not evaluated, its type's size */
	a = px_unary(p);
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

/* printf(FMT, ...), system(FMT, ...): a literal format and up to 6 values. */
struct node *px_vcall(struct parser *p, const struct func *fn, int col)
{
	struct node *n = px_node(p, fn->op, col), *arg;
	char buf[48], msg[120];
	int fcol = 0, depth = 0;

	if (!n || !px_next(p) || !px_next(p)) /* the name, '(' */
		return NULL;
	n->args = calloc(7, sizeof(*n->args));
	if (!n->args) {
		px_err(p, -1, "out of memory");
		return NULL;
	}
	while (p->tok.type != T_RPAREN || n->nargs) {
		if (n->nargs == 7) {
			px_err(p, p->tok.pos, "%s() takes a format and 6 values at most", fn->name);
			return NULL;
		}
		arg = px_expr_in(p, CTX_CALL);
		if (!arg)
			return NULL;
		if (!n->nargs && arg->op != OP_STR && !arg->any) {
			px_err(p, arg->col, "the format of %s() must be a string in double quotes",
			       fn->name);
			return NULL;
		}
		if (arg->depth > depth)
			depth = arg->depth;
		n->args[n->nargs++] = arg;
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
	if (!n->nargs) {
		px_err(p, p->tok.pos, "%s() needs a format", fn->name);
		return NULL;
	}
	if (!n->args[0]->any && fmt__check(n->args[0]->str, n->args[0]->len, n->args + 1,
					   n->nargs - 1, msg, sizeof(msg), &fcol)) {
		/* the column of the conversion inside the literal: after its quote */
		px_err(p, n->args[0]->col + 1 + fcol, "%s(): %s", fn->name, msg);
		return NULL;
	}
	if (!px_next(p))
		return NULL;
	n->depth = depth + 1;
	if (n->depth > MAX_DEPTH) {
		px_err(p, col, "expression nested too deeply (%d levels at most)", MAX_DEPTH);
		return NULL;
	}
	p->e->uses |= fn->uses;
	return n;
}

/* A variable of the expression: @name assigned before, or being assigned now (@lval). */
struct node *px_user_var(struct parser *p, int col, bool lval)
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
	n = px_node(p, OP_UVAR, col);
	if (!n)
		return NULL;
	n->nlen = p->tok.len;
	n->depth = 1;
	n->slot = slot_of(p, n, true);
	if (!n->slot || !px_next(p))
		return NULL;
	n->ptr = e->slots[n->slot - 1].ptr;
	n->psize = e->slots[n->slot - 1].psize;
	n->psigned = e->slots[n->slot - 1].psigned;
	n->uns = e->slots[n->slot - 1].uns;
	return n;
}

/* Every read of an assigned name looks at its slot first. */
void px_bind_slots(struct expr *e)
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
