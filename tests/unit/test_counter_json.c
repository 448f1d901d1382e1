// SPDX-License-Identifier: GPL-2.0
/*
 * --json of the counting profilers (stat, percpu-stat, hwstat, split-lock)
 * on synthesized reads, as test_counter does for the text: hwstat's
 * {cycles,instructions} multiplexed (the estimate, enabled and running
 * times, IPC as insn_per_cycle and as a "ratio" record), a clock as integer
 * ns with CPUs utilized, rates per second, a counter that never ran (null),
 * split-lock's per-CPU records, and each line one JSON object.  The
 * counters are pipes holding the {value, enabled, running} words a perf
 * event's read() returns.
 */
#include <stdlib.h>
#include <unistd.h>

#include "analysis/counters.h"
#include "util/json.h"
#include "ut.h"

struct fake {
	struct evsel ev;
	struct counter_fd cnt[2];
	int wr[2];
};

static void fake_init(struct fake *f, const char *name, int n, u32 type, u64 config)
{
	memset(f, 0, sizeof(*f));
	f->ev.name = (char *)name;
	f->ev.counting = true;
	f->ev.cnt = f->cnt;
	f->ev.nr_cnt = n;
	f->ev.attr.type = type;
	f->ev.attr.config = config;
	for (int i = 0; i < n; i++) {
		int p[2];

		if (pipe(p))
			abort();
		f->cnt[i] = (struct counter_fd){ .fd = p[0], .cpu = i, .tid = -1 };
		f->wr[i] = p[1];
	}
}

static void put(struct fake *f, int i, u64 val, u64 ena, u64 run)
{
	u64 w[3] = { val, ena, run };

	if (write(f->wr[i], w, sizeof(w)) != sizeof(w))
		abort();
}

static void fake_close(struct fake *f)
{
	for (int i = 0; i < f->ev.nr_cnt; i++) {
		close(f->cnt[i].fd);
		close(f->wr[i]);
	}
}

static struct ctr_set set_of(struct fake *f, int n)
{
	struct ctr_set cs = { 0 };

	cs.c = calloc(n, sizeof(*cs.c));
	cs.nr = n;
	for (int k = 0; k < n; k++) {
		bool clock = f[k].ev.attr.type == PERF_TYPE_SOFTWARE &&
			     f[k].ev.attr.config <= PERF_COUNT_SW_TASK_CLOCK;

		cs.c[k] = (struct ctr){ .ev = &f[k].ev, .scale = clock ? 1e-6 : 1.0 };
		snprintf(cs.c[k].unit, sizeof(cs.c[k].unit), "%s", clock ? "msec" : "");
		snprintf(cs.c[k].name, sizeof(cs.c[k].name), "%s", f[k].ev.name);
	}
	return cs;
}

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
	ctr_set__json(&cs, fp, false, false, "interval");
	ctr_set__json_ratio(&cs, fp, 1, 0, "IPC", false, false, "interval");
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
	ctr_set__json(&cs, fp, false, false, "interval");
	ctr_set__json_ratio(&cs, fp, 1, 0, "IPC", false, false, "interval");
	ctr_set__json(&cs, fp, false, true, "total");
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
	ctr_set__json(&cs, fp, true, false, "so far");
	ctr_set__json(&cs, fp, false, false, "so far");
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
	struct json j;
	FILE *fp = open_memstream(&text, &len);

	json__begin(&j, fp, "row");
	ctr__json_num(&j, "total", 150.000000001, "msec", false);
	ctr__json_num(&j, "avg", 2.5, "", true);
	ctr__json_num(&j, "max", 3, "", false);
	ctr__json_num(&j, "joules", 1.25, "Joules", false);
	json__str(&j, "unit", ctr__json_unit("msec"));
	json__end(&j);
	fclose(fp);
	CHECK_STR(text,
		  "{\"type\":\"row\",\"total\":150000000,\"avg\":2.5,\"max\":3,\"joules\":1.25,"
		  "\"unit\":\"ns\"}\n");
	CHECK(!ctr__json_unit("") && !strcmp(ctr__json_unit("Joules"), "Joules"), "units");
	free(text);
	text = NULL;
}

int main(void)
{
	test_hwstat();
	test_percpu();
	test_num();
	return ut_done("test_counter_json");
}
