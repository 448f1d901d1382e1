// SPDX-License-Identifier: GPL-2.0
/*
 * Compiled tracepoint printing.  libtraceevent's tep_print_event walks the
 * print format and its argument tree on every record, re-parsing numeric
 * atoms with strtoull and formatting through vsnprintf; at hundreds of
 * thousands of events per second that is most of a trace run's CPU.  Here
 * the walk happens once: the format becomes literal segments and
 * conversions over small expression trees whose constants are already
 * numbers, and plain integer conversions are formatted by hand.
 *
 * Exactness matters more than coverage: every construct accepted here was
 * checked against tep_print_event on random records of every tracepoint
 * on the host (tests/unit/test_fastprint.c); anything else is refused and
 * the caller keeps using libtraceevent.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

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

static void *fp_alloc(struct fastprint *fp, size_t size)
{
	void *p;

	if (fp->nallocs == fp->cap) {
		int cap = fp->cap ? fp->cap * 2 : 32;
		void **n = realloc(fp->allocs, cap * sizeof(*n));

		if (!n)
			return NULL;
		fp->allocs = n;
		fp->cap = cap;
	}
	p = calloc(1, size);
	if (p)
		fp->allocs[fp->nallocs++] = p;
	return p;
}

/*
 * Numbers as libtraceevent reads them out of atoms: strtoull with base
 * detection.  A C suffix (1UL) is tolerated in expressions, where it
 * reads as the number; flag tables read "0u" as something else, so there
 * it is refused like anything else that is not a plain number.
 */
static int parse_number(const char *s, uint64_t *v, bool neg)
{
	char *end;

	if (!s || !*s || (*s == '-' && !neg))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (end == s || errno)
		return -1;
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	return *end ? -1 : 0;
}

/* Casts only truncate in libtraceevent: the size is all that matters. */
struct ctype {
	const char *name;
	int size;
};

static const struct ctype ctypes[] = {
	{ "char", 1 },
	{ "unsigned char", 1 },
	{ "u8", 1 },
	{ "__u8", 1 },
	{ "uint8_t", 1 },
	{ "signed char", 1 },
	{ "s8", 1 },
	{ "__s8", 1 },
	{ "int8_t", 1 },
	{ "short", 2 },
	{ "short int", 2 },
	{ "s16", 2 },
	{ "__s16", 2 },
	{ "int16_t", 2 },
	{ "unsigned short", 2 },
	{ "u16", 2 },
	{ "__u16", 2 },
	{ "uint16_t", 2 },
	{ "int", 4 },
	{ "signed int", 4 },
	{ "s32", 4 },
	{ "__s32", 4 },
	{ "int32_t", 4 },
	{ "unsigned int", 4 },
	{ "unsigned", 4 },
	{ "uint", 4 },
	{ "u32", 4 },
	{ "__u32", 4 },
	{ "uint32_t", 4 },
	{ "long", 8 },
	{ "long int", 8 },
	{ "long long", 8 },
	{ "s64", 8 },
	{ "__s64", 8 },
	{ "int64_t", 8 },
	{ "unsigned long", 8 },
	{ "unsigned long int", 8 },
	{ "unsigned long long", 8 },
	{ "u64", 8 },
	{ "__u64", 8 },
	{ "uint64_t", 8 },
	{ "size_t", 8 },
};

static const struct ctype ptr_type = { "*", 8 };

/* Type names with their spacing normalised: "( unsigned  long)" -> "unsigned long". */
static const struct ctype *ctype_of(const char *type)
{
	char norm[64];
	int n = 0;
	size_t i;

	for (; *type; type++) {
		if (*type == '*')
			return &ptr_type;
		if (*type == ' ' || *type == '\t') {
			if (n && norm[n - 1] != ' ')
				norm[n++] = ' ';
		} else {
			norm[n++] = *type;
		}
		if (n >= (int)sizeof(norm) - 1)
			return NULL;
	}
	if (n && norm[n - 1] == ' ')
		n--;
	norm[n] = 0;
	for (i = 0; i < sizeof(ctypes) / sizeof(ctypes[0]); i++)
		if (!strcmp(norm, ctypes[i].name))
			return &ctypes[i];
	return NULL;
}

