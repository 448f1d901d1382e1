// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof usdt list [SPEC...]: a binary's USDT probes with their
 * operands and the tracefs events made on them; without an argument, the
 * uprobe events in tracefs that sit on a USDT note (whoever made them).
 * One report description: the text table and --json's lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/usdt.h"
#include "engine/evspec.h"
#include "report/rtable.h"
#include "sym/probe_res.h"

struct urow {
	const struct probe_site *st;
	char provider[128], name[128];
	char events[256]; /* "GROUP:EVENT[,...]" on this site, "" if none */
};

enum { A_ARG, A_SIZE, A_SIGNED, A_KIND, A_LOC, A_FETCH, A_NCOLS };
static const struct rt_col arg_cols[A_NCOLS] = {
	[A_ARG] = RT_COL("arg", "ARG", RT_U64, RT_UNIT_NONE, 0, 0),
	[A_SIZE] = RT_COL("size", "SIZE", RT_U64, RT_UNIT_BYTES, 0, 0),
	[A_SIGNED] = RT_COL("signed", "SIGNED", RT_BOOL, RT_UNIT_NONE, 0, 0),
	[A_KIND] = RT_COL("kind", "KIND", RT_STR, RT_UNIT_NONE, 0, 0),
	[A_LOC] = RT_COL("location", "LOCATION", RT_STR, RT_UNIT_NONE, 0, 0),
	/* what uprobe_events fetches, null where it cannot (indexed memory) */
	[A_FETCH] = RT_COL("fetch", "FETCH", RT_STR, RT_UNIT_NONE, 0, 0),
};
static const struct rt_desc arg_desc = { .type = "usdt_arg", .cols = arg_cols, .ncols = A_NCOLS };

