// SPDX-License-Identifier: GPL-2.0
/*
 * Evaluation of a compiled expression: one walk of the typed tree per
 * sample.  Field reads go through the engine's handles; whatever cannot be
 * read (outside the record, past an array's end) and divisions by zero
 * give 0 and are counted.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "expr/expr_int.h"
#include "sym/ksyms.h"

static u64 bad_read(struct expr *e)
{
	e->faults.bad_reads++;
	return 0;
}

/*
 * The bytes of an array field in this record: fixed arrays where the
 * format says, __data_loc/__rel_loc ones where their 32-bit location
 * (offset | length << 16) points.  NULL when outside the record.
 */
static const unsigned char *array_span(const struct field *f, const struct sample *smp,
				       unsigned *size)
{
	const unsigned char *raw = smp->raw;
	unsigned off, len;
	u32 loc;

	if (!raw || (unsigned)f->offset + f->size > smp->raw_size)
		return NULL;
	if (!f->is_dynamic) {
		*size = f->size;
		return raw + f->offset;
	}
	if (f->size < 4)
		return NULL;
	memcpy(&loc, raw + f->offset, 4);
	off = loc & 0xffff;
	len = loc >> 16;
	if (f->is_relative)
		off += f->offset + f->size;
	if (off > smp->raw_size || len > smp->raw_size - off)
		return NULL;
	*size = len;
	return raw + off;
}

static u64 read_elem(struct expr *e, const struct node *n, const struct sample *smp, u64 idx)
{
	const struct field *f = &n->f;
	const unsigned char *p;
	unsigned size;
	struct field ef;
	struct sample one;
	u64 v;

	p = array_span(f, smp, &size);
	if (!p || idx >= size / f->elem_size)
		return bad_read(e);
	/* the element as a field of its own, read by the engine's handle */
	memset(&ef, 0, sizeof(ef));
	ef.offset = 0;
	ef.size = f->elem_size;
	ef.is_signed = f->is_signed;
	ef.valid = true;
	one.raw = p + idx * f->elem_size;
	one.raw_size = f->elem_size;
	if (field__u64(&ef, &one, &v))
		return bad_read(e);
	return v;
}

/* @v as a field of @f's size and sign holds it. */
static u64 field_width(const struct field *f, u64 v)
{
	switch (f->size) {
	case 1:
		return f->is_signed ? (u64)(s64)(int8_t)v : (uint8_t)v;
	case 2:
		return f->is_signed ? (u64)(s64)(int16_t)v : (uint16_t)v;
	case 4:
		return f->is_signed ? (u64)(s64)(int32_t)v : (uint32_t)v;
	default:
		return v;
	}
}

static u64 cast(const struct node *n, u64 v)
{
	switch (n->cast_size) {
	case 0:
		return v != 0;
	case 1:
		return n->cast_signed ? (u64)(s64)(int8_t)v : (uint8_t)v;
	case 2:
		return n->cast_signed ? (u64)(s64)(int16_t)v : (uint16_t)v;
	case 4:
		return n->cast_signed ? (u64)(s64)(int32_t)v : (uint32_t)v;
	default:
		return v;
	}
}

/*
 * Where pointer @addr may be read: inside the record, or inside a string
 * made readable this evaluation (its terminating NUL included).  The bytes
 * there and how many, or NULL.
 */
const char *eval__span(struct expr *e, const struct expr_ctx *c, u64 addr, u64 *avail)
{
	static const char nul[8];
	uintptr_t raw = (uintptr_t)c->smp->raw;

	if (raw && addr >= raw && addr - raw < c->smp->raw_size) {
		*avail = c->smp->raw_size - (addr - raw);
		return (const char *)(uintptr_t)addr;
	}
	for (int i = 0; i < e->nr_regions; i++) {
		uintptr_t p = (uintptr_t)e->regions[i].p;
		u64 len = e->regions[i].len;

		if (addr >= p && addr - p < len) {
			*avail = len - (addr - p);
			return (const char *)(uintptr_t)addr;
		}
		if (addr == p + len) { /* the terminating NUL */
			*avail = 1;
			return nul;
		}
	}
	return NULL;
}

