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

static const struct svg_cmd flamegraph_svg = {
	.name = "flamegraph",
	.usage = "[--title T] [--count-name N] IN.folded [-o OUT.svg]",
	.suffix = ".folded",
	.line = "STACK COUNT",
};

static int flamegraph_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	const struct output_opts *o = opt_set__get(opts, &output_group);
	const struct log_opts *log = opt_set__get(opts, &log_group);
	struct flamegraph *fg = priv;
	struct folded_stats st;
	struct svg_paths p;
	const char *arg;
	int err;

	err = svg_cmd__paths(&flamegraph_svg, o->path, argc, argv, &p);
	if (err)
		return err;
	arg = p.arg;
	err = flame__folded_to_svg(p.in, p.out, fg->title, fg->count_name, &st);
	if (err == -EOVERFLOW)
		fprintf(stderr,
			"perf-prof flamegraph: %s:%lu: weight overflows 64 bits (alone or added "
			"to the lines before)\n",
			arg, st.err_line);
	else if (err == -EISDIR)
		fprintf(stderr, "perf-prof flamegraph: %s: %s\n", arg, strerror(EISDIR));
	else if (err == -ENODATA && !st.lines)
		fprintf(stderr, "perf-prof flamegraph: no folded stacks in %s\n", arg);
	else if (err == -ENODATA)
		fprintf(stderr, "perf-prof flamegraph: %s: every count is 0: nothing to draw\n",
			arg);
	else if (err == -EINVAL)
		fprintf(stderr,
			"perf-prof flamegraph: %s: no 'STACK COUNT' line (%lu line%s, none a "
			"stack and a whole number)\n",
			arg, st.lines, st.lines == 1 ? "" : "s");
	else if (err)
		fprintf(stderr, "perf-prof flamegraph: %s -> %s: %s\n", arg, p.out,
			ofile__strerror(-err));
	return svg_cmd__done(&flamegraph_svg, &p, err, st.bad, st.first_bad, log->verbose);
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
