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

int stack_flame__open(struct session *s, const struct flame_opts *o, const char *title,
		      const char *unit, bool stamp_first, struct stack_flame **out)
{
	struct stack_flame *f;

	*out = NULL;
	if (!o || !o->name)
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->frames = calloc(MAX_FRAMES, sizeof(*f->frames)))) {
		free(f);
		return session__set_err(s, -ENOMEM, "out of memory");
	}
	f->name = o->name;
	f->flame = flame__new(o->name, title, unit);
	if (!f->flame) {
		int err = -errno;

		free(f->frames);
		free(f);
		return session__set_err(s, err, "cannot make the flame graph '%s': %s", o->name,
					strerror(-err));
	}
	if (session__interval_ms(s) && stamp_first)
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

void stack_flame__add_frames(struct stack_flame *f, const struct frame *frames, int nr,
			     const char *comm, const char *leaf, uint64_t weight)
{
	flame__add(f->flame, comm, frames, nr, leaf, weight);
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

static int flame_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct stack_opts *st = opt_set__get(set, &stack_group);
	const struct flame_opts *o = data;

	if (o->name && (!st || st->capture.cg == CG_NONE)) {
		snprintf(err, errlen, "--flame-graph needs stacks: add -g (or --call-graph dwarf)");
		return -1;
	}
	return 0;
}

static const struct popt flame_opts[] = {
	{ "flame-graph", 0, "NAME[.svg]",
	  "write a flame graph: NAME.folded, or an SVG when NAME ends in .svg",
	  POPT_BIND_STR(struct flame_opts, name) },
	{ 0 },
};

const struct opt_group flame_group = {
	.name = "flame",
	.opts = flame_opts,
	.size = sizeof(struct flame_opts),
	.check = flame_check,
};
