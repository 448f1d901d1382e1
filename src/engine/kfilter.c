// SPDX-License-Identifier: GPL-2.0
/* Kernel tracepoint filters from clauses: see kfilter.h. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/kfilter.h"

/*
 * The longest glob: comm_match's buffer.  The kernel matches longer ones;
 * they are refused rather than matched differently.
 */
#define GLOB_MAX 63

bool kfilter__globs_ok(const char *globs)
{
	const char *p = globs, *start = globs;

	if (!globs || !*globs)
		return false;
	for (; *p; p++) {
		if (strchr("\"\\()&|", *p))
			return false;
		/*
		 * fnmatch negates a set with [^ as with [!; the kernel's glob
		 * only knows [! (^ is a member of the set).
		 */
		if (p[0] == '[' && p[1] == '^')
			return false;
		/* an empty glob: ",a", "a,,b", "a," */
		if (*p == ',' && (p == globs || p[1] == ',' || !p[1]))
			return false;
		if (*p == ',')
			start = p + 1;
		else if (p - start >= GLOB_MAX)
			return false;
	}
	return true;
}

bool kfilter__comm_match(const char *globs, const char *comm)
{
	const char *p = globs, *e;
	char pat[GLOB_MAX + 1];

	/* globs the kernel filter cannot have match nothing, as the filter is refused */
	if (!kfilter__globs_ok(globs))
		return false;
	while (*p) {
		e = strchrnul(p, ',');
		memcpy(pat, p, e - p);
		pat[e - p] = 0;
		if (!fnmatch(pat, comm, 0))
			return true;
		p = *e ? e + 1 : e;
	}
	return false;
}

/* Build with open_memstream: one FILE, one buffer. */
static char *finish(FILE *fp, char **buf)
{
	/* fclose sets *buf */
	if (fclose(fp)) {
		free(*buf);
		errno = ENOMEM;
		return NULL;
	}
	return *buf;
}

char *kfilter__comm_globs(const char *field, const char *globs)
{
	const char *p, *e;
	size_t len = 0;
	char *buf = NULL;
	FILE *fp;
	int n = 0;

	if (!globs)
		return strdup("");
	if (!kfilter__globs_ok(globs)) {
		errno = EINVAL;
		return NULL;
	}
	fp = open_memstream(&buf, &len);
	if (!fp)
		return NULL;
	fputc('(', fp);
	for (p = globs; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ',');
		fprintf(fp, "%s%s ~ \"%.*s\"", n++ ? " || " : "", field, (int)(e - p), p);
	}
	fputc(')', fp);
	return finish(fp, &buf);
}

char *kfilter__ints(const char *field, const int *vals, int n)
{
	size_t len = 0;
	char *buf = NULL;
	FILE *fp;

	if (n <= 0)
		return strdup("");
	fp = open_memstream(&buf, &len);
	if (!fp)
		return NULL;
	fputc('(', fp);
	for (int i = 0; i < n; i++)
		fprintf(fp, "%s%s == %d", i ? " || " : "", field, vals[i]);
	fputc(')', fp);
	return finish(fp, &buf);
}

char *kfilter__and(const char *a, const char *b)
{
	char *out;

	if (!*a)
		return strdup(b);
	if (!*b)
		return strdup(a);
	if (asprintf(&out, "%s && %s", a, b) < 0)
		return NULL;
	return out;
}

char *kfilter__or(const char *a, const char *b)
{
	char *out;

	if (!*a || !*b) /* one side without a condition: everything passes */
		return strdup("");
	if (asprintf(&out, "(%s) || (%s)", a, b) < 0)
		return NULL;
	return out;
}

static char *trimmed(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return strndup(s, n);
}

/* The first "@c@c" of @p outside quotes and parentheses, or NULL. */
static const char *top_level_op(const char *p, char c)
{
	char quote = 0; /* the kernel's strings: in '' or "", without escapes */
	int depth = 0;

	for (; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			depth--;
		} else if (!depth && p[0] == c && p[1] == c) {
			return p;
		}
	}
	return NULL;
}

char **kfilter__clauses(const char *filter)
{
	char **list = calloc(strlen(filter) / 2 + 2, sizeof(*list));
	const char *p = filter, *op;
	int n = 0;

	if (!list)
		return NULL;
	/* "a || b && c" is a || (b && c): with a top-level ||, one clause */
	if (top_level_op(filter, '|')) {
		if (!(list[0] = trimmed(filter, strlen(filter))))
			goto fail;
		return list;
	}
	for (; (op = top_level_op(p, '&')); p = op + 2)
		if (!(list[n++] = trimmed(p, op - p)))
			goto fail;
	if (!(list[n] = trimmed(p, strlen(p))))
		goto fail;
	return list;
fail:
	kfilter__free_list(list);
	return NULL;
}

void kfilter__free_list(char **list)
{
	if (!list)
		return;
	for (char **p = list; *p; p++)
		free(*p);
	free(list);
}

bool kfilter__kernel_differs(const char *filter)
{
	return filter && strstr(filter, "[^") != NULL;
}
