// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof usdt add|del|list [[PROVIDER:]NAME@]BINARY[@ADDR] ...: a
 * binary's USDT probes (its .note.stapsdt, read by sym/probe_elf) as
 * tracefs uprobe events that stay until "usdt del", for any tool: perf-prof
 * trace -e PROVIDER:NAME, perf record -e PROVIDER:NAME, ftrace.
 *
 * An event is named PROVIDER:NAME (group PROVIDER) as the original
 * perf-prof names it (perf probe's are sdt_PROVIDER:NAME); the note's
 * operands are its fetch arguments arg1..argN typed by their sizes, as
 * "-e usdt:" gives them, and a semaphore goes in as the uprobe's
 * reference counter, which the kernel increments while the event is
 * enabled.  The notes of one probe (inlined or repeated sites) are the
 * probes of one event.  add makes all or nothing: an event it cannot make
 * undoes the ones it made.
 */
#include <errno.h>
#include <inttypes.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/usdt.h"
#include "engine/evspec.h"
#include "engine/features.h"
#include "profiler.h"
#include "sym/probe_elf.h"
#include "sym/probe_res.h"
#include "util/stopsig.h"

struct usdt_priv {
	bool json;
};

void usdt__tracefs_name(const char *s, char *out, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	if (*s >= '0' && *s <= '9' && n + 1 < len)
		out[n++] = '_';
	for (; *s && n + 1 < len; s++)
		out[n++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
					   (*s >= '0' && *s <= '9')
				   ? *s
				   : '_';
	out[n] = 0;
}

void usdt__site_names(const struct probe_site *st, char *prov, size_t plen, char *name, size_t nlen)
{
	const char *c = strchr(st->symbol, ':');
	size_t n = c ? (size_t)(c - st->symbol) : 0;

	snprintf(prov, plen, "%.*s", (int)n, st->symbol);
	snprintf(name, nlen, "%s", c ? c + 1 : st->symbol);
}

bool usdt__same_file(const struct uprobe_def *d, const char *path)
{
	struct stat a, b;

	if (!strcmp(d->path, path))
		return true;
	return !stat(d->path, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int usdt__read_defs(struct uprobe_def **defs, int *nr, char *err, size_t len)
{
	int ret = uprobe_defs__read(defs, nr);
	char why[256];

	if (!ret)
		return 0;
	if (ret == -ENOENT)
		snprintf(err, len,
			 "no tracefs mounted (mount -t tracefs nodev /sys/kernel/tracing, "
			 "then try again)");
	else if (ret == -EOPNOTSUPP)
		snprintf(err, len, "%s", features__why_not(FEAT_UPROBES, why, sizeof(why)));
	else
		snprintf(err, len, "cannot read uprobe_events: %s%s", strerror(-ret),
			 ret == -EACCES || ret == -EPERM ? " (run as root)" : "");
	return 1;
}

void uspec__clear(struct uspec *u)
{
	probe_sites__free(u->sites, u->nr);
	u->sites = NULL;
	u->nr = 0;
}

/* "[[PROVIDER:]NAME@]BINARY[@ADDR]" into @u's globs, address and @bin. */
static int uspec__split(struct uspec *u, const char *text, char *bin, size_t blen, char *err,
			size_t len)
{
	const char *at = strchr(text, '@'), *last, *probe_end = NULL;
	struct stat st;
	char *end;

	snprintf(u->provider, sizeof(u->provider), "*");
	snprintf(u->name, sizeof(u->name), "*");
	/* a probe names no '/': "PROV:NAME@BIN"; a file of the whole name is a file */
	if (at && !memchr(text, '/', at - text) && stat(text, &st))
		probe_end = at;
	if (probe_end) { /* "prog@0x11f6": a file in this directory and an address */
		char before[PATH_MAX];

		errno = 0;
		strtoull(at + 1, &end, 0);
		snprintf(before, sizeof(before), "%.*s", (int)(at - text), text);
		if (at[1] && !*end && !errno && !stat(before, &st))
			probe_end = NULL;
	}
	if (probe_end) {
		const char *colon = memchr(text, ':', probe_end - text);
		const char *nm = colon ? colon + 1 : text;

		if ((colon && colon == text) || nm == probe_end) {
			snprintf(err, len,
				 "'%s': an empty provider or probe name (the form: "
				 "[[PROVIDER:]NAME@]BINARY[@ADDR])",
				 text);
			return 2;
		}
		if (colon)
			snprintf(u->provider, sizeof(u->provider), "%.*s", (int)(colon - text),
				 text);
		snprintf(u->name, sizeof(u->name), "%.*s", (int)(probe_end - nm), nm);
		u->named = true;
		text = probe_end + 1;
	}
	last = strrchr(text, '@');
	if (last && last != text && last[1] && stat(text, &st)) {
		errno = 0;
		u->addr = strtoull(last + 1, &end, 0);
		if (*end || errno) {
			snprintf(err, len,
				 "'%s': '%s' is not an address (the form: "
				 "[[PROVIDER:]NAME@]BINARY[@ADDR], ADDR as usdt list shows it)",
				 u->text, last + 1);
			return 2;
		}
		u->has_addr = true;
	} else {
		last = NULL;
	}
	if (!*text || (last && last == text)) {
		snprintf(err, len, "'%s': no binary (the form: [[PROVIDER:]NAME@]BINARY[@ADDR])",
			 u->text);
		return 2;
	}
	snprintf(bin, blen, "%.*s", last ? (int)(last - text) : (int)strlen(text), text);
	return 0;
}

/* Does @path have USDT notes at all?  0 yes; else the exit status, @err set. */
static int has_notes(struct uspec *u, char *err, size_t len)
{
	struct probe_elf *pe = NULL;
	struct usdt_note *notes = NULL;
	int n = 0, ret = probe_elf__open(u->path, &pe);

	if (!ret)
		ret = probe_elf__usdt(pe, "*", "*", &notes, &n);
	usdt_notes__free(notes, n);
	probe_elf__delete(pe);
	if (ret == -ENOMEM) {
		snprintf(err, len, "out of memory");
		return 1;
	}
	if (ret) {
		snprintf(err, len, "'%s': %s %s", u->text, u->path,
			 ret == -ENOEXEC ? "is not an ELF file"
			 : ret == -EPROTONOSUPPORT
				 ? "is an ELF file for another machine than x86-64"
				 : strerror(-ret));
		return 2;
	}
	if (!n) {
		snprintf(err, len,
			 "'%s': %s has no USDT probes (no .note.stapsdt section: built without "
			 "<sys/sdt.h> probes)",
			 u->text, u->path);
		return 2;
	}
	return 0;
}

int uspec__resolve(struct uspec *u, const char *text, char *err, size_t len)
{
	char bin[PATH_MAX], found[PATH_MAX], why[512];
	struct ev_spec spec;
	int ret, keep = 0;

	memset(u, 0, sizeof(*u));
	u->text = text;
	ret = uspec__split(u, text, bin, sizeof(bin), err, len);
	if (ret)
		return ret;
	/* a file of that name here is the one meant, else as the dynamic linker finds it */
	ret = access(bin, F_OK) ? libpath__find(bin, 0, found, sizeof(found)) : 0;
	if (!ret && !access(bin, F_OK))
		snprintf(found, sizeof(found), "%s", bin);
	if (ret) {
		snprintf(err, len,
			 "'%s': no file '%s' (a path, a command in PATH or a library the "
			 "dynamic linker would find)",
			 text, bin);
		return 2;
	}
	if (!realpath(found, u->path))
		snprintf(u->path, sizeof(u->path), "%s", found);
	ret = has_notes(u, err, len);
	if (ret)
		return ret;
	memset(&spec, 0, sizeof(spec));
	spec.probe = EV_USDT;
	spec.provider = u->provider;
	spec.name = u->name;
	spec.text = (char *)text;
	ret = probe_res__sites(&spec, u->path, &u->sites, &u->nr, why, sizeof(why));
	if (ret == -ENOMEM) {
		snprintf(err, len, "out of memory");
		return 1;
	}
	if (ret) {
		snprintf(err, len, "'%s': no USDT probe %s:%s in %s (see: perf-prof usdt list %s)",
			 text, u->provider, u->name, u->path, u->path);
		return 2;
	}
	for (int i = 0; i < u->nr; i++) {
		if (u->has_addr && u->sites[i].vaddr != u->addr) {
			free(u->sites[i].path);
			free(u->sites[i].symbol);
			continue;
		}
		u->sites[keep++] = u->sites[i];
	}
	u->nr = keep;
	if (!keep) {
		snprintf(err, len,
			 "'%s': no USDT probe %s:%s at 0x%llx in %s (see: perf-prof usdt list %s)",
			 text, u->provider, u->name, u->addr, u->path, u->path);
		return 2;
	}
	return 0;
}

/* ---- add ---- */

/* One site to make: a probe of event GROUP/EVENT. */
struct uev {
	const struct uspec *u;
	const struct probe_site *st;
	char group[128], event[160];
	int nth;	  /* this site's place among its probe's sites (0: the first) */
	char skipped[96]; /* operands left out ("arg3"), "" if none */
	char line[PATH_MAX + 1024];
	bool made; /* its event was made by this run (a new one) */
};

static const struct uprobe_def *def_find(const struct uprobe_def *defs, int nr, const char *group,
					 const char *event)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(defs[i].group, group) && !strcmp(defs[i].event, event))
			return &defs[i];
	return NULL;
}

static int uev__line(struct uev *e, char *err, size_t len)
{
	char rc[32] = "", args[768] = "", f[96];
	size_t n = 0;

	e->skipped[0] = 0;
	for (int i = 0; i < e->st->nr_args; i++) {
		if (probe_arg__fetch(&e->st->args[i], f, sizeof(f))) {
			size_t k = strlen(e->skipped);

			snprintf(e->skipped + k, sizeof(e->skipped) - k, "%sarg%d", k ? ", " : "",
				 i + 1);
			continue;
		}
		n += snprintf(args + n, sizeof(args) - n, " arg%d=%s", i + 1, f);
		if (n >= sizeof(args))
			break;
	}
	if (e->st->ref_ctr_offset)
		snprintf(rc, sizeof(rc), "(0x%llx)", (unsigned long long)e->st->ref_ctr_offset);
	if (strpbrk(e->st->path, " \t\n") || n >= sizeof(args) ||
	    snprintf(e->line, sizeof(e->line), "p:%s/%s %s:0x%llx%s%s", e->group, e->event,
		     e->st->path, (unsigned long long)e->st->offset, rc,
		     args) >= (int)sizeof(e->line)) {
		snprintf(err, len,
			 "'%s': cannot define the probe for uprobe_events (a path with blanks "
			 "or too long: %s)",
			 e->u->text, e->st->path);
		return 2;
	}
	return 0;
}

/* The sites of @specs, each once (the same file and offset named twice is one). */
static int plan(struct uspec *specs, int nspec, struct uev **out, int *nr, char *err, size_t len)
{
	struct uev *ev = NULL;
	int n = 0, cap = 0;

	for (int s = 0; s < nspec; s++) {
		for (int i = 0; i < specs[s].nr; i++) {
			const struct probe_site *st = &specs[s].sites[i];
			char prov[128], name[128];
			bool dup = false;
			struct uev *e;

			for (int k = 0; k < n && !dup; k++)
				dup = ev[k].st->offset == st->offset &&
				      !strcmp(ev[k].st->path, st->path);
			if (dup)
				continue;
			if (n == cap) {
				struct uev *m =
					realloc(ev, (cap = cap ? cap * 2 : 16) * sizeof(*m));

				if (!m) {
					free(ev);
					snprintf(err, len, "out of memory");
					return 1;
				}
				ev = m;
			}
			e = &ev[n];
			memset(e, 0, sizeof(*e));
			e->u = &specs[s];
			e->st = st;
			usdt__site_names(st, prov, sizeof(prov), name, sizeof(name));
			usdt__tracefs_name(prov, e->group, sizeof(e->group));
			usdt__tracefs_name(name, e->event, sizeof(e->event));
			for (int k = 0; k < n; k++)
				e->nth += !strcmp(ev[k].group, e->group) &&
					  !strcmp(ev[k].event, e->event);
			n++;
			if (uev__line(e, err, len)) {
				free(ev);
				return 2;
			}
		}
	}
	*out = ev;
	*nr = n;
	return 0;
}

/*
 * Remove the events this run made (each once), after a failure.  One that
 * will not go (a tracer opened it meanwhile: still busy after the
 * retries) stays: a line each on stderr, with how to remove it later.
 */
static void undo(struct uev *ev, int n, int verbose)
{
	char line[320], why[256], prov[128], name[128];
	int ret;

	for (int i = 0; i < n; i++) {
		bool seen = false;

		if (!ev[i].made)
			continue;
		for (int k = 0; k < i && !seen; k++)
			seen = ev[k].made && !strcmp(ev[k].group, ev[i].group) &&
			       !strcmp(ev[k].event, ev[i].event);
		if (seen)
			continue;
		snprintf(line, sizeof(line), "-:%s/%s", ev[i].group, ev[i].event);
		if (verbose)
			printf("    %s\n", line);
		ret = uprobe_defs__write(line, why, sizeof(why));
		if (!ret)
			continue;
		/* "usdt del PROV:NAME@PATH": the note's names, which match EVENT_N too */
		usdt__site_names(ev[i].st, prov, sizeof(prov), name, sizeof(name));
		fprintf(stderr,
			"perf-prof usdt add: %s:%s, made before the failure, stays: cannot remove "
			"it: %s (%sperf-prof usdt del %s:%s@%s)\n",
			ev[i].group, ev[i].event, why,
			ret == -EBUSY ? "a tracer has it open; when it is closed: " : "", prov,
			name, ev[i].st->path);
	}
}

/*
 * Is GROUP/@event of ev[@i]'s group taken: an event before this run, or
 * the name of another of the @n sites planned (made or still to make)?
 */
static bool name_taken(const struct uev *ev, int n, int i, const struct uprobe_def *defs, int ndefs,
		       const char *event)
{
	if (def_find(defs, ndefs, ev[i].group, event))
		return true;
	for (int k = 0; k < n; k++)
		if (k != i && !strcmp(ev[k].group, ev[i].group) && !strcmp(ev[k].event, event))
			return true;
	return false;
}

/*
 * Make ev[@i] of the @n planned: a new event, or one more probe of the
 * event its probe's first site made.  When the kernel will not add it
 * there (operands of other types), an event of its own, EVENT_N with the
 * first N from its place among its probe's sites that names no other event
 * (a probe EVENT_1 of the binary keeps its own).  0, or 1 with @err set.
 */
static int make_one(struct uev *ev, int n, int i, const struct uprobe_def *defs, int ndefs,
		    int verbose, char *err, size_t len)
{
	struct uev *e = &ev[i];
	char why[512];
	int ret;

	ret = uprobe_defs__write(e->line, why, sizeof(why));
	if (ret && e->nth) {
		char base[160], name[160];

		snprintf(base, sizeof(base), "%s", e->event);
		/* n + ndefs names at most: one of the first n + ndefs + 1 is free */
		for (int k = e->nth;; k++) {
			snprintf(name, sizeof(name), "%.140s_%d", base, k);
			if (!name_taken(ev, n, i, defs, ndefs, name))
				break;
		}
		snprintf(e->event, sizeof(e->event), "%s", name);
		uev__line(e, err, len);
		ret = uprobe_defs__write(e->line, why, sizeof(why));
	}
	if (ret) {
		snprintf(err, len, "'%s': the kernel refused '%s': %s", e->u->text, e->line, why);
		return 1;
	}
	if (verbose)
		printf("    %s\n", e->line);
	/* a new event, or a probe added to one this run made */
	e->made = true;
	return 0;
}

static bool same_uev(const struct uev *a, const struct uev *b)
{
	return !strcmp(a->group, b->group) && !strcmp(a->event, b->event);
}

static void print_added(const struct uev *ev, int n)
{
	for (int i = 0; i < n; i++) {
		char skipped[256] = "";
		bool first = true, sema = false;
		int sites = 0;

		for (int k = 0; k < i && first; k++)
			first = !same_uev(&ev[k], &ev[i]);
		if (!first)
			continue; /* counted with its event's first site */
		for (int k = i; k < n; k++) {
			if (!same_uev(&ev[k], &ev[i]))
				continue;
			sites++;
			sema |= ev[k].st->ref_ctr_offset != 0;
			if (ev[k].skipped[0] && !skipped[0])
				snprintf(skipped, sizeof(skipped),
					 ", %s left out: indexed memory, which the kernel cannot "
					 "fetch",
					 ev[k].skipped);
		}
		printf("added %s:%s (%d site%s in %s%s%s)\n", ev[i].group, ev[i].event, sites,
		       sites > 1 ? "s" : "", ev[i].st->path,
		       sema ? ", its semaphore set while enabled" : "", skipped);
	}
}

/* NAME_N: a name with a numbered suffix, as an EVENT_N of a probe EVENT */
static bool suffixed(const char *name)
{
	const char *us = strrchr(name, '_');

	return us && us > name && us[1] && strspn(us + 1, "0123456789") == strlen(us + 1);
}

static int usdt_add(struct uspec *specs, int nspec, int verbose)
{
	struct uprobe_def *defs = NULL;
	struct uev *ev = NULL;
	int ndefs = 0, n = 0, ret;
	char err[1024];

	ret = usdt__read_defs(&defs, &ndefs, err, sizeof(err));
	if (!ret)
		ret = plan(specs, nspec, &ev, &n, err, sizeof(err));
	/* an event of the name exists: this probe added before, or another one */
	for (int i = 0; !ret && i < n; i++) {
		const struct uprobe_def *d = def_find(defs, ndefs, ev[i].group, ev[i].event);

		if (!d)
			continue;
		if (usdt__same_file(d, ev[i].st->path) && d->offset == ev[i].st->offset) {
			snprintf(err, sizeof(err),
				 "'%s': %s:%s is added already (perf-prof usdt del %s:%s@%s "
				 "first)",
				 ev[i].u->text, ev[i].group, ev[i].event, ev[i].group, ev[i].event,
				 ev[i].st->path);
		} else if (usdt__same_file(d, ev[i].st->path) && suffixed(ev[i].event)) {
			/* another probe's site took the name: EVENT_N of a probe EVENT */
			const char *us = strrchr(ev[i].event, '_');
			int bl = (int)(us - ev[i].event);

			snprintf(err, sizeof(err),
				 "'%s': an event %s:%s exists already, for another site of %s "
				 "(offset %#" PRIx64 ": probe %.*s's, which needed an event of its "
				 "own; perf-prof usdt del %s:%.*s@%s first)",
				 ev[i].u->text, ev[i].group, ev[i].event, ev[i].st->path, d->offset,
				 bl, ev[i].event, ev[i].group, bl, ev[i].event, ev[i].st->path);
		} else if (usdt__same_file(d, ev[i].st->path)) {
			/* the file rebuilt, its probe moved? */
			snprintf(err, sizeof(err),
				 "'%s': an event %s:%s exists already on %s at another offset "
				 "(%#" PRIx64 ": the file rebuilt since?), remove it first: echo "
				 "'-:%s/%s' >> /sys/kernel/tracing/uprobe_events",
				 ev[i].u->text, ev[i].group, ev[i].event, ev[i].st->path, d->offset,
				 ev[i].group, ev[i].event);
		} else
			snprintf(
				err, sizeof(err),
				"'%s': an event %s:%s exists already, on %s (perf-prof usdt del it "
				"first)",
				ev[i].u->text, ev[i].group, ev[i].event, d->path);
		ret = 1;
	}
	if (ret) {
		fprintf(stderr, "perf-prof usdt add: %s\n", err);
	} else {
		/* a stop waits until it is all made or all undone */
		stopsig__hold();
		for (int i = 0; !ret && i < n; i++)
			ret = make_one(ev, n, i, defs, ndefs, verbose, err, sizeof(err));
		if (ret) { /* the failure, then what the undo could not remove */
			fprintf(stderr, "perf-prof usdt add: %s\n", err);
			undo(ev, n, verbose);
		}
		stopsig__release();
		if (!ret)
			print_added(ev, n);
	}
	free(ev);
	uprobe_defs__free(defs, ndefs);
	return ret;
}

/* ---- del ---- */

/*
 * Is @d the probe "usdt add" made for the site @st of @u: its file and
 * offset, group and event (EVENT, or EVENT_N where the site needed an event
 * of its own)?  The offset always: a probe foo_1's event is no site of foo.
 */
static bool def_of(const struct uprobe_def *d, const struct uspec *u, const struct probe_site *st)
{
	char prov[128], name[128], g[128], e[160];
	size_t n;

	usdt__site_names(st, prov, sizeof(prov), name, sizeof(name));
	usdt__tracefs_name(prov, g, sizeof(g));
	usdt__tracefs_name(name, e, sizeof(e));
	n = strlen(e);
	if (d->ret || strcmp(d->group, g) || strncmp(d->event, e, n))
		return false;
	if (d->event[n] && (d->event[n] != '_' || !d->event[n + 1] ||
			    strspn(d->event + n + 1, "0123456789") != strlen(d->event + n + 1)))
		return false;
	if (d->offset != st->offset)
		return false;
	return usdt__same_file(d, u->path);
}

static bool same_event(const struct uprobe_def *a, const struct uprobe_def *b)
{
	return !strcmp(a->group, b->group) && !strcmp(a->event, b->event);
}

/* "-:GROUP/EVENT", or with @make "p:GROUP/EVENT ..." that made @d's probe. */
static int write_def(const struct uprobe_def *d, bool make, int verbose, char *why, size_t len)
{
	char line[PATH_MAX + 1024], rc[40] = "";

	if (d->ref_ctr)
		snprintf(rc, sizeof(rc), "(0x%llx)", (unsigned long long)d->ref_ctr);
	if (make)
		snprintf(line, sizeof(line), "p:%s/%s %s:0x%llx%s%s", d->group, d->event, d->path,
			 (unsigned long long)d->offset, rc, d->args);
	else
		snprintf(line, sizeof(line), "-:%s/%s", d->group, d->event);
	if (verbose)
		printf("    %s\n", line);
	return uprobe_defs__write(line, why, len);
}

/*
 * Remove the probes @go marks of the event of defs[@i]: 0, or 1 with a
 * line on stderr.  Some of its probes stay: the event is removed whole and
 * made again with them (this kernel's fields of an event that lost its
 * first probe point into freed memory).
 */
static int remove_event(const struct uprobe_def *defs, int ndefs, const bool *go, int i,
			int verbose)
{
	int sites = 0, total = 0, ret;
	char why[512];

	for (int k = 0; k < ndefs; k++)
		if (same_event(&defs[k], &defs[i])) {
			total++;
			sites += go[k];
		}
	ret = write_def(&defs[i], false, verbose, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "perf-prof usdt del: cannot remove %s:%s: %s%s\n", defs[i].group,
			defs[i].event, why,
			ret == -EBUSY ? " (a tracer has it open: stop it first)" : "");
		return 1;
	}
	for (int k = 0; k < ndefs && !ret; k++)
		if (!go[k] && same_event(&defs[k], &defs[i]))
			ret = write_def(&defs[k], true, verbose, why, sizeof(why));
	if (ret) {
		fprintf(stderr,
			"perf-prof usdt del: removed %s:%s, but could not make it again with the "
			"sites that stay: %s (perf-prof usdt add them)\n",
			defs[i].group, defs[i].event, why);
		return 1;
	}
	if (sites == total)
		printf("removed %s:%s (%d site%s in %s)\n", defs[i].group, defs[i].event, sites,
		       sites > 1 ? "s" : "", defs[i].path);
	else
		printf("removed %d of the %d sites of %s:%s (in %s)\n", sites, total, defs[i].group,
		       defs[i].event, defs[i].path);
	return 0;
}

static int usdt_del(struct uspec *specs, int nspec, int verbose)
{
	struct uprobe_def *defs = NULL;
	int ndefs = 0, ret, failed = 0;
	bool *go = NULL;
	char err[1024];

	ret = usdt__read_defs(&defs, &ndefs, err, sizeof(err));
	if (!ret && ndefs && !(go = calloc(ndefs, sizeof(*go)))) {
		snprintf(err, sizeof(err), "out of memory");
		ret = 1;
	}
	/* every argument names something added, or nothing is removed */
	for (int s = 0; !ret && s < nspec; s++) {
		int found = 0;

		for (int k = 0; k < ndefs; k++)
			for (int i = 0; i < specs[s].nr; i++)
				if (def_of(&defs[k], &specs[s], &specs[s].sites[i])) {
					found++;
					go[k] = true;
					break;
				}
		if (!found && !specs[s].named)
			snprintf(err, sizeof(err),
				 "'%s': none of the USDT probes of %s is added (see: perf-prof "
				 "usdt list)",
				 specs[s].text, specs[s].path);
		else if (!found)
			snprintf(err, sizeof(err),
				 "'%s': %s:%s%s is not added for %s (see: perf-prof usdt list)",
				 specs[s].text, specs[s].provider, specs[s].name,
				 specs[s].has_addr ? " at that address" : "", specs[s].path);
		ret = !found;
	}
	if (ret) {
		fprintf(stderr, "perf-prof usdt del: %s\n", err);
	} else {
		stopsig__hold();
		for (int i = 0; i < ndefs; i++) {
			bool first = go[i];

			for (int k = 0; k < i && first; k++)
				first = !(go[k] && same_event(&defs[k], &defs[i]));
			if (first)
				failed |= remove_event(defs, ndefs, go, i, verbose);
		}
		stopsig__release();
	}
	free(go);
	uprobe_defs__free(defs, ndefs);
	return ret ? ret : failed;
}

/* ---- the command ---- */

static int usdt_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	const struct log_opts *log = opt_set__get(opts, &log_group);
	struct usdt_priv *up = priv;
	int verbose = log ? log->verbose : 0, ret = 0, nspec = 0;
	struct uspec *specs;
	const char *sub;
	char err[1024];

	if (argc < 1) {
		fprintf(stderr, "perf-prof usdt: add, del or list? (perf-prof usdt -h)\n");
		return 2;
	}
	sub = argv[0];
	if (strcmp(sub, "add") && strcmp(sub, "del") && strcmp(sub, "list")) {
		fprintf(stderr, "perf-prof usdt: '%s': not add, del or list (perf-prof usdt -h)\n",
			sub);
		return 2;
	}
	if (argc < 2 && strcmp(sub, "list")) {
		fprintf(stderr,
			"perf-prof usdt %s: which probes? [[PROVIDER:]NAME@]BINARY[@ADDR] ...\n",
			sub);
		return 2;
	}
	if (up->json && strcmp(sub, "list")) {
		fprintf(stderr, "perf-prof usdt %s: --json is for usdt list\n", sub);
		return 2;
	}
	specs = calloc(argc, sizeof(*specs));
	if (!specs)
		return 1;
	for (int i = 1; i < argc && !ret; i++, nspec++)
		ret = uspec__resolve(&specs[nspec], argv[i], err, sizeof(err));
	if (ret)
		fprintf(stderr, "perf-prof usdt %s: %s\n", sub, err);
	else if (!strcmp(sub, "add"))
		ret = usdt_add(specs, nspec, verbose);
	else if (!strcmp(sub, "del"))
		ret = usdt_del(specs, nspec, verbose);
	else
		ret = usdt_list(specs, nspec, up->json, verbose);
	for (int i = 0; i < nspec; i++)
		uspec__clear(&specs[i]);
	free(specs);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "perf-prof usdt: cannot write: %s\n", strerror(errno));
		return 1;
	}
	return ret;
}

