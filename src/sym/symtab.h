/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A symbol table: one string arena plus one array sorted by address,
 * searched by binary search.  Used for the kernel (kallsyms), ELF files
 * and JIT maps.  Names are demangled lazily, on first lookup, so that
 * loading a large C++ library stays cheap.
 */
#ifndef PP_SYMTAB_H
#define PP_SYMTAB_H

#include <stddef.h>

#include "engine/sample.h"

struct sym {
	u64 start;
	u64 end;	  /* exclusive */
	const char *name; /* stable until symtab__delete */
	u32 flags;	  /* SYM_* (internal) */
	u32 aux;	  /* owner's data, e.g. the kernel module index */
};

struct symtab;

struct symtab *symtab__new(void);
void symtab__delete(struct symtab *st);

/*
 * Add a symbol; @name (@len bytes, not necessarily NUL-terminated) is
 * copied.  @size 0: it ends where the next symbol starts.  Among symbols
 * at the same address the highest @prio wins.  Returns 0 or -ENOMEM.
 */
int symtab__add(struct symtab *st, u64 start, u64 size, const char *name, size_t len, unsigned prio,
		u32 aux);

/*
 * A symbol of unknown size (ELF st_size 0) that cannot reach past @limit
 * (exclusive, e.g. the end of its section): it ends at the next symbol's
 * start or at @limit, whichever comes first.  Returns 0 or -ENOMEM.
 */
int symtab__add_upto(struct symtab *st, u64 start, u64 limit, const char *name, size_t len,
		     unsigned prio, u32 aux);

/* Copy a string into the arena; NULL on -ENOMEM. */
const char *symtab__strdup(struct symtab *st, const char *s, size_t len);

/*
 * Sort, drop duplicates and give zero-sized symbols an end: the next
 * symbol's start, or start + @last_size for the last one.  Call after the
 * last symtab__add; more symbols may be added and symtab__finish called
 * again (a growing JIT map): then at an address already known the new
 * symbol wins.  Names handed out stay valid.
 */
void symtab__finish(struct symtab *st, u64 last_size);

/* Free the symbol array but keep the names, which may still be in use. */
void symtab__drop_index(struct symtab *st);

/* The symbol containing @addr (demangled), or NULL. */
const struct sym *symtab__find(struct symtab *st, u64 addr);

size_t symtab__nr(const struct symtab *st);

/*
 * Demangle C++ and Rust names as perf shows them ("ns::Foo<int>::bar(int)").
 * Returns a malloc'ed string, or NULL if @name is not mangled.
 */
char *sym__demangle(const char *name);

/* Warnings of the symbol layer go through this hook (default: stderr). */
void sym__set_warn(void (*warn)(const char *msg));
void sym__warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
