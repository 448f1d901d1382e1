// SPDX-License-Identifier: GPL-2.0
/*
 * pprof output (report/pprof.h): the tables of profile.proto built as
 * samples come, encoded with the protobuf-c code generated from the
 * upstream profile.proto and gzipped with zlib as it is encoded.
 *
 * What goes where:
 *   string_table	every string once, string 0 is ""; strings that are not
 *			UTF-8 (comm names can hold anything) get U+FFFD for the
 *			bad bytes, as protobuf strings must be UTF-8
 *   function	one per (name, source file): the symbol as name and
 *			system_name; the file and first line from the source
 *			lookups made when the profile is first encoded
 *   mapping	one per mapped file range a frame came from (start, limit,
 *			file offset, file, build-id), or one per file for frames
 *			without a known range (kernel, kept stacks), its range the
 *			addresses seen; the program's first
 *   location	one per (mapping, address, symbol), with one line (the
 *			function, and the line number where the source is known)
 *   sample	one per (stack, labels), values added up
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <profile.pb-c.h>
#include <uthash.h>
#include <zlib.h>

#include "report/pprof.h"
#include "util/hash.h"
#include "util/utf8.h"

#define LABEL_WORDS 4	/* a label in a sample's key: key, str, num, unit */
#define MAX_BUILD_ID 64 /* bytes */

struct str_ent {
	UT_hash_handle hh;
	int64_t idx;
	size_t len;
	char s[];
};

struct func_ent {
	UT_hash_handle hh;
	int64_t key[2]; /* name, file */
	uint64_t id;
	int64_t start_line;
};

struct map_ent {
	UT_hash_handle hh;
	uint64_t key[5]; /* start, limit, offset, file, build-id */
	uint64_t id;
	uint64_t lo, hi; /* the addresses seen */
	bool ranged;	 /* the range is known (else lo..hi) */
	bool funcs;	 /* a location in it has a function */
	bool srcs;	 /* a location in it has a source file and line */
	uint64_t out_id; /* its id in the file: the main binary's is 1 */
	int64_t weight;	 /* msg_build: the main value of the samples it is in */
	uint64_t seen;	 /* msg_build: the last sample counted in weight */
};

struct loc_ent {
	UT_hash_handle hh;
	uint64_t key[3]; /* mapping, address, function */
	uint64_t id;
	struct map_ent *map;
	int64_t name;	   /* the function's name */
	struct dso *dso;   /* for the source lookup (NULL: none) */
	uint64_t vaddr;	   /* its address in dso's terms */
	uint64_t out_func; /* the function with its file, once looked up (0: key[2]) */
	int64_t line;	   /* the line, once looked up */
};

struct sample_ent {
	UT_hash_handle hh;
	int64_t values[PPROF_MAX_VALUES];
	uint32_t nr_locs, nr_labels;
	size_t keylen;
	uint64_t key[]; /* location ids, then the labels' LABEL_WORDS each */
};

struct pprof {
	int nr_types;
	int64_t types[PPROF_MAX_VALUES][2];
	int64_t main_type;
	int main_idx; /* of the main type */
	int64_t period_type[2], period;
	int64_t time_nanos, duration_nanos;
	int64_t *comments;
	size_t nr_comments;
	struct str_ent *strs;
	struct str_ent **str_by_idx;
	size_t nr_strs, cap_strs;
	struct func_ent *funcs;
	struct map_ent *maps, *last_map;
	struct loc_ent *locs;
	struct sample_ent *samples;
	uint64_t nr_funcs, nr_maps, nr_locs;
	uint32_t nr_samples;
	uint64_t *keybuf; /* a sample's key being built */
	size_t keycap;
	pprof_src_fn src_fn;
	void *src_arg;
	bool src_done; /* the lookups are made */
	int err;
};

