/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The man pages and the shell completion, from the tables that print -h
 * (cli/options.h: options__doc) and the hand-written parts beside each
 * profiler (cli/roff.h).
 *
 *   perf-prof --man SRCDIR OUTDIR [NAME...]
 *	writes OUTDIR/perf-prof.1 and OUTDIR/perf-prof-NAME.1 for every
 *	profiler and command (or the NAMEs given: "perf-prof" is the main
 *	page), reading SRCDIR/prof/FILE.man.md (FILE: NAME with '_' for '-'),
 *	SRCDIR/cmd/NAME.man.md and SRCDIR/cli/perf-prof.man.md.  A page
 *	without its hand-written part, without a required section, an option
 *	without help or an -e attribute left undocumented is an error.
 *   perf-prof --complete
 *	the profilers and commands, one a line.
 *   perf-prof --complete NAME
 *	NAME's options, one a line: "-x<TAB>--long<TAB>ARG" (no -x: empty;
 *	no argument: empty; an optional one: "[=ARG]"), then "--" when it
 *	runs a command.
 */
#ifndef PP_DOC_H
#define PP_DOC_H

#include <stdio.h>

#include "cli/options.h"

/* argv[0] is "--man" or "--complete"; returns the exit status. */
int doc__main(int argc, char **argv, const char *version);

/*
 * The page of @d (NULL: perf-prof(1)) with its hand-written part read from
 * @md, as roff into @out.  0, or -1 with one line in @err: the checks of
 * --man (sections, help of every option, -e attributes).
 */
int doc__page(const struct cli_doc *d, const char *md, const char *version, FILE *out, char *err,
	      size_t errlen);

#endif
