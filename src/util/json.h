/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --json: one JSON object per line (JSON Lines), for log pipelines.  A
 * writer over a stdio stream that places the commas, nests objects and
 * arrays, and escapes strings (a line is composed in struct json's buffer
 * and written to the stream at json__end, or as the buffer fills: nothing
 * else may write to the stream between json__begin and json__end):
 *   - '"', '\\' and the control characters are escaped (\n, \t, \u001b);
 *   - valid UTF-8 passes through; a byte that is not part of valid UTF-8
 *     (a comm can hold any byte) becomes U+FFFD, so the line always parses;
 *   - a number that is not finite (NaN, inf) is written as null.
 *
 * Every line is an object whose first member is "type" (the record kind:
 * "event", "interval", "row", "summary", "lost", ...).  Names follow one
 * vocabulary across profilers (README, "JSON output"): times and durations
 * in nanoseconds with an "_ns" suffix, counts as integers.
 *
 *   struct json j;
 *   json__begin(&j, fp, "row");
 *   json__str(&j, "comm", comm);
 *   json__u64(&j, "total_ns", total);
 *   json__arr(&j, "stack");
 *   json__str(&j, NULL, "main");   (NULL key: an array element)
 *   json__end(&j);                 (closes what is open, then "}\n")
 */
#ifndef PP_JSON_H
#define PP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *fp;
	char *mem; /* json__frag_begin's buffer */
	size_t mem_len;
	int depth;		    /* open objects and arrays, the line's own included */
	bool first[JSON_MAX_DEPTH]; /* nothing written yet at this depth */
	char close[JSON_MAX_DEPTH]; /* '}' or ']' */
	/* the line so far, written to @fp at json__end (or when it fills) */
	size_t len;
	char buf[4096];
};

/* Start a line: '{"type":"@type"'. */
void json__begin(struct json *j, FILE *fp, const char *type);
/* Close everything still open and end the line. */
void json__end(struct json *j);

/* Members (@key) of the open object, or elements (@key NULL) of the open array. */
void json__str(struct json *j, const char *key, const char *s); /* NULL: null */
void json__strn(struct json *j, const char *key, const char *s, size_t len);
void json__u64(struct json *j, const char *key, uint64_t v);
void json__i64(struct json *j, const char *key, int64_t v);
void json__f64(struct json *j, const char *key, double v); /* 15 significant digits */
void json__bool(struct json *j, const char *key, bool v);
void json__null(struct json *j, const char *key);
/* "0x%llx" as a string: addresses (a JSON number cannot hold them exactly everywhere). */
void json__hex(struct json *j, const char *key, uint64_t v);
/* Open a nested object or array; json__close() ends the innermost one. */
void json__obj(struct json *j, const char *key);
void json__arr(struct json *j, const char *key);
void json__close(struct json *j);

/*
 * Members written to memory once, to be written again in many lines (a
 * table row's key): json__frag_begin(&j), members as above, then
 * json__frag_end(&j) returns them as text ("\"state\":\"S\",\"tid\":12",
 * malloc'd; NULL when out of memory); json__raw(&j, text) writes such text
 * into the open object.  json__frag_begin: 0 or -ENOMEM.
 */
int json__frag_begin(struct json *j);
char *json__frag_end(struct json *j);
void json__raw(struct json *j, const char *members);

/* @s (@len bytes) as the inside of a JSON string (no quotes), escaped as above. */
void json__escape(FILE *fp, const char *s, size_t len);

#endif
