// SPDX-License-Identifier: GPL-2.0
/*
 * Event names for counting mode (see evname.h for the grammar and for the
 * rule that tells a tracepoint's colon from a modifier's).
 *
 * Each event is parsed from its own NUL-terminated copy; a list is cut into
 * events first, commas inside a PMU's /.../ not counting.  A group is
 * scanned to its '}' before its members are parsed, so that the group's
 * modifiers are known when each member's attr and name are made.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/evname_int.h"

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The generic PERF_TYPE_SOFTWARE events, in PERF_COUNT_SW_* order. */
const struct evname_alias evname__sw[] = {
	{ "cpu-clock", NULL },
	{ "task-clock", NULL },
	{ "page-faults", "faults" },
	{ "context-switches", "cs" },
	{ "cpu-migrations", "migrations" },
	{ "minor-faults", NULL },
	{ "major-faults", NULL },
	{ "alignment-faults", NULL },
	{ "emulation-faults", NULL },
	{ "dummy", NULL },
	{ "bpf-output", NULL },
	{ "cgroup-switches", NULL },
};
const int evname__nr_sw = ARRAY_LEN(evname__sw);

/* The generic PERF_TYPE_HARDWARE events, in PERF_COUNT_HW_* order. */
const struct evname_alias evname__hw[] = {
	{ "cpu-cycles", "cycles" },
	{ "instructions", NULL },
	{ "cache-references", NULL },
	{ "cache-misses", NULL },
	{ "branch-instructions", "branches" },
	{ "branch-misses", NULL },
	{ "bus-cycles", NULL },
	{ "stalled-cycles-frontend", "idle-cycles-frontend" },
	{ "stalled-cycles-backend", "idle-cycles-backend" },
	{ "ref-cycles", NULL },
};
const int evname__nr_hw = ARRAY_LEN(evname__hw);

/*
 * Hardware cache events: CACHE[-OP][-RESULT] (OP and RESULT in either
 * order), config = cache | op << 8 | result << 16.  Matched without case,
 * as perf does.  Rows in PERF_COUNT_HW_CACHE_* order.
 */
static const char *const cache_types[][6] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data", NULL },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction", NULL },
	{ "LLC", "L2", NULL },
	{ "dTLB", "d-tlb", "Data-TLB", NULL },
	{ "iTLB", "i-tlb", "Instruction-TLB", NULL },
	{ "branch", "branches", "bpu", "btb", "bpc", NULL },
	{ "node", NULL },
};
static const char *const cache_ops[][6] = {
	{ "load", "loads", "read", NULL },
	{ "store", "stores", "write", NULL },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load", NULL },
};
static const char *const cache_results[][6] = {
	{ "refs", "Reference", "ops", "access", NULL },
	{ "misses", "miss", NULL },
};
/* Which ops (bit per PERF_COUNT_HW_CACHE_OP_*) each cache counts. */
static const unsigned char cache_ops_ok[] = { 7, 5, 7, 7, 1, 1, 7 };
static const char *const cache_op_words[] = { "loads", "stores", "prefetches" };

int evname__fail(struct evname_ctx *c, int ret, const char *fmt, ...)
{
	va_list ap;

	if (c->err && c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
		/* One line, whatever the user typed inside the names it quotes. */
		for (char *p = c->err; *p; p++)
			if ((unsigned char)*p < ' ' || *p == 0x7f)
				*p = '?';
	}
	return ret;
}

static int nomem(struct evname_ctx *c)
{
	return evname__fail(c, -ENOMEM, "out of memory parsing events");
}

/* A character for a message: itself when printable, else its code. */
static const char *show_char(char c, char *buf)
{
	if (c > ' ' && c < 127)
		snprintf(buf, 8, "'%c'", c);
	else
		snprintf(buf, 8, "0x%02x", (unsigned char)c);
	return buf;
}

static const char *skip_space(const char *s)
{
	while (evname__is_space(*s))
		s++;
	return s;
}

/* Length of s[0..n) without trailing white space. */
static size_t trim_len(const char *s, size_t n)
{
	while (n && evname__is_space(s[n - 1]))
		n--;
	return n;
}

/*
 * Offset of the end of the event at @s: the first ',', '{', '}' or NUL
 * outside a PMU's /.../; -1 when a '/' is left open.
 */
