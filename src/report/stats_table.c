// SPDX-License-Identifier: GPL-2.0
/* Latency statistics rows: see stats_table.h. */
#include <inttypes.h>

#include "engine/session.h"
#include "report/hist.h"
#include "report/stats_table.h"
#include "util/json.h"
#include "util/units.h"

/* One formatter for the whole tool, so tables and --than lines read the same. */
char *stats_table__fmt_ns(uint64_t ns, char *buf, size_t len)
{
	return units__fmt_ns(ns, buf, len);
}

void stats_table__header_open(FILE *fp, const char *key_title)
{
	static const char *const cols[] = { "total", "min", "avg", "p50", "p95", "p99", "max" };

	fprintf(fp, "%s %10s", key_title, "calls");
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		fprintf(fp, " %*s", STATS_COL_WIDTH, cols[i]);
}

void stats_table__header(FILE *fp, const char *key_title)
{
	stats_table__header_open(fp, key_title);
	fputc('\n', fp);
}

void stats_table__row_ex(FILE *fp, const char *key, const struct hist *h, unsigned flags)
{
	double mean = hist__mean(h);
	uint64_t v[] = {
		hist__sum(h),
		hist__min(h),
		(uint64_t)(mean + 0.5),
		hist__quantile(h, 0.50),
		hist__quantile(h, 0.95),
		hist__quantile(h, 0.99),
		hist__max(h),
	};
	char buf[32];

	fprintf(fp, "%s %10" PRIu64, key, hist__count(h));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (!(flags & STATS_PLAIN))
			stats_table__fmt_ns(v[i], buf, sizeof(buf));
		else if (i == 2) /* avg */
			snprintf(buf, sizeof(buf), "%.2f", mean);
		else
			snprintf(buf, sizeof(buf), "%" PRIu64, v[i]);
		fprintf(fp, " %*s", STATS_COL_WIDTH, buf);
	}
	if (!(flags & STATS_NO_EOL))
		fputc('\n', fp);
}

void stats_table__row(FILE *fp, const char *key, const struct hist *h)
{
	stats_table__row_ex(fp, key, h, 0);
}

void stats_table__json(struct json *j, const struct hist *h, unsigned flags)
{
	static const char *const ns[] = { "total_ns", "min_ns", "avg_ns", "p50_ns",
					  "p95_ns",   "p99_ns", "max_ns" };
	static const char *const plain[] = { "total", "min", "avg", "p50", "p95", "p99", "max" };
	const char *const *names = flags & STATS_PLAIN ? plain : ns;
	double mean = hist__mean(h);
	uint64_t v[] = {
		hist__sum(h),
		hist__min(h),
		(uint64_t)(mean + 0.5),
		hist__quantile(h, 0.50),
		hist__quantile(h, 0.95),
		hist__quantile(h, 0.99),
		hist__max(h),
	};

	json__u64(j, "count", hist__count(h));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (i == 2 && (flags & STATS_PLAIN))
			json__f64(j, names[i], mean);
		else
			json__u64(j, names[i], v[i]);
	}
}

void stats_stamp__now(struct session *s, uint64_t *since, int when, struct stats_stamp *st)
{
	uint64_t now = session__now(s), from = *since ? *since : session__enabled_time(s);

	st->scope = when == STATS_INTERVAL    ? "interval"
		    : when == STATS_SO_FAR    ? "so_far"
		    : session__interval_ms(s) ? "interval"
					      : "run";
	st->time_ns = session__wall_ns(s, now);
	st->interval_ns = from && now > from ? now - from : 0;
	if (when == STATS_INTERVAL)
		*since = now;
}

void stats_stamp__json(struct json *j, const struct stats_stamp *st)
{
	json__str(j, "scope", st->scope);
	json__u64(j, "time_ns", st->time_ns);
	json__u64(j, "interval_ns", st->interval_ns);
}
