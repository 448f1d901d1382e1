// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof flamegraph: a folded stack file (ours, perf's stackcollapse,
 * inferno's) to an interactive SVG, without Perl.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/svgcmd.h"
#include "report/outfile.h"
#include "profiler.h"
#include "report/flame.h"
#include "report/ftrie.h"
#include "util/ofile.h"

struct flamegraph {
	const char *title;
	const char *count_name;
};

static const struct popt flamegraph_opts[] = {
	{ .lname = "title",
	  .argname = "TITLE",
	  .help = "title of the graph (default, or '': \"Flame Graph\")",
	  .empty_default = true,
	  POPT_BIND_STR(struct flamegraph, title) },
	{ .lname = "count-name",
	  .argname = "NAME",
	  .help = "unit of the weights: samples, ms, us, bytes (default, or '': samples)",
	  .empty_default = true,
	  POPT_BIND_STR(struct flamegraph, count_name) },
	{ 0 },
};

static int flamegraph_draw(const void *priv, const char *in, const char *out, struct svg_counts *n)
{
	const struct flamegraph *fg = priv;
	struct folded_stats st = { 0 };
	int err = flame__folded_to_svg(in, out, fg->title, fg->count_name, &st);

	*n = (struct svg_counts){ st.lines, st.bad, st.first_bad, st.err_line };
	return err;
}

static bool flamegraph_explain(int err, const char *arg, const struct svg_counts *n)
{
	if (err == -EOVERFLOW)
		fprintf(stderr,
			"perf-prof flamegraph: %s:%lu: weight overflows 64 bits (alone or added "
			"to the lines before)\n",
			arg, n->err_line);
	else if (err == -ENODATA && !n->lines)
		fprintf(stderr, "perf-prof flamegraph: no folded stacks in %s\n", arg);
	else if (err == -ENODATA)
		fprintf(stderr, "perf-prof flamegraph: %s: every count is 0: nothing to draw\n",
			arg);
	else if (err == -EINVAL)
		fprintf(stderr,
			"perf-prof flamegraph: %s: no 'STACK COUNT' line (%lu line%s, none a "
			"stack and a whole number)\n",
			arg, n->lines, n->lines == 1 ? "" : "s");
	else
		return false;
	return true;
}

static const struct svg_cmd flamegraph_svg = {
	.name = "flamegraph",
	.usage = "[--title T] [--count-name N] IN.folded [-o OUT.svg]",
	.suffix = ".folded",
	.line = "STACK COUNT",
	.draw = flamegraph_draw,
	.explain = flamegraph_explain,
	.isdir_hint = "",
	.io_hint = "",
};

static int flamegraph_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	return svg_cmd__run(&flamegraph_svg, opts, priv, argc, argv);
}

const struct command cmd_flamegraph = {
	.name = "flamegraph",
	.desc = "turn folded stacks into an interactive SVG flame graph",
	.synopsis = "perf-prof flamegraph [--title T] [--count-name N] IN.folded [-o OUT.svg]",
	.examples =
		"perf-prof flamegraph x.folded\n"
		"  perf-prof flamegraph --title 'Off-CPU' --count-name ms off.folded -o off.svg\n"
		"  perf script | stackcollapse-perf.pl > perf.folded; perf-prof flamegraph "
		"perf.folded",
	.groups = (const struct opt_group *const[]){ &output_group, NULL },
	.own = flamegraph_opts,
	.priv_size = sizeof(struct flamegraph),
	.run = flamegraph_run,
};
