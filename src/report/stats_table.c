// SPDX-License-Identifier: GPL-2.0
/* Latency statistics rows: see stats_table.h. */
#include <stdarg.h>

#include "engine/session.h"
#include "report/hist.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "util/json.h"
#include "util/units.h"

/* One formatter for the whole tool, so tables and --than lines read the same. */
char *stats_table__fmt_ns(uint64_t ns, char *buf, size_t len)
{
	return units__fmt_ns(ns, buf, len);
}

/* The two columns of a statistics row: its key (padded by the caller), the statistics. */
static void describe(struct rt_col *cols, struct rt_desc *d, const char *key, unsigned flags)
{
	cols[0] = (struct rt_col){ .title = key, .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON };
	cols[1] = (struct rt_col){ .type = RT_STATS,
				   .unit = flags & STATS_PLAIN ? RT_UNIT_COUNT : RT_UNIT_NS };
	*d = (struct rt_desc){ .type = "row", .cols = cols, .ncols = 2 };
}

void stats_table__header(FILE *fp, const char *key_title)
{
	struct rt_col cols[2];
	struct rt_desc d;
	struct rt_text t;

	describe(cols, &d, key_title, 0);
	rtable__begin(rt_text__init(&t, fp), &d);
	rtable__end(&t.sink);
}

void stats_table__row_ex(FILE *fp, const char *key, const struct hist *h, unsigned flags)
{
	struct rt_col cols[2];
	struct rt_desc d;
	struct rt_text t;

	describe(cols, &d, key, flags);
	rt_text__init(&t, fp);
	t.no_header = true;
	rtable__begin(&t.sink, &d);
	rtable__row(&t.sink, (struct rt_val[]){ { .s = key }, { .h = h } });
	rtable__end(&t.sink);
}

void stats_table__row(FILE *fp, const char *key, const struct hist *h)
{
	stats_table__row_ex(fp, key, h, 0);
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

struct rt_sink *stats_stamp__sink(struct session *s, union rt_sinks *u, struct stats_stamp *st,
				  uint64_t *since, int when)
{
	FILE *out = session__out(s);
	char buf[64];

	if (session__json(s)) {
		stats_stamp__now(s, since, when, st);
		return rt_json__init(&u->json, out, st);
	}
	if (when != STATS_END) {
		session__fmt_time(s, session__now(s), buf, sizeof(buf));
		fprintf(out, "%s\n", buf);
	}
	return rt_text__init(&u->text, out);
}

size_t stats_drop_line(char *buf, size_t at, size_t len, uint64_t n, const char *who,
		       const char *fmt, ...)
{
	va_list ap;
	int l;

	if (!n || at >= len)
		return at;
	l = snprintf(buf + at, len - at, "%s%s: ", at ? "\n" : "", who);
	if (l < 0 || (size_t)l >= len - at)
		return len;
	at += (size_t)l;
	va_start(ap, fmt);
	l = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	return l < 0 ? at : at + (size_t)l;
}

void stats_note(struct session *s, const char *who, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (session__json(s))
		session__warn(s, "%s", msg);
	else
		fprintf(session__out(s), "%s: %s\n", who, msg);
}
