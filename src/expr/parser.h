/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the parser shared by parse.c (the language) and check.c (the
 * kernel's filter syntax inside it, and the syntax-only check).
 */
#ifndef PP_EXPR_PARSER_H
#define PP_EXPR_PARSER_H

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
	enum parse_ctx ctx; /* the innermost enclosing construct */
	/*
	 * Tokens read so far, and how many the syntax check's second tries
	 * (a bare word after a failed operand) may take the parse to: each
	 * try parses the rest again, so nested ones would cost 2^depth.
	 */
	long work, work_max;
};

void parse__error(struct parser *p, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The next token into p->tok; false on a lexical error. */
bool parse__next(struct parser *p);
/* "'text'" of the current token (or "the end") for messages. */
const char *parse__tok_text(const struct parser *p, char *buf, size_t len);
struct node *parse__node(struct parser *p, enum op op, int col);
bool parse__need_int(struct parser *p, const struct node *n);
struct node *parse__expr(struct parser *p);
/* parse__expr inside @ctx (a parenthesis, an index, a call, '?:') */
struct node *parse__expr_in(struct parser *p, enum parse_ctx ctx);
/* The operator of a binary token and its precedence (*prec 0: none). */
enum op parse__binop(enum tok_type t, int *prec);
/* Binary operators of precedence @minprec and above, from the current token. */
struct node *parse__binary(struct parser *p, int minprec);

/* check.c: the kernel's filter syntax */

/*
 * In a filter, at ==, != or ~ after @a (a string, or in EXPR_SYNTAX a name
 * of unknown type): the right side, an operand of the language or the
 * kernel's bare word.  @prec is the operator's.
 */
struct node *check__filter_rhs(struct parser *p, const struct node *a, int prec);
/* The kernel's names beyond the format's fields (CPU, COMM...) or NULL. */
struct node *check__filter_name(struct parser *p, const char *name, int col);
/* EXPR_SYNTAX: the current name, not looked up, as a value of any type. */
struct node *check__any_name(struct parser *p, int col);
/* EXPR_SYNTAX in a filter: the kernel's CPUS{LIST} at the current name. */
struct node *check__cpus(struct parser *p, int col);

#endif
