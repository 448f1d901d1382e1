// SPDX-License-Identifier: GPL-2.0
/* ELF symbol tables, build-ids, debug links and load segments via libelf. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/debugfile.h"
#include "sym/elfsyms.h"

#define MAX_LOAD 16
#define PLT_ENTRY 16 /* x86_64 PLT stub and PLT0 size */

struct load_seg {
	u64 off, vaddr, filesz, memsz;
	u32 flags; /* PF_X, PF_W, PF_R */
};

struct elfsyms {
	struct symtab *st;
	struct symtab *data; /* the variables (STT_OBJECT): elfsyms__find_data */
	unsigned char build_id[BUILD_ID_MAX];
	int build_id_len;
	char *debuglink;
	char *debug_path;
	struct load_seg load[MAX_LOAD];
	int nr_load;
	bool has_symtab;
};

static bool elf_ready(void)
{
	static int ok = -1;

	if (ok < 0)
		ok = elf_version(EV_CURRENT) != EV_NONE;
	return ok;
}

static int check_elf(Elf *elf)
{
	GElf_Ehdr eh;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return -ENOEXEC;
	return 0;
}

static int notes_build_id(Elf_Data *d, unsigned char *buf, int size)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (off < d->d_size && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > off) {
		const char *base = d->d_buf;

		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz > 0 &&
		    name_off + 4 <= d->d_size && !memcmp(base + name_off, "GNU", 4) &&
		    desc_off + nh.n_descsz <= d->d_size) {
			int n = nh.n_descsz < (unsigned)size ? (int)nh.n_descsz : size;

			memcpy(buf, base + desc_off, n);
			return n;
		}
		off = next;
	}
	return 0;
}

static int find_build_id(Elf *elf, unsigned char *buf, int size)
{
	Elf_Scn *scn = NULL;
	size_t i, phnum;
	int n;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf && (n = notes_build_id(d, buf, size)) > 0)
			return n;
	}
	/* no section headers (e.g. a core-dump style image): try PT_NOTE */
	if (elf_getphdrnum(elf, &phnum))
		return 0;
	for (i = 0; i < phnum && i < 64; i++) {
		GElf_Phdr ph;
		Elf_Data *d;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_NOTE || ph.p_filesz > (1u << 20))
			continue;
		d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (d && d->d_buf && (n = notes_build_id(d, buf, size)) > 0)
			return n;
	}
	return 0;
}

static char *find_debuglink(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name, *p;
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".gnu_debuglink"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || !d->d_size)
			return NULL;
		p = memchr(d->d_buf, 0, d->d_size);
		/* a name that leaves the directory is not a debug link */
		if (!p || p == d->d_buf || memchr(d->d_buf, '/', p - (const char *)d->d_buf))
			return NULL;
		return strdup(d->d_buf);
	}
	return NULL;
}

static void read_loads(Elf *elf, struct elfsyms *es)
{
	size_t i, phnum;

	if (elf_getphdrnum(elf, &phnum))
		return;
	for (i = 0; i < phnum && es->nr_load < MAX_LOAD; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		es->load[es->nr_load++] = (struct load_seg){ ph.p_offset, ph.p_vaddr, ph.p_filesz,
							     ph.p_memsz, ph.p_flags };
	}
}

/*
 * The end of the allocated section @shndx if it holds @addr, else 0: the
 * bound of a symbol without a size.
 */
static u64 section_end(Elf *elf, size_t shndx, u64 addr)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
		return 0;
	if (addr < sh.sh_addr || addr - sh.sh_addr >= sh.sh_size)
		return 0;
	return sh.sh_addr + sh.sh_size; /* no wrap: addr - sh_addr < sh_size */
}

