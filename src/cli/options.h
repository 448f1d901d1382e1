/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing of a profiler's option groups and its own options. */
#ifndef PP_OPTIONS_H
#define PP_OPTIONS_H

#include "engine/conf.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/stack_flame.h"
#include "sym/stack.h"

/*
 * Parse argv (argv[0] is the profiler name) into @set (one struct per
 * group the profiler lists, plus log_group) and @priv, then run the
 * groups' checks in order.  Everything after "--" becomes the target
 * group's argv.  Returns 0, 1 when help was printed, or -1 after printing
 * one error line to stderr.  options__free(@set) in every case.
 */
int options__parse(const struct profiler *p, int argc, char **argv, struct opt_set *set,
		   void *priv);
void options__help(const struct profiler *p, FILE *fp);
/* The same for a command: positional arguments anywhere, in *@pos. */
int options__parse_command(const struct command *c, int argc, char **argv, struct opt_set *set,
			   void *priv, char ***pos, int *nr_pos);
void options__free(struct opt_set *set);
/* The engine's groups of @set (the structs stay in @set). */
void options__engine_conf(const struct opt_set *set, struct engine_conf *conf);

#endif
