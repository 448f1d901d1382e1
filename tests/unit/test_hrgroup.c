// SPDX-License-Identifier: GPL-2.0
/*
 * The high-resolution timer group on synthesized group reads: the leader
 * (cpu-clock, its clock in ns first in each read) and its members' cumulative
 * values, per CPU or per thread.  Per-period counts are differences with
 * the previous sample of the same CPU; a sample after a gap closes k =
 * floor(clock / period) - that of the previous periods and its counts are
 * their total; a read not laid out as the group is refused and counted;
 * what the counters hold after the last sample is the tail.  Then
 * hrcount's table (min/avg/max per period, the maximum's time and CPU, a
 * gap's maximum flagged) and hrtimer's trigger (an expression over the
 * counts by name, _periods) on injected sessions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/counting/hrgroup.h"
#include "engine/session_int.h"
#include "expr/expr.h"
#include "fmt_common.h"
#include "synth_run.h"
#include "ut.h"

#define MS 1000000ULL
#define T0 5000000000ULL

static const char fmt_burst[] =
	"name: burst\n"
	"ID: 4242\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"n=%d\", REC->n\n";

/* '|' separates the arguments: some hold spaces (an expression) */
static int start(struct synth_run *r, const char *prof, const char *args)
{
	static const struct synth_fmt fmts[] = { { "hrt", fmt_burst }, { NULL, NULL } };

	return synth_run__start(r, prof, args,
				&(struct synth_run_opts){ .sep = "|", .fmts = fmts });
}

static struct evsel *leader_of(struct session *s)
{
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
		if (!ev->counting)
			return ev;
	return NULL;
}

/*
 * A leader sample on @cpu (thread @tid) at @time: the group read holds the
 * leader's clock @clock then @nr member values; @nr_read overrides the
 * count written (a read not laid out as the group).
 */
