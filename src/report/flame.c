// SPDX-License-Identifier: GPL-2.0
/*
 * Flame graph output for profilers: stacks go into a frame trie
 * (out/ftrie.c) as they come, and are written once at the end (or, for
 * folded output with -i, at every interval so memory stays bounded on long
 * runs).
 *
 * Frame names in the folded output (a convention flamegraph.pl --color=java,
 * inferno and speedscope understand):
 *   comm			the root frame (what the caller passes: comm or pid)
 *   user frames		the symbol; "[libfoo.so]" for an unresolved address in
 *				a known file (basename), "[unknown]" otherwise
 *   -			between the user part and the kernel part
 *   kernel frames		the symbol with the suffix "_[k]" (coloured orange by
 *				flamegraph.pl --color=java and by our SVG)
 *   leaf			the caller's extra frame, as given
 * ';' in names becomes ':' and line breaks become spaces, so that a name
 * never splits a frame or a line; other control characters (a comm may
 * hold any byte) become '?', as the folded reader refuses them and the
 * SVG shows them so.
 */
#include <errno.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame.h"
#include "report/ftrie.h"
#include "report/outfile.h"

/*
 * Frame name ids by (sym, dso, kernel) pointers: a profiler passes the same
 * resolver-owned strings again and again, so a repeated frame costs a
 * pointer hash and a strcmp (kept so that a caller reusing a buffer for
 * another name still gets the right frame) instead of hashing the name.
 */
#define MEMO_SIZE 8192 /* two ways: slot and slot ^ 1 */

struct memo {
	const char *sym, *dso;	       /* the caller's pointers (dso NULL if not in the name) */
	const char *raw_sym, *raw_dso; /* interned copies of their contents, to validate a hit */
	uint32_t id;		       /* the frame's name id */
	bool kernel, used;
};

struct flame {
	char *path;
	bool svg;
	char *title;
	char *count_name;
	struct ftrie t;
	char *ts;	  /* current interval timestamp, or NULL */
	uint32_t ts_node; /* its node in t, 0 until used */
	uint32_t sep;	  /* name id of "-", valid if have_sep */
	bool have_sep;
	bool started; /* the output file was written: folded output is appended */
	int err;      /* first error, reported by flame__write */
	char *buf;    /* scratch for names that need rewriting */
	size_t cap;
	struct memo *memo; /* MEMO_SIZE entries */
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

struct flame *flame__new(const char *name, const char *title, const char *count_name)
{
	struct flame *f;
	int err;

