// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for expressions: user text compiled against real
 * formats of this host, or against a random format, then evaluated on
 * arbitrary record bytes.  Input: one byte choosing the format (bits 0-5;
 * RANDOM_FMT: the next bytes describe one) and the filter syntax (bit 7),
 * the expression up to a NUL, then the record, copied to a buffer of
 * exactly its size so that ASan sees any read past it.  A compile error
 * must point inside the text; strings handed out must be readable.  The
 * same text also goes through the syntax check of -e filters and -k
 * (expr__check_filter, expr__check_syntax), whose errors must point inside
 * it as well.  The C operators (*, & and [] on pointers, ++, =) read only
 * inside the record or a string the evaluation made: ASan checks it.
 * printf() writes to /dev/null; a text calling system() is skipped (the
 * fuzzer would run shell commands).  Bit 6 of the first byte compiles with
 * EXPR_KEY (top's printkey=): `key` is a number, or a string (not
 * NUL-terminated, in a buffer of exactly its size) when the text's length
 * is odd.
 *
 * A random format: a byte N (1..6 fields), then 3 bytes per field: its
 * kind (integers of 1/2/4/8 bytes, signed or not, char[LEN], __data_loc
 * char[], __rel_loc char[], u16/u32/u64 arrays of LEN), its offset and
 * LEN.  Offsets and sizes are whatever the bytes say: fields may overlap,
 * lie past any record, or be empty.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/unit/expr_formats.h"
#include "expr/expr.h"

#define RANDOM_FMT 0x3f

static struct tep_handle *tep;

