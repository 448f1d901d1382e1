// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the command-line parsers: event specs (and the
 * syntax check of their filters), option lists (util/list.h), option
 * values (popt__set), CPU lists and durations all come straight from users
 * and scripts.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cpulist.h"
#include "engine/evspec.h"
#include "expr/expr.h"
#include "util/list.h"
#include "util/opt.h"
#include "util/units.h"

struct vals {
	const char *s;
	unsigned long long n, t;
};

static const struct popt opts[] = {
	{ .lname = "str", POPT_BIND_STR(struct vals, s) },
	{ .lname = "num", POPT_BIND_UINT(struct vals, n), POPT_RANGE(1, 100000) },
	{ .lname = "time", POPT_BIND_TIME_MS(struct vals, t) },
	{ 0 },
};

/* The items of a list: non-empty, trimmed, no comma, no control character. */
static void lists(const char *str, size_t size)
{
	char err[256], **items;
	int nr;

	if (list__split(str, "fuzz", &items, &nr, err, sizeof(err))) {
		if (!memchr(err, '\0', sizeof(err)))
			abort();
		return;
	}
	if (nr < 1 || (size_t)nr > size + 1 || items[nr])
		abort();
	for (int i = 0; i < nr; i++) {
		size_t l = strlen(items[i]);

		if (!l || strchr(items[i], ',') || items[i][0] == ' ' || items[i][l - 1] == ' ' ||
		    text__control_char(items[i]) >= 0)
			abort();
	}
	free(items);
}

static void values(const char *str)
{
	struct vals v = { 0 };
	char err[256];

	for (int i = 0; opts[i].lname; i++)
		if (!popt__set(&opts[i], &v, str, err, sizeof(err)) &&
		    text__control_char(str) >= 0)
			abort(); /* a control character is never a value */
	if (v.n && (v.n < 1 || v.n > 100000))
		abort();
}

/* Touch every field so ASan sees any dangling or unterminated string. */
static size_t walk(const struct ev_spec *specs, int nr)
{
	size_t sum = 0;

	for (int i = 0; i < nr; i++) {
		const struct ev_spec *s = &specs[i];

		sum += strlen(s->sys) + strlen(s->name) + strlen(s->text);
		sum += s->filter ? strlen(s->filter) : 0;
		sum += s->alias ? strlen(s->alias) : 0;
		sum += (size_t)s->max_stack + s->stack;
		for (int j = 0; j < s->nr_attrs; j++) {
			sum += strlen(s->attrs[j].key);
			sum += s->attrs[j].value ? strlen(s->attrs[j].value) : 0;
		}
		if (s->nr_attrs)
			sum += evspec__attr(s, s->attrs[0].key) != NULL;
	}
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const allowed[] = { "key", "size", NULL };
	char *str = malloc(size + 1);
	struct ev_spec_err err;
	struct ev_spec *specs;
	unsigned long long ns;
	int nr, *cpus, n;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';

	if (evspec__parse(str, &specs, &nr, &err) == 0) {
		volatile size_t sink = walk(specs, nr);

		(void)sink;
		for (int i = 0; i < nr; i++) {
			struct expr_error ee;

			evspec__check_attrs(&specs[i], allowed, &err);
			if (specs[i].filter &&
			    expr__check_filter(specs[i].filter, &ee) == -EINVAL &&
			    (ee.col < 0 || ee.col > (int)strlen(specs[i].filter)))
				abort();
		}
		evspec__free(specs, nr);
	} else if (err.pos < -1 || err.pos > (int)size || !memchr(err.msg, '\0', sizeof(err.msg))) {
		abort(); /* an error must point inside the input */
	}

	n = cpulist__parse(str, 4096, &cpus);
	if (n > 0) {
		for (int i = 1; i < n; i++)
			if (cpus[i] <= cpus[i - 1] || cpus[i] >= 4096)
				abort();
		free(cpus);
	}

	if (text__control_char(str) >= 0 && evspec__parse(str, &specs, &nr, &err) != -EINVAL)
		abort(); /* control characters are refused */
	lists(str, size);
	values(str);
	units__parse_time(str, "ms", &ns);
	units__parse_uint(str, 0, 1000, &ns);
	free(str);
	return 0;
}
