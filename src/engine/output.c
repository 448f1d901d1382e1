// SPDX-License-Identifier: GPL-2.0
/*
 * A session's output and its errors (see output.h): where results go, how
 * writing them went, and the one-line messages (errors the CLI prints,
 * warnings and notices on stderr) prefixed with the profiler's name.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "engine/session_int.h"

int session__set_err(struct session *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err.msg, sizeof(s->err.msg), fmt, ap);
	va_end(ap);
	s->err.code = err;
	s->err.usage = false; /* a run-time error, whatever came before */
	return err;
}

const char *session__strerror(struct session *s)
{
	return s->err.msg[0] ? s->err.msg : NULL;
}

int session__usage_err(struct session *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err.msg, sizeof(s->err.msg), fmt, ap);
	va_end(ap);
	s->err.code = -EINVAL;
	s->err.usage = true;
	return -EINVAL;
}

bool session__err_is_usage(struct session *s)
{
	return s->err.msg[0] && s->err.usage;
}

int session__skipped(struct session *s, char *const **names)
{
	*names = s->err.skipped;
	return s->err.nr_skipped;
}

void session__set_name(struct session *s, const char *name)
{
	s->out.name = name;
}

/* "perf-prof NAME: MSG" on stderr, one line. */
static void say(struct session *s, const char *fmt, va_list ap)
{
	fprintf(stderr, "perf-prof%s%s: ", s->out.name ? " " : "", s->out.name ? s->out.name : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void session__warn(struct session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->conf.log->quiet)
		return;
	va_start(ap, fmt);
	say(s, fmt, ap);
	va_end(ap);
}

void session__notice(struct session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->conf.log->quiet || !s->conf.log->verbose)
		return;
	va_start(ap, fmt);
	say(s, fmt, ap);
	va_end(ap);
}

void session__output_err(struct session *s, const char *fmt, ...)
{
	va_list ap;

	s->out.failed = true;
	va_start(ap, fmt);
	say(s, fmt, ap);
	va_end(ap);
}

bool session__output_failed(struct session *s)
{
	return s && s->out.failed;
}

FILE *session__out(struct session *s)
{
	return s->out_inner ? s->out_inner : s->out.fp;
}

void session__set_out(struct session *s, FILE *out, const int *out_errno)
{
	s->out.fp = out;
	s->out.errno_at = out_errno;
}

int session__out_errno(struct session *s)
{
	return s ? s->out.err : 0;
}
