/* SPDX-License-Identifier: GPL-2.0 */
/* "perf-prof list PROBE": what a kprobe:/uprobe:/usdt: spec resolves to. */
#ifndef PP_LIST_PROBE_H
#define PP_LIST_PROBE_H

#include <stdbool.h>

bool list_probe__is_probe(const char *arg);
/* Print the sites of @arg; the exit status (0, 1 run time, 2 usage). */
int list_probe(const char *arg);

#endif