static const struct perf_event_header *group_sample(struct synth *b, struct session *s, u32 cpu,
						    u32 tid, u64 time, u64 clock, const u64 *vals,
						    int nr, int nr_read)
{
	const struct evsel *ld = leader_of(s);
	u64 st = ld->attr.sample_type, id = session__inject_id(ld);
	static const u64 ips[] = { PERF_CONTEXT_KERNEL, 0xffffffff81001000ULL };

	b->len = sizeof(struct perf_event_header);
	if (st & PERF_SAMPLE_IDENTIFIER)
		synth__u64(b, id);
	if (st & PERF_SAMPLE_IP)
		synth__u64(b, 0xffffffff81001000ULL);
	if (st & PERF_SAMPLE_TID)
		synth__u32x2(b, 100, tid);
	if (st & PERF_SAMPLE_TIME)
		synth__u64(b, time);
	if (st & PERF_SAMPLE_CPU)
		synth__u32x2(b, cpu, 0);
	if (st & PERF_SAMPLE_READ) {
		synth__u64(b, nr_read >= 0 ? (u64)nr_read : (u64)nr + 1);
		synth__u64(b, clock);
		synth__u64(b, id);
		for (int i = 0; i < nr; i++) {
			synth__u64(b, vals[i]);
			synth__u64(b, id + 1 + i);
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		synth__u64(b, 2);
		synth__put(b, ips, sizeof(ips));
	}
	return synth__finish(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
}

/* Inject a sample of CPU @cpu (thread 1000 + cpu): two members' cumulative values. */
static void put2(struct synth_run *r, u32 cpu, u64 time, u64 clock, u64 a, u64 b)
{
	u64 v[2] = { a, b };

	session__inject(r->s, group_sample(&r->b, r->s, cpu, 1000 + cpu, time, clock, v, 2, -1),
			(int)cpu);
}

/* Two members, thread @tid. */
static void put1_2(struct synth_run *r, u32 cpu, u32 tid, u64 time, u64 clock, u64 a, u64 b)
{
	u64 v[2] = { a, b };

	session__inject(r->s, group_sample(&r->b, r->s, cpu, tid, time, clock, v, 2, -1), (int)cpu);
}

/* One member, thread @tid. */
static void put1(struct synth_run *r, u32 cpu, u32 tid, u64 time, u64 clock, u64 a)
{
	session__inject(r->s, group_sample(&r->b, r->s, cpu, tid, time, clock, &a, 1, -1),
			(int)cpu);
}

/* The line of @out that has @a (and @b), or NULL. */
static const char *line_with(const char *out, const char *a, const char *b, char *buf, size_t len)
{
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *e = strchr(p, '\n');
		int n = e ? (int)(e - p) : (int)strlen(p);

		snprintf(buf, len, "%.*s", n, p);
		if (strstr(buf, a) && (!b || strstr(buf, b)))
			return buf;
	}
	return NULL;
}

static int count_lines(const char *out, const char *a)
{
	int n = 0;

	for (const char *p = out; (p = strstr(p, a)); p += strlen(a))
		n++;
	return n;
}

/* The hrgroup module alone, on a group added to an injected session. */
static void test_group(void)
{
	struct hrgroup g = { 0 };
	struct engine_conf conf = { 0 };
	struct session *s = session__new(&conf, stderr);
	const char *texts[] = { "cs,hrt:burst", "hrt:burst//alias=b2/" };
	struct synth b;
	struct hrg_period p;
	u64 v[3];
	int ret;

	CHECK(s && !session__add_format(s, "hrt", fmt_burst), "session");
	ret = hrgroup__add(&g, s, 10 * MS, texts, 2);
	CHECK(ret == 0, "add: %s", session__strerror(s) ?: "");
	if (ret)
		return;
	CHECK_INT(g.nr, 3);
	CHECK_STR(g.m[0].name, "cs");
	CHECK_STR(g.m[0].var, "cs");
	CHECK_STR(g.m[1].name, "hrt:burst");
	CHECK_STR(g.m[1].var, "burst");
	CHECK_STR(g.m[2].name, "b2");
	CHECK_STR(g.m[2].var, "b2");
	CHECK(!g.per_thread, "per CPU without -p/-t/--");
	CHECK(g.leader && g.leader->attr.sample_period == 10 * MS &&
		      (g.leader->attr.sample_type & PERF_SAMPLE_READ) &&
		      g.leader->attr.read_format == (PERF_FORMAT_GROUP | PERF_FORMAT_ID),
	      "leader: cpu-clock every 10ms, reading the group");
	for (int i = 0; i < g.nr; i++)
		CHECK(g.m[i].ev->counting && g.m[i].ev->leader == g.leader,
		      "member %d counts in the group", i);
	CHECK(session__inject_begin(s) == 0, "inject");

	/* CPU0: two periods of 10ms, then nothing for 3 (an idle CPU), then 4 closed at once */
	v[0] = 5, v[1] = 7, v[2] = 0;
	{
		struct sample smp;
		const struct perf_event_header *h;

#define SAMPLE(cpu, t, clk, a, b_, c)                                                              \
	do {                                                                                       \
		u64 vv[3] = { a, b_, c };                                                          \
		h = group_sample(&b, s, cpu, 1000 + cpu, t, clk, vv, 3, -1);                       \
		sample__parse(h, g.leader->attr.sample_type, g.leader->attr.read_format, 0, &smp); \
	} while (0)

		SAMPLE(0, T0 + 10 * MS, 10 * MS + 3000, 5, 7, 0);
		CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == 0, "a first sample");
		CHECK(p.key == 0 && p.periods == 1 && p.time == T0 + 10 * MS, "CPU0, 1 period");
		CHECK(p.count[0] == 5 && p.count[1] == 7 && p.count[2] == 0,
		      "counted from 0 at enable: %llu %llu", (unsigned long long)p.count[0],
		      (unsigned long long)p.count[1]);
		SAMPLE(0, T0 + 20 * MS, 20 * MS + 2500, 6, 207, 3);
		CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == 0 && p.periods == 1 &&
			      p.count[0] == 1 && p.count[1] == 200 && p.count[2] == 3,
		      "period 2: the differences");
		/* CPU1 in between: its own base */
		SAMPLE(1, T0 + 21 * MS, 10 * MS + 100, 50, 1, 1);
		CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == 0 && p.key == 1 &&
			      p.periods == 1 && p.count[0] == 50 && p.count[1] == 1,
		      "CPU1 apart from CPU0");
		/* CPU0 after a gap: clock 60.3ms, 4 periods closed at once */
		SAMPLE(0, T0 + 60 * MS, 60 * MS + 300000, 10, 407, 3);
		CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == 0, "after the gap");
		CHECK(p.periods == 4, "4 periods: %llu", (unsigned long long)p.periods);
		CHECK(p.count[0] == 4 && p.count[1] == 200 && p.count[2] == 0,
		      "their total, not spread");
		CHECK_INT(g.nr_gaps, 1);
		/* a late timer (the clock a little past) and an early one still close one period each */
		SAMPLE(0, T0 + 71 * MS, 71 * MS, 10, 408, 3);
		CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == 0 && p.periods == 1, "late: 1");
		SAMPLE(0, T0 + 79 * MS, 79 * MS + 999999, 10, 409, 3);
		CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == 0 && p.periods == 1,
		      "within the same period index: still 1 (never 0)");
		SAMPLE(0, T0 + 90 * MS, 90 * MS + 10, 10, 410, 3);
		CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == 0 && p.periods == 1,
		      "and the next: 1 (%llu)", (unsigned long long)p.periods);
		/* a read of another layout: refused, counted, the state kept */
		h = group_sample(&b, s, 0, 1000, T0 + 100 * MS, 100 * MS, v, 2, -1);
		sample__parse(h, g.leader->attr.sample_type, g.leader->attr.read_format, 0, &smp);
		CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == -EINVAL && g.nr_bad == 1,
		      "2 members where the group has 3: refused");
		CHECK(hrgroup__sample(&g, g.m[0].ev, &smp, &p) == -ENOENT, "not the leader's");
		SAMPLE(0, T0 + 100 * MS, 100 * MS + 10, 12, 410, 3);
		CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == 0 && p.count[0] == 2 &&
			      p.periods == 1,
		      "the next good read continues from the last good one");
