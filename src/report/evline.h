/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The head of one event line, as trace prints it and as the profilers that
 * print single events (num-dist --than, expr) do, so they read the same:
 *
 *   TIME                       COMM     TID [CPU] NAME: 
 *
 * as printf("%s %16s %7u [%03u] %s: ") would, cheaper.  @ts is 26
 * characters (session__fmt_time).
 */
#ifndef PP_EVLINE_H
#define PP_EVLINE_H

#include <stdint.h>
#include <stdio.h>

void evline__head(FILE *out, const char *ts, const char *comm, uint32_t tid, uint32_t cpu,
		  const char *name);

struct session;
struct evsel;
struct sample;
/*
 * One whole event as trace prints it: @prefix (NULL: none), the head, the
 * payload in the kernel's format, and its stack under it (indented) if it
 * has one and stacks are resolved.
 */
void evline__print(struct session *s, struct evsel *ev, const struct sample *smp, FILE *out,
		   const char *prefix);

#endif
