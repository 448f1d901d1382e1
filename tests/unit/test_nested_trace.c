// SPDX-License-Identifier: GPL-2.0
/*
 * nested-trace on an injected session: local_timer with hrtimer_expire inside,
 * keyed by CPU.  An entry recorded before the last event was enabled (its exit
 * event not on yet) is left out, so that it does not stay open under every
 * later call; without enable times (0) nothing is left out.  Returns without
 * their entry are counted and reported; --returns prints each return indented
 * by depth; --json gives the rows with their paths and exact totals.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt_common.h"
#include "synth_run.h"
#include "ut.h"

#define US 1000ULL
#define T0 1000000000ULL /* when the last event was enabled */

static const char fmt_local_timer_entry[] =
	"name: local_timer_entry\n"
	"ID: 165\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"vector=%d\", REC->vector\n";

static const char fmt_local_timer_exit[] =
	"name: local_timer_exit\n"
	"ID: 164\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"vector=%d\", REC->vector\n";

static const char fmt_hrtimer_expire_entry[] =
	"name: hrtimer_expire_entry\n"
	"ID: 459\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 now;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, REC->function, "
	"(unsigned long long) REC->now\n";

static const char fmt_hrtimer_expire_exit[] =
	"name: hrtimer_expire_exit\n"
	"ID: 458\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"hrtimer=%p\", REC->hrtimer\n";

struct nt {
	struct synth_run h;
	struct evsel *lt_in, *lt_out, *hr_in, *hr_out;
};

/*
 * nested-trace on the two functions, with these options; @enabled: the
 * events enabled from T0 - 1 ms, the last one at T0 (else no enable times).
 */
static int start(struct nt *r, const char *opts, bool enabled)
{
	static const struct synth_fmt fmts[] = { { "irq_vectors", fmt_local_timer_entry },
						 { "irq_vectors", fmt_local_timer_exit },
						 { "timer", fmt_hrtimer_expire_entry },
						 { "timer", fmt_hrtimer_expire_exit },
						 { NULL, NULL } };
	char args[512];

	memset(r, 0, sizeof(*r));
	snprintf(args, sizeof(args),
		 "-e irq_vectors:local_timer_entry,irq_vectors:local_timer_exit "
		 "-e timer:hrtimer_expire_entry,timer:hrtimer_expire_exit %s",
		 opts);
	if (synth_run__start(&r->h, "nested-trace", args, &(struct synth_run_opts){ .fmts = fmts }))
		return -1;
	r->lt_in = synth_run__evsel(&r->h, "local_timer_entry");
	r->lt_out = synth_run__evsel(&r->h, "local_timer_exit");
	r->hr_in = synth_run__evsel(&r->h, "hrtimer_expire_entry");
	r->hr_out = synth_run__evsel(&r->h, "hrtimer_expire_exit");
	if (enabled)
		session__inject_enabled(r->h.s, T0 - 1000 * US, T0);
	return r->lt_in && r->lt_out && r->hr_in && r->hr_out ? 0 : -1;
}

/* one record of @ev on @cpu at @t (the idle task interrupted; fields @ev lacks are skipped) */
static void rec(struct nt *r, struct evsel *ev, u32 cpu, u64 t)
{
	unsigned char raw[32] = { 0 };
	u32 size = ev == r->lt_in || ev == r->lt_out ? 12 : ev == r->hr_in ? 32 : 16;

	if (!ev) /* start failed (checked) */
		return;
	synth__field_u64(ev, raw, "common_pid", 0);
	synth__field_u64(ev, raw, "vector", 236);
	synth__field_u64(ev, raw, "hrtimer", 0xffff888100a0b000ULL);
	synth__field_u64(ev, raw, "function", 0xffffffff81234560ULL);
	synth__field_u64(ev, raw, "now", t);
	session__inject(
		r->h.s,
		synth__sample(&r->h.b, ev,
			      &(struct synth_sample){
				      .cpu = cpu, .time = t, .raw = raw, .raw_size = size }),
		(int)cpu);
}

/*
 * The i-th of five local_timer calls on @cpu: at T0 + (i + 1) ms, lasting
 * 10 + 2i us (70 us in all, 10 to 18), with one hrtimer_expire from 1 us in,
 * lasting 2 + i us (20 us in all, 2 to 6).
 */
static void call(struct nt *r, u32 cpu, u64 i)
{
	u64 t = T0 + (i + 1) * 1000 * US;

	rec(r, r->lt_in, cpu, t);
	rec(r, r->hr_in, cpu, t + 1 * US);
	rec(r, r->hr_out, cpu, t + 1 * US + (2 + i) * US);
	rec(r, r->lt_out, cpu, t + (10 + 2 * i) * US);
}

