// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the command-line parsers: event specs, CPU lists
 * and durations all come straight from users and scripts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cpulist.h"
#include "engine/evspec.h"
#include "util/units.h"

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
		for (int i = 0; i < nr; i++)
			evspec__check_attrs(&specs[i], allowed, &err);
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

	units__parse_time(str, "ms", &ns);
	units__parse_uint(str, 0, 1000, &ns);
	free(str);
	return 0;
}