enum {
	C_PROV,
	C_NAME,
	C_PROBE,
	C_ADDR,
	C_OFF,
	C_SEMA,
	C_SEMA_OFF,
	C_EVENT,
	C_FILE,
	C_ARGS,
	C_ARGTXT,
	C_NCOLS
};
static const struct rt_col cols[C_NCOLS] = {
	[C_PROV] = RT_COL("provider", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[C_NAME] = RT_COL("name", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[C_PROBE] = RT_COL(NULL, "PROBE", RT_STR, RT_UNIT_NONE, 5, RT_LEFT | RT_FIT | RT_NO_JSON),
	[C_ADDR] = RT_COL("address", "ADDRESS", RT_HEX, RT_UNIT_NONE, 7, RT_FIT),
	[C_OFF] = RT_COL("offset", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[C_SEMA] = RT_COL("semaphore", "SEMAPHORE", RT_HEX, RT_UNIT_NONE, 9, RT_FIT),
	[C_SEMA_OFF] = RT_COL("semaphore_offset", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[C_EVENT] =
		RT_COL("event", "EVENT", RT_STR, RT_UNIT_NONE, 5, RT_LEFT | RT_FIT | RT_EMPTY_NULL),
	[C_FILE] = RT_COL("file", "FILE", RT_STR, RT_UNIT_NONE, 4, RT_LEFT | RT_FIT),
	[C_ARGS] = RT_COL("args", NULL, RT_ROWS, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[C_ARGTXT] = RT_COL(NULL, "ARGUMENTS", RT_STR, RT_UNIT_NONE, 0, RT_LEFT | RT_NO_JSON),
};
static const struct rt_desc desc = { .type = "usdt", .cols = cols, .ncols = C_NCOLS };

/* An operand as the note writes it, AT&T syntax ("%di", "-16(%bp)", "$5", "@+0x4010"). */
static void arg_location(const struct probe_arg *a, char *buf, size_t len)
{
	const char *r = probe__reg_name(a->reg), *x = probe__reg_name(a->index);

	switch (a->kind) {
	case PROBE_ARG_IMM:
		snprintf(buf, len, "$%lld", (long long)a->value);
		break;
	case PROBE_ARG_REG:
		snprintf(buf, len, "%%%s", r ? r : "?");
		break;
	case PROBE_ARG_MEM:
		if (a->file_rel)
			snprintf(buf, len, "@+0x%llx", (unsigned long long)a->value);
		else if (a->index >= 0)
			snprintf(buf, len, "%lld(%s%s,%%%s,%d)", (long long)a->value, r ? "%" : "",
				 r ? r : "", x ? x : "?", a->scale);
		else
			snprintf(buf, len, "%lld(%%%s)", (long long)a->value, r ? r : "?");
		break;
	}
}

static const char *arg_kind(const struct probe_arg *a)
{
	return a->kind == PROBE_ARG_IMM	  ? "constant"
	       : a->kind == PROBE_ARG_REG ? "register"
					  : "memory";
}

static void emit_row(struct rt_sink *k, const struct urow *r, bool fit)
{
	const struct probe_site *st = r->st;
	struct rt_val v[C_NCOLS], av[PROBE_MAX_ARGS * A_NCOLS];
	char loc[PROBE_MAX_ARGS][64], fetch[PROBE_MAX_ARGS][96], probe[260], text[1024] = "";
	size_t n = 0;
	int na = st->nr_args > 0 ? st->nr_args : 0;

	memset(v, 0, sizeof(v));
	memset(av, 0, sizeof(av));
	for (int i = 0; i < na; i++) {
		const struct probe_arg *a = &st->args[i];
		struct rt_val *x = &av[i * A_NCOLS];
		bool ok = !probe_arg__fetch(a, fetch[i], sizeof(fetch[i]));

		arg_location(a, loc[i], sizeof(loc[i]));
		x[A_ARG].u = i + 1;
		x[A_SIZE].u = a->size;
		x[A_SIGNED].b = a->is_signed;
		x[A_KIND].s = arg_kind(a);
		x[A_LOC].s = loc[i];
		x[A_FETCH].s = ok ? fetch[i] : NULL;
		if (n < sizeof(text))
			n += snprintf(text + n, sizeof(text) - n, "%sarg%d:%c%d %s%s",
				      i ? ", " : "", i + 1, a->is_signed ? 's' : 'u', a->size * 8,
				      loc[i], ok ? "" : " (not fetchable)");
	}
	snprintf(probe, sizeof(probe), "%s:%s", r->provider, r->name);
	v[C_PROV].s = r->provider;
	v[C_NAME].s = r->name;
	v[C_PROBE].s = probe;
	v[C_ADDR].u = st->vaddr;
	v[C_OFF].u = st->offset;
	v[C_SEMA].u = st->ref_ctr_vaddr;
	v[C_SEMA].null = !st->ref_ctr_offset;
	v[C_SEMA_OFF].u = st->ref_ctr_offset;
	v[C_SEMA_OFF].null = !st->ref_ctr_offset;
	v[C_EVENT].s = r->events;
	v[C_FILE].s = st->path;
	v[C_ARGS].row.d = &arg_desc;
	v[C_ARGS].row.v = av;
	v[C_ARGS].n = na;
	v[C_ARGTXT].s = na ? text : "none";
	if (fit)
		rtable__fit(k, &desc, v);
	else
		rtable__row(k, v);
}

static int emit(struct urow *rows, int n, bool json)
{
	union rt_sinks u;
	struct rt_sink *k =
		json ? rt_json__init(&u.json, stdout, NULL) : rt_text__init(&u.text, stdout);

	for (int i = 0; i < n; i++)
		emit_row(k, &rows[i], true);
	rtable__begin(k, &desc);
	for (int i = 0; i < n; i++)
		emit_row(k, &rows[i], false);
	rtable__end(k);
	return 0;
}

static int add_row(struct urow **rows, int *n, const struct probe_site *st, const char *events)
{
	struct urow *r = realloc(*rows, (*n + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	*rows = r;
	r = &r[(*n)++];
	memset(r, 0, sizeof(*r));
	r->st = st;
	usdt__site_names(st, r->provider, sizeof(r->provider), r->name, sizeof(r->name));
	snprintf(r->events, sizeof(r->events), "%s", events);
	return 0;
}

/* The named binaries' probes, each with the events on it. */
static int list_specs(struct uspec *specs, int nspec, bool json)
{
	struct uprobe_def *defs = NULL;
	struct urow *rows = NULL;
	int ndefs = 0, n = 0, ret = 0;
	char err[256];

	/* without tracefs the probes are still listed, with no events */
	if (usdt__read_defs(&defs, &ndefs, err, sizeof(err)))
		ndefs = 0;
	for (int s = 0; s < nspec && !ret; s++) {
		for (int i = 0; i < specs[s].nr && !ret; i++) {
			const struct probe_site *st = &specs[s].sites[i];
			char ev[256] = "";
			size_t len = 0;
			bool dup = false;

			for (int k = 0; k < n && !dup; k++)
				dup = rows[k].st->offset == st->offset &&
				      !strcmp(rows[k].st->path, st->path);
			if (dup)
				continue;
			for (int k = 0; k < ndefs; k++)
				if (!defs[k].ret && defs[k].offset == st->offset &&
				    usdt__same_file(&defs[k], st->path) && len < sizeof(ev))
					len += snprintf(ev + len, sizeof(ev) - len, "%s%s:%s",
							len ? "," : "", defs[k].group,
							defs[k].event);
			ret = add_row(&rows, &n, st, ev);
		}
	}
	if (!ret)
		emit(rows, n, json);
	free(rows);
	uprobe_defs__free(defs, ndefs);
	if (ret)
		fprintf(stderr, "perf-prof usdt list: out of memory\n");
	return ret ? 1 : 0;
}

/* A file's notes, read once for all the events on it. */
struct ufile {
	char *path;
	struct probe_site *sites;
	int nr;
};

static struct ufile *file_notes(struct ufile **files, int *nf, const char *path)
{
	struct ev_spec spec;
	struct ufile *f;
	char why[512];

	for (int i = 0; i < *nf; i++)
		if (!strcmp((*files)[i].path, path))
			return &(*files)[i];
	f = realloc(*files, (*nf + 1) * sizeof(*f));
	if (!f)
		return NULL;
	*files = f;
	f = &f[(*nf)++];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	memset(&spec, 0, sizeof(spec));
	spec.probe = EV_USDT;
	spec.provider = "*";
	spec.name = "*";
	spec.text = (char *)path;
	/* a file gone or without notes: no USDT events on it */
	if (f->path && probe_res__sites(&spec, path, &f->sites, &f->nr, why, sizeof(why)))
		f->nr = 0;
	return f;
}

/* The uprobe events in tracefs that sit on a USDT note. */
static int list_added(bool json)
{
	struct uprobe_def *defs = NULL;
	struct ufile *files = NULL;
	struct urow *rows = NULL;
	int ndefs = 0, nf = 0, n = 0, ret;
	char err[512];

	ret = usdt__read_defs(&defs, &ndefs, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "perf-prof usdt list: %s\n", err);
		return ret;
	}
	for (int i = 0; i < ndefs && !ret; i++) {
		struct ufile *f = defs[i].ret ? NULL : file_notes(&files, &nf, defs[i].path);
		char ev[200];

		if (!defs[i].ret && !f) {
			ret = -ENOMEM;
			break;
		}
		for (int k = 0; f && k < f->nr; k++) {
			if (f->sites[k].offset != defs[i].offset)
				continue;
			snprintf(ev, sizeof(ev), "%s:%s", defs[i].group, defs[i].event);
			ret = add_row(&rows, &n, &f->sites[k], ev);
			break;
		}
	}
	if (!ret)
		emit(rows, n, json);
	else
		fprintf(stderr, "perf-prof usdt list: out of memory\n");
	free(rows);
	for (int i = 0; i < nf; i++) {
		free(files[i].path);
		probe_sites__free(files[i].sites, files[i].nr);
	}
	free(files);
	uprobe_defs__free(defs, ndefs);
	return ret ? 1 : 0;
}

int usdt_list(struct uspec *specs, int nr, bool json, int verbose)
{
	(void)verbose;
	return nr ? list_specs(specs, nr, json) : list_added(json);
}
