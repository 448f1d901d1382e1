// SPDX-License-Identifier: GPL-2.0
/* Sorted symbol arrays with a chunked string arena. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "sym/symtab.h"

#define SYM_MANGLED (1u << 0) /* name may need demangling */
#define SYM_CHECKED (1u << 1) /* demangling was tried */
#define SYM_UPTO (1u << 2)    /* end is only an upper bound until finish */
#define SYM_PRIO_SHIFT 16     /* prio lives in the high bits while building */
#define ARENA_CHUNK (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct symtab {
	struct sym *syms;
	size_t nr, cap;
	struct chunk *chunks;
	size_t last_hit; /* stacks repeat, so try the previous hit first */
};

struct symtab *symtab__new(void)
{
	return calloc(1, sizeof(struct symtab));
}

void symtab__delete(struct symtab *st)
{
	struct chunk *c, *n;

	if (!st)
		return;
	for (c = st->chunks; c; c = n) {
		n = c->next;
		free(c);
	}
	free(st->syms);
	free(st);
}

const char *symtab__strdup(struct symtab *st, const char *s, size_t len)
{
	struct chunk *c = st->chunks;
	char *p;

	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > ARENA_CHUNK / 4 ? len + 1 : ARENA_CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		/* a big string gets its own chunk behind the current one */
		if (size != ARENA_CHUNK && st->chunks) {
			c->next = st->chunks->next;
			st->chunks->next = c;
		} else {
			c->next = st->chunks;
			st->chunks = c;
		}
	}
	p = c->data + c->used;
	memcpy(p, s, len);
	p[len] = 0;
	c->used += len + 1;
	return p;
}

int symtab__add(struct symtab *st, u64 start, u64 size, const char *name, size_t len, unsigned prio,
		u32 aux)
{
	struct sym *s;

	if (st->nr == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 256;
		struct sym *n = realloc(st->syms, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		st->syms = n;
		st->cap = cap;
	}
	s = &st->syms[st->nr];
	s->name = symtab__strdup(st, name, len);
	if (!s->name)
		return -ENOMEM;
	s->start = start;
	/* sizes from hostile files must not wrap around */
	s->end = size && start + size > start ? start + size : start;
	s->flags = (prio & 0xffff) << SYM_PRIO_SHIFT;
	if (len > 2 && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R'))
		s->flags |= SYM_MANGLED;
	s->aux = aux;
	st->nr++;
	return 0;
}

int symtab__add_upto(struct symtab *st, u64 start, u64 limit, const char *name, size_t len,
		     unsigned prio, u32 aux)
{
	int err = symtab__add(st, start, 0, name, len, prio, aux);

	if (!err && limit > start) {
		st->syms[st->nr - 1].end = limit;
		st->syms[st->nr - 1].flags |= SYM_UPTO;
	}
	return err;
}

static unsigned underscores(const char *s)
{
	unsigned n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

static int sym_cmp(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;
	unsigned ua, ub;
	size_t la, lb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if ((a->flags >> SYM_PRIO_SHIFT) != (b->flags >> SYM_PRIO_SHIFT))
		return (a->flags >> SYM_PRIO_SHIFT) > (b->flags >> SYM_PRIO_SHIFT) ? -1 : 1;
	/* among aliases, "write" reads better than "__libc_write" */
	ua = underscores(a->name);
	ub = underscores(b->name);
	if (ua != ub)
		return ua < ub ? -1 : 1;
	la = strlen(a->name);
	lb = strlen(b->name);
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(a->name, b->name);
}

void symtab__finish(struct symtab *st, u64 last_size)
{
	size_t i, j;

	st->last_hit = 0;
	if (!st->nr)
		return;
	qsort(st->syms, st->nr, sizeof(*st->syms), sym_cmp);
	for (i = 1, j = 0; i < st->nr; i++) {
		struct sym *a = &st->syms[j], *b = &st->syms[i];

		if (b->start == a->start) {
			/* keep the largest real size of the aliases, a bound only without one */
			bool a_real = !(a->flags & SYM_UPTO) && a->end > a->start;
			bool b_real = !(b->flags & SYM_UPTO) && b->end > b->start;

			if (b_real && (!a_real || b->end > a->end)) {
				a->end = b->end;
				a->flags &= ~SYM_UPTO;
			} else if (!a_real && (b->flags & SYM_UPTO) &&
				   (!(a->flags & SYM_UPTO) || b->end > a->end)) {
				a->end = b->end;
				a->flags |= SYM_UPTO;
			}
			continue;
		}
		st->syms[++j] = st->syms[i];
	}
	st->nr = j + 1;
	for (i = 0; i < st->nr; i++) {
		struct sym *s = &st->syms[i];

		s->flags &= (1u << SYM_PRIO_SHIFT) - 1;
		if (s->flags & SYM_UPTO) {
			/* never across a section end: PLT stubs are not _init */
			if (i + 1 < st->nr && st->syms[i + 1].start < s->end)
				s->end = st->syms[i + 1].start;
			s->flags &= ~SYM_UPTO;
			continue;
		}
		if (s->end > s->start)
			continue;
		if (i + 1 < st->nr)
			s->end = st->syms[i + 1].start;
		else
			s->end = s->start + last_size > s->start ? s->start + last_size : ~0ull;
	}
	if (st->cap > st->nr + 64) {
		struct sym *n = realloc(st->syms, st->nr * sizeof(*n));

		if (n) {
			st->syms = n;
			st->cap = st->nr;
		}
	}
}

void symtab__drop_index(struct symtab *st)
{
	if (!st)
		return;
	free(st->syms);
	st->syms = NULL;
	st->nr = st->cap = st->last_hit = 0;
}

static void sym_demangle(struct symtab *st, struct sym *s)
{
	char *d = sym__demangle(s->name);

	s->flags |= SYM_CHECKED;
	if (d) {
		const char *n = symtab__strdup(st, d, strlen(d));

		if (n)
			s->name = n;
		free(d);
	}
}

const struct sym *symtab__find(struct symtab *st, u64 addr)
{
	size_t lo = 0, hi, mid;
	struct sym *s;

	if (!st || !st->nr)
		return NULL;
	s = &st->syms[st->last_hit];
	/* only if no later symbol starts at or before addr: it would be the
	 * inner one of nested symbols, which the search below prefers */
	if (addr >= s->start && addr < s->end &&
	    (st->last_hit + 1 == st->nr || st->syms[st->last_hit + 1].start > addr))
		goto found;
	hi = st->nr;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &st->syms[lo - 1];
	if (addr >= s->end)
		return NULL;
	st->last_hit = lo - 1;
found:
	if ((s->flags & (SYM_MANGLED | SYM_CHECKED)) == SYM_MANGLED)
		sym_demangle(st, s);
	return s;
}

size_t symtab__nr(const struct symtab *st)
{
	return st ? st->nr : 0;
}

char *sym__demangle(const char *name)
{
	if (!name || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	/* DMGL_AUTO tries Rust (legacy and v0) before the C++ ABI */
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}

static void warn_stderr(const char *msg)
{
	fprintf(stderr, "perf-prof: %s\n", msg);
}

static void (*warn_hook)(const char *msg) = warn_stderr;

void sym__set_warn(void (*warn)(const char *msg))
{
	warn_hook = warn ? warn : warn_stderr;
}

void sym__warn(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	warn_hook(buf);
}
