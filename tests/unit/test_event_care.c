// SPDX-License-Identifier: GPL-2.0
/*
 * event-care on an injected session: samples of two CPUs delivered as the
 * engine delivers them without --order (one ring, then the other), so
 * that CPU 1's come after newer ones of CPU 0: each such sample is one
 * disorder, counted on its CPU with how far back it is; lost records
 * counted per CPU (and the gap across a loss is no gap, on every CPU for a
 * per-thread ring's loss, which has no CPU); the longest time
 * between two events of a CPU; text and JSON of the same rows; -i
 * intervals that add up to the run; -g: each late sample's line and stack,
 * then the newest one delivered before it with its own (JSON: one record);
 * the count check: samples whose counter (PERF_SAMPLE_READ) jumped, UNSEEN
 * per CPU and per event with no lost record, and event-lost's line (JSON:
 * lost_events record) per jump as it comes, before the tables.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt_common.h"
#include "synth_run.h"
#include "ut.h"

#define US 1000ULL

static const char fmt_tick[] =
	"name: tick\n"
	"ID: 4300\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"n=%d\", REC->n\n";

static const struct synth_fmt fmts[] = { { "ectest", fmt_tick }, { NULL, NULL } };

static void tick(struct synth_run *r, struct evsel *ev, u32 cpu, u64 t)
{
	unsigned char raw[12] = { 0 };

	synth_run__tp(r, ev, 10 + cpu, 10 + cpu, cpu, t, raw, sizeof(raw));
}

static void lost(struct synth_run *r, u32 cpu, u64 n, u64 t)
{
	session__inject(r->s, synth__lost(&r->b, n, t, cpu), (int)cpu);
}

/* a tick whose counter (PERF_SAMPLE_READ) reads @count */
static void rtick(struct synth_run *r, struct evsel *ev, u32 cpu, u64 t, u64 count)
{
	unsigned char raw[12] = { 0 };

	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = 10 + cpu,
							      .tid = 10 + cpu,
							      .cpu = cpu,
							      .time = t,
							      .period = 1,
							      .read = count,
							      .raw = raw,
							      .raw_size = sizeof(raw) }),
			(int)cpu);
}

/*
 * Count jumps no lost record tells of (as the kernel's throttled samples
 * would be): CPU 0's counter reads 1, 2, 3 at 100, 200, 300us, then 10 at
 * 900us (6 missing: the gap across them no gap) and 11 at 950us; CPU 1's
 * first reads 5 at 400us (4 missing before it), then 6 at 500us.
 */
static void feed_jumps(struct synth_run *r, struct evsel *ev, u64 t0)
{
	rtick(r, ev, 0, t0 + 100 * US, 1);
	rtick(r, ev, 0, t0 + 200 * US, 2);
	rtick(r, ev, 0, t0 + 300 * US, 3);
	rtick(r, ev, 1, t0 + 400 * US, 5);
	rtick(r, ev, 1, t0 + 500 * US, 6);
	rtick(r, ev, 0, t0 + 900 * US, 10);
	rtick(r, ev, 0, t0 + 950 * US, 11);
}

/* the row starting with @key, or NULL */
static const char *row(const char *out, const char *key, char *buf, size_t len)
{
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char k[64];

		if (sscanf(p, "%63s", k) == 1 && !strcmp(k, key)) {
			const char *e = strchr(p, '\n');

			snprintf(buf, len, "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
			return buf;
		}
	}
	return NULL;
}

/*
 * CPU 0: 100, 200, 300, 400 us; CPU 1: 150, 250 (read after CPU 0's 300:
 * 150 and 50 back), 350 (after 400: 50 back), 7 lost, 500 (new).
 * Disorder: CPU 1, 3 samples, at most 150us back.  Gaps: CPU 0 100us;
 * CPU 1 100us (350->500 spans the loss).
 */
static void feed(struct synth_run *r, struct evsel *ev, u64 t0)
{
	tick(r, ev, 0, t0 + 100 * US);
	tick(r, ev, 0, t0 + 200 * US);
	tick(r, ev, 0, t0 + 300 * US);
	tick(r, ev, 1, t0 + 150 * US);
	tick(r, ev, 1, t0 + 250 * US);
	tick(r, ev, 0, t0 + 400 * US);
	tick(r, ev, 1, t0 + 350 * US);
	lost(r, 1, 7, t0 + 360 * US);
	tick(r, ev, 1, t0 + 500 * US);
}

