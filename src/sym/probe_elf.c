// SPDX-License-Identifier: GPL-2.0
/*
 * Probe placement in an ELF file: functions by name, file offsets through
 * the load segments, DT_NEEDED/DT_RUNPATH and the SystemTap USDT notes.
 * The file may be hostile (the fuzzer feeds it), so every size and offset
 * read from it is checked before use; libelf bounds its own tables.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym/probe_elf.h"

#define NT_STAPSDT 3
#define STAPSDT_DESC 24	 /* pc, base, semaphore: three 8-byte addresses */
#define MAX_NEEDED 4096	 /* more DT_NEEDED than that is a hostile file */
#define NAME_MAX_LEN 256 /* longer names are not compared by edit distance */

struct load_seg {
	u64 vaddr, off, filesz;
};

struct probe_elf {
	int fd;
	Elf *elf;
	struct load_seg *load;
	int nr_load;
	size_t symtab, dynsym, versym; /* section indexes, 0: none */
	char **needed;		       /* NULL-terminated */
	int nr_needed;
	char *runpath;
};

static bool elf_ready(void)
{
	static int ok = -1;

	if (ok < 0)
		ok = elf_version(EV_CURRENT) != EV_NONE;
	return ok;
}

void probe_elf__free_list(char **list)
{
	if (!list)
		return;
	for (char **p = list; *p; p++)
		free(*p);
	free(list);
}

void probe_elf__delete(struct probe_elf *pe)
{
	if (!pe)
		return;
	elf_end(pe->elf);
	if (pe->fd >= 0)
		close(pe->fd);
	free(pe->load);
	probe_elf__free_list(pe->needed);
	free(pe->runpath);
	free(pe);
}

static int read_loads(struct probe_elf *pe)
{
	size_t phnum, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(pe->elf, &phnum))
		return 0; /* no program headers: nothing has a file offset */
	for (i = 0; i < phnum && gelf_getphdr(pe->elf, (int)i, &ph); i++) {
		struct load_seg *l;

		if (ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		l = realloc(pe->load, sizeof(*l) * (pe->nr_load + 1));
		if (!l)
			return -ENOMEM;
		pe->load = l;
		l[pe->nr_load++] = (struct load_seg){ ph.p_vaddr, ph.p_offset, ph.p_filesz };
	}
	return 0;
}