/* The index of @s (@len bytes) in the string table, added if new; -1 on -ENOMEM. */
static int64_t str_idx_n(struct pprof *p, const char *s, size_t len)
{
	struct str_ent *e;
	char *clean = NULL;

	if (!s || !len)
		return 0;
	HASH_FIND(hh, p->strs, s, len, e);
	if (e)
		return e->idx;
	if (!utf8__valid(s, len)) {
		/* stored under its clean form, which another string may already have */
		int64_t idx;

		clean = utf8__sanitize(s, len);
		if (!clean)
			return -1;
		idx = str_idx_n(p, clean, strlen(clean));
		free(clean);
		return idx;
	}
	if (p->nr_strs == p->cap_strs) {
		size_t cap = p->cap_strs ? 2 * p->cap_strs : 256;
		struct str_ent **b = realloc(p->str_by_idx, cap * sizeof(*b));

		if (!b)
			return -1;
		p->str_by_idx = b;
		p->cap_strs = cap;
	}
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return -1;
	memcpy(e->s, s, len);
	e->s[len] = 0;
	e->len = len;
	e->idx = (int64_t)p->nr_strs;
	p->str_by_idx[p->nr_strs++] = e;
	HASH_ADD_KEYPTR(hh, p->strs, e->s, len, e);
	return e->idx;
}

static int64_t str_idx(struct pprof *p, const char *s)
{
	return s ? str_idx_n(p, s, strlen(s)) : 0;
}

struct pprof *pprof__new(const struct pprof_type *types, int nr, int main)
{
	struct pprof *p;

	if (nr < 1 || nr > PPROF_MAX_VALUES || main < 0 || main >= nr) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->nr_types = nr;
	/* string 0, "", is not in the hash: str_idx_n answers 0 for it */
	p->str_by_idx = malloc(256 * sizeof(*p->str_by_idx));
	if (!p->str_by_idx || !(p->str_by_idx[0] = calloc(1, sizeof(struct str_ent) + 1))) {
		pprof__delete(p);
		errno = ENOMEM;
		return NULL;
	}
	p->cap_strs = 256;
	p->nr_strs = 1;
	for (int i = 0; i < nr; i++) {
		p->types[i][0] = str_idx(p, types[i].type);
		p->types[i][1] = str_idx(p, types[i].unit);
		if (p->types[i][0] < 0 || p->types[i][1] < 0) {
			pprof__delete(p);
			errno = ENOMEM;
			return NULL;
		}
	}
	p->main_type = p->types[main][0];
	p->main_idx = main;
	return p;
}

void pprof__delete(struct pprof *p)
{
	if (!p)
		return;
	HASH_FREE_ALL(hh, p->samples);
	HASH_FREE_ALL(hh, p->locs);
	HASH_FREE_ALL(hh, p->maps);
	HASH_FREE_ALL(hh, p->funcs);
	HASH_CLEAR(hh, p->strs);
	for (size_t i = 0; i < p->nr_strs; i++)
		free(p->str_by_idx[i]);
	free(p->str_by_idx);
	free(p->comments);
	free(p->keybuf);
	free(p);
}

void pprof__set_period(struct pprof *p, const struct pprof_type *type, int64_t period)
{
	int64_t t = str_idx(p, type->type), u = str_idx(p, type->unit);

	if (t < 0 || u < 0) {
		p->err = -ENOMEM;
		return;
	}
	p->period_type[0] = t;
	p->period_type[1] = u;
	p->period = period;
}

void pprof__set_time(struct pprof *p, int64_t time_nanos, int64_t duration_nanos)
{
	p->time_nanos = time_nanos;
	p->duration_nanos = duration_nanos;
}

