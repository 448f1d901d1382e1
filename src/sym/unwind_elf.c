// SPDX-License-Identifier: GPL-2.0
/*
 * ELF helpers for the DWARF unwinder (see unwind_elf.h).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/debugfile.h"
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

int uw_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		      const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		      char **debuginfo_file_name)
{
	const unsigned char *id = NULL;
	const char *root = "", *rel, *p;
	char path[PATH_MAX];
	GElf_Addr id_vaddr;
	int id_len, fd;

	(void)userdata, (void)modname, (void)base, (void)debuglink_crc;
	if (!file_name || file_name[0] != '/')
		return -1;
	/* Files of processes in other mount namespaces come as
	 * /proc/PID/root/...: look for their debug files there as well. */
	rel = file_name;
	if (strncmp(file_name, "/proc/", 6) == 0 && (p = strstr(file_name + 6, "/root/")) &&
	    p + 5 - file_name < PATH_MAX) {
		root = strndupa(file_name, p + 5 - file_name);
		rel = p + 5;
	}
	id_len = dwfl_module_build_id(mod, &id, &id_vaddr);
	if (debugfile__find(rel, root, id, id_len > 0 ? id_len : 0, debuglink_file, path,
			    sizeof(path)))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	*debuginfo_file_name = strdup(path);
	if (!*debuginfo_file_name) {
		close(fd);
		return -1;
	}
	return fd;
}