#undef SAMPLE
	}

	/* the expression over the counts */
	{
		char err[512];
		struct expr *e = hrgroup__compile(&g, "burst >= 200 && cs < 10", err, sizeof(err));
		u64 c1[3] = { 3, 200, 0 }, c2[3] = { 11, 200, 0 }, c3[3] = { 0, 199, 0 };
		struct hrg_period q = { .periods = 1, .count = c1 };
		struct sample smp = { .cpu = 1 };

		CHECK(e != NULL, "compile: %s", err);
		CHECK(e && hrgroup__match(&g, e, &q, &smp), "200 bursts, 3 cs: true");
		q.count = c2;
		CHECK(e && !hrgroup__match(&g, e, &q, &smp), "11 cs: false");
		q.count = c3;
		CHECK(e && !hrgroup__match(&g, e, &q, &smp), "199: false");
		expr__free(e);
		e = hrgroup__compile(&g, "burst / _periods > 50 && _cpu == 1", err, sizeof(err));
		q.count = c1;
		q.periods = 4;
		CHECK(e && !hrgroup__match(&g, e, &q, &smp), "_periods: 200 over 4 is 50");
		q.periods = 3;
		CHECK(e && hrgroup__match(&g, e, &q, &smp), "over 3: 66");
		expr__free(e);
		e = hrgroup__compile(&g, "b2 + nope > 1", err, sizeof(err));
		CHECK(!e && strstr(err, "unknown name 'nope'") && strstr(err, "cs, burst, b2"),
		      "unknown name: %s", err);
		e = hrgroup__compile(&g, "comm_get(_tid)", err, sizeof(err));
		CHECK(!e && strstr(err, "a condition is a number"), "a string: %s", err);
	}

	/* the tail: the counters hold more than the last samples saw */
	{
		u64 tail[3];
		int pfd[3][2];

		for (int i = 0; i < 3; i++) {
			/* each member one counter (a pipe holding its read) */
			u64 w[3] = { i == 1 ? 460 : 70, 1, 1 };

			if (pipe(pfd[i]) || write(pfd[i][1], w, sizeof(w)) != sizeof(w))
				abort();
			g.m[i].ev->src->cnt = calloc(1, sizeof(*g.m[i].ev->src->cnt));
			g.m[i].ev->src->cnt[0] =
				(struct counter_fd){ .fd = pfd[i][0], .cpu = 0, .tid = -1 };
			g.m[i].ev->src->nr_cnt = 1;
		}
		CHECK(hrgroup__tail(&g, tail) == 0, "tail read");
		/* seen: CPU0 12/410/3 + CPU1 50/1/1 */
		CHECK(tail[0] == 8 && tail[1] == 49 && tail[2] == 66, "tail %llu %llu %llu",
		      (unsigned long long)tail[0], (unsigned long long)tail[1],
		      (unsigned long long)tail[2]);
		/* an ended thread's last values still count as seen */
		for (int i = 0; i < 3; i++) {
			u64 w[3] = { i == 1 ? 460 : 70, 1, 1 };

			if (write(pfd[i][1], w, sizeof(w)) != sizeof(w))
				abort();
		}
		hrgroup__forget(&g, 1);
		CHECK(g.retired[0] == 50 && g.retired[1] == 1, "retired");
		CHECK(hrgroup__tail(&g, tail) == 0 && tail[0] == 8 && tail[1] == 49,
		      "the same tail after CPU1 was forgotten");
		for (int i = 0; i < 3; i++) {
			close(pfd[i][0]);
			close(pfd[i][1]);
		}
	}
	hrgroup__free(&g);
	session__delete(s);
}

