// SPDX-License-Identifier: GPL-2.0
/* Source lines from DWARF (sym/srcline.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <uthash.h>

#include "sym/srcline.h"
#include "util/hash.h"

/* Where a unit's code is, for files without .debug_aranges (clang's default). */
struct cu_range {
	u64 lo, hi; /* [lo, hi) */
	Dwarf_Off die;
};

struct dwfile {
	UT_hash_handle hh;
	Dwarf *dw; /* NULL: the file has no DWARF (or cannot be read) */
	int fd;
	struct cu_range *ranges; /* sorted by lo; made on the first miss of the aranges */
	size_t nr_ranges;
	bool ranges_made;
	char path[];
};

/* A file name made absolute with its unit's directory. */
struct path {
	UT_hash_handle hh;
	char s[];
};

struct srclines {
	struct dwfile *files;
	struct path *paths;
};

struct srclines *srclines__new(void)
{
	return calloc(1, sizeof(struct srclines));
}

void srclines__delete(struct srclines *sl)
{
	struct dwfile *f, *t;

	if (!sl)
		return;
	HASH_FREE_ALL(hh, sl->paths);
	HASH_ITER(hh, sl->files, f, t)
	{
		HASH_DEL(sl->files, f);
		if (f->dw)
			dwarf_end(f->dw);
		if (f->fd >= 0)
			close(f->fd);
		free(f->ranges);
		free(f);
	}
	free(sl);
}

static struct dwfile *file_dwarf(struct srclines *sl, const char *path)
{
	size_t len = strlen(path);
	struct dwfile *f;

	HASH_FIND(hh, sl->files, path, len, f);
	if (f)
		return f;
	f = calloc(1, sizeof(*f) + len + 1);
	if (!f)
		return NULL;
	memcpy(f->path, path, len + 1);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	f->dw = f->fd >= 0 ? dwarf_begin(f->fd, DWARF_C_READ) : NULL;
	if (!f->dw && f->fd >= 0) {
		close(f->fd);
		f->fd = -1;
	}
	HASH_ADD_KEYPTR(hh, sl->files, f->path, len, f);
	return f;
}

static int by_lo(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every unit's address ranges, from the units themselves. */
static void make_ranges(struct dwfile *f)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die die;
	size_t cap = 0;

	f->ranges_made = true;
	while (!dwarf_get_units(f->dw, cu, &cu, NULL, NULL, &die, NULL)) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t o = 0;

		while ((o = dwarf_ranges(&die, o, &base, &lo, &hi)) > 0) {
			if (f->nr_ranges == cap) {
				size_t n = cap ? 2 * cap : 64;
				struct cu_range *r = realloc(f->ranges, n * sizeof(*r));

				if (!r)
					return;
				f->ranges = r;
				cap = n;
			}
			f->ranges[f->nr_ranges++] =
				(struct cu_range){ lo, hi, dwarf_dieoffset(&die) };
		}
	}
	qsort(f->ranges, f->nr_ranges, sizeof(*f->ranges), by_lo);
}

/* The unit holding @vaddr: through .debug_aranges, else the units' own ranges. */
static bool find_cu(struct dwfile *f, u64 vaddr, Dwarf_Die *cu)
{
	size_t lo = 0, hi;

	if (dwarf_addrdie(f->dw, vaddr, cu))
		return true;
	if (!f->ranges_made)
		make_ranges(f);
	/* the last ranges starting at or below vaddr (units do not overlap: a few) */
	hi = f->nr_ranges;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->ranges[mid].lo <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = 0; k < 4 && lo-- > 0; k++)
		if (vaddr < f->ranges[lo].hi)
			return dwarf_offdie(f->dw, f->ranges[lo].die, cu) != NULL;
	return false;
}

/* @name as DWARF gives it, relative to the unit's directory unless absolute. */
static const char *full_path(struct srclines *sl, Dwarf_Die *cu, const char *name)
{
	Dwarf_Attribute a;
	const char *dir;
	struct path *p;
	size_t dl, nl, len;

	if (name[0] == '/' || !dwarf_attr(cu, DW_AT_comp_dir, &a) || !(dir = dwarf_formstring(&a)))
		return name;
	dl = strlen(dir);
	nl = strlen(name);
	len = dl + 1 + nl;
	p = malloc(sizeof(*p) + len + 1);
	if (!p)
		return name;
	memcpy(p->s, dir, dl);
	p->s[dl] = '/';
	memcpy(p->s + dl + 1, name, nl + 1);
	{
		struct path *old;

		HASH_FIND(hh, sl->paths, p->s, len, old);
		if (old) {
			free(p);
			return old->s;
		}
	}
	HASH_ADD_KEYPTR(hh, sl->paths, p->s, len, p);
	return p->s;
}

/*
 * The file a function is declared in.  elfutils 0.188 refuses DWARF 5's
 * file number 0 (the unit's own file, where clang puts its functions): read
 * the number and the unit's file table then.
 */
static const char *decl_file(Dwarf_Die *die, Dwarf_Die *cu)
{
	const char *f = dwarf_decl_file(die);
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Files *files;
	size_t nr;

	if (f)
		return f;
	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &a) || dwarf_formudata(&a, &idx) ||
	    dwarf_getsrcfiles(cu, &files, &nr) || idx >= nr)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

int srclines__find(struct srclines *sl, const char *path, u64 vaddr, struct srcline *out)
{
	struct dwfile *f = sl && path ? file_dwarf(sl, path) : NULL;
	Dwarf_Die cu, *scopes = NULL;
	int n, fn = -1, inl = -1;

	*out = (struct srcline){ 0 };
	if (!f || !f->dw || !find_cu(f, vaddr, &cu))
		return -ENOENT;
	/* innermost first: blocks, inlined calls, then the function that holds them */
	n = dwarf_getscopes(&cu, vaddr, &scopes);
	for (int i = 0; i < n && fn < 0; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			fn = i;
		else if (tag == DW_TAG_inlined_subroutine)
			inl = i;
	}
	if (fn < 0 || !(out->file = decl_file(&scopes[fn], &cu))) {
		free(scopes);
		out->file = NULL;
		return -ENOENT;
	}
	out->file = full_path(sl, &cu, out->file);
	dwarf_decl_line(&scopes[fn], &out->fn_line);
	if (inl >= 0) {
		/* code inlined into the function: the line of the outermost call */
		Dwarf_Attribute a;
		Dwarf_Word w;

		if (dwarf_attr(&scopes[inl], DW_AT_call_line, &a) && !dwarf_formudata(&a, &w))
			out->line = (int)w;
	} else {
		Dwarf_Line *l = dwarf_getsrc_die(&cu, vaddr);
		const char *f = l ? dwarf_linesrc(l, NULL, NULL) : NULL;

		if (f && !strcmp(full_path(sl, &cu, f), out->file))
			dwarf_lineno(l, &out->line);
	}
	free(scopes);
	return 0;
}
