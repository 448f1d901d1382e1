// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof heatmap: a .lat file ("TIME LATENCY" lines, in ns) to an SVG
 * latency heat map: time across, log2 latency rows up, cells coloured by
 * how many pairs fell in them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler.h"
#include "report/heatmap.h"
#include "report/outfile.h"
#include "util/ofile.h"

struct heatmap_cmd {
	const char *title;
};

static const struct popt heatmap_opts[] = {
	{ .lname = "title",
	  .argname = "TITLE",
	  .help = "title of the map (default, or '': \"Latency Heat Map\")",
	  .empty_default = true,
	  POPT_BIND_STR(struct heatmap_cmd, title) },
	{ 0 },
};

/* IN.lat -> IN.svg, anything else -> IN.svg appended. */
static char *default_output(const char *in)
{
	size_t n = strlen(in);
	char *out;

	if (n > 4 && strcmp(in + n - 4, ".lat") == 0)
		n -= 4;
	if (asprintf(&out, "%.*s.svg", (int)n, in) < 0)
		return NULL;
	return out;
}

static int heatmap_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	const struct output_opts *o = opt_set__get(opts, &output_group);
	const struct log_opts *log = opt_set__get(opts, &log_group);
	struct heatmap_cmd *hm = priv;
	const char *in, *out = o->path, *arg;
	struct lat_stats st;
	char *def = NULL;
	int err;

	if (argc != 1) {
		fprintf(stderr,
			"perf-prof heatmap: %s (usage: perf-prof heatmap [--title T] IN.lat "
			"[-o OUT.svg])\n",
			argc ? "one input file, not several" : "no input file");
		return 2;
	}
	arg = argv[0];
	in = strcmp(arg, "-") == 0 ? "/dev/stdin" : arg;
	if (!out) {
		if (in != arg) {
			fprintf(stderr, "perf-prof heatmap: reading stdin needs -o OUT.svg\n");
			return 2;
		}
		out = def = default_output(in);
		if (!out) {
			fprintf(stderr, "perf-prof heatmap: out of memory\n");
			return 1;
		}
	} else if (strcmp(out, "-") == 0) {
		out = "/dev/stdout";
	}
	/* the output's problem is named as such, before the input is read */
	err = outfile__check(out);
	if (err) {
		fprintf(stderr, "perf-prof heatmap: cannot write '%s': %s\n", out,
			ofile__strerror(-err));
		free(def);
		return 1;
	}
	err = heatmap__lat_to_svg(in, out, hm->title, &st);
	if (err == -EINVAL)
		fprintf(stderr,
			"perf-prof heatmap: %s: no 'TIME LATENCY' line (%lu line%s, none two whole "
			"numbers of nanoseconds)\n",
			arg, st.lines, st.lines == 1 ? "" : "s");
	else if (err == -ENODATA)
		fprintf(stderr,
			"perf-prof heatmap: no pairs in %s (an empty .lat: did the run pair any "
			"events?)\n",
			arg);
	else if (err == -EISDIR)
		fprintf(stderr, "perf-prof heatmap: %s: %s (give a .lat file)\n", arg,
			strerror(EISDIR));
	else if (err)
		fprintf(stderr,
			"perf-prof heatmap: %s -> %s: %s (check that the .lat exists and is "
			"readable, and that the SVG's directory is writable)\n",
			arg, out, ofile__strerror(-err));
	if (!err && st.bad)
		fprintf(stderr,
			"perf-prof heatmap: %s: skipped %lu line%s that %s not 'TIME LATENCY' "
			"(first: line %lu)\n",
			arg, st.bad, st.bad == 1 ? "" : "s", st.bad == 1 ? "is" : "are",
			st.first_bad);
	if (!err && log->verbose)
		fprintf(stderr, "wrote %s\n", out);
	free(def);
	return err ? 1 : 0;
}

const struct command cmd_heatmap = {
	.name = "heatmap",
	.desc = "turn a .lat file (TIME LATENCY lines) into an SVG latency heat map",
	.synopsis = "perf-prof heatmap [--title T] IN.lat [-o OUT.svg]",
	.examples = "perf-prof heatmap run.lat\n"
		    "  perf-prof heatmap --title 'read() latency' run.lat -o read.svg\n"
		    "  awk '{ print $1, $2 }' pairs.txt | perf-prof heatmap - -o pairs.svg",
	.groups = (const struct opt_group *const[]){ &output_group, NULL },
	.own = heatmap_opts,
	.priv_size = sizeof(struct heatmap_cmd),
	.run = heatmap_run,
};