/* The functions into @st, the variables (not thread-local: no address) into @data. */
static int add_symbols(Elf *elf, struct symtab *st, struct symtab *data, bool *has_symtab)
{
	Elf_Scn *scn = NULL;
	size_t shnum;

	if (elf_getshdrnum(elf, &shnum))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		/* compressed symbol tables are not worth a decompressor here */
		if (sh.sh_flags & SHF_COMPRESSED || sh.sh_link == 0 || sh.sh_link >= shnum)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			*has_symtab = true;
		n = d->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
		for (i = 1; i < n; i++) {
			const char *name;
			GElf_Sym s;
			u64 limit;
			unsigned prio;
			int type, bind, err;
			struct symtab *to;

			if (!gelf_getsym(d, i, &s))
				break;
			type = GELF_ST_TYPE(s.st_info);
			bind = GELF_ST_BIND(s.st_info);
			to = type == STT_FUNC || type == STT_GNU_IFUNC ? st
			     : type == STT_OBJECT		       ? data
								       : NULL;
			if (!to || s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_ABS || !s.st_value)
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			prio = bind == STB_GLOBAL ? 3 : bind == STB_WEAK ? 2 : 1;
			limit = s.st_size || s.st_shndx >= SHN_LORESERVE
					? 0
					: section_end(elf, s.st_shndx, s.st_value);
			if (limit)
				err = symtab__add_upto(to, s.st_value, limit, name, strlen(name),
						       prio, 0);
			else
				err = symtab__add(to, s.st_value, s.st_size, name, strlen(name),
						  prio, 0);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * A section by name, or NULL.  Names are checked through elf_strptr, which
 * bounds them by the string table.
 */
static Elf_Scn *scn_by_name(Elf *elf, size_t shstrndx, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/*
 * Calls into shared objects go through PLT stubs, which have no symbols:
 * name them "target@plt" from .rela.plt, whose n-th relocation is the n-th
 * stub of .plt.sec (when the binary has one, with IBT) or else of .plt after
 * its 16-byte header.  x86_64 only: the stub layout is per architecture.
 */
static int add_plt_symbols(Elf *elf, struct symtab *st)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rscn, *pscn, *dscn;
	Elf_Data *rd, *dd;
	u64 first, nr_rel, nr_stub, i;
	size_t shstrndx, shnum;
	GElf_Ehdr eh;
	char buf[512];

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || elf_getshdrstrndx(elf, &shstrndx) ||
	    elf_getshdrnum(elf, &shnum))
		return 0;
	rscn = scn_by_name(elf, shstrndx, ".rela.plt", &rsh);
	if (!rscn || rsh.sh_type != SHT_RELA || !rsh.sh_link || rsh.sh_link >= shnum)
		return 0;
	first = PLT_ENTRY;
	pscn = scn_by_name(elf, shstrndx, ".plt.sec", &psh);
	if (pscn)
		first = 0;
	else
		pscn = scn_by_name(elf, shstrndx, ".plt", &psh);
	if (!pscn || psh.sh_type != SHT_PROGBITS || !(psh.sh_flags & SHF_EXECINSTR) ||
	    psh.sh_size < first || psh.sh_addr > UINT64_MAX - psh.sh_size)
		return 0;
	dscn = elf_getscn(elf, rsh.sh_link);
	if (!dscn || !gelf_getshdr(dscn, &dsh) || dsh.sh_type != SHT_DYNSYM || !dsh.sh_link ||
	    dsh.sh_link >= shnum)
		return 0;
	rd = elf_getdata(rscn, NULL);
	dd = elf_getdata(dscn, NULL);
	if (!rd || !rd->d_buf || !dd || !dd->d_buf)
		return 0;
	nr_rel = rd->d_size / gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
	nr_stub = (psh.sh_size - first) / PLT_ENTRY;
	for (i = 0; i < nr_rel && i < nr_stub; i++) {
		const char *name;
		GElf_Rela r;
		GElf_Sym s;
		int len, err;

		/* every relocation owns a stub, named or not (IRELATIVE) */
		if (!gelf_getrela(rd, i, &r))
			break;
		if (GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT ||
		    !gelf_getsym(dd, GELF_R_SYM(r.r_info), &s))
			continue;
		name = elf_strptr(elf, dsh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		len = snprintf(buf, sizeof(buf), "%s@plt", name);
		if (len < 0 || len >= (int)sizeof(buf))
			continue;
		/* prio 0: a real symbol at the same address wins */
		err = symtab__add(st, psh.sh_addr + first + i * PLT_ENTRY, PLT_ENTRY, buf, len, 0,
				  0);
		if (err)
			return err;
	}
	return 0;
}

static int read_elf(Elf *elf, struct elfsyms *es)
{
	int err = check_elf(elf);

	if (err)
		return err;
	es->build_id_len = find_build_id(elf, es->build_id, sizeof(es->build_id));
	es->debuglink = find_debuglink(elf);
	read_loads(elf, es);
	err = add_symbols(elf, es->st, es->data, &es->has_symtab);
	return err ? err : add_plt_symbols(elf, es->st);
}

static struct elfsyms *es_new(void)
{
	struct elfsyms *es = calloc(1, sizeof(*es));

	if (es && (!(es->st = symtab__new()) || !(es->data = symtab__new()))) {
		symtab__delete(es->st);
		free(es);
		es = NULL;
	}
	return es;
}

/*
 * Takes a debug file whose build-id already matches (debugfile__walk) if it
 * has a .symtab: a file with only .dynsym adds nothing to the stripped one.
 */
static bool accept_debug(const char *path, void *arg)
{
	struct elfsyms *es = arg;
	bool has_symtab = false;
	int fd;
	Elf *elf;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || check_elf(elf) || add_symbols(elf, es->st, es->data, &has_symtab) ||
	    !has_symtab || !(es->debug_path = strdup(path))) {
		elf_end(elf);
		close(fd);
		return false;
	}
	elf_end(elf);
	close(fd);
	return true;
}

static void find_debug(struct elfsyms *es, const char *path, const char *root)
{
	char buf[PATH_MAX];

	debugfile__walk(path, root, es->build_id, es->build_id_len, es->debuglink, accept_debug, es,
			buf, sizeof(buf));
}

int elfsyms__open_fd(int fd, const char *path, const char *root, struct elfsyms **out)
{
	struct elfsyms *es;
	Elf *elf;
	int err;

	*out = NULL;
	if (!elf_ready())
		return -EINVAL;
	es = es_new();
	if (!es)
		return -ENOMEM;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf) {
		err = -ENOEXEC;
		goto fail;
	}
	err = read_elf(elf, es);
	elf_end(elf);
	if (err)
		goto fail;
	if (!es->has_symtab)
		find_debug(es, path, root ? root : "");
	symtab__finish(es->st, 0);
	symtab__finish(es->data, 0);
	*out = es;
	return 0;
fail:
	elfsyms__delete(es);
	return err;
}

