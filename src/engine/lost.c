// SPDX-License-Identifier: GPL-2.0
/*
 * What a session did not deliver, counted and said: records the kernel
 * lost (per CPU), sampling it throttled, what the order queue's budget
 * dropped, what --sampling-limit dropped; and --perfeval-*'s cost lines.
 * On stderr in text, as one "lost" object under --json.
 */
#include <stdio.h>
#include <string.h>

#include "engine/rate.h"
#include "engine/session_int.h"
#include "util/json.h"
#include "util/units.h"

u64 session__lost_budget(struct session *s)
{
	u64 kept = 0, dropped = s->oq ? order__dropped(s->oq, &kept) : 0;

	return dropped + kept;
}

void session__source_stats(struct session *s, struct source_stats *st)
{
	*st = (struct source_stats){ 0 };
	for (int i = 0; i < s->nr_sources; i++) {
		struct source *src = s->sources[i];
		struct source_stats one = { 0 };

		if (!src->ops->stats)
			continue;
		src->ops->stats(src, &one);
		st->lost += one.lost;
		st->throttled += one.throttled;
		st->abandoned += one.abandoned;
		st->nr_read += one.nr_read;
		st->dropped += one.dropped;
		st->noted += one.noted;
	}
}

/* The records lost on @cpu, every source's. */
static u64 lost_on(struct session *s, int cpu)
{
	u64 n = 0;

	for (int i = 0; i < s->nr_sources; i++) {
		struct source *src = s->sources[i];
		struct source_stats one = { 0 };

		if (!src->ops->stats)
			continue;
		src->ops->stats(src, &one);
		n += one.lost_cpu ? one.lost_cpu[cpu] : 0;
	}
	return n;
}

u64 session__lost(struct session *s)
{
	struct source_stats st;

	session__source_stats(s, &st);
	return st.lost + st.dropped + st.throttled + session__lost_budget(s);
}

u64 session__noted(struct session *s)
{
	struct source_stats st;

	session__source_stats(s, &st);
	return st.noted;
}

u64 session__order_budget(struct session *s)
{
	return s->conf.ring->order_mem ? s->conf.ring->order_mem : ORDER_MEM_DEFAULT;
}

static void print_budget_lost(struct session *s, FILE *fp)
{
	u64 kept = 0, dropped = s->oq ? order__dropped(s->oq, &kept) : 0;
	char size[32];

	if (!dropped && !kept)
		return;
	units__fmt_size(session__order_budget(s), size, sizeof(size));
	fprintf(fp,
		"perf-prof: dropped %llu samples and %llu other records: processing fell behind "
		"and the time-order queue was full (--order-mem %s); fewer events, a kernel "
		"filter or a bigger --order-mem helps\n",
		(unsigned long long)dropped, (unsigned long long)kept, size);
}

u64 session__limited(struct session *s)
{
	return s ? rate__dropped(s->rate) : 0;
}

void session__print_perfeval(struct session *s, const char *scope)
{
	u64 now = session__now(s);

	if (!rate__evaluates(s->rate))
		return;
	rate__print_eval(s->rate, s->out.fp, s->out.json, (now - s->eval_since) / 1e9, scope);
	s->eval_since = now;
}

void session__print_lost(struct session *s, FILE *fp)
{
	struct source_stats st;

	session__source_stats(s, &st);
	rate__print_dropped(s->rate, fp);
	if (st.throttled)
		fprintf(fp,
			"perf-prof: the kernel throttled sampling %llu times "
			"(kernel.perf_event_max_sample_rate)\n",
			(unsigned long long)st.throttled);
	print_budget_lost(s, fp);
	if (s->abandoned_recs || st.abandoned)
		fprintf(fp,
			"perf-prof: interrupted while behind: %llu queued records and %llu KiB in "
			"the ring buffers were not processed\n",
			(unsigned long long)s->abandoned_recs,
			(unsigned long long)(st.abandoned + 1023) / 1024);
	for (int i = 0; (st.dropped || st.noted) && i < s->nr_sources; i++)
		if (s->sources[i]->ops->report)
			s->sources[i]->ops->report(s->sources[i], fp);
	if (!st.lost)
		return;
	fprintf(fp, "perf-prof: lost %llu events (", (unsigned long long)st.lost);
	for (int c = 0, first = 1; c < s->max_cpu; c++) {
		u64 n = lost_on(s, c);

		if (!n)
			continue;
		fprintf(fp, "%sCPU%d: %llu", first ? "" : ", ", c, (unsigned long long)n);
		first = 0;
	}
	if (s->conf.ring->overwrite)
		fprintf(fp, "); --overwrite drops what comes while a read pauses the rings\n");
	else
		fprintf(fp, "); a bigger buffer (-m PAGES) or a kernel filter helps\n");
}

void session__json_lost(struct session *s, FILE *fp)
{
	u64 kept = 0, dropped = s->oq ? order__dropped(s->oq, &kept) : 0;
	struct source_stats st;
	struct json j;

	session__source_stats(s, &st);
	if (!session__lost(s) && !session__limited(s) && !s->abandoned_recs && !st.abandoned)
		return;
	json__begin(&j, fp, "lost");
	json__str(&j, "scope", "run");
	json__u64(&j, "lost", st.lost);
	json__u64(&j, "dropped_in_kernel", st.dropped);
	json__obj(&j, "lost_per_cpu");
	for (int c = 0; c < s->max_cpu; c++) {
		char cpu[16];
		u64 n = lost_on(s, c);

		if (!n)
			continue;
		snprintf(cpu, sizeof(cpu), "%d", c);
		json__u64(&j, cpu, n);
	}
	json__close(&j);
	json__u64(&j, "throttled", st.throttled);
	json__u64(&j, "dropped_samples", dropped);
	json__u64(&j, "dropped_records", kept);
	json__u64(&j, "unprocessed_records", s->abandoned_recs);
	json__u64(&j, "unprocessed_bytes", st.abandoned);
	json__u64(&j, "sampling_limit_dropped", session__limited(s));
	json__end(&j);
}

void session__count_lost_in(struct session *s, const struct perf_event_header *h, int cpu,
			    u64 *total, u64 *per_cpu)
{
	struct rec_lost l;
	struct sample id;

	if (rec__lost(h, &l))
		return;
	if (cpu < 0 && !sample__parse_id(h, BASE_SAMPLE_TYPE, &id) && id.cpu != (u32)-1)
		cpu = (int)id.cpu;
	*total += l.lost;
	if (cpu >= 0 && cpu < s->max_cpu)
		per_cpu[cpu] += l.lost;
}

void session__count_lost(struct session *s, const struct perf_event_header *h, int cpu)
{
	session__count_lost_in(s, h, cpu, &s->perf.lost_total, s->perf.lost_cpu);
}
