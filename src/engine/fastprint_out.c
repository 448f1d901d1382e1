// SPDX-License-Identifier: GPL-2.0
/*
 * Printing one record with a compiled format: expression trees evaluated
 * on the raw record (every field access bounds-checked), integers
 * formatted by hand, strings copied with their width.  A record it cannot
 * print exactly (a string or field outside it, a division by zero) or an
 * output that does not fit returns -1 and the caller uses libtraceevent.
 */
#include <stdio.h>
#include <string.h>

#include "engine/fastprint_int.h"

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
