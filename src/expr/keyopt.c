// SPDX-License-Identifier: GPL-2.0
/* The key group: -k EXPR, the key of every event without key= (expr/expr.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/conf.h"
#include "expr/expr.h"

/*
 * -k is checked before anything opens, whether or not an event uses it:
 * its syntax (the fields are checked against each event that takes it, by
 * the profiler), and that some event takes it (one without key=).
 */
static int key_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct key_opts *k = data;
	const struct event_opts *ev = opt_set__get(set, &event_group);
	struct expr_error e;
	int r, keyed = 0;

	if (!k->expr)
		return 0;
	r = expr__check_syntax(k->expr, &e);
	if (r) {
		if (r == -EINVAL)
			snprintf(err, errlen, "bad -k '%s' at column %d: %s", k->expr, e.col,
				 e.msg);
		else
			snprintf(err, errlen, "%s", strerror(-r));
		return -1;
	}
	for (int i = 0; ev && i < ev->nr_specs; i++)
		keyed += evspec__attr(&ev->specs[i], "key") != NULL;
	if (ev && ev->nr_specs && keyed == ev->nr_specs) {
		snprintf(err, errlen,
			 "-k '%s' keys no event: every -e has its own key= (drop -k, or key= "
			 "where -k should apply)",
			 k->expr);
		return -1;
	}
	return 0;
}

static const struct popt key_opts[] = {
	{ "key", 'k', "EXPR",
	  "the key of every event without key=EXPR (an expression over its fields, e.g. "
	  "common_pid)",
	  POPT_BIND_STR(struct key_opts, expr) },
	{ 0 },
};

const struct opt_group key_group = {
	.name = "key",
	.opts = key_opts,
	.size = sizeof(struct key_opts),
	.check = key_check,
};
