/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event specification parser: the text after -e.
 *
 *   LIST  := EVENT[,EVENT...]
 *   EVENT := POINT[/filter/[ATTR/...]]
 *   POINT := sys:name
 *          | kprobe:FUNC[+OFF] | kretprobe:FUNC
 *          | uprobe:FUNC[+OFF][@FILE] | uretprobe:FUNC[@FILE]
 *          | usdt:PROVIDER:NAME[@FILE]
 *   FILE  := "path" | 'path' | word      (a word: no '/', ',' or space)
 *   ATTR  := key | key=value
 *
 * Joint analysis: where the caller allows it (evspec__parse_joint), an
 * EVENT may also be PROFILER[/OPTIONS/[ATTR/...]]: a profiler's name (no
 * ':'), its command line between the first pair of '/' ("-F 99 -g"), then
 * attributes as for an event.
 *
 * sys and name are globs (* ? [a-z] [!x]), except for the dynamic probes,
 * whose sys is one of kprobe, kretprobe, uprobe, uretprobe, usdt: FUNC is a
 * symbol (or 0xADDR for uprobes, a virtual address in FILE), OFF a byte
 * offset, and their arguments take typed fetches as attributes
 * (argN=TYPE, retval=TYPE; TYPE one of u8..u64, s8..s64, x8..x64, string,
 * ustring, symbol), which evspec__check_attrs always allows.
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

enum ev_probe {
	EV_TP, /* a tracepoint (or any tracefs event: sys:name) */
	EV_KPROBE,
	EV_KRETPROBE,
	EV_UPROBE,
	EV_URETPROBE,
	EV_USDT,
};

/* kretprobe: and uretprobe: */
static inline bool ev_probe__is_return(enum ev_probe p)
{
	return p == EV_KRETPROBE || p == EV_URETPROBE;
}

static inline bool ev_probe__is_user(enum ev_probe p)
{
	return p == EV_UPROBE || p == EV_URETPROBE || p == EV_USDT;
}

/* "uprobe" for EV_UPROBE...; "" for EV_TP. */
const char *ev_probe__name(enum ev_probe p);

/* A typed fetch attribute of a probe: "arg1".."arg6", "retval" with a valid type. */
bool evspec__is_fetch_attr(const char *key);
bool evspec__is_fetch_type(const char *type);

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
	enum ev_probe probe;	   /* a dynamic probe (sys names it), or EV_TP */
	char *provider;		   /* usdt: the provider (name is the probe's name) */
	unsigned long long offset; /* +OFF of kprobe:/uprobe: */
	char *file;		   /* @FILE without its quotes, or NULL */
	char *text;		   /* the EVENT text as the user wrote it */
	int pos;		   /* which -e it came from (0..), set by the event group */
	/* joint analysis: a profiler as an event source (sys NULL, name its name) */
	char *profiler;
	char *options; /* its command line ("-F 99 -g"), or NULL */
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
/*
 * The same, with an item that is one of the NULL-terminated @profilers
 * names (and has no ':') read as a profiler: spec->profiler and
 * spec->options set, no filter.  @profilers NULL: as evspec__parse.
 */
int evspec__parse_joint(const char *str, const char *const *profilers, struct ev_spec **specs,
			int *nr, struct ev_spec_err *err);

/* Free what one spec holds (not the spec itself). */
void evspec__clear(struct ev_spec *spec);
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