static long event_end(const char *s)
{
	bool in_pmu = false;
	const char *p;

	for (p = s; *p; p++) {
		if (*p == '/')
			in_pmu = !in_pmu;
		else if (!in_pmu && strchr(",{}", *p))
			break;
	}
	return in_pmu ? -1 : p - s;
}

int evname__check_mods(struct evname_ctx *c, const char *m, size_t n, const char *where)
{
	char ch[8];

	if (!n)
		return evname__fail(c, -EINVAL,
				    "empty modifier after ':' in '%s': use u, k, h, G or H", where);
	for (size_t i = 0; i < n; i++)
		if (!m[i] || !strchr("ukhGH", m[i]))
			return evname__fail(c, -EINVAL,
					    "bad modifier %s in '%s': use u (user), k (kernel), "
					    "h (hypervisor), G (guest) or H (host)",
					    show_char(m[i], ch), where);
	return 0;
}

/*
 * Naming any of u, k, h excludes the others (once: later letters add
 * modes back); G and H likewise.  An event that already excludes a mode
 * (a group member with its own modifiers) only gets modes added.
 */
void evname__apply_mods(struct perf_event_attr *a, const char *m, size_t n)
{
	bool ukh = a->exclude_user || a->exclude_kernel || a->exclude_hv;
	bool gh = a->exclude_guest || a->exclude_host;

	for (size_t i = 0; i < n; i++) {
		if (m[i] && strchr("ukh", m[i]) && !ukh) {
			a->exclude_user = a->exclude_kernel = a->exclude_hv = 1;
			ukh = true;
		}
		if (m[i] && strchr("GH", m[i]) && !gh) {
			a->exclude_guest = a->exclude_host = 1;
			gh = true;
		}
		switch (m[i]) {
		case 'u':
			a->exclude_user = 0;
			break;
		case 'k':
			a->exclude_kernel = 0;
			break;
		case 'h':
			a->exclude_hv = 0;
			break;
		case 'G':
			a->exclude_guest = 0;
			break;
		case 'H':
			a->exclude_host = 0;
			break;
		}
	}
}

static int find_alias(const struct evname_alias *t, int n, const char *w)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(t[i].name, w) || (t[i].alt && !strcmp(t[i].alt, w)))
			return i;
	return -1;
}

/* Length of the longest of @names that starts @s and is followed by '-' or the end. */
static size_t match_part(const char *s, const char *const *names)
{
	size_t best = 0;

	for (; *names; names++) {
		size_t l = strlen(*names);

		if (l > best && !strncasecmp(s, *names, l) && (s[l] == '-' || !s[l]))
			best = l;
	}
	return best;
}

static size_t match_row(const char *s, const char *const (*rows)[6], int nr, int *row)
{
	for (int i = 0; i < nr; i++) {
		size_t l = match_part(s, rows[i]);

		if (l) {
			*row = i;
			return l;
		}
	}
	return 0;
}

/* 1: a cache event in *config; 0: not one; -EINVAL: a cache that does not count that op. */
static int parse_cache(struct evname_ctx *c, const char *w, u64 *config)
{
	int type = -1, op = -1, res = -1, row;
	size_t l = match_row(w, cache_types, ARRAY_LEN(cache_types), &type);

	if (!l)
		return 0;
	w += l;
	while (*w) {
		w++; /* the '-' */
		if (op < 0 && (l = match_row(w, cache_ops, ARRAY_LEN(cache_ops), &row)))
			op = row;
		else if (res < 0 &&
			 (l = match_row(w, cache_results, ARRAY_LEN(cache_results), &row)))
			res = row;
		else
			return 0;
		w += l;
	}
	op = op < 0 ? PERF_COUNT_HW_CACHE_OP_READ : op;
	res = res < 0 ? PERF_COUNT_HW_CACHE_RESULT_ACCESS : res;
	if (!(cache_ops_ok[type] & (1 << op)))
		return evname__fail(c, -EINVAL,
				    "'%s': %s caches do not count %s: see perf-prof list", c->text,
				    cache_types[type][0], cache_op_words[op]);
	*config = (u64)type | (u64)op << 8 | (u64)res << 16;
	return 1;
}

