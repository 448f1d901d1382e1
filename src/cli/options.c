// SPDX-License-Identifier: GPL-2.0
/*
 * One getopt_long table is built per run from the option groups the
 * profiler lists plus its own options, so "perf-prof X --unknown" is an
 * error and "perf-prof X -h" shows exactly what X takes.  Each group's
 * module parses and checks its own options (util/opt.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "expr/expr.h"

#define K_OWN 1000
#define K_GROUP 2000 /* + 100 * group + option */

/* What is parsed: a profiler, or a command seen as one. */
struct parsee {
	const char *name;
	const char *desc;
	const char *synopsis;
	const char *examples;
	const struct opt_group *const *groups;
	const struct popt *own;
	const char *const *ev_attrs;
	int (*args)(void *priv, int argc, char **argv, char *err, size_t errlen);
	bool stacks;	/* stacks by default (frame pointers) without -g */
	bool joint;	/* takes profilers in -e (struct profiler: joint) */
	bool args_stop; /* struct profiler: args_stop */
	/* an inner profiler (joint analysis): the outer's name, the item's text */
	const char *outer, *item;
};

static int nr_of(const struct popt *o)
{
	int n = 0;

	while (o && o[n].lname)
		n++;
	return n;
}

/* getopt entries of @o: one per long name, aliases included */
static int nr_names(const struct popt *o)
{
	int n = 0;

	for (; o && o->lname; o++)
		n += o->alias ? 2 : 1;
	return n;
}

static bool has_group(const struct parsee *p, const struct opt_group *g);

/* The groups in order: the listed ones, a profiler's clock group, then -v/-q. */
static int groups_of(const struct parsee *p, const struct opt_group **g)
{
	int n = 0;

	for (int i = 0; p->groups && p->groups[i]; i++) {
		if (n == OPT_MAX_GROUPS - 2) { /* a table's mistake, not the user's */
			fprintf(stderr, "perf-prof %s: more than %d option groups\n", p->name,
				OPT_MAX_GROUPS - 2);
			abort();
		}
		g[n++] = p->groups[i];
	}
	/* every profiler prints times: the clock they are printed in (commands have no target) */
	if (has_group(p, &target_group))
		g[n++] = &clock_group;
	g[n++] = &log_group;
	return n;
}

static bool has_group(const struct parsee *p, const struct opt_group *g)
{
	for (int i = 0; p->groups && p->groups[i]; i++)
		if (p->groups[i] == g)
			return true;
	return false;
}

static void help_line(FILE *fp, const struct popt *o)
{
	char left[64];

	popt__left(o, left, sizeof(left));
	fprintf(fp, "  %-30s %s\n", left, o->help ? o->help : "");
}

/* The options of @p in the order -h lists them: its own, its groups', -v/-q. */
static int doc_opts(const struct parsee *p, struct cli_doc *d)
{
	const struct opt_group *g[OPT_MAX_GROUPS];
	int ng = groups_of(p, g), n = 0;

	for (int i = 0; i < nr_of(p->own); i++)
		d->opts[n++] = (struct cli_doc_opt){ &p->own[i], NULL };
	for (int k = 0; k < ng; k++)
		for (const struct popt *o = g[k]->opts; o->lname; o++) {
			if (n == CLI_DOC_MAX_OPTS) { /* a table's mistake, not the user's */
				fprintf(stderr, "perf-prof %s: more than %d options\n", p->name,
					CLI_DOC_MAX_OPTS);
				abort();
			}
			d->opts[n++] = (struct cli_doc_opt){ o, g[k] };
		}
	return n;
}

static void doc_of(const struct parsee *p, bool command, struct cli_doc *d)
{
	d->name = p->name;
	d->desc = p->desc;
	d->synopsis = p->synopsis ? p->synopsis : p->name;
	d->examples = p->examples;
	d->ev_attrs = p->ev_attrs;
	d->command = command;
	d->workload = has_group(p, &target_group) && !p->args_stop;
	d->args = command || p->args;
	d->nr_opts = doc_opts(p, d);
}