/* The address of a field (or of element a of an array field) in the record, or a fault. */
static u64 addr_of(struct expr *e, struct node *n, const struct expr_ctx *c)
{
	const unsigned char *p;
	unsigned size, esz = n->f.elem_size ? n->f.elem_size : 1;
	u64 idx;

	if (!n->f.is_array && !n->f.is_string) {
		if (!c->smp->raw || (unsigned)n->f.offset + n->f.size > c->smp->raw_size)
			return bad_read(e);
		return (u64)(uintptr_t)(c->smp->raw + n->f.offset);
	}
	p = array_span(&n->f, c->smp, &size);
	idx = n->a ? eval__int(e, n->a, c) : 0;
	if (!p || (idx && idx >= size / esz))
		return bad_read(e);
	return (u64)(uintptr_t)(p + idx * esz);
}

/* *P: @n->cast_size bytes at P, where they may be read. */
static u64 deref(struct expr *e, struct node *n, const struct expr_ctx *c)
{
	u64 addr = eval__int(e, n->a, c), avail, v = 0;
	const char *p = eval__span(e, c, addr, &avail);

	if (!p || avail < n->cast_size)
		return bad_read(e);
	memcpy(&v, p, n->cast_size);
	if (!n->cast_signed || n->cast_size == 8)
		return v;
	return n->cast_size == 1   ? (u64)(s64)(int8_t)v
	       : n->cast_size == 2 ? (u64)(s64)(int16_t)v
				   : (u64)(s64)(int32_t)v;
}

/* A string made readable by * and []: the string's bytes this evaluation. */
static u64 str_ptr(struct expr *e, struct node *n, const struct expr_ctx *c)
{
	int len;
	const char *s = eval__str(e, n->a, c, &len);

	if (e->nr_regions < EXPR_MAX_REGIONS)
		e->regions[e->nr_regions++] = (struct region){ .p = s, .len = (u64)len };
	return (u64)(uintptr_t)s;
}

/* Assign @v to the name @lv; the value it then has. */
static u64 store(struct expr *e, struct node *lv, u64 v)
{
	struct slot *sl;

	if (!lv->slot) /* never: the parser gave every assigned name a slot */
		return v;
	sl = &e->slots[lv->slot - 1];
	if (lv->op == OP_FIELD) /* as the field's type holds it */
		v = field_width(&lv->f, v);
	sl->val = v;
	sl->gen = e->gen;
	return v;
}

static u64 incdec(struct expr *e, struct node *n, const struct expr_ctx *c)
{
	u64 old = eval__int(e, n->a, c), step = n->cast_size ? n->cast_size : 1;
	u64 v = n->op == OP_PREINC || n->op == OP_POSTINC ? old + step : old - step;

	v = store(e, n->a, v);
	return n->op == OP_PREINC || n->op == OP_PREDEC ? v : old;
}

/* C's strncmp on counted strings: the end of a string reads as NUL. */
static int counted_strncmp(const char *a, int la, const char *b, int lb, u64 n)
{
	for (u64 i = 0; i < n; i++) {
		unsigned char ca = (s64)i < la ? a[i] : 0, cb = (s64)i < lb ? b[i] : 0;

		if (ca != cb)
			return ca < cb ? -1 : 1;
		if (!ca)
			return 0;
	}
	return 0;
}

