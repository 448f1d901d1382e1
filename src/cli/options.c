// SPDX-License-Identifier: GPL-2.0
/*
 * One getopt_long table is built per run from the common options the
 * profiler accepts plus its own, so "perf-prof X --unknown" is an error
 * and "perf-prof X -h" shows exactly what X takes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "engine/cpulist.h"
#include "util/units.h"
#include "sym/stack.h"

enum {
	K_ORDER = 1000,
	K_ORDERMEM,
	K_CALLGRAPH,
	K_MAXSTACK,
	K_FLAME,
	K_FILTER,
	K_NOADDR,
	K_NOOFF,
	K_NODSO,
	K_REVERSE,
	K_USERSTACK,
	K_KERNSTACK,
	K_UCALLCHAIN,
	K_NO_UCALLCHAIN,
	K_KCALLCHAIN,
	K_NO_KCALLCHAIN,
	K_WATERMARK,
	K_USAGE,
	K_OWN = 2000,
};

struct copt {
	unsigned mask; /* 0 = always */
	const char *lname;
	int key;
	const char *argname; /* "[=...]": an optional argument (--opt=VALUE only) */
	const char *help;
};

static const struct copt common[] = {
	{ OPT_EVENT, "event", 'e', "EVENT,...",
	  "events: sys:name[/filter/][stack/max-stack=N/alias=NAME/...] (globs allowed)" },
	{ OPT_CPU, "cpu", 'C', "CPUS", "monitor these CPUs, e.g. 0-3,5 (default: all online)" },
	{ OPT_PID, "pid", 'p', "PID,...", "monitor these processes (all threads, and new ones)" },
	{ OPT_TID, "tid", 't', "TID,...", "monitor these threads" },
	{ OPT_FILTER, "filter", K_FILTER, "FILTER", NULL },
	{ OPT_INTERVAL, "interval", 'i', "MS",
	  "print (and reset) statistics every MS milliseconds" },
	{ OPT_INTERVAL, "usage-self", K_USAGE, "MS",
	  "print perf-prof's own CPU use, max RSS, records read and lost every MS ms "
	  "(also on SIGUSR2)" },
	{ OPT_MMAP, "mmap-pages", 'm', "PAGES", "ring buffer pages per CPU, a power of two" },
	{ OPT_MMAP, "watermark", K_WATERMARK, "PCT",
	  "wake up when PCT% of a ring is filled (0: at every event; default 50)" },
	{ OPT_OUTPUT, "output", 'o', "FILE", "write the output to FILE" },
	{ OPT_COUNT, "count", 'N', "COUNT", "stop after COUNT samples" },
	{ OPT_ORDER, "order", K_ORDER, NULL, "deliver events in time order across CPUs" },
	{ OPT_ORDER, "order-mem", K_ORDERMEM, "SIZE",
	  "memory for records waiting to be ordered, e.g. 64M or 1G (default 32M); "
	  "beyond, samples are dropped and counted" },
	{ OPT_CALLCHAIN, "call-graph-fp", 'g', NULL, "capture stacks (frame pointers)" },
	{ OPT_CALLCHAIN, "call-graph", K_CALLGRAPH, "fp|dwarf[,SIZE]",
	  "stack capture mode; dwarf unwinds user stacks from a SIZE-byte copy (default 8192)" },
	{ OPT_CALLCHAIN, "max-stack", K_MAXSTACK, "N", "capture at most N frames" },
	{ OPT_CALLCHAIN, "no-addr", K_NOADDR, NULL, "stacks: hide addresses" },
	{ OPT_CALLCHAIN, "no-offset", K_NOOFF, NULL, "stacks: hide +0xOFF offsets" },
	{ OPT_CALLCHAIN, "no-dso", K_NODSO, NULL, "stacks: hide (dso)" },
	{ OPT_CALLCHAIN, "reverse-stack", K_REVERSE, NULL, "stacks: outermost caller first" },
	{ OPT_CALLCHAIN, "user-stack", K_USERSTACK, NULL,
	  "stacks: user frames only (kernel frames are not captured)" },
	{ OPT_CALLCHAIN, "kernel-stack", K_KERNSTACK, NULL,
	  "stacks: kernel frames only (user frames are not captured)" },
	{ OPT_CALLCHAIN, "user-callchain", K_UCALLCHAIN, "[=dwarf[,SIZE]]",
	  "capture user frames (the default with -g); =dwarf unwinds them" },
	{ OPT_CALLCHAIN, "no-user-callchain", K_NO_UCALLCHAIN, NULL,
	  "capture no user frames (same as --kernel-stack)" },
	{ OPT_CALLCHAIN, "kernel-callchain", K_KCALLCHAIN, NULL,
	  "capture kernel frames (the default with -g)" },
	{ OPT_CALLCHAIN, "no-kernel-callchain", K_NO_KCALLCHAIN, NULL,
	  "capture no kernel frames (same as --user-stack)" },
	{ OPT_FLAME, "flame-graph", K_FLAME, "NAME[.svg]",
	  "write a flame graph: NAME.folded, or an SVG when NAME ends in .svg" },
	{ 0, "verbose", 'v', NULL, "more messages (repeatable)" },
	{ 0, "quiet", 'q', NULL, "only errors on stderr" },
	{ 0, "help", 'h', NULL, "this help" },
	{ 0 },
};

