// SPDX-License-Identifier: GPL-2.0
/*
 * Gap detection (analysis/gapwatch) on synthesized streams, then irq-off
 * and watchdog on injected sessions: a timer gap of known length is found
 * with that length, shorter ones are not, gaps of idle CPUs are not
 * reported, a gap that ends in user mode is a stall; the watchdog's
 * thresholds are approached once per episode, on the right CPU, with the
 * samples taken meanwhile (--json: a list in the warning's record; with
 * --dump DIR that output in DIR/watchdog.json).  (No user-space program
 * can hold interrupts off for seconds: this is where the lockup logic is
 * tested.)
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/cpu/gapwatch.h"
#include "expr_formats.h"
#include "fmt_common.h"
#include "sym/symaddr.h"
#include "synth_run.h"
#include "ut.h"

#define US 1000ULL
#define MS 1000000ULL
#define SEC 1000000000ULL
#define KIP 0xffffffff81000000ULL /* a kernel ip */

static const char fmt_hrtimer[] =
	"name: hrtimer_expire_entry\n"
	"ID: 459\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 now;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, "
	"REC->function, (unsigned long long) REC->now\n";

/* ---- the module itself ---- */

static u64 times[64];
static unsigned nr_times;

static void collect(void *arg, const struct sample *smp)
{
	(void)arg;
	if (nr_times < 64)
		times[nr_times++] = smp->time;
}