/* rHEX: 1 with *config set, 0 when @w is not one, -EINVAL when it is too large. */
static int parse_raw(struct evname_ctx *c, const char *w, u64 *config)
{
	const char *d = w + 1;

	if (w[0] != 'r' || !w[1])
		return 0;
	for (const char *p = d; *p; p++)
		if (!evname__is_xdigit(*p))
			return 0;
	while (*d == '0' && d[1])
		d++;
	if (strlen(d) > 16)
		return evname__fail(c, -EINVAL, "raw event '%s' is more than 64 bits", c->text);
	*config = strtoull(d, NULL, 16);
	return 1;
}

/* A generic, cache or raw event: 1 with attr set, 0 when @w is none of these, or -errno. */
static int parse_known(struct evname_ctx *c, const char *w, struct evname *ev)
{
	u64 config = 0;
	int i, ret;

	if ((i = find_alias(evname__sw, evname__nr_sw, w)) >= 0) {
		ev->attr.type = PERF_TYPE_SOFTWARE;
		ev->attr.config = i;
		if (i == PERF_COUNT_SW_CPU_CLOCK || i == PERF_COUNT_SW_TASK_CLOCK) {
			ev->scale = 1e-6;
			snprintf(ev->unit, sizeof(ev->unit), "msec");
		}
		return 1;
	}
	if ((i = find_alias(evname__hw, evname__nr_hw, w)) >= 0) {
		ev->attr.type = PERF_TYPE_HARDWARE;
		ev->attr.config = i;
		return 1;
	}
	ret = parse_cache(c, w, &config);
	if (ret > 0)
		ev->attr.type = PERF_TYPE_HW_CACHE;
	if (!ret) {
		ret = parse_raw(c, w, &config);
		if (ret > 0)
			ev->attr.type = PERF_TYPE_RAW;
	}
	if (ret > 0)
		ev->attr.config = config;
	return ret;
}

static int set_tracepoint(struct evname_ctx *c, const char *sys, const char *tp, struct evname *ev)
{
	if (strpbrk(sys, "*?[") || strpbrk(tp, "*?["))
		return evname__fail(c, -EINVAL,
				    "'%s': tracepoint globs are not counted: name each one "
				    "(perf-prof list '%s:%s' shows them)",
				    c->text, sys, tp);
	if (!evname__is_word(sys) || !evname__is_word(tp))
		return evname__fail(
			c, -EINVAL,
			"bad tracepoint name '%s': SYS:NAME[:MODS] with letters, digits, "
			"'_', '-' and '.'",
			c->text);
	ev->sys = strdup(sys);
	ev->tp = strdup(tp);
	if (!ev->sys || !ev->tp)
		return nomem(c);
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	return 0;
}

/* An event without '/': NAME[:MODS], rHEX[:MODS] or SYS:NAME[:MODS].  @t is modified. */
static int parse_word(struct evname_ctx *c, char *t, struct evname *ev)
{
	char *colon = strchr(t, ':'), *mods = NULL;
	int ret;

	if (colon) {
		*colon = '\0';
		mods = colon + 1;
	}
	if (!*t)
		return evname__fail(c, -EINVAL,
				    "no event name before ':' in '%s': see perf-prof list",
				    c->text);
	ret = parse_known(c, t, ev);
	if (ret < 0)
		return ret;
	if (ret == 0 && !mods)
		return evname__fail(c, -EINVAL, "unknown event '%s': see perf-prof list", c->text);
	if (ret == 0) {
		/* A tracepoint: SYS:NAME[:MODS]. */
		char *tp = mods;

		mods = strchr(tp, ':');
		if (mods)
			*mods++ = '\0';
		ret = set_tracepoint(c, t, tp, ev);
		if (ret)
			return ret;
	}
	if (mods) {
		ret = evname__check_mods(c, mods, strlen(mods), c->text);
		if (ret)
			return ret;
		evname__apply_mods(&ev->attr, mods, strlen(mods));
		c->own_mods = true;
	}
	return 0;
}

void evname__clear(struct evname *ev)
{
	free(ev->sys);
	free(ev->tp);
	ev->sys = ev->tp = NULL;
}