static void help(const struct parsee *p, bool command, FILE *fp)
{
	struct cli_doc *d = calloc(1, sizeof(*d));

	if (!d)
		return;
	doc_of(p, command, d);
	fprintf(fp, "Usage: %s\n\n%s\n\nOptions:\n", d->synopsis, d->desc);
	for (int i = 0; i < d->nr_opts; i++)
		help_line(fp, d->opts[i].o);
	fprintf(fp, "  %-30s %s\n", "-h, --help", "this help");
	if (d->workload)
		fprintf(fp, "  %-30s %s\n", "-- COMMAND [ARGS]",
			"run COMMAND and monitor it from its exec until it exits");
	if (p->examples)
		fprintf(fp, "\nExamples:\n  %s\n", p->examples);
	free(d);
}

static struct parsee of_profiler(const struct profiler *p)
{
	return (struct parsee){ .name = p->name,
				.desc = p->desc,
				.synopsis = p->synopsis,
				.examples = p->examples,
				.groups = p->groups,
				.own = p->own,
				.ev_attrs = p->ev_attrs,
				.args = p->args,
				.stacks = p->stacks,
				.joint = p->joint,
				.args_stop = p->args_stop };
}

static struct parsee of_command(const struct command *c)
{
	return (struct parsee){ .name = c->name,
				.desc = c->desc,
				.synopsis = c->synopsis,
				.examples = c->examples,
				.groups = c->groups,
				.own = c->own };
}

void options__help(const struct profiler *p, FILE *fp)
{
	struct parsee pp = of_profiler(p);

	help(&pp, false, fp);
}

int options__doc(const char *name, struct cli_doc *d)
{
	struct parsee pp;

	memset(d, 0, sizeof(*d));
	if (profiler__find(name)) { /* its name or an alias (bpf:kvm-exit) */
		pp = of_profiler(profiler__find(name));
		doc_of(&pp, false, d);
		return 0;
	}
	for (int i = 0; i < nr_commands; i++)
		if (!strcmp(commands[i]->name, name)) {
			pp = of_command(commands[i]);
			doc_of(&pp, true, d);
			return 0;
		}
	return -1;
}

static void add_short(char *shorts, const struct popt *o)
{
	size_t l = strlen(shorts);

	if (!o->sname || strchr(shorts + (shorts[0] == '+'), o->sname))
		return; /* a profiler may reuse a short letter: its own comes first */
	shorts[l] = (char)o->sname;
	shorts[l + 1] = 0;
	if (o->argname)
		strcat(shorts, o->argname[0] == '[' ? "::" : ":");
}

static int has_arg(const struct popt *o)
{
	return !o->argname	      ? no_argument
	       : o->argname[0] == '[' ? optional_argument
				      : required_argument;
}

/*
 * The order the checks run in, whatever order a profiler lists its groups:
 * the stack group reads the events' "stack" attributes, the flame group
 * reads the stack group; the key group reads the events' key= attributes.
 */
static int check_phase(const struct opt_group *g)
{
	return g == &stack_group || g == &key_group ? 1 : g == &flame_group ? 2 : 0;
}

/*
 * A filter must parse in the expression language before anything opens,
 * even when the kernel would take it: "a > 1 &&" is a typo the kernel reads
 * in its own way.  The names are not looked up here (the events' fields
 * are not known yet): an unknown field is the kernel's to refuse, or the
 * user-space filter's.
 */
static int check_filter(const struct parsee *p, const struct ev_spec *spec)
{
	struct expr_error err;
	int r;

	if (!spec->filter)
		return 0;
	r = expr__check_filter(spec->filter, &err);
	if (r == -EINVAL)
		fprintf(stderr, "perf-prof %s: bad filter '%s' in '%s' at column %d: %s\n", p->name,
			spec->filter, spec->text, err.col, err.msg);
	else if (r)
		fprintf(stderr, "perf-prof %s: %s\n", p->name, strerror(-r));
	return r ? -1 : 0;
}

