// SPDX-License-Identifier: GPL-2.0
/* The key group: -k EXPR, the key of every event without key= (expr/expr.h). */
#include "expr/expr.h"

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
};
