/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hand-written parts of the man pages (src/prof/NAME.man.md,
 * src/cmd/NAME.man.md, src/cli/perf-prof.man.md) in a small markup, and
 * their conversion to roff (man(7) macros):
 *
 *   # TITLE          a section (.SH); the file is a list of sections
 *   ## Title         a subsection (.SS)
 *   blank line       a new paragraph
 *   - text           a bullet item; lines indented by two spaces continue it
 *   TERM             a tagged paragraph (.TP): a line followed by one that
 *   : text           starts with ": "; indented lines continue the text
 *   ```              starts and ends a verbatim block (shown as written)
 *   `code`           literal text, in bold
 *   *word*           emphasis, in italics (only around words: not in globs)
 *
 * Everything else is plain text, filled into paragraphs; roff's special
 * characters (\, leading . and ', -) are escaped, so a page never holds
 * roff requests of its own.
 */
#ifndef PP_ROFF_H
#define PP_ROFF_H

#include <stdio.h>

#define MDOC_MAX_SECS 32

struct mdoc_sec {
	const char *title; /* "DESCRIPTION" */
	const char *body;  /* up to the next section, NUL-terminated */
};

struct mdoc {
	char *buf; /* the file, cut into sections in place */
	int n;
	struct mdoc_sec sec[MDOC_MAX_SECS];
};

/* Read and cut @path.  0, or -1 with one line in @err. */
int mdoc__read(const char *path, struct mdoc *d, char *err, size_t errlen);
void mdoc__free(struct mdoc *d);
/* The body of section @title, or NULL. */
const char *mdoc__section(const struct mdoc *d, const char *title);

/* @s escaped for roff; @markup: `code` and *word* become fonts. */
void roff__text(FILE *out, const char *s, int markup);
/* A section's body as roff.  0, or -1 with one line in @err (an unclosed ```). */
int roff__body(FILE *out, const char *body, char *err, size_t errlen);

#endif