static void module_tests(void)
{
	struct gapwatch *g = gapwatch__new(2, 4);
	struct gw_tick_info t;
	struct gw_stats st;
	u64 t0 = 10 * SEC, age, since;

	CHECK(g != NULL, "gapwatch__new");
	CHECK(!gapwatch__new(0, 0) && !gapwatch__new(GW_MAX_CLOCKS + 1, 0), "bad clock counts");
	/* a 1ms timer on CPU 0 with the limit at 21ms */
	CHECK_INT(gapwatch__tick(g, 0, 0, t0, 100, 21 * MS, &t), GW_FIRST);
	for (int i = 1; i <= 5; i++)
		CHECK_INT(gapwatch__tick(g, 0, 0, t0 + i * MS, 100, 21 * MS, &t), GW_NORMAL);
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 15 * MS, 100, 21 * MS, &t), GW_NORMAL);
	CHECK_INT(t.gap, 10 * MS);
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 40 * MS, 100, 21 * MS, &t), GW_GAP);
	CHECK_INT(t.gap, 25 * MS);
	CHECK_INT(t.prev, t0 + 15 * MS);
	/* exactly the limit is a gap; a record out of order is none */
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 61 * MS, 100, 21 * MS, &t), GW_GAP);
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 50 * MS, 100, 21 * MS, &t), GW_NORMAL);
	CHECK_INT(t.gap, 0);
	/* idle: the previous tick in the idle task; a switch to idle between; idle now */
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 62 * MS, 0, 21 * MS, &t), GW_NORMAL);
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 100 * MS, 100, 21 * MS, &t), GW_IDLE);
	gapwatch__idle(g, 0, t0 + 105 * MS, true);
	gapwatch__idle(g, 0, t0 + 130 * MS, false);
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 131 * MS, 100, 21 * MS, &t), GW_IDLE);
	gapwatch__idle(g, 0, t0 + 140 * MS, true);
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 200 * MS, 7, 21 * MS, &t), GW_IDLE);
	gapwatch__idle(g, 0, t0 + 201 * MS, false);
	/* an idle period long before the previous tick does not matter */
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 202 * MS, 7, 21 * MS, &t), GW_NORMAL);
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 232 * MS, 7, 21 * MS, &t), GW_GAP);
	CHECK_INT(t.gap, 30 * MS);
	st = gapwatch__stats(g, 0, 0);
	CHECK_INT(st.gaps, 3);
	CHECK_INT(st.idle_gaps, 3);
	CHECK_INT(st.longest, 30 * MS);
	CHECK_INT(st.longest_at, t0 + 232 * MS);
	CHECK_INT(st.ticks, 16); /* the one out of order too */
	/* a loss: no gap measured across it */
	gapwatch__forget(g, 0);
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 900 * MS, 7, 21 * MS, &t), GW_FIRST);
	CHECK_INT(gapwatch__tick(g, 0, 0, t0 + 901 * MS, 7, 21 * MS, &t), GW_NORMAL);
	CHECK_INT(gapwatch__stats(g, 1, 0).ticks, 0);
	CHECK_INT(gapwatch__stats(g, 0, 77).ticks, 0);

	/* overdue: clock 1 of CPU 3, warned at 5s */
	gapwatch__tick(g, 1, 3, t0, 50, 0, NULL);
	CHECK(!gapwatch__overdue(g, 1, 3, t0 + 4 * SEC, 5 * SEC, &age, &since), "4s: not yet");
	CHECK_INT(age, 4 * SEC);
	CHECK(gapwatch__overdue(g, 1, 3, t0 + 5 * SEC, 5 * SEC, &age, &since), "5s: overdue");
	CHECK_INT(age, 5 * SEC);
	CHECK_INT(since, t0);
	CHECK(!gapwatch__overdue(g, 1, 3, t0 + 6 * SEC, 5 * SEC, &age, NULL), "once per episode");
	CHECK(!gapwatch__overdue(g, 0, 3, t0 + 6 * SEC, 5 * SEC, NULL, NULL),
	      "another clock: its own age, from its first question");
	gapwatch__tick(g, 1, 3, t0 + 7 * SEC, 50, 0, &t);
	CHECK(t.overdue, "the tick ends the episode");
	CHECK_INT(t.gap, 7 * SEC);
	gapwatch__tick(g, 1, 3, t0 + 8 * SEC, 50, 0, &t);
	CHECK(!t.overdue, "the next tick ends nothing");
	CHECK(gapwatch__overdue(g, 1, 3, t0 + 13 * SEC, 5 * SEC, &age, &since), "a new episode");
	/* idle: no age while idle, and it counts from the idle exit after */
	gapwatch__idle(g, 3, t0 + 14 * SEC, true);
	CHECK(!gapwatch__overdue(g, 1, 3, t0 + 30 * SEC, 5 * SEC, &age, NULL) && age == 0,
	      "idle: age 0 (%llu)", (unsigned long long)age);
	gapwatch__idle(g, 3, t0 + 31 * SEC, false);
	CHECK(!gapwatch__overdue(g, 1, 3, t0 + 35 * SEC, 5 * SEC, &age, &since), "4s busy");
	CHECK_INT(since, t0 + 31 * SEC);
	CHECK(gapwatch__overdue(g, 1, 3, t0 + 36 * SEC, 5 * SEC, &age, &since), "5s busy");
	gapwatch__tick(g, 1, 3, t0 + 37 * SEC, 50, 0, &t);
	CHECK(t.overdue, "episode after idle ended by a tick");
	st = gapwatch__stats(g, 1, 3);
	CHECK_INT(st.episodes, 3);
	CHECK_INT(st.worst, 7 * SEC);
	/* a CPU never ticked: from the first question */
	CHECK(!gapwatch__overdue(g, 0, 5, t0, SEC, &age, NULL), "first question");
	CHECK(gapwatch__overdue(g, 0, 5, t0 + 2 * SEC, SEC, &age, &since) && since == t0,
	      "never ticked: overdue from the first question");
	/* a tick in the idle task is a moment the CPU was idle: every clock's age runs from it */
	gapwatch__tick(g, 1, 4, t0, 9, 0, NULL);
	gapwatch__tick(g, 0, 4, t0 + 3 * SEC, 0, 0, NULL);
	CHECK(!gapwatch__overdue(g, 1, 4, t0 + 4 * SEC, 2 * SEC, &age, &since) &&
		      since == t0 + 3 * SEC && age == SEC,
	      "clock 1 from clock 0's idle tick: since %llu age %llu", (unsigned long long)since,
	      (unsigned long long)age);
	CHECK_INT(gapwatch__nr_cpus(g), 6);

	/* the ring: the last 4 samples of a CPU, oldest first, from a time on */
	for (int i = 0; i < 6; i++) {
		struct sample smp = { .cpu = 2, .time = t0 + i * MS, .ip = KIP + i };

		CHECK_INT(gapwatch__keep(g, &smp), 0);
	}
	nr_times = 0;
	CHECK_INT(gapwatch__kept(g, 2, 0, collect, NULL), 4);
	CHECK(nr_times == 4 && times[0] == t0 + 2 * MS && times[3] == t0 + 5 * MS,
	      "the last four, oldest first");
	nr_times = 0;
	CHECK_INT(gapwatch__kept(g, 2, t0 + 4 * MS, collect, NULL), 2);
	CHECK_INT(gapwatch__kept(g, 1, 0, collect, NULL), 0);
	gapwatch__delete(g);
	gapwatch__delete(NULL);
}

