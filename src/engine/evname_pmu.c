// SPDX-License-Identifier: GPL-2.0
/*
 * PMU events for evname: PMU/TERM,.../.  A term is one of the PMU's
 * events (a file in its events/ directory holding a term list, with
 * NAME.scale and NAME.unit beside it), a field of its format/ directory
 * ("config:0-7,32-35": the value's bits are spread over those bits, low
 * to high), config/config1/config2 themselves, or name=.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "engine/evname_int.h"
#include "engine/features.h"

#define ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* 0x hex or decimal, the whole string, no sign. */
static bool parse_num(const char *s, u64 *v)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && !evname__is_xdigit(s[2]))
		return false;
	errno = 0;
	x = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (*end || errno)
		return false;
	*v = x;
	return true;
}

/* One file of PMU/format/: "config:0-7", "config:0-7,32-35", "config1:0-15", "config:21". */
struct fmt {
	char name[64];
	char def[64];
	int field; /* 0, 1, 2: config, config1, config2; -1: not understood */
	u64 mask;
	int bits;
};

struct pmu {
	const char *name;
	struct fmt *f;
	int nr;
	char need[4][64]; /* terms an alias leaves to the user ("?") */
	bool given[4];
	int nr_need;
	const char *alias;
};

static int parse_format(const char *s, struct fmt *f)
{
	const char *p;
	char *end;

	f->field = -1;
	f->mask = 0;
	if (!strncmp(s, "config:", 7))
		f->field = 0, p = s + 7;
	else if (!strncmp(s, "config1:", 8))
		f->field = 1, p = s + 8;
	else if (!strncmp(s, "config2:", 8))
		f->field = 2, p = s + 8;
	else
		return -1;
	for (;;) {
		unsigned long lo, hi;

		if (*p < '0' || *p > '9')
			goto bad;
		lo = hi = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				goto bad;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi > 63)
			goto bad;
		for (unsigned long b = lo; b <= hi; b++)
			f->mask |= 1ULL << b;
		if (!*p)
			break;
		if (*p++ != ',')
			goto bad;
	}
	f->bits = __builtin_popcountll(f->mask);
	return 0;
bad:
	f->field = -1;
	return -1;
}

static int load_formats(struct evname_ctx *c, struct pmu *p)
{
	char **names, rel[96];
	int n = features__list(p->name, "format", &names);

	if (n < 0) {
		features__free_list(names);
		return evname__fail(c, -EINVAL, "cannot read the formats of PMU '%s': %s", p->name,
				    strerror(-n));
	}
	p->f = calloc(n ? n : 1, sizeof(*p->f));
	if (!p->f) {
		features__free_list(names);
		return evname__fail(c, -ENOMEM, "out of memory parsing events");
	}
	for (int i = 0; i < n; i++) {
		struct fmt *f = &p->f[p->nr];

		if (strlen(names[i]) >= sizeof(f->name))
			continue;
		snprintf(f->name, sizeof(f->name), "%s", names[i]);
		snprintf(rel, sizeof(rel), "format/%s", names[i]);
		if (features__pmu_read(p->name, rel, f->def, sizeof(f->def)) ||
		    parse_format(f->def, f))
			f->field = -1;
		p->nr++;
	}
	features__free_list(names);
	return 0;
}

static u64 *field_of(struct perf_event_attr *a, int field)
{
	return field == 0 ? &a->config : field == 1 ? &a->config1 : &a->config2;
}

static int unknown_term(struct evname_ctx *c, struct pmu *p, const char *key)
{
	char list[256] = "";
	size_t l = 0;

	for (int i = 0; i < p->nr && l < sizeof(list); i++)
		l += snprintf(list + l, sizeof(list) - l, "%s, ", p->f[i].name);
	return evname__fail(c, -EINVAL,
			    "unknown term '%s' in '%s': %s takes %sconfig, config1, config2, name "
			    "(its events: see perf-prof list)",
			    key, c->text, p->name, list);
}

/* Place @v into the bits of format @f: its lowest bit into the format's lowest bit, and so on. */
static int put_field(struct evname_ctx *c, struct fmt *f, u64 v, struct evname *ev)
{
	u64 *dst = field_of(&ev->attr, f->field);
	int i = 0;

	if (f->bits < 64 && v >> f->bits)
		return evname__fail(c, -EINVAL,
				    "value %#llx of '%s' in '%s' does not fit its %d bits (%s): "
				    "at most %#llx",
				    (unsigned long long)v, f->name, c->text, f->bits, f->def,
				    (unsigned long long)((1ULL << f->bits) - 1));
	*dst &= ~f->mask;
	for (int b = 0; b < 64; b++) {
		if (!(f->mask & (1ULL << b)))
			continue;
		if (v & (1ULL << i))
			*dst |= 1ULL << b;
		i++;
	}
	return 0;
}