/* The events' attributes: those every profiler takes, and its own. */
static int check_attrs(const struct parsee *p, const struct opt_set *set)
{
	static const char *const none[] = { NULL };
	const struct event_opts *ev = opt_set__get(set, &event_group);
	struct ev_spec_err err;

	for (int i = 0; ev && i < ev->nr_specs; i++) {
		if (ev->specs[i].profiler && !p->joint) {
			fprintf(stderr,
				"perf-prof %s: '%s' in -e: %s takes no profiler as an event source "
				"(trace and multi-trace do)\n",
				p->name, ev->specs[i].text, p->name);
			return -1;
		}
		if (ev->specs[i].profiler && (ev->specs[i].stack || ev->specs[i].max_stack)) {
			fprintf(stderr,
				"perf-prof %s: 'stack' on '%s': a profiler's stacks are its -g "
				"(%s/-g/)\n",
				p->name, ev->specs[i].text, ev->specs[i].profiler);
			return -1;
		}
		if ((ev->specs[i].stack || ev->specs[i].max_stack) && !has_group(p, &stack_group)) {
			fprintf(stderr,
				"perf-prof %s: takes no stacks: 'stack' or 'max-stack' in '%s'\n",
				p->name, ev->specs[i].text);
			return -1;
		}
		if (evspec__check_attrs(&ev->specs[i], p->ev_attrs ? p->ev_attrs : none, &err)) {
			fprintf(stderr, "perf-prof %s: %s in '%s'\n", p->name, err.msg,
				ev->specs[i].text);
			return -1;
		}
		if (check_filter(p, &ev->specs[i]))
			return -1;
	}
	return 0;
}

/*
 * The end of an option error for a profiler that takes an expression as
 * its positional argument, when the word in error could be one: getopt
 * reads "expr -e EV '-pid'" as -p id.
 */
static const char *dash_hint(const struct parsee *p, const char *word)
{
	if (!p->args || !word || word[0] != '-' || !word[1] || word[1] == '-')
		return "";
	return " (an expression that starts with '-' goes after --: -- '-x')";
}

/* The options as given, for "help" as the last word. */
#define MAX_GIVEN 64
struct given {
	const struct popt *o;
	const char *val;
};

static void explain_events(const struct opt_set *set, FILE *fp)
{
	const struct event_opts *ev = opt_set__get(set, &event_group);

	if (!ev || !ev->nr_specs)
		return;
	fprintf(fp, "\nEvents:\n");
	for (int i = 0; i < ev->nr_specs; i++) {
		const struct ev_spec *e = &ev->specs[i];

		if (e->profiler) { /* joint analysis */
			fprintf(fp, "  profiler %s\n    options: %s\n", e->profiler,
				e->options ? e->options : "none");
			for (int a = 0; a < e->nr_attrs; a++)
				fprintf(fp, "    %s%s%s\n", e->attrs[a].key,
					e->attrs[a].value ? "=" : "",
					e->attrs[a].value ? e->attrs[a].value : "");
			continue;
		}
		fprintf(fp, "  %s:%s", e->sys, e->name);
		if (e->alias)
			fprintf(fp, " (alias %s)", e->alias);
		fprintf(fp, "\n    filter: %s\n", e->filter ? e->filter : "none");
		if (e->stack || e->max_stack)
			fprintf(fp, "    stack: captured%s\n", e->max_stack ? " (max-stack)" : "");
		if (e->cpus)
			fprintf(fp, "    cpus: %s\n", e->cpus);
		for (int a = 0; a < e->nr_attrs; a++)
			fprintf(fp, "    %s%s%s\n", e->attrs[a].key, e->attrs[a].value ? "=" : "",
				e->attrs[a].value ? e->attrs[a].value : "");
	}
}

/*
 * "perf-prof trace -e sched:sched_wakeup help": the command assembled,
 * each option given with its value and what it means, the events with
 * their filters, the workload.
 */
