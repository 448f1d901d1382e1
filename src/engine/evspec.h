/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event specification parser: the text after -e.
 *
 *   LIST  := EVENT[,EVENT...]
 *   EVENT := sys:name[/filter/[ATTR/...]]
 *   ATTR  := key | key=value
 *
 * sys and name are globs (* ? [a-z] [!x]). *
 * Quotes ('..' or "..") and parentheses protect '/' and ',' inside a filter
 * and inside attribute values.  "//" is an empty filter (no filter).  The
 * parser is pure: it allocates, never prints, never exits, and reports the
 * position of the first error so the CLI can point at it.
 */
#ifndef PP_EVSPEC_H
#define PP_EVSPEC_H

#include <stdbool.h>
#include <stddef.h>

struct ev_attr {
	char *key;
	char *value; /* NULL for a bare key such as "stack" */
};

struct ev_spec {
	char *sys;	       /* "sched" (may contain glob characters) */
	char *name;	       /* "sched_switch" (may contain glob characters) */
	char *filter;	       /* NULL when absent or "//" */
	char *alias;	       /* alias=NAME, or NULL */
	bool stack;	       /* "stack" attribute: capture the callchain */
	int max_stack;	       /* max-stack=N, 0 when not given */
	char *cpus;	       /* cpus=LIST: open only on these CPUs (NULL: all) */
	struct ev_attr *attrs; /* every other attribute, in order */
	int nr_attrs;
	char *text; /* the EVENT text as the user wrote it */
	int pos;    /* which -e it came from (0..), set by the event group */
};

struct ev_spec_err {
	int pos;       /* byte offset into the input of the problem, -1 if none */
	char msg[128]; /* what is wrong, e.g. "missing ':' between system and name" */
};

/*
 * Parse @str into a newly allocated array of @nr specs.
 * Returns 0, or -EINVAL with @err filled, or -ENOMEM.
 * Known attributes (stack, max-stack=N, alias=NAME, cpus=LIST) are checked here;
 * every other attribute is kept in attrs[] for the caller to validate
 * (see evspec__check_attrs).
 */
int evspec__parse(const char *str, struct ev_spec **specs, int *nr, struct ev_spec_err *err);

/* Free an array returned by evspec__parse (NULL is fine). */
void evspec__free(struct ev_spec *specs, int nr);

/* Value of attribute @key (NULL if absent; "" for a bare key). */
const char *evspec__attr(const struct ev_spec *spec, const char *key);

/*
 * Check that every attribute of @spec is one of the NULL-terminated
 * @allowed keys.  Returns 0, or -EINVAL and names the bad key in @err.
 */
int evspec__check_attrs(const struct ev_spec *spec, const char *const *allowed,
			struct ev_spec_err *err);

#endif
