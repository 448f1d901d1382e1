// SPDX-License-Identifier: GPL-2.0
/* Kernel tracepoint filters from clauses: see kfilter.h. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/kfilter.h"

bool kfilter__globs_ok(const char *globs)
{
	const char *p = globs;

	if (!globs || !*globs)
		return false;
	for (; *p; p++) {
		if (strchr("\"\\()&|", *p))
			return false;
		/* an empty glob: ",a", "a,,b", "a," */
		if (*p == ',' && (p == globs || p[1] == ',' || !p[1]))
			return false;
	}
	return true;
}

bool kfilter__comm_match(const char *globs, const char *comm)
{
	const char *p = globs, *e;
	char pat[64];

	while (*p) {
		e = strchrnul(p, ',');
		if ((size_t)(e - p) < sizeof(pat)) {
			memcpy(pat, p, e - p);
			pat[e - p] = 0;
			if (!fnmatch(pat, comm, 0))
				return true;
		}
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

char **kfilter__clauses(const char *filter)
{
	char **list = calloc(strlen(filter) / 2 + 2, sizeof(*list));
	const char *p = filter, *start = filter;
	int depth = 0, n = 0;
	bool quoted = false;

	if (!list)
		return NULL;
	for (; *p; p++) {
		if (quoted) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				quoted = false;
		} else if (*p == '"') {
			quoted = true;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			depth--;
		} else if (!depth && p[0] == '&' && p[1] == '&') {
			if (!(list[n++] = trimmed(start, p - start)))
				goto fail;
			start = ++p + 1;
		}
	}
	if (!(list[n] = trimmed(start, p - start)))
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
