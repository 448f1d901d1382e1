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

/*
 * --json: the same event as one JSON line:
 *   {"type":"event","time_ns":N,"comm":"..","pid":N,"tid":N,"cpu":N,
 *    "event":"sys:name","fields":{...},"stack":[...]}
 * "fields" as evsel__json_fields decodes them, "stack" only when the
 * sample has one and stacks are resolved.
 */
void evline__json(struct session *s, struct evsel *ev, const struct sample *smp, FILE *out);

/*
 * The parts, for records that add members of their own:
 * evline__json_head begins the line on @out with "type":"event" and the
 * members below (the caller adds its own, then json__end()s it);
 * evline__json_members writes time_ns, comm, pid, tid, cpu and "event":
 * @name into @j's open object (an event inside another record).  @comm
 * NULL: the thread's comm at the sample's time.  evline__json_stack adds
 * "stack" as evline__json does.
 */
struct json;
void evline__json_head(struct json *j, FILE *out, struct session *s, const struct sample *smp,
		       const char *comm, const char *name);
void evline__json_members(struct json *j, struct session *s, const struct sample *smp,
			  const char *comm, const char *name);
void evline__json_stack(struct json *j, struct session *s, const struct sample *smp);

#endif
