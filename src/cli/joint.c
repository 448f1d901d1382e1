// SPDX-License-Identifier: GPL-2.0
/* Joint analysis: inner profilers in one session (see joint.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/joint.h"
#include "cli/options.h"

static const struct profiler *find(const char *name)
{
	for (int i = 0; i < nr_profilers; i++)
		if (profilers[i] && !strcmp(profilers[i]->name, name))
			return profilers[i];
	return NULL;
}

int joint__parse(const struct profiler *outer, const struct opt_set *set, struct joint *j)
{
	const struct event_opts *ev = opt_set__get(set, &event_group);
	int n = 0;

	memset(j, 0, sizeof(*j));
	j->outer = -1;
	for (int i = 0; ev && i < ev->nr_specs; i++)
		n += ev->specs[i].profiler != NULL;
	if (!n)
		return 0;
	j->in = calloc(n, sizeof(*j->in));
	if (!j->in) {
		fprintf(stderr, "perf-prof %s: out of memory\n", outer->name);
		return -1;
	}
	for (int i = 0; i < ev->nr_specs; i++) {
		const struct ev_spec *sp = &ev->specs[i];
		struct joint_inner *in = &j->in[j->n];
		int ret;

		if (!sp->profiler)
			continue;
		in->p = find(sp->profiler);
		in->spec = sp;
		in->hooks = -1;
		in->priv = calloc(1, in->p->priv_size ? in->p->priv_size : 1);
		if (!in->priv) {
			fprintf(stderr, "perf-prof %s: out of memory\n", outer->name);
			return -1;
		}
		j->n++;
		ret = options__parse_inner(outer, sp, in->p, &in->set, in->priv, &in->words,
					   &in->nr_words);
		if (ret)
			return ret;
	}
	return 0;
}

const struct stack_opts *joint__stack(const struct joint *j)
{
	for (int i = 0; i < j->n; i++) {
		const struct stack_opts *st = opt_set__get(&j->in[i].set, &stack_group);

		if (st && st->capture.cg != CG_NONE)
			return st;
	}
	return NULL;
}

int joint__add_ops(struct session *s, const struct session_ops *ops, void *priv, struct joint *j)
{
	if (!j->n)
		return session__add_ops(s, ops, priv);
	j->outer = session__add_profiler(s, ops, priv, -1, 0);
	if (j->outer < 0)
		return j->outer;
	for (int i = 0; i < j->n; i++) {
		const struct run_opts *run = opt_set__get(&j->in[i].set, &run_group);

		j->in[i].hooks = session__add_profiler(s, &j->in[i].p->ops, j->in[i].priv, j->outer,
						       run ? run->max_samples : 0);
		if (j->in[i].hooks < 0)
			return j->in[i].hooks;
		session__set_inner_item(s, j->in[i].hooks, j->in[i].spec);
	}
	return 0;
}

static int init_inner(struct session *s, struct joint_inner *in)
{
	const struct ring_opts *ring = opt_set__get(&in->set, &ring_group);
	const struct stack_opts *st = opt_set__get(&in->set, &stack_group);
	struct engine_conf c;
	int err;

	/* the rings and their order are shared: its -m and --order are wishes */
	if (ring && ring->mmap_pages)
		session__want_pages(s, ring->mmap_pages);
	if ((ring && ring->order) || (st && st->capture.cg != CG_NONE))
		session__want_order(s);
	options__engine_conf(&in->set, &c);
	session__own_events(s, in->hooks);
	session__swap_conf(s, &c);
	err = in->p->init(s, in->priv, &in->set);
	session__swap_conf(s, &c);
	in->inited = true;
	return err;
}

int joint__init(struct session *s, const struct profiler *outer, void *priv,
		const struct opt_set *set, struct joint *j)
{
	int err;

	session__own_events(s, j->outer);
	err = outer->init(s, priv, set);
	for (int i = 0; !err && i < j->n; i++)
		err = init_inner(s, &j->in[i]);
	session__own_events(s, -1);
	return err;
}

void joint__deinit(struct session *s, struct joint *j)
{
	for (int i = 0; i < j->n; i++)
		if (j->in[i].inited && j->in[i].p->deinit)
			j->in[i].p->deinit(s, j->in[i].priv);
}

void joint__free(struct joint *j)
{
	for (int i = 0; i < j->n; i++) {
		options__free(&j->in[i].set);
		options__free_words(j->in[i].words, j->in[i].nr_words);
		free(j->in[i].priv);
	}
	free(j->in);
	memset(j, 0, sizeof(*j));
}
