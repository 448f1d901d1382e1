/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of the expression module: tokens, the compiled tree, functions. */
#ifndef PP_EXPR_INT_H
#define PP_EXPR_INT_H

#include <stdio.h>

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
	T_ASSIGN, /* a lone '=' */
	T_INC,	  /* ++ */
	T_DEC,	  /* -- */
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
	OP_KEY, /* EXPR_KEY: ctx->key */
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
	OP_STRNCMP,    /* a, b, c */
	OP_EXITREASON, /* exit_reason_str(a = isa, b = reason): a string */
	OP_PRINTF,     /* args[0] the format (a literal), args[1..] its values */
	OP_SYSTEM,     /* the same, the text run by /bin/sh */
	/* C's operators with side effects or addresses (never folded) */
	OP_UVAR,    /* a variable of the expression: slots[slot - 1] */
	OP_ADDR,    /* &field, &array (its first element), &array[a] */
	OP_STR2PTR, /* a string as a char pointer (its bytes become readable) */
	OP_DEREF,   /* *a: a pointer, read inside the record or a string */
	OP_PTRADD,  /* a + b * scale (scale: the size pointed to) */
	OP_PTRDIFF, /* (a - b) / scale */
	OP_ASSIGN,  /* a = b, a a name */
	OP_PREINC,
	OP_PREDEC,
	OP_POSTINC,
	OP_POSTDEC,
	OP_COMMA, /* a, b: b's value */
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
	/* pointers: ptr levels of *, pointing (at the last level) to psize bytes */
	unsigned char ptr, psize;
	bool psigned;
	int slot;	    /* a name's slot + 1 when it is ever assigned (0: none) */
	int nlen;	    /* a name's length at col (OP_FIELD, OP_CPU..., OP_VAR, OP_UVAR) */
	int opcol;	    /* OP_ASSIGN: the column of its '=' */
	struct node **args; /* OP_PRINTF, OP_SYSTEM: nargs values, args[0] the format */
	int nargs;
};

/* A name assigned in the expression: a variable of its own, or a field's new value. */
#define EXPR_MAX_SLOTS 32
struct slot {
	int col, len; /* the name in the text */
	bool user;    /* a variable of the expression (kept from one evaluation to the next) */
	u64 val;
	u64 gen; /* a field's: the evaluation that assigned it (else it reads the record) */
	unsigned char ptr, psize; /* a variable's type, from its first assignment */
	bool psigned, uns, typed;
};

/* Memory * and [] may read besides the record: strings made readable this evaluation. */
#define EXPR_MAX_REGIONS 8
struct region {
	const char *p;
	u64 len; /* the byte at p[len] reads as NUL */
};

struct expr {
	struct node *root;
	struct node *nodes;
	char *text;
	unsigned uses;
	struct expr_faults faults;
	struct slot slots[EXPR_MAX_SLOTS];
	int nr_slots;
	u64 gen; /* evaluations so far */
	struct region regions[EXPR_MAX_REGIONS];
	int nr_regions;
	FILE *out; /* printf()'s stream of this evaluation */
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
/* Every function, in the order help lists them (NULL-terminated by name). */
const struct func *func__at(int i);
/* Its prototype for help: "char *ksymbol(long addr)". */
const char *func__proto(const struct func *fn);

/*
 * printf()/system(): check @fmt against the @nargs values of @args
 * (conversions d i u x X o c s p %, flags, width, precision and C's
 * length modifiers; no '*', no floating point): 0, or -1 with @err/@col set.
 */
int fmt__check(const char *fmt, int len, struct node *const *args, int nargs, char *err,
	       size_t errlen, int *col);
/* printf(): the text to the evaluation's stream; the bytes written (-1: none, a fault). */
long fmt__print(struct expr *e, struct node *n, const struct expr_ctx *c);
/* system(): the command run; its status as C's system() gives it (-1: not run). */
u64 fmt__system(struct expr *e, struct node *n, const struct expr_ctx *c);
/* The pointer @addr of a readable region (the record, or a string): its bytes and how many. */
const char *eval__span(struct expr *e, const struct expr_ctx *c, u64 addr, u64 *avail);
/* exit_reason_str(): the name of VM exit @reason of @isa (1 VMX, 2 SVM), or "VMX_0x..". */
const char *expr__exit_reason(u64 isa, u64 reason, char *buf, size_t len);

#endif