/*
 * One event from s[0..n) (no leading or trailing space), with its group's
 * modifiers @gm[0..gn) (already checked) applied after its own.
 */
static int parse_one(struct evname_ctx *c, const char *s, size_t n, const char *gm, size_t gn,
		     struct evname *ev)
{
	char *t, *text, ch[8];
	const char *brace;
	int ret;

	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	ev->scale = 1.0;
	ev->leader = -1;
	/* @t is cut up by the parsers; @text stays whole for messages and the name. */
	t = strndup(s, n);
	text = strndup(s, n);
	c->text = text;
	c->custom = NULL;
	c->own_mods = false;
	if (!t || !text)
		ret = nomem(c);
	else if (!n)
		ret = evname__fail(c, -EINVAL, "empty event: name one (see perf-prof list)");
	else if ((brace = strpbrk(t, "{}")))
		ret = evname__fail(c, -EINVAL,
				   "unexpected %s in '%s': a group is {EVENT,EVENT...}[:MODS] "
				   "in an event list, and groups do not nest",
				   show_char(*brace, ch), text);
	else if (strchr(t, '/') && event_end(t) < 0)
		ret = evname__fail(c, -EINVAL, "missing '/' in '%s': a PMU event is PMU/TERMS/",
				   text);
	else if (strchr(t, '/'))
		ret = evname__parse_pmu(c, t, ev);
	else
		ret = parse_word(c, t, ev);
	if (!ret) {
		if (gn)
			evname__apply_mods(&ev->attr, gm, gn);
		snprintf(ev->name, sizeof(ev->name), "%s%s%.*s", c->custom ? c->custom : text,
			 gn && !c->own_mods ? ":" : "", (int)gn, gm ? gm : "");
	} else {
		evname__clear(ev);
	}
	free(t);
	free(text);
	c->text = NULL;
	c->custom = NULL;
	return ret;
}

int evname__parse(const char *text, struct evname *ev, char *err, size_t errlen)
{
	struct evname_ctx c = { .err = err, .errlen = errlen };
	const char *p = skip_space(text ? text : "");
	long e = event_end(p);

	memset(ev, 0, sizeof(*ev));
	ev->leader = -1;
	if (e >= 0 && p[e] == ',')
		return evname__fail(&c, -EINVAL, "'%s' is a list: one event expected", p);
	return parse_one(&c, p, trim_len(p, strlen(p)), NULL, 0, ev);
}

static int grow(struct evname_ctx *c, struct evname **arr, int n, int *cap)
{
	struct evname *a;

	if (n < *cap)
		return 0;
	if (n > (1 << 20))
		return evname__fail(c, -EINVAL, "too many events");
	*cap = n * 2 + 8;
	a = realloc(*arr, *cap * sizeof(*a));
	if (!a)
		return nomem(c);
	*arr = a;
	return 0;
}

/*
 * The group starting at @p (its '{'): *gend set to its '}', and its
 * modifiers to gm[0..gn).  Returns the offset after the modifiers or -errno.
 */
static long scan_group(struct evname_ctx *c, const char *list, const char *p, const char **gend,
		       const char **gm, size_t *gn)
{
	const char *q = p + 1;
	char ch[8];
	int ret;

	for (;;) {
		long e = event_end(q);

		if (e < 0)
			return evname__fail(c, -EINVAL,
					    "missing '/' in '%s': a PMU event is PMU/TERMS/", list);
		q += e;
		if (*q == '{')
			return evname__fail(c, -EINVAL, "nested group in '%s': groups do not nest",
					    list);
		if (!*q)
			return evname__fail(c, -EINVAL, "unbalanced braces in '%s': missing '}'",
					    list);
		if (*q == '}')
			break;
		q++;
	}
	*gend = q++;
	*gm = NULL;
	*gn = 0;
	if (*q == ':') {
		*gm = ++q;
		while (*q && *q != ',' && !evname__is_space(*q))
			q++;
		*gn = q - *gm;
		ret = evname__check_mods(c, *gm, *gn, list);
		if (ret)
			return ret;
	} else if (*q && *q != ',' && !evname__is_space(*q)) {
		return evname__fail(c, -EINVAL,
				    "unexpected %s after '}' in '%s': {...}:MODS or ','",
				    show_char(*q, ch), list);
	}
	return q - p;
}