static const struct {
	const char *s;
	enum num_op op;
} binops[] = {
	{ "+", OP_ADD },  { "-", OP_SUB },  { "*", OP_MUL }, { "/", OP_DIV }, { "%", OP_MOD },
	{ "<<", OP_SHL }, { ">>", OP_SHR }, { "&", OP_AND }, { "|", OP_OR },  { "&&", OP_LAND },
	{ "||", OP_LOR }, { "==", OP_EQ },  { "!=", OP_NE }, { "<", OP_LT },  { ">", OP_GT },
	{ "<=", OP_LE },  { ">=", OP_GE },
};

static struct tep_format_field *field_of(struct fastprint *fp, struct tep_format_field *f,
					 const char *name)
{
	if (f)
		return f;
	return name ? tep_find_any_field(fp->ev, name) : NULL;
}

static struct num *compile_num(struct fastprint *fp, struct tep_print_arg *arg)
{
	struct tep_format_field *f;
	const struct ctype *ct;
	struct num *n;
	size_t i;

	if (!arg)
		return NULL;
	n = fp_alloc(fp, sizeof(*n));
	if (!n)
		return NULL;
	switch (arg->type) {
	case TEP_PRINT_ATOM:
		n->kind = NUM_CONST;
		return parse_number(arg->atom.atom, &n->val, false) ? NULL : n;
	case TEP_PRINT_FIELD:
		f = field_of(fp, arg->field.field, arg->field.name);
		if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
			return NULL;
		if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
			return NULL;
		n->kind = NUM_FIELD;
		n->offset = f->offset;
		n->size = f->size;
		return n;
	case TEP_PRINT_TYPE:
		ct = ctype_of(arg->typecast.type);
		if (!ct)
			return NULL;
		n->kind = NUM_CAST;
		n->size = ct->size;
		n->a = compile_num(fp, arg->typecast.item);
		return n->a ? n : NULL;
	case TEP_PRINT_OP:
		if (!arg->op.op)
			return NULL;
		if (!strcmp(arg->op.op, "?")) {
			struct tep_print_arg *r = arg->op.right;

			if (!r || r->type != TEP_PRINT_OP || !r->op.op || strcmp(r->op.op, ":"))
				return NULL;
			n->kind = NUM_TERN;
			n->a = compile_num(fp, arg->op.left);
			n->b = compile_num(fp, r->op.left);
			n->c = compile_num(fp, r->op.right);
			return n->a && n->b && n->c ? n : NULL;
		}
		/* unary operators come with an empty left operand */
		if (!arg->op.left || arg->op.left->type == TEP_PRINT_NULL) {
			if (!strcmp(arg->op.op, "!"))
				n->kind = NUM_NOT;
			else if (!strcmp(arg->op.op, "~"))
				n->kind = NUM_INV;
			else if (!strcmp(arg->op.op, "-"))
				n->kind = NUM_NEG;
			else
				return NULL;
			n->a = compile_num(fp, arg->op.right);
			return n->a ? n : NULL;
		}
		if (!strcmp(arg->op.op, "[")) {
			uint64_t idx;

			/* REC->args[2]: a constant index into a fixed array becomes a field */
			if (!arg->op.left || arg->op.left->type != TEP_PRINT_FIELD ||
			    !arg->op.right || arg->op.right->type != TEP_PRINT_ATOM ||
			    parse_number(arg->op.right->atom.atom, &idx, false))
				return NULL;
			f = field_of(fp, arg->op.left->field.field, arg->op.left->field.name);
			if (!f || (f->flags & TEP_FIELD_IS_DYNAMIC) ||
			    !(f->flags & TEP_FIELD_IS_ARRAY))
				return NULL;
			if (f->elementsize != 1 && f->elementsize != 2 && f->elementsize != 4 &&
			    f->elementsize != 8)
				return NULL;
			if (idx >= f->arraylen || (idx + 1) * f->elementsize > (uint64_t)f->size)
				return NULL;
			n->kind = NUM_FIELD;
			n->offset = f->offset + (int)idx * f->elementsize;
			n->size = f->elementsize;
			return n;
		}
		for (i = 0; i < sizeof(binops) / sizeof(binops[0]); i++)
			if (!strcmp(arg->op.op, binops[i].s))
				break;
		if (i == sizeof(binops) / sizeof(binops[0]))
			return NULL;
		n->kind = NUM_BIN;
		n->op = binops[i].op;
		n->a = compile_num(fp, arg->op.left);
		n->b = compile_num(fp, arg->op.right);
		return n->a && n->b ? n : NULL;
	default:
		return NULL;
	}
}