/* ---- the profilers on injected sessions ---- */

static int start_json(struct synth_run *r, const char *name, const char *args, bool json)
{
	static const struct synth_fmt fmts[] = { { "timer", fmt_hrtimer },
						 { "sched", fmt_sched_switch },
						 { NULL, NULL } };

	return synth_run__start(r, name, args,
				&(struct synth_run_opts){ .fmts = fmts, .json = json });
}

static int start(struct synth_run *r, const char *name, const char *args)
{
	return start_json(r, name, args, false);
}

/* init refused the command line as a usage error */
static bool usage(struct synth_run *r)
{
	return r->s && session__err_is_usage(r->s);
}

static const char *err_of(struct synth_run *r)
{
	const char *e = r->s ? session__strerror(r->s) : "no session (profiler not registered?)";

	return e ? e : "";
}

static struct evsel *event(struct synth_run *r, const char *name)
{
	for (struct evsel *ev = r->s ? session__evsels(r->s) : NULL; ev; ev = ev->next)
		if (!strcmp(ev->name, name))
			return ev;
	return NULL;
}

static void sample(struct synth_run *r, struct evsel *ev, u32 cpu, u32 pid, u64 t, u64 ip)
{
	u64 ips[2] = { PERF_CONTEXT_KERNEL, ip };

	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = pid,
							      .tid = pid,
							      .cpu = cpu,
							      .time = t,
							      .ip = ip,
							      .ips = ips,
							      .nr_ips = 2 }),
			(int)cpu);
}

static void cswitch(struct synth_run *r, bool out, u32 pid, u32 other, u64 t, u32 cpu)
{
	session__inject(r->s, synth__switch(&r->b, out, pid, pid, other, other, t, cpu), (int)cpu);
}