static void explain(const struct parsee *p, int argc, char **argv, int last, const struct given *gv,
		    int ngv, const struct opt_set *set, FILE *fp)
{
	const struct target_opts *t = opt_set__get(set, &target_group);

	fprintf(fp, "Command: perf-prof");
	for (int i = 0; i < argc; i++)
		if (i != last)
			fprintf(fp, " %s", argv[i]);
	fprintf(fp, "\n%s: %s\n", p->name, p->desc ? p->desc : "");
	fprintf(fp, "\nOptions given:%s\n", ngv ? "" : " none (every option at its default)");
	for (int i = 0; i < ngv; i++) {
		char left[64];

		popt__left(gv[i].o, left, sizeof(left));
		fprintf(fp, "  %s\n    value: %s\n    meaning: %s\n", left,
			gv[i].val	   ? gv[i].val
			: gv[i].o->argname ? "(default)"
					   : "(set)",
			gv[i].o->help ? gv[i].o->help : "");
	}
	explain_events(set, fp);
	if (t && t->argv) {
		fprintf(fp, "\nWorkload:");
		for (char **a = t->argv; *a; a++)
			fprintf(fp, " %s", *a);
		fprintf(fp, "\n    run and monitored from its exec until it exits\n");
	}
	fprintf(fp, "\nAll options: perf-prof %s -h\n", p->name);
}

/* The names -e reads as profilers (joint analysis), NULL-terminated. */
static const char *const *profiler_names(void)
{
	static const char *names[64];
	static bool done;

	for (int i = 0, n = 0; !done && i < nr_profilers && n < 63; i++)
		if (profilers[i])
			names[n++] = profilers[i]->name;
	done = true;
	return names;
}

/*
 * Inside another profiler's -e, the session's options are the outer
 * profiler's: the targets, the output, the clock, -v/-q, -i and the rest
 * of the run group but -N, the ring's but -m (a wish for the shared rings'
 * size) and --order (a wish for time order).
 */
static bool inner_refuses(const struct opt_group *g, const struct popt *o)
{
	if (g == &run_group)
		return strcmp(o->lname, "count");
	if (g == &ring_group)
		return strcmp(o->lname, "mmap-pages") && strcmp(o->lname, "order");
	return g == &target_group || g == &output_group || g == &clock_group || g == &log_group;
}

/*
 * @command: positional arguments are taken anywhere (getopt permutes them
 * to the end); a profiler takes none, and stops at "--" for its workload.
 */
