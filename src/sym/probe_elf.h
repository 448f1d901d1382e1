/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a user-space probe goes: a function or a USDT note of an ELF file,
 * as the file offset the uprobe PMU and uprobe_events take, and the file
 * itself found the way the dynamic linker finds a library name.  Pure
 * lookups: nothing is printed, nothing exits; errors are -errno.
 */
#ifndef PP_PROBE_ELF_H
#define PP_PROBE_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "engine/sample.h"

struct probe_elf;

/*
 * Open @path for lookups.  0, or -ENOENT (no such file), -EACCES,
 * -EISDIR, -ENOEXEC (not an ELF file), -EPROTONOSUPPORT (an ELF file for
 * another machine than x86-64, or 32-bit), -ENOMEM.
 */
int probe_elf__open(const char *path, struct probe_elf **out);
void probe_elf__delete(struct probe_elf *pe); /* NULL is fine */

struct probe_func {
	u64 vaddr;  /* st_value */
	u64 offset; /* its file offset (through the PT_LOAD that holds it) */
	u64 size;   /* st_size */
	bool ifunc; /* STT_GNU_IFUNC: the address is the resolver's, not the function's */
};

/*
 * The defined function (STT_FUNC or STT_GNU_IFUNC, st_shndx != SHN_UNDEF)
 * named @name: .symtab first, else .dynsym; a versioned dynamic name
 * ("malloc@@GLIBC_2.2.5") matches "malloc".  When several symbols have the
 * name (a local and a global), the global one.  0, or -ENOENT.
 */
int probe_elf__func(struct probe_elf *pe, const char *name, struct probe_func *f);

struct probe_sym {
	u64 vaddr;  /* st_value: a link-time address */
	u64 size;   /* st_size, 0 when unknown */
	bool func;  /* STT_FUNC or STT_GNU_IFUNC */
	bool ifunc; /* STT_GNU_IFUNC: vaddr is the resolver's, which picks the function run */
	bool tls;   /* STT_TLS: vaddr is an offset in each thread's block, not an address */
};

/*
 * Any defined symbol named @name, data or code (not a section or file
 * symbol), searched as probe_elf__func searches functions.  0, or -ENOENT.
 */
int probe_elf__symbol(struct probe_elf *pe, const char *name, struct probe_sym *ps);

/*
 * Up to @max names of defined functions that look like @name (same name
 * with another prefix or suffix, or an edit distance of at most 2),
 * comma-separated into @buf ("" if none).  For "did you mean" hints.
 */
void probe_elf__similar(struct probe_elf *pe, const char *name, int max, char *buf, size_t len);

/* The file offset of virtual address @vaddr (inside a PT_LOAD's file part): 0 or -ENOENT. */
int probe_elf__offset(const struct probe_elf *pe, u64 vaddr, u64 *off);

/*
 * DT_NEEDED names, in order, as a NULL-terminated array (free with
 * probe_elf__free_list); *@names is an empty array for a static file.
 * Returns the count or -errno.
 */
int probe_elf__needed(const struct probe_elf *pe, char ***names);
/* DT_RUNPATH (else DT_RPATH) as written, $ORIGIN not expanded; NULL if none. */
const char *probe_elf__runpath(const struct probe_elf *pe);
void probe_elf__free_list(char **list);

/* ---- USDT (.note.stapsdt) ---- */

enum usdt_arg_kind {
	USDT_ARG_IMM, /* "4@$5": the constant in value */
	USDT_ARG_REG, /* "-4@%edi": the register's low @size bytes */
	USDT_ARG_MEM, /* "8@-16(%rbp)", "4@8(%rax,%rbx,4)", "8@foo+8(%rip)": memory */
};

struct usdt_arg {
	enum usdt_arg_kind kind;
	unsigned char size;  /* 1, 2, 4 or 8 bytes */
	bool is_signed;	     /* a negative size in the note */
	signed char reg;     /* PERF_REG_X86_* of the register (REG) or the base (MEM); -1: none */
	signed char index;   /* MEM: PERF_REG_X86_* of the index register, -1: none */
	unsigned char scale; /* MEM with an index: 1, 2, 4 or 8 */
	bool rip_rel; /* MEM relative to %rip: value is the symbol's address + displacement */
	s64 value;    /* IMM: the constant; MEM: the displacement */
};

#define USDT_MAX_ARGS 12