int probe_elf__offset(const struct probe_elf *pe, u64 vaddr, u64 *off)
{
	for (int i = 0; i < pe->nr_load; i++) {
		const struct load_seg *l = &pe->load[i];

		if (vaddr >= l->vaddr && vaddr - l->vaddr < l->filesz) {
			*off = l->off + (vaddr - l->vaddr);
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * A string table either as a section (elf_strptr checks it) or as a raw
 * chunk found through PT_DYNAMIC in a file without section headers.
 */
struct strtab {
	Elf *elf;
	size_t scn;
	Elf_Data *raw;
};

static const char *strtab__get(const struct strtab *t, u64 off)
{
	const char *s;

	if (!t->raw)
		return elf_strptr(t->elf, t->scn, off);
	if (off >= t->raw->d_size)
		return NULL;
	s = (const char *)t->raw->d_buf + off;
	return memchr(s, 0, t->raw->d_size - off) ? s : NULL;
}

static int add_needed(struct probe_elf *pe, const char *name)
{
	char **n;

	if (pe->nr_needed >= MAX_NEEDED)
		return 0;
	n = realloc(pe->needed, sizeof(*n) * (pe->nr_needed + 2));
	if (!n)
		return -ENOMEM;
	pe->needed = n;
	if (!(n[pe->nr_needed] = strdup(name)))
		return -ENOMEM;
	n[++pe->nr_needed] = NULL;
	return 0;
}

static int read_dyn_entries(struct probe_elf *pe, Elf_Data *d, const struct strtab *st)
{
	size_t i, n, ent = gelf_fsize(pe->elf, ELF_T_DYN, 1, EV_CURRENT);
	const char *rpath = NULL, *runpath = NULL, *s;
	GElf_Dyn dyn;
	int err;

	n = ent ? d->d_size / ent : 0;
	for (i = 0; i < n && gelf_getdyn(d, (int)i, &dyn) && dyn.d_tag != DT_NULL; i++) {
		s = NULL;
		if (dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_RUNPATH || dyn.d_tag == DT_RPATH)
			s = strtab__get(st, dyn.d_un.d_val);
		if (!s)
			continue;
		if (dyn.d_tag == DT_NEEDED && (err = add_needed(pe, s)))
			return err;
		if (dyn.d_tag == DT_RUNPATH)
			runpath = s;
		if (dyn.d_tag == DT_RPATH)
			rpath = s;
	}
	/* the dynamic linker ignores DT_RPATH when DT_RUNPATH is there */
	s = runpath ? runpath : rpath;
	if (s && !(pe->runpath = strdup(s)))
		return -ENOMEM;
	return 0;
}

/* A file without section headers still has PT_DYNAMIC and DT_STRTAB. */
static int read_dynamic_phdr(struct probe_elf *pe)
{
	u64 strtab = 0, strsz = 0, stroff;
	struct strtab st = { pe->elf, 0, NULL };
	size_t phnum, i, n, ent = gelf_fsize(pe->elf, ELF_T_DYN, 1, EV_CURRENT);
	Elf_Data *d = NULL;
	GElf_Phdr ph;
	GElf_Dyn dyn;

	if (elf_getphdrnum(pe->elf, &phnum))
		return 0;
	for (i = 0; i < phnum && gelf_getphdr(pe->elf, (int)i, &ph); i++) {
		if (ph.p_type == PT_DYNAMIC) {
			d = elf_getdata_rawchunk(pe->elf, ph.p_offset, ph.p_filesz, ELF_T_DYN);
			break;
		}
	}
	if (!d || !ent)
		return 0;
	n = d->d_size / ent;
	for (i = 0; i < n && gelf_getdyn(d, (int)i, &dyn) && dyn.d_tag != DT_NULL; i++) {
		if (dyn.d_tag == DT_STRTAB)
			strtab = dyn.d_un.d_ptr;
		else if (dyn.d_tag == DT_STRSZ)
			strsz = dyn.d_un.d_val;
	}
	if (!strsz || probe_elf__offset(pe, strtab, &stroff))
		return 0;
	st.raw = elf_getdata_rawchunk(pe->elf, stroff, strsz, ELF_T_BYTE);
	return st.raw ? read_dyn_entries(pe, d, &st) : 0;
}

static int read_sections(struct probe_elf *pe)
{
	Elf_Scn *scn = NULL;
	bool dynamic = false;
	GElf_Shdr sh;
	int err;

	while ((scn = elf_nextscn(pe->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && !pe->symtab)
			pe->symtab = elf_ndxscn(scn);
		else if (sh.sh_type == SHT_DYNSYM && !pe->dynsym)
			pe->dynsym = elf_ndxscn(scn);
		else if (sh.sh_type == SHT_GNU_versym && !pe->versym)
			pe->versym = elf_ndxscn(scn);
		else if (sh.sh_type == SHT_DYNAMIC && !dynamic) {
			struct strtab st = { pe->elf, sh.sh_link, NULL };
			Elf_Data *d = elf_getdata(scn, NULL);

			dynamic = true;
			if (d && (err = read_dyn_entries(pe, d, &st)))
				return err;
		}
	}
	return dynamic ? 0 : read_dynamic_phdr(pe);
}

static int check_header(Elf *elf)
{
	GElf_Ehdr eh;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return -ENOEXEC;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_X86_64)
		return -EPROTONOSUPPORT;
	return 0;
}

int probe_elf__open(const char *path, struct probe_elf **out)
{
	struct probe_elf *pe;
	struct stat st;
	int err;

	*out = NULL;
	if (!elf_ready())
		return -EINVAL;
	pe = calloc(1, sizeof(*pe));
	if (!pe)
		return -ENOMEM;
	/* O_NONBLOCK: a FIFO must not hang the open (it is refused below) */
	pe->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (pe->fd < 0) {
		err = -errno;
		goto fail;
	}
	if (fstat(pe->fd, &st)) {
		err = -errno;
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = -EISDIR;
		goto fail;
	}
	/* a FIFO or a device is no ELF file, whatever it reads as */
	err = -ENOEXEC;
	if (!S_ISREG(st.st_mode))
		goto fail;
	pe->elf = elf_begin(pe->fd, ELF_C_READ, NULL);
	if (!pe->elf)
		goto fail;
	err = check_header(pe->elf);
	if (!err)
		err = read_loads(pe);
	if (!err)
		err = read_sections(pe);
	/* a static file: the empty list */
	if (!err && !pe->needed && !(pe->needed = calloc(1, sizeof(*pe->needed))))
		err = -ENOMEM;
	if (err)
		goto fail;
	*out = pe;
	return 0;
fail:
	probe_elf__delete(pe);
	return err;
}

int probe_elf__needed(const struct probe_elf *pe, char ***names)
{
	char **n = calloc(pe->nr_needed + 1, sizeof(*n));

	*names = NULL;
	if (!n)
		return -ENOMEM;
	for (int i = 0; i < pe->nr_needed; i++) {
		if (!(n[i] = strdup(pe->needed[i]))) {
			probe_elf__free_list(n);
			return -ENOMEM;
		}
	}
	*names = n;
	return pe->nr_needed;
}

const char *probe_elf__runpath(const struct probe_elf *pe)
{
	return pe->runpath;
}

/* ---- Symbols ---- */

/*
 * Calls @fn on each named symbol of section @idx until it returns
 * non-zero.  @hidden: .dynsym names carry no "@VERSION"; .gnu.version
 * marks the versions that are not the default one (memcpy@GLIBC_2.2.5
 * beside memcpy@@GLIBC_2.14), which is what a program binds to.
 */
static int syms__walk(struct probe_elf *pe, size_t idx,
		      int (*fn)(void *arg, const char *name, const GElf_Sym *sym, bool hidden),
		      void *arg)
{
	Elf_Scn *scn = idx ? elf_getscn(pe->elf, idx) : NULL, *vscn = NULL;
	size_t i, n, ent = gelf_fsize(pe->elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Data *d, *vd = NULL;
	GElf_Shdr sh, vsh;
	GElf_Sym sym;
	int ret;

	if (!scn || !gelf_getshdr(scn, &sh) || !(d = elf_getdata(scn, NULL)) || !ent)
		return 0;
	if (idx == pe->dynsym && pe->versym && (vscn = elf_getscn(pe->elf, pe->versym)) &&
	    gelf_getshdr(vscn, &vsh) && vsh.sh_link == idx)
		vd = elf_getdata(vscn, NULL);
	n = d->d_size / ent;
	for (i = 1; i < n; i++) {
		GElf_Versym ver = 0;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym))
			break;
		if (vd && !gelf_getversym(vd, (int)i, &ver))
			ver = 0;
		name = elf_strptr(pe->elf, sh.sh_link, sym.st_name);
		if (name && *name && (ret = fn(arg, name, &sym, ver & 0x8000)))
			return ret;
	}
	return 0;
}

static bool is_func(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) && sym->st_shndx != SHN_UNDEF;
}

/* The length of @name without its symbol version ("malloc@@GLIBC_2.2.5"). */
static size_t base_len(const char *name)
{
	const char *at = strchr(name, '@');

	return at ? (size_t)(at - name) : strlen(name);
}

struct sym_find {
	const char *name;
	bool funcs; /* functions only, else any defined data or code symbol */
	int best;   /* the rank of sym, 0: none yet */
	GElf_Sym sym;
};

/* Global before weak before local; then the plain name, the default version, another one. */
static int sym_rank(const char *name, const char *want, const GElf_Sym *sym, bool hidden)
{
	size_t n = strlen(want);
	int ver, bind;

	if (strncmp(name, want, n))
		return 0;
	if (!name[n])
		ver = hidden ? 1 : 3;
	else if (name[n] == '@')
		ver = name[n + 1] == '@' ? 2 : 1;
	else
		return 0;
	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL:
	case STB_GNU_UNIQUE:
		bind = 3;
		break;
	case STB_WEAK:
		bind = 2;
		break;
	default:
		bind = 1;
	}
	return bind * 4 + ver;
}

