// SPDX-License-Identifier: GPL-2.0
/*
 * Is a file a whole, well-formed ELF file?  The symbol loader (elfsyms.c)
 * reads the files of arbitrary processes and takes what it can from a
 * damaged one; a file named on the command line (--symbols BINARY) is
 * checked here first, so that a truncated or corrupted one is refused with
 * the reason instead of answering "??" for every address.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym/elfsyms.h"

static int bad(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -ENOEXEC;
}

/* Does [off, off + n * size) lie inside a file of @fsize bytes? */
static bool inside(u64 off, u64 n, u64 size, u64 fsize)
{
	if (off > fsize)
		return false;
	return !size || n <= (fsize - off) / size;
}

/* e_ident: magic, class, byte order, version; the header's length. */
static int check_ident(int fd, u64 fsize, char *why, size_t len)
{
	unsigned char id[EI_NIDENT];
	ssize_t n = pread(fd, id, sizeof(id), 0);
	u64 want;

	if (n < 0)
		return -errno;
	if (n < SELFMAG || memcmp(id, ELFMAG, SELFMAG))
		return bad(why, len, "not an ELF file");
	if (n < EI_NIDENT)
		return bad(why, len, "truncated ELF header (%llu bytes)",
			   (unsigned long long)fsize);
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return bad(why, len, "corrupt ELF header: class %u", id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return bad(why, len, "corrupt ELF header: byte order %u", id[EI_DATA]);
	if (id[EI_VERSION] != EV_CURRENT)
		return bad(why, len, "corrupt ELF header: version %u", id[EI_VERSION]);
	want = id[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (fsize < want)
		return bad(why, len, "truncated ELF header (%llu of %llu bytes)",
			   (unsigned long long)fsize, (unsigned long long)want);
	return 0;
}

static int check_sections(Elf *elf, const GElf_Ehdr *eh, u64 fsize, char *why, size_t len)
{
	size_t shnum, shstrndx, i, entsize = gelf_fsize(elf, ELF_T_SHDR, 1, EV_CURRENT);
	size_t symsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);

	if (!eh->e_shoff) {
		if (eh->e_shnum)
			return bad(why, len, "corrupt ELF header: %u sections without a table",
				   eh->e_shnum);
		return 0;
	}
	if (eh->e_shentsize != entsize)
		return bad(why, len, "corrupt ELF header: section header size %u (not %zu)",
			   eh->e_shentsize, entsize);
	/* the first entry holds the real count when e_shnum is 0 */
	if (!inside(eh->e_shoff, 1, entsize, fsize))
		return bad(
			why, len,
			"truncated: section header table at offset %llu, past the end (%llu bytes)",
			(unsigned long long)eh->e_shoff, (unsigned long long)fsize);
	/* libelf cuts e_shnum down to what the file holds: take the header's */
	shnum = eh->e_shnum;
	if (!shnum && elf_getshdrnum(elf, &shnum))
		return bad(why, len, "corrupt section header table");
	if (!inside(eh->e_shoff, shnum, entsize, fsize))
		return bad(why, len,
			   "truncated: section header table (%zu entries at offset %llu) ends past "
			   "the end (%llu bytes)",
			   shnum, (unsigned long long)eh->e_shoff, (unsigned long long)fsize);
	if (elf_getshdrstrndx(elf, &shstrndx) || (shnum && shstrndx >= shnum))
		return bad(why, len, "corrupt ELF header: section name table index");
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh, link;
		const char *name;

		if (!scn || !gelf_getshdr(scn, &sh))
			return bad(why, len, "corrupt section header %zu", i);
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			name = "?";
		if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL &&
		    !inside(sh.sh_offset, 1, sh.sh_size, fsize))
			return bad(why, len,
				   "truncated: section [%zu] %s (%llu bytes at offset %llu) ends "
				   "past the end (%llu bytes)",
				   i, name, (unsigned long long)sh.sh_size,
				   (unsigned long long)sh.sh_offset, (unsigned long long)fsize);
		if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
			continue;
		if (sh.sh_entsize != symsize || sh.sh_size % symsize)
			return bad(why, len,
				   "corrupt symbol table [%zu] %s: %llu bytes of %llu-byte entries",
				   i, name, (unsigned long long)sh.sh_size,
				   (unsigned long long)sh.sh_entsize);
		if (!sh.sh_link || sh.sh_link >= shnum ||
		    !gelf_getshdr(elf_getscn(elf, sh.sh_link), &link) || link.sh_type != SHT_STRTAB)
			return bad(
				why, len,
				"corrupt symbol table [%zu] %s: its string table [%u] is not one",
				i, name, sh.sh_link);
	}
	return 0;
}

static int check_segments(Elf *elf, const GElf_Ehdr *eh, u64 fsize, char *why, size_t len)
{
	size_t phnum, i, entsize = gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT);

	if (!eh->e_phnum)
		return 0;
	if (eh->e_phentsize != entsize)
		return bad(why, len, "corrupt ELF header: program header size %u (not %zu)",
			   eh->e_phentsize, entsize);
	phnum = eh->e_phnum;
	if ((phnum == PN_XNUM && elf_getphdrnum(elf, &phnum)) ||
	    !inside(eh->e_phoff, phnum, entsize, fsize))
		return bad(why, len,
			   "truncated: program header table (%u entries at offset %llu) ends past "
			   "the end (%llu bytes)",
			   eh->e_phnum, (unsigned long long)eh->e_phoff, (unsigned long long)fsize);
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph))
			return bad(why, len, "corrupt program header %zu", i);
		if (ph.p_type == PT_LOAD && !inside(ph.p_offset, 1, ph.p_filesz, fsize))
			return bad(why, len,
				   "truncated: segment %zu (%llu bytes at offset %llu) ends past "
				   "the end (%llu bytes)",
				   i, (unsigned long long)ph.p_filesz,
				   (unsigned long long)ph.p_offset, (unsigned long long)fsize);
	}
	return 0;
}

int elfsyms__check_fd(int fd, char *why, size_t len)
{
	struct stat st;
	GElf_Ehdr eh;
	Elf *elf;
	u64 want;
	int err;

	if (fstat(fd, &st))
		return -errno;
	err = check_ident(fd, st.st_size, why, len);
	if (err)
		return err;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		elf_end(elf);
		return bad(why, len, "corrupt ELF header");
	}
	want = gelf_fsize(elf, ELF_T_EHDR, 1, EV_CURRENT);
	if (eh.e_ehsize != want)
		err = bad(why, len, "corrupt ELF header: header size %u (not %llu)", eh.e_ehsize,
			  (unsigned long long)want);
	if (!err)
		err = check_sections(elf, &eh, st.st_size, why, len);
	if (!err)
		err = check_segments(elf, &eh, st.st_size, why, len);
	elf_end(elf);
	return err;
}