static int parse(const struct parsee *p, bool command, int argc, char **argv, struct opt_set *set,
		 void *priv, char ***pos, int *nr_pos)
{
	const struct opt_group *g[OPT_MAX_GROUPS];
	int ng = groups_of(p, g), nown = nr_of(p->own), n = 0, dashdash = argc, nopts = nown;
	char shorts[160] = "+h", err[2048], *help_word;
	const struct popt *tw_opt; /* an option whose value may be the next word, given without */
	const char *tw_next;	   /* and that word */
	struct given gv[MAX_GIVEN];
	int ngv = 0, help_at = -1;
	struct target_opts *target;
	struct option *lo;
	int ret = -1;

	/* positional arguments anywhere: getopt permutes them (args_stop: "+", ends there) */
	if (command || (p->args && !p->args_stop))
		memmove(shorts, shorts + 1, strlen(shorts));
	*pos = NULL;
	*nr_pos = 0;
	memset(set, 0, sizeof(*set));
	for (int k = 0; k < ng; k++) {
		set->e[k].g = g[k];
		set->e[k].data = calloc(1, g[k]->size ? g[k]->size : 1);
		if (!set->e[k].data)
			return -1;
		set->n = k + 1;
		nopts += nr_names(g[k]->opts);
		/* a profiler's -e may name profilers; an inner one's may not */
		if (g[k] == &event_group && !command && !p->outer)
			((struct event_opts *)set->e[k].data)->profilers = profiler_names();
	}
	nopts += nr_names(p->own) - nown;
	lo = calloc(nopts + 2, sizeof(*lo));
	if (!lo)
		return -1;
	for (int i = 1; i < argc && !p->args_stop; i++)
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	/* "help" last before "--" (after it: the workload's); the same word, not a value */
	help_word = dashdash > 1 && !strcmp(argv[dashdash - 1], "help") ? argv[dashdash - 1] : NULL;
	tw_opt = NULL;
	tw_next = NULL;
	for (int i = 0; i < nown; i++) {
		const struct popt *o = &p->own[i];

		lo[n++] = (struct option){ o->lname, has_arg(o), NULL, K_OWN + i };
		if (o->alias)
			lo[n++] = (struct option){ o->alias, has_arg(o), NULL, K_OWN + i };
		add_short(shorts, o);
	}
	for (int k = 0; k < ng; k++)
		for (int i = 0; g[k]->opts[i].lname; i++) {
			const struct popt *o = &g[k]->opts[i];

			lo[n++] = (struct option){ o->lname, has_arg(o), NULL,
						   K_GROUP + 100 * k + i };
			if (o->alias)
				lo[n++] = (struct option){ o->alias, has_arg(o), NULL,
							   K_GROUP + 100 * k + i };
			add_short(shorts, o);
		}
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	optind = 0; /* 0, not 1: glibc also forgets a half-read "-SD" of an earlier parse */
	opterr = 0;
	for (;;) {
		int idx = -1, key = getopt_long(dashdash, argv, shorts, lo, &idx);
		const struct popt *o = NULL;
		void *data = NULL;

		if (key == -1)
			break;
		if (key == '?' || key == ':') {
			const char *bad = argv[optind - 1];

			/* a short option inside a word: getopt is still on that word */
			if (optopt && optind < dashdash && argv[optind][0] == '-' &&
			    argv[optind][1] != '-' && strchr(argv[optind] + 1, optopt))
				bad = argv[optind];
			if (optopt && optopt < 256 && strchr(shorts, optopt))
				fprintf(stderr,
					"perf-prof %s: option -%c needs a value (see: perf-prof %s "
					"-h)\n",
					p->name, optopt, p->name);
			else
				fprintf(stderr,
					"perf-prof %s: unknown or incomplete option '%s' (see: "
					"perf-prof %s -h)%s\n",
					p->name, bad, p->name, dash_hint(p, bad));
			goto out;
		}
		if (key == 'h') {
			help(p, command, stdout);
			ret = 1;
			goto out;
		}
		if (key >= K_GROUP) {
			int k = (key - K_GROUP) / 100;

			o = &g[k]->opts[(key - K_GROUP) % 100];
			data = set->e[k].data;
		} else if (key >= K_OWN) {
			o = &p->own[key - K_OWN];
			data = priv;
		} else {
			/* a short letter: the profiler's own first, then the groups' */
			for (int i = 0; !o && i < nown; i++)
				if (p->own[i].sname == key)
					o = &p->own[i], data = priv;
			for (int k = 0; !o && k < ng; k++)
				for (int i = 0; !o && g[k]->opts[i].lname; i++)
					if (g[k]->opts[i].sname == key)
						o = &g[k]->opts[i], data = set->e[k].data;
		}
		if (!o)
			goto out;
		for (int k = 0; p->outer && k < ng; k++)
			if (o >= g[k]->opts && o < g[k]->opts + nr_of(g[k]->opts) &&
			    inner_refuses(g[k], o)) {
				fprintf(stderr,
					"perf-prof %s: --%s in '%s': the outer profiler's option, "
					"give it to %s\n",
					p->name, o->lname, p->item, p->outer);
				goto out;
			}
		/* "--call-graph dwarf": an optional value in the next word */
		if (o->takes_word && !optarg && optind < dashdash && o->takes_word(argv[optind]))
			optarg = argv[optind++];
		else if (o->takes_word && !optarg && optind < dashdash)
			tw_opt = o,
			tw_next = argv[optind]; /* "--call-graph zz": named if left over */
		if (ngv < MAX_GIVEN)
			gv[ngv++] = (struct given){ o, optarg };
		if (o->type == POPT_STR && optarg && !*optarg && !o->empty_default) {
			fprintf(stderr,
				"perf-prof %s: bad --%s '': needs a value (see: perf-prof %s -h)\n",
				p->name, o->lname, p->name);
			goto out;
		}
		if (popt__set_as(o, data, optarg, p->name, err, sizeof(err))) {
			/* "-pid": the value in the option's word, not a word of its own */
			const char *word =
				optarg && optarg != argv[optind - 1] ? argv[optind - 1] : NULL;

			fprintf(stderr, "perf-prof %s: %s%s\n", p->name, err, dash_hint(p, word));
			goto out;
		}
		if (data == set->e[ng - 1].data && ((struct log_opts *)data)->version) {
			printf("perf-prof %s\n", PERF_PROF_VERSION);
			ret = 1;
			goto out;
		}
	}
	if (p->args && p->args_stop) {
		/* everything from the first positional word on (getopt skipped a "--" before it) */
		err[0] = 0;
		if (p->args(priv, argc - optind, argv + optind, err, sizeof(err))) {
			fprintf(stderr, "perf-prof %s: %s\n", p->name,
				err[0] ? err : "bad arguments");
			goto out;
		}
	} else if (p->args) {
		char **args = argv + optind;
		int nr_args = dashdash - optind;

		/* after the profiler's own argument(s): a lone "help" is theirs (expr's) */
		if (nr_args > 1 && args[nr_args - 1] == help_word) {
			nr_args--;
			help_at = dashdash - 1;
		}

		/*
		 * "expr -e EV -- '-pid' [-- CMD]": with nothing positional before
		 * "--", a word starting with '-' after it (never a command) is the
		 * positional argument; a command then follows a second "--".
		 */
		if (!nr_args && dashdash + 1 < argc && argv[dashdash + 1][0] == '-' &&
		    argv[dashdash + 1][1]) {
			args = argv + dashdash + 1;
			nr_args = 1;
			if (dashdash + 2 < argc && strcmp(argv[dashdash + 2], "--")) {
				fprintf(stderr,
					"perf-prof %s: after -- '%s': options go before --, a "
					"command after a "
					"second '--'\n",
					p->name, argv[dashdash + 1]);
				goto out;
			}
			dashdash += 2;
			if (dashdash > argc)
				dashdash = argc;
		}
		err[0] = 0;
		if (p->args(priv, nr_args, args, err, sizeof(err))) {
			fprintf(stderr, "perf-prof %s: %s\n", p->name,
				err[0] ? err : "bad arguments");
			goto out;
		}
	} else if (optind < dashdash) {
		int end = dashdash;

		/* getopt moved a command's positional words last, in their order */
		if (argv[end - 1] == help_word && (command || optind == end - 1))
			help_at = --end;
		if (optind < end && !command && tw_opt && argv[optind] == tw_next) {
			fprintf(stderr, "perf-prof %s: bad --%s '%s' (--%s%s)\n", p->name,
				tw_opt->lname, tw_next, tw_opt->lname, tw_opt->argname);
			goto out;
		}
		if (optind < end && !command) {
			fprintf(stderr, "perf-prof %s: unexpected argument '%s'%s\n", p->name,
				argv[optind],
				has_group(p, &target_group) ? " (put a command after --)" : "");
			goto out;
		}
		*pos = argv + optind;
		*nr_pos = end - optind;
	}
	target = opt_set__get(set, &target_group);
	if (dashdash < argc && p->outer) {
		fprintf(stderr,
			"perf-prof %s: '--' in '%s': the command is %s's, after its options\n",
			p->name, p->item, p->outer);
		goto out;
	}
	if (dashdash < argc) {
		if (!target) {
			fprintf(stderr, "perf-prof %s: does not run a command (no '--' expected)\n",
				p->name);
			goto out;
		}
		if (dashdash + 1 >= argc) {
			fprintf(stderr, "perf-prof %s: '--' must be followed by a command\n",
				p->name);
			goto out;
		}
		target->argv = argv + dashdash + 1;
	}
	if (p->stacks) {
		struct stack_opts *st = opt_set__get(set, &stack_group);

		if (st && st->capture.cg == CG_NONE) {
			st->capture.cg = CG_FP;
			st->capture.defaulted = true;
		}
	}
	for (int phase = 0; phase < 3; phase++)
		for (int k = 0; k < set->n; k++) {
			err[0] = 0;
			if (check_phase(g[k]) != phase || !g[k]->check ||
			    !g[k]->check(set->e[k].data, set, err, sizeof(err)))
				continue;
			fprintf(stderr, "perf-prof %s: %s\n", p->name,
				err[0] ? err : "bad options");
			goto out;
		}
	ret = check_attrs(p, set);
	if (!ret && help_at >= 0) {
		explain(p, argc, argv, help_at, gv, ngv, set, stdout);
		ret = 1;
	}
out:
	free(lo);
	return ret;
}

