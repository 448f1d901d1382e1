/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands that turn one text file into an SVG (flamegraph, heatmap):
 * the input and output paths, the output's check before the input is read,
 * and the closing lines (skipped lines, -v's "wrote").
 */
#ifndef PP_CMD_SVGCMD_H
#define PP_CMD_SVGCMD_H

#include <stdbool.h>

struct opt_set;

/* What a drawing read: its lines, those skipped and the first of them; where it failed. */
struct svg_counts {
	unsigned long lines, bad, first_bad, err_line;
};

struct svg_cmd {
	const char *name;   /* "flamegraph" */
	const char *usage;  /* the synopsis after "perf-prof NAME " */
	const char *suffix; /* the input's suffix the output's name drops: ".folded" */
	const char *line;   /* what a good line is: "STACK COUNT" */
	/* Draw @in into @out with the command's options @priv: 0 or -errno, *@n filled. */
	int (*draw)(const void *priv, const char *in, const char *out, struct svg_counts *n);
	/* The one line on stderr for @err when it is the input's own (@arg as given), or false. */
	bool (*explain)(int err, const char *arg, const struct svg_counts *n);
	const char *isdir_hint; /* after "perf-prof NAME: IN: Is a directory" */
	const char *io_hint;	/* after "perf-prof NAME: IN -> OUT: ERROR" */
};

/*
 * The whole command: the input and output from the positional arguments
 * and -o (the output checked before the input is read), the drawing, one
 * line for its error, then the count of skipped lines and, with -v,
 * "wrote OUT".  The exit status: 2 for a usage error, 1 when the SVG
 * could not be made, else 0.
 */
int svg_cmd__run(const struct svg_cmd *c, const struct opt_set *opts, const void *priv, int argc,
		 char **argv);

#endif