struct usdt_note {
	char *provider, *name;
	u64 vaddr;	 /* the probe's address, adjusted by .stapsdt.base as the note asks */
	u64 offset;	 /* its file offset */
	u64 sema_vaddr;	 /* the semaphore (unsigned short), 0 if none */
	u64 sema_offset; /* its file offset: what the uprobe PMU's ref_ctr_offset takes */
	int nr_args;
	struct usdt_arg args[USDT_MAX_ARGS];
	char *args_text; /* the note's argument string as written ("" if none) */
};

/*
 * The USDT notes whose provider and name match the globs (fnmatch), in
 * note order; one probe may have several notes (one per inlined site).
 * *@notes is NULL and *@nr 0 when none match (returns 0).  An argument the
 * parser cannot read leaves nr_args at the ones before it and is not an
 * error (args_text keeps the whole string).  A note whose address is not
 * in the file's loaded part (no file offset) is left out; a semaphore
 * without a file offset has sema_offset 0 (with sema_vaddr set).  0 or -errno.
 */
int probe_elf__usdt(struct probe_elf *pe, const char *provider, const char *name,
		    struct usdt_note **notes, int *nr);
void usdt_notes__free(struct usdt_note *notes, int nr);

/*
 * One operand of a note's argument string ("-4@%edi", "8@-16(%rbp)",
 * "4@$-1", "8@%r14", "1@%al", "2@%ax", "-4@8(%rax,%rbx,4)",
 * "8@foo+8(%rip)", "8@%rip" is refused): 0 or -EINVAL.  @rip_sym gives
 * the address of a symbol named in a %rip-relative operand (NULL: such
 * operands are refused); it returns 0 and fills *@addr, or -ENOENT (the
 * operand is then refused too).  @len < 0: @text is NUL-terminated.
 */
int usdt_arg__parse(const char *text, int len, struct usdt_arg *a,
		    int (*rip_sym)(void *priv, const char *name, u64 *addr), void *priv);

/* ---- Finding the file ---- */

/*
 * Find library @name the way the dynamic linker would, into @out:
 *   - a name with a '/' is taken as is;
 *   - @pid > 0: the file of that name that the process maps (its
 *     /proc/PID/maps, through /proc/PID/root so that a container's own
 *     files are probed), where a mapped "libc.so.6" is matched by
 *     "libc.so.6", "libc.so" and "libc";
 *   - else the directories of LD_LIBRARY_PATH, /etc/ld.so.cache (format
 *     "glibc-ld.so.cache1.1"; x86-64 entries), then /lib/x86_64-linux-gnu,
 *     /usr/lib/x86_64-linux-gnu, /lib64, /usr/lib64, /lib, /usr/lib; a bare
 *     "libc" also matches "libc.so.6" there.
 * An executable name without '/' (e.g. "bash") is also looked up in PATH.
 * A file of the exact name anywhere wins over a "libc" -> "libc.so.6"
 * match; files that are not x86-64 ELF files are passed over, as the
 * dynamic linker does.
 * 0, -ENOENT (not found), -ENAMETOOLONG, -ESRCH (@pid: no such process).
 */
int libpath__find(const char *name, pid_t pid, char *out, size_t len);

/*
 * The x86-64 libc6 entry (flags 0x0303) of @name in the ld.so.cache
 * contents @buf (untrusted: every offset is checked against @len): a
 * "glibc-ld.so.cache1.1" file, not the old "ld.so-1.7.0" format.  An
 * exact soname beats "libc" -> "libc.so.6", an entry without hwcap beats
 * one with.  0, -ENOENT, -EINVAL (not such a cache), -ENAMETOOLONG.
 */
int libpath__cache_lookup(const void *buf, size_t len, const char *name, char *out, size_t outlen);

/* A command as execvp(3) finds it (PATH; a name with '/' as is): 0 or -ENOENT. */
int libpath__command(const char *name, char *out, size_t len);

/*
 * The ELF files process @pid maps with execute permission (its executable
 * and libraries, not [vdso]), each once, as "/proc/PID/root/PATH".  Returns
 * the count (NULL-terminated *@paths, free with probe_elf__free_list) or
 * -errno (-ESRCH: no such process).
 */
int libpath__mapped(pid_t pid, char ***paths);

/*
 * @exe, the preloaded libraries (LD_PRELOAD, /etc/ld.so.preload) and the
 * libraries they need (DT_NEEDED, transitively, each resolved
 * as the dynamic linker would: the needing file's DT_RUNPATH/DT_RPATH with
 * $ORIGIN, then as libpath__find with pid 0), each once, @exe first.
 * A needed library that cannot be found is left out.  Count or -errno.
 * Needed names are sonames: only files of that exact name are taken.
 */
int libpath__closure(const char *exe, char ***paths);

#endif
