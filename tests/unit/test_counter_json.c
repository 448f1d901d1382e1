// SPDX-License-Identifier: GPL-2.0
/*
 * --json of the counting profilers (stat, percpu-stat, hwstat, split-lock)
 * on synthesized reads, as test_counter does for the text: hwstat's
 * {cycles,instructions} multiplexed (the estimate, enabled and running
 * times, IPC as insn_per_cycle and as a "ratio" record), a clock as integer
 * ns with CPUs utilized, rates per second, a counter that never ran (null),
 * split-lock's per-CPU records, and each line one JSON object.  The
 * counters are pipes holding the {value, enabled, running} words a perf
 * event's read() returns.  On injected sessions: split-lock -T's sample as
 * an "event" (a fake sysfs with a CPU PMU), cpu-util's rows.
 */
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/counting/counters.h"
#include "engine/features.h"
#include "engine/perf_source.h"
#include "fake_counter.h"
#include "fake_sysfs.h"
#include "synth_run.h"
#include "util/json.h"
#include "ut.h"

/* prof/split_lock.c */
const char *split_lock__event(const char *vendor);

static char *text;
static size_t len;

/* The records of @fn's output: every line one object, starting {"type":". */
static int lines(void)
{
	int n = 0;

	for (char *p = text; p && *p; n++) {
		char *nl = strchr(p, '\n');

		CHECK(!strncmp(p, "{\"type\":\"", 9) && nl && nl[-1] == '}', "a line: %s", p);
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

static bool has(const char *s)
{
	return text && strstr(text, s);
}

/* hwstat's group and a clock, one interval of 1 s, cycles counted half of it. */
static void test_hwstat(void)
{
	struct fake f[4];
	struct ctr_set cs;
	char want[256];
	FILE *fp;

	fake_init(&f[0], "cycles", 1, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	fake_init(&f[1], "instructions", 1, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fake_init(&f[2], "task-clock", 1, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	fake_init(&f[3], "cs", 1, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	cs = set_of(f, 4);
	put(&f[0], 0, 500000000, 1000, 500);
	put(&f[1], 0, 2500000000ULL, 1000, 1000);
	put(&f[2], 0, 500000000, 1000, 1000);
	put(&f[3], 0, 1000, 1000, 1000);
	ctr_set__read(&cs);
	cs.t_first = cs.t_last = cs.t_now - 1000000000ULL;

	fp = open_memstream(&text, &len);
	ctr_set__report(&cs, fp, true, false, false, "interval");
	ctr_set__report_ratio(&cs, fp, true, 1, 0, "IPC", false, false, "interval");
	fclose(fp);
	CHECK_INT(lines(), 5);
	snprintf(want, sizeof(want),
		 "{\"type\":\"counter\",\"scope\":\"interval\",\"time_ns\":%llu,\"interval_ns\":"
		 "1000000000,\"event\":\"cycles\",\"value\":1000000000,\"enabled_ns\":1000,"
		 "\"running_ns\":500,\"running_pct\":50,\"ghz\":2}\n",
		 (unsigned long long)cs.t_now);
	CHECK(has(want), "cycles scaled by enabled/running, GHz of the clock: %s", text);
	CHECK(has("\"event\":\"instructions\",\"value\":2500000000,\"enabled_ns\":1000,"
		  "\"running_ns\":1000,\"running_pct\":100,\"insn_per_cycle\":2.5}\n"),
	      "%s", text);
	CHECK(has("\"event\":\"task-clock\",\"value\":500000000,\"unit\":\"ns\",\"enabled_ns\":"
		  "1000,\"running_ns\":1000,\"running_pct\":100,\"cpus_utilized\":0.5}\n"),
	      "a clock in integer ns: %s", text);
	CHECK(has("\"event\":\"cs\",\"value\":1000,\"enabled_ns\":1000,\"running_ns\":1000,"
		  "\"running_pct\":100,\"per_sec\":2000}\n"),
	      "per second of task-clock: %s", text);
	CHECK(has("{\"type\":\"ratio\",\"scope\":\"interval\",") &&
		      has("\"name\":\"IPC\",\"numerator\":\"instructions\",\"denominator\":"
			  "\"cycles\",\"value\":2.5}\n"),
	      "%s", text);
	free(text);
	text = NULL;
	ctr_set__advance(&cs);

	/* the next interval: cycles never ran; the run's total */
	put(&f[0], 0, 500000000, 2000, 500);
	put(&f[1], 0, 2500000000ULL, 2000, 2000);
	put(&f[2], 0, 500000000, 2000, 2000);
	put(&f[3], 0, 1003, 2000, 2000);
	ctr_set__read(&cs);
	fp = open_memstream(&text, &len);
	ctr_set__report(&cs, fp, true, false, false, "interval");
	ctr_set__report_ratio(&cs, fp, true, 1, 0, "IPC", false, false, "interval");
	ctr_set__report(&cs, fp, true, false, true, "total");
	fclose(fp);
	CHECK_INT(lines(), 9);
	CHECK(has("\"event\":\"cycles\",\"value\":null,\"enabled_ns\":1000,\"running_ns\":0,"
		  "\"running_pct\":0}\n"),
	      "not counted: null: %s", text);
	CHECK(has("\"name\":\"IPC\",\"numerator\":\"instructions\",\"denominator\":\"cycles\","
		  "\"value\":null}\n"),
	      "no IPC without cycles: %s", text);
	CHECK(has("\"event\":\"cs\",\"value\":3,\"enabled_ns\":1000,"), "%s", text);
	CHECK(has("{\"type\":\"counter\",\"scope\":\"run\","), "the total's scope: %s", text);
	CHECK(has("\"event\":\"cs\",\"value\":1003,\"enabled_ns\":2000,"), "%s", text);
	CHECK(has("\"event\":\"cycles\",\"value\":2000000000,\"enabled_ns\":2000,\"running_ns\":"
		  "500,\"running_pct\":25,"),
	      "the run's estimate: %s", text);
	free(text);
	text = NULL;
	for (int k = 0; k < 4; k++)
		fake_close(&f[k]);
	ctr_set__free(&cs);
}

/* split-lock (and percpu-stat): a count per CPU, then the total over them. */
static void test_percpu(void)
{
	struct fake f;
	struct ctr_set cs;
	FILE *fp;

	fake_init(&f, "split-lock", 2, PERF_TYPE_RAW, 0x10f4);
	cs = set_of(&f, 1);
	put(&f, 0, 7, 1000, 1000);
	put(&f, 1, 0, 1000, 1000);
	ctr_set__read(&cs);
	fp = open_memstream(&text, &len);
	ctr_set__report(&cs, fp, true, true, false, "so far");
	ctr_set__report(&cs, fp, true, false, false, "so far");
	fclose(fp);
	CHECK_INT(lines(), 3);
	CHECK(has("\"scope\":\"so_far\","), "%s", text);
	CHECK(has(",\"cpu\":0,\"event\":\"split-lock\",\"value\":7,\"enabled_ns\":1000,"), "%s",
	      text);
	CHECK(has(",\"cpu\":1,\"event\":\"split-lock\",\"value\":0,\"enabled_ns\":1000,"), "%s",
	      text);
	CHECK(has("\"event\":\"split-lock\",\"value\":7,\"enabled_ns\":2000,\"running_ns\":2000,"
		  "\"running_pct\":100}\n"),
	      "the sum over CPUs (its times added up): %s", text);
	free(text);
	text = NULL;
	fake_close(&f);
	ctr_set__free(&cs);
}

/* The numbers of hrcount's rows: a clock's msec as integer ns, fractions kept. */
static void test_num(void)
{
	static const struct rt_col cols[] = {
		{ .name = "total", .type = RT_STR }, { .name = "avg", .type = RT_STR },
		{ .name = "max", .type = RT_STR },   { .name = "joules", .type = RT_STR },
		{ .name = "unit", .type = RT_STR },
	};
	const struct rt_desc d = { .type = "row", .cols = cols, .ncols = 5 };
	char b[4][64];
	struct rt_json js;
	FILE *fp = open_memstream(&text, &len);

	rtable__begin(rt_json__init(&js, fp, NULL), &d);
	rtable__row(&js.sink, (struct rt_val[]){
				      ctr__val(150.000000001, "msec", false, b[0], sizeof(b[0])),
				      ctr__val(2.5, "", true, b[1], sizeof(b[1])),
				      ctr__val(3, "", false, b[2], sizeof(b[2])),
				      ctr__val(1.25, "Joules", false, b[3], sizeof(b[3])),
				      { .s = ctr__unit("msec") },
			      });
	rtable__end(&js.sink);
	fclose(fp);
	CHECK_STR(text,
		  "{\"type\":\"row\",\"total\":150000000,\"avg\":2.5,\"max\":3,\"joules\":1.25,"
		  "\"unit\":\"ns\"}\n");
	CHECK(!ctr__unit("") && !strcmp(ctr__unit("Joules"), "Joules"), "units");
	free(text);
	text = NULL;
}

/* A profiler on an injected session, --json, its output in memory. */
static int start(struct synth_run *r, const char *name, const char *args)
{
	return synth_run__start(r, name, args,
				&(struct synth_run_opts){ .json = true, .init_may_fail = true });
}

static void sample(struct synth_run *r, struct evsel *ev, u32 pid, u32 tid, u32 cpu, u64 time,
		   u64 ip, unsigned misc)
{
	synth__sample(&r->b, ev,
		      &(struct synth_sample){
			      .pid = pid, .tid = tid, .cpu = cpu, .time = time, .ip = ip });
	session__inject(r->s, synth__finish(&r->b, PERF_RECORD_SAMPLE, misc), cpu);
}

/* split-lock -T 1000: each sample an event record, with its task and ip. */
static void test_split_lock_event(void)
{
	char want[256];
	const char *vendor_ev;
	struct evsel *ev = NULL;
	struct synth_run r;
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], vendor[64] = "";

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "vendor_id : %63s", vendor) == 1)
			break;
	if (f)
		fclose(f);
	vendor_ev = split_lock__event(vendor);
	if (!vendor_ev) {
		printf("skip - split-lock event: no split-lock event for CPU vendor '%s'\n",
		       vendor);
		return;
	}
	if (fake_sysfs__make("counter-json")) {
		CHECK(0, "mkdtemp");
		return;
	}
	fake_sysfs__put("cpu/type", "4\n");
	fake_sysfs__put("cpu/format/event", "config:0-7\n");
	fake_sysfs__put("cpu/format/umask", "config:8-15\n");
	fake_sysfs__put("cpu/events/cpu-cycles", "event=0x3c\n");
	if (start(&r, "split-lock", "-T 1000 -C 0,1") || r.init_err) {
		CHECK(0, "start split-lock on an injected session (%d): %s", r.init_err,
		      r.s ? session__strerror(r.s) : "");
		goto out;
	}
	for (struct evsel *e = session__evsels(r.s); e; e = e->next)
		if (!e->counting)
			ev = e;
	CHECK(ev != NULL, "the sampler");
	if (ev) {
		sample(&r, ev, 4242, 4243, 1, session__now(r.s), 0x401234, PERF_RECORD_MISC_USER);
		fflush(r.fp);
		snprintf(want, sizeof(want),
			 ",\"comm\":\"%s\",\"pid\":4242,\"tid\":4243,\"cpu\":1,\"event\":"
			 "\"split-lock\",\"split_locks\":1000,\"ip\":\"0x401234\"}\n",
			 session__comm(r.s, 4243));
		CHECK(r.out && !strncmp(r.out, "{\"type\":\"event\",\"time_ns\":", 26) &&
			      strstr(r.out, want),
		      "%s", r.out ? r.out : "");
	}
out:
	synth_run__cleanup(&r);
	fake_sysfs__remove();
}

#define MS 1000000ULL

/* cpu-util: 1 s of samples on CPU 0: 600 user, 300 kernel, 100 guest; CPU 1: 50 user. */
static void test_cpu_util_rows(void)
{
	struct synth_run r;
	struct evsel *ev;
	u64 t0;

	if (start(&r, "cpu-util", "-q -C 0,1") || r.init_err) {
		CHECK(0, "start cpu-util on an injected session");
		synth_run__cleanup(&r);
		return;
	}
	ev = session__evsels(r.s);
	t0 = session__now(r.s) + 1000 * MS;
	for (u64 k = 1; k <= 1000; k++)
		sample(&r, ev, 100, 100, 0, t0 + k * MS,
		       k <= 600 ? 0x401000 : 0xffffffff81000000ULL,
		       k <= 600	  ? PERF_RECORD_MISC_USER
		       : k <= 900 ? PERF_RECORD_MISC_KERNEL
				  : PERF_RECORD_MISC_GUEST_KERNEL);
	for (u64 k = 1; k <= 50; k++)
		sample(&r, ev, 200, 200, 1, t0 + k * MS, 0x401000, PERF_RECORD_MISC_USER);
	r.p->ops.interval(r.s, r.priv);
	fflush(r.fp);
	text = r.out;
	CHECK_INT(lines(), 3);
	CHECK(has(",\"interval_ns\":1000000000,\"cpu\":0,\"idle_samples\":0,\"user_samples\":"
		  "600,\"sys_samples\":300,\"guest_samples\":100,\"user_pct\":60,\"sys_pct\":30,"
		  "\"guest_pct\":10,\"busy_pct\":100,"),
	      "CPU 0: %s", text);
	CHECK(has("\"cpu\":1,\"idle_samples\":0,\"user_samples\":50,\"sys_samples\":0,"
		  "\"guest_samples\":0,\"user_pct\":5,"),
	      "CPU 1: %s", text);
	CHECK(has("\"cpus\":2,\"idle_samples\":0,\"user_samples\":650,\"sys_samples\":300,"
		  "\"guest_samples\":100,\"user_pct\":32.5,\"sys_pct\":15,\"guest_pct\":5,"
		  "\"busy_pct\":52.5,"),
	      "all: %s", text);
	CHECK(has("{\"type\":\"row\",\"scope\":\"interval\",\"time_ns\":"), "%s", text);
	text = NULL;
	synth_run__cleanup(&r);
}

int main(void)
{
	test_hwstat();
	test_percpu();
	test_num();
	test_split_lock_event();
	test_cpu_util_rows();
	return ut_done("test_counter_json");
}
