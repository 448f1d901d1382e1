// SPDX-License-Identifier: GPL-2.0
/*
 * The targets beside -C/-p/-t/--: --ptrace (the tracer follows the targets'
 * new tasks from their birth, tracer.h) and --cgroups (cgroup directory fds
 * opened per CPU in place of threads, cgroup.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/session_int.h"
#include "engine/target.h"

/* --ptrace: a new process of a target is one before it runs (CPU-wide sessions) */
static void born(void *priv, pid_t parent, pid_t child, bool process)
{
	struct session *s = priv;

	(void)parent;
	if (process && target_set__add_process(s->targets, (u32)child) && !s->targets_nomem++)
		fprintf(stderr, "perf-prof: out of memory: process %d is not followed\n",
			(int)child);
}

/* --ptrace: the workload (before its exec), or every -p/-t thread */
int session__trace_targets(struct session *s)
{
	int err = 0, traced = 0;

	s->perf.tracer = tracer__new(born, s);
	if (!s->perf.tracer)
		return session__set_err(s, -ENOMEM, "out of memory");
	if (s->wl.forked) {
		err = tracer__seize(s->perf.tracer, s->wl.proc.pid, true);
		if (err)
			return session__set_err(s, err, "--ptrace: cannot trace '%s': %s",
						s->conf.target->argv[0], strerror(-err));
		return 0;
	}
	for (int i = 0; i < s->perf.nr_threads; i++) {
		err = tracer__seize(s->perf.tracer, s->perf.threads[i], false);
		if (err == -ESRCH)
			continue; /* exited meanwhile */
		if (err)
			return session__set_err(
				s, err, "--ptrace: cannot trace thread %d: %s%s",
				s->perf.threads[i], strerror(-err),
				err == -EPERM ? " (traced already by a debugger, or refused by "
						"kernel.yama.ptrace_scope)"
					      : "");
		traced++;
	}
	if (!traced)
		return session__set_err(s, -ESRCH,
					"no such process: every target thread has exited");
	return 0;
}

int session__open_cgroups(struct session *s)
{
	char err[512];
	int ret = cgroups__open(&s->perf.cg, s->conf.target->cgroups, err, sizeof(err));

	if (ret == -ENOENT || ret == -EINVAL)
		return session__usage_err(s, "%s", err);
	if (ret)
		return session__set_err(s, ret, "%s", err);
	if (s->conf.log->verbose)
		for (int i = 0; i < s->perf.cg.nr; i++)
			fprintf(stderr, "perf-prof: cgroup %s/%s\n", s->perf.cg.mount,
				strcmp(s->perf.cg.names[i], "/") ? s->perf.cg.names[i] : "");
	return 0;
}
