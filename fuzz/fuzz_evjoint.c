// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for evspec__parse_joint: -e lists with profilers as
 * event sources (joint analysis), PROFILER[/OPTIONS/[ATTR/...]] beside
 * ordinary events.  Checks, besides memory safety (ASan, UBSan):
 *  - an error points inside the input and has a terminated message;
 *  - a profiler item is one of the names given, has no system and no
 *    filter, its text starts with its name, and its options are trimmed
 *    and non-empty (or NULL);
 *  - an event item is what evspec__parse reads: a list evspec__parse
 *    takes is read the same with profilers allowed (no profiler in it),
 *    and with no names allowed the two parsers agree on the status.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/evspec.h"

static const char *const names[] = { "profile", "task-state", "page-faults", "trace", NULL };

static bool known(const char *name)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void check_spec(const struct ev_spec *s)
{
	size_t l;

	if (!s->name || !s->text)
		abort();
	if (!s->profiler) {
		if (!s->sys || s->options)
			abort();
		return;
	}
	if (s->sys || s->filter || !known(s->profiler) || strcmp(s->name, s->profiler) ||
	    strncmp(s->text, s->profiler, strlen(s->profiler)))
		abort();
	if (s->options) {
		l = strlen(s->options);
		if (!l || blank(s->options[0]) || blank(s->options[l - 1]))
			abort();
	}
	for (int j = 0; j < s->nr_attrs; j++)
		if (!s->attrs[j].key)
			abort();
}

static void check_err(int ret, const struct ev_spec_err *err, size_t size)
{
	if (ret != -EINVAL && ret != -ENOMEM)
		abort();
	if (ret == -EINVAL &&
	    (err->pos < -1 || err->pos > (int)size || !memchr(err->msg, '\0', sizeof(err->msg))))
		abort(); /* an error must point inside the input */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *str = malloc(size + 1);
	struct ev_spec *js = NULL, *ps = NULL, *ns = NULL;
	struct ev_spec_err err;
	int jn = 0, pn = 0, nn = 0, jr, pr, nr;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';

	jr = evspec__parse_joint(str, names, &js, &jn, &err);
	if (jr == 0) {
		for (int i = 0; i < jn; i++)
			check_spec(&js[i]);
	} else {
		check_err(jr, &err, size);
	}

	pr = evspec__parse(str, &ps, &pn, &err);
	if (pr == 0) {
		/* no item without ':': the same list, no profiler in it */
		if (jr != 0 || jn != pn)
			abort();
		for (int i = 0; i < pn; i++)
			if (js[i].profiler || strcmp(js[i].text, ps[i].text) ||
			    strcmp(js[i].sys, ps[i].sys) || strcmp(js[i].name, ps[i].name))
				abort();
	} else {
		check_err(pr, &err, size);
	}

	nr = evspec__parse_joint(str, NULL, &ns, &nn, &err);
	if ((nr == 0) != (pr == 0) || (nr == 0 && nn != pn))
		abort();

	if (jr == 0)
		evspec__free(js, jn);
	if (pr == 0)
		evspec__free(ps, pn);
	if (nr == 0)
		evspec__free(ns, nn);
	free(str);
	return 0;
}