int pprof__comment(struct pprof *p, const char *text)
{
	int64_t idx = str_idx(p, text), *c;

	if (idx < 0)
		return -ENOMEM;
	c = realloc(p->comments, (p->nr_comments + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	c[p->nr_comments++] = idx;
	p->comments = c;
	return 0;
}

static bool unknown_sym(const struct frame *fr)
{
	return !fr->sym || !*fr->sym || !strcmp(fr->sym, "[unknown]");
}

/* The function @name (a string index) of @file (0: not known). */
static int func_id(struct pprof *p, int64_t name, int64_t file, int64_t start_line, uint64_t *id)
{
	struct func_ent *f, key = { .key = { name, file } };

	HASH_FIND(hh, p->funcs, key.key, sizeof(key.key), f);
	if (f) {
		*id = f->id;
		return 0;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	memcpy(f->key, key.key, sizeof(f->key));
	f->start_line = start_line;
	f->id = ++p->nr_funcs;
	HASH_ADD(hh, p->funcs, key, sizeof(f->key), f);
	*id = f->id;
	return 0;
}

static int build_id_idx(struct pprof *p, const struct frame_map *fm, int64_t *idx)
{
	char hex[2 * MAX_BUILD_ID + 1];
	int n = fm->build_id_len < MAX_BUILD_ID ? fm->build_id_len : MAX_BUILD_ID;

	*idx = 0;
	if (!fm->build_id || n <= 0)
		return 0;
	for (int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", fm->build_id[i]);
	*idx = str_idx(p, hex);
	return *idx < 0 ? -ENOMEM : 0;
}

/* The mapping of @fr (0: none), its address range widened to hold the frame's address. */
static int map_id(struct pprof *p, const struct frame *fr, const struct frame_map *fm,
		  struct map_ent **out)
{
	uint64_t key[5] = { 0 };
	int64_t file, bid = 0;
	struct map_ent *m;

	*out = NULL;
	if (!fr->dso || !*fr->dso)
		return 0;
	file = str_idx(p, fr->dso);
	if (file < 0)
		return -ENOMEM;
	if (fm && fm->end > fm->start) {
		if (build_id_idx(p, fm, &bid))
			return -ENOMEM;
		key[0] = fm->start;
		key[1] = fm->end;
		key[2] = fm->pgoff;
	}
	key[3] = (uint64_t)file;
	key[4] = (uint64_t)bid;
	m = p->last_map; /* the frames of a stack mostly come from the few same files */
	if (!m || memcmp(m->key, key, sizeof(key)))
		HASH_FIND(hh, p->maps, key, sizeof(key), m);
	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m)
			return -ENOMEM;
		memcpy(m->key, key, sizeof(key));
		m->id = ++p->nr_maps;
		m->ranged = key[1] != 0;
		m->lo = fr->addr;
		m->hi = fr->addr;
		HASH_ADD(hh, p->maps, key, sizeof(m->key), m);
	}
	p->last_map = m;
	if (fr->addr < m->lo)
		m->lo = fr->addr;
	if (fr->addr > m->hi)
		m->hi = fr->addr;
	*out = m;
	return 0;
}

static int loc_id(struct pprof *p, const struct frame *fr, const struct frame_map *fm, uint64_t *id)
{
	uint64_t key[3] = { 0, fr->addr, 0 };
	struct map_ent *m;
	struct loc_ent *l;
	int64_t name = 0;
	int err = map_id(p, fr, fm, &m);

	if (err)
		return err;
	key[0] = m ? m->id : 0;
	if (!unknown_sym(fr)) {
		name = str_idx(p, fr->sym);
		if (name < 0)
			return -ENOMEM;
		err = func_id(p, name, 0, 0, &key[2]);
		if (err)
			return err;
		if (m)
			m->funcs = true;
	}
	HASH_FIND(hh, p->locs, key, sizeof(key), l);
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l)
			return -ENOMEM;
		memcpy(l->key, key, sizeof(key));
		l->map = m;
		l->name = name;
		if (fm && fm->dso && name) {
			l->dso = fm->dso;
			l->vaddr = fm->vaddr;
		}
		l->id = ++p->nr_locs;
		HASH_ADD(hh, p->locs, key, sizeof(l->key), l);
	}
	*id = l->id;
	return 0;
}

