// SPDX-License-Identifier: GPL-2.0
/*
 * --json: a tracepoint record's fields as one JSON object, each decoded by
 * its type in the event's format (libtraceevent's parse of it):
 *
 *   - integers as numbers, signed where the format says so; "bool" as
 *     true/false;
 *   - pointers ("void *", "const char *": kernel addresses, never read)
 *     and the fields the print format shows in hex (%p, %x, %lx: syscall
 *     arguments, call sites) as "0x..." strings, as the README's
 *     vocabulary has addresses;
 *   - char arrays, fixed or __data_loc / __rel_loc, as strings up to their
 *     NUL (escaped by util/json: any byte is safe);
 *   - other arrays, fixed or dynamic, as arrays of their elements;
 *   - anything else (a struct, a bitmask type) as its bytes in hex, in
 *     record order.
 *
 * The common_* fields are not repeated (pid, cpu and time are the record's
 * own members).  The decoding of each field is worked out once per event
 * (struct jfields, kept on the evsel like its compiled printer); a field
 * cut short by the record is null.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "engine/fields_json.h"
#include "engine/probe.h"
#include "engine/session_int.h"
#include "util/json.h"

enum jkind {
	JK_UINT,
	JK_INT,
	JK_HEX,
	JK_BOOL,
	JK_STR,	  /* char array: a string up to its NUL */
	JK_ARR,	  /* array of integers of @esize bytes, each of @elem's kind */
	JK_BYTES, /* the bytes in hex */
};

struct jfield {
	const char *name; /* the format's (lives as long as the tep handle) */
	enum jkind kind, elem;
	int offset, size, esize;
	bool dyn, rel; /* __data_loc, __rel_loc */
};

struct jfields {
	struct jfield *f;
	int n;
};

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

static struct jfield *find(struct jfields *jf, const char *name)
{
	for (int i = 0; name && i < jf->n; i++)
		if (!strcmp(jf->f[i].name, name))
			return &jf->f[i];
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
static void mark_hex(struct jfields *jf, const struct tep_event *ev)
{
	const struct tep_print_arg *a = ev->print_fmt.args;
	const char *p = ev->print_fmt.format;

	while (p && a && (p = strchr(p, '%'))) {
		struct jfield *f;
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
		f = (conv == 'x' || conv == 'X' || conv == 'p') ? find(jf, arg_field(a)) : NULL;
		if (f && (f->kind == JK_UINT || f->kind == JK_INT))
			f->kind = JK_HEX;
		else if (f && f->kind == JK_ARR)
			f->elem = JK_HEX;
		a = a->next;
	}
}

struct jfields *jfields__new(struct tep_event *ev)
{
	struct tep_format_field *tf;
	struct jfields *jf = calloc(1, sizeof(*jf));
	int n = 0;

	if (!jf)
		return NULL;
	for (tf = ev->format.fields; tf; tf = tf->next)
		n++;
	jf->f = calloc(n ? n : 1, sizeof(*jf->f));
	if (!jf->f) {
		free(jf);
		return NULL;
	}
	for (tf = ev->format.fields; tf; tf = tf->next) {
		struct jfield *f = &jf->f[jf->n];
		bool sgn = tf->flags & TEP_FIELD_IS_SIGNED;
		char base[64];

		if (tf->offset < 0 || tf->size < 0)
			continue;
		jf->n++;
		f->name = tf->name;
		f->offset = tf->offset;
		f->size = tf->size;
		f->dyn = tf->flags & TEP_FIELD_IS_DYNAMIC;
		f->rel = tf->flags & TEP_FIELD_IS_RELATIVE;
		base_type(tf->type, base, sizeof(base));
		if (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
			/* a dynamic array's element size is its type's; a fixed one's, the format's */
			f->esize = f->dyn ? int_size(base) : (int)tf->elementsize;
			f->elem = sgn ? JK_INT : JK_UINT;
			if (is_char_type(base))
				f->kind = JK_STR;
			else if (f->esize == 1 || f->esize == 2 || f->esize == 4 || f->esize == 8)
				f->kind = JK_ARR;
			else
				f->kind = JK_BYTES;
		} else if (tf->flags & TEP_FIELD_IS_POINTER) {
			f->kind = f->size == 4 || f->size == 8 ? JK_HEX : JK_BYTES;
		} else if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
			f->kind = !strcmp(base, "bool") ? JK_BOOL : sgn ? JK_INT : JK_UINT;
		} else {
			f->kind = JK_BYTES;
		}
	}
	if (ev->print_fmt.format)
		mark_hex(jf, ev);
	return jf;
}

