// SPDX-License-Identifier: GPL-2.0
/* JSON Lines writer: commas, nesting, escaping (util/json.h). */
#include "util/json.h"
#include "util/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * A line is composed in the writer's buffer and written at json__end (or
 * when the buffer fills): a trace --json line is one write, not the fifty
 * the members' parts would be.
 */
static void flush(struct json *j)
{
	if (j->len)
		fwrite_unlocked(j->buf, 1, j->len, j->fp);
	j->len = 0;
}

static void put(struct json *j, const void *s, size_t n)
{
	if (n > sizeof(j->buf) - j->len) {
		flush(j);
		if (n > sizeof(j->buf)) {
			fwrite_unlocked(s, 1, n, j->fp);
			return;
		}
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
}

static void putch(struct json *j, char c)
{
	if (j->len == sizeof(j->buf))
		flush(j);
	j->buf[j->len++] = c;
}

/* Bytes a JSON string holds as they are: printable ASCII but '"' and '\\'. */
static const unsigned char plain[256] = {
	[0x20 ... 0x21] = 1, /* '"' is 0x22 */
	[0x23 ... 0x5b] = 1, /* '\\' is 0x5c */
	[0x5d ... 0x7e] = 1,
};

/*
 * Eight bytes at once that need no escape (and are ASCII): no byte under
 * 0x20, none with the top bit, none equal to '"', '\\' or 0x7f.  The tests
 * for "a byte less than n" and "a byte equal to 0" are exact as to whether
 * any byte is (not which).
 */
static inline bool plain8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, top = 0x8080808080808080ULL;
	uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\'), del = w ^ (ones * 0x7f);
	uint64_t bad = ((w - ones * 0x20) & ~w) | w | ((q - ones) & ~q) | ((b - ones) & ~b) |
		       ((del - ones) & ~del);

	return !(bad & top);
}

/* @c escaped at @d: its length (at most 6). */
static size_t escape_byte(char *d, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	switch (c) {
	case '"':
	case '\\':
		d[0] = '\\';
		d[1] = (char)c;
		return 2;
	case '\n':
		memcpy(d, "\\n", 2);
		return 2;
	case '\t':
		memcpy(d, "\\t", 2);
		return 2;
	case '\r':
		memcpy(d, "\\r", 2);
		return 2;
	default:
		if (c < 0x20 || c == 0x7f) {
			memcpy(d, "\\u00", 4);
			d[4] = hex[c >> 4];
			d[5] = hex[c & 15];
			return 6;
		}
		memcpy(d, "\xef\xbf\xbd", 3); /* U+FFFD: not UTF-8 */
		return 3;
	}
}

/*
 * Escaped into the buffer directly, byte by byte (names and comms are
 * short: a call per run of plain bytes costs more); a string too long for
 * the buffer goes in runs.
 */
static void escape(struct json *j, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	char e[8];
	size_t i = 0, u;
	char *d;

	if (len <= (sizeof(j->buf) - 8) / 6) {
		/* at most 6 bytes for one */
		if (len * 6 > sizeof(j->buf) - j->len)
			flush(j);
		d = j->buf + j->len;
		while (i < len) {
			unsigned char c = s[i];
			uint64_t w;

			if (i + 8 <= len) {
				memcpy(&w, s + i, 8);
				if (plain8(w)) {
					memcpy(d, &w, 8);
					d += 8;
					i += 8;
					continue;
				}
			}
			if (plain[c]) {
				*d++ = (char)c;
				i++;
			} else if (c >= 0x80 && (u = utf8__seq_len(s + i, len - i))) {
				memcpy(d, s + i, u);
				d += u;
				i += u;
			} else {
				d += escape_byte(d, c);
				i++;
			}
		}
		j->len = d - j->buf;
		return;
	}
	while (i < len) {
		size_t run = 0;

		while (i + run < len) {
			if (plain[s[i + run]])
				run++;
			else if (s[i + run] >= 0x80 &&
				 (u = utf8__seq_len(s + i + run, len - i - run)))
				run += u;
			else
				break;
		}
		put(j, s + i, run);
		i += run;
		if (i < len)
			put(j, e, escape_byte(e, s[i++]));
	}
}

void json__escape(FILE *fp, const char *s, size_t len)
{
	struct json j;

	j.fp = fp;
	j.len = 0;
	escape(&j, s, len);
	flush(&j);
}

/*
 * A string in quotes.  Short plain ones (keys, most names) are copied with
 * their quotes here, without a call: a line holds a dozen of them.
 */
static inline void put_str(struct json *j, const char *s, size_t len)
{
	if (len <= 32 && sizeof(j->buf) - j->len >= 34) {
		char *d = j->buf + j->len;
		size_t i;

		d[0] = '"';
		for (i = 0; i < len && plain[(unsigned char)s[i]]; i++)
			d[i + 1] = s[i];
		if (i == len) {
			d[len + 1] = '"';
			j->len += len + 2;
			return;
		}
	}
	putch(j, '"');
	escape(j, s, len);
	putch(j, '"');
}

/* "00" "01" ... "99" */
static const char digits2[201] = "00010203040506070809101112131415161718192021222324"
				 "25262728293031323334353637383940414243444546474849"
				 "50515253545556575859606162636465666768697071727374"
				 "75767778798081828384858687888990919293949596979899";

/* The 8 digits of @w (< 10^8) at @p: two independent halves of 4. */
static void digits8(char *p, uint32_t w)
{
	uint32_t hi = w / 10000, lo = w % 10000;

	memcpy(p, digits2 + 2 * (hi / 100), 2);
	memcpy(p + 2, digits2 + 2 * (hi % 100), 2);
	memcpy(p + 4, digits2 + 2 * (lo / 100), 2);
	memcpy(p + 6, digits2 + 2 * (lo % 100), 2);
}