/* Build a format from @d (N, then kind/offset/len per field); bytes used, or 0. */
static size_t random_format(const uint8_t *d, size_t size, char *fmt, size_t len)
{
	static const char *const names[] = { "a", "b", "c", "d", "e", "f" };
	size_t used = 1, n;
	int o;

	if (size < 1)
		return 0;
	n = d[0] % 6 + 1;
	if (size < 1 + 3 * n)
		return 0;
	o = snprintf(fmt, len,
		     "name: rnd\nID: 9999\nformat:\n"
		     "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (size_t i = 0; i < n; i++, used += 3) {
		unsigned kind = d[used] % 14, off = d[used + 1], l = d[used + 2] % 40;
		static const char *const ints[] = { "u8",  "s8",  "u16", "s16",
						    "u32", "s32", "u64", "s64" };
		static const unsigned isz[] = { 1, 1, 2, 2, 4, 4, 8, 8 };

		if (kind < 8)
			o += snprintf(fmt + o, len - o,
				      "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
				      ints[kind], names[i], off, isz[kind], kind & 1);
		else if (kind == 8)
			o += snprintf(fmt + o, len - o,
				      "\tfield:char %s[%u];\toffset:%u;\tsize:%u;\tsigned:0;\n",
				      names[i], l, off, l);
		else if (kind == 9 || kind == 10)
			o += snprintf(fmt + o, len - o,
				      "\tfield:%s char[] %s;\toffset:%u;\tsize:4;\tsigned:0;\n",
				      kind == 9 ? "__data_loc" : "__rel_loc", names[i], off);
		else
			o += snprintf(fmt + o, len - o,
				      "\tfield:u%u %s[%u];\toffset:%u;\tsize:%u;\tsigned:0;\n",
				      8u << (kind - 10), names[i], l, off, l * (1u << (kind - 10)));
	}
	snprintf(fmt + o, len - o, "\nprint fmt: \"x\"\n");
	return used;
}
static struct evsel evs[NR_EV_FORMATS];
static volatile unsigned sink;
static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul;
	struct expr_error err;
	struct expr_value v;
	struct sample smp = { .cpu = 1, .pid = 2, .tid = 3, .time = 4, .period = 5 };
	static const char keystr[11] = { 'k', 'w', 'o', 'r', 'k', 'e', 'r', '/', '0', ':', '1' };
	struct expr_value key = { .kind = EXPR_INT, .is_signed = true, .u = 0xfffffffe00000007ull };
	struct expr_ctx ctx = { .smp = &smp, .key = &key };
	unsigned char *raw = NULL;
	char *text, msg[256];
	size_t tlen, rlen;
	struct tep_handle *rtep = NULL;
	struct evsel rev = { 0 };
	unsigned flags;
	struct expr *e;
	int ev;

	if (!tep) {
		tep = tep_alloc();
		if (!tep || expr_formats__load(tep, evs))
			abort();
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			abort();
	}
	ctx.out = devnull;
	if (size < 1)
		return 0;
	flags = data[0] & 0x80 ? EXPR_FILTER : 0;
	if (data[0] & 0x40)
		flags |= EXPR_KEY;
	ev = data[0] & 0x3f;
	data++, size--;
	if (ev == RANDOM_FMT) {
		char fmt[2048];
		size_t used = random_format(data, size, fmt, sizeof(fmt));

		if (!used)
			return 0;
		data += used, size -= used;
		rtep = tep_alloc();
		if (!rtep)
			return 0;
		tep_set_file_bigendian(rtep, TEP_LITTLE_ENDIAN);
		tep_set_local_bigendian(rtep, TEP_LITTLE_ENDIAN);
		if (tep_parse_event(rtep, fmt, strlen(fmt), "fuzz") != TEP_ERRNO__SUCCESS ||
		    !(rev.tp = tep_find_event_by_name(rtep, "fuzz", "rnd"))) {
			tep_free(rtep);
			return 0;
		}
	}
	nul = memchr(data, 0, size);
	tlen = nul ? (size_t)(nul - data) : size;
	text = malloc(tlen + 1);
	if (!text) {
		if (rtep)
			tep_free(rtep);
		return 0;
	}
	memcpy(text, data, tlen);
	text[tlen] = '\0';
	if ((flags & EXPR_KEY) && (tlen & 1)) {
		flags |= EXPR_KEY_STR;
		key = (struct expr_value){ .kind = EXPR_STR, .str = keystr, .len = sizeof(keystr) };
	}
	if (strstr(text, "system")) { /* no shell commands from the fuzzer */
		free(text);
		if (rtep)
			tep_free(rtep);
		return 0;
	}
	rlen = nul ? size - 1 - tlen : 0;
	if (rlen) {
		raw = malloc(rlen);
		if (!raw) {
			free(text);
			if (rtep)
				tep_free(rtep);
			return 0;
		}
		memcpy(raw, nul + 1, rlen);
	}
	smp.raw = raw;
	smp.raw_size = (u32)rlen;

	/*
	 * The syntax check every -e filter and -k passes before anything opens
	 * (EXPR_SYNTAX: no format): its error points inside the text too.
	 */
	{
		struct expr_error serr;
		int r = flags & EXPR_FILTER ? expr__check_filter(text, &serr)
					    : expr__check_syntax(text, &serr);

		if (r && (serr.col < -1 || serr.col > (int)tlen ||
			  !memchr(serr.msg, '\0', sizeof(serr.msg))))
			abort();
		sink += (unsigned)r;
	}
	e = expr__compile_ex(text, rtep ? &rev : ev < NR_EV_FORMATS ? &evs[ev] : NULL, flags, &err);
	if (!e) {
		if (err.col < -1 || err.col > (int)tlen || !memchr(err.msg, '\0', sizeof(err.msg)))
			abort();
		expr__strerror(text, &err, msg, sizeof(msg));
		sink += strlen(msg);
	} else {
		for (int i = 0; i < 3; i++) { /* thrice: variables keep their values */
			expr__eval(e, &ctx, &v);
			if (v.kind == EXPR_STR) {
				if (v.len < 0 || (v.len && !v.str))
					abort();
				for (int j = 0; j < v.len; j++)
					sink += (unsigned char)v.str[j];
			}
			sink += expr__match(e, &ctx);
			if (i == 1)
				smp.raw = NULL; /* the second time: no record at all */
			else
				smp.raw = raw; /* the third: the record again, after none */
		}
		expr__free(e);
	}
	free(raw);
	free(text);
	if (rtep)
		tep_free(rtep); /* after the expression: it keeps no pointer into the format */
	return 0;
}
