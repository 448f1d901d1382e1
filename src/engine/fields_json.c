// SPDX-License-Identifier: GPL-2.0
/*
 * --json: a tracepoint record's fields as one JSON object, each by its
 * type (engine/evfields.h, worked out once per event):
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
 * own members); a field cut short by the record is null.
 */
#include <string.h>

#include "engine/evfields.h"
#include "engine/probe.h"
#include "engine/session_int.h"
#include "util/json.h"

static void put_int(struct json *j, const char *key, enum evf_kind kind, const unsigned char *p,
		    int size)
{
	u64 v = evf__int(p, size, kind == EVF_INT);

	if (kind == EVF_INT)
		json__i64(j, key, (int64_t)v);
	else if (kind == EVF_HEX)
		json__hex(j, key, v);
	else if (kind == EVF_BOOL)
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

static void put_field(struct json *j, const struct evf *f, const struct sample *smp)
{
	const unsigned char *p;
	unsigned len;

	if (evf__bytes(f, smp, &p, &len)) {
		json__null(j, f->name);
		return;
	}
	switch (f->kind) {
	case EVF_STR:
		json__strn(j, f->name, (const char *)p, len);
		break;
	case EVF_ARR:
		json__arr(j, f->name);
		for (u32 i = 0; i + f->esize <= len; i += f->esize)
			put_int(j, NULL, f->elem, p + i, f->esize);
		json__close(j);
		break;
	case EVF_BYTES:
		put_bytes(j, f->name, p, (int)len);
		break;
	default:
		put_int(j, f->name, f->kind, p, f->size);
	}
}

void evsel__json_fields(struct evsel *ev, const struct sample *smp, struct json *j, const char *key)
{
	const struct evfields *fs;

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
	if ((fs = evsel__evfields(ev)) && smp->raw)
		for (int i = 0; i < fs->n; i++)
			if (!fs->f[i].common)
				put_field(j, &fs->f[i], smp);
	probe__json_regs(ev, smp, j);
	json__close(j);
}
