/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by evname.c (lists, groups, names) and evname_pmu.c (PMU/TERMS/). */
#ifndef PP_EVNAME_INT_H
#define PP_EVNAME_INT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/evname.h"

typedef __u64 u64;

struct evname_ctx {
	char *err;
	size_t errlen;
	const char *text;   /* the event being parsed, whole, for messages */
	const char *custom; /* name=TEXT */
	bool own_mods;	    /* the event has modifiers of its own */
};

/* Writes the message into the caller's error buffer; returns @ret. */
__attribute__((format(printf, 3, 4))) int evname__fail(struct evname_ctx *c, int ret,
						       const char *fmt, ...);
int evname__check_mods(struct evname_ctx *c, const char *m, size_t n, const char *where);
void evname__apply_mods(struct perf_event_attr *a, const char *m, size_t n);
/* PMU/TERM,.../[[:]MODS] in @t (cut up); attr, scale, unit, c->custom, c->own_mods set. */
int evname__parse_pmu(struct evname_ctx *c, char *t, struct evname *ev);

static inline bool evname__is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static inline bool evname__is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static inline bool evname__is_xdigit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A sysfs or tracefs name: no '/', no leading '.', so never a path out of its directory. */
static inline bool evname__is_word(const char *s)
{
	if (!evname__is_alnum(*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!evname__is_alnum(*s) && !strchr("_-.", *s))
			return false;
	return true;
}

#endif
