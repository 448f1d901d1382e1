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
#include "report/flame.h"
#include "report/ftrie.h"
#include "report/outfile.h"
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

static int flamegraph_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	const struct output_opts *o = opt_set__get(opts, &output_group);
	const struct log_opts *log = opt_set__get(opts, &log_group);
	struct flamegraph *fg = priv;
	const char *in, *out = o->path, *arg;
	struct folded_stats st;
	char *def = NULL;
	int err;

	if (argc != 1) {
		fprintf(stderr,
			"perf-prof flamegraph: %s (usage: perf-prof flamegraph [--title T] "
			"[--count-name N] IN.folded [-o OUT.svg])\n",
			argc ? "one input file, not several" : "no input file");
		return 2;
	}
	arg = argv[0];
	in = strcmp(arg, "-") == 0 ? "/dev/stdin" : arg;
	if (!out) {
		if (in != arg) {
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
	/* the output's problem is named as such, before the input is read */
	err = outfile__check(out);
	if (err) {
		fprintf(stderr, "perf-prof flamegraph: cannot write '%s': %s\n", out,
			ofile__strerror(-err));
		free(def);
		return 1;
	}
	err = flame__folded_to_svg(in, out, fg->title, fg->count_name, &st);
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
		fprintf(stderr, "perf-prof flamegraph: %s -> %s: %s\n", arg, out,
			ofile__strerror(-err));
	if (!err && st.bad)
		fprintf(stderr,
			"perf-prof flamegraph: %s: skipped %lu line%s that %s not 'STACK COUNT' "
			"(first: line %lu)\n",
			arg, st.bad, st.bad == 1 ? "" : "s", st.bad == 1 ? "is" : "are",
			st.first_bad);
	if (!err && log->verbose)
		fprintf(stderr, "wrote %s\n", out);
	free(def);
	return err ? 1 : 0;
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