/* A usage error: "perf-prof PROFILER: " and the message (which ends in '\n'). */
static void __attribute__((format(printf, 2, 3)))
perr(const struct profiler *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perf-prof %s: ", p->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static bool accepts(const struct profiler *p, const struct copt *c)
{
	return !c->mask || (p->opts & c->mask);
}

static int own_count(const struct profiler *p)
{
	int n = 0;

	while (p->own && p->own[n].lname)
		n++;
	return n;
}

/*
 * Default ring size: a 64 MiB budget split over the CPUs, 128..2048 pages
 * each (at least what the profiler asks for).  Small hosts get deep buffers
 * that absorb bursts; a 256-CPU host still stays near perf's 512 KiB.
 */
static unsigned default_pages(const struct profiler *p, int nr_cpus)
{
	unsigned long budget = (64UL << 20) / (unsigned long)sysconf(_SC_PAGESIZE);
	unsigned pages = 2048;

	while (pages > 128 && (unsigned long)pages * (unsigned long)nr_cpus > budget)
		pages /= 2;
	return p->mmap_pages > pages ? p->mmap_pages : pages;
}

void options__help(const struct profiler *p, FILE *fp)
{
	int n = own_count(p);

	fprintf(fp, "Usage: %s\n\n%s\n\nOptions:\n", p->synopsis ? p->synopsis : p->name, p->desc);
	for (int i = 0; i < n; i++) {
		const struct popt *o = &p->own[i];
		char left[64];

		if (o->sname)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->sname, o->lname,
				 o->argname ? " " : "", o->argname ? o->argname : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->lname,
				 o->argname ? " " : "", o->argname ? o->argname : "");
		fprintf(fp, "  %-30s %s\n", left, o->help ? o->help : "");
	}
	for (const struct copt *c = common; c->lname; c++) {
		char left[64];

		if (!accepts(p, c))
			continue;
		if (c->key < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", c->key, c->lname,
				 c->argname ? " " : "", c->argname ? c->argname : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", c->lname,
				 c->argname && c->argname[0] != '[' ? " " : "",
				 c->argname ? c->argname : "");
		if (c->key == 'm') {
			int n = cpulist__possible();

			fprintf(fp, "  %-30s %s (default here %u)\n", left, c->help,
				default_pages(p, n > 0 ? n : 1));
			continue;
		}
		fprintf(fp, "  %-30s %s\n", left,
			c->help		 ? c->help
			: p->filter_help ? p->filter_help
					 : "filter");
	}
	if (p->opts & OPT_WORKLOAD)
		fprintf(fp, "  %-30s %s\n", "-- COMMAND [ARGS]",
			"run COMMAND and monitor it from its exec until it exits");
	if (p->examples)
		fprintf(fp, "\nExamples:\n  %s\n", p->examples);
}