int elfsyms__open(const char *path, struct elfsyms **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	*out = NULL;
	if (fd < 0)
		return -errno;
	err = elfsyms__open_fd(fd, path, "", out);
	close(fd);
	return err;
}

int elfsyms__from_mem(const void *buf, size_t len, struct elfsyms **out)
{
	struct elfsyms *es;
	char *copy;
	Elf *elf;
	int err;

	*out = NULL;
	if (!elf_ready())
		return -EINVAL;
	/* elf_memory wants a writable, aligned image */
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	es = es_new();
	if (!es) {
		free(copy);
		return -ENOMEM;
	}
	elf = elf_memory(copy, len);
	err = elf ? read_elf(elf, es) : -ENOEXEC;
	elf_end(elf);
	free(copy);
	if (err) {
		elfsyms__delete(es);
		return err;
	}
	symtab__finish(es->st, 0);
	symtab__finish(es->data, 0);
	*out = es;
	return 0;
}

void elfsyms__delete(struct elfsyms *es)
{
	if (!es)
		return;
	symtab__delete(es->st);
	symtab__delete(es->data);
	free(es->debuglink);
	free(es->debug_path);
	free(es);
}

int elfsyms__read_build_id(int fd, unsigned char *buf, int size)
{
	Elf *elf;
	int n;

	if (!elf_ready())
		return -EINVAL;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return -ENOEXEC;
	n = check_elf(elf);
	if (!n)
		n = find_build_id(elf, buf, size);
	elf_end(elf);
	return n;
}

const struct sym *elfsyms__find(struct elfsyms *es, u64 vaddr)
{
	return es ? symtab__find(es->st, vaddr) : NULL;
}

const struct sym *elfsyms__find_data(struct elfsyms *es, u64 vaddr)
{
	return es ? symtab__find(es->data, vaddr) : NULL;
}

u64 elfsyms__file_to_vaddr(const struct elfsyms *es, u64 off)
{
	int i;

	int pass;

	/* file contents first; the .bss tail of a segment only if nothing else fits */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < es->nr_load; i++) {
			const struct load_seg *l = &es->load[i];
			u64 size = pass ? l->memsz : l->filesz;

			if (off >= l->off && off - l->off < size)
				return off - l->off + l->vaddr;
		}
	}
	return off;
}

/*
 * A mapping's load bias: the loader maps each PT_LOAD at the page of its
 * vaddr (plus the bias) from the page of its file offset, so the segment
 * mapped is the one whose offset's page is @pgoff, the executable one when
 * two share that page (segments not page-aligned in the file, as lld lays
 * them out), and the bias is @start less its vaddr's page.
 */
u64 elfsyms__map_bias(const struct elfsyms *es, u64 start, u64 pgoff, bool exec)
{
	const u64 page = (u64)sysconf(_SC_PAGESIZE);
	const struct load_seg *best = NULL;

	for (int i = 0; i < es->nr_load; i++) {
		const struct load_seg *l = &es->load[i];

		if ((l->off & ~(page - 1)) != pgoff)
			continue;
		if (!best || (exec && (l->flags & PF_X) && !(best->flags & PF_X)))
			best = l;
	}
	if (best)
		return start - (best->vaddr & ~(page - 1));
	return start - elfsyms__file_to_vaddr(es, pgoff);
}

const unsigned char *elfsyms__build_id(const struct elfsyms *es, int *len)
{
	*len = es ? es->build_id_len : 0;
	return es && es->build_id_len ? es->build_id : NULL;
}

const char *elfsyms__debuglink(const struct elfsyms *es)
{
	return es ? es->debuglink : NULL;
}

const char *elfsyms__debug_path(const struct elfsyms *es)
{
	return es ? es->debug_path : NULL;
}

size_t elfsyms__nr(const struct elfsyms *es)
{
	return es ? symtab__nr(es->st) : 0;
}
