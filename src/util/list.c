// SPDX-License-Identifier: GPL-2.0
/* Comma-separated option lists: see list.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/list.h"

int text__control_char(const char *s)
{
	for (int i = 0; s && s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return i;
	return -1;
}

/* Items [b, e) of @arg trimmed of spaces: the bounds of the next one from @b. */
static size_t item_end(const char *arg, size_t b)
{
	const char *c = strchr(arg + b, ',');

	return c ? (size_t)(c - arg) : strlen(arg);
}

static void trim(const char *arg, size_t *b, size_t *e)
{
	while (*b < *e && arg[*b] == ' ')
		(*b)++;
	while (*e > *b && arg[*e - 1] == ' ')
		(*e)--;
}

int list__split(const char *arg, const char *what, char ***items, int *nr, char *err,
		size_t errlen)
{
	size_t len = arg ? strlen(arg) : 0, b = 0, n = 1, k = 0;
	int bad = text__control_char(arg);
	char **out, *copy;

	if (!len) {
		snprintf(err, errlen, "bad %s list '': empty", what);
		return -1;
	}
	if (bad >= 0) {
		snprintf(err, errlen, "bad %s list: control character 0x%02x at offset %d", what,
			 (unsigned char)arg[bad], bad);
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		n += arg[i] == ',';
	/* the pointers, then the trimmed items each with its NUL */
	out = malloc((n + 1) * sizeof(*out) + len + 1);
	if (!out) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	copy = (char *)(out + n + 1);
	for (;;) {
		size_t e = item_end(arg, b), tb = b, te = e;

		trim(arg, &tb, &te);
		if (tb == te) {
			snprintf(err, errlen, "bad %s list '%s': empty item at offset %zu%s", what,
				 arg, b, e == len && b ? " (a trailing comma)" : "");
			free(out);
			return -1;
		}
		memcpy(copy, arg + tb, te - tb);
		copy[te - tb] = 0;
		out[k++] = copy;
		copy += te - tb + 1;
		if (e == len)
			break;
		b = e + 1;
	}
	out[k] = NULL;
	*items = out;
	*nr = (int)k;
	return 0;
}

int list__check(const char *arg, const char *what, char *err, size_t errlen)
{
	char **items;
	int nr;

	if (list__split(arg, what, &items, &nr, err, errlen))
		return -1;
	free(items);
	return 0;
}