static int count_lines(const char *out, const char *needle)
{
	int n = 0;

	for (const char *p = out; p && (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The summary row of @cpu: its samples, irq-off periods, longest and (last column) idle gaps. */
static int row(const char *out, int cpu, unsigned long long *samples, unsigned long long *offs,
	       char *longest, unsigned long long *idle)
{
	const char *p = strstr(out, " CPU ");

	for (p = p ? strchr(p, '\n') : NULL; p && *++p; p = strchr(p, '\n')) {
		const char *e = strchr(p, '\n'), *last;
		int c;

		if (sscanf(p, "%d %llu %llu %31s", &c, samples, offs, longest) != 4 || c != cpu ||
		    !e)
			continue;
		for (last = e; last > p && last[-1] != ' ';)
			last--;
		*idle = strtoull(last, NULL, 10);
		return 0;
	}
	return -1;
}

static void irq_off_tests(void)
{
	struct synth_run r;
	struct evsel *ev;
	const char *out;
	u64 t = 100 * SEC;
	unsigned long long n, offs, idle;
	bool ok;
	char longest[32];

	CHECK(start(&r, "irq-off", "--than 20ms") == 0, "irq-off start: %s", err_of(&r));
	ev = event(&r, "irq-off");
	CHECK(ev && ev->attr.sample_period == MS && ev->attr.exclude_idle,
	      "cpu-clock every 1ms, not in the idle task");
	if (!ev) {
		synth_run__cleanup(&r);
		return;
	}
	session__inject(r.s, synth__comm(&r.b, 300, 300, "holder", t, 0), 0);
	/* CPU 0: 1ms ticks, then gaps of 25ms (off 24ms), 20.5ms (19.5ms: short), 21ms (20ms) */
	for (int i = 0; i < 10; i++)
		sample(&r, ev, 0, 300, t + i * MS, KIP + 0x100);
	sample(&r, ev, 0, 300, t + 34 * MS, KIP + 0x200);
	sample(&r, ev, 0, 300, t + 54 * MS + 500 * US, KIP + 0x300);
	sample(&r, ev, 0, 300, t + 75 * MS + 500 * US, KIP + 0x400);
	/* an idle period in a gap: not reported */
	sample(&r, ev, 0, 300, t + 76 * MS + 500 * US, KIP + 0x500);
	cswitch(&r, true, 300, 0, t + 77 * MS, 0);
	cswitch(&r, false, 0, 300, t + 77 * MS, 0);
	cswitch(&r, true, 0, 300, t + 150 * MS, 0);
	cswitch(&r, false, 300, 0, t + 150 * MS, 0);
	sample(&r, ev, 0, 300, t + 151 * MS, KIP + 0x600);
	/* CPU 1: a gap that began in the idle task, and a gap that ends in user mode */
	sample(&r, ev, 1, 0, t, KIP + 0x700);
	sample(&r, ev, 1, 301, t + 50 * MS, KIP + 0x800);
	sample(&r, ev, 1, 301, t + 51 * MS, 0x401000);
	sample(&r, ev, 1, 301, t + 81 * MS, 0x401000);
	out = synth_run__finish(&r);
	CHECK_INT(count_lines(out, " irq-off: "), 2);
	CHECK(strstr(out, "holder     300 [000] irq-off: 24.000ms (no timer sample for 25.000ms) "
			  "ip ffffffff81000200"),
	      "the 25ms gap: 24ms off, where it ended: %s", out);
	CHECK(strstr(out, "[000] irq-off: 20.000ms (no timer sample for 21.000ms) ip "
			  "ffffffff81000400"),
	      "a gap of exactly the limit: %s", out);
	CHECK(!strstr(out, "ffffffff81000300") && !strstr(out, "ffffffff81000600"),
	      "the short gap and the idle one are not reported: %s", out);
	CHECK(strstr(out, "[001] stall: 29.000ms (no timer sample for 30.000ms) ip "
			  "0000000000401000"),
	      "a gap that ended in user mode is a stall: %s", out);
	CHECK_INT(count_lines(out, "[001] irq-off"), 0);
	CHECK(row(out, 0, &n, &offs, longest, &idle) == 0 && n == 15 && offs == 2 &&
		      !strcmp(longest, "24.000ms") && idle == 1,
	      "CPU 0's row: 15 samples, 2 periods, the longest 24ms, 1 idle gap: %s", out);
	CHECK(row(out, 1, &n, &offs, longest, &idle) == 0 && n == 4 && offs == 0 && idle == 1,
	      "CPU 1's row: 4 samples, no irq-off, 1 idle gap: %s", out);
	CHECK(strstr(out, "total: 2 irq-off periods of 20.000ms or more, the longest 24.000ms; 1 "
			  "stalls"),
	      "the total: %s", out);
	synth_run__cleanup(&r);

	/* bad input: one line each, usage errors */
	CHECK(start(&r, "irq-off", "--than 1ms") != 0 && usage(&r) &&
		      strstr(err_of(&r), "--period 500.000us or less"),
	      "--than under two periods: %s", err_of(&r));
	synth_run__cleanup(&r);
	CHECK(start(&r, "irq-off", "-F 1000 --period 1ms") != 0 && usage(&r), "-F and --period");
	synth_run__cleanup(&r);
	ev = start(&r, "irq-off", "-F 4000 --than 1ms") == 0 ? event(&r, "irq-off") : NULL;
	CHECK(ev && ev->attr.sample_period == 250 * US, "-F 4000: every 250us");
	synth_run__cleanup(&r);
	ok = start(&r, "irq-off", "-L 5000") == 0;
	CHECK(ok, "-L 5000 (us, the original's spelling)");
	out = ok ? synth_run__finish(&r) : "";
	CHECK(strstr(out, "held off 5.000ms or more") != NULL, "-L in us: %s", out);
	synth_run__cleanup(&r);
}

static unsigned long long read_thresh(void)
{
	unsigned long long v = 0, on = 0;
	FILE *fp = fopen("/proc/sys/kernel/watchdog_thresh", "r");

	if (fp) {
		if (fscanf(fp, "%llu", &v) != 1)
			v = 0;
		fclose(fp);
	}
	fp = fopen("/proc/sys/kernel/watchdog", "r");
	if (fp) {
		if (fscanf(fp, "%llu", &on) != 1)
			on = 0;
		fclose(fp);
	}
	return on ? v : 0;
}

static void hrtimer(struct synth_run *r, struct evsel *ev, u32 cpu, u64 t, u64 fn)
{
	unsigned char raw[32] = { 0 };

	synth__field_u64(ev, raw, "function", fn);
	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = 400,
							      .tid = 400,
							      .cpu = cpu,
							      .time = t,
							      .raw = raw,
							      .raw_size = 32 }),
			(int)cpu);
}