/*
 * The digits of @w (< 10^8) without leading zeros at @p: their count (8
 * bytes are written).
 */
static size_t digits_short(char *p, uint32_t w)
{
	char tmp[16];
	size_t n = w >= 10000 ? (w >= 1000000 ? (w >= 10000000 ? 8 : 7) : (w >= 100000 ? 6 : 5))
			      : (w >= 100 ? (w >= 1000 ? 4 : 3) : (w >= 10 ? 2 : 1));

	digits8(tmp, w);
	memcpy(p, tmp + 8 - n, 8);
	return n;
}

/*
 * @v in decimal, as fprintf's %llu would, cheaper: 8 digits at a time in
 * 32-bit arithmetic, the 8-digit parts of a long number (a 19-digit
 * time_ns is in every event line) each divided out of @v directly; copied
 * into the buffer as a fixed 24 bytes.
 */
static void put_u64(struct json *j, uint64_t v)
{
	char *p;
	size_t n;

	if (sizeof(j->buf) - j->len < 24)
		flush(j);
	p = j->buf + j->len;
	if (v < 100000000) {
		n = digits_short(p, (uint32_t)v);
	} else if (v < 10000000000000000ULL) {
		uint64_t hi = v / 100000000;

		n = digits_short(p, (uint32_t)hi);
		digits8(p + n, (uint32_t)(v - hi * 100000000));
		n += 8;
	} else {
		uint64_t top = v / 10000000000000000ULL, mid = v / 100000000;

		n = digits_short(p, (uint32_t)top);
		digits8(p + n, (uint32_t)(mid - top * 100000000));
		digits8(p + n + 8, (uint32_t)(v - mid * 100000000));
		n += 16;
	}
	j->len += n;
}

/* The comma and the key of the next member or element. */
static void member(struct json *j, const char *key)
{
	int d = j->depth - 1;

	if (d < 0)
		return;
	if (!j->first[d])
		putch(j, ',');
	j->first[d] = false;
	if (key && j->close[d] == '}') {
		put_str(j, key, strlen(key));
		putch(j, ':');
	}
}

static void open_(struct json *j, const char *key, char o, char c)
{
	member(j, key);
	putch(j, o);
	if (j->depth < JSON_MAX_DEPTH) {
		j->first[j->depth] = true;
		j->close[j->depth] = c;
	}
	j->depth++;
}

void json__begin(struct json *j, FILE *fp, const char *type)
{
	j->fp = fp;
	j->depth = 0;
	j->len = 0;
	open_(j, NULL, '{', '}');
	json__str(j, "type", type);
}

void json__close(struct json *j)
{
	if (j->depth <= 0)
		return;
	j->depth--;
	putch(j, j->depth < JSON_MAX_DEPTH ? j->close[j->depth] : '}');
}

void json__end(struct json *j)
{
	while (j->depth > 0)
		json__close(j);
	putch(j, '\n');
	flush(j);
}

void json__obj(struct json *j, const char *key)
{
	open_(j, key, '{', '}');
}

void json__arr(struct json *j, const char *key)
{
	open_(j, key, '[', ']');
}

void json__strn(struct json *j, const char *key, const char *s, size_t len)
{
	member(j, key);
	put_str(j, s, len);
}

void json__str(struct json *j, const char *key, const char *s)
{
	if (!s) {
		json__null(j, key);
		return;
	}
	json__strn(j, key, s, strlen(s));
}

void json__u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	put_u64(j, v);
}

void json__i64(struct json *j, const char *key, int64_t v)
{
	member(j, key);
	if (v < 0)
		putch(j, '-');
	put_u64(j, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

void json__f64(struct json *j, const char *key, double v)
{
	char num[32];
	int len = isfinite(v) ? snprintf(num, sizeof(num), "%.15g", v) : 0;

	member(j, key);
	if (len > 0 && len < (int)sizeof(num))
		put(j, num, len);
	else
		put(j, "null", 4);
}

void json__bool(struct json *j, const char *key, bool v)
{
	member(j, key);
	put(j, v ? "true" : "false", v ? 4 : 5);
}

void json__null(struct json *j, const char *key)
{
	member(j, key);
	put(j, "null", 4);
}

/* "0x..." (lower case), as fprintf's "\"0x%llx\"" would. */
void json__hex(struct json *j, const char *key, uint64_t v)
{
	char tmp[24];
	size_t n = sizeof(tmp);

	member(j, key);
	tmp[--n] = '"';
	do
		tmp[--n] = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	tmp[--n] = 'x';
	tmp[--n] = '0';
	tmp[--n] = '"';
	put(j, tmp + n, sizeof(tmp) - n);
}

int json__frag_begin(struct json *j)
{
	j->mem = NULL;
	j->mem_len = 0;
	j->fp = open_memstream(&j->mem, &j->mem_len);
	if (!j->fp)
		return -ENOMEM;
	/* inside an object whose brace is not written */
	j->len = 0;
	j->depth = 1;
	j->first[0] = true;
	j->close[0] = '}';
	return 0;
}

char *json__frag_end(struct json *j)
{
	bool bad;

	while (j->depth > 1)
		json__close(j);
	flush(j);
	bad = ferror(j->fp);
	if (fclose(j->fp) || bad) {
		free(j->mem);
		j->mem = NULL;
	}
	j->fp = NULL;
	j->depth = 0;
	return j->mem;
}

void json__raw(struct json *j, const char *members)
{
	if (!members || !*members)
		return;
	member(j, NULL);
	put(j, members, strlen(members));
}