static void five_calls(struct nt *r, u32 cpu)
{
	for (u64 i = 0; i < 5; i++)
		call(r, cpu, i);
}

/* @out's lines in @l (at most @max; @buf holds them): how many */
static int lines(const char *out, char *buf, size_t len, char **l, int max)
{
	int n = 0;

	snprintf(buf, len, "%s", out);
	for (char *save = NULL, *t = strtok_r(buf, "\n", &save); t && n < max;
	     t = strtok_r(NULL, "\n", &save))
		l[n++] = t;
	return n;
}

/*
 * The table's row of @name indented for @depth: its calls, total, min, avg
 * and max as printed ("70.000us"), the percentiles left out (histogram
 * buckets).  False, with the row printed, when it differs or is missing.
 */
static bool row(const char *out, int depth, const char *name, const char *calls, const char *total,
		const char *min, const char *avg, const char *max)
{
	char buf[8192], *l[64], c[6][32];
	int n = lines(out, buf, sizeof(buf), l, 64);

	for (int i = 0; i < n; i++) {
		const char *p = l[i];
		int sp = (int)strspn(p, " ");

		if (sp != 2 * depth || strncmp(p + sp, name, strlen(name)) ||
		    p[sp + strlen(name)] != ' ')
			continue;
		if (sscanf(p, "%31s %31s %31s %31s %31s %*s %*s %*s %31s", c[0], c[1], c[2], c[3],
			   c[4], c[5]) == 6 &&
		    !strcmp(c[1], calls) && !strcmp(c[2], total) && !strcmp(c[3], min) &&
		    !strcmp(c[4], avg) && !strcmp(c[5], max))
			return true;
		printf("# row: '%s'\n", p);
		return false;
	}
	printf("# no row '%*s%s' in:\n%s", 2 * depth, "", name, out);
	return false;
}

/* how many table rows @out has: the lines under the title but the drop lines */
static int nr_rows(const char *out)
{
	char buf[8192], *l[64];
	int n = lines(out, buf, sizeof(buf), l, 64), rows = -1;

	for (int i = 0; i < n; i++) {
		if (!strncmp(l[i], "CALL ", 5))
			rows = 0;
		else if (rows >= 0 && strncmp(l[i], "nested-trace: ", 14))
			rows++;
	}
	return rows;
}

