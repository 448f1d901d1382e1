// SPDX-License-Identifier: GPL-2.0
/*
 * Joint analysis: profilers inside another's -e share one session (the
 * same rings, the same time order).  Each event belongs to the hook set of
 * the profiler that added it (evsel.owner); its samples go to that set's
 * sample hook (and the event's handler), then to its outer profiler's
 * inner_sample hook (the outer's set's, or a module's its init
 * registered).  Sets of
 * session__add_ops (the symbol layer's, the CLI's, a profiler alone) own
 * nothing and see every sample, as they always did.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>

#include "engine/session_int.h"

int session__add_profiler(struct session *s, const struct session_ops *ops, void *priv, int outer,
			  u64 max)
{
	int i = s->nr_hooks;
	int err = session__add_ops(s, ops, priv);

	if (err)
		return err;
	if (outer >= i)
		return session__set_err(s, -EINVAL, "no such outer hook set");
	s->hooks[i].owns = true;
	s->hooks[i].outer = outer;
	s->hooks[i].max = max;
	return i;
}

void session__own_events(struct session *s, int set)
{
	s->cur_owner = set >= 0 && set < s->nr_hooks ? set : -1;
}

void session__set_inner_item(struct session *s, int set, const struct ev_spec *item)
{
	if (set >= 0 && set < s->nr_hooks)
		s->hooks[set].item = item;
}

const struct ev_spec *session__inner_item(const struct session *s, const struct evsel *ev)
{
	return ev->owner >= 0 && ev->owner < s->nr_hooks ? s->hooks[ev->owner].item : NULL;
}

void session__set_inner_out(struct session *s, int set, FILE *fp)
{
	if (set >= 0 && set < s->nr_hooks)
		s->hooks[set].out = fp;
}

FILE *session__hooks_out(struct session *s, int h)
{
	const int o = s->hooks[h].owns ? h : s->hooks[h].owner;

	return o >= 0 ? s->hooks[o].out : NULL;
}

FILE *session__event_out(struct session *s, const void *priv)
{
	for (int h = 0; h < s->nr_hooks; h++)
		if (s->hooks[h].priv == priv && s->hooks[h].outer >= 0)
			return NULL;
	return session__out(s);
}

void session__swap_conf(struct session *s, struct engine_conf *c)
{
	const struct event_opts *ev = s->conf.events;
	const struct capture_opts *cap = s->conf.capture;
	const struct run_opts *run = s->conf.run;

	s->conf.events = c->events ? c->events : &s->def_events;
	s->conf.capture = c->capture ? c->capture : &s->def_capture;
	s->conf.run = c->run ? c->run : &s->def_run;
	c->events = ev;
	c->capture = cap;
	c->run = run;
}

/*
 * Whether the owner of @ev takes this sample: not after its -N, and, when
 * another profiler made the session CPU-wide, only of the -p/-t/-- targets
 * (the events it would have had on its own).
 */
bool session__owner_takes(struct session *s, const struct evsel *ev, const struct sample *smp)
{
	const int o = ev->owner;

	if (s->hooks[o].max && s->hooks[o].nr >= s->hooks[o].max)
		return false;
	return !s->cpu_wide || s->hooks[o].cpu_wide || session__is_target(s, smp->pid, smp->tid);
}

/*
 * Set @o reached its -N: its events stop in the kernel too (what the rings
 * already hold is dropped by session__owner_takes).  The ioctl reaches the
 * events' inherited copies in the workload's children.
 */
static void disable_owned(struct session *s, int o)
{
	for (int i = 0; i < s->perf.nr_fds; i++)
		if (s->perf.fd_ev[i] && s->perf.fd_ev[i]->owner == o)
			ioctl(s->perf.fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

/*
 * An inner profiler's event to its outer profiler: the inner_sample hook of
 * the outer's set and of the module sets its init registered (multi-trace's
 * is multipoint_ev's), in order.  An outer profiler that did not ask for
 * CPU-wide events gets its targets' only.
 */
static void to_outer(struct session *s, int outer, struct evsel *ev, struct sample *smp)
{
	/* (a row is no task's) */
	if (s->cpu_wide && !s->hooks[outer].cpu_wide && !ev->row &&
	    !session__is_target(s, smp->pid, smp->tid))
		return;
	for (int h = outer; h < s->nr_hooks; h++)
		if (s->hooks[h].ops->inner_sample &&
		    (h == outer || (!s->hooks[h].owns && s->hooks[h].owner == outer)))
			s->hooks[h].ops->inner_sample(s, s->hooks[h].priv, ev, smp);
}

void session__deliver(struct session *s, struct evsel *ev, struct sample *smp)
{
	const int o = ev->owner, outer = s->hooks[o].outer;

	/* the sets that own nothing; of those a profiler's init added, its owner's */
	for (int h = 0; h < s->nr_hooks; h++)
		if (s->hooks[h].ops->sample &&
		    (h == o ||
		     (!s->hooks[h].owns && (s->hooks[h].owner < 0 || s->hooks[h].owner == o))))
			s->hooks[h].ops->sample(s, s->hooks[h].priv, ev, smp);
	if (ev->handler)
		ev->handler(s, ev->priv, ev, smp);
	if (outer >= 0)
		to_outer(s, outer, ev, smp);
	if (smp->time > s->last_delivered)
		s->last_delivered = smp->time;
	if (++s->hooks[o].nr == s->hooks[o].max)
		disable_owned(s, o);
}

void session__deliver_row(struct session *s, struct evsel *ev, struct sample *smp)
{
	FILE *inner = s->out_inner;
	int outer;

	if (ev->owner < 0 || ev->owner >= s->nr_hooks || (outer = s->hooks[ev->owner].outer) < 0)
		return;
	s->out_inner = NULL; /* the outer prints it where it prints */
	to_outer(s, outer, ev, smp);
	s->out_inner = inner;
}

u64 session__row_time_now(struct session *s)
{
	if (!s->order)
		return session__now(s);
	return s->last_delivered ? s->last_delivered : s->enabled_at;
}

u64 session__row_time(struct session *s)
{
	return s->out_inner && s->row_at ? s->row_at : session__row_time_now(s);
}