static void migration(struct synth_run *r, struct evsel *ev, u32 cpu, u64 t, const char *prev,
		      const char *next)
{
	unsigned char raw[64] = { 0 };

	synth__field_str(ev, raw, "prev_comm", prev);
	synth__field_str(ev, raw, "next_comm", next);
	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = 20 + cpu,
							      .tid = 20 + cpu,
							      .cpu = cpu,
							      .time = t,
							      .raw = raw,
							      .raw_size = 64 }),
			(int)cpu);
}

/* --dump DIR: the JSON of watchdog_json_tests in DIR/watchdog.json (to compare builds) */
static const char *dump_dir;

/* The line of @out that holds @needle, into @buf ("" if none). */
static void line_of(const char *out, const char *needle, char *buf, size_t len)
{
	const char *at = strstr(out, needle), *b, *e;

	buf[0] = 0;
	if (!at)
		return;
	for (b = at; b > out && b[-1] != '\n'; b--)
		;
	e = strchr(at, '\n');
	snprintf(buf, len, "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);

	return n >= e && !strcmp(s + n - e, end);
}

/*
 * --json: a warning's record holds the samples taken meanwhile, each an
 * object of its event line's members, its ip and its stack ([] for none).
 */
static void watchdog_json_tests(unsigned long long thresh, u64 fn, u64 sched)
{
	struct evsel *hr, *smp;
	struct synth_run r;
	static char line[64 * 1024];
	const char *out, *name;
	char buf[160];
	FILE *dump = NULL;
	u64 t = 1000 * SEC;

	if (dump_dir) {
		snprintf(buf, sizeof(buf), "%s/watchdog.json", dump_dir);
		dump = fopen(buf, "w");
		CHECK(dump != NULL, "%s", buf);
	}
	/* CPU 1: samples every 100ms and no hrtimer: warned at thresh/2, the last 32 kept */
	CHECK(start_json(&r, "watchdog", "-g", true) == 0, "watchdog --json: %s", err_of(&r));
	hr = event(&r, "timer:hrtimer_expire_entry");
	smp = event(&r, "cpu-clock");
	if (!smp)
		smp = event(&r, "cycles");
	CHECK(hr && smp, "watchdog --json: its hrtimer and sample events");
	if (!hr || !smp) {
		synth_run__cleanup(&r);
		if (dump)
			fclose(dump);
		return;
	}
	name = smp->name;
	session__inject(r.s, synth__comm(&r.b, 400, 400, "spinner", 1, 1), 1);
	hrtimer(&r, hr, 1, t, fn);
	for (unsigned i = 1; i * 100 * MS <= thresh * SEC * 6 / 10; i++)
		sample(&r, smp, 1, 400, t + i * 100 * MS, sched + i);
	hrtimer(&r, hr, 1, t + thresh * SEC * 65 / 100, fn);
	out = synth_run__finish(&r);
	if (dump)
		fputs(out, dump);
	line_of(out, "\"cpu\":1,\"lockup\":\"hard\"", line, sizeof(line));
	CHECK(!strncmp(line, "{\"type\":\"warning\",\"time_ns\":",
		       strlen("{\"type\":\"warning\",\"time_ns\":")) &&
		      strstr(line, "\"what\":\"watchdog hrtimer\",\"for_ns\":"),
	      "CPU 1's warning: %s", out);
	snprintf(buf, sizeof(buf),
		 "\"comm\":\"spinner\",\"pid\":400,\"tid\":400,\"cpu\":1,"
		 "\"event\":\"%s\",\"ip\":\"0x",
		 name);
	CHECK_INT(count_lines(line, "\"samples\":[{\"time_ns\":"), 1);
	CHECK_INT(count_lines(line, buf), 32);
	CHECK_INT(count_lines(line, "\"stack\":[{\"addr\":\"0x"), 32);
	CHECK(ends_with(line, "}]}"), "its end: %s", line);
	synth_run__cleanup(&r);

	/* CPU 1: an hrtimer long ago and nothing since, asked at the interval: no samples */
	CHECK(start_json(&r, "watchdog", "", true) == 0, "watchdog --json: %s", err_of(&r));
	hr = event(&r, "timer:hrtimer_expire_entry");
	CHECK(hr != NULL, "watchdog --json: its hrtimer event");
	if (hr) {
		hrtimer(&r, hr, 1, session__now(r.s) - thresh * SEC * 7 / 10, fn);
		r.p->ops.interval(r.s, r.priv);
		out = synth_run__finish(&r);
		if (dump)
			fputs(out, dump);
		line_of(out, "\"cpu\":1,\"lockup\":\"hard\"", line, sizeof(line));
		CHECK(ends_with(line, ",\"samples\":[]}"), "no samples: an empty list: %s", out);
	}
	synth_run__cleanup(&r);
	if (dump)
		fclose(dump);
}

static void watchdog_tests(void)
{
	unsigned long long thresh = read_thresh();
	struct evsel *hr, *sw, *smp;
	struct symaddr sa;
	u64 fn, sched, t;
	const char *out;
	struct synth_run r;
	char buf[160];

	fn = symaddr__kernel(NULL, "watchdog_timer_fn", &sa) ? 0 : sa.addr;
	sched = symaddr__kernel(NULL, "schedule", &sa) ? 0 : sa.addr;
	if (!thresh || !fn || !sched) {
		printf("skip - watchdog: no lockup detector on, or kallsyms hidden (not root)\n");
		return;
	}
	CHECK(start(&r, "watchdog", "-g") == 0, "watchdog start: %s", err_of(&r));
	hr = event(&r, "timer:hrtimer_expire_entry");
	sw = event(&r, "sched:sched_switch");
	smp = event(&r, "cpu-clock");
	if (!smp)
		smp = event(&r, "cycles");
	CHECK(hr && sw && smp, "three events");
	if (!hr || !sw || !smp) {
		synth_run__cleanup(&r);
		return;
	}
	snprintf(buf, sizeof(buf), "function == 0x%llx", (unsigned long long)fn);
	CHECK(hr->filter && !strcmp(hr->filter, buf), "hrtimer filter: %s", hr->filter);
	CHECK(sw->filter && strstr(sw->filter, "/*\""), "switch filter: %s", sw->filter);
	session__inject(r.s, synth__comm(&r.b, 400, 400, "spinner", 1, 1), 1);

	/*
	 * CPU 1, a hard lockup coming: its hrtimer at 0, samples every 100ms
	 * (an NMI would still sample), no hrtimer until 6.5s; another
	 * function's hrtimer is no watchdog.  Warned at thresh/2 once.
	 */
	t = 1000 * SEC;
	hrtimer(&r, hr, 1, t, fn);
	for (unsigned i = 1; i * 100 * MS <= thresh * SEC * 6 / 10; i++) {
		if (i == 10)
			hrtimer(&r, hr, 1, t + i * 100 * MS + 1, fn + 0x10);
		sample(&r, smp, 1, 400, t + i * 100 * MS, sched + i);
	}
	hrtimer(&r, hr, 1, t + thresh * SEC * 65 / 100, fn);

	/* CPU 0, a soft lockup coming: hrtimers every 2/5 thresh, migration/0 runs once */
	migration(&r, sw, 0, t, "migration/0", "spinner");
	migration(&r, sw, 0, t + 1, "migration/1", "spinner"); /* another CPU's: not ours */
	for (unsigned i = 1; i <= 2 * thresh * 6 / 10; i++) {
		if (i * SEC % (thresh * SEC * 2 / 5) < SEC)
			hrtimer(&r, hr, 0, t + i * SEC - 1, fn);
		sample(&r, smp, 0, 400, t + i * SEC, sched + 0x1000 + i);
	}
	/* its run: in (no tick: a run is counted once, when it ends), then out */
	migration(&r, sw, 0, t + 2 * thresh * SEC * 7 / 10, "spinner", "migration/0");
	fflush(r.fp);
	CHECK(!strstr(r.out, "CPU 0: migration/0 again"), "switching in is not the run's end");
	migration(&r, sw, 0, t + 2 * thresh * SEC * 7 / 10 + 20 * US, "migration/0", "spinner");
	fflush(r.fp);
	out = r.out;
	snprintf(buf, sizeof(buf),
		 "watchdog: CPU 1: no watchdog hrtimer for %llu.%03llus, a hard "
		 "lockup at %llu.000s\n",
		 thresh / 2, thresh % 2 * 500, thresh);
	CHECK(strstr(out, buf) != NULL, "CPU 1 warned at thresh/2 (%s): %s", buf, out);
	CHECK_INT(count_lines(out, "CPU 1: no watchdog hrtimer"), 1);
	CHECK_INT(count_lines(out, "CPU 0: no watchdog hrtimer"), 0);
	CHECK_INT(count_lines(out, "CPU 1: no run of"), 0);
	{
		/* the samples meanwhile: the last 32 up to the warning, CPU 1's, with stacks */
		unsigned last = (unsigned)(thresh * 10 / 2), first = last - 31;
		char ip[64];
		const char *warn = strstr(out, "CPU 1: no watchdog hrtimer");
		const char *end = warn ? strstr(warn, "CPU 1: watchdog hrtimer again") : NULL;

		snprintf(ip, sizeof(ip), "[001] cpu-clock: ip %016llx",
			 (unsigned long long)(sched + last));
		CHECK(warn && strstr(warn, ip), "the sample at the warning: %s", out);
		snprintf(ip, sizeof(ip), "ip %016llx", (unsigned long long)(sched + first));
		CHECK(warn && strstr(warn, ip), "the oldest of 32 kept");
		snprintf(ip, sizeof(ip), "ip %016llx", (unsigned long long)(sched + first - 1));
		CHECK(!strstr(out, ip), "not the one before");
		CHECK(warn && end &&
			      count_lines(warn, " cpu-clock: ip ") -
					      count_lines(end, " cpu-clock: ip ") ==
				      32,
		      "32 samples printed: %s", out);
		CHECK(warn && strstr(warn, " schedule+0x"), "with their stacks: %s", out);
		CHECK(end != NULL, "the episode's end said: %s", out);
	}
	snprintf(buf, sizeof(buf), "CPU 1: watchdog hrtimer again after %llu.%03llus",
		 thresh * 65 / 100, thresh * 650 % 1000);
	CHECK(strstr(out, buf) != NULL, "%s: %s", buf, out);
	snprintf(buf, sizeof(buf),
		 "CPU 0: no run of migration/0 for %llu.000s, a soft lockup at "
		 "%llu.000s\n",
		 thresh, 2 * thresh);
	CHECK(strstr(out, buf) != NULL, "CPU 0 warned of a soft lockup (%s): %s", buf, out);
	CHECK_INT(count_lines(out, "CPU 0: no run of migration/0"), 1);
	CHECK(strstr(out, "CPU 0: migration/0 again after"), "its end: %s", out);

	out = synth_run__finish(&r);
	CHECK(strstr(out, "watchdog: hard lockup after ") != NULL, "summary: %s", out);
	CHECK(strstr(out, "\n   1        2 ") != NULL,
	      "CPU 1: 2 watchdog hrtimers (not the other function's): %s", out);
	{
		unsigned long long hrs = 0, runs = 0;
		const char *r0 = strstr(out, "\n   0 ");
		char kt[32] = "";

		CHECK(r0 && sscanf(r0, " 0 %llu %*s %*s %31s %llu", &hrs, kt, &runs) == 3 &&
			      !strcmp(kt, "migration/0") && runs == 2,
		      "CPU 0: migration/0 ran twice, each run counted once (%s %llu): %s", kt, runs,
		      out);
	}
	synth_run__cleanup(&r);

	/*
	 * The interval asks CPUs that send nothing: CPU 1's hrtimer 70% of
	 * thresh ago (its kthread a little later) and nothing since; CPU 0's
	 * hrtimer longer ago, but it went idle: in no lockup.
	 */
	CHECK(start(&r, "watchdog", "") == 0, "watchdog start: %s", err_of(&r));
	hr = event(&r, "timer:hrtimer_expire_entry");
	sw = event(&r, "sched:sched_switch");
	if (!hr || !sw) {
		synth_run__cleanup(&r);
		return;
	}
	t = session__now(r.s);
	hrtimer(&r, hr, 0, t - thresh * SEC * 9 / 10, fn);
	cswitch(&r, true, 400, 0, t - thresh * SEC * 8 / 10, 0);
	hrtimer(&r, hr, 1, t - thresh * SEC * 7 / 10, fn);
	migration(&r, sw, 1, t - thresh * SEC * 6 / 10, "migration/1", "spinner");
	fflush(r.fp);
	CHECK_INT(count_lines(r.out, "watchdog: CPU"), 0);
	r.p->ops.interval(r.s, r.priv);
	fflush(r.fp);
	out = r.out;
	CHECK_INT(count_lines(out, "watchdog: CPU 1: no watchdog hrtimer for "), 1);
	CHECK(strstr(out, "no cpu-clock sample on CPU 1 since then (a timer: held off with the "
			  "interrupts)") ||
		      strstr(out, "no cycles sample on CPU 1 since then\n"),
	      "no sample: said: %s", out);
	CHECK_INT(count_lines(out, "watchdog: CPU 0"), 0);
	CHECK_INT(count_lines(out, "no run of"), 0);
	r.p->ops.interval(r.s, r.priv);
	fflush(r.fp);
	CHECK_INT(count_lines(r.out, "watchdog: CPU"), 1);
	synth_run__finish(&r);
	synth_run__cleanup(&r);

	/*
	 * The interval asks as of the newest record delivered, not the clock's
	 * now (records wait in the rings and the order queue; a loaded host
	 * delays this process): CPU 0's newest sample is 300ms old, its
	 * hrtimer came 100ms less than the warning's age before that sample:
	 * no warning (as of now it would be 200ms past it).
	 */
	CHECK(start(&r, "watchdog", "") == 0, "watchdog start: %s", err_of(&r));
	hr = event(&r, "timer:hrtimer_expire_entry");
	smp = event(&r, "cpu-clock");
	if (!smp)
		smp = event(&r, "cycles");
	if (!hr || !smp) {
		synth_run__cleanup(&r);
		return;
	}
	t = session__now(r.s);
	hrtimer(&r, hr, 0, t - 300 * MS - (thresh * SEC / 2 - 100 * MS), fn);
	sample(&r, smp, 0, 400, t - 300 * MS, sched);
	r.p->ops.interval(r.s, r.priv);
	fflush(r.fp);
	CHECK_INT(count_lines(r.out, "watchdog: CPU 0"), 0);
	synth_run__finish(&r);
	synth_run__cleanup(&r);

	watchdog_json_tests(thresh, fn, sched);

	CHECK(start(&r, "watchdog", "--warn 30") != 0 && usage(&r), "--warn 30: usage error");
	synth_run__cleanup(&r);
	CHECK(start(&r, "watchdog", "-F 20000") != 0 && usage(&r), "-F 20000: usage error");
	synth_run__cleanup(&r);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--dump"))
		dump_dir = argv[2];
	module_tests();
	irq_off_tests();
	watchdog_tests();
	return ut_done("test_gapwatch");
}
