// SPDX-License-Identifier: GPL-2.0
/*
 * Injected sessions: a profiler's state machine driven by synthesized
 * records, without perf_event_open or a kernel event.  Tracepoint formats
 * come from text (session__add_format) when the test wants them fixed;
 * each event gets the sample id idx + 1; records go through the same
 * dispatch as records read from the ring buffers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "engine/session_int.h"

int session__add_format(struct session *s, const char *sys, const char *format)
{
	if (!s->tp && !(s->tp = tp__new_offline()))
		return session__set_err(s, -ENOMEM, "out of memory");
	if (tep_parse_event(tp__tep(s->tp), format, strlen(format), sys) != TEP_ERRNO__SUCCESS)
		return session__set_err(s, -EINVAL, "cannot parse the format given for %s", sys);
	return 0;
}

u64 session__inject_id(const struct evsel *ev)
{
	return (u64)ev->idx + 1;
}

/*
 * The replay source: records given by the caller, delivered through the
 * source ops as any source's (session__source_record: dispatched at once
 * without time order, else queued with the others').  session__inject
 * hands it one record and reads it at once, so the caller sees its
 * effects on return, as before.  Its losses are its own (stats).
 */
struct replay {
	struct source src;
	const struct perf_event_header *rec; /* the record given, not read yet */
	int cpu;
	u64 lost_total;
	u64 *lost_cpu;
};

static int replay_read(struct source *src, unsigned how, u64 *horizon)
{
	struct replay *r = src->priv;
	const struct perf_event_header *rec = r->rec;

	(void)horizon; /* nothing held back: its records are all given */
	if (!rec || (how & SOURCE_READ_PULL))
		return 0;
	r->rec = NULL;
	/* counted as the ring reader counts them */
	if (rec->type == PERF_RECORD_LOST || rec->type == PERF_RECORD_LOST_SAMPLES)
		session__count_lost_in(src->s, rec, r->cpu, &r->lost_total, r->lost_cpu);
	return session__source_record(src->s, rec, r->cpu);
}

static void replay_stats(struct source *src, struct source_stats *st)
{
	struct replay *r = src->priv;

	*st = (struct source_stats){ .lost = r->lost_total, .lost_cpu = r->lost_cpu };
}

static void replay_close(struct source *src)
{
	struct replay *r = src->priv;

	r->rec = NULL;
}

static const struct source_ops replay_ops = {
	.name = "replay",
	.read = replay_read,
	.stats = replay_stats,
	.close = replay_close,
};

static struct replay *replay_of(struct session *s)
{
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i]->ops == &replay_ops)
			return s->sources[i]->priv;
	return NULL;
}

/* Freed with the session (session__delete calls this). */
void session__replay_free(struct session *s)
{
	struct replay *r = replay_of(s);

	if (r) {
		free(r->lost_cpu);
		free(r);
	}
}

int session__inject_begin(struct session *s)
{
	struct replay *r;
	struct evsel *ev;

	for (ev = s->evsels; ev; ev = ev->next)
		if (session__add_id(s, session__inject_id(ev), ev))
			return session__set_err(s, -ENOMEM, "out of memory");
	qsort(s->perf.ids, s->perf.nr_ids, sizeof(*s->perf.ids), session__cmp_id);
	if (!replay_of(s)) {
		r = calloc(1, sizeof(*r));
		if (!r || !(r->lost_cpu = calloc(s->max_cpu, sizeof(u64)))) {
			free(r);
			return session__set_err(s, -ENOMEM, "out of memory");
		}
		r->src = (struct source){ .ops = &replay_ops, .priv = r };
		if (session__add_source(s, &r->src)) {
			free(r->lost_cpu);
			free(r);
			return session__set_err(s, -ENOMEM, "out of memory");
		}
	}
	s->started = true; /* records come: there is a run to report on */
	return 0;
}

void session__inject_enabled(struct session *s, u64 enabled_at, u64 all_enabled_at)
{
	s->enabled_at = enabled_at;
	s->all_enabled_at = all_enabled_at;
}

void session__inject(struct session *s, const struct perf_event_header *rec, int cpu)
{
	struct replay *r = replay_of(s);

	if (!r) { /* (no session__inject_begin: as before, straight to dispatch) */
		if (rec->type == PERF_RECORD_LOST || rec->type == PERF_RECORD_LOST_SAMPLES)
			session__count_lost(s, rec, cpu);
		session__dispatch(s, rec, cpu);
		return;
	}
	r->rec = rec;
	r->cpu = cpu;
	r->src.ops->read(&r->src, 0, NULL);
}