static int count(const char *out, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(out, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * The table of five_calls: local_timer at @depth (5 calls, 70 us, 10 to 18),
 * hrtimer_expire under it (5 calls, 20 us, 2 to 6), no other row.
 */
static bool five_rows(const char *out, int depth)
{
	return row(out, depth, "local_timer", "5", "70.000us", "10.000us", "14.000us",
		   "18.000us") &&
	       row(out, depth + 1, "hrtimer_expire", "5", "20.000us", "2.000us", "4.000us",
		   "6.000us") &&
	       nr_rows(out) == 2;
}

/* (a) (b) (c): an entry before the last event was enabled, and without enable times */
static void test_early_entry(void)
{
	struct nt r;
	const char *out;
	char *with_early = NULL;

	/* (a) an entry 100 us before everything was on, its exit never seen */
	CHECK(start(&r, "", true) == 0, "start: %s", synth_run__err(&r.h));
	rec(&r, r.lt_in, 0, T0 - 100 * US);
	five_calls(&r, 0);
	out = synth_run__finish(&r.h);
	CHECK(five_rows(out, 0), "local_timer at depth 0, hrtimer_expire at 1: the entry left out");
	CHECK(!strstr(out, "nested-trace:"), "nothing dropped: it is not counted anywhere:\n%s",
	      out);
	with_early = strdup(out);
	synth_run__cleanup(&r.h);

	/* (b) the same calls without the early entry: the same table */
	CHECK(start(&r, "", true) == 0, "start: %s", synth_run__err(&r.h));
	five_calls(&r, 0);
	out = synth_run__finish(&r.h);
	CHECK(with_early && !strcmp(out, with_early), "the same table with and without it:\n%s\n%s",
	      out, with_early ? with_early : "");
	free(with_early);
	synth_run__cleanup(&r.h);

	/*
	 * (c) no enable times (0, as session__all_enabled_time before the
	 * start): nothing is left out; the entry at time 1 stays open and every
	 * later call nests under it, one level deeper, as before the fix.  It
	 * never returns: no row of its own, and the end says it is still open.
	 */
	CHECK(start(&r, "--returns", false) == 0, "start: %s", synth_run__err(&r.h));
	rec(&r, r.lt_in, 0, 1);
	five_calls(&r, 0);
	out = synth_run__finish(&r.h);
	CHECK(five_rows(out, 1), "all_enabled 0: the calls nest under the early entry (depth 1)");
	CHECK(count(out, "nested-trace:") == 1 &&
		      strstr(out, "\nnested-trace: 1 call still open at the end (no exit seen)\n"),
	      "the open entry said at the end, nothing else:\n%s", out);
	CHECK(count(out, "|   local_timer  ") == 5 && count(out, "|     hrtimer_expire  ") == 5 &&
		      count(out, "| local_timer") == 0,
	      "--returns indents them one level deeper too:\n%s", out);
	synth_run__cleanup(&r.h);

	/* the edge: an entry 1 ns before the last enable is left out, one at it is kept */
	CHECK(start(&r, "", true) == 0, "start: %s", synth_run__err(&r.h));
	rec(&r, r.lt_in, 0, T0 - 1);
	rec(&r, r.lt_in, 0, T0);
	rec(&r, r.lt_out, 0, T0 + 7 * US);
	out = synth_run__finish(&r.h);
	CHECK(row(out, 0, "local_timer", "1", "7.000us", "7.000us", "7.000us", "7.000us") &&
		      nr_rows(out) == 1,
	      "T0 - 1 left out, T0 kept:\n%s", out);
	synth_run__cleanup(&r.h);
}

/* (d) returns without their entry: counted, reported under the table */
static void test_orphans(void)
{
	struct nt r;
	const char *out;

	CHECK(start(&r, "", true) == 0, "start: %s", synth_run__err(&r.h));
	rec(&r, r.lt_out, 1, T0 + 500 * US); /* CPU 1: no entry before */
	rec(&r, r.hr_out, 1, T0 + 600 * US);
	five_calls(&r, 0);
	rec(&r, r.lt_in, 0, T0 + 7000 * US); /* keyed by CPU: this entry is not CPU 1's */
	rec(&r, r.lt_out, 1, T0 + 7005 * US);
	out = synth_run__finish(&r.h);
	CHECK(five_rows(out, 0), "the calls of CPU 0 as before");
	CHECK(strstr(out,
		     "\nnested-trace: 3 returns without their entry (not seen, or filtered)\n") &&
		      strstr(out,
			     "\nnested-trace: 1 call still open at the end (no exit seen)\n") &&
		      count(out, "nested-trace:") == 2,
	      "3 orphan exits in the drop line, CPU 0's last entry still open:\n%s", out);
	synth_run__cleanup(&r.h);
}

/* (e) --returns: each return as it comes, indented by depth, with its duration */
static void test_returns(void)
{
	static const char *const want[] = {
		"[000]       0 |   hrtimer_expire  2.000us",
		"[000]       0 | local_timer  10.000us",
		"[000]       0 |   hrtimer_expire  3.000us",
		"[000]       0 | local_timer  12.000us",
		"[000]       0 |   hrtimer_expire  4.000us",
		"[000]       0 | local_timer  14.000us",
		"[000]       0 |   hrtimer_expire  5.000us",
		"[000]       0 | local_timer  16.000us",
		"[000]       0 |   hrtimer_expire  6.000us",
		"[000]       0 | local_timer  18.000us",
	};
	char buf[8192], *l[64];
	struct nt r;
	const char *out;
	int n, ok = 0;

	CHECK(start(&r, "--returns", true) == 0, "start: %s", synth_run__err(&r.h));
	five_calls(&r, 0);
	out = synth_run__finish(&r.h);
	n = lines(out, buf, sizeof(buf), l, 64);
	for (int i = 0; i < n && i < 10; i++) {
		const char *p = strstr(l[i], " [");

		/* "TIME [CPU] KEY | ...": the time first */
		ok += p && p > l[i] && l[i][0] >= '0' && l[i][0] <= '9' && !strcmp(p + 1, want[i]);
	}
	CHECK(ok == 10, "the 10 returns in order, indented by depth:\n%s", out);
	CHECK(n == 13 && !strncmp(l[10], "CALL ", 5) && five_rows(out, 0), "then the table:\n%s",
	      out);
	synth_run__cleanup(&r.h);
}

/* (f) --json: the rows with their paths and exact totals, returns, the drops */
static void test_json(void)
{
	char buf[8192], *l[64];
	struct nt r;
	const char *out;
	int n, json = 0, rows = 0, ret = 0, ok = 0;

	CHECK(start(&r, "--json --returns", true) == 0, "start: %s", synth_run__err(&r.h));
	rec(&r, r.lt_in, 0, T0 - 100 * US); /* left out */
	five_calls(&r, 0);
	rec(&r, r.hr_out, 1, T0 + 9000 * US); /* an orphan */
	out = synth_run__finish(&r.h);
	n = lines(out, buf, sizeof(buf), l, 64);
	for (int i = 0; i < n; i++) {
		char want[128];

		json += l[i][0] == '{' && l[i][strlen(l[i]) - 1] == '}';
		rows += !!strstr(l[i], "{\"type\":\"row\",");
		if (!strstr(l[i], "{\"type\":\"return\","))
			continue;
		/* the i-th return: hrtimer_expire (depth 1), then its local_timer */
		snprintf(want, sizeof(want), "\"func\":\"%s\",\"depth\":%d,\"duration_ns\":%llu}",
			 ret % 2 ? "local_timer" : "hrtimer_expire", ret % 2 ? 0 : 1,
			 ret % 2 ? (10 + 2 * (ret / 2ULL)) * US : (2 + ret / 2ULL) * US);
		ok += !!strstr(l[i], want) && strstr(l[i], "\"cpu\":0,\"key\":0,");
		ret++;
	}
	CHECK(n == 13 && json == n, "JSON lines only (10 returns, 2 rows, the drops):\n%s", out);
	CHECK(ret == 10 && ok == 10, "the returns: func, depth, duration_ns:\n%s", out);
	CHECK(rows == 2, "two rows:\n%s", out);
	CHECK(strstr(out, "\"func\":\"local_timer\",\"depth\":0,\"path\":[\"local_timer\"],"
			  "\"count\":5,\"total_ns\":70000,\"min_ns\":10000,\"avg_ns\":14000,") &&
		      strstr(out, "\"max_ns\":18000}"),
	      "local_timer's row:\n%s", out);
	CHECK(strstr(out, "\"func\":\"hrtimer_expire\",\"depth\":1,"
			  "\"path\":[\"local_timer\",\"hrtimer_expire\"],\"count\":5,"
			  "\"total_ns\":20000,\"min_ns\":2000,\"avg_ns\":4000,") &&
		      strstr(out, "\"max_ns\":6000}"),
	      "hrtimer_expire's row, under local_timer:\n%s", out);
	CHECK(strstr(out, "{\"type\":\"dropped\",\"scope\":\"run\",") &&
		      strstr(out,
			     "\"what\":\"calls\",\"unwound\":0,\"orphan_exits\":1,\"lost\":0,"),
	      "the orphan in the dropped line:\n%s", out);
	synth_run__cleanup(&r.h);
}

/*
 * (g) the tree's own hooks: records lost drop every open call; keyed by
 * thread (-t), a task's exit drops its open calls, keyed by CPU it does not.
 */
static void test_lost_exit(void)
{
	struct nt r;
	const char *out;

	CHECK(start(&r, "", true) == 0, "start: %s", synth_run__err(&r.h));
	rec(&r, r.lt_in, 0, T0 + 1000 * US);
	rec(&r, r.hr_in, 0, T0 + 1001 * US);
	session__inject(r.h.s, synth__lost(&r.h.b, 3, T0 + 1002 * US, 0), 0);
	rec(&r, r.lt_in, 1, T0 + 1003 * US);
	/* by CPU: an exit forgets nothing */
	session__inject(r.h.s, synth__task(&r.h.b, PERF_RECORD_EXIT, 0, 0, 0, 0, T0 + 1004 * US, 1),
			1);
	rec(&r, r.lt_out, 1, T0 + 1013 * US);
	out = synth_run__finish(&r.h);
	CHECK(out && strstr(out, "\nnested-trace: 2 open calls dropped after lost events\n") &&
		      !strstr(out, "their task exited") &&
		      row(out, 0, "local_timer", "1", "10.000us", "10.000us", "10.000us",
			  "10.000us") &&
		      nr_rows(out) == 1,
	      "the lost record drops CPU 0's two open calls, the exit none:\n%s", out);
	synth_run__cleanup(&r.h);

	CHECK(start(&r, "-t 1", true) == 0, "start -t: %s", synth_run__err(&r.h));
	rec(&r, r.lt_in, 0, T0 + 1000 * US);
	rec(&r, r.hr_in, 0, T0 + 1001 * US);
	session__inject(r.h.s, synth__task(&r.h.b, PERF_RECORD_EXIT, 0, 0, 0, 0, T0 + 1002 * US, 0),
			0);
	rec(&r, r.lt_out, 0, T0 + 1010 * US);
	out = synth_run__finish(&r.h);
	CHECK(out && strstr(out, "\nnested-trace: 2 open calls dropped: their task exited\n") &&
		      strstr(out, "\nnested-trace: 1 returns without their entry"),
	      "keyed by thread, the exit drops its two open calls:\n%s", out);
	synth_run__cleanup(&r.h);
}

int main(void)
{
	test_early_entry();
	test_orphans();
	test_returns();
	test_json();
	test_lost_exit();
	return ut_done("test_nested_trace");
}
