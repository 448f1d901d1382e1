/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function symbols of one ELF file and, apart, its variables (.symtab
 * and .dynsym, or those of its separate debug file when it is stripped),
 * its build-id, its .gnu_debuglink and its PT_LOAD segments (to turn file
 * offsets of a mapping into symbol addresses).  Every size and offset in
 * the file is checked: the files are those of arbitrary processes.
 */
#ifndef PP_ELFSYMS_H
#define PP_ELFSYMS_H

#include <stdbool.h>
#include <stddef.h>

#include "sym/symtab.h"

#define BUILD_ID_MAX 64

struct elfsyms;

/*
 * Load the file open at @fd (not closed).  @path is its name as the
 * process sees it and @root the prefix under which that name opens
 * ("" or "/proc/PID/root"): both place the debug files.  Returns 0,
 * -ENOEXEC for a file that is not (valid) ELF, or -errno.
 */
int elfsyms__open_fd(int fd, const char *path, const char *root, struct elfsyms **out);
int elfsyms__open(const char *path, struct elfsyms **out);
/* An ELF image in memory (the vdso, fuzzing); no debug file search. */
int elfsyms__from_mem(const void *buf, size_t len, struct elfsyms **out);
void elfsyms__delete(struct elfsyms *es);
/*
 * Is the file at @fd a whole, well-formed ELF file (header, section and
 * program header tables, sections and loadable segments inside the file,
 * symbol tables of whole entries linked to a string table)?  0, or
 * -ENOEXEC with the first fault in @why ("not an ELF file", "truncated:
 * ...", "corrupt ...") or -errno.  The loader above is lenient on purpose
 * (process files); a file a user names is checked with this first.
 */
int elfsyms__check_fd(int fd, char *why, size_t len);

/* The build-id of the file at @fd without loading symbols. Returns its length or -errno. */
int elfsyms__read_build_id(int fd, unsigned char *buf, int size);

/* The symbol containing @vaddr (a link-time address), or NULL. */
const struct sym *elfsyms__find(struct elfsyms *es, u64 vaddr);
/* The variable (STT_OBJECT, not thread-local) containing @vaddr, or NULL. */
const struct sym *elfsyms__find_data(struct elfsyms *es, u64 vaddr);
/* File offset -> link-time address, through the PT_LOAD headers. */
u64 elfsyms__file_to_vaddr(const struct elfsyms *es, u64 off);
/* The load bias of a mapping at @start of the file from @pgoff (@exec: an executable one) */
u64 elfsyms__map_bias(const struct elfsyms *es, u64 start, u64 pgoff, bool exec);

const unsigned char *elfsyms__build_id(const struct elfsyms *es, int *len);
const char *elfsyms__debuglink(const struct elfsyms *es);
/* The separate debug file whose symbols are used, or NULL. */
const char *elfsyms__debug_path(const struct elfsyms *es);
size_t elfsyms__nr(const struct elfsyms *es);

#endif