static int compile_syms(struct fastprint *fp, struct str *s, struct tep_print_flag_sym *list,
			bool neg)
{
	struct tep_print_flag_sym *f;
	int i = 0;

	for (f = list; f; f = f->next)
		s->nsyms++;
	s->syms = fp_alloc(fp, (s->nsyms + 1) * sizeof(*s->syms));
	if (!s->syms)
		return -1;
	for (f = list; f; f = f->next, i++) {
		/*
		 * libtraceevent compares table values as signed numbers: a
		 * negative one (bit 63) matches only a zero value, quirks not
		 * worth copying.
		 */
		if (!f->str || parse_number(f->value, &s->syms[i].val, neg) ||
		    (!neg && (int64_t)s->syms[i].val < 0))
			return -1;
		s->syms[i].str = f->str;
		s->syms[i].len = strlen(f->str);
	}
	return 0;
}

static struct str *compile_str(struct fastprint *fp, struct tep_print_arg *arg)
{
	struct tep_format_field *f;
	struct str *s;

	if (!arg)
		return NULL;
	s = fp_alloc(fp, sizeof(*s));
	if (!s)
		return NULL;
	switch (arg->type) {
	case TEP_PRINT_ATOM:
		if (!arg->atom.atom)
			return NULL;
		s->kind = STR_LIT;
		s->lit = arg->atom.atom;
		s->len = strlen(s->lit);
		return s;
	case TEP_PRINT_FIELD:
		f = field_of(fp, arg->field.field, arg->field.name);
		break;
	case TEP_PRINT_STRING:
		f = field_of(fp, arg->string.field, arg->string.string);
		if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC))
			return NULL;
		break;
	case TEP_PRINT_FLAGS:
		s->kind = STR_FLAGS;
		s->val = compile_num(fp, arg->flags.field);
		if (!s->val || !arg->flags.delim || compile_syms(fp, s, arg->flags.flags, false))
			return NULL;
		s->delim = arg->flags.delim;
		s->dlen = strlen(s->delim);
		return s;
	case TEP_PRINT_SYMBOL:
		s->kind = STR_SYMS;
		s->val = compile_num(fp, arg->symbol.field);
		if (!s->val || compile_syms(fp, s, arg->symbol.symbols, true))
			return NULL;
		return s;
	case TEP_PRINT_OP: {
		struct tep_print_arg *r = arg->op.right;

		if (!arg->op.op || strcmp(arg->op.op, "?") || !r || r->type != TEP_PRINT_OP ||
		    !r->op.op || strcmp(r->op.op, ":"))
			return NULL;
		s->kind = STR_TERN;
		s->val = compile_num(fp, arg->op.left);
		s->a = compile_str(fp, r->op.left);
		s->b = compile_str(fp, r->op.right);
		return s->val && s->a && s->b ? s : NULL;
	}
	default:
		return NULL;
	}
	if (!f)
		return NULL;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (f->size != 4)
			return NULL;
		s->kind = STR_DYN;
		s->rel = f->flags & TEP_FIELD_IS_RELATIVE;
	} else if (f->flags & TEP_FIELD_IS_ARRAY) {
		s->kind = STR_ARRAY;
	} else {
		return NULL;
	}
	s->offset = f->offset;
	s->size = f->size;
	return s;
}