static void test_stat(void)
{
	struct hrg_stat a = { 0 }, b = { 0 }, m = { 0 };

	hrg_stat__add(&a, 5, 1, 100, 0);
	hrg_stat__add(&a, 0, 1, 200, 0);
	hrg_stat__add(&a, 30, 3, 300, 0); /* a gap: 30 over 3 periods */
	hrg_stat__add(&a, 20, 1, 400, 0);
	CHECK(a.samples == 4 && a.periods == 6 && a.total == 55, "sums");
	CHECK(a.has_min && a.min == 0, "min 0");
	CHECK(a.max == 30 && a.max_periods == 3 && a.max_time == 300, "max from the gap, flagged");
	hrg_stat__add(&a, 30, 1, 500, 0);
	CHECK(a.max == 30 && a.max_periods == 1 && a.max_time == 500, "a tie: the exact one wins");
	hrg_stat__add(&b, 9, 5, 10, 1);
	CHECK(!b.has_min && b.max == 9 && b.max_periods == 5, "a gap alone gives no min");
	hrg_stat__add(&b, 0, 7, 20, 1);
	CHECK(b.has_min && b.min == 0, "a gap that counted nothing: every period was 0");
	hrg_stat__add(&b, 40, 1, 30, 1);
	hrg_stat__add(&b, 1, 0, 40, 1); /* no period: ignored */
	CHECK(b.samples == 3 && b.total == 49, "0 periods ignored");
	hrg_stat__merge(&m, &a);
	hrg_stat__merge(&m, &b);
	CHECK(m.samples == 8 && m.periods == 20 && m.total == 134 && m.min == 0, "merged sums");
	CHECK(m.max == 40 && m.max_key == 1 && m.max_time == 30, "merged max: CPU1's");
}

/* hrcount on an injected session: the table per interval and in total. */
static void test_hrcount(void)
{
	struct synth_run r;
	const char *out;
	char buf[512];
	u64 t = T0;

	CHECK(start(&r, "hrcount", "-e|cs,hrt:burst|--period|10ms|-i|1000") == 0, "start: %s",
	      r.s ? session__strerror(r.s) ?: "" : "");
	/* CPU1: 100 periods, a burst of 200 in period 50; CPU0: idle but for one sample after 100 */
	for (u64 i = 1; i <= 100; i++) {
		u64 bursts = i >= 50 ? 200 : 0;

		put2(&r, 1, t + i * 10 * MS, i * 10 * MS + 5000, i, bursts + i / 10);
	}
	put2(&r, 0, t + 1000 * MS, 1000 * MS + 7000, 3, 0);
	r.p->ops.interval(r.s, r.priv);
	fflush(r.fp);
	out = r.out;
	CHECK(out && strstr(out, "hrcount: ") &&
		      strstr(out, "period 10.000ms: 200 periods in 101 samples"),
	      "interval head: %s", out ? out : "");
	CHECK(line_with(out, "hrt:burst", NULL, buf, sizeof(buf)) != NULL, "a burst row");
	{
		char name[64], tot[32], mn[32], avg[32], mx[32], at[32], cpu[16];
		unsigned long long per;

		/* burst: 200 + 10 (i/10 from 0 to 10) over 200 periods: max 201 at period 50, CPU1 */
		CHECK(sscanf(buf, "%63s %llu %31s %31s %31s %31s %31s %15s", name, &per, tot, mn,
			     avg, mx, at, cpu) == 8,
		      "row: %s", buf);
		CHECK(per == 200, "periods %llu", per);
		CHECK(!strcmp(tot, "210"), "tot: %s", tot);
		CHECK(!strcmp(mn, "0"), "mn: %s", mn);
		CHECK(!strcmp(avg, "1.05"), "avg: %s", avg);
		CHECK(!strcmp(mx, "201"), "mx: %s", mx);
		CHECK(!strcmp(cpu, "CPU1"), "cpu: %s", cpu);
	}
	CHECK(line_with(out, "cs ", NULL, buf, sizeof(buf)) && strstr(buf, "(over 100 periods)"),
	      "cs: max 3 from CPU0's gap of 100 periods, flagged: %s", buf);
	CHECK(strstr(buf, " CPU0 "), "at CPU0: %s", buf);
	/* a second interval: one period; the total has both */
	put2(&r, 1, t + 1010 * MS, 1010 * MS + 5000, 101, 220);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "hrcount: total ") && strstr(out, "201 periods in 102 samples"),
	      "total: %s", out);
	CHECK(line_with(strstr(out, "hrcount: total "), "hrt:burst", NULL, buf, sizeof(buf)) &&
		      strstr(buf, " 220 ") && strstr(buf, " 201 "),
	      "total row: 220 in all, max 201: %s", buf);
	synth_run__cleanup(&r);

	/* --perins: a row per CPU */
	CHECK(start(&r, "hrcount", "-e|hrt:burst|-F|100|--perins") == 0, "start --perins");
	put1(&r, 0, 1, T0 + 10 * MS, 10 * MS, 4);
	put1(&r, 1, 2, T0 + 10 * MS, 10 * MS, 9);
	put1(&r, 1, 2, T0 + 20 * MS, 20 * MS, 10);
	{
		u64 v[1] = { 0 };

		/* a leader sample carrying another layout */
		session__inject(r.s, group_sample(&r.b, r.s, 1, 1, T0 + 30 * MS, 30 * MS, v, 0, -1),
				1);
	}
	out = synth_run__finish(&r);
	CHECK(line_with(out, "CPU0 ", "hrt:burst", buf, sizeof(buf)) && strstr(buf, " 4 "),
	      "CPU0 row: %s", out);
	CHECK(line_with(out, "CPU1 ", "hrt:burst", buf, sizeof(buf)) && strstr(buf, " 9 "),
	      "CPU1 row: max 9: %s", buf);
	CHECK(strstr(out, "warning: 1 samples not read as the group"), "the bad read said");
	synth_run__cleanup(&r);
}