static int find_cb(void *arg, const char *name, const GElf_Sym *sym, bool hidden)
{
	struct sym_find *f = arg;
	int type = GELF_ST_TYPE(sym->st_info), rank;

	if (f->funcs ? !is_func(sym)
		     : sym->st_shndx == SHN_UNDEF || type == STT_SECTION || type == STT_FILE)
		return 0;
	rank = sym_rank(name, f->name, sym, hidden);
	if (rank > f->best) {
		f->best = rank;
		f->sym = *sym;
	}
	return 0;
}

static int sym_find(struct probe_elf *pe, const char *name, bool funcs, GElf_Sym *sym)
{
	struct sym_find f = { .name = name, .funcs = funcs };

	syms__walk(pe, pe->symtab, find_cb, &f);
	if (!f.best)
		syms__walk(pe, pe->dynsym, find_cb, &f);
	if (!f.best)
		return -ENOENT;
	*sym = f.sym;
	return 0;
}

int probe_elf__func(struct probe_elf *pe, const char *name, struct probe_func *f)
{
	GElf_Sym sym;

	if (!name || !*name || sym_find(pe, name, true, &sym))
		return -ENOENT;
	/* a function outside the loaded part of the file cannot take a uprobe */
	if (probe_elf__offset(pe, sym.st_value, &f->offset))
		return -ENOENT;
	f->vaddr = sym.st_value;
	f->size = sym.st_size;
	f->ifunc = GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
	return 0;
}