/* KEY[=VAL] other than an alias; @alias names the sysfs alias it came from, or NULL. */
static int pmu_term(struct evname_ctx *c, struct pmu *p, const char *key, const char *val,
		    const char *alias, struct evname *ev)
{
	static const char *const fields[] = { "config", "config1", "config2" };
	u64 v = 1;

	if (!strcmp(key, "period") || !strcmp(key, "freq")) {
		if (alias)
			return 0; /* a sampling default of the alias: nothing to count */
		return evname__fail(c, -EINVAL,
				    "'%s=' in '%s': counting mode does not sample: drop it", key,
				    c->text);
	}
	if (!strcmp(key, "name")) {
		if (alias)
			return 0;
		if (!val || !*val)
			return evname__fail(c, -EINVAL, "name= needs a name in '%s'", c->text);
		c->custom = val;
		return 0;
	}
	if (val && !parse_num(val, &v))
		return evname__fail(
			c, -EINVAL,
			"bad value '%s' for '%s' in '%s'%s%s: a number, decimal or 0x hex", val,
			key, c->text, alias ? " (from its event " : "", alias ? "alias)" : "");
	for (int i = 0; i < 3; i++) {
		if (strcmp(key, fields[i]))
			continue;
		if (!val)
			return evname__fail(c, -EINVAL, "'%s' needs a value in '%s': %s=N", key,
					    c->text, key);
		*field_of(&ev->attr, i) = v;
		return 0;
	}
	for (int i = 0; i < p->nr; i++) {
		if (strcmp(p->f[i].name, key))
			continue;
		if (p->f[i].field < 0)
			return evname__fail(c, -EINVAL,
					    "'%s' in '%s': cannot use %s's format '%s' (%s)", key,
					    c->text, p->name, key, p->f[i].def);
		for (int k = 0; !alias && k < p->nr_need; k++)
			if (!strcmp(p->need[k], key))
				p->given[k] = true;
		return put_field(c, &p->f[i], v, ev);
	}
	if (alias)
		return evname__fail(c, -EINVAL,
				    "'%s': the definition of %s/%s/ has term '%s', unknown to %s",
				    c->text, p->name, alias, key, p->name);
	return unknown_term(c, p, key);
}

static bool is_alias_name(const char *w)
{
	static const char *const suffixes[] = { ".scale", ".unit", ".per-pkg", ".snapshot" };
	size_t l = strlen(w);

	if (!evname__is_word(w) || l > 200)
		return false;
	for (int i = 0; i < ARRAY_LEN(suffixes); i++) {
		size_t s = strlen(suffixes[i]);

		if (l > s && !strcmp(w + l - s, suffixes[i]))
			return false;
	}
	return true;
}