/* hrtimer's trigger: a line for each period where the expression holds. */
static void test_hrtimer(void)
{
	struct synth_run r;
	const char *out;
	char buf[512];

	CHECK(start(&r, "hrtimer",
		    "-e|cs,hrt:burst//alias=b/|--period|10ms|-g|b > 100 && cs < 5") == 0,
	      "start: %s", r.s ? session__strerror(r.s) ?: "" : "");
	CHECK(leader_of(r.s) && (leader_of(r.s)->attr.sample_type & PERF_SAMPLE_CALLCHAIN),
	      "-g: stacks");
	for (u64 i = 1; i <= 50; i++) {
		/* bursts of 150 in periods 10, 20, 30; 101 cs in period 20 */
		u64 b = 150 * (i / 10 < 3 ? i / 10 : 3), cs = i + (i >= 20 ? 100 : 0);

		put2(&r, 1, T0 + i * 10 * MS, i * 10 * MS, cs, b);
	}
	put2(&r, 0, T0 + 500 * MS, 500 * MS, 1, 150); /* CPU0: over 50 periods */
	out = synth_run__finish(&r);
	CHECK_INT(count_lines(out, " hrtimer: "), 3);
	CHECK(line_with(out, "[001] hrtimer: cs=1 b=150", NULL, buf, sizeof(buf)), "period 10: %s",
	      out);
	CHECK_INT(count_lines(out, "[001] hrtimer: cs=1 b=150\n"), 2);
	CHECK(!strstr(out, "b=150 cs=101") && !strstr(out, "cs=101 b=150"),
	      "period 20: 101 cs: no");
	CHECK(line_with(out, "[000] hrtimer: cs=1 b=150 (over 50 periods)", NULL, buf, sizeof(buf)),
	      "CPU0's gap: flagged: %s", out);
	CHECK(strstr(out, "hrtimer: 51 samples closed 100 periods, 3 printed ('b > 100 && cs < 5' "
			  "was true)"),
	      "summary: %s", out);
	synth_run__cleanup(&r);

	/* bad input */
	CHECK(start(&r, "hrtimer", "-e|cs|--period|10ms|cs > nosuch") != 0 && r.s &&
		      session__err_is_usage(r.s) &&
		      strstr(session__strerror(r.s), "unknown name 'nosuch' (names: cs, _periods)"),
	      "unknown name: %s", r.s ? session__strerror(r.s) ?: "" : "");
	synth_run__cleanup(&r);
	CHECK(start(&r, "hrtimer", "-e|cs,cs|--period|10ms|cs > 1") != 0 && r.s &&
		      session__err_is_usage(r.s) && strstr(session__strerror(r.s), "alias"),
	      "two 'cs': %s", r.s ? session__strerror(r.s) ?: "" : "");
	synth_run__cleanup(&r);
	/* no --period: a default (1 s), as the original's; not refused */
	CHECK(start(&r, "hrtimer", "-e|cs") == 0, "no period: %s",
	      r.s ? session__strerror(r.s) ?: "" : "");
	synth_run__cleanup(&r);
	CHECK(start(&r, "hrcount", "-e|cs|-F|200000") != 0 && r.s && session__err_is_usage(r.s),
	      "-F too high");
	synth_run__cleanup(&r);
	CHECK(start(&r, "hrcount", "-e|hrt:burst//cpus=999/|--period|1ms") != 0 && r.s &&
		      session__err_is_usage(r.s) && strstr(session__strerror(r.s), "cpus="),
	      "cpus= beyond the host refused: %s", r.s ? session__strerror(r.s) ?: "" : "");
	synth_run__cleanup(&r);
}