/* Append to the current literal; escapes as libtraceevent resolves them. */
static int lit_add(char **lit, int *len, int *cap, char c)
{
	if (*len + 1 >= *cap) {
		int ncap = *cap ? *cap * 2 : 64;
		char *n = realloc(*lit, ncap);

		if (!n)
			return -1;
		*lit = n;
		*cap = ncap;
	}
	(*lit)[(*len)++] = c;
	(*lit)[*len] = 0;
	return 0;
}

/*
 * One conversion starting after '%' at @p: fills @sg and returns the
 * length of the spec, or -1 for a conversion this printer does not do.
 */
static int parse_spec(const char *p, struct seg *sg)
{
	const char *q = p;
	bool hash = false, plus = false, space = false, prec = false;
	int lh = 0, ll = 0;

	for (;; q++) {
		if (*q == '-')
			sg->left = true;
		else if (*q == '0')
			sg->zero = true;
		else if (*q == '#')
			hash = true;
		else if (*q == '+')
			plus = true;
		else if (*q == ' ')
			space = true;
		else
			break;
	}
	if (*q == '*')
		return -1;
	while (*q >= '0' && *q <= '9')
		sg->width = sg->width * 10 + (*q++ - '0');
	if (sg->width > 64)
		return -1;
	if (*q == '.') {
		prec = true;
		q++;
		if (*q == '*')
			return -1;
		while (*q >= '0' && *q <= '9')
			q++;
	}
	for (;; q++) {
		if (*q == 'h')
			lh++;
		else if (*q == 'l' || *q == 'z')
			ll++;
		else if (*q == 'L')
			ll += 2;
		else
			break;
	}
	if ((lh && ll) || lh > 2 || ll > 2 || q - p + 2 > (int)sizeof(sg->spec))
		return -1;
	sg->lmod = ll ? 1 : -lh;
	sg->spec[0] = '%';
	memcpy(sg->spec + 1, p, q - p + 1);
	sg->spec[q - p + 2] = 0;
	sg->wide = ll > 0;
	switch (*q) {
	case 'd':
	case 'i':
		sg->sgn = true;
		/* fall through */
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		sg->base = *q == 'o' ? 8 : (*q == 'x' || *q == 'X') ? 16 : 10;
		sg->upper = *q == 'X';
		/* libtraceevent mangles '+' and ' ' */
		if (plus || space)
			return -1;
		sg->conv = (hash || prec || (sg->zero && sg->left)) ? CV_PRINTF : CV_INT;
		break;
	case 's':
		if (lh || ll || hash || plus || space || prec || sg->zero)
			return -1;
		sg->conv = CV_STR;
		break;
	case 'p':
		/* %pS, %pM, %pI4 ... need symbol tables or decoders: refused */
		if ((q[1] >= 'a' && q[1] <= 'z') || (q[1] >= 'A' && q[1] <= 'Z') ||
		    (q[1] >= '0' && q[1] <= '9') || lh || ll || hash || plus || space || prec ||
		    sg->zero || sg->left || sg->width)
			return -1;
		sg->conv = CV_PTR;
		break;
	default:
		return -1;
	}
	return q - p + 1;
}

