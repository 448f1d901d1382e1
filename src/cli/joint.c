// SPDX-License-Identifier: GPL-2.0
/* Joint analysis: inner profilers in one session (see joint.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "cli/joint.h"
#include "cli/options.h"
#include "report/rtable.h"

/*
 * An inner profiler's rows as events: while its interval and snapshot
 * hooks run, its output stream is @fp (it discards), and the report sinks
 * on @fp render into @sink, which makes each row an event of the
 * description's own evsel ("top:top") for the outer profiler.
 */
struct row_ev {
	const char *type; /* the description's record type: the event's name */
	struct evsel *ev;
};

struct joint_rows {
	struct rt_sink sink;
	struct session *s;
	const struct joint_inner *in;
	FILE *fp;
	struct row_ev *evs; /* an event per description */
	int nr_evs;
	char *buf; /* the payload: the text, a NUL, the JSON members, a NUL */
	size_t cap;
};

static struct evsel *row_evsel(struct joint_rows *r, const struct rt_desc *d)
{
	const char *type = d->type ? d->type : "row";
	struct evsel *ev;
	struct row_ev *n;

	/* by type, not by address: a description on the stack has a new one each call */
	for (int i = 0; i < r->nr_evs; i++)
		if (!strcmp(r->evs[i].type, type))
			return r->evs[i].ev;
	n = realloc(r->evs, (r->nr_evs + 1) * sizeof(*r->evs));
	if (!n)
		return NULL;
	r->evs = n;
	ev = calloc(1, sizeof(*ev));
	if (!ev || asprintf(&ev->name, "%s:%s", r->in->p->name, type) < 0) {
		free(ev);
		return NULL;
	}
	ev->owner = r->in->hooks;
	ev->row = true;
	ev->row_by = r->in->p->name;
	r->evs[r->nr_evs].type = ev->name + strlen(r->in->p->name) + 1;
	r->evs[r->nr_evs++].ev = ev;
	return ev;
}

static void rows_row(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v)
{
	struct joint_rows *r = (struct joint_rows *)k;
	struct evsel *ev;
	char text[4096], *m;
	size_t nt, nm;

	for (int i = 0; i < d->ncols; i++)
		if ((d->cols[i].flags & RT_ROW_IF) && !v[i].b)
			return; /* a line of the text only */
	if (!(ev = row_evsel(r, d)) || !(m = rt_json__frag(d, v)))
		return;
	nt = rt_fields__text(d, v, text, sizeof(text));
	nm = strlen(m);
	if (nt + nm + 2 > r->cap) {
		char *b = realloc(r->buf, nt + nm + 2);

		if (!b) {
			free(m);
			return;
		}
		r->buf = b;
		r->cap = nt + nm + 2;
	}
	memcpy(r->buf, text, nt + 1);
	memcpy(r->buf + nt + 1, m, nm + 1);
	free(m);
	session__deliver_row(r->s, ev,
			     &(struct sample){ .type = PERF_RECORD_SAMPLE,
					       .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
							      PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
					       .time = session__row_time(r->s),
					       .raw = r->buf,
					       .raw_size = (u32)(nt + nm + 2) });
}

static const struct rt_sink_ops rows_ops = { .row = rows_row };

static ssize_t discard(void *cookie, const char *buf, size_t n)
{
	(void)cookie, (void)buf;
	return (ssize_t)n;
}

/* @in's rows to its outer profiler (see struct joint_rows).  0 or -1 (out of memory). */
static int rows_open(struct session *s, struct joint_inner *in)
{
	struct joint_rows *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	in->rows = r;
	r->sink.ops = &rows_ops;
	r->s = s;
	r->in = in;
	r->fp = fopencookie(r, "w", (cookie_io_functions_t){ .write = discard });
	if (!r->fp || rtable__tap(r->fp, &r->sink))
		return -1;
	session__set_inner_out(s, in->hooks, r->fp);
	return 0;
}

static void rows_close(struct joint_rows *r)
{
	if (!r)
		return;
	if (r->fp) {
		rtable__tap(r->fp, NULL);
		fclose(r->fp);
	}
	for (int i = 0; i < r->nr_evs; i++) {
		free(r->evs[i].ev->name);
		free(r->evs[i].ev);
	}
	free(r->evs);
	free(r->buf);
	free(r);
}

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
	if (!err && rows_open(s, in))
		err = session__set_err(s, -ENOMEM, "out of memory");
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
	for (int i = 0; i < j->n; i++) {
		/* its report at the end is its own, printed */
		session__set_inner_out(s, j->in[i].hooks, NULL);
		if (j->in[i].rows && j->in[i].rows->fp)
			rtable__tap(j->in[i].rows->fp, NULL);
		if (j->in[i].inited && j->in[i].p->deinit)
			j->in[i].p->deinit(s, j->in[i].priv);
	}
}

void joint__free(struct joint *j)
{
	for (int i = 0; i < j->n; i++) {
		options__free(&j->in[i].set);
		options__free_words(j->in[i].words, j->in[i].nr_words);
		free(j->in[i].priv);
		rows_close(j->in[i].rows);
	}
	free(j->in);
	memset(j, 0, sizeof(*j));
}