static int parse_ids(const struct profiler *p, const char *arg, pid_t **out, int *nr,
		     const char *what)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int n = *nr; /* a repeated option adds to the list */

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long long v;
		pid_t *ids;

		if (units__parse_uint(tok, 1, 4194304, &v)) {
			perr(p,
			     "bad %s '%s' in '%s' (expected numbers like "
			     "1234,5678)\n",
			     what, tok, arg);
			free(copy);
			return -1;
		}
		ids = realloc(*out, (n + 1) * sizeof(*ids));
		if (!ids) {
			free(copy);
			return -1;
		}
		*out = ids;
		ids[n++] = (pid_t)v;
	}
	free(copy);
	if (!n) {
		perr(p, "empty %s list\n", what);
		return -1;
	}
	*nr = n;
	return 0;
}

static int parse_callgraph(const struct profiler *p, const char *arg, struct env *env)
{
	unsigned long long v;

	if (!strcmp(arg, "fp")) {
		env->cg = CG_FP;
		return 0;
	}
	if (!strncmp(arg, "dwarf", 5) && (arg[5] == 0 || arg[5] == ',')) {
		env->cg = CG_DWARF;
		if (arg[5] == ',') {
			if (units__parse_uint(arg + 6, 8, 65528, &v) || v % 8) {
				perr(p,
				     "bad dwarf stack size '%s' (a multiple of 8, "
				     "8..65528)\n",
				     arg + 6);
				return -1;
			}
			env->dwarf_size = (unsigned)v;
		}
		return 0;
	}
	perr(p, "bad --call-graph '%s' (expected fp or dwarf[,SIZE])\n", arg);
	return -1;
}

static int set_own(const struct profiler *p, const struct popt *o, const char *arg, void *priv)
{
	char *field = (char *)priv + o->off;
	char err[160] = "";
	unsigned long long v;

	switch (o->type) {
	case POPT_FLAG:
		*(bool *)field = true;
		return 0;
	case POPT_STR:
		*(const char **)field = arg;
		return 0;
	case POPT_UINT:
		if (units__parse_uint(arg, 0, ~0ULL, &v))
			break;
		*(unsigned long long *)field = v;
		return 0;
	case POPT_TIME:
		if (units__parse_time(arg, o->unit ? o->unit : "ms", &v)) {
			fprintf(stderr,
				"perf-prof %s: bad time '%s' for --%s (e.g. 100ms, 20us, 1.5s, "
				"500ns)\n",
				p->name, arg, o->lname);
			return -1;
		}
		*(unsigned long long *)field = v;
		return 0;
	case POPT_CB:
		if (!o->cb(priv, arg, err, sizeof(err)))
			return 0;
		fprintf(stderr, "perf-prof %s: --%s: %s\n", p->name, o->lname,
			err[0] ? err : "invalid value");
		return -1;
	}
	fprintf(stderr, "perf-prof %s: bad value '%s' for --%s\n", p->name, arg, o->lname);
	return -1;
}