int options__parse(const struct profiler *p, int argc, char **argv, struct opt_set *set, void *priv)
{
	struct parsee pp = of_profiler(p);
	char **pos;
	int nr_pos;

	return parse(&pp, false, argc, argv, set, priv, &pos, &nr_pos);
}

/* Split @text into words at blanks; '...' and "..." quote (the quotes go). */
static char **split_words(const char *text, int *argc)
{
	size_t len = strlen(text);
	char **argv = calloc(len / 2 + 3, sizeof(*argv));
	char *buf = malloc(len + 1), *w = buf;
	int n = 1;

	if (!argv || !buf) {
		free(argv);
		free(buf);
		return NULL;
	}
	for (const char *c = text; *c;) {
		char q = 0;

		while (*c == ' ' || *c == '\t')
			c++;
		if (!*c)
			break;
		argv[n++] = w;
		for (; *c && (q || (*c != ' ' && *c != '\t')); c++)
			if (!q && (*c == '\'' || *c == '"'))
				q = *c;
			else if (q && *c == q)
				q = 0;
			else
				*w++ = *c;
		*w++ = 0;
	}
	argv[n] = buf; /* freed with argv: see free_words */
	*argc = n;
	return argv;
}

void options__free_words(char **argv, int argc)
{
	if (argv)
		free(argv[argc]);
	free(argv);
}