static int compile_format(struct fastprint *fp, const char *fmt, struct tep_print_arg *args)
{
	char *lit = NULL;
	int litlen = 0, cap = 0;
	const char *p = fmt;

	for (;;) {
		struct seg sg = { 0 };
		struct seg *n;
		int len;

		if (*p == '\\') {
			char c;

			switch (p[1]) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case '\\':
			case '"':
				c = p[1];
				break;
			default:
				goto fail;
			}
			if (lit_add(&lit, &litlen, &cap, c))
				goto fail;
			p += 2;
			continue;
		}
		if (*p && (*p != '%' || p[1] == '%')) {
			if (lit_add(&lit, &litlen, &cap, *p))
				goto fail;
			p += *p == '%' ? 2 : 1;
			continue;
		}
		if (*p) {
			len = parse_spec(p + 1, &sg);
			if (len < 0 || !args)
				goto fail;
			p += 1 + len;
			if (sg.conv == CV_STR) {
				sg.str = compile_str(fp, args);
				if (!sg.str)
					goto fail;
				/* a width applies to plain strings only */
				if (sg.width && sg.str->kind != STR_LIT &&
				    sg.str->kind != STR_ARRAY && sg.str->kind != STR_DYN)
					goto fail;
			} else {
				sg.num = compile_num(fp, args);
				if (!sg.num)
					goto fail;
			}
			args = args->next;
		} else {
			if (args)
				goto fail; /* more arguments than conversions */
			sg.conv = CV_END;
		}
		n = realloc(fp->segs, (fp->nsegs + 1) * sizeof(*n));
		if (!n)
			goto fail;
		fp->segs = n;
		sg.lit = lit;
		sg.litlen = litlen;
		fp->segs[fp->nsegs++] = sg;
		lit = NULL;
		litlen = cap = 0;
		if (sg.conv == CV_END)
			return 0;
	}
fail:
	free(lit);
	return -1;
}

struct fastprint *fastprint__new(struct tep_handle *tep, struct tep_event *ev)
{
	struct fastprint *fp;

	/* ftrace-internal, bprint and failed formats print through other paths */
	if (!tep || !ev || ev->flags || ev->handler || !ev->print_fmt.format)
		return NULL;
	if (tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep) ||
	    tep_get_long_size(tep) != 8 || sizeof(long) != 8)
		return NULL;
	fp = calloc(1, sizeof(*fp));
	if (!fp)
		return NULL;
	fp->ev = ev;
	if (compile_format(fp, ev->print_fmt.format, ev->print_fmt.args)) {
		fastprint__delete(fp);
		return NULL;
	}
	return fp;
}

void fastprint__delete(struct fastprint *fp)
{
	int i;

	if (!fp)
		return;
	for (i = 0; i < fp->nallocs; i++)
		free(fp->allocs[i]);
	for (i = 0; i < fp->nsegs; i++)
		free(fp->segs[i].lit);
	free(fp->allocs);
	free(fp->segs);
	free(fp);
}

struct rec {
	const unsigned char *data;
	int size;
};

static int eval(const struct num *n, const struct rec *r, uint64_t *out)
{
	uint64_t a, b;

	switch (n->kind) {
	case NUM_CONST:
		*out = n->val;
		return 0;
	case NUM_FIELD:
		if (n->offset + n->size > r->size)
			return -1;
		switch (n->size) {
		case 1:
			*out = r->data[n->offset];
			break;
		case 2: {
			uint16_t v;

			memcpy(&v, r->data + n->offset, 2);
			*out = v;
			break;
		}
		case 4: {
			uint32_t v;

			memcpy(&v, r->data + n->offset, 4);
			*out = v;
			break;
		}
		default:
			memcpy(out, r->data + n->offset, 8);
			break;
		}
		return 0;
	case NUM_CAST:
		if (eval(n->a, r, &a))
			return -1;
		if (n->size < 8) {
			int shift = 64 - 8 * n->size;

			/* libtraceevent truncates, it never sign-extends */
			a = (a << shift) >> shift;
		}
		*out = a;
		return 0;
	case NUM_NOT:
		if (eval(n->a, r, &a))
			return -1;
		*out = !a;
		return 0;
	case NUM_INV:
		if (eval(n->a, r, &a))
			return -1;
		*out = ~a;
		return 0;
	case NUM_NEG:
		if (eval(n->a, r, &a))
			return -1;
		*out = -a;
		return 0;
	case NUM_TERN:
		if (eval(n->a, r, &a))
			return -1;
		return eval(a ? n->b : n->c, r, out);
	case NUM_BIN:
		break;
	}
	if (eval(n->a, r, &a) || eval(n->b, r, &b))
		return -1;
	switch (n->op) {
	case OP_ADD:
		*out = a + b;
		break;
	case OP_SUB:
		*out = a - b;
		break;
	case OP_MUL:
		*out = a * b;
		break;
	case OP_DIV:
		if (!b)
			return -1;
		*out = a / b;
		break;
	case OP_MOD:
		if (!b)
			return -1;
		*out = a % b;
		break;
	case OP_SHL:
		if (b >= 64)
			return -1;
		*out = a << b;
		break;
	case OP_SHR:
		if (b >= 64)
			return -1;
		*out = a >> b;
		break;
	case OP_AND:
		*out = a & b;
		break;
	case OP_OR:
		*out = a | b;
		break;
	case OP_LAND:
		*out = a && b;
		break;
	case OP_LOR:
		*out = a || b;
		break;
	case OP_EQ:
		*out = a == b;
		break;
	case OP_NE:
		*out = a != b;
		break;
	case OP_LT:
		*out = a < b;
		break;
	case OP_GT:
		*out = a > b;
		break;
	case OP_LE:
		*out = a <= b;
		break;
	case OP_GE:
		*out = a >= b;
		break;
	}
	return 0;
}

