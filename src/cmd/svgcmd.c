// SPDX-License-Identifier: GPL-2.0
/* One text file to one SVG: what flamegraph and heatmap share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/svgcmd.h"
#include "report/outfile.h"
#include "util/ofile.h"

/* IN.SUFFIX -> IN.svg, anything else -> IN.svg appended */
static char *default_output(const char *in, const char *suffix)
{
	size_t n = strlen(in), k = strlen(suffix);
	char *out;

	if (n > k && strcmp(in + n - k, suffix) == 0)
		n -= k;
	if (asprintf(&out, "%.*s.svg", (int)n, in) < 0)
		return NULL;
	return out;
}

int svg_cmd__paths(const struct svg_cmd *c, const char *opath, int argc, char **argv,
		   struct svg_paths *p)
{
	int err;

	memset(p, 0, sizeof(*p));
	if (argc != 1) {
		fprintf(stderr, "perf-prof %s: %s (usage: perf-prof %s %s)\n", c->name,
			argc ? "one input file, not several" : "no input file", c->name, c->usage);
		return 2;
	}
	p->arg = argv[0];
	p->in = strcmp(p->arg, "-") == 0 ? "/dev/stdin" : p->arg;
	p->out = opath;
	if (!p->out) {
		if (p->in != p->arg) {
			fprintf(stderr, "perf-prof %s: reading stdin needs -o OUT.svg\n", c->name);
			return 2;
		}
		p->out = p->def = default_output(p->in, c->suffix);
		if (!p->out) {
			fprintf(stderr, "perf-prof %s: out of memory\n", c->name);
			return 1;
		}
	} else if (strcmp(p->out, "-") == 0) {
		p->out = "/dev/stdout";
	}
	/* the output's problem is named as such, before the input is read */
	err = outfile__check(p->out);
	if (err) {
		fprintf(stderr, "perf-prof %s: cannot write '%s': %s\n", c->name, p->out,
			ofile__strerror(-err));
		free(p->def);
		p->def = NULL;
		return 1;
	}
	return 0;
}

int svg_cmd__done(const struct svg_cmd *c, struct svg_paths *p, int err, unsigned long bad,
		  unsigned long first_bad, bool verbose)
{
	if (!err && bad)
		fprintf(stderr,
			"perf-prof %s: %s: skipped %lu line%s that %s not '%s' (first: line %lu)\n",
			c->name, p->arg, bad, bad == 1 ? "" : "s", bad == 1 ? "is" : "are", c->line,
			first_bad);
	if (!err && verbose)
		fprintf(stderr, "wrote %s\n", p->out);
	free(p->def);
	p->def = NULL;
	return err ? 1 : 0;
}