int options__parse_inner(const struct profiler *outer, const struct ev_spec *spec,
			 const struct profiler *p, struct opt_set *set, void *priv, char ***words,
			 int *nr_words)
{
	struct parsee pp = of_profiler(p);
	char **argv, **pos;
	int argc = 1, nr_pos, ret;

	pp.outer = outer->name;
	pp.item = spec->text;
	*words = NULL;
	*nr_words = 0;
	argv = split_words(spec->options ? spec->options : "", &argc);
	if (!argv) {
		memset(set, 0, sizeof(*set));
		fprintf(stderr, "perf-prof %s: out of memory\n", outer->name);
		return -1;
	}
	argv[0] = (char *)p->name;
	ret = parse(&pp, false, argc, argv, set, priv, &pos, &nr_pos);
	/* the option values point into the words: they live as long as @set */
	*words = argv;
	*nr_words = argc;
	if (ret > 0) /* -h or help: explained, nothing to run */
		return 1;
	return ret;
}

int options__parse_command(const struct command *c, int argc, char **argv, struct opt_set *set,
			   void *priv, char ***pos, int *nr_pos)
{
	struct parsee pp = of_command(c);

	return parse(&pp, true, argc, argv, set, priv, pos, nr_pos);
}

void options__free(struct opt_set *set)
{
	for (int k = 0; k < set->n; k++) {
		if (set->e[k].g->free)
			set->e[k].g->free(set->e[k].data);
		free(set->e[k].data);
	}
	set->n = 0;
}

void options__engine_conf(const struct opt_set *set, struct engine_conf *conf)
{
	const struct stack_opts *stack = opt_set__get(set, &stack_group);
	const struct output_opts *output = opt_set__get(set, &output_group);

	*conf = (struct engine_conf){
		.target = opt_set__get(set, &target_group),
		.ring = opt_set__get(set, &ring_group),
		.run = opt_set__get(set, &run_group),
		.events = opt_set__get(set, &event_group),
		.capture = stack ? &stack->capture : NULL,
		.log = opt_set__get(set, &log_group),
		.clock = opt_set__get(set, &clock_group),
		.output_file = output && output->path,
	};
}
