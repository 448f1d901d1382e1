/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of the expression module: tokens, the compiled tree, functions. */
#ifndef PP_EXPR_INT_H
#define PP_EXPR_INT_H

#include "engine/session.h"
#include "expr/expr.h"

enum tok_type {
	T_EOF,
	T_NUM,
	T_STR,
	T_IDENT,
	T_PLUS,
	T_MINUS,
	T_STAR,
	T_SLASH,
	T_PCT,
	T_SHL,
	T_SHR,
	T_AMP,
	T_PIPE,
	T_CARET,
	T_TILDE,
	T_BANG,
	T_ANDAND,
	T_OROR,
	T_QUEST,
	T_COLON,
	T_EQ,
	T_NE,
	T_LT,
	T_LE,
	T_GT,
	T_GE,
	T_LPAREN,
	T_RPAREN,
	T_LBRACK,
	T_RBRACK,
	T_COMMA,
	T_ASSIGN, /* a lone '=': refused with a hint */
};

struct token {
	enum tok_type type;
	int pos, end; /* byte columns [pos, end) in the text */
	u64 num;      /* T_NUM */
	bool uns;     /* T_NUM: above INT64_MAX or a U suffix */
	char *str;    /* T_STR: malloc'd, unescaped (owned by the lexer until taken) */
	int len;
};

struct lexer {
	const char *text;
	int pos;
	struct expr_error *err; /* set on the first error */
	bool failed;
};

/* The next token; false with lx->err set on a lexical error. */
bool lex__next(struct lexer *lx, struct token *t);
/*
 * A kernel-filter string from the current position: a bare word (up to a
 * blank, ')', '&' or '|') or one in single or double quotes, without
 * escapes (as the kernel reads them).
 */
bool lex__bareword(struct lexer *lx, struct token *t);
void lex__error(struct lexer *lx, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

enum op {
	/* leaves */
	OP_INT,	   /* constant */
	OP_STR,	   /* constant string */
	OP_FIELD,  /* scalar integer field */
	OP_SFIELD, /* string field (char[], __data_loc char[]) */
	OP_ELEM,   /* array element: a = index */
	OP_CPU,
	OP_PID,
	OP_TID,
	OP_TIME,
	OP_PERIOD,
	OP_VAR, /* a bound name (expr__compile_vars): ctx->vars[val] */
	/* unary: a */
	OP_NEG,
	OP_NOT,
	OP_BNOT,
	OP_CAST, /* size, is_signed in the node */
	/* binary: a, b */
	OP_MUL,
	OP_DIV,
	OP_MOD,
	OP_ADD,
	OP_SUB,
	OP_SHL,
	OP_SHR,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_EQ,
	OP_NE,
	OP_SEQ, /* strings */
	OP_SNE,
	OP_GLOB,
	OP_BAND,
	OP_BXOR,
	OP_BOR,
	OP_LAND,
	OP_LOR,
	/* a ? b : c, integers or strings */
	OP_COND,
	/* functions */
	OP_KSYM,
	OP_SYSCALL,
	OP_COMM,
	OP_NTOHS,
	OP_NTOHL,
	OP_STRNCMP, /* a, b, c */
};

struct node {
	enum op op;
	bool is_str;
	bool uns; /* integer: unsigned 64-bit */
	bool any; /* EXPR_SYNTAX: a name not looked up, of any type (never evaluated) */
	unsigned char cast_size;
	bool cast_signed;
	int col;	/* where its text starts */
	int depth;	/* of the tree below */
	struct field f; /* OP_FIELD, OP_SFIELD, OP_ELEM */
	u64 val;	/* OP_INT */
	char *str;	/* OP_STR (owned) */
	int len;
	struct node *a, *b, *c;
	struct node *next_alloc; /* every node of an expression, for freeing */
	char buf[24]; /* a function's result text (syscall_name of an unknown nr, comm_get) */
};

struct expr {
	struct node *root;
	struct node *nodes;
	char *text;
	unsigned uses;
	struct expr_faults faults;
};

u64 eval__int(struct expr *e, struct node *n, const struct expr_ctx *c);
const char *eval__str(struct expr *e, struct node *n, const struct expr_ctx *c, int *len);

/* Functions: name, arity, argument kinds ("i" int, "s" string) and result. */
struct func {
	const char *name;
	enum op op;
	const char *args;
	bool ret_str;
	unsigned uses; /* EXPR_USES_* */
};
const struct func *func__find(const char *name, int len);

#endif