struct out {
	char *buf;
	int pos, len; /* len - 1 usable bytes: one is kept for the NUL */
};

static int put(struct out *o, const char *s, int n)
{
	if (n > o->len - 1 - o->pos)
		return -1;
	memcpy(o->buf + o->pos, s, n);
	o->pos += n;
	return 0;
}

static int pad(struct out *o, int n)
{
	if (n <= 0)
		return 0;
	if (n > o->len - 1 - o->pos)
		return -1;
	memset(o->buf + o->pos, ' ', n);
	o->pos += n;
	return 0;
}

static int put_int(struct out *o, const struct seg *sg, uint64_t v)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	const char *dig = sg->upper ? upper : lower;
	char tmp[96];
	char *p = tmp + sizeof(tmp);
	bool neg = false;
	int n, fill;

	switch (sg->lmod) {
	case -2:
		v = sg->sgn ? (uint64_t)(int64_t)(signed char)v : (unsigned char)v;
		break;
	case -1:
		v = sg->sgn ? (uint64_t)(int64_t)(short)v : (unsigned short)v;
		break;
	case 0:
		v = sg->sgn ? (uint64_t)(int64_t)(int)v : (unsigned int)v;
		break;
	default:
		break;
	}
	if (sg->sgn && (int64_t)v < 0) {
		neg = true;
		v = -v;
	}
	do {
		*--p = dig[v % sg->base];
		v /= sg->base;
	} while (v);
	n = tmp + sizeof(tmp) - p;
	fill = sg->width - n - neg;
	if (fill > 0 && sg->zero) {
		while (fill-- > 0)
			*--p = '0';
		fill = 0;
	}
	if (neg)
		*--p = '-';
	n = tmp + sizeof(tmp) - p;
	if (!sg->left && pad(o, fill))
		return -1;
	if (put(o, p, n))
		return -1;
	return sg->left ? pad(o, fill) : 0;
}

static int put_printf(struct out *o, const struct seg *sg, uint64_t v)
{
	int room = o->len - o->pos, n;

	if (sg->wide)
		n = snprintf(o->buf + o->pos, room, sg->spec, (long long)v);
	else
		n = snprintf(o->buf + o->pos, room, sg->spec, (int)v);
	if (n < 0 || n >= room)
		return -1;
	o->pos += n;
	return 0;
}

