// SPDX-License-Identifier: GPL-2.0
/* Counting mode: reading counters and scaling multiplexed values. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "engine/counter.h"
#include "engine/session_int.h"

static u64 sub(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

struct counter_val counter__delta(const struct counter_val *now, const struct counter_val *before)
{
	return (struct counter_val){ .val = sub(now->val, before->val),
				     .ena = sub(now->ena, before->ena),
				     .run = sub(now->run, before->run) };
}

double counter__scaled(const struct counter_val *v, double *share)
{
	double r = 1.0;

	if (v->ena && v->run < v->ena)
		r = (double)v->run / (double)v->ena;
	if (share)
		*share = r;
	if (r <= 0.0)
		return 0.0;
	return r < 1.0 ? (double)v->val / r : (double)v->val;
}

void counter__add(struct counter_val *a, const struct counter_val *b)
{
	a->val += b->val;
	a->ena += b->ena;
	a->run += b->run;
}

static int read_one(int fd, struct counter_val *v)
{
	u64 buf[3];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n != (ssize_t)sizeof(buf))
		return n < 0 ? -errno : -EIO;
	v->val = buf[0];
	v->ena = buf[1];
	v->run = buf[2];
	return 0;
}

/*
 * Through the perf source's counters op (the only source with counters);
 * without a session (the tests' fake counters): its reader.
 */
int session__read_counter(struct session *s, struct evsel *ev, int i, struct counter_val *v)
{
	struct source *src = s && s->nr_sources ? s->sources[0] : NULL;

	if (src && src->ops->counters)
		return src->ops->counters(src, ev, i, v);
	return perf_source__counters(ev, i, v);
}

int session__nr_counters(struct session *s, const struct evsel *ev)
{
	(void)s;
	return ev->src ? ev->src->nr_cnt : 0;
}

int session__counter_at(struct session *s, const struct evsel *ev, int i, int *cpu, pid_t *tid)
{
	(void)s;
	if (i < 0 || i >= session__nr_counters(s, ev))
		return -EINVAL;
	*cpu = ev->src->cnt[i].cpu;
	*tid = ev->src->cnt[i].tid;
	return 0;
}

int perf_source__counters(struct evsel *ev, int i, struct counter_val *v)
{
	int err = 0, nr = session__nr_counters(NULL, ev);

	memset(v, 0, sizeof(*v));
	if (!ev->counting || i >= nr)
		return -EINVAL;
	if (i >= 0)
		return read_one(ev->src->cnt[i].fd, v);
	for (int k = 0; k < nr; k++) {
		struct counter_val one = { 0 };
		int e = read_one(ev->src->cnt[k].fd, &one);

		if (e)
			err = e;
		else
			counter__add(v, &one);
	}
	return err;
}
