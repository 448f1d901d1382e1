// SPDX-License-Identifier: GPL-2.0
/*
 * ELF helpers for the DWARF unwinder (see unwind_elf.h).
 */
#include <elf.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sym/unwind_elf.h"

int uw_elf_bias(int fd, const struct unwind_map *m, u64 *bias)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	size_t i, n;
	int ret = -ENOEXEC;

	if (!elf)
		return -ENOEXEC;
	if (!gelf_getehdr(elf, &eh))
		goto out;
	if (eh.e_type == ET_EXEC) {
		*bias = 0;
		ret = 0;
		goto out;
	}
	if (eh.e_type != ET_DYN || elf_getphdrnum(elf, &n))
		goto out;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		/* The mapping starts at a page-aligned file offset inside the
     * segment; the segment's vaddr-offset relation gives the bias. */
		if ((ph.p_offset < 4096 || m->pgoff > ph.p_offset - 4096) &&
		    (m->pgoff < ph.p_offset || m->pgoff - ph.p_offset < ph.p_filesz)) {
			*bias = m->start + ph.p_offset - m->pgoff - ph.p_vaddr;
			ret = 0;
			break;
		}
	}
out:
	elf_end(elf);
	return ret;
}

bool uw_elf_read_word(Dwfl *dwfl, u64 addr, Dwarf_Word *result)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	Dwarf_Addr bias;
	size_t i, n, size;
	const char *raw;
	Elf *elf;

	if (!mod)
		return false;
	elf = dwfl_module_getelf(mod, &bias);
	if (!elf || elf_getphdrnum(elf, &n))
		return false;
	raw = elf_rawfile(elf, &size);
	if (!raw)
		return false;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		u64 v = addr - bias;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (v < ph.p_vaddr || ph.p_filesz < 8 || v - ph.p_vaddr > ph.p_filesz - 8)
			continue;
		/* p_offset comes from the file: only subtract, a sum can wrap */
		if (ph.p_offset > size || size - ph.p_offset < 8 ||
		    v - ph.p_vaddr > size - ph.p_offset - 8)
			return false;
		memcpy(result, raw + ph.p_offset + (v - ph.p_vaddr), 8);
		return true;
	}
	return false;
}

/* Open @path as the debug file if its build-id matches the module's. */
static int open_debug(const char *path, const char *file_name, const unsigned char *id, int id_len,
		      char **debuginfo_file_name)
{
	const void *did;
	ssize_t dlen;
	Elf *elf;
	int fd;

	if (file_name && strcmp(path, file_name) == 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (id_len > 0) {
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		dlen = elf ? dwelf_elf_gnu_build_id(elf, &did) : -1;
		/* A debug file from another build gives wrong CFI: refuse it. */
		if (dlen > 0 && (dlen != id_len || memcmp(did, id, id_len))) {
			elf_end(elf);
			close(fd);
			return -1;
		}
		elf_end(elf);
	}
	*debuginfo_file_name = strdup(path);
	return fd;
}

int uw_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		      const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		      char **debuginfo_file_name)
{
	const unsigned char *id = NULL;
	char path[PATH_MAX], dir[PATH_MAX];
	const char *root = "", *rel, *slash;
	GElf_Addr id_vaddr;
	int id_len, fd, i, len;
	char *p;

	(void)userdata, (void)modname, (void)base, (void)debuglink_crc;
	if (!file_name || file_name[0] != '/')
		return -1;
	/* Files of processes in other mount namespaces come as
   * /proc/PID/root/...: look for their debug files there as well. */
	rel = file_name;
	if (strncmp(file_name, "/proc/", 6) == 0 && (p = strstr(file_name + 6, "/root/"))) {
		len = p + 5 - file_name;
		if (len < (int)sizeof(dir)) {
			root = strndupa(file_name, len);
			rel = p + 5;
		}
	}
	id_len = dwfl_module_build_id(mod, &id, &id_vaddr);
	if (id_len > 1) {
		len = snprintf(path, sizeof(path), "%s/usr/lib/debug/.build-id/%02x/", root, id[0]);
		for (i = 1; i < id_len && len < (int)sizeof(path) - 8; i++)
			len += snprintf(path + len, sizeof(path) - len, "%02x", id[i]);
		snprintf(path + len, sizeof(path) - len, ".debug");
		fd = open_debug(path, file_name, id, id_len, debuginfo_file_name);
		if (fd >= 0)
			return fd;
	}
	if (!debuglink_file || strchr(debuglink_file, '/'))
		return -1;
	slash = strrchr(rel, '/');
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - rel), rel);
	const char *fmts[] = { "%s%s/%s", "%s%s/.debug/%s", "%s/usr/lib/debug%s/%s" };
	for (i = 0; i < 3; i++) {
		if (snprintf(path, sizeof(path), fmts[i], root, dir, debuglink_file) >=
		    (int)sizeof(path))
			continue;
		fd = open_debug(path, file_name, id, id_len, debuginfo_file_name);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

int uw_vdso_fd(void)
{
	const unsigned char *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Phdr *ph;
	size_t size, off;
	ssize_t w;
	int fd, i;

	if (!img)
		return -ENOENT;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOEXEC;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	ph = (const void *)(img + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset < (1u << 20) &&
		    ph[i].p_filesz < (1u << 20) && ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	if (size > (1u << 20))
		return -EFBIG;
	fd = memfd_create("perf-prof-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (off = 0; off < size; off += w) {
		w = write(fd, img + off, size - off);
		if (w <= 0) {
			close(fd);
			return w < 0 ? -errno : -EIO;
		}
	}
	return fd;
}
