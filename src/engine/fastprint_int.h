/* SPDX-License-Identifier: GPL-2.0 */
/* The compiled form of a print format, shared by fastprint.c (building) and fastprint_out.c. */
#ifndef PP_FASTPRINT_INT_H
#define PP_FASTPRINT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/fastprint.h"

enum num_kind { NUM_CONST, NUM_FIELD, NUM_BIN, NUM_NOT, NUM_INV, NUM_NEG, NUM_TERN, NUM_CAST };

enum num_op {
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
	OP_SHL,
	OP_SHR,
	OP_AND,
	OP_OR,
	OP_LAND,
	OP_LOR,
	OP_EQ,
	OP_NE,
	OP_LT,
	OP_GT,
	OP_LE,
	OP_GE,
};

struct num {
	enum num_kind kind;
	enum num_op op;
	int offset, size; /* field bytes, or the width a cast truncates to */
	uint64_t val;
	struct num *a, *b, *c;
};

struct sym {
	uint64_t val;
	const char *str;
	int len;
};

enum str_kind { STR_LIT, STR_ARRAY, STR_DYN, STR_FLAGS, STR_SYMS, STR_TERN };

struct str {
	enum str_kind kind;
	const char *lit;
	int len;
	int offset, size; /* STR_ARRAY: the array; STR_DYN: the __data_loc word */
	bool rel;	  /* __rel_loc: offset counts from the end of the word */
	struct num *val;
	struct sym *syms;
	int nsyms;
	const char *delim;
	int dlen;
	struct str *a, *b;
};

enum conv { CV_END, CV_INT, CV_PRINTF, CV_STR, CV_PTR };

struct seg {
	char *lit; /* literal text before the conversion, escapes resolved */
	int litlen;
	enum conv conv;
	/* CV_INT: hand-formatted integer */
	int base, lmod, width;
	bool sgn, upper, zero, left;
	/* CV_PRINTF: the conversion as written, given an int or a long long */
	char spec[32];
	bool wide;
	struct num *num;
	struct str *str;
};

struct fastprint {
	struct seg *segs;
	int nsegs;
	void **allocs; /* every node, freed together */
	int nallocs, cap;
	struct tep_event *ev;
};

#endif
