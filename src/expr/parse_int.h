/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the expression parser, shared by parse.c (the grammar),
 * parse_c.c (C's types, pointers, assignments and printf/system calls) and
 * parse_filter.c (the kernel filter syntax): the parser state and helpers.
 */
#ifndef PP_EXPR_PARSE_INT_H
#define PP_EXPR_PARSE_INT_H

#include "expr/expr_int.h"

/* Deeper trees are refused: evaluation recurses once per level. */
#define MAX_DEPTH 128

/* What encloses the expression being parsed: the tokens that may end it. */
enum parse_ctx {
	CTX_TOP,   /* the end */
	CTX_PAREN, /* ')' */
	CTX_INDEX, /* ']' */
	CTX_CALL,  /* ',' or ')' */
	CTX_COND,  /* ':' of '?:' */
};

struct parser {
	struct lexer lx;
	struct token tok; /* the current token */
	const struct evsel *ev;
	struct expr *e;
	unsigned flags;
	int depth;		 /* recursion of the parser itself */
	const char *const *vars; /* bound names (expr__compile_vars), or NULL */
	int nr_vars;
	bool want_addr;	    /* the operand of '&': an array's name is its address */
	bool want_lval;	    /* the operand of prefix ++/--: an unknown name is a variable */
	enum parse_ctx ctx; /* the innermost enclosing construct */
	/*
	 * Tokens read so far, and how many the syntax check's second tries
	 * (a bare word after a failed operand) may take the parse to: each
	 * try parses the rest again, so nested ones would cost 2^depth.
	 */
	long work, work_max;
};

/* parse.c: errors, tokens, nodes and the levels of the grammar */
void px_err(struct parser *p, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool px_next(struct parser *p);
enum tok_type px_peek(struct parser *p, struct token *t);
bool px_word_is(const struct parser *p, const struct token *t, const char *word);
const char *px_tok_text(const struct parser *p, char *buf, size_t len);
struct node *px_node(struct parser *p, enum op op, int col);
bool px_need_int(struct parser *p, const struct node *n);
bool px_is_const(const struct node *n);
void px_fold(struct parser *p, struct node *n);
bool px_check_depth(struct parser *p, struct node *n);
struct node *px_expr(struct parser *p);	  /* with the comma */
struct node *px_assign(struct parser *p); /* without */
/* px_expr inside @ctx (a parenthesis, an index, '?:'); px_assign in a call */
struct node *px_expr_in(struct parser *p, enum parse_ctx ctx);
/* The operator of a binary token and its precedence (*prec 0: none). */
enum op px_binop(enum tok_type t, int *prec);
/* Binary operators of precedence @minprec and above, from the current token. */
struct node *px_binary(struct parser *p, int minprec);
struct node *px_unary(struct parser *p);

/* parse_c.c: C's types and operators on names and pointers */
void px_copy_type(struct node *n, const struct node *from);
bool px_lvalue(struct parser *p, struct node *n, const char *op);
void px_uvar_type(struct parser *p, struct node *var, const struct node *val);
struct node *px_ptr_arith(struct parser *p, enum op op, int opcol, struct node *a, struct node *b);
int px_typedef_of(const struct parser *p, const struct token *t);
int px_keyword_of(const struct parser *p, const struct token *t);
struct node *px_cast(struct parser *p);
struct node *px_addr_of(struct parser *p, struct node *a, int col);
struct node *px_deref(struct parser *p, struct node *a, int col);
struct node *px_incdec(struct parser *p, enum op op, int col, struct node *a);
struct node *px_subscript(struct parser *p, struct node *a);
struct node *px_sizeof(struct parser *p);
struct node *px_vcall(struct parser *p, const struct func *fn, int col);
struct node *px_user_var(struct parser *p, int col, bool lval);
void px_bind_slots(struct expr *e);

/* parse_filter.c: the kernel's filter syntax */
/* In a filter, the right side of ==, != or ~ after @a (a string or any type). */
struct node *px_filter_rhs(struct parser *p, const struct node *a, int prec);
struct node *px_filter_name(struct parser *p, const char *name, int col);
struct node *px_any_name(struct parser *p, int col);
struct node *px_cpus_mask(struct parser *p, int col);

#endif
