/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session's output and its errors (engine/output.c): the stream results
 * go to (stdout, or the -o file the CLI opened) and how writing it went;
 * the last error of a failing call and its kind (usage or run time); the
 * events skipped.  The public functions are session.h's: session__out,
 * session__set_out, session__out_errno, session__json, session__set_name,
 * session__warn, session__notice, session__output_err,
 * session__output_failed; session__set_err, session__usage_err,
 * session__strerror, session__err_is_usage, session__skipped.
 */
#ifndef PP_ENGINE_OUTPUT_H
#define PP_ENGINE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct session_output {
	FILE *fp;
	const int *errno_at; /* where the -o stream keeps a failed write's errno */
	int err;	     /* writing the output failed: its errno */
	bool failed;	     /* session__output_err was called */
	bool json;	     /* --json */
	const char *name;    /* the profiler's, for session__warn */
};

struct session_errors {
	char msg[512];
	int code;	/* -errno that went with msg */
	bool usage;	/* msg is a usage error */
	char **skipped; /* glob matches the kernel refused */
	int nr_skipped;
};

#endif
