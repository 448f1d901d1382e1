// SPDX-License-Identifier: GPL-2.0
/*
 * Event specification parser (see evspec.h for the grammar).
 *
 * Everything works on byte offsets into the caller's whole string so that
 * every error can point at the exact byte, whichever event it is in.
 * Filters and attribute values are kept verbatim (quotes included): the
 * filter goes to the kernel/libtraceevent and values may be expressions
 * whose own parsers need the quotes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/evspec.h"
#include "util/list.h"

/* Matches PERF_MAX_STACK_DEPTH-sized limits; deeper chains are useless in reports. */
#define EVSPEC_MAX_STACK 1024

struct parser {
	const char *s;
	const char *const *profilers; /* evspec__parse_joint's names, or NULL */
	struct ev_spec_err *err;
	size_t alias_pos; /* offset of the current event's alias value */
};

static int fail(struct parser *p, size_t pos, const char *fmt, ...)
{
	va_list ap;

	p->err->pos = (int)pos;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Globs as fnmatch(3) and "perf-prof list" take them: * ? [a-z] [!x] [^x]. */
static int is_event_char(char c)
{
	return c && (is_alnum(c) || strchr("_*?[]!^-.", c) != NULL);
}

static int is_key_char(char c)
{
	return is_alnum(c) || c == '_' || c == '-' || c == '.';
}

/*
 * Find the first byte of s[i..end) that is one of @stops and not protected
 * by quotes, parentheses or the braces of CPUS{...}; *@out is @end when there is none.  The
 * event-level scan sees every byte first, so quote and parenthesis errors
 * always surface there, at the outermost offending byte.
 */
static int scan(struct parser *p, size_t i, size_t end, const char *stops, size_t *out)
{
	const char *s = p->s;
	size_t open_paren = 0;
	int depth = 0;

	while (i < end) {
		char c = s[i];

		if (c == '"' || c == '\'') {
			size_t q = i++;

			while (i < end && s[i] != c) {
				if (s[i] == '\\' && i + 1 < end)
					i++;
				i++;
			}
			if (i >= end)
				return fail(p, q, "unterminated %s quote",
					    c == '"' ? "double" : "single");
			i++;
			continue;
		}
		/* the kernel's CPUS{0-7:2/4,9}: its ',' and '/' are the list's */
		if (c == '{' && i >= 4 && !strncmp(s + i - 4, "CPUS", 4)) {
			const char *close = memchr(s + i, '}', end - i);

			if (close) {
				i = (size_t)(close - s) + 1;
				continue;
			}
		}
		if (c == '(') {
			if (depth++ == 0)
				open_paren = i;
		} else if (c == ')') {
			if (depth == 0)
				return fail(p, i, "unbalanced ')'");
			depth--;
		} else if (depth == 0 && strchr(stops, c)) {
			break;
		}
		i++;
	}
	if (depth)
		return fail(p, open_paren, "unbalanced '('");
	*out = i;
	return 0;
}

static void trim(const char *s, size_t *b, size_t *e)
{
	while (*b < *e && is_space(s[*b]))
		(*b)++;
	while (*e > *b && is_space(s[*e - 1]))
		(*e)--;
}

static char *dup_range(const char *s, size_t b, size_t e)
{
	return strndup(s + b, e - b);
}

/* Error text for one byte: fuzzers and typos both produce unprintable ones. */
static const char *show(char c, char buf[8])
{
	if (c >= ' ' && c < 127)
		snprintf(buf, 8, "'%c'", c);
	else
		snprintf(buf, 8, "0x%02x", (unsigned char)c);
	return buf;
}

static int check_ident(struct parser *p, size_t b, size_t e, const char *what)
{
	char buf[8];

	if (b == e)
		return fail(p, b, "empty %s name", what);
	for (size_t i = b; i < e; i++)
		if (!is_event_char(p->s[i]))
			return fail(p, i, "invalid character %s in %s name", show(p->s[i], buf),
				    what);
	return 0;
}

static int parse_max_stack(struct parser *p, size_t b, size_t e, int *v)
{
	long n = 0;

	if (b == e)
		goto bad;
	for (size_t i = b; i < e; i++) {
		if (p->s[i] < '0' || p->s[i] > '9')
			goto bad;
		n = n * 10 + (p->s[i] - '0');
		if (n > EVSPEC_MAX_STACK)
			goto bad;
	}
	if (n < 1)
		goto bad;
	*v = (int)n;
	return 0;
bad:
	return fail(p, b, "max-stack must be a number in 1..%d", EVSPEC_MAX_STACK);
}

/*
 * The original perf-prof's other spellings of attribute names: kept under
 * the one name every profiler looks up (top_by=x is top-by=x).
 */
static const struct {
	const char *other, *name;
} key_spellings[] = {
	{ "top_by", "top-by" },
	{ "top_add", "top-add" },
};

/* s[*b..*e) is a key: its usual spelling instead, if it has one (s itself, or a literal). */
static const char *canon_key(const char *s, size_t *b, size_t *e)
{
	for (size_t i = 0; i < sizeof(key_spellings) / sizeof(key_spellings[0]); i++) {
		const char *o = key_spellings[i].other;

		if (strlen(o) == *e - *b && !memcmp(s + *b, o, *e - *b)) {
			*b = 0;
			*e = strlen(key_spellings[i].name);
			return key_spellings[i].name;
		}
	}
	return s;
}

static bool has_key(const struct ev_spec *spec, const char *s, size_t b, size_t e)
{
	size_t len = e - b;

	if ((len == 5 && !memcmp(s + b, "stack", 5) && spec->stack) ||
	    (len == 9 && !memcmp(s + b, "max-stack", 9) && spec->max_stack) ||
	    (len == 5 && !memcmp(s + b, "alias", 5) && spec->alias) ||
	    (len == 4 && !memcmp(s + b, "cpus", 4) && spec->cpus))
		return true;
	for (int i = 0; i < spec->nr_attrs; i++)
		if (strlen(spec->attrs[i].key) == len && !memcmp(spec->attrs[i].key, s + b, len))
			return true;
	return false;
}

/* One ATTR in s[b..e), already trimmed and non-empty. */
static int parse_attr(struct parser *p, struct ev_spec *spec, size_t b, size_t e)
{
	const char *s = p->s;
	size_t kb = b, ke, vb = 0, ve = 0;
	const char *eq = memchr(s + b, '=', e - b);
	bool has_value = eq != NULL;
	struct ev_attr *a;
	char buf[8];
	int ret;

	ke = has_value ? (size_t)(eq - s) : e;
	trim(s, &kb, &ke);
	if (kb == ke)
		return fail(p, b, "missing attribute name before '='");
	for (size_t i = kb; i < ke; i++)
		if (!is_key_char(s[i]))
			return fail(p, i, "invalid character %s in attribute name",
				    show(s[i], buf));
	if (has_value) {
		vb = (size_t)(eq - s) + 1;
		ve = e;
		trim(s, &vb, &ve);
		if (vb == ve)
			return fail(p, (size_t)(eq - s), "empty value for attribute '%.*s'",
				    (int)(ke - kb), s + kb);
	}
	{
		size_t cb = kb, ce = ke;
		const char *c = canon_key(s, &cb, &ce);

		if (has_key(spec, c, cb, ce))
			return fail(p, kb, "duplicate attribute '%.*s'", (int)(ce - cb), c + cb);
	}

	if (ke - kb == 5 && !memcmp(s + kb, "stack", 5)) {
		if (has_value)
			return fail(p, (size_t)(eq - s), "attribute 'stack' takes no value");
		spec->stack = true;
		return 0;
	}
	if (ke - kb == 9 && !memcmp(s + kb, "max-stack", 9)) {
		if (!has_value)
			return fail(p, ke, "max-stack needs a value: max-stack=N");
		return parse_max_stack(p, vb, ve, &spec->max_stack);
	}
	if (ke - kb == 5 && !memcmp(s + kb, "alias", 5)) {
		if (!has_value)
			return fail(p, ke, "alias needs a value: alias=NAME");
		for (size_t i = vb; i < ve; i++)
			if (!is_key_char(s[i]))
				return fail(p, i, "invalid character %s in alias", show(s[i], buf));
		p->alias_pos = vb;
		spec->alias = dup_range(s, vb, ve);
		return spec->alias ? 0 : -ENOMEM;
	}

	if (ke - kb == 4 && !memcmp(s + kb, "cpus", 4)) {
		/* checked against this host's CPUs when the event is added */
		if (!has_value)
			return fail(p, ke, "cpus needs a value: cpus=LIST (e.g. cpus=0-3,5)");
		for (size_t i = vb; i < ve; i++)
			if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == ','))
				return fail(p, i, "invalid character %s in cpus=LIST",
					    show(s[i], buf));
		spec->cpus = dup_range(s, vb, ve);
		return spec->cpus ? 0 : -ENOMEM;
	}

	a = realloc(spec->attrs, (spec->nr_attrs + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	spec->attrs = a;
	a = &a[spec->nr_attrs];
	{
		size_t cb = kb, ce = ke;
		const char *c = canon_key(s, &cb, &ce);

		a->key = dup_range(c, cb, ce);
	}
	a->value = has_value ? dup_range(s, vb, ve) : NULL;
	ret = (!a->key || (has_value && !a->value)) ? -ENOMEM : 0;
	if (ret) {
		free(a->key);
		free(a->value);
		return ret;
	}
	spec->nr_attrs++;
	return 0;
}

/*
 * Is s[b..e) an attribute rather than a filter?  "stack", or "key=value"
 * with a single '=': a filter compares with "==".
 */
static bool looks_like_attr(const char *s, size_t b, size_t e)
{
	size_t i = b;

	while (i < e && is_key_char(s[i]))
		i++;
	if (i == b)
		return false;
	if (i == e) /* the one bare attribute */
		return e - b == 5 && !memcmp(s + b, "stack", 5);
	return s[i] == '=' && i + 1 < e && s[i + 1] != '=' && s[i + 1] != '~';
}

static const char *const probe_names[] = {
	[EV_TP] = "",		[EV_KPROBE] = "kprobe",	      [EV_KRETPROBE] = "kretprobe",
	[EV_UPROBE] = "uprobe", [EV_URETPROBE] = "uretprobe", [EV_USDT] = "usdt",
};

const char *ev_probe__name(enum ev_probe k)
{
	return (unsigned)k < sizeof(probe_names) / sizeof(probe_names[0]) ? probe_names[k] : "";
}

static enum ev_probe probe_kind(const char *s, size_t b, size_t e)
{
	for (unsigned k = EV_KPROBE; k <= EV_USDT; k++)
		if (strlen(probe_names[k]) == e - b && !memcmp(s + b, probe_names[k], e - b))
			return (enum ev_probe)k;
	return EV_TP;
}

/* Symbol names: C's, the linkers' local suffixes (.isra.0, .cold) and 0x addresses. */
static bool is_sym_char(char c)
{
	return is_alnum(c) || c == '_' || c == '.' || c == '$';
}

static int parse_offset(struct parser *p, size_t b, size_t e, unsigned long long *v)
{
	char buf[24], *end;

	if (b == e || e - b >= sizeof(buf) || p->s[b] == '-' || p->s[b] == '+')
		return fail(p, b, "expected a byte offset after '+' (e.g. +4 or +0x10)");
	memcpy(buf, p->s + b, e - b);
	buf[e - b] = 0;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	if (errno || *end)
		return fail(p, b, "expected a byte offset after '+' (e.g. +4 or +0x10)");
	return 0;
}

/*
 * The probe point of a kprobe:/uprobe:/usdt: event from s[b..e) (just
 * after "sys:"): FUNC[+OFF][@FILE] or PROVIDER:NAME[@FILE].  *@end gets
 * the first byte after it (a '/' or @e).
 */
static int parse_probe_point(struct parser *p, struct ev_spec *spec, size_t b, size_t e,
			     size_t *end)
{
	const char *s = p->s, *what = spec->probe == EV_USDT ? "provider" : "function";
	size_t i = b, nb, off_b = 0;
	char buf[8];

	/* a USDT provider may be a glob, for "perf-prof list 'usdt:*:*@FILE'" */
	while (i < e &&
	       (is_sym_char(s[i]) || (spec->probe == EV_USDT && (s[i] == '*' || s[i] == '?'))))
		i++;
	if (i == b)
		return fail(p, b, i < e ? "invalid character %s in %s name" : "empty %s name%s",
			    i < e ? show(s[i], buf) : what, i < e ? what : "");
	if (spec->probe == EV_USDT) {
		if (i == e || s[i] != ':')
			return fail(p, i,
				    "missing ':' between USDT provider and name "
				    "(usdt:PROVIDER:NAME@FILE)");
		spec->provider = dup_range(s, b, i);
		nb = ++i;
		while (i < e && (is_sym_char(s[i]) || s[i] == '*' || s[i] == '?'))
			i++;
		if (i == nb)
			return fail(p, i, "empty USDT probe name");
		spec->name = dup_range(s, nb, i);
	} else {
		spec->name = dup_range(s, b, i);
	}
	if (!spec->name || (spec->probe == EV_USDT && !spec->provider))
		return -ENOMEM;
	if (i < e && s[i] == '+') {
		if (spec->probe != EV_KPROBE && spec->probe != EV_UPROBE)
			return fail(p, i, "%s takes no +OFFSET", ev_probe__name(spec->probe));
		off_b = ++i;
		while (i < e && is_alnum(s[i]))
			i++;
		int ret = parse_offset(p, off_b, i, &spec->offset);

		if (ret)
			return ret;
	}
	if (i < e && s[i] == '@') {
		size_t fb = ++i, fe;

		if (spec->probe == EV_KPROBE || spec->probe == EV_KRETPROBE)
			return fail(p, i - 1, "a kernel probe takes no @FILE");
		if (i < e && (s[i] == '"' || s[i] == '\'')) {
			char q = s[i];

			fb = ++i;
			while (i < e && s[i] != q)
				i++;
			if (i == e)
				return fail(p, fb - 1, "unterminated quote in @FILE");
			fe = i++;
		} else {
			while (i < e && s[i] != '/' && !is_space(s[i]))
				i++;
			fe = i;
		}
		if (fb == fe)
			return fail(p, fb, "empty file name after '@'");
		spec->file = dup_range(s, fb, fe);
		if (!spec->file)
			return -ENOMEM;
	}
	if (i < e && s[i] != '/')
		return fail(p, i, "invalid character %s after the probe point", show(s[i], buf));
	*end = i;
	return 0;
}

static bool is_profiler(const struct parser *p, size_t b, size_t e)
{
	for (int i = 0; p->profilers && p->profilers[i]; i++)
		if (strlen(p->profilers[i]) == e - b && !strncmp(p->s + b, p->profilers[i], e - b))
			return true;
	return false;
}

static int parse_attrs(struct parser *p, struct ev_spec *spec, size_t i, size_t e);

/* PROFILER[/OPTIONS/[ATTR/...]] in s[b..e), its name in s[b..name_end). */
static int parse_profiler(struct parser *p, struct ev_spec *spec, size_t b, size_t name_end,
			  size_t e)
{
	const char *s = p->s;
	size_t ob, oe;
	int ret;

	spec->name = dup_range(s, b, name_end);
	spec->profiler = dup_range(s, b, name_end);
	if (!spec->name || !spec->profiler)
		return -ENOMEM;
	if (name_end == e)
		return 0;
	ret = scan(p, name_end + 1, e, "/", &oe);
	if (ret)
		return ret;
	if (oe == e)
		return fail(p, name_end, "unterminated options: missing closing '/'");
	ob = name_end + 1;
	trim(s, &ob, &oe);
	if (ob < oe && !(spec->options = dup_range(s, ob, oe)))
		return -ENOMEM;
	for (oe++; oe < e && is_space(s[oe]); oe++)
		;
	return parse_attrs(p, spec, oe, e);
}

/* One EVENT in s[b..e), already trimmed and non-empty. */
static int parse_event(struct parser *p, struct ev_spec *spec, size_t b, size_t e)
{
	const char *s = p->s;
	size_t colon, name_end, fb, fe, i;
	int ret;

	spec->text = dup_range(s, b, e);
	if (!spec->text)
		return -ENOMEM;

	for (name_end = b; name_end < e && s[name_end] != '/'; name_end++)
		;
	for (colon = b; colon < name_end && s[colon] != ':'; colon++)
		;
	if (colon == name_end && is_profiler(p, b, name_end))
		return parse_profiler(p, spec, b, name_end, e);
	if (colon == name_end)
		return fail(p, b, "missing ':' between system and name");
	ret = check_ident(p, b, colon, "system");
	if (ret)
		return ret;
	spec->sys = dup_range(s, b, colon);
	if (!spec->sys)
		return -ENOMEM;
	spec->probe = probe_kind(s, b, colon);
	if (spec->probe != EV_TP) {
		ret = parse_probe_point(p, spec, colon + 1, e, &name_end);
		if (ret)
			return ret;
	} else {
		ret = check_ident(p, colon + 1, name_end, "event");
		if (ret)
			return ret;
		spec->name = dup_range(s, colon + 1, name_end);
		if (!spec->name)
			return -ENOMEM;
	}
	if (name_end == e)
		return 0;

	ret = scan(p, name_end + 1, e, "/", &fe);
	if (ret)
		return ret;
	fb = name_end + 1;
	i = fe + 1;
	trim(s, &fb, &fe);
	if (looks_like_attr(s, fb, fe)) {
		/* sys:name/cpus=0/: no filter, attributes right away */
		i = fb;
	} else if (fe == e) {
		return fail(p, name_end, "unterminated filter: missing closing '/'");
	} else if (fb < fe) {
		spec->filter = dup_range(s, fb, fe);
		if (!spec->filter)
			return -ENOMEM;
	}

	return parse_attrs(p, spec, i, e);
}

/* ATTR/... in s[i..e) */
static int parse_attrs(struct parser *p, struct ev_spec *spec, size_t i, size_t e)
{
	const char *s = p->s;
	int ret;

	while (i < e) {
		size_t ab = i, ae;

		ret = scan(p, i, e, "/", &ae);
		if (ret)
			return ret;
		i = ae < e ? ae + 1 : e;
		trim(s, &ab, &ae);
		if (ab == ae)
			return fail(p, ab, "empty attribute");
		ret = parse_attr(p, spec, ab, ae);
		if (ret)
			return ret;
	}
	return 0;
}

void evspec__clear(struct ev_spec *spec)
{
	free(spec->sys);
	free(spec->name);
	free(spec->filter);
	free(spec->alias);
	free(spec->cpus);
	free(spec->text);
	free(spec->provider);
	free(spec->file);
	free(spec->profiler);
	free(spec->options);
	for (int i = 0; i < spec->nr_attrs; i++) {
		free(spec->attrs[i].key);
		free(spec->attrs[i].value);
	}
	free(spec->attrs);
}

void evspec__free(struct ev_spec *specs, int nr)
{
	if (!specs)
		return;
	for (int i = 0; i < nr; i++)
		evspec__clear(&specs[i]);
	free(specs);
}

/* An alias names one event for the whole session, so it must be unique across the list. */
static int check_alias_unique(struct parser *p, struct ev_spec *specs, int n)
{
	const char *alias = specs[n].alias;

	for (int i = 0; alias && i < n; i++)
		if (specs[i].alias && !strcmp(specs[i].alias, alias))
			return fail(p, p->alias_pos, "duplicate alias '%s'", alias);
	return 0;
}

/*
 * Is the ',' at @comma inside a "cpus=0,2" attribute value of the event
 * starting at @b?  Only there does a ',' not end the event: the last '/'
 * before it opens an attribute that starts with "cpus=" (not a filter: a
 * filter has no single '=').
 */
static bool in_cpus_value(const char *s, size_t b, size_t comma)
{
	size_t slash = comma, nslash = 0;

	if (s[comma] != ',')
		return false;
	for (size_t i = b; i < comma; i++)
		if (s[i] == '/') {
			slash = i;
			nslash++;
		}
	if (!nslash)
		return false;
	slash++;
	while (slash < comma && is_space(s[slash]))
		slash++;
	return !strncmp(s + slash, "cpus", 4) && s[slash + 4] == '=' && s[slash + 5] != '=' &&
	       s[comma + 1] >= '0' && s[comma + 1] <= '9';
}

int evspec__parse(const char *str, struct ev_spec **specs, int *nr, struct ev_spec_err *err)
{
	return evspec__parse_joint(str, NULL, specs, nr, err);
}

int evspec__parse_joint(const char *str, const char *const *profilers, struct ev_spec **specs,
			int *nr, struct ev_spec_err *err)
{
	struct ev_spec_err dummy;
	struct parser p = { .s = str, .profilers = profilers, .err = err ? err : &dummy };
	struct ev_spec *arr = NULL, *tmp;
	size_t len, i = 0;
	int n = 0, ret = 0, ctl;

	p.err->pos = -1;
	p.err->msg[0] = '\0';
	if (specs)
		*specs = NULL;
	if (nr)
		*nr = 0;
	if (!str || !specs || !nr) {
		snprintf(p.err->msg, sizeof(p.err->msg), "no event specification");
		return -EINVAL;
	}

	len = strlen(str);
	/* printable text only: a newline or a DEL would reach the kernel's filter parser */
	ctl = text__control_char(str);
	if (ctl >= 0)
		return fail(&p, (size_t)ctl, "control character 0x%02x (events are printable text)",
			    (unsigned char)str[ctl]);
	for (;;) {
		size_t b = i, e;

		ret = scan(&p, i, len, ",", &e);
		while (!ret && in_cpus_value(str, b, e))
			ret = scan(&p, e + 1, len, ",", &e);
		if (ret)
			goto out;
		i = e;
		trim(str, &b, &e);
		if (b == e) {
			ret = fail(&p, b, "empty event");
			goto out;
		}
		tmp = realloc(arr, (n + 1) * sizeof(*arr));
		if (!tmp) {
			ret = -ENOMEM;
			goto out;
		}
		arr = tmp;
		memset(&arr[n], 0, sizeof(arr[n]));
		n++;
		ret = parse_event(&p, &arr[n - 1], b, e);
		if (!ret)
			ret = check_alias_unique(&p, arr, n - 1);
		if (ret)
			goto out;
		if (i >= len)
			break;
		i++; /* the ',' */
	}
	*specs = arr;
	*nr = n;
	return 0;
out:
	if (ret == -ENOMEM) {
		p.err->pos = -1;
		snprintf(p.err->msg, sizeof(p.err->msg), "out of memory");
	}
	evspec__free(arr, n);
	return ret;
}

const char *evspec__attr(const struct ev_spec *spec, const char *key)
{
	if (!spec || !key)
		return NULL;
	for (int i = 0; i < spec->nr_attrs; i++)
		if (!strcmp(spec->attrs[i].key, key))
			return spec->attrs[i].value ? spec->attrs[i].value : "";
	return NULL;
}

static const char *const fetch_types[] = {
	"u8", "u16", "u32", "u64", "s8",     "s16",	"s32",	  "s64",
	"x8", "x16", "x32", "x64", "string", "ustring", "symbol", NULL,
};

bool evspec__is_fetch_type(const char *type)
{
	for (int i = 0; type && fetch_types[i]; i++)
		if (!strcmp(type, fetch_types[i]))
			return true;
	return false;
}

bool evspec__is_fetch_attr(const char *key)
{
	return !strcmp(key, "retval") ||
	       (!strncmp(key, "arg", 3) && key[3] >= '1' && key[3] <= '6' && !key[4]);
}

/* argN=TYPE / retval=TYPE of a probe: where they apply and which types. */
static int check_fetch(const struct ev_spec *spec, const struct ev_attr *a, struct ev_spec_err *err)
{
	const char *why = NULL;

	if (spec->probe == EV_USDT)
		why = "a USDT probe's arguments are typed by its note: use arg1.. as they are";
	else if (!strcmp(a->key, "retval") && !ev_probe__is_return(spec->probe))
		why = "retval is the value of a return probe (kretprobe:, uretprobe:)";
	else if (strcmp(a->key, "retval") && ev_probe__is_return(spec->probe))
		why = "a return probe has no arguments: retval=TYPE";
	else if (!a->value || !evspec__is_fetch_type(a->value))
		why = "the type is one of u8..u64, s8..s64, x8..x64, string, ustring, symbol";
	if (!why)
		return 0;
	if (err) {
		err->pos = -1;
		snprintf(err->msg, sizeof(err->msg), "%s=%s: %s", a->key, a->value ? a->value : "",
			 why);
	}
	return -EINVAL;
}

int evspec__check_attrs(const struct ev_spec *spec, const char *const *allowed,
			struct ev_spec_err *err)
{
	for (int i = 0; spec && i < spec->nr_attrs; i++) {
		const char *key = spec->attrs[i].key;
		bool ok = false;

		if (spec->probe != EV_TP && evspec__is_fetch_attr(key)) {
			if (check_fetch(spec, &spec->attrs[i], err))
				return -EINVAL;
			continue;
		}

		for (int j = 0; allowed && allowed[j]; j++)
			if (!strcmp(allowed[j], key))
				ok = true;
		if (ok)
			continue;
		if (err) {
			/* The spec keeps no offsets; the CLI quotes spec->text instead. */
			err->pos = -1;
			snprintf(err->msg, sizeof(err->msg), "unknown attribute '%s' for %s%s%s",
				 key, spec->sys ? spec->sys : "", spec->sys ? ":" : "", spec->name);
		}
		return -EINVAL;
	}
	if (err) {
		err->pos = -1;
		err->msg[0] = '\0';
	}
	return 0;
}