/*
 * cpus=1 on a member: the group's read on CPU 1 holds it, on CPU 0 not
 * (one value fewer); each CPU's read is laid out as its group, and the
 * member's statistics are over CPU 1's periods only.
 */
static void test_cpus(void)
{
	struct synth_run r;
	char buf[512], name[64];
	unsigned long long per, tot;
	u64 t = T0;

	CHECK(start(&r, "hrcount", "-e|cs,hrt:burst//cpus=1/|--period|10ms|-C|0,1") == 0,
	      "start: %s", r.s ? session__strerror(r.s) ?: "" : "");
	if (!r.s || !r.p)
		return;
	for (u64 i = 1; i <= 10; i++) {
		put2(&r, 1, t + i * 10 * MS, i * 10 * MS + 5000, i, 7 * i);
		put1(&r, 0, 1000, t + i * 10 * MS + 1, i * 10 * MS + 5000, 2 * i);
	}
	r.p->ops.interval(r.s, r.priv);
	fflush(r.fp);
	CHECK(r.out && strstr(r.out, "20 periods in 20 samples"), "both CPUs' samples read: %s",
	      r.out ? r.out : "");
	CHECK(line_with(r.out, "hrt:burst", NULL, buf, sizeof(buf)) &&
		      sscanf(buf, "%63s %llu %llu", name, &per, &tot) == 3 && per == 10 &&
		      tot == 70,
	      "burst: CPU 1's 10 periods, 70: %s", buf);
	CHECK(line_with(r.out, "cs ", NULL, buf, sizeof(buf)) &&
		      sscanf(buf, "%63s %llu %llu", name, &per, &tot) == 3 && per == 20 &&
		      tot == 30,
	      "cs: both CPUs' 20 periods, 10 + 20: %s", buf);
	synth_run__cleanup(&r);
}

/*
 * Per thread (-p): the engine opens a group for each thread on each CPU:
 * each has its own clock and counts from 0, the differences are per thread
 * and CPU, reported by thread; an ended thread is forgotten on every CPU;
 * a clock that goes back is a new group (a thread id reused).
 */