static int add(struct pprof *p, const struct frame *frames, const struct frame_map *maps, int nr,
	       const struct pprof_label *labels, int nr_labels, const int64_t *values)
{
	size_t words = (size_t)nr + (size_t)nr_labels * LABEL_WORDS, len;
	struct sample_ent *e;
	int err;

	if (words > p->keycap) {
		size_t cap = words < 64 ? 64 : 2 * words;
		uint64_t *b = realloc(p->keybuf, cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		p->keybuf = b;
		p->keycap = cap;
	}
	for (int i = 0; i < nr; i++) {
		err = loc_id(p, &frames[i], maps ? &maps[i] : NULL, &p->keybuf[i]);
		if (err)
			return err;
	}
	for (int i = 0; i < nr_labels; i++) {
		uint64_t *w = &p->keybuf[nr + i * LABEL_WORDS];
		int64_t k = str_idx(p, labels[i].key), s = str_idx(p, labels[i].str),
			u = labels[i].str ? 0 : str_idx(p, labels[i].unit);

		if (k < 0 || s < 0 || u < 0)
			return -ENOMEM;
		w[0] = (uint64_t)k;
		w[1] = (uint64_t)s;
		w[2] = labels[i].str ? 0 : (uint64_t)labels[i].num;
		w[3] = (uint64_t)u;
	}
	len = words * sizeof(uint64_t);
	HASH_FIND(hh, p->samples, p->keybuf, len, e);
	if (!e) {
		e = calloc(1, sizeof(*e) + len);
		if (!e)
			return -ENOMEM;
		memcpy(e->key, p->keybuf, len);
		e->keylen = len;
		e->nr_locs = (uint32_t)nr;
		e->nr_labels = (uint32_t)nr_labels;
		HASH_ADD(hh, p->samples, key, len, e);
		p->nr_samples++;
	}
	for (int i = 0; i < p->nr_types; i++)
		e->values[i] += values[i];
	return 0;
}

int pprof__add(struct pprof *p, const struct frame *frames, const struct frame_map *maps, int nr,
	       const struct pprof_label *labels, int nr_labels, const int64_t *values)
{
	if (!p || p->err)
		return p ? p->err : -EINVAL;
	if (nr < 0 || nr_labels < 0 || nr_labels > PPROF_MAX_LABELS)
		return -EINVAL;
	p->err = add(p, frames, maps, nr, labels, nr_labels, values);
	return p->err;
}

void pprof__stats(const struct pprof *p, struct pprof_stats *st)
{
	st->samples = p->nr_samples;
	st->locations = (uint32_t)p->nr_locs;
	st->functions = (uint32_t)p->nr_funcs;
	st->mappings = (uint32_t)p->nr_maps;
	st->strings = (uint32_t)p->nr_strs;
}

void pprof__set_src(struct pprof *p, pprof_src_fn fn, void *arg)
{
	p->src_fn = fn;
	p->src_arg = arg;
}

/* Each location's source file and line, once, before the first encoding. */
static int look_up_src(struct pprof *p)
{
	struct loc_ent *l;

	if (!p->src_fn || p->src_done)
		return 0;
	p->src_done = true;
	for (l = p->locs; l; l = l->hh.next) {
		struct frame_map fm = { .dso = l->dso, .vaddr = l->vaddr };
		struct pprof_src src;
		int64_t file;

		if (!l->dso || p->src_fn(p->src_arg, &fm, &src) || !src.file || !*src.file)
			continue;
		file = str_idx(p, src.file);
		if (file < 0 || func_id(p, l->name, file, src.start_line, &l->out_func))
			return -ENOMEM;
		l->line = src.line;
		if (l->map)
			l->map->srcs = true;
	}
	return 0;
}

/*
 * The message, pointing into @p's tables: the arrays it needs are
 * allocated in one block (*@mem) freed by the caller.
 */
struct msg {
	Perftools__Profiles__Profile prof;
	Perftools__Profiles__ValueType types[PPROF_MAX_VALUES], *type_ptrs[PPROF_MAX_VALUES];
	Perftools__Profiles__ValueType period_type;
	char **strings;
	Perftools__Profiles__Function *funcs, **func_ptrs;
	Perftools__Profiles__Mapping *maps, **map_ptrs;
	struct map_ent **map_by_id; /* [id - 1] */
	Perftools__Profiles__Location *locs, **loc_ptrs;
	Perftools__Profiles__Line *lines, **line_ptrs;
	Perftools__Profiles__Sample *samples, **sample_ptrs;
	Perftools__Profiles__Label *labels, **label_ptrs;
	int64_t *values;
};

static void msg_free(struct msg *m)
{
	free(m->strings);
	free(m->funcs);
	free(m->func_ptrs);
	free(m->maps);
	free(m->map_ptrs);
	free(m->map_by_id);
	free(m->locs);
	free(m->loc_ptrs);
	free(m->lines);
	free(m->line_ptrs);
	free(m->samples);
	free(m->sample_ptrs);
	free(m->labels);
	free(m->label_ptrs);
	free(m->values);
}

/* A file that is a program rather than the kernel, a module or a shared library. */
static bool program_file(const char *path)
{
	const char *base = strrchr(path, '/'), *so;

	base = base ? base + 1 : path;
	so = strstr(base, ".so");
	return path[0] != '[' && !(so && (so[3] == 0 || so[3] == '.'));
}

/*
 * Tools take the first mapping for the profiled program ("File:" in
 * pprof): the program file whose samples weigh most goes first (id 1),
 * the others follow in the order they came.
 */
static void order_maps(struct pprof *p, struct msg *m)
{
	struct map_ent *mp, *main = NULL;
	struct loc_ent *l;
	struct sample_ent *e;
	uint64_t **loc_map; /* location id -> its mapping id */
	uint64_t n = 0, id = 2, i = 0;

	for (mp = p->maps; mp; mp = mp->hh.next) {
		m->map_by_id[mp->id - 1] = mp;
		mp->weight = 0;
		mp->seen = 0;
	}
	loc_map = calloc(p->nr_locs + 1, sizeof(*loc_map));
	if (loc_map) {
		for (l = p->locs; l; l = l->hh.next)
			loc_map[l->id] = &l->key[0];
		for (e = p->samples; e; e = e->hh.next) {
			n++;
			for (uint32_t k = 0; k < e->nr_locs; k++) {
				uint64_t mid = *loc_map[e->key[k]];

				mp = mid ? m->map_by_id[mid - 1] : NULL;
				if (mp && mp->seen != n) { /* once per sample */
					mp->seen = n;
					mp->weight += e->values[p->main_idx];
				}
			}
		}
		free(loc_map);
	}
	for (mp = p->maps; mp; mp = mp->hh.next)
		if (program_file(p->str_by_idx[mp->key[3]]->s) &&
		    (!main || mp->weight > main->weight))
			main = mp;
	for (mp = p->maps; mp; mp = mp->hh.next, i++)
		mp->out_id = !main ? i + 1 : mp == main ? 1 : id++;
}

#define ALLOC(ptr, n) ((ptr) = calloc((size_t)(n) + 1, sizeof(*(ptr))))

static int msg_build(struct pprof *p, struct msg *m)
{
	Perftools__Profiles__Profile *pr = &m->prof;
	size_t nr_labels = 0, i;
	struct func_ent *f;
	struct map_ent *mp;
	struct loc_ent *l;
	struct sample_ent *e;
	int err;

	memset(m, 0, sizeof(*m));
	err = look_up_src(p); /* before the tables are counted: it adds to them */
	if (err)
		return err;
	perftools__profiles__profile__init(pr);
	for (e = p->samples; e; e = e->hh.next)
		nr_labels += e->nr_labels;
	if (!ALLOC(m->strings, p->nr_strs) || !ALLOC(m->funcs, p->nr_funcs) ||
	    !ALLOC(m->func_ptrs, p->nr_funcs) || !ALLOC(m->maps, p->nr_maps) ||
	    !ALLOC(m->map_ptrs, p->nr_maps) || !ALLOC(m->map_by_id, p->nr_maps) ||
	    !ALLOC(m->locs, p->nr_locs) || !ALLOC(m->loc_ptrs, p->nr_locs) ||
	    !ALLOC(m->lines, p->nr_locs) || !ALLOC(m->line_ptrs, p->nr_locs) ||
	    !ALLOC(m->samples, p->nr_samples) || !ALLOC(m->sample_ptrs, p->nr_samples) ||
	    !ALLOC(m->labels, nr_labels) || !ALLOC(m->label_ptrs, nr_labels) ||
	    !ALLOC(m->values, (size_t)p->nr_samples * p->nr_types)) {
		msg_free(m);
		return -ENOMEM;
	}
	for (int t = 0; t < p->nr_types; t++) {
		perftools__profiles__value_type__init(&m->types[t]);
		m->types[t].type = p->types[t][0];
		m->types[t].unit = p->types[t][1];
		m->type_ptrs[t] = &m->types[t];
	}
	pr->n_sample_type = (size_t)p->nr_types;
	pr->sample_type = m->type_ptrs;
	pr->default_sample_type = p->main_type;
	if (p->period_type[0]) {
		perftools__profiles__value_type__init(&m->period_type);
		m->period_type.type = p->period_type[0];
		m->period_type.unit = p->period_type[1];
		pr->period_type = &m->period_type;
		pr->period = p->period;
	}
	pr->time_nanos = p->time_nanos;
	pr->duration_nanos = p->duration_nanos;
	pr->n_comment = p->nr_comments;
	pr->comment = p->comments;

	for (i = 0; i < p->nr_strs; i++)
		m->strings[i] = p->str_by_idx[i]->s;
	pr->n_string_table = p->nr_strs;
	pr->string_table = m->strings;

	/* the hashes iterate in insertion order: id order */
	i = 0;
	for (f = p->funcs; f; f = f->hh.next, i++) {
		Perftools__Profiles__Function *fn = &m->funcs[i];

		perftools__profiles__function__init(fn);
		fn->id = f->id;
		fn->name = f->key[0];
		fn->system_name = f->key[0];
		fn->filename = f->key[1];
		fn->start_line = f->start_line;
		m->func_ptrs[i] = fn;
	}
	pr->n_function = p->nr_funcs;
	pr->function = m->func_ptrs;

	order_maps(p, m);
	for (mp = p->maps; mp; mp = mp->hh.next) {
		Perftools__Profiles__Mapping *mg = &m->maps[mp->out_id - 1];

		perftools__profiles__mapping__init(mg);
		mg->id = mp->out_id;
		mg->memory_start = mp->ranged ? mp->key[0] : mp->lo;
		mg->memory_limit = mp->ranged ? mp->key[1] : mp->hi + 1;
		mg->file_offset = mp->key[2];
		mg->filename = (int64_t)mp->key[3];
		mg->build_id = (int64_t)mp->key[4];
		/*
		 * A range made of the addresses seen cannot place an address in
		 * the file: no tool should try to symbolize through it.
		 */
		mg->has_functions = mp->funcs || !mp->ranged;
		mg->has_filenames = mp->srcs;
		mg->has_line_numbers = mp->srcs;
		m->map_ptrs[mp->out_id - 1] = mg;
	}
	pr->n_mapping = p->nr_maps;
	pr->mapping = m->map_ptrs;

	i = 0;
	for (l = p->locs; l; l = l->hh.next, i++) {
		Perftools__Profiles__Location *lc = &m->locs[i];

		perftools__profiles__location__init(lc);
		lc->id = l->id;
		lc->mapping_id = l->key[0] ? m->map_by_id[l->key[0] - 1]->out_id : 0;
		lc->address = l->key[1];
		if (l->key[2]) {
			perftools__profiles__line__init(&m->lines[i]);
			m->lines[i].function_id = l->out_func ? l->out_func : l->key[2];
			m->lines[i].line = l->line;
			m->line_ptrs[i] = &m->lines[i];
			lc->n_line = 1;
			lc->line = &m->line_ptrs[i];
		}
		m->loc_ptrs[i] = lc;
	}
	pr->n_location = p->nr_locs;
	pr->location = m->loc_ptrs;

	i = 0;
	nr_labels = 0;
	for (e = p->samples; e; e = e->hh.next, i++) {
		Perftools__Profiles__Sample *s = &m->samples[i];

		perftools__profiles__sample__init(s);
		s->n_location_id = e->nr_locs;
		s->location_id = e->key;
		s->n_value = (size_t)p->nr_types;
		s->value = &m->values[i * p->nr_types];
		memcpy(s->value, e->values, p->nr_types * sizeof(*s->value));
		s->n_label = e->nr_labels;
		s->label = &m->label_ptrs[nr_labels];
		for (uint32_t k = 0; k < e->nr_labels; k++, nr_labels++) {
			const uint64_t *w = &e->key[e->nr_locs + k * LABEL_WORDS];
			Perftools__Profiles__Label *lb = &m->labels[nr_labels];

			perftools__profiles__label__init(lb);
			lb->key = (int64_t)w[0];
			lb->str = (int64_t)w[1];
			lb->num = (int64_t)w[2];
			lb->num_unit = (int64_t)w[3];
			m->label_ptrs[nr_labels] = lb;
		}
		m->sample_ptrs[i] = s;
	}
	pr->n_sample = p->nr_samples;
	pr->sample = m->sample_ptrs;
	return 0;
}

int pprof__pack(struct pprof *p, uint8_t **buf, size_t *len)
{
	struct msg m;
	int err;

	*buf = NULL;
	*len = 0;
	if (p->err)
		return p->err;
	err = msg_build(p, &m);
	if (err)
		return err;
	*len = perftools__profiles__profile__get_packed_size(&m.prof);
	*buf = malloc(*len ? *len : 1);
	if (*buf)
		perftools__profiles__profile__pack(&m.prof, *buf);
	else
		err = -ENOMEM;
	msg_free(&m);
	return err;
}

/* A protobuf-c output buffer that gzips what it gets into a FILE. */
struct gz_buf {
	ProtobufCBuffer base;
	z_stream z;
	FILE *fp;
	int err;
	unsigned char out[65536];
};

static void gz_flush(struct gz_buf *g, int mode)
{
	do {
		size_t n;

		g->z.next_out = g->out;
		g->z.avail_out = sizeof(g->out);
		if (deflate(&g->z, mode) == Z_STREAM_ERROR) {
			g->err = -EIO;
			return;
		}
		n = sizeof(g->out) - g->z.avail_out;
		if (n && fwrite(g->out, 1, n, g->fp) != n) {
			g->err = errno ? -errno : -EIO;
			return;
		}
	} while (g->z.avail_out == 0);
}

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_buf *g = (struct gz_buf *)b;

	if (g->err)
		return;
	g->z.next_in = (Bytef *)data;
	g->z.avail_in = (uInt)len;
	gz_flush(g, Z_NO_FLUSH);
}

int pprof__write(struct pprof *p, FILE *fp)
{
	struct gz_buf *g;
	struct msg m;
	int err;

	if (p->err)
		return p->err;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	err = msg_build(p, &m);
	if (err) {
		free(g);
		return err;
	}
	g->base.append = gz_append;
	g->fp = fp;
	/* 15 + 16: a gzip header and trailer around the deflate stream */
	if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		msg_free(&m);
		free(g);
		return -ENOMEM;
	}
	perftools__profiles__profile__pack_to_buffer(&m.prof, &g->base);
	if (!g->err) {
		g->z.next_in = NULL;
		g->z.avail_in = 0;
		gz_flush(g, Z_FINISH);
	}
	err = g->err;
	deflateEnd(&g->z);
	msg_free(&m);
	free(g);
	return err;
}
