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

#include "cmd/svgcmd.h"
#include "report/outfile.h"
#include "profiler.h"
#include "report/heatmap.h"
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

static int heatmap_draw(const void *priv, const char *in, const char *out, struct svg_counts *n)
{
	const struct heatmap_cmd *hm = priv;
	struct lat_stats st = { 0 };
	int err = heatmap__lat_to_svg(in, out, hm->title, &st);

	*n = (struct svg_counts){ st.lines, st.bad, st.first_bad, 0 };
	return err;
}

static bool heatmap_explain(int err, const char *arg, const struct svg_counts *n)
{
	if (err == -EINVAL)
		fprintf(stderr,
			"perf-prof heatmap: %s: no 'TIME LATENCY' line (%lu line%s, none two whole "
			"numbers of nanoseconds)\n",
			arg, n->lines, n->lines == 1 ? "" : "s");
	else if (err == -ENODATA)
		fprintf(stderr,
			"perf-prof heatmap: no pairs in %s (an empty .lat: did the run pair any "
			"events?)\n",
			arg);
	else
		return false;
	return true;
}

static const struct svg_cmd heatmap_svg = {
	.name = "heatmap",
	.usage = "[--title T] IN.lat [-o OUT.svg]",
	.suffix = ".lat",
	.line = "TIME LATENCY",
	.draw = heatmap_draw,
	.explain = heatmap_explain,
	.isdir_hint = " (give a .lat file)",
	.io_hint = " (check that the .lat exists and is readable, and that the SVG's directory "
		   "is writable)",
};

static int heatmap_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	return svg_cmd__run(&heatmap_svg, opts, priv, argc, argv);
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