u64 eval__int(struct expr *e, struct node *n, const struct expr_ctx *c)
{
	u64 a, b, v;
	const char *sa, *sb;
	int la, lb;
	bool uns;

	/* a name assigned earlier in this evaluation: its new value */
	if (n->slot && (n->op == OP_UVAR || e->slots[n->slot - 1].gen == e->gen))
		return e->slots[n->slot - 1].val;
	switch (n->op) {
	case OP_INT:
		return n->val;
	case OP_UVAR:
		return 0;
	case OP_ADDR:
		return addr_of(e, n, c);
	case OP_STR2PTR:
		return str_ptr(e, n, c);
	case OP_DEREF:
		return deref(e, n, c);
	case OP_PTRADD:
		a = eval__int(e, n->a, c);
		b = eval__int(e, n->b, c) * n->cast_size;
		return n->cast_signed ? a - b : a + b;
	case OP_PTRDIFF:
		a = eval__int(e, n->a, c);
		b = eval__int(e, n->b, c);
		return (u64)((s64)(a - b) / (s64)n->cast_size);
	case OP_ASSIGN:
		return store(e, n->a, eval__int(e, n->b, c));
	case OP_PREINC ... OP_POSTDEC:
		return incdec(e, n, c);
	case OP_COMMA: /* its left side may be a string: evaluated, not used */
		if (n->a->is_str)
			eval__str(e, n->a, c, &la);
		else
			eval__int(e, n->a, c);
		return eval__int(e, n->b, c);
	case OP_PRINTF:
		return (u64)fmt__print(e, n, c);
	case OP_SYSTEM:
		return fmt__system(e, n, c);
	case OP_FIELD:
		if (field__u64(&n->f, c->smp, &v))
			return bad_read(e);
		return v;
	case OP_ELEM:
		return read_elem(e, n, c->smp, eval__int(e, n->a, c));
	case OP_CPU:
		return c->smp->cpu;
	case OP_PID:
		return c->smp->pid;
	case OP_TID:
		return c->smp->tid;
	case OP_TIME:
		return c->smp->time;
	case OP_PERIOD:
		return c->smp->period;
	case OP_KEY:
		if (!c->key || c->key->kind != EXPR_INT)
			return bad_read(e);
		return c->key->u;
	case OP_VAR:
		if (!c->vars || n->val >= (u64)c->nr_vars)
			return bad_read(e);
		return c->vars[n->val];
	case OP_NEG:
		return -eval__int(e, n->a, c);
	case OP_NOT:
		return !eval__int(e, n->a, c);
	case OP_BNOT:
		return ~eval__int(e, n->a, c);
	case OP_CAST:
		return cast(n, eval__int(e, n->a, c));
	case OP_LAND:
		return eval__int(e, n->a, c) && eval__int(e, n->b, c);
	case OP_LOR:
		return eval__int(e, n->a, c) || eval__int(e, n->b, c);
	case OP_COND:
		return eval__int(e, n->a, c) ? eval__int(e, n->b, c) : eval__int(e, n->c, c);
	case OP_SEQ:
	case OP_SNE:
		sa = eval__str(e, n->a, c, &la);
		sb = eval__str(e, n->b, c, &lb);
		v = la == lb && !memcmp(sa, sb, la);
		return n->op == OP_SEQ ? v : !v;
	case OP_GLOB:
		sa = eval__str(e, n->a, c, &la);
		sb = eval__str(e, n->b, c, &lb);
		return expr__glob(sb, lb, sa, la);
	case OP_NTOHS:
		return ntohs((uint16_t)eval__int(e, n->a, c));
	case OP_NTOHL:
		return ntohl((uint32_t)eval__int(e, n->a, c));
	case OP_STRNCMP:
		sa = eval__str(e, n->a, c, &la);
		sb = eval__str(e, n->b, c, &lb);
		v = eval__int(e, n->c, c);
		if (!n->c->uns && (s64)v < 0)
			v = 0;
		return (u64)(s64)counted_strncmp(sa, la, sb, lb, v);
	default:
		break;
	}
	/* binary operators on two numbers */
	a = eval__int(e, n->a, c);
	b = eval__int(e, n->b, c);
	uns = n->a->uns || n->b->uns;
	switch (n->op) {
	case OP_MUL:
		return a * b;
	case OP_DIV:
	case OP_MOD:
		if (!b) {
			e->faults.div_zero++;
			return 0;
		}
		if (uns)
			return n->op == OP_DIV ? a / b : a % b;
		if ((s64)b == -1) /* INT64_MIN / -1 wraps as the other operators do */
			return n->op == OP_DIV ? -a : 0;
		return n->op == OP_DIV ? (u64)((s64)a / (s64)b) : (u64)((s64)a % (s64)b);
	case OP_ADD:
		return a + b;
	case OP_SUB:
		return a - b;
	case OP_SHL:
		return b >= 64 ? 0 : a << b;
	case OP_SHR:
		if (n->a->uns)
			return b >= 64 ? 0 : a >> b;
		if (b >= 64)
			return (s64)a < 0 ? ~0ULL : 0;
		return (u64)((s64)a >> b);
	case OP_LT:
		return uns ? a < b : (s64)a < (s64)b;
	case OP_LE:
		return uns ? a <= b : (s64)a <= (s64)b;
	case OP_GT:
		return uns ? a > b : (s64)a > (s64)b;
	case OP_GE:
		return uns ? a >= b : (s64)a >= (s64)b;
	case OP_EQ:
		return a == b;
	case OP_NE:
		return a != b;
	case OP_BAND:
		return a & b;
	case OP_BXOR:
		return a ^ b;
	case OP_BOR:
		return a | b;
	default:
		return 0;
	}
}

