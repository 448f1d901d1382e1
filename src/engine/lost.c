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

u64 session__lost(struct session *s)
{
	return s->perf.lost_total + s->perf.throttled + session__lost_budget(s);
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
	rate__print_dropped(s->rate, fp);
	if (s->perf.throttled)
		fprintf(fp,
			"perf-prof: the kernel throttled sampling %llu times "
			"(kernel.perf_event_max_sample_rate)\n",
			(unsigned long long)s->perf.throttled);
	print_budget_lost(s, fp);
	if (s->abandoned_recs || s->perf.abandoned_bytes)
		fprintf(fp,
			"perf-prof: interrupted while behind: %llu queued records and %llu KiB in "
			"the ring buffers were not processed\n",
			(unsigned long long)s->abandoned_recs,
			(unsigned long long)(s->perf.abandoned_bytes + 1023) / 1024);
	if (!s->perf.lost_total)
		return;
	fprintf(fp, "perf-prof: lost %llu events (", (unsigned long long)s->perf.lost_total);
	for (int c = 0, first = 1; c < s->max_cpu; c++) {
		if (!s->perf.lost_cpu[c])
			continue;
		fprintf(fp, "%sCPU%d: %llu", first ? "" : ", ", c,
			(unsigned long long)s->perf.lost_cpu[c]);
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
	struct json j;

	if (!session__lost(s) && !session__limited(s) && !s->abandoned_recs &&
	    !s->perf.abandoned_bytes)
		return;
	json__begin(&j, fp, "lost");
	json__str(&j, "scope", "run");
	json__u64(&j, "lost", s->perf.lost_total);
	json__obj(&j, "lost_per_cpu");
	for (int c = 0; c < s->max_cpu; c++) {
		char cpu[16];

		if (!s->perf.lost_cpu[c])
			continue;
		snprintf(cpu, sizeof(cpu), "%d", c);
		json__u64(&j, cpu, s->perf.lost_cpu[c]);
	}
	json__close(&j);
	json__u64(&j, "throttled", s->perf.throttled);
	json__u64(&j, "dropped_samples", dropped);
	json__u64(&j, "dropped_records", kept);
	json__u64(&j, "unprocessed_records", s->abandoned_recs);
	json__u64(&j, "unprocessed_bytes", s->perf.abandoned_bytes);
	json__u64(&j, "sampling_limit_dropped", session__limited(s));
	json__end(&j);
}

void session__count_lost(struct session *s, const struct perf_event_header *h, int cpu)
{
	struct rec_lost l;
	struct sample id;

	if (rec__lost(h, &l))
		return;
	if (cpu < 0 && !sample__parse_id(h, BASE_SAMPLE_TYPE, &id) && id.cpu != (u32)-1)
		cpu = (int)id.cpu;
	s->perf.lost_total += l.lost;
	if (cpu >= 0 && cpu < s->max_cpu)
		s->perf.lost_cpu[cpu] += l.lost;
}