int main(void)
{
	struct synth_run r;
	struct evsel *ev;
	const char *out;
	char buf[512];
	u64 t0 = 1000000000ULL;

	CHECK(!synth_run__start(&r, "event-care", "-e ectest:tick",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "start: %s", synth_run__err(&r));
	ev = synth_run__evsel(&r, "tick");
	CHECK(ev != NULL, "the event");
	if (ev)
		feed(&r, ev, t0);
	out = synth_run__finish(&r);
	CHECK(strstr(out,
		     "CPU       EVENTS       LOST     UNSEEN   DISORDER   MAX_BACK    MAX_GAP\n") !=
		      NULL,
	      "header: %s", out);
	CHECK(row(out, "0", buf, sizeof(buf)) &&
		      !strcmp(buf, "0              4          0          0          0          -  "
				   "100.000us"),
	      "CPU 0: 4 events, none late, gap 100us: [%s]", buf);
	CHECK(row(out, "1", buf, sizeof(buf)) &&
		      !strcmp(buf, "1              4          7          0          3  150.000us  "
				   "100.000us"),
	      "CPU 1: 4 events, 7 lost, 3 late, 150us back at most, gap 100us: [%s]", buf);
	CHECK(row(out, "all", buf, sizeof(buf)) &&
		      !strcmp(buf, "all            8          7          0          3  150.000us  "
				   "100.000us"),
	      "all: [%s]", buf);
	synth_run__cleanup(&r);

	/* JSON: the same rows */
	CHECK(!synth_run__start(&r, "event-care", "-e ectest:tick --json",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "start --json: %s", synth_run__err(&r));
	ev = synth_run__evsel(&r, "tick");
	if (ev)
		feed(&r, ev, t0);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "\"cpu\":1,\"events\":4,\"lost\":7,\"unseen\":0,\"disorder\":3,"
			  "\"max_back_ns\":150000,\"max_gap_ns\":100000}") != NULL,
	      "JSON CPU 1: %s", out);
	CHECK(strstr(out, "\"cpu\":0,\"events\":4,\"lost\":0,\"unseen\":0,\"disorder\":0,"
			  "\"max_back_ns\":null,\"max_gap_ns\":100000}") != NULL,
	      "JSON CPU 0: %s", out);
	CHECK(strstr(out, "\"cpu\":\"all\",\"events\":8,\"lost\":7,\"unseen\":0,\"disorder\":3,") !=
		      NULL,
	      "JSON all: %s", out);
	synth_run__cleanup(&r);

	/* in order across CPUs: no disorder */
	CHECK(!synth_run__start(&r, "event-care", "-e ectest:tick",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "start: %s", synth_run__err(&r));
	ev = synth_run__evsel(&r, "tick");
	for (int i = 0; ev && i < 10; i++)
		tick(&r, ev, i % 2, t0 + i * US);
	out = synth_run__finish(&r);
	CHECK(row(out, "all", buf, sizeof(buf)) &&
		      !strcmp(buf, "all           10          0          0          0          -   "
				   " 2.000us"),
	      "in order: [%s]", buf);
	synth_run__cleanup(&r);

	/* --order is refused: it would sort the disorder away */
	CHECK(synth_run__start(&r, "event-care", "-e ectest:tick --order",
			       &(struct synth_run_opts){ .fmts = fmts, .init_may_fail = true }) ||
		      r.init_err,
	      "--order refused");
	CHECK(strstr(synth_run__err(&r), "--order would sort away") != NULL, "why: %s",
	      synth_run__err(&r));
	synth_run__cleanup(&r);
	/* -i: each interval its own rows (the end: the last interval's rest) */
	CHECK(!synth_run__start(&r, "event-care", "-e ectest:tick -i 1000",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "start -i: %s", synth_run__err(&r));
	ev = synth_run__evsel(&r, "tick");
	if (ev) {
		feed(&r, ev, t0);
		r.p->ops.interval(r.s, r.priv);
		feed(&r, ev, t0 + 1000000 * US);
	}
	out = synth_run__finish(&r);
	{
		const char *a = strstr(
				   out,
				   "all            8          7          0          3  150.000us"),
			   *b;

		b = a ? strstr(a + 1,
			       "all            8          7          0          3  150.000us")
		      : NULL;
		CHECK(a && b && !strstr(b + 1, "\nall "), "two intervals of the same rows: %s",
		      out);
		CHECK(strstr(out, "\n1              4          7          0          3  150.000us  "
				  "999.650ms\n"),
		      "the gap across the intervals is the second's (CPU 1: 500us to 1s + "
		      "150us): %s",
		      out);
	}
	synth_run__cleanup(&r);

	/*
	 * A per-thread ring's loss (-p/-t) comes with no CPU: the gap across
	 * it is no gap on any CPU.  CPU 0: 100, 200us, a loss, 900, 950us;
	 * CPU 1: 120, 180us, the loss, 990us: gaps 100us and 60us, not 700
	 * and 810.
	 */
	CHECK(!synth_run__start(&r, "event-care", "-e ectest:tick",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "start: %s", synth_run__err(&r));
	ev = synth_run__evsel(&r, "tick");
	if (ev) {
		tick(&r, ev, 0, t0 + 100 * US);
		tick(&r, ev, 1, t0 + 120 * US);
		tick(&r, ev, 1, t0 + 180 * US);
		tick(&r, ev, 0, t0 + 200 * US);
		session__inject(r.s, synth__lost(&r.b, 5, t0 + 500 * US, (u32)-1), -1);
		tick(&r, ev, 0, t0 + 900 * US);
		tick(&r, ev, 0, t0 + 950 * US);
		tick(&r, ev, 1, t0 + 990 * US);
	}
	out = synth_run__finish(&r);
	CHECK(row(out, "0", buf, sizeof(buf)) &&
		      !strcmp(buf, "0              4          0          0          0          -  "
				   "100.000us"),
	      "per-thread loss, CPU 0: gap 100us, not 700us across the loss: [%s]", buf);
	CHECK(row(out, "1", buf, sizeof(buf)) &&
		      !strcmp(buf, "1              3          0          0          0          -   "
				   "60.000us"),
	      "per-thread loss, CPU 1: gap 60us, not 810us across the loss: [%s]", buf);
	CHECK(row(out, "-", buf, sizeof(buf)) &&
		      !strcmp(buf, "-              0          5          0          0          -   "
				   "       -"),
	      "the loss on no CPU: [%s]", buf);
	synth_run__cleanup(&r);

	/*
	 * -g: the samples carry kernel stacks of one frame, 0xffffffff81000000
	 * + their time in us: each late one is printed with its stack, then
	 * the newest one before it with its own (CPU 1's 150 after CPU 0's
	 * 300; 250 after 300; 350 after 400), in arrival order even with
	 * stacks.
	 */
	for (int json = 0; json < 2; json++) {
		static const u64 ts[][2] = { { 0, 100 }, { 0, 200 }, { 0, 300 }, { 1, 150 },
					     { 1, 250 }, { 0, 400 }, { 1, 350 } };
		const char *p;
		int n = 0;

		CHECK(!synth_run__start(&r, "event-care",
					json ? "-e ectest:tick -g --json" : "-e ectest:tick -g",
					&(struct synth_run_opts){ .fmts = fmts }),
		      "start -g: %s", synth_run__err(&r));
		ev = synth_run__evsel(&r, "tick");
		for (size_t i = 0; ev && i < sizeof(ts) / sizeof(ts[0]); i++) {
			unsigned char raw[12] = { 0 };
			u64 ips[2] = { PERF_CONTEXT_KERNEL, 0xffffffff81000000ULL + ts[i][1] };

			session__inject(
				r.s,
				synth__sample(&r.b, ev,
					      &(struct synth_sample){ .pid = 10 + (u32)ts[i][0],
								      .tid = 10 + (u32)ts[i][0],
								      .cpu = (u32)ts[i][0],
								      .time = t0 + ts[i][1] * US,
								      .ips = ips,
								      .nr_ips = 2,
								      .raw = raw,
								      .raw_size = sizeof(raw) }),
				(int)ts[i][0]);
		}
		out = synth_run__finish(&r);
		if (!json) {
			CHECK(row(out, "all", buf, sizeof(buf)) &&
				      !strncmp(buf,
					       "all            7          0          0          3  "
					       "150.000us",
					       47),
			      "-g: 3 late, in arrival order: [%s]", buf);
			/* late 150 (its frame +0x96), then 300's (+0x12c) */
			p = strstr(out, "out of order: 150.000us older than the next, delivered "
					"before it\n");
			CHECK(p && strstr(p, "ffffffff81000096") &&
				      strstr(p, "ffffffff81000096") <
					      strstr(p, "the newest delivered before it\n") &&
				      strstr(strstr(p, "the newest delivered before it\n"),
					     "ffffffff8100012c"),
			      "-g: the late one's stack, then the newest's: %s", out);
			for (p = out; (p = strstr(p, "<- out of order: ")); p++)
				n++;
			CHECK(n == 3, "-g: 3 late lines, not %d: %s", n, out);
			for (n = 0, p = out; (p = strstr(p, "<- the newest delivered before it"));
			     p++)
				n++;
			CHECK(n == 3, "-g: 3 newest lines, not %d: %s", n, out);
		} else {
			for (p = out; (p = strstr(p, "{\"type\":\"disorder\",")); p++)
				n++;
			CHECK(n == 3, "-g --json: 3 disorder records, not %d: %s", n, out);
			CHECK(strstr(out,
				     "\"cpu\":1,\"event\":\"ectest:tick\",\"fields\":{\"n\":0},"
				     "\"back_ns\":150000,\"stack\":[") &&
				      strstr(out, "\"newest\":{\"time_ns\":"),
			      "-g --json: the late one, back_ns, its stack, the newest: %s", out);
			CHECK(!strstr(out, "{\"type\":\"newest\""),
			      "-g --json: the newest only inside the record: %s", out);
		}
		synth_run__cleanup(&r);
	}

	/* the count check: UNSEEN per CPU and per event; the events' table */
	CHECK(!synth_run__start(&r, "event-care", "-e ectest:tick",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "start: %s", synth_run__err(&r));
	ev = synth_run__evsel(&r, "tick");
	CHECK(ev && (ev->attr.sample_type & PERF_SAMPLE_READ) && !ev->attr.read_format,
	      "opened with PERF_SAMPLE_READ, the value alone");
	if (ev)
		feed_jumps(&r, ev, t0);
	out = synth_run__finish(&r);
	CHECK(row(out, "0", buf, sizeof(buf)) &&
		      !strcmp(buf, "0              5          0          6          0          -  "
				   "100.000us"),
	      "jumps, CPU 0: 6 unseen, no gap across them: [%s]", buf);
	CHECK(row(out, "1", buf, sizeof(buf)) &&
		      !strcmp(buf, "1              2          0          4          0          -  "
				   "100.000us"),
	      "jumps, CPU 1: 4 unseen before its first: [%s]", buf);
	CHECK(row(out, "all", buf, sizeof(buf)) &&
		      !strcmp(buf, "all            7          0         10          0          -  "
				   "100.000us"),
	      "jumps, all: [%s]", buf);
	CHECK(strstr(out, "EVENT       CPU       EVENTS     UNSEEN\n"
			  "ectest:tick 0              5          6\n"
			  "ectest:tick 1              2          4\n"
			  "ectest:tick all            7         10\n"),
	      "the events' table: %s", out);
	CHECK(!strstr(out, "lost 6 events"), "event-care: no line per jump: %s", out);
	synth_run__cleanup(&r);

	/* event-lost: each jump a line (JSON: a record) as found, then the tables */
	for (int json = 0; json < 2; json++) {
		const char *a, *b, *tab;
		int n;

		CHECK(!synth_run__start(&r, "event-lost",
					json ? "-e ectest:tick --json" : "-e ectest:tick",
					&(struct synth_run_opts){ .fmts = fmts }),
		      "start event-lost: %s", synth_run__err(&r));
		ev = synth_run__evsel(&r, "tick");
		if (ev)
			feed_jumps(&r, ev, t0);
		out = synth_run__finish(&r);
		tab = strstr(out, json ? "{\"type\":\"row\"" : "CPU       EVENTS");
		if (!json) {
			a = strstr(out, " [001] ectest:tick: lost 4 events\n");
			b = strstr(out, " [000] ectest:tick: lost 6 events\n");
			CHECK(a && b && a < b && tab && b < tab,
			      "event-lost: CPU 1's 4, then CPU 0's 6, before the tables: %s", out);
			CHECK(strstr(out, "     11 [001] ectest:tick: lost 4 events\n"),
			      "event-lost: the line's head (tid, CPU): %s", out);
		} else {
			a = strstr(out,
				   "\"tid\":11,\"cpu\":1,\"event\":\"ectest:tick\",\"lost\":4}");
			b = strstr(out,
				   "\"tid\":10,\"cpu\":0,\"event\":\"ectest:tick\",\"lost\":6}");
			n = 0;
			for (const char *p = out;
			     (p = strstr(p, "{\"type\":\"lost_events\",\"time_ns\":")); p++)
				n++;
			CHECK(a && b && a < b && tab && b < tab && n == 2,
			      "event-lost --json: two lost_events records before the rows: %s",
			      out);
			CHECK(strstr(out, "{\"type\":\"event_counts\",\"scope\":\"run\",") &&
				      strstr(out, "\"event\":\"ectest:tick\",\"cpu\":\"all\","
						  "\"events\":7,\"unseen\":10}"),
			      "event-lost --json: the events' rows: %s", out);
		}
		synth_run__cleanup(&r);
	}
	return ut_done("event_care");
}
