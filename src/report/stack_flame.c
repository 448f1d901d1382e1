// SPDX-License-Identifier: GPL-2.0
/* A flame graph of a session's sample stacks: see stack_flame.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame.h"
#include "report/stack_flame.h"
#include "sym/stack.h"

#define MAX_FRAMES 1024 /* as many as stack__frames gives: a cut stack loses its root */

struct stack_flame {
	struct flame *flame;
	struct frame *frames;
	const char *name;
	uint64_t rem_ns; /* sub-us remainder carried to the next weight */
};

static void root_frame(struct stack_flame *f, struct session *s)
{
	char buf[64];

	session__fmt_time(s, session__now(s), buf, sizeof(buf));
	buf[19] = 0; /* whole seconds: "YYYY-MM-DD HH:MM:SS" */
	flame__interval(f->flame, buf);
}

int stack_flame__open(struct session *s, const char *title, const char *unit, bool stamp_first,
		      struct stack_flame **out)
{
	const struct env *env = session__env(s);
	struct stack_flame *f;

	*out = NULL;
	if (!env->flame_graph)
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->frames = calloc(MAX_FRAMES, sizeof(*f->frames)))) {
		free(f);
		return session__set_err(s, -ENOMEM, "out of memory");
	}
	f->name = env->flame_graph;
	f->flame = flame__new(env->flame_graph, title, unit);
	if (!f->flame) {
		int err = -errno;

		free(f->frames);
		free(f);
		return session__set_err(s, err, "cannot make the flame graph '%s': %s",
					env->flame_graph, strerror(-err));
	}
	if (env->interval_ms && stamp_first)
		root_frame(f, s);
	*out = f;
	return 0;
}

void stack_flame__add(struct stack_flame *f, struct session *s, const struct sample *smp,
		      const char *comm, const char *leaf, uint64_t weight)
{
	struct stack_ctx *ctx = session__stack(s);
	int n = ctx && (smp->nr_ips || smp->stack) ? stack__frames(ctx, smp, f->frames, MAX_FRAMES)
						   : 0;

	flame__add(f->flame, comm, f->frames, n, leaf, weight);
}

void stack_flame__add_ns(struct stack_flame *f, struct session *s, const struct sample *smp,
			 const char *comm, const char *leaf, uint64_t ns)
{
	uint64_t us = (ns + f->rem_ns) / 1000;

	f->rem_ns = (ns + f->rem_ns) % 1000;
	stack_flame__add(f, s, smp, comm, leaf, us);
}

void stack_flame__interval(struct stack_flame *f, struct session *s)
{
	if (f)
		root_frame(f, s);
}

int stack_flame__close(struct stack_flame *f, struct session *s, const char *who)
{
	int err = 0;

	if (!f)
		return 0;
	if (session__started(s)) {
		err = flame__write(f->flame);
		if (err)
			fprintf(stderr, "perf-prof %s: writing the flame graph '%s': %s\n", who,
				f->name, strerror(-err));
	}
	flame__delete(f->flame);
	free(f->frames);
	free(f);
	return err;
}