static int put_hex(struct out *o, uint64_t v)
{
	static const char dig[] = "0123456789abcdef";
	char tmp[24];
	char *p = tmp + sizeof(tmp);

	do {
		*--p = dig[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	return put(o, p, tmp + sizeof(tmp) - p);
}

/* glibc's %p */
static int put_ptr(struct out *o, uint64_t v)
{
	return v ? put_hex(o, v) : put(o, "(nil)", 5);
}

/* Text and length of a string argument that is not computed. */
static int str_text(const struct str *s, const struct rec *r, const char **text, int *len)
{
	const char *nul;
	unsigned loc, off, size;

	switch (s->kind) {
	case STR_LIT:
		*text = s->lit;
		*len = s->len;
		return 0;
	case STR_ARRAY:
		if (s->offset + s->size > r->size)
			return -1;
		*text = (const char *)r->data + s->offset;
		nul = memchr(*text, 0, s->size);
		*len = nul ? nul - *text : s->size;
		return 0;
	case STR_DYN:
		if (s->offset + 4 > r->size)
			return -1;
		memcpy(&loc, r->data + s->offset, 4);
		off = loc & 0xffff;
		size = loc >> 16;
		if (s->rel)
			off += s->offset + 4;
		/* only well-formed strings: NUL inside the declared length */
		if (off > (unsigned)r->size || size > (unsigned)r->size - off)
			return -1;
		*text = (const char *)r->data + off;
		nul = memchr(*text, 0, size);
		if (!nul)
			return -1;
		*len = nul - *text;
		return 0;
	default:
		return -1;
	}
}

static int put_str(struct out *o, const struct seg *sg, const struct str *s, const struct rec *r)
{
	const char *text;
	uint64_t v, left;
	int len, i;
	bool any = false;

	switch (s->kind) {
	case STR_FLAGS:
		if (eval(s->val, r, &v))
			return -1;
		left = v;
		for (i = 0; i < s->nsyms; i++) {
			uint64_t f = s->syms[i].val;

			/* zero entries never print, not even for a zero value */
			if (f && (left & f) == f) {
				if (any && put(o, s->delim, s->dlen))
					return -1;
				if (put(o, s->syms[i].str, s->syms[i].len))
					return -1;
				any = true;
				left &= ~f;
			}
		}
		if (left) {
			if (any && put(o, s->delim, s->dlen))
				return -1;
			return put_hex(o, left);
		}
		return 0;
	case STR_SYMS:
		if (eval(s->val, r, &v))
			return -1;
		for (i = 0; i < s->nsyms; i++)
			if (s->syms[i].val == v)
				return put(o, s->syms[i].str, s->syms[i].len);
		return put_hex(o, v);
	case STR_TERN:
		if (eval(s->val, r, &v))
			return -1;
		return put_str(o, sg, v ? s->a : s->b, r);
	default:
		break;
	}
	if (str_text(s, r, &text, &len))
		return -1;
	if (!sg->left && pad(o, sg->width - len))
		return -1;
	if (put(o, text, len))
		return -1;
	return sg->left ? pad(o, sg->width - len) : 0;
}

int fastprint__format(struct fastprint *fp, const void *raw, int size, char *buf, int len)
{
	struct rec r = { raw, size };
	struct out o = { buf, 0, len };
	int i;

	if (len <= 0)
		return -1;
	buf[0] = 0;
	for (i = 0; i < fp->nsegs; i++) {
		const struct seg *sg = &fp->segs[i];
		uint64_t v;
		int err = 0;

		if (sg->litlen && put(&o, sg->lit, sg->litlen))
			return -1;
		switch (sg->conv) {
		case CV_END:
			break;
		case CV_STR:
			err = put_str(&o, sg, sg->str, &r);
			break;
		default:
			if (eval(sg->num, &r, &v))
				return -1;
			if (sg->conv == CV_INT)
				err = put_int(&o, sg, v);
			else if (sg->conv == CV_PTR)
				err = put_ptr(&o, v);
			else
				err = put_printf(&o, sg, v);
			break;
		}
		if (err)
			return -1;
	}
	buf[o.pos] = 0;
	return o.pos;
}