static int parse_common(const struct profiler *p, int key, const char *arg, struct env *env)
{
	unsigned long long v;
	int n;

	switch (key) {
	case 'e':
		env->events = arg;
		return 0;
	case 'C':
		free(env->cpus); /* the last -C wins */
		env->cpus = NULL;
		n = cpulist__parse(arg, cpulist__possible(), &env->cpus);
		if (n <= 0) {
			perr(p,
			     "bad CPU list '%s' (e.g. 0-3,5; this host has CPUs "
			     "0-%d)\n",
			     arg, cpulist__possible() - 1);
			return -1;
		}
		env->nr_cpus = n;
		env->cpus_given = true;
		return 0;
	case 'p':
		return parse_ids(p, arg, &env->pids, &env->nr_pids, "pid");
	case 't':
		return parse_ids(p, arg, &env->tids, &env->nr_tids, "tid");
	case 'i':
		if (units__parse_uint(arg, 1, 86400000, &v)) {
			perr(p, "bad interval '%s' (milliseconds, 1..86400000)\n", arg);
			return -1;
		}
		env->interval_ms = (unsigned)v;
		return 0;
	case K_USAGE:
		if (units__parse_uint(arg, 1, 86400000, &v)) {
			fprintf(stderr,
				"perf-prof: bad --usage-self '%s' (milliseconds, 1..86400000)\n",
				arg);
			return -1;
		}
		env->usage_ms = (unsigned)v;
		return 0;
	case 'm':
		if (units__parse_uint(arg, 1, 1u << 20, &v) || (v & (v - 1))) {
			perr(p, "bad -m '%s' (a power of two, e.g. 64 or 256)\n", arg);
			return -1;
		}
		env->mmap_pages = (unsigned)v;
		return 0;
	case 'o':
		env->output = arg;
		return 0;
	case 'N':
		if (units__parse_uint(arg, 1, ~0ULL, &v)) {
			perr(p, "bad count '%s' (a positive number)\n", arg);
			return -1;
		}
		env->max_samples = v;
		return 0;
	case K_ORDER:
		env->order = true;
		return 0;
	case K_ORDERMEM:
		/* a few records at least; a terabyte would be a typo */
		if (units__parse_size(arg, &v) || v < 64 * 1024 || v > (1ULL << 40)) {
			perr(p,
			     "bad --order-mem '%s' (a size from 64K to 1T, e.g. 64M "
			     "or "
			     "1G)\n",
			     arg);
			return -1;
		}
		env->order_mem = v;
		return 0;
	case 'g':
		env->cg = CG_FP;
		return 0;
	case K_CALLGRAPH:
		return parse_callgraph(p, arg, env);
	case K_MAXSTACK:
		if (units__parse_uint(arg, 1, 1024, &v)) {
			perr(p, "bad --max-stack '%s' (1..1024)\n", arg);
			return -1;
		}
		env->max_stack = (int)v;
		return 0;
	case K_FLAME:
		env->flame_graph = arg;
		return 0;
	case K_FILTER:
		env->filter = arg;
		return 0;
	case K_NOADDR:
		env->stack_flags |= STACK_NO_ADDR;
		return 0;
	case K_NOOFF:
		env->stack_flags |= STACK_NO_OFFSET;
		return 0;
	case K_NODSO:
		env->stack_flags |= STACK_NO_DSO;
		return 0;
	case K_REVERSE:
		env->stack_flags |= STACK_REVERSE;
		return 0;
	case K_USERSTACK:
	case K_NO_KCALLCHAIN:
		/* what is not shown is not captured either */
		env->stack_flags |= STACK_USER_ONLY;
		env->cg_no_kernel = true;
		env->cg_halves_given |= key == K_NO_KCALLCHAIN;
		return 0;
	case K_KERNSTACK:
	case K_NO_UCALLCHAIN:
		env->stack_flags |= STACK_KERNEL_ONLY;
		env->cg_no_user = true;
		env->cg_halves_given |= key == K_NO_UCALLCHAIN;
		return 0;
	case K_UCALLCHAIN:
		env->stack_flags &= ~STACK_KERNEL_ONLY;
		env->cg_no_user = false;
		env->cg_halves_given = true;
		/* --user-callchain=dwarf[,SIZE] is --call-graph dwarf[,SIZE] */
		return arg ? parse_callgraph(p, arg, env) : 0;
	case K_KCALLCHAIN:
		env->stack_flags &= ~STACK_USER_ONLY;
		env->cg_no_kernel = false;
		env->cg_halves_given = true;
		return 0;
	case K_WATERMARK:
		if (units__parse_uint(arg, 0, 100, &v)) {
			perr(p, "bad --watermark '%s' (a percentage, 0..100)\n", arg);
			return -1;
		}
		env->watermark = (unsigned)v;
		env->watermark_set = true;
		return 0;
	case 'v':
		env->verbose++;
		return 0;
	case 'q':
		env->quiet = true;
		return 0;
	}
	(void)p;
	return -1;
}

