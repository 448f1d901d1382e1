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

int session__inject_begin(struct session *s)
{
	struct evsel *ev;

	for (ev = s->evsels; ev; ev = ev->next)
		if (session__add_id(s, session__inject_id(ev), ev))
			return session__set_err(s, -ENOMEM, "out of memory");
	qsort(s->perf.ids, s->perf.nr_ids, sizeof(*s->perf.ids), session__cmp_id);
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
	/* counted as the ring reader counts them */
	if (rec->type == PERF_RECORD_LOST || rec->type == PERF_RECORD_LOST_SAMPLES)
		session__count_lost(s, rec, cpu);
	session__dispatch(s, rec, cpu);
}