int probe_elf__symbol(struct probe_elf *pe, const char *name, struct probe_sym *ps)
{
	GElf_Sym sym;

	if (!name || !*name || sym_find(pe, name, false, &sym))
		return -ENOENT;
	ps->vaddr = sym.st_value;
	ps->size = sym.st_size;
	ps->func = is_func(&sym);
	ps->ifunc = GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
	ps->tls = GELF_ST_TYPE(sym.st_info) == STT_TLS;
	return 0;
}

/* ---- "Did you mean" ---- */

struct cand {
	const char *name;
	size_t len;
	int score;
};

struct similar {
	const char *name;
	size_t nlen;
	struct cand *c;
	int nr, alloc;
};

/* Levenshtein distance of @a and @b, or 3 once it is known to exceed 2. */
static int edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	int row[2][NAME_MAX_LEN + 1];
	size_t i, j;

	if ((la > lb ? la - lb : lb - la) > 2 || la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return 3;
	for (j = 0; j <= lb; j++)
		row[0][j] = (int)j;
	for (i = 1; i <= la; i++) {
		int *prev = row[(i - 1) & 1], *cur = row[i & 1], min;

		cur[0] = min = (int)i;
		for (j = 1; j <= lb; j++) {
			int v = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			cur[j] = v;
			if (v < min)
				min = v;
		}
		if (min > 2)
			return 3;
	}
	return row[la & 1][lb] > 2 ? 3 : row[la & 1][lb];
}

static int similar_cb(void *arg, const char *name, const GElf_Sym *sym, bool hidden)
{
	struct similar *s = arg;
	size_t len = base_len(name);
	int score;

	(void)hidden; /* a name is a hint whichever its version */
	if (!is_func(sym) || !len)
		return 0;
	score = edit_distance(name, len, s->name, s->nlen);
	/* the name itself is no hint: asked about, it was not found or not probeable */
	if (!score)
		return 0;
	if (score > 2) {
		/* the same name with a prefix or suffix (__libc_malloc, malloc_trim), closest first */
		if (s->nlen < 3 || len <= s->nlen || !memmem(name, len, s->name, s->nlen))
			return 0;
		score = 3 + (int)(len - s->nlen > 1000 ? 1000 : len - s->nlen);
	}
	if (s->nr == s->alloc) {
		int alloc = s->alloc ? s->alloc * 2 : 64;
		struct cand *c = realloc(s->c, sizeof(*c) * alloc);

		if (!c)
			return -ENOMEM;
		s->c = c;
		s->alloc = alloc;
	}
	s->c[s->nr++] = (struct cand){ name, len, score };
	return 0;
}

static int cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	int c;

	if (a->score != b->score)
		return a->score - b->score;
	c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

void probe_elf__similar(struct probe_elf *pe, const char *name, int max, char *buf, size_t len)
{
	struct similar s = { .name = name, .nlen = name ? strlen(name) : 0 };
	size_t used = 0;
	int i, shown = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (!s.nlen || max <= 0)
		return;
	if (syms__walk(pe, pe->symtab, similar_cb, &s) ||
	    syms__walk(pe, pe->dynsym, similar_cb, &s)) {
		free(s.c);
		return;
	}
	if (s.nr)
		qsort(s.c, s.nr, sizeof(*s.c), cand_cmp);
	for (i = 0; i < s.nr && shown < max; i++) {
		const struct cand *c = &s.c[i];
		size_t need = c->len + (shown ? 1 : 0);

		/* .symtab and .dynsym name most functions twice */
		if (i && c->len == s.c[i - 1].len && !memcmp(c->name, s.c[i - 1].name, c->len) &&
		    c->score == s.c[i - 1].score)
			continue;
		if (used + need >= len)
			break;
		if (shown)
			buf[used++] = ',';
		memcpy(buf + used, c->name, c->len);
		used += c->len;
		buf[used] = '\0';
		shown++;
	}
	free(s.c);
}

/* ---- USDT notes ---- */

/* A %rip-relative operand names a symbol of this file: its link-time address. */
static int rip_sym(void *priv, const char *name, u64 *addr)
{
	struct probe_elf *pe = priv;
	GElf_Sym sym;

	if (sym_find(pe, name, false, &sym))
		return -ENOENT;
	*addr = sym.st_value;
	return 0;
}

