// SPDX-License-Identifier: GPL-2.0
/* JSON Lines writer: commas, nesting, escaping (util/json.h). */
#include "util/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at @s (@n bytes left), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void json__escape(FILE *fp, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t run = 0; /* bytes from s[i - run] that need no escape */

	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t u;

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			run++, i++;
			continue;
		}
		if (c >= 0x80 && (u = utf8_len(s + i, len - i))) {
			run += u, i += u;
			continue;
		}
		if (run)
			fwrite_unlocked(s + i - run, 1, run, fp);
		run = 0;
		i++;
		switch (c) {
		case '"':
			fputs_unlocked("\\\"", fp);
			break;
		case '\\':
			fputs_unlocked("\\\\", fp);
			break;
		case '\n':
			fputs_unlocked("\\n", fp);
			break;
		case '\t':
			fputs_unlocked("\\t", fp);
			break;
		case '\r':
			fputs_unlocked("\\r", fp);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(fp, "\\u%04x", c);
			else
				fputs_unlocked("\xef\xbf\xbd", fp); /* U+FFFD: not UTF-8 */
		}
	}
	if (run)
		fwrite_unlocked(s + len - run, 1, run, fp);
}

/*
 * The output is written by one thread: the stream's lock is not taken for
 * each character (a trace --json line is some fifty writes).
 */
static void put_str(FILE *fp, const char *s, size_t len)
{
	putc_unlocked('"', fp);
	json__escape(fp, s, len);
	putc_unlocked('"', fp);
}

/* @v in decimal, as fprintf's %llu would, cheaper. */
static void put_u64(FILE *fp, uint64_t v)
{
	char buf[24];
	int n = sizeof(buf);

	do
		buf[--n] = (char)('0' + v % 10);
	while (v /= 10);
	fwrite_unlocked(buf + n, 1, sizeof(buf) - n, fp);
}

/* "0x..." (lower case), as fprintf's "\"0x%llx\"" would. */
static void put_hex(FILE *fp, uint64_t v)
{
	char buf[24];
	int n = sizeof(buf);

	buf[--n] = '"';
	do
		buf[--n] = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	buf[--n] = 'x';
	buf[--n] = '0';
	buf[--n] = '"';
	fwrite_unlocked(buf + n, 1, sizeof(buf) - n, fp);
}

/* The comma and the key of the next member or element. */
static void member(struct json *j, const char *key)
{
	int d = j->depth - 1;

	if (d < 0)
		return;
	if (!j->first[d])
		putc_unlocked(',', j->fp);
	j->first[d] = false;
	if (key && j->close[d] == '}') {
		put_str(j->fp, key, strlen(key));
		putc_unlocked(':', j->fp);
	}
}

static void open_(struct json *j, const char *key, char o, char c)
{
	member(j, key);
	putc_unlocked(o, j->fp);
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
	open_(j, NULL, '{', '}');
	json__str(j, "type", type);
}

void json__close(struct json *j)
{
	if (j->depth <= 0)
		return;
	j->depth--;
	putc_unlocked(j->depth < JSON_MAX_DEPTH ? j->close[j->depth] : '}', j->fp);
}

void json__end(struct json *j)
{
	while (j->depth > 0)
		json__close(j);
	putc_unlocked('\n', j->fp);
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
	put_str(j->fp, s, len);
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
	put_u64(j->fp, v);
}

void json__i64(struct json *j, const char *key, int64_t v)
{
	member(j, key);
	if (v < 0)
		putc_unlocked('-', j->fp);
	put_u64(j->fp, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

void json__f64(struct json *j, const char *key, double v)
{
	member(j, key);
	if (isfinite(v))
		fprintf(j->fp, "%.15g", v);
	else
		fputs("null", j->fp);
}

void json__bool(struct json *j, const char *key, bool v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->fp);
}

void json__null(struct json *j, const char *key)
{
	member(j, key);
	fputs("null", j->fp);
}

void json__hex(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	put_hex(j->fp, v);
}

int json__frag_begin(struct json *j)
{
	j->mem = NULL;
	j->mem_len = 0;
	j->fp = open_memstream(&j->mem, &j->mem_len);
	if (!j->fp)
		return -ENOMEM;
	/* inside an object whose brace is not written */
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
	fputs(members, j->fp);
}