static const struct popt usdt_opts[] = {
	{ .lname = "json",
	  .help = "usdt list: one JSON object per line, a probe each",
	  POPT_BIND_FLAG(struct usdt_priv, json) },
	{ 0 },
};

const struct command cmd_usdt = {
	.name = "usdt",
	.desc = "USDT probes (.note.stapsdt) as tracefs uprobe events: add, del, list",
	.synopsis = "perf-prof usdt add|del|list [-v] [--json] [[PROVIDER:]NAME@]BINARY[@ADDR] ...",
	.examples =
		"perf-prof usdt list /usr/bin/python3              # its probes and operands\n"
		"  perf-prof usdt add /usr/bin/python3               # all of them, as tracefs "
		"events\n"
		"  perf-prof trace -e python:gc__start -p PID         # then used as tracepoints\n"
		"  perf-prof usdt list                               # the ones added\n"
		"  perf-prof usdt del /usr/bin/python3\n"
		"  perf-prof usdt add python:gc__start@python3.11     # one probe, every site of "
		"it\n"
		"  perf-prof usdt add 'ppwork:tick@./prog@0x11f6'    # one site, by its address",
	.needs = (const char *const[]){ "tracefs", "uprobe", NULL },
	.own = usdt_opts,
	.priv_size = sizeof(struct usdt_priv),
	.run = usdt_run,
};