static int finish(const struct profiler *p, struct env *env)
{
	if (!env->nr_cpus) {
		int n = cpulist__online(&env->cpus);

		if (n <= 0) {
			perr(p, "cannot read the online CPUs: %s\n", strerror(-n));
			return -1;
		}
		env->nr_cpus = n;
	}
	if ((env->nr_pids || env->nr_tids) && env->argv) {
		fprintf(stderr, "perf-prof %s: use either -p/-t or -- COMMAND, not both\n",
			p->name);
		return -1;
	}
	if ((env->stack_flags & STACK_USER_ONLY) && (env->stack_flags & STACK_KERNEL_ONLY)) {
		fprintf(stderr,
			"perf-prof %s: no stack half left: --user-stack/--no-kernel-callchain and "
			"--kernel-stack/--no-user-callchain exclude each other\n",
			p->name);
		return -1;
	}
	env->cpu_wide = p->cpu_wide;
	if (!env->mmap_pages)
		env->mmap_pages = default_pages(p, env->nr_cpus);
	if (env->events) {
		struct ev_spec_err err;

		if (evspec__parse(env->events, &env->specs, &env->nr_specs, &err)) {
			perr(p, "bad event spec at offset %d: %s\n  %s\n  %*s^\n", err.pos, err.msg,
			     env->events, err.pos > 0 ? err.pos : 0, "");
			return -1;
		}
		for (int i = 0; i < env->nr_specs; i++) {
			static const char *const none[] = { NULL };

			if (evspec__check_attrs(&env->specs[i], p->ev_attrs ? p->ev_attrs : none,
						&err)) {
				fprintf(stderr, "perf-prof %s: %s in '%s'\n", p->name, err.msg,
					env->specs[i].text);
				return -1;
			}
			if (env->specs[i].stack && env->cg == CG_NONE) {
				env->cg = CG_FP;
				env->cg_by_attr = true;
			}
		}
	}
	if (env->cg_halves_given && env->cg == CG_NONE) {
		fprintf(stderr,
			"perf-prof %s: --[no-]user-callchain and --[no-]kernel-callchain choose "
			"what -g captures: add -g (or a 'stack' event attribute)\n",
			p->name);
		return -1;
	}
	if (env->flame_graph && env->cg == CG_NONE) {
		fprintf(stderr,
			"perf-prof %s: --flame-graph needs stacks: add -g (or --call-graph "
			"dwarf)\n",
			p->name);
		return -1;
	}
	/*
	 * Stacks resolve through the maps that MMAP2 records build: a sample
	 * read from one CPU's buffer must not overtake the mmap of its library
	 * recorded on another CPU, so stacks imply time order.
	 */
	if (p->order || env->cg != CG_NONE)
		env->order = true;
	return 0;
}

/*
 * @command: positional arguments are taken anywhere (getopt permutes them
 * to the end); a profiler takes none, and stops at "--" for its workload.
 */