int evname__parse_list(const char *text, struct evname **evs, int *nr, char *err, size_t errlen)
{
	struct evname_ctx c = { .err = err, .errlen = errlen };
	struct evname *arr = *evs;
	int base = *nr, n = *nr, cap = *nr, ret = 0;
	const char *p, *list = text ? text : "";
	char ch[8];

	p = skip_space(list);
	if (!*p)
		return evname__fail(&c, -EINVAL,
				    "empty event list: name events, e.g. cpu-clock,page-faults");
	for (;;) {
		p = skip_space(p);
		if (*p == '{') {
			const char *gend = NULL, *gm = NULL;
			size_t gn = 0;
			long after = scan_group(&c, list, p, &gend, &gm, &gn);
			int leader = n;

			if (after < 0) {
				ret = after;
				goto fail;
			}
			for (const char *q = p + 1; q <= gend;) {
				long e;

				q = skip_space(q);
				e = event_end(q);
				ret = grow(&c, &arr, n, &cap);
				if (!ret && !trim_len(q, e))
					ret = evname__fail(&c, -EINVAL,
							   "empty event in group '%.*s'",
							   (int)(gend - p + 1), p);
				if (!ret)
					ret = parse_one(&c, q, trim_len(q, e), gm, gn, &arr[n]);
				if (ret)
					goto fail;
				arr[n++].leader = leader;
				q += e + 1; /* past the ',' or the '}' */
			}
			p += after;
		} else {
			long e = event_end(p);

			if (e < 0) {
				ret = evname__fail(&c, -EINVAL,
						   "missing '/' in '%s': a PMU event is PMU/TERMS/",
						   list);
				goto fail;
			}
			if (p[e] == '}') {
				ret = evname__fail(&c, -EINVAL,
						   "unbalanced braces in '%s': '}' without '{'",
						   list);
				goto fail;
			}
			if (p[e] == '{') {
				ret = evname__fail(
					&c, -EINVAL,
					"unexpected '{' in '%s': a group starts an item, "
					"after a ','",
					list);
				goto fail;
			}
			if (!trim_len(p, e)) {
				ret = evname__fail(&c, -EINVAL,
						   "empty event in '%s': remove the extra ','",
						   list);
				goto fail;
			}
			ret = grow(&c, &arr, n, &cap);
			if (!ret)
				ret = parse_one(&c, p, trim_len(p, e), NULL, 0, &arr[n]);
			if (ret)
				goto fail;
			n++;
			p += e;
		}
		p = skip_space(p);
		if (!*p)
			break;
		if (*p != ',') {
			ret = evname__fail(&c, -EINVAL,
					   "unexpected %s in '%s': events are separated by ','",
					   show_char(*p, ch), list);
			goto fail;
		}
		p = skip_space(p + 1);
		if (!*p) {
			ret = evname__fail(&c, -EINVAL,
					   "empty event at the end of '%s': remove the last ','",
					   list);
			goto fail;
		}
	}
	*evs = arr;
	*nr = n;
	return 0;
fail:
	for (int i = base; i < n; i++)
		evname__clear(&arr[i]);
	*evs = arr;
	return ret;
}

void evname__free(struct evname *evs, int nr)
{
	if (!evs)
		return;
	for (int i = 0; i < nr; i++)
		evname__clear(&evs[i]);
	free(evs);
}

const char *evname__on_pmu(const char *list, const char *pmu, char *buf, size_t len)
{
	size_t n = 0, pl;

	if (!list || !pmu || !strcmp(pmu, "cpu"))
		return list;
	pl = strlen(pmu);
	for (const char *p = list; *p;) {
		/* "cpu/" where an event starts: the list's start, or after '{' or ',' */
		bool start = p == list || p[-1] == '{' || p[-1] == ',';

		if (start && !strncmp(p, "cpu/", 4)) {
			if (n + pl + 1 >= len)
				return NULL;
			memcpy(buf + n, pmu, pl);
			n += pl;
			p += 3; /* the '/' is copied next */
			continue;
		}
		if (n + 1 >= len)
			return NULL;
		buf[n++] = *p++;
	}
	buf[n] = 0;
	return buf;
}
