// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof flamegraph: a folded stack file (ours, perf's stackcollapse,
 * inferno's) to an interactive SVG, without Perl.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler.h"
#include "out/flame.h"

struct flamegraph {
	const char *title;
	const char *count_name;
};

static const struct popt flamegraph_opts[] = {
	{ .lname = "title",
	  .argname = "TITLE",
	  .help = "title of the graph (default \"Flame Graph\")",
	  .type = POPT_STR,
	  .off = offsetof(struct flamegraph, title) },
	{ .lname = "count-name",
	  .argname = "NAME",
	  .help = "unit of the weights: samples, ms, us, bytes (default samples)",
	  .type = POPT_STR,
	  .off = offsetof(struct flamegraph, count_name) },
	{ 0 },
};

/* IN.folded -> IN.svg, anything else -> IN.svg appended. */
static char *default_output(const char *in)
{
	size_t n = strlen(in);
	char *out;

	if (n > 7 && strcmp(in + n - 7, ".folded") == 0)
		n -= 7;
	if (asprintf(&out, "%.*s.svg", (int)n, in) < 0)
		return NULL;
	return out;
}

static int flamegraph_run(const struct env *env, void *priv, int argc, char **argv)
{
	struct flamegraph *fg = priv;
	const char *in, *out;
	char *def = NULL;
	int err;

	/* Tolerate being handed our own name first. */
	if (argc > 1 && strcmp(argv[0], "flamegraph") == 0) {
		argc--;
		argv++;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: perf-prof flamegraph [--title T] [--count-name N] "
				"IN.folded [-o OUT.svg]\n");
		return 2;
	}
	in = strcmp(argv[0], "-") == 0 ? "/dev/stdin" : argv[0];
	out = env->output;
	if (!out) {
		if (in != argv[0]) {
			fprintf(stderr, "perf-prof flamegraph: reading stdin needs -o OUT.svg\n");
			return 2;
		}
		out = def = default_output(in);
		if (!out) {
			fprintf(stderr, "perf-prof flamegraph: out of memory\n");
			return 1;
		}
	} else if (strcmp(out, "-") == 0) {
		out = "/dev/stdout";
	}
	err = flame__folded_to_svg(in, out, fg->title, fg->count_name);
	if (err == -EINVAL)
		fprintf(stderr, "perf-prof flamegraph: %s: no \"frame;frame... WEIGHT\" lines\n",
			argv[0]);
	else if (err)
		fprintf(stderr, "perf-prof flamegraph: %s -> %s: %s\n", argv[0], out,
			strerror(-err));
	else if (env->verbose)
		fprintf(stderr, "wrote %s\n", out);
	free(def);
	return err ? 1 : 0;
}

const struct profiler prof_flamegraph = {
	.name = "flamegraph",
	.desc = "turn folded stacks into an interactive SVG flame graph",
	.synopsis = "perf-prof flamegraph [--title T] [--count-name N] IN.folded [-o OUT.svg]",
	.examples = "perf-prof flamegraph x.folded\n"
		    "perf-prof flamegraph --title 'Off-CPU Time' --count-name ms off.folded -o "
		    "off.svg\n"
		    "perf script | stackcollapse-perf.pl > out.folded && perf-prof flamegraph "
		    "out.folded",
	.opts = OPT_OUTPUT,
	.own = flamegraph_opts,
	.priv_size = sizeof(struct flamegraph),
	.run = flamegraph_run,
};