static int parse(const struct profiler *p, bool command, int argc, char **argv, struct env *env,
		 void *priv, char ***pos, int *nr_pos)
{
	int nown = own_count(p), n = 0, dashdash = argc;
	struct option *lo = calloc(nown + 32, sizeof(*lo));
	char shorts[128] = "+";
	int ret = -1;

	if (command)
		shorts[0] = 0;

	*pos = NULL;
	*nr_pos = 0;
	if (!lo)
		return -1;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	for (const struct copt *c = common; c->lname; c++) {
		if (!accepts(p, c))
			continue;
		lo[n++] = (struct option){ c->lname,
					   !c->argname		  ? no_argument
					   : c->argname[0] == '[' ? optional_argument
								  : required_argument,
					   NULL, c->key };
		if (c->key < 256) {
			size_t l = strlen(shorts);

			shorts[l] = (char)c->key;
			shorts[l + 1] = 0;
			if (c->argname)
				strcat(shorts, ":");
		}
	}
	for (int i = 0; i < nown; i++) {
		const struct popt *o = &p->own[i];

		lo[n++] = (struct option){ o->lname, o->argname ? required_argument : no_argument,
					   NULL, K_OWN + i };
		if (o->sname) {
			size_t l = strlen(shorts);

			shorts[l] = (char)o->sname;
			shorts[l + 1] = 0;
			if (o->argname)
				strcat(shorts, ":");
		}
	}
	optind = 0; /* 0, not 1: glibc also forgets a half-read "-SD" of an earlier parse */
	opterr = 0;
	for (;;) {
		int idx = -1, key = getopt_long(dashdash, argv, shorts, lo, &idx);

		if (key == -1)
			break;
		if (key == '?' || key == ':') {
			const char *bad = argv[optind - 1];

			if (optopt && optopt < 256 && strchr(shorts, optopt))
				fprintf(stderr,
					"perf-prof %s: option -%c needs a value (see: perf-prof %s "
					"-h)\n",
					p->name, optopt, p->name);
			else
				fprintf(stderr,
					"perf-prof %s: unknown or incomplete option '%s' (see: "
					"perf-prof %s -h)\n",
					p->name, bad, p->name);
			goto out;
		}
		if (key == 'h') {
			options__help(p, stdout);
			ret = 1;
			goto out;
		}
		/* own options first: a profiler may reuse a short letter */
		for (int i = 0; i < nown; i++)
			if (key == K_OWN + i || (key < 256 && key == p->own[i].sname)) {
				if (set_own(p, &p->own[i], optarg, priv))
					goto out;
				goto next;
			}
		if (parse_common(p, key, optarg, env))
			goto out;
	next:;
	}
	if (optind < dashdash) {
		if (!command) {
			fprintf(stderr, "perf-prof %s: unexpected argument '%s'%s\n", p->name,
				argv[optind],
				p->opts & OPT_WORKLOAD ? " (put a command after --)" : "");
			goto out;
		}
		*pos = argv + optind;
		*nr_pos = dashdash - optind;
	}
	if (dashdash < argc) {
		if (!(p->opts & OPT_WORKLOAD)) {
			fprintf(stderr, "perf-prof %s: does not run a command (no '--' expected)\n",
				p->name);
			goto out;
		}
		if (dashdash + 1 >= argc) {
			fprintf(stderr, "perf-prof %s: '--' must be followed by a command\n",
				p->name);
			goto out;
		}
		env->argv = argv + dashdash + 1;
	}
	ret = finish(p, env) ? -1 : 0;
out:
	free(lo);
	return ret;
}

int options__parse(const struct profiler *p, int argc, char **argv, struct env *env, void *priv,
		   char ***pos, int *nr_pos)
{
	return parse(p, false, argc, argv, env, priv, pos, nr_pos);
}

/* A command parses as a profiler without events would. */
static struct profiler as_profiler(const struct command *c)
{
	return (struct profiler){ .name = c->name,
				  .desc = c->desc,
				  .synopsis = c->synopsis,
				  .examples = c->examples,
				  .opts = c->opts,
				  .own = c->own,
				  .priv_size = c->priv_size };
}

int options__parse_command(const struct command *c, int argc, char **argv, struct env *env,
			   void *priv, char ***pos, int *nr_pos)
{
	struct profiler p = as_profiler(c);

	return parse(&p, true, argc, argv, env, priv, pos, nr_pos);
}

void options__free(struct env *env)
{
	free(env->cpus);
	free(env->pids);
	free(env->tids);
	evspec__free(env->specs, env->nr_specs);
}
