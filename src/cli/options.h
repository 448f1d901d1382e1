/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing of the common options and a profiler's own. */
#ifndef PP_OPTIONS_H
#define PP_OPTIONS_H

#include "profiler.h"

/*
 * Parse argv (argv[0] is the profiler name) into @env and @priv.
 * Positional arguments are returned in *@pos / *@nr_pos; everything after
 * "--" becomes env->argv.  Returns 0, 1 when help was printed, or -1
 * after printing one error line to stderr.
 */
int options__parse(const struct profiler *p, int argc, char **argv, struct env *env, void *priv,
		   char ***pos, int *nr_pos);
void options__help(const struct profiler *p, FILE *fp);
/* The same for a command: positional arguments anywhere, in *@pos. */
int options__parse_command(const struct command *c, int argc, char **argv, struct env *env,
			   void *priv, char ***pos, int *nr_pos);
void options__free(struct env *env);

#endif
