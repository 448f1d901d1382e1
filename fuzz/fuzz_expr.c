// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for expressions: user text compiled against real
 * formats of this host, then evaluated on arbitrary record bytes.  Input:
 * one byte choosing the format (low bits) and the filter syntax (bit 7),
 * the expression up to a NUL, then the record, copied to a buffer of
 * exactly its size so that ASan sees any read past it.  A compile error
 * must point inside the text; strings handed out must be readable.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/unit/expr_formats.h"
#include "expr/expr.h"

static struct tep_handle *tep;
static struct evsel evs[NR_EV_FORMATS];
static volatile unsigned sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul;
	struct expr_error err;
	struct expr_value v;
	struct sample smp = { .cpu = 1, .pid = 2, .tid = 3, .time = 4, .period = 5 };
	struct expr_ctx ctx = { .smp = &smp };
	unsigned char *raw = NULL;
	char *text, msg[256];
	size_t tlen, rlen;
	struct expr *e;
	int ev;

	if (!tep) {
		tep = tep_alloc();
		if (!tep || expr_formats__load(tep, evs))
			abort();
	}
	if (size < 1)
		return 0;
	ev = data[0] & 0x7f;
	nul = memchr(data + 1, 0, size - 1);
	tlen = nul ? (size_t)(nul - data - 1) : size - 1;
	text = malloc(tlen + 1);
	if (!text)
		return 0;
	memcpy(text, data + 1, tlen);
	text[tlen] = '\0';
	rlen = nul ? size - 2 - tlen : 0;
	if (rlen) {
		raw = malloc(rlen);
		if (!raw) {
			free(text);
			return 0;
		}
		memcpy(raw, nul + 1, rlen);
	}
	smp.raw = raw;
	smp.raw_size = (u32)rlen;

	e = expr__compile_ex(text, ev < NR_EV_FORMATS ? &evs[ev] : NULL,
			     data[0] & 0x80 ? EXPR_FILTER : 0, &err);
	if (!e) {
		if (err.col < -1 || err.col > (int)tlen || !memchr(err.msg, '\0', sizeof(err.msg)))
			abort();
		expr__strerror(text, &err, msg, sizeof(msg));
		sink += strlen(msg);
	} else {
		for (int i = 0; i < 2; i++) {
			expr__eval(e, &ctx, &v);
			if (v.kind == EXPR_STR) {
				if (v.len < 0 || (v.len && !v.str))
					abort();
				for (int j = 0; j < v.len; j++)
					sink += (unsigned char)v.str[j];
			}
			sink += expr__match(e, &ctx);
			smp.raw = NULL; /* the second time: no record at all */
		}
		expr__free(e);
	}
	free(raw);
	free(text);
	return 0;
}