	if (!name || !*name) {
		errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->svg = ends_with(name, ".svg");
	if (f->svg || ends_with(name, ".folded"))
		f->path = strdup(name);
	else if (asprintf(&f->path, "%s.folded", name) < 0)
		f->path = NULL;
	f->title = strdup(title && *title ? title : "Flame Graph");
	f->count_name = strdup(count_name && *count_name ? count_name : "samples");
	f->memo = calloc(MEMO_SIZE, sizeof(*f->memo));
	if (!f->path || !f->title || !f->count_name || !f->memo || ftrie__init(&f->t)) {
		flame__delete(f);
		errno = ENOMEM;
		return NULL;
	}
	/*
	 * Fail now rather than after hours of profiling if the file cannot be
	 * written, but leave an old one as it is until the new one is complete.
	 */
	err = outfile__check(f->path);
	if (err) {
		flame__delete(f);
		errno = -err;
		return NULL;
	}
	return f;
}

void flame__delete(struct flame *f)
{
	if (!f)
		return;
	ftrie__exit(&f->t);
	free(f->path);
	free(f->title);
	free(f->count_name);
	free(f->ts);
	free(f->buf);
	free(f->memo);
	free(f);
}

/*
 * What a folded line cannot hold: ';' and line breaks, and the control
 * characters the folded reader refuses (ftrie__parse_folded_line).
 */
static const char unfolded[] = ";\n\r\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f"
			       "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d"
			       "\x1e\x1f\x7f";

/* Intern the concatenation of @parts, rewriting characters a folded line cannot hold. */
static int intern_parts(struct flame *f, const char *const *parts, int nr, uint32_t *id)
{
	size_t len = 0, need = 0;
	bool clean = nr == 1;

	for (int i = 0; i < nr; i++) {
		size_t n = strcspn(parts[i], unfolded);

		if (parts[i][n]) {
			clean = false;
			n += strlen(parts[i] + n);
		}
		need += n;
	}
	if (clean)
		return ftrie__intern(&f->t, parts[0], need, id);
	if (need + 1 > f->cap) {
		char *nb = realloc(f->buf, need + 64);

		if (!nb)
			return -ENOMEM;
		f->buf = nb;
		f->cap = need + 64;
	}
	for (int i = 0; i < nr; i++) {
		for (const char *p = parts[i]; *p; p++) {
			char c = *p;

			if (c == ';')
				c = ':';
			else if (c == '\n' || c == '\r')
				c = ' ';
			else if (((unsigned char)c < 0x20 && c != '\t') || c == 0x7f)
				c = '?'; /* what the SVG shows for it, too */
			f->buf[len++] = c;
		}
	}
	return ftrie__intern(&f->t, f->buf, len, id);
}

static int intern_str(struct flame *f, const char *s, uint32_t *id)
{
	return intern_parts(f, &s, 1, id);
}

static int intern_frame(struct flame *f, const struct frame *fr, uint32_t *id)
{
	const char *parts[4];
	int nr = 0;
	const char *sym = fr->sym && *fr->sym ? fr->sym : "[unknown]";

	if (sym[0] == '[' && strcmp(sym, "[unknown]") == 0 && fr->dso && *fr->dso) {
		if (fr->dso[0] == '[') {
			parts[nr++] = fr->dso;
		} else {
			const char *base = strrchr(fr->dso, '/');

			parts[nr++] = "[";
			parts[nr++] = base && base[1] ? base + 1 : fr->dso;
			parts[nr++] = "]";
		}
	} else {
		parts[nr++] = sym;
	}
	if (fr->kernel)
		parts[nr++] = "_[k]";
	return intern_parts(f, parts, nr, id);
}

/* The dso is part of a frame's name only when the symbol is unknown. */
static const char *name_dso(const struct frame *fr)
{
	if (fr->sym[0] == '[' && fr->dso && *fr->dso && strcmp(fr->sym, "[unknown]") == 0)
		return fr->dso;
	return NULL;
}

static uint32_t memo_slot(const struct frame *fr, const char *dso)
{
	uint64_t h = (uintptr_t)fr->sym * 0x9e3779b97f4a7c15ULL ^ (uintptr_t)dso ^ fr->kernel;

	h *= 0xbf58476d1ce4e5b9ULL;
	return (h >> 40) & (MEMO_SIZE - 2);
}

static bool memo_valid(const struct memo *m, const struct frame *fr, const char *dso)
{
	if (!m->used || m->sym != fr->sym || m->dso != dso || m->kernel != fr->kernel)
		return false;
	return strcmp(m->raw_sym, fr->sym) == 0 && (!dso || strcmp(m->raw_dso, dso) == 0);
}

static int frame_id(struct flame *f, const struct frame *fr, uint32_t *id)
{
	const char *dso;
	struct memo *m;
	uint32_t slot, raw_sym, raw_dso = 0;
	int err;

	if (!fr->sym || !*fr->sym)
		return intern_frame(f, fr, id);
	dso = name_dso(fr);
	slot = memo_slot(fr, dso);
	m = &f->memo[slot];
	if (memo_valid(m, fr, dso) || memo_valid(++m, fr, dso)) {
		*id = m->id;
		return 0;
	}
	err = intern_frame(f, fr, id);
	if (!err)
		err = ftrie__intern(&f->t, fr->sym, strlen(fr->sym), &raw_sym);
	if (!err && dso)
		err = ftrie__intern(&f->t, dso, strlen(dso), &raw_dso);
	if (err)
		return err;
	/* The newest entry goes first; the older one moves to the second way. */
	m = &f->memo[slot];
	m[1] = m[0];
	*m = (struct memo){ .sym = fr->sym,
			    .dso = dso,
			    .raw_sym = f->t.names[raw_sym].s,
			    .raw_dso = dso ? f->t.names[raw_dso].s : NULL,
			    .id = *id,
			    .kernel = fr->kernel,
			    .used = true };
	return 0;
}

static int add_frame(struct flame *f, uint32_t *node, const struct frame *fr)
{
	uint32_t id;
	int err = frame_id(f, fr, &id);

	return err ? err : ftrie__child(&f->t, *node, id, node);
}

static int add_name(struct flame *f, uint32_t *node, const char *s)
{
	uint32_t id;
	int err = intern_str(f, s, &id);

	return err ? err : ftrie__child(&f->t, *node, id, node);
}

void flame__add(struct flame *f, const char *comm, const struct frame *frames, int nr,
		const char *leaf, uint64_t weight)
{
	uint32_t node = 0;
	int nk = 0, err = 0;

	if (!f || f->err || !weight)
		return;
	if (f->ts) {
		if (!f->ts_node)
			err = add_name(f, &f->ts_node, f->ts);
		node = f->ts_node;
	}
	if (!err && comm && *comm)
		err = add_name(f, &node, comm);
	for (int i = nr - 1; i >= 0 && !err; i--) {
		if (frames[i].kernel)
			nk++;
		else
			err = add_frame(f, &node, &frames[i]);
	}
	if (!err && nk && nk < nr) {
		if (!f->have_sep) {
			err = ftrie__intern(&f->t, "-", 1, &f->sep);
			f->have_sep = !err;
		}
		if (!err)
			err = ftrie__child(&f->t, node, f->sep, &node);
	}
	for (int i = nr - 1; i >= 0 && !err && nk; i--) {
		if (frames[i].kernel)
			err = add_frame(f, &node, &frames[i]);
	}
	if (!err && leaf && *leaf)
		err = add_name(f, &node, leaf);
	if (err) {
		f->err = err;
		return;
	}
	f->t.nodes[node].self += weight;
}

/*
 * Append what the trie holds to the folded file and empty the trie.  The
 * first write replaces an old file through a temporary one; later ones
 * (-i) append to what it wrote.
 */
static int flush_folded(struct flame *f)
{
	struct outfile *of;
	FILE *fp = f->started ? outfile__append(f->path, &of) : outfile__create(f->path, &of);
	int err;

	if (!fp)
		return -errno;
	err = outfile__commit(fp, of, ftrie__write_folded(&f->t, fp));
	if (err)
		return err;
	f->started = true;
	ftrie__exit(&f->t);
	f->ts_node = 0;
	f->have_sep = false;
	memset(f->memo, 0, MEMO_SIZE * sizeof(*f->memo));
	return ftrie__init(&f->t);
}

void flame__interval(struct flame *f, const char *timestamp)
{
	if (!f)
		return;
	if (!f->svg && !f->err && f->t.nr_nodes > 1)
		f->err = flush_folded(f);
	free(f->ts);
	f->ts = timestamp && *timestamp ? strdup(timestamp) : NULL;
	if (timestamp && *timestamp && !f->ts && !f->err)
		f->err = -ENOMEM;
	f->ts_node = 0;
}

int flame__write(struct flame *f)
{
	struct outfile *of;
	FILE *fp;
	int err;

	if (!f)
		return -EINVAL;
	if (f->err)
		return f->err;
	if (!f->svg)
		return f->err = flush_folded(f);
	fp = outfile__create(f->path, &of);
	if (!fp)
		return -errno;
	err = flame_svg__write(&f->t, fp, f->title, f->count_name);
	return outfile__commit(fp, of, err);
}

int flame__folded_to_svg(const char *folded, const char *svg, const char *title,
			 const char *count_name, struct folded_stats *stp)
{
	struct folded_stats dummy, *st = stp ? stp : &dummy;
	struct ftrie t;
	struct outfile *of;
	struct stat sb;
	FILE *in, *out;
	int err;

	*st = (struct folded_stats){ 0 };
	if (!folded || !svg)
		return -EINVAL;
	in = fopen(folded, "r");
	if (!in)
		return -errno;
	if (!fstat(fileno(in), &sb) && S_ISDIR(sb.st_mode)) {
		fclose(in);
		return -EISDIR;
	}
	err = ftrie__init(&t);
	if (!err)
		err = ftrie__read_folded(&t, in, st);
	fclose(in);
	if (!err && st->bad == st->lines)
		err = st->lines ? -EINVAL /* not a folded file */ : -ENODATA;
	else if (!err && !st->total)
		err = -ENODATA; /* an empty graph would hide a failed collection */
	if (err)
		goto out;
	out = outfile__create(svg, &of);
	if (!out) {
		err = -errno;
		goto out;
	}
	err = flame_svg__write(&t, out, title && *title ? title : "Flame Graph",
			       count_name && *count_name ? count_name : "samples");
	err = outfile__commit(out, of, err);
out:
	ftrie__exit(&t);
	return err;
}
