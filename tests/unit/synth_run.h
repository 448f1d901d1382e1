/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One profiler on an injected session, set up as the CLI sets it up but
 * without a kernel: its options parsed from an argument string, the
 * output in memory, tracepoint formats fixed from text, its init, then
 * session__inject_begin; the test injects records (synth.h) into r->s and
 * reads what the profiler printed with synth_run__finish.
 *
 *	static const struct synth_fmt fmts[] = { { "sched", fmt_switch }, { 0 } };
 *	struct synth_run r;
 *
 *	CHECK(!synth_run__start(&r, "oncpu", "-C 0", &(struct synth_run_opts){
 *		.fmts = fmts }), "%s", synth_run__err(&r));
 *	ev = synth_run__evsel(&r, "sched_switch");
 *	session__inject(r.s, synth__sample(&r.b, ev, &w), 0);
 *	out = synth_run__finish(&r);
 *	synth_run__cleanup(&r);
 */
#ifndef PP_SYNTH_RUN_H
#define PP_SYNTH_RUN_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "profiler.h"
#include "report/outfile.h"
#include "sym/stack.h"
#include "synth.h"

#define SYNTH_RUN_MAX_ARGS 64

/* A tracepoint's format as tracefs shows it, for events of system @sys. */
struct synth_fmt {
	const char *sys, *format;
};

struct synth_run_opts {
	const char *sep;	      /* what separates the arguments: " " when NULL */
	const struct synth_fmt *fmts; /* ended by { NULL, NULL }; NULL: none */
	bool json;		      /* JSON output even without --json */
	/* a failed init is no failure of start: r->init_err tells (the CLI's error paths) */
	bool init_may_fail;
};

struct synth_run {
	const struct profiler *p;
	void *priv;
	struct session *s;
	struct opt_set opts;
	struct engine_conf conf;
	struct stack_ctx *stack; /* when callchains are captured, as the CLI */
	char *out;		 /* what the profiler wrote (synth_run__finish) */
	size_t out_len;
	FILE *fp;
	char *args;   /* the argument strings: the profiler may keep pointers into argv */
	int init_err; /* what p->init returned */
	bool inited;  /* init ran: deinit runs once, even after a failed init (as the CLI) */
	bool finished;
	struct synth b; /* the test's record buffer */
};

/*
 * Profiler @name with @args (split at opts->sep) on a new injected session
 * (opts may be NULL): 0, or -1 when something failed (the session's error
 * in synth_run__err).  Call synth_run__cleanup in every case.
 */
static inline int synth_run__start(struct synth_run *r, const char *name, const char *args,
				   const struct synth_run_opts *opts)
{
	static const struct synth_run_opts none;
	char *argv[SYNTH_RUN_MAX_ARGS + 1], *save = NULL;
	const struct output_opts *output;
	int argc = 0;

	if (!opts)
		opts = &none;
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < nr_profilers; i++)
		if (profilers[i] && !strcmp(profilers[i]->name, name))
			r->p = profilers[i];
	r->args = strdup(args);
	if (!r->p || !r->args)
		return -1;
	argv[argc++] = (char *)name;
	for (char *t = strtok_r(r->args, opts->sep ? opts->sep : " ", &save);
	     t && argc < SYNTH_RUN_MAX_ARGS; t = strtok_r(NULL, opts->sep ? opts->sep : " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	r->priv = calloc(1, r->p->priv_size);
	if (!r->priv || options__parse(r->p, argc, argv, &r->opts, r->priv))
		return -1;
	options__engine_conf(&r->opts, &r->conf);
	r->fp = open_memstream(&r->out, &r->out_len);
	if (!r->fp || !(r->s = session__new(&r->conf, r->fp)))
		return -1;
	session__set_name(r->s, r->p->name);
	output = opt_set__get(&r->opts, &output_group);
	session__set_json(r->s, opts->json || (output && output->json));
	if (r->conf.capture && r->conf.capture->cg != CG_NONE) {
		if (!(r->stack = stack_ctx__new(0)))
			return -1;
		session__set_stack(r->s, r->stack);
	}
	if (session__add_ops(r->s, &r->p->ops, r->priv))
		return -1;
	for (const struct synth_fmt *f = opts->fmts; f && f->sys; f++)
		if (session__add_format(r->s, f->sys, f->format))
			return -1;
	r->inited = true;
	r->init_err = r->p->init(r->s, r->priv, &r->opts);
	if (r->init_err)
		return opts->init_may_fail ? 0 : -1;
	return session__inject_begin(r->s);
}

/* The session's error message, "" when none. */
static inline const char *synth_run__err(struct synth_run *r)
{
	const char *e = r->s ? session__strerror(r->s) : NULL;

	return e ? e : "";
}

/* The first event whose name contains @part, or NULL. */
static inline struct evsel *synth_run__evsel(struct synth_run *r, const char *part)
{
	for (struct evsel *ev = r->s ? session__evsels(r->s) : NULL; ev; ev = ev->next)
		if (strstr(ev->name, part))
			return ev;
	return NULL;
}

/* Injects a sample of tracepoint @ev (payload @raw, @size bytes) of @pid/@tid at @time on @cpu. */
static inline void synth_run__tp(struct synth_run *r, const struct evsel *ev, u32 pid, u32 tid,
				 u32 cpu, u64 time, const void *raw, u32 size)
{
	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = pid,
							      .tid = tid,
							      .cpu = cpu,
							      .time = time,
							      .raw = raw,
							      .raw_size = size }),
			(int)cpu);
}

/* The end of the run: deinit (its final report), then all the profiler wrote. */
static inline const char *synth_run__finish(struct synth_run *r)
{
	if (r->inited && !r->finished && r->p->deinit)
		r->p->deinit(r->s, r->priv);
	r->finished = true;
	if (r->fp)
		fflush(r->fp);
	return r->out ? r->out : "";
}

/* synth_run__finish, with what was written to stderr meanwhile in @err. */
static inline const char *synth_run__finish_stderr(struct synth_run *r, char *err, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	const char *out;
	size_t n = 0;

	fflush(stderr);
	if (tmp && saved >= 0)
		dup2(fileno(tmp), 2);
	out = synth_run__finish(r);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	}
	if (tmp) {
		rewind(tmp);
		n = fread(err, 1, len - 1, tmp);
		fclose(tmp);
	}
	err[n] = '\0';
	return out;
}

/* Everything freed (deinit first, if synth_run__finish did not run it). */
static inline void synth_run__cleanup(struct synth_run *r)
{
	if (r->inited && !r->finished && r->p->deinit)
		r->p->deinit(r->s, r->priv);
	session__delete(r->s);
	stack_ctx__delete(r->stack);
	if (r->fp)
		fclose(r->fp);
	free(r->out);
	free(r->priv);
	free(r->args);
	options__free(&r->opts);
}

#endif
