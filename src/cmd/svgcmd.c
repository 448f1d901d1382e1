// SPDX-License-Identifier: GPL-2.0
/* One text file to one SVG: what flamegraph and heatmap share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/svgcmd.h"
#include "report/outfile.h"
#include "util/ofile.h"
#include "util/opt.h"

struct svg_paths {
	const char *arg; /* the input as given ("-": stdin) */
	const char *in;	 /* the input to open */
	const char *out; /* the SVG to write */
	char *def;	 /* the default output name, when it is the output */
};

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

/*
 * Fill @p from the positional arguments and -o.  0, or the exit status
 * after one line on stderr: 2 for a usage error, 1 when the output cannot
 * be written (named before the input is read).
 */
static int svg_paths(const struct svg_cmd *c, const char *opath, int argc, char **argv,
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

/*
 * After the drawing: with @err 0, the count of skipped lines (@bad, the
 * first @first_bad) and, with @verbose, "wrote OUT".  Frees @p.  The exit
 * status: 1 with @err, else 0 (@err's line is the caller's to print).
 */
static int svg_done(const struct svg_cmd *c, struct svg_paths *p, int err, unsigned long bad,
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

int svg_cmd__run(const struct svg_cmd *c, const struct opt_set *opts, const void *priv, int argc,
		 char **argv)
{
	const struct output_opts *o = opt_set__get(opts, &output_group);
	const struct log_opts *log = opt_set__get(opts, &log_group);
	struct svg_counts n = { 0 };
	struct svg_paths p;
	int err;

	err = svg_paths(c, o->path, argc, argv, &p);
	if (err)
		return err;
	err = c->draw(priv, p.in, p.out, &n);
	if (err && !c->explain(err, p.arg, &n)) {
		if (err == -EISDIR)
			fprintf(stderr, "perf-prof %s: %s: %s%s\n", c->name, p.arg,
				strerror(EISDIR), c->isdir_hint);
		else
			fprintf(stderr, "perf-prof %s: %s -> %s: %s%s\n", c->name, p.arg, p.out,
				ofile__strerror(-err), c->io_hint);
	}
	return svg_done(c, &p, err, n.bad, n.first_bad, log->verbose);
}
