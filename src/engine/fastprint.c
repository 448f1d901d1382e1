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
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "engine/fastprint_int.h"

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

/* Append a character to the current literal text. */
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

		/*
		 * Backslash escapes only occur in ftrace's own formats here
		 * (refused anyway); how they print is untested, so refuse.
		 */
		if (*p == '\\')
			goto fail;
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