void jfields__delete(struct jfields *jf)
{
	if (!jf)
		return;
	free(jf->f);
	free(jf);
}

/* An integer of @size bytes at @p, sign-extended if @sgn. */
static u64 get_int(const unsigned char *p, int size, bool sgn)
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

static void put_int(struct json *j, const char *key, enum jkind kind, const unsigned char *p,
		    int size)
{
	u64 v = get_int(p, size, kind == JK_INT);

	if (kind == JK_INT)
		json__i64(j, key, (int64_t)v);
	else if (kind == JK_HEX)
		json__hex(j, key, v);
	else if (kind == JK_BOOL)
		json__bool(j, key, v != 0);
	else
		json__u64(j, key, v);
}

static void put_bytes(struct json *j, const char *key, const unsigned char *p, int len)
{
	static const char hex[] = "0123456789abcdef";
	char buf[512];
	int n = 0;

	if (len > (int)sizeof(buf) / 2)
		len = sizeof(buf) / 2;
	for (int i = 0; i < len; i++) {
		buf[n++] = hex[p[i] >> 4];
		buf[n++] = hex[p[i] & 15];
	}
	json__strn(j, key, buf, n);
}

static void put_field(struct json *j, const struct jfield *f, const unsigned char *raw,
		      u32 raw_size)
{
	u32 off = f->offset, len = f->size;

	if (off + len > raw_size) {
		json__null(j, f->name);
		return;
	}
	if (f->dyn) {
		u32 loc;

		if (len < 4) {
			json__null(j, f->name);
			return;
		}
		memcpy(&loc, raw + off, 4);
		len = loc >> 16;
		off = (loc & 0xffff) + (f->rel ? off + f->size : 0);
		if (off > raw_size || len > raw_size - off) {
			json__null(j, f->name);
			return;
		}
	}
	switch (f->kind) {
	case JK_STR: {
		const unsigned char *nul = memchr(raw + off, 0, len);

		json__strn(j, f->name, (const char *)raw + off,
			   nul ? (size_t)(nul - (raw + off)) : len);
		break;
	}
	case JK_ARR:
		json__arr(j, f->name);
		for (u32 i = 0; i + f->esize <= len; i += f->esize)
			put_int(j, NULL, f->elem, raw + off + i, f->esize);
		json__close(j);
		break;
	case JK_BYTES:
		put_bytes(j, f->name, raw + off, (int)len);
		break;
	default:
		put_int(j, f->name, f->kind, raw + off, f->size);
	}
}

void evsel__json_fields(struct evsel *ev, const struct sample *smp, struct json *j, const char *key)
{
	json__obj(j, key);
	if (ev->row) { /* the text, a NUL, the JSON members (session__deliver_row) */
		if (smp->raw)
			json__raw(j, (const char *)smp->raw + strlen(smp->raw) + 1);
		json__close(j);
		return;
	}
	if (!ev->tp && ev->probe) {
		probe__json(ev, smp, j);
		json__close(j);
		return;
	}
	if (ev->tp && !ev->jfields_tried) {
		ev->jfields_tried = true;
		ev->jfields = jfields__new(ev->tp);
	}
	if (ev->jfields && smp->raw) {
		const struct jfields *jf = ev->jfields;

		for (int i = 0; i < jf->n; i++)
			put_field(j, &jf->f[i], smp->raw, smp->raw_size);
	}
	probe__json_regs(ev, smp, j);
	json__close(j);
}
