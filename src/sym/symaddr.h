/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a named variable or function is in memory, for what takes
 * addresses (hardware breakpoints): a symbol of the kernel
 * (/proc/kallsyms), of a running process (the ELF symbol of its executable
 * or of a library, plus the load bias its /proc/PID/maps shows), or of a
 * program not started yet, as exec places it without address
 * randomization.  Pure lookups: nothing printed; errors are -errno.
 */
#ifndef PP_SYMADDR_H
#define PP_SYMADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "engine/conf.h"
#include "engine/sample.h"

struct symaddr {
	u64 addr;	/* the run-time address */
	u64 size;	/* bytes (ELF st_size); 0 when unknown (kallsyms) */
	bool func;	/* code, not data */
	bool ifunc;	/* STT_GNU_IFUNC: the address of the resolver, not of what it picks */
	bool kernel;	/* a kernel address */
	bool predicted; /* where a program not started yet will have it (symaddr__program) */
	char file[256]; /* the ELF file as the process names it, or "[kernel.kallsyms]" */
};

/*
 * @name in @path (NULL: /proc/kallsyms), any type of symbol; the core
 * kernel's before a module's.  0, -ENOENT, -EPERM (the kernel hides the
 * addresses from this user), or another -errno.
 */
int symaddr__kernel(const char *path, const char *name, struct symaddr *sa);
/* The same over kallsyms text read from @fp (the parser alone: tests, fuzzing). */
int symaddr__parse_kallsyms(FILE *fp, const char *name, struct symaddr *sa);

/*
 * @name in the ELF files process @pid maps (its executable first, then
 * the others in address order), at the address it has in that process.
 * 0, -ENOENT, -ESRCH (no such process), -EMEDIUMTYPE (a thread-local
 * variable: one address per thread), or another -errno.
 */
int symaddr__process(pid_t pid, const char *name, struct symaddr *sa);

/* A file a process maps, with its mapping of the lowest file offset. */
struct symaddr_file {
	char *path; /* as maps names it, " (deleted)" included */
	u64 start, end, pgoff;
};
/*
 * The files (paths from '/') of /proc/PID/maps text read from @fp, each
 * once, in the order of their first mapping: *@files (free with
 * symaddr__free_files) and *@nr.  0 or -ENOMEM.  (The parser alone:
 * symaddr__process reads the maps with it; tests, fuzzing.)
 */
int symaddr__parse_maps(FILE *fp, struct symaddr_file **files, int *nr);
void symaddr__free_files(struct symaddr_file *files, int nr); /* NULL is fine */

/*
 * @name in the executable @path, at the address it will have once exec(2)
 * has loaded the program without address randomization (personality
 * ADDR_NO_RANDOMIZE, inherited by the child that execs it): a fixed
 * address (ET_EXEC) or, for a position-independent program, the kernel's
 * fixed base for such programs on x86-64.  0, -ENOENT, -EMEDIUMTYPE,
 * -EOPNOTSUPP (where it will load cannot be told: a static PIE, another
 * architecture), or another -errno.
 */
int symaddr__program(const char *path, const char *name, struct symaddr *sa);

/*
 * The library of @path's closure (libpath__closure, @path itself
 * excepted) that defines @name, into @lib: 0 or -ENOENT.  For hints.
 */
int symaddr__library(const char *path, const char *name, char *lib, size_t len);

/*
 * @name for what a session monitors (@tg): in the processes of -p/-t (all
 * must have it at one address), else in the program of "-- command"
 * (symaddr__program: sa->predicted), else in the kernel.  0, or -EINVAL
 * with one line in @err saying why and what to do (an unknown symbol, a
 * thread-local one, one in a library of a command not started yet, ...),
 * or another -errno with its line.
 */
int symaddr__for_target(const struct target_opts *tg, const char *name, struct symaddr *sa,
			char *err, size_t errlen);

#endif
