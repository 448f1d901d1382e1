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

static const struct svg_cmd heatmap_svg = {
	.name = "heatmap",
	.usage = "[--title T] IN.lat [-o OUT.svg]",
	.suffix = ".lat",
	.line = "TIME LATENCY",
};

static int heatmap_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	const struct output_opts *o = opt_set__get(opts, &output_group);
	const struct log_opts *log = opt_set__get(opts, &log_group);
	struct heatmap_cmd *hm = priv;
	struct lat_stats st;
	struct svg_paths p;
	const char *arg;
	int err;

	err = svg_cmd__paths(&heatmap_svg, o->path, argc, argv, &p);
	if (err)
		return err;
	arg = p.arg;
	err = heatmap__lat_to_svg(p.in, p.out, hm->title, &st);
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
			arg, p.out, ofile__strerror(-err));
	return svg_cmd__done(&heatmap_svg, &p, err, st.bad, st.first_bad, log->verbose);
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