static void test_threads(void)
{
	struct synth_run r;
	const char *out;

	CHECK(start(&r, "hrtimer", "-e|cs,hrt:burst|--period|10ms|-p|1") == 0, "start -p: %s",
	      r.s ? session__strerror(r.s) ?: "" : "");
	put1_2(&r, 0, 77, T0, 10 * MS, 1, 2);
	/* the same thread on CPU1: its group there, from 0, 2 periods of its time on CPU1 */
	put1_2(&r, 1, 77, T0 + 10 * MS, 20 * MS + 5, 3, 4);
	/* back on CPU0: from its CPU0 values */
	put1_2(&r, 0, 77, T0 + 20 * MS, 20 * MS + 7, 5, 6);
	put1_2(&r, 1, 78, T0 + 11 * MS, 10 * MS, 5, 5);
	session__inject(r.s, synth__task(&r.b, PERF_RECORD_EXIT, 100, 1, 78, 1, T0 + 12 * MS, 1),
			1);
	/* a new thread 78: from 0 */
	put1_2(&r, 0, 78, T0 + 30 * MS, 10 * MS, 1, 1);
	/* 77's id reused without an exit seen: its clock on CPU1 went back, from 0 */
	put1_2(&r, 1, 77, T0 + 40 * MS, 10 * MS + 9, 2, 2);
	out = synth_run__finish(&r);
	CHECK_INT(count_lines(out, " hrtimer: cs="), 6);
	CHECK(strstr(out, "[000] hrtimer: cs=1 burst=2\n"), "77 on CPU0: %s", out);
	CHECK(strstr(out, "[001] hrtimer: cs=3 burst=4 (over 2 periods)\n"),
	      "77 on CPU1: its own group: %s", out);
	CHECK(strstr(out, "[000] hrtimer: cs=4 burst=4\n"), "77 back on CPU0");
	CHECK(strstr(out, "[001] hrtimer: cs=5 burst=5\n"), "78 from 0");
	CHECK(strstr(out, "[000] hrtimer: cs=1 burst=1\n"), "78 again, from 0");
	CHECK(strstr(out, "[001] hrtimer: cs=2 burst=2\n"), "77 reused, from 0");
	CHECK(strstr(out, "hrtimer: 6 samples closed 7 periods, 6 printed"), "summary: %s", out);
	synth_run__cleanup(&r);

	/* hrcount --perins -p: rows by thread, periods summed over its CPUs */
	CHECK(start(&r, "hrcount", "-e|hrt:burst|--period|10ms|--perins|-p|1") == 0, "start -p");
	put1(&r, 0, 77, T0, 10 * MS, 100);
	put1(&r, 1, 77, T0 + 5 * MS, 10 * MS, 7);
	put1(&r, 0, 77, T0 + 10 * MS, 20 * MS, 100);
	out = synth_run__finish(&r);
	{
		char buf[512];

		CHECK(line_with(strstr(out, "hrcount: total"), ":77 ", "hrt:burst", buf,
				sizeof(buf)) &&
			      strstr(buf, " 3 ") && strstr(buf, " 107 ") && strstr(buf, " 100 "),
		      "77: 3 periods, 107 in all, max 100: %s", out);
	}
	synth_run__cleanup(&r);

	/* -C with a command counts the CPUs (every task on them), not the command's threads */
	CHECK(start(&r, "hrcount", "-e|hrt:burst|--period|10ms|--perins|-C|1|--|true") == 0,
	      "start -C 1 -- true: %s", r.s ? session__strerror(r.s) ?: "" : "");
	put1(&r, 1, 77, T0, 10 * MS, 3);
	put1(&r, 1, 78, T0 + 10 * MS, 20 * MS, 5);
	out = synth_run__finish(&r);
	{
		char buf[512];

		CHECK(line_with(strstr(out, "hrcount: total"), "CPU1 ", "hrt:burst", buf,
				sizeof(buf)) &&
			      strstr(buf, " 2 ") && strstr(buf, " 5 ") && strstr(buf, " 3 "),
		      "one CPU1 row: 2 periods, 5 in all, max 3: %s", out);
		CHECK(!strstr(out, ":77 ") && !strstr(out, ":78 "), "no thread rows: %s", out);
	}
	synth_run__cleanup(&r);
	CHECK(start(&r, "hrcount", "-e|hrt:burst|--period|10ms|--perins|--|true") == 0,
	      "start -- true");
	put1(&r, 1, 77, T0, 10 * MS, 3);
	out = synth_run__finish(&r);
	CHECK(strstr(out, ":77 "), "a command alone: per thread: %s", out);
	synth_run__cleanup(&r);
}

/*
 * Hours of thread churn (--perins -p): past 1024 threads that ended, their
 * rows are folded into one "(exited)" row at an interval's end; the totals
 * stay whole.
 */
static void test_churn(void)
{
	struct synth_run r;
	const char *out;
	char buf[512];

	CHECK(start(&r, "hrcount", "-e|hrt:burst|--period|10ms|--perins|-p|1") == 0, "start");
	for (u32 tid = 2000; tid < 3100; tid++) {
		put1(&r, 0, tid, T0 + tid, 10 * MS, tid == 2500 ? 9 : 1);
		session__inject(
			r.s, synth__task(&r.b, PERF_RECORD_EXIT, tid, tid, tid, tid, T0 + tid, 0),
			0);
	}
	put1(&r, 1, 5000, T0 + 5000, 10 * MS, 3);
	r.p->ops.interval(r.s, r.priv);
	put1(&r, 1, 5000, T0 + 6000, 20 * MS, 4);
	out = synth_run__finish(&r);
	out = strstr(out, "hrcount: total");
	CHECK(out && strstr(out, "1102 periods in 1102 samples on 1 thread and 1100 more that "
				 "ended, in one row (exited)"),
	      "total head: %s", out ? out : "");
	CHECK(out && line_with(out, "(exited) ", "hrt:burst", buf, sizeof(buf)) &&
		      strstr(buf, " 1100 ") && strstr(buf, " 1,108 ") && strstr(buf, " 9 ") &&
		      strstr(buf, ":2500"),
	      "(exited): 1100 periods, 1108 in all, max 9 by 2500: %s", buf);
	CHECK(out && line_with(out, ":5000 ", "hrt:burst", buf, sizeof(buf)) &&
		      strstr(buf, " 2 ") && strstr(buf, " 4 "),
	      "the live thread: %s", buf);
	CHECK(out && count_lines(out, ":2999 ") == 0, "no row of a folded thread");
	synth_run__cleanup(&r);
}

