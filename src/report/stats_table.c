// SPDX-License-Identifier: GPL-2.0
/* Latency statistics rows: see stats_table.h. */
#include <inttypes.h>

#include "report/hist.h"
#include "report/stats_table.h"
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
