/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing of a profiler's option groups and its own options. */
#ifndef PP_OPTIONS_H
#define PP_OPTIONS_H

#include "engine/conf.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/stack_flame.h"
#include "sym/stack.h"

#define PERF_PROF_VERSION "0.1"

/*
 * Parse argv (argv[0] is the profiler name) into @set (one struct per
 * group the profiler lists, plus log_group) and @priv, then run the
 * groups' checks in order.  Everything after "--" becomes the target
 * group's argv.  Returns 0, 1 when help (-h, or "help" as the last word
 * before "--": the command line explained) or the version (-V) was
 * printed, or -1 after printing one error line to stderr.  options__free(@set) in every case.
 */
int options__parse(const struct profiler *p, int argc, char **argv, struct opt_set *set,
		   void *priv);
void options__help(const struct profiler *p, FILE *fp);
/*
 * Joint analysis: the options of the inner profiler @p that @spec names in
 * @outer's -e (spec->options, split at blanks), as options__parse would
 * (its own table and groups), the session's options refused (the outer's:
 * targets, output, clock, -v/-q, -i...; -N, -m and --order are taken).
 * Same returns; an error line names @p and the item.  The option values
 * point into *@words.
 */
int options__parse_inner(const struct profiler *outer, const struct ev_spec *spec,
			 const struct profiler *p, struct opt_set *set, void *priv, char ***words,
			 int *nr_words);
/* The words options__parse_inner split (after options__free of its set). */
void options__free_words(char **words, int nr);
/* The same for a command: positional arguments anywhere, in *@pos. */
int options__parse_command(const struct command *c, int argc, char **argv, struct opt_set *set,
			   void *priv, char ***pos, int *nr_pos);
void options__free(struct opt_set *set);
/*
 * What -h shows of a profiler or a command, for the man pages and the
 * shell completion (cli/doc.c): its options in the order -h lists them,
 * each with its group (NULL: the profiler's own).
 */
#define CLI_DOC_MAX_OPTS 160
struct cli_doc_opt {
	const struct popt *o;
	const struct opt_group *g;
};
struct cli_doc {
	const char *name, *desc, *synopsis, *examples;
	const char *const *ev_attrs; /* extra -e attributes, NULL-terminated, or NULL */
	bool command;		     /* a command (opens no events) */
	bool workload;		     /* takes "-- COMMAND [ARGS]" */
	bool args;		     /* takes positional arguments */
	int nr_opts;
	struct cli_doc_opt opts[CLI_DOC_MAX_OPTS];
};
/* 0, or -1 when @name is neither a profiler nor a command. */
int options__doc(const char *name, struct cli_doc *d);
/* The engine's groups of @set (the structs stay in @set). */
void options__engine_conf(const struct opt_set *set, struct engine_conf *conf);

#endif
