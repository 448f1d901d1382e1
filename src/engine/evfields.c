// SPDX-License-Identifier: GPL-2.0
/* A tracepoint's fields typed once (see evfields.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "engine/evfields.h"
#include "engine/session_int.h"

/* The size of an integer type name ("u64", "unsigned int"), 0 if not one. */
static int int_size(const char *t)
{
	static const struct {
		const char *name;
		int size;
	} types[] = {
		{ "char", 1 },
		{ "unsigned char", 1 },
		{ "signed char", 1 },
		{ "u8", 1 },
		{ "s8", 1 },
		{ "__u8", 1 },
		{ "__s8", 1 },
		{ "bool", 1 },
		{ "short", 2 },
		{ "unsigned short", 2 },
		{ "u16", 2 },
		{ "s16", 2 },
		{ "__u16", 2 },
		{ "__s16", 2 },
		{ "int", 4 },
		{ "unsigned int", 4 },
		{ "unsigned", 4 },
		{ "u32", 4 },
		{ "s32", 4 },
		{ "__u32", 4 },
		{ "__s32", 4 },
		{ "long", 8 },
		{ "unsigned long", 8 },
		{ "long long", 8 },
		{ "unsigned long long", 8 },
		{ "u64", 8 },
		{ "s64", 8 },
		{ "__u64", 8 },
		{ "__s64", 8 },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(t, types[i].name))
			return types[i].size;
	return 0;
}

/* "__data_loc unsigned int[]" -> "unsigned int" in @buf. */
static const char *base_type(const char *type, char *buf, size_t len)
{
	const char *p = type;
	size_t n;

	if (!strncmp(p, "__data_loc ", 11) || !strncmp(p, "__rel_loc ", 10))
		p = strchr(p, ' ') + 1;
	if (!strncmp(p, "const ", 6))
		p += 6;
	n = strcspn(p, "[");
	while (n && p[n - 1] == ' ')
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

static bool is_char_type(const char *base)
{
	return !strcmp(base, "char") || !strcmp(base, "unsigned char") ||
	       !strcmp(base, "signed char");
}

const struct evf *evfields__find(const struct evfields *fs, const char *name)
{
	for (int i = 0; name && i < fs->n; i++)
		if (!strcmp(fs->f[i].name, name))
			return &fs->f[i];
	return NULL;
}

/* The field an argument of the print format shows: REC->x, (cast)REC->x, REC->x[N]. */
static const char *arg_field(const struct tep_print_arg *a)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	if (!a)
		return NULL;
	if (a->type == TEP_PRINT_FIELD)
		return a->field.name;
	if (a->type == TEP_PRINT_OP && a->op.op && !strcmp(a->op.op, "[") && a->op.left &&
	    a->op.left->type == TEP_PRINT_FIELD)
		return a->op.left->field.name;
	return NULL;
}

/*
 * The integer fields the print format shows in hex (%x, %lx, %p, %pS):
 * addresses and masks, as strings like the pointers.  Conversions and
 * arguments are paired in order (a '*' width or precision takes one).
 */
static void mark_hex(struct evfields *jf, const struct tep_event *ev)
{
	const struct tep_print_arg *a = ev->print_fmt.args;
	const char *p = ev->print_fmt.format;

	while (p && a && (p = strchr(p, '%'))) {
		struct evf *f;
		char conv;

		p++;
		if (*p == '%') {
			p++;
			continue;
		}
		p += strspn(p, "-+ #0");
		if (*p == '*') {
			a = a->next;
			p++;
		}
		while (isdigit((unsigned char)*p))
			p++;
		if (*p == '.') {
			p++;
			if (*p == '*') {
				a = a->next;
				p++;
			}
			while (isdigit((unsigned char)*p))
				p++;
		}
		p += strspn(p, "hlLqjzt");
		conv = *p;
		if (!conv || !a)
			break;
		p++;
		f = (conv == 'x' || conv == 'X' || conv == 'p')
			    ? (struct evf *)evfields__find(jf, arg_field(a))
			    : NULL;
		if (f && (f->kind == EVF_UINT || f->kind == EVF_INT))
			f->kind = EVF_HEX;
		else if (f && f->kind == EVF_ARR)
			f->elem = EVF_HEX;
		a = a->next;
	}
}