/* 1 when @key is one of the PMU's events (applied), 0 when not, or -errno. */
static int pmu_alias(struct evname_ctx *c, struct pmu *p, const char *key, struct evname *ev)
{
	char rel[256], def[512], buf[64], *tok, *save = NULL;
	int ret;

	if (!is_alias_name(key))
		return 0;
	snprintf(rel, sizeof(rel), "events/%s", key);
	if (features__pmu_read(p->name, rel, def, sizeof(def)))
		return 0;
	if (p->alias)
		return evname__fail(c, -EINVAL, "two events in '%s': '%s' and '%s': one per event",
				    c->text, p->alias, key);
	p->alias = key;
	if (!def[0])
		return evname__fail(c, -EINVAL, "'%s': %s/%s/ has no definition in sysfs", c->text,
				    p->name, key);
	for (tok = strtok_r(def, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *val = strchr(tok, '=');

		while (evname__is_space(*tok))
			tok++;
		if (val)
			*val++ = '\0';
		if (val && !strcmp(val, "?")) {
			if (p->nr_need < ARRAY_LEN(p->need))
				snprintf(p->need[p->nr_need++], sizeof(p->need[0]), "%s", tok);
			continue;
		}
		ret = pmu_term(c, p, tok, val, key, ev);
		if (ret)
			return ret;
	}
	snprintf(rel, sizeof(rel), "events/%s.scale", key);
	if (!features__pmu_read(p->name, rel, buf, sizeof(buf))) {
		char *end;
		double s = strtod(buf, &end);

		while (evname__is_space(*end))
			end++;
		if (end != buf && !*end && isfinite(s) && s > 0)
			ev->scale = s;
	}
	snprintf(rel, sizeof(rel), "events/%s.unit", key);
	if (!features__pmu_read(p->name, rel, buf, sizeof(buf)))
		snprintf(ev->unit, sizeof(ev->unit), "%.15s", buf);
	return 1;
}

struct term {
	char *key, *val;
	bool done;
};

/* PMU/TERM,.../[[:]MODS].  @t is modified. */
int evname__parse_pmu(struct evname_ctx *c, char *t, struct evname *ev)
{
	char *slash = strchr(t, '/'), *end, *mods, *tok, *save = NULL;
	struct pmu p = { .name = t };
	struct term *terms = NULL;
	int nr = 0, type, ret;

	*slash = '\0';
	end = strchr(slash + 1, '/');
	*end = '\0';
	mods = end + 1;
	if (!evname__is_word(t))
		return evname__fail(c, -EINVAL,
				    "bad PMU name '%s' in '%s': PMU/TERMS/, see perf-prof list", t,
				    c->text);
	if (*mods == ':')
		mods++;
	if (*mods || mods[-1] == ':') {
		ret = evname__check_mods(c, mods, strlen(mods), c->text);
		if (ret)
			return ret;
		evname__apply_mods(&ev->attr, mods, strlen(mods));
		c->own_mods = true;
	}
	type = features__pmu_type(t);
	if (type == -ENOENT)
		return evname__fail(c, -EINVAL, "unknown PMU '%s' in '%s': see perf-prof list", t,
				    c->text);
	if (type < 0)
		return evname__fail(c, -EINVAL, "cannot read the type of PMU '%s': %s", t,
				    strerror(-type));
	ev->attr.type = type;
	if (features__pmu_read(t, "cpumask", ev->cpumask, sizeof(ev->cpumask)))
		ev->cpumask[0] = '\0';
	if (!slash[1])
		return evname__fail(
			c, -EINVAL,
			"no terms in '%s': name an event (%s/EVENT/) or terms (%s/config=N/)",
			c->text, t, t);

	for (char *s = slash + 1; *s; s++)
		nr += *s == ',';
	terms = calloc(nr + 1, sizeof(*terms));
	if (!terms)
		return evname__fail(c, -ENOMEM, "out of memory parsing events");
	nr = 0;
	ret = load_formats(c, &p);
	if (ret)
		goto out;
	/* Split by hand: strtok would skip the empty terms of "a,,b". */
	for (tok = slash + 1; tok; tok = save) {
		save = strchr(tok, ',');
		if (save)
			*save++ = '\0';
		if (!*tok) {
			ret = evname__fail(c, -EINVAL, "empty term in '%s': remove the extra ','",
					   c->text);
			goto out;
		}
		terms[nr].key = tok;
		terms[nr].val = strchr(tok, '=');
		if (terms[nr].val) {
			*terms[nr].val++ = '\0';
			if (!*terms[nr].val && strcmp(tok, "name")) {
				ret = evname__fail(c, -EINVAL, "no value after '%s=' in '%s'", tok,
						   c->text);
				goto out;
			}
		}
		if (!*tok) {
			ret = evname__fail(c, -EINVAL, "no term name before '=' in '%s'", c->text);
			goto out;
		}
		nr++;
	}
	/* The alias's terms first, so that the user's terms override them wherever written. */
	for (int i = 0; i < nr; i++) {
		if (terms[i].val)
			continue;
		ret = pmu_alias(c, &p, terms[i].key, ev);
		if (ret < 0)
			goto out;
		terms[i].done = ret;
	}
	for (int i = 0; i < nr; i++) {
		if (terms[i].done)
			continue;
		ret = pmu_term(c, &p, terms[i].key, terms[i].val, NULL, ev);
		if (ret)
			goto out;
	}
	for (int k = 0; k < p.nr_need; k++) {
		if (p.given[k])
			continue;
		ret = evname__fail(c, -EINVAL, "'%s': %s/%s/ needs a value for '%s': %s/%s,%s=N/",
				   c->text, p.name, p.alias, p.need[k], p.name, p.alias, p.need[k]);
		goto out;
	}
	ret = 0;
out:
	free(terms);
	free(p.f);
	return ret;
}
