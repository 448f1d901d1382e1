// SPDX-License-Identifier: GPL-2.0
/* Option groups: storing a parsed value, help lines, the -v/-q group. */
#include <stdio.h>
#include <string.h>

#include "util/list.h"
#include "util/opt.h"
#include "util/units.h"

void *opt_set__get(const struct opt_set *set, const struct opt_group *g)
{
	for (int i = 0; set && i < set->n; i++)
		if (set->e[i].g == g)
			return set->e[i].data;
	return NULL;
}

/* "1000", "60.5", "0.001": @ns in seconds, no trailing zeros. */
static void fmt_seconds(unsigned long long ns, char *buf, size_t len)
{
	unsigned long long frac = ns % 1000000000ULL;
	int digits = 9;

	if (!frac) {
		snprintf(buf, len, "%llu", ns / 1000000000ULL);
		return;
	}
	while (frac % 10 == 0)
		frac /= 10, digits--;
	snprintf(buf, len, "%llu.%0*llu", ns / 1000000000ULL, digits, frac);
}

/*
 * A bare number over POPT_BARE_MAX_NS: the original's later versions read a
 * bare --than or --period as ns, so "--than 1000000" meant 1ms there and
 * would be 1000s here.  Refused with both spellings.
 */
static int bare_too_long(const struct popt *o, const char *arg, const char *owner,
			 unsigned long long ns, char *err, size_t errlen)
{
	unsigned long long as_ns = 0;
	char secs[32], orig[32], ours[32], who[64];

	if (ns <= POPT_BARE_MAX_NS || !units__is_bare(arg))
		return 0;
	fmt_seconds(ns, secs, sizeof(secs));
	if (units__parse_time(arg, "ns", &as_ns))
		as_ns = 0;
	units__fmt_exact(as_ns, orig, sizeof(orig));
	units__fmt_exact(ns, ours, sizeof(ours));
	if (owner)
		snprintf(who, sizeof(who), "%s's", owner);
	else
		snprintf(who, sizeof(who), "this option's");
	snprintf(err, errlen, "--%s %s: %s s in %s unit (%s): write the unit, e.g. %s or %s",
		 o->lname, arg, secs, who, o->unit ? o->unit : "ms", orig, ours);
	return -1;
}

/* A control character of @arg (-1: none); a multi-line value may hold newlines and tabs. */
static int bad_char(const struct popt *o, const char *arg)
{
	if (!o->multiline)
		return text__control_char(arg);
	for (int i = 0; arg && arg[i]; i++) {
		unsigned char c = (unsigned char)arg[i];

		if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f)
			return i;
	}
	return -1;
}

int popt__set(const struct popt *o, void *data, const char *arg, char *err, size_t errlen)
{
	return popt__set_as(o, data, arg, NULL, err, errlen);
}

int popt__set_as(const struct popt *o, void *data, const char *arg, const char *owner, char *err,
		 size_t errlen)
{
	char *field = (char *)data + o->off;
	unsigned long long v;
	int bad = bad_char(o, arg);

	if (bad >= 0) {
		snprintf(err, errlen,
			 "bad --%s: control character 0x%02x at offset %d (values are printable "
			 "text)",
			 o->lname, (unsigned char)arg[bad], bad);
		return -1;
	}
	switch (o->type) {
	case POPT_FLAG:
		*(bool *)field = true;
		return 0;
	case POPT_STR:
		if (arg && !*arg && !o->empty_default) {
			snprintf(err, errlen, "--%s needs a value ('' given)", o->lname);
			return -1;
		}
		*(const char **)field = arg && !*arg ? NULL : arg;
		return 0;
	case POPT_COUNT:
		(*(int *)field)++;
		return 0;
	case POPT_UINT:
		if (units__parse_uint(arg, 0, ~0ULL, &v))
			break;
		if (v < o->min || (o->max && v > o->max)) {
			if (o->max)
				snprintf(err, errlen, "bad --%s '%s' (%llu..%llu)", o->lname, arg,
					 o->min, o->max);
			else
				snprintf(err, errlen, "bad --%s '%s' (at least %llu)", o->lname,
					 arg, o->min);
			return -1;
		}
		*(unsigned long long *)field = v;
		return 0;
	case POPT_TIME:
		if (units__parse_time(arg, o->unit ? o->unit : "ms", &v)) {
			snprintf(err, errlen,
				 "bad time '%s' for --%s (e.g. 100ms, 20us, 1.5s, 500ns)", arg,
				 o->lname);
			return -1;
		}
		if (bare_too_long(o, arg, owner, v, err, errlen))
			return -1;
		*(unsigned long long *)field = v;
		return 0;
	case POPT_CB:
		err[0] = 0;
		if (!o->cb(data, arg, err, errlen))
			return 0;
		if (!err[0])
			snprintf(err, errlen, "bad value '%s' for --%s", arg ? arg : "", o->lname);
		return -1;
	}
	snprintf(err, errlen, "bad value '%s' for --%s", arg ? arg : "", o->lname);
	return -1;
}

void popt__left(const struct popt *o, char *buf, size_t len)
{
	const char *a = o->argname;
	const char *sep = a && a[0] != '[' ? " " : "";
	char sh[8] = "    ";

	if (o->sname)
		snprintf(sh, sizeof(sh), "-%c, ", o->sname);
	snprintf(buf, len, "%s--%s%s%s%s%s", sh, o->lname, o->alias ? ", --" : "",
		 o->alias ? o->alias : "", sep, a ? a : "");
}

static const struct popt log_opts[] = {
	{ "verbose", 'v', NULL, "more messages (repeatable)",
	  POPT_BIND_COUNT(struct log_opts, verbose) },
	{ "quiet", 'q', NULL, "only errors on stderr", POPT_BIND_FLAG(struct log_opts, quiet) },
	{ "version", 'V', NULL, "print the version and exit",
	  POPT_BIND_FLAG(struct log_opts, version) },
	{ 0 },
};

const struct opt_group log_group = {
	.name = "log",
	.opts = log_opts,
	.size = sizeof(struct log_opts),
};
