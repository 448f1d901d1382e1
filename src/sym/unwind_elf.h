/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ELF helpers private to sym/unwind.c: load bias of a mapping, reads of
 * file-backed memory, and separate debug files.
 */
#ifndef PP_UNWIND_ELF_H
#define PP_UNWIND_ELF_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>

#include "sym/unwind.h"

/*
 * Load bias (memory address minus ELF virtual address) of the file open
 * on @fd, mapped as @m.  0 for ET_EXEC.  Returns 0 or -errno.
 */
int uw_elf_bias(int fd, const struct unwind_map *m, u64 *bias);

/* Read the 8 bytes at @addr from the file image of the module covering it. */
bool uw_elf_read_word(Dwfl *dwfl, u64 addr, Dwarf_Word *result);

/* Dwfl_Callbacks.find_debuginfo: build-id and .gnu_debuglink lookups in the
 * usual places, without debuginfod (no network while profiling). */
int uw_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		      const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		      char **debuginfo_file_name);

#endif
