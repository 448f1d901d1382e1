/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands that turn one text file into an SVG (flamegraph, heatmap):
 * the input and output paths, the output's check before the input is read,
 * and the closing lines (skipped lines, -v's "wrote").
 */
#ifndef PP_CMD_SVGCMD_H
#define PP_CMD_SVGCMD_H

#include <stdbool.h>

struct svg_cmd {
	const char *name;   /* "flamegraph" */
	const char *usage;  /* the synopsis after "perf-prof NAME " */
	const char *suffix; /* the input's suffix the output's name drops: ".folded" */
	const char *line;   /* what a good line is: "STACK COUNT" */
};

struct svg_paths {
	const char *arg; /* the input as given ("-": stdin) */
	const char *in;	 /* the input to open */
	const char *out; /* the SVG to write */
	char *def;	 /* the default output name, when it is the output */
};

/*
 * Fill @p from the positional arguments and -o.  0, or the exit status
 * after one line on stderr: 2 for a usage error, 1 when the output cannot
 * be written (named before the input is read).
 */
int svg_cmd__paths(const struct svg_cmd *c, const char *opath, int argc, char **argv,
		   struct svg_paths *p);

/*
 * After the drawing: with @err 0, the count of skipped lines (@bad, the
 * first @first_bad) and, with @verbose, "wrote OUT".  Frees @p.  The exit
 * status: 1 with @err, else 0 (@err's line is the command's to print).
 */
int svg_cmd__done(const struct svg_cmd *c, struct svg_paths *p, int err, unsigned long bad,
		  unsigned long first_bad, bool verbose);

#endif