/*
 * A glob's match the kernel refused: the engine unlinks and frees it at
 * open.  It is not in the group's reads; the others keep their places;
 * nothing follows the freed event (ASan builds would say).
 */
static void test_refused(void)
{
	struct hrgroup g = { 0 };
	struct engine_conf conf = { 0 };
	struct session *s = session__new(&conf, stderr);
	const char *texts[] = { "cs,hrt:burst//alias=b1/,hrt:burst//alias=b2/" };
	struct evsel **pp, *gone;
	struct synth b;
	struct sample smp;
	struct hrg_period p;
	u64 two[2] = { 4, 9 }, three[3] = { 4, 0, 9 };
	const struct perf_event_header *h;
	int ret;

	CHECK(s && !session__add_format(s, "hrt", fmt_burst), "session");
	ret = hrgroup__add(&g, s, 10 * MS, texts, 1);
	CHECK(ret == 0 && g.nr == 3, "add: %s", session__strerror(s) ?: "");
	if (ret || g.nr != 3)
		return;
	/* as drop_refused does: unlink b1 and free it */
	gone = g.m[1].ev;
	for (pp = &s->evsels; *pp != gone; pp = &(*pp)->next)
		;
	*pp = gone->next;
	if (s->tail == &gone->next)
		s->tail = pp;
	s->nr_evsels--;
	free(gone->cpus);
	free(gone->filter);
	free(gone->name);
	free(gone);
	CHECK(session__inject_begin(s) == 0, "inject");
	h = group_sample(&b, s, 0, 1, T0, 10 * MS, two, 2, -1);
	sample__parse(h, g.leader->attr.sample_type, g.leader->attr.read_format, 0, &smp);
	CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == 0, "a read of the leader and 2 members");
	CHECK(g.m[1].skipped && !g.m[1].ev && !g.m[0].skipped && !g.m[2].skipped, "b1 skipped");
	CHECK(g.nr_read == 3 && g.slot[0] == 1 && g.slot[1] == -1 && g.slot[2] == 2, "slots");
	CHECK(p.count[0] == 4 && p.count[1] == 0 && p.count[2] == 9, "cs 4, b1 0, b2 9");
	h = group_sample(&b, s, 0, 1, T0 + 10 * MS, 20 * MS, three, 3, -1);
	sample__parse(h, g.leader->attr.sample_type, g.leader->attr.read_format, 0, &smp);
	CHECK(hrgroup__sample(&g, g.leader, &smp, &p) == -EINVAL && g.nr_bad == 1,
	      "3 members where 2 are open: refused");
	{
		char err[512];
		struct expr *e = hrgroup__compile(&g, "b1 == 0 && b2 == 9", err, sizeof(err));
		u64 c[3] = { 4, 0, 9 };
		struct hrg_period q = { .periods = 1, .count = c };

		CHECK(e && hrgroup__match(&g, e, &q, &smp), "a skipped name reads 0: %s", err);
		expr__free(e);
	}
	hrgroup__free(&g);
	session__delete(s);

	/* an alias that would hide _periods */
	{
		const char *t2[] = { "hrt:burst//alias=_periods/" };
		char err[512];

		s = session__new(&conf, stderr);
		CHECK(s && !session__add_format(s, "hrt", fmt_burst) &&
			      hrgroup__add(&g, s, 10 * MS, t2, 1) == 0,
		      "add _periods");
		CHECK(!hrgroup__compile(&g, "_periods > 1", err, sizeof(err)) &&
			      strstr(err, "'_periods'"),
		      "_periods as an alias: %s", err);
		hrgroup__free(&g);
		session__delete(s);
	}
}

int main(void)
{
	test_group();
	test_stat();
	test_hrcount();
	test_hrtimer();
	test_threads();
	test_refused();
	test_churn();
	test_cpus();
	return ut_done("test_hrgroup");
}