/* Where .stapsdt.base is now: prelink may have moved the file since the notes were written. */
static bool stapsdt_base(struct probe_elf *pe, u64 *addr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(pe->elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(pe->elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(pe->elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, ".stapsdt.base")) {
			*addr = sh.sh_addr;
			return true;
		}
	}
	return false;
}

static void note_args(struct probe_elf *pe, struct usdt_note *n)
{
	const char *p = n->args_text, *e;

	while (n->nr_args < USDT_MAX_ARGS) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		for (e = p; *e && *e != ' ' && *e != '\t'; e++)
			;
		if (e - p > 4096 ||
		    usdt_arg__parse(p, (int)(e - p), &n->args[n->nr_args], rip_sym, pe))
			break;
		n->nr_args++;
		p = e;
	}
}

struct note_list {
	const char *provider, *name; /* the globs */
	bool has_base;
	u64 base;
	struct usdt_note *v;
	int nr, alloc;
};

/* One stapsdt descriptor: pc, base, semaphore, then "provider\0name\0args\0". */
static int note_add(struct probe_elf *pe, struct note_list *l, const char *desc, size_t len)
{
	const char *end = desc + len, *prov = desc + STAPSDT_DESC, *name, *args, *z;
	struct usdt_note *n;
	u64 pc, base, sema;

	z = memchr(prov, 0, end - prov);
	if (!z || (name = z + 1) >= end || !(z = memchr(name, 0, end - name)))
		return 0;
	args = z + 1;
	if (args >= end || !memchr(args, 0, end - args))
		args = ""; /* no argument string at all: a probe without arguments */
	if (fnmatch(l->provider, prov, 0) || fnmatch(l->name, name, 0))
		return 0;
	memcpy(&pc, desc, 8);
	memcpy(&base, desc + 8, 8);
	memcpy(&sema, desc + 16, 8);
	if (l->has_base) {
		/* the semaphore moved with the rest of the file */
		pc += l->base - base;
		if (sema)
			sema += l->base - base;
	}
	if (l->nr == l->alloc) {
		int alloc = l->alloc ? l->alloc * 2 : 8;

		n = realloc(l->v, sizeof(*n) * alloc);
		if (!n)
			return -ENOMEM;
		l->v = n;
		l->alloc = alloc;
	}
	n = &l->v[l->nr];
	memset(n, 0, sizeof(*n));
	/* a note outside the loaded part of the file cannot take a uprobe */
	if (probe_elf__offset(pe, pc, &n->offset))
		return 0;
	n->vaddr = pc;
	n->sema_vaddr = sema;
	if (sema && probe_elf__offset(pe, sema, &n->sema_offset))
		n->sema_offset = 0;
	l->nr++;
	if (!(n->provider = strdup(prov)) || !(n->name = strdup(name)) ||
	    !(n->args_text = strdup(args)))
		return -ENOMEM;
	note_args(pe, n);
	return 0;
}

static int notes_scan(struct probe_elf *pe, Elf_Data *d, struct note_list *l)
{
	size_t off = 0, next, name_off, desc_off;
	const char *buf = d->d_buf;
	GElf_Nhdr nh;
	int err;

	while (off < d->d_size && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > off) {
		off = next;
		if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 || name_off > d->d_size - 8 ||
		    memcmp(buf + name_off, "stapsdt", 8) || nh.n_descsz < STAPSDT_DESC + 2 ||
		    desc_off > d->d_size || nh.n_descsz > d->d_size - desc_off)
			continue;
		err = note_add(pe, l, buf + desc_off, nh.n_descsz);
		if (err)
			return err;
	}
	return 0;
}

void usdt_notes__free(struct usdt_note *notes, int nr)
{
	if (!notes)
		return;
	for (int i = 0; i < nr; i++) {
		free(notes[i].provider);
		free(notes[i].name);
		free(notes[i].args_text);
	}
	free(notes);
}

int probe_elf__usdt(struct probe_elf *pe, const char *provider, const char *name,
		    struct usdt_note **notes, int *nr)
{
	struct note_list l = { .provider = provider ? provider : "*", .name = name ? name : "*" };
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;
	int err;

	*notes = NULL;
	*nr = 0;
	l.has_base = stapsdt_base(pe, &l.base);
	while ((scn = elf_nextscn(pe->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		if (d->d_size < 8 || !d->d_buf)
			continue;
		err = notes_scan(pe, d, &l);
		if (err) {
			usdt_notes__free(l.v, l.nr);
			return err;
		}
	}
	if (!l.nr) {
		free(l.v);
		return 0;
	}
	*notes = l.v;
	*nr = l.nr;
	return 0;
}