const char *eval__str(struct expr *e, struct node *n, const struct expr_ctx *c, int *len)
{
	const struct sym *sym;
	const char *s;
	u64 v, a;

	switch (n->op) {
	case OP_STR:
		*len = n->len;
		return n->str;
	case OP_SFIELD:
		s = field__str(&n->f, c->smp, len);
		if (s)
			return s;
		bad_read(e);
		break;
	case OP_KEY:
		if (c->key && c->key->kind == EXPR_STR && c->key->len >= 0 &&
		    (c->key->str || !c->key->len)) {
			*len = c->key->len;
			return c->key->len ? c->key->str : "";
		}
		bad_read(e);
		break;
	case OP_COND:
		return eval__int(e, n->a, c) ? eval__str(e, n->b, c, len)
					     : eval__str(e, n->c, c, len);
	case OP_COMMA:
		if (n->a->is_str)
			eval__str(e, n->a, c, len);
		else
			eval__int(e, n->a, c);
		return eval__str(e, n->b, c, len);
	case OP_EXITREASON:
		a = eval__int(e, n->a, c);
		v = eval__int(e, n->b, c);
		s = expr__exit_reason(a, v, n->buf, sizeof(n->buf));
		*len = (int)strlen(s);
		return s;
	case OP_KSYM:
		v = eval__int(e, n->a, c);
		sym = c->ksyms ? ksyms__find(c->ksyms, v, NULL) : NULL;
		s = sym ? sym->name : "[unknown]";
		*len = (int)strlen(s);
		return s;
	case OP_SYSCALL:
		v = eval__int(e, n->a, c);
		s = expr__syscall_name(v);
		if (!s) {
			/* not a syscall of this table: its number as text */
			snprintf(n->buf, sizeof(n->buf), "%lld", (long long)v);
			s = n->buf;
		}
		*len = (int)strlen(s);
		return s;
	case OP_COMM:
		v = eval__int(e, n->a, c);
		s = c->session ? session__comm_at(c->session, (u32)v, c->smp->time) : "<...>";
		/*
		 * A copy: the map's string moves or is freed when another
		 * comm_get of the same evaluation adds a pid and rehashes.
		 */
		*len = snprintf(n->buf, sizeof(n->buf), "%s", s);
		if (*len >= (int)sizeof(n->buf))
			*len = (int)sizeof(n->buf) - 1;
		return n->buf;
	default:
		break;
	}
	*len = 0;
	return "";
}

static const struct sample no_sample;

/* A new evaluation: fields read the record again, no string is readable yet. */
static void begin(struct expr *e, const struct expr_ctx *ctx)
{
	e->gen++;
	e->nr_regions = 0;
	e->out = ctx->out ? ctx->out : stdout;
}

int expr__eval(struct expr *e, const struct expr_ctx *ctx, struct expr_value *out)
{
	u64 before = e->faults.bad_reads + e->faults.div_zero;
	struct expr_ctx c;

	if (!ctx->smp) {
		c = *ctx;
		c.smp = &no_sample;
		ctx = &c;
	}
	begin(e, ctx);
	if (e->root->is_str) {
		out->kind = EXPR_STR;
		out->is_signed = false;
		out->u = 0;
		out->str = eval__str(e, e->root, ctx, &out->len);
	} else {
		out->kind = EXPR_INT;
		out->u = eval__int(e, e->root, ctx);
		out->is_signed = !e->root->uns;
		out->str = NULL;
		out->len = 0;
	}
	return (int)(e->faults.bad_reads + e->faults.div_zero - before);
}

bool expr__match(struct expr *e, const struct expr_ctx *ctx)
{
	struct expr_ctx c;
	int len;

	if (!ctx->smp) {
		c = *ctx;
		c.smp = &no_sample;
		ctx = &c;
	}
	begin(e, ctx);
	if (e->root->is_str)
		return eval__str(e, e->root, ctx, &len) && len > 0;
	return eval__int(e, e->root, ctx) != 0;
}