/* @tf typed into @f */
static void type_field(struct evf *f, const struct tep_format_field *tf, bool common)
{
	bool sgn = tf->flags & TEP_FIELD_IS_SIGNED;
	char base[64];

	f->name = tf->name;
	f->common = common;
	f->sgn = sgn;
	f->offset = tf->offset;
	f->size = tf->size;
	f->dyn = tf->flags & TEP_FIELD_IS_DYNAMIC;
	f->rel = tf->flags & TEP_FIELD_IS_RELATIVE;
	base_type(tf->type, base, sizeof(base));
	if (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		/* a dynamic array's element size is its type's; a fixed one's, the format's */
		f->esize = f->dyn ? int_size(base) : (int)tf->elementsize;
		f->elem = sgn ? EVF_INT : EVF_UINT;
		if (is_char_type(base))
			f->kind = EVF_STR;
		else if (f->esize == 1 || f->esize == 2 || f->esize == 4 || f->esize == 8)
			f->kind = EVF_ARR;
		else
			f->kind = EVF_BYTES;
	} else if (tf->flags & TEP_FIELD_IS_POINTER) {
		f->kind = f->size == 4 || f->size == 8 ? EVF_HEX : EVF_BYTES;
	} else if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
		f->kind = !strcmp(base, "bool") ? EVF_BOOL : sgn ? EVF_INT : EVF_UINT;
	} else {
		f->kind = EVF_BYTES;
	}
}

struct evfields *evfields__new(struct tep_event *ev)
{
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	struct evfields *fs = calloc(1, sizeof(*fs));
	int n = 0;

	if (!fs)
		return NULL;
	for (int l = 0; l < 2; l++)
		for (struct tep_format_field *tf = lists[l]; tf; tf = tf->next)
			n++;
	fs->f = calloc(n ? n : 1, sizeof(*fs->f));
	if (!fs->f) {
		free(fs);
		return NULL;
	}
	for (int l = 0; l < 2; l++)
		for (struct tep_format_field *tf = lists[l]; tf; tf = tf->next)
			if (tf->offset >= 0 && tf->size >= 0)
				type_field(&fs->f[fs->n++], tf, l == 0);
	if (ev->print_fmt.format)
		mark_hex(fs, ev);
	return fs;
}

void evfields__delete(struct evfields *fs)
{
	if (!fs)
		return;
	free(fs->f);
	free(fs);
}

const struct evfields *evsel__evfields(struct evsel *ev)
{
	if (ev->tp && !ev->evfields_tried) {
		ev->evfields_tried = true;
		ev->evfields = evfields__new(ev->tp);
	}
	return ev->evfields;
}

u64 evf__int(const unsigned char *p, int size, bool sgn)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	u64 v;

	switch (size) {
	case 1:
		v8 = *p;
		return sgn ? (u64)(int8_t)v8 : v8;
	case 2:
		memcpy(&v16, p, 2);
		return sgn ? (u64)(int16_t)v16 : v16;
	case 4:
		memcpy(&v32, p, 4);
		return sgn ? (u64)(int32_t)v32 : v32;
	default:
		memcpy(&v, p, 8);
		return v;
	}
}

int evf__bytes(const struct evf *f, const struct sample *smp, const unsigned char **p,
	       unsigned *len)
{
	const unsigned char *raw = smp->raw;
	u32 raw_size = smp->raw_size, off = f->offset, n = f->size;

	if (!raw || off + n > raw_size)
		return -1;
	if (f->dyn) {
		u32 loc;

		if (n < 4)
			return -1;
		memcpy(&loc, raw + off, 4);
		n = loc >> 16;
		off = (loc & 0xffff) + (f->rel ? off + f->size : 0);
		if (off > raw_size || n > raw_size - off)
			return -1;
	}
	if (f->kind == EVF_STR) {
		const unsigned char *nul = memchr(raw + off, 0, n);

		if (nul)
			n = nul - (raw + off);
	}
	*p = raw + off;
	*len = n;
	return 0;
}

int evf__u64(const struct evf *f, const struct sample *smp, u64 *v)
{
	const unsigned char *p;
	unsigned len;

	if (f->kind > EVF_BOOL || evf__bytes(f, smp, &p, &len))
		return -1;
	*v = evf__int(p, f->size, f->sgn && (f->kind == EVF_INT || f->kind == EVF_HEX));
	return 0;
}
