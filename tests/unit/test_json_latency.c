// SPDX-License-Identifier: GPL-2.0
/*
 * --json of the latency tables on injected sessions: kvm-exit (machines
 * without hardware virtualization never fire kvm_exit, so this is where its
 * JSON is tested there) and task-state get the same records twice, once
 * with text output and once with --json; the JSON rows carry the text's
 * numbers exactly (each *_ns value, formatted as the text formats times,
 * is the text's column), slow pairs carry both events, a lost record gives
 * a "dropped" line, and nothing but JSON lines is written.
 *
 * With --dump DIR the outputs are also written to DIR (kvm_exit.json,
 * kvm_exit.txt, ...) for tests/integ/t_json_latency.sh to read with jq.
 */
#include <stdlib.h>
#include <string.h>

#include "expr_formats.h"
#include "fmt_common.h"
#include "report/stats_table.h"
#include "synth_run.h"
#include "ut.h"

#define US 1000ULL
#define MS 1000000ULL

/* kvm:kvm_exit and kvm:kvm_entry as this kernel lays them out (as test_kvm_exit_sm) */
static const char fmt_kvm_exit[] =
	"name: kvm_exit\n"
	"ID: 1801\n"
	"format:\n" FMT_COMMON_FIELDS
	"\tfield:unsigned int exit_reason;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long guest_rip;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 isa;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int vcpu_id;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"vcpu %u reason %s rip 0x%lx\", REC->vcpu_id, (REC->isa == 1) ? "
	"__print_symbolic(REC->exit_reason & 0xffff, { 1, \"EXTERNAL_INTERRUPT\" }, { 12, "
	"\"HLT\" }, { 30, \"IO_INSTRUCTION\" }) : "
	"__print_symbolic(REC->exit_reason, { 0x078, \"hlt\" }, { 0x400, \"npf\" }), "
	"REC->guest_rip\n";

static const char fmt_kvm_entry[] = "name: kvm_entry\n"
				    "ID: 1802\n"
				    "format:\n" FMT_COMMON_FIELDS
				    "\tfield:unsigned int vcpu_id;\toffset:8;\tsize:4;\tsigned:0;\n"
				    "\tfield:unsigned long rip;\toffset:16;\tsize:8;\tsigned:0;\n"
				    "\n"
				    "print fmt: \"vcpu %u, rip 0x%lx\", REC->vcpu_id, REC->rip\n";

/* @name with these options (@json: --json) on an injected session of the events of @fmts */
static int start(struct synth_run *r, const char *name, const char *args,
		 const struct synth_fmt *fmts, bool json)
{
	return synth_run__start(r, name, args,
				&(struct synth_run_opts){ .fmts = fmts, .json = json });
}

static void lost(struct synth_run *r, u64 t)
{
	struct synth *b = &r->b;

	b->len = sizeof(struct perf_event_header);
	synth__u64(b, 1);  /* id */
	synth__u64(b, 10); /* lost */
	synth__trailer(b, 0, 0, t, 0, 0);
	session__inject(r->s, synth__finish(b, PERF_RECORD_LOST, 0), 0);
}

/* kvm_exit of thread @tid at @t (VMX) */
static void vm_exit(struct synth_run *r, u64 t, u32 tid, u32 reason, u64 rip)
{
	struct evsel *ev = synth_run__evsel(r, "kvm_exit");
	unsigned char raw[32] = { 0 };

	synth__field_u64(ev, raw, "common_pid", tid);
	synth__field_u64(ev, raw, "exit_reason", reason);
	synth__field_u64(ev, raw, "guest_rip", rip);
	synth__field_u64(ev, raw, "isa", 1);
	synth__field_u64(ev, raw, "vcpu_id", tid - 10);
	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = 100,
							      .tid = tid,
							      .cpu = 0,
							      .time = t,
							      .raw = raw,
							      .raw_size = 32 }),
			0);
}

static void vm_entry(struct synth_run *r, u64 t, u32 tid)
{
	struct evsel *ev = synth_run__evsel(r, "kvm_entry");
	unsigned char raw[24] = { 0 };

	synth__field_u64(ev, raw, "common_pid", tid);
	synth__field_u64(ev, raw, "vcpu_id", tid - 10);
	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = 100,
							      .tid = tid,
							      .cpu = 1,
							      .time = t,
							      .raw = raw,
							      .raw_size = 24 }),
			1);
}

/* VMX: HLT 100, 200, 300 us (one from the guest kernel), IO 10, 20 us; an exit lost */
static void kvm_records(struct synth_run *r)
{
	u64 t = 1000 * MS;

	vm_exit(r, t, 11, 12, 0xffffffff81000000ULL);
	vm_entry(r, t + 100 * US, 11);
	vm_exit(r, t + 200 * US, 11, 12, 0x1000);
	vm_entry(r, t + 400 * US, 11);
	vm_exit(r, t + 500 * US, 12, 12, 0x1000);
	vm_entry(r, t + 800 * US, 12);
	vm_exit(r, t + 900 * US, 11, 30, 0x1000);
	vm_entry(r, t + 910 * US, 11);
	vm_exit(r, t + 1000 * US, 12, 30, 0x1000);
	vm_entry(r, t + 1020 * US, 12);
	vm_exit(r, t + 1100 * US, 12, 30, 0x1000);
	lost(r, t + 1150 * US); /* the open IO exit of 12 goes */
	vm_entry(r, t + 1200 * US, 12);
}

/* Every line is an object: starts with {"type":", ends with }. */
static int all_json(const char *out)
{
	int n = 0;

	for (const char *p = out; *p;) {
		const char *e = strchr(p, '\n');

		if (!e || strncmp(p, "{\"type\":\"", 9) || e[-1] != '}')
			return -1;
		n++;
		p = e + 1;
	}
	return n;
}

/* The line with @a and @b (NULL: any), copied to @buf. */
static const char *line(const char *out, const char *a, const char *b, char *buf, size_t len)
{
	for (const char *p = out; *p;) {
		const char *e = strchr(p, '\n');
		int n = e ? (int)(e - p) : (int)strlen(p);

		snprintf(buf, len, "%.*s", n, p);
		if (strstr(buf, a) && (!b || strstr(buf, b)))
			return buf;
		if (!e)
			break;
		p = e + 1;
	}
	return NULL;
}

/* The integer member @name of @json (0 if none). */
static unsigned long long member(const char *json, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "\"%s\":", name);
	p = strstr(json, key);
	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* The text row whose first words are @a (and @b), copied to @buf. */
static const char *row(const char *out, const char *a, const char *b, char *buf, size_t len)
{
	for (const char *p = out; *p;) {
		const char *e = strchr(p, '\n');
		int n = e ? (int)(e - p) : (int)strlen(p);
		char w1[64] = "", w2[64] = "";

		snprintf(buf, len, "%.*s", n, p);
		if (sscanf(buf, "%63s %63s", w1, w2) >= 1 && !strcmp(w1, a) &&
		    (!b || !strcmp(w2, b)))
			return buf;
		if (!e)
			break;
		p = e + 1;
	}
	return NULL;
}

/* Each time of the JSON row, as the text prints times, is in the text row. */
static bool same_times(const char *json, const char *text)
{
	static const char *const names[] = { "total_ns", "min_ns", "avg_ns", "p50_ns",
					     "p95_ns",	 "p99_ns", "max_ns" };
	char buf[32], word[40], row[600];

	snprintf(row, sizeof(row), "%s ", text); /* the last column too */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(word, sizeof(word), " %s ",
			 stats_table__fmt_ns(member(json, names[i]), buf, sizeof(buf)));
		if (!strstr(row, word))
			return false;
	}
	return true;
}

static void dump(const char *dir, const char *name, const char *out)
{
	char path[4096];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(out, f);
		fclose(f);
	}
	CHECK(f != NULL, "write %s", path);
}

static void kvm_exit(const char *dir)
{
	static const struct synth_fmt fmts[] = { { "kvm", fmt_kvm_exit },
						 { "kvm", fmt_kvm_entry },
						 { NULL, NULL } };
	char jb[2048], tb[512];
	struct synth_run t, j;
	const char *to, *jo;

	for (int perins = 0; perins < 2; perins++) {
		const char *args = perins ? "--perins --hist" : "--than 15 --hist";

		CHECK(start(&t, "kvm-exit", args, fmts, false) == 0, "text %s: %s", args,
		      t.s ? session__strerror(t.s) ?: "" : "");
		kvm_records(&t);
		to = synth_run__finish(&t);
		CHECK(start(&j, "kvm-exit", args, fmts, true) == 0, "json %s", args);
		kvm_records(&j);
		jo = synth_run__finish(&j);
		CHECK(all_json(jo) > 0, "%s: JSON lines only:\n%s", args, jo);
		dump(dir, perins ? "kvm_exit_perins.json" : "kvm_exit.json", jo);
		dump(dir, perins ? "kvm_exit_perins.txt" : "kvm_exit.txt", to);
		if (!perins) {
			CHECK(line(jo, "\"type\":\"row\"", "\"exit_reason\":\"HLT\"", jb,
				   sizeof(jb)) &&
				      strstr(jb,
					     "\"count\":3,\"total_ns\":600000,\"min_ns\":100000,"
					     "\"avg_ns\":200000,") &&
				      strstr(jb, "\"than_ns\":15000,\"slow\":3,\"guest_kernel\":1,"
						 "\"hist\":[{\"lo_ns\":65536,\"hi_ns\":131071,"
						 "\"count\":1},{\"lo_ns\":131072,\"hi_ns\":262143,"
						 "\"count\":1},{\"lo_ns\":262144,\"hi_ns\":524287,"
						 "\"count\":1}]}"),
			      "HLT row: %s", jo);
			CHECK(row(to, "HLT", NULL, tb, sizeof(tb)) && same_times(jb, tb),
			      "HLT: the text's times\n%s\n%s", jb, tb);
			CHECK(line(jo, "\"type\":\"row\"", "\"exit_reason\":\"IO_INSTRUCTION\"", jb,
				   sizeof(jb)) &&
				      strstr(jb, "\"count\":2,\"total_ns\":30000,") &&
				      row(to, "IO_INSTRUCTION", NULL, tb, sizeof(tb)) &&
				      same_times(jb, tb),
			      "IO row: %s", jo);
			/* the slow IO exit, both events; the HLTs (the guest idling) counted only */
			CHECK(line(jo, "\"type\":\"slow\"", "\"duration_ns\":20000", jb,
				   sizeof(jb)) &&
				      strstr(jb, "\"exit_reason\":\"IO_INSTRUCTION\",\"tid\":12,"
						 "\"duration_ns\":20000,\"start\":{") &&
				      strstr(jb, "\"event\":\"kvm:kvm_exit\"") &&
				      strstr(jb, "\"end\":{") &&
				      strstr(jb, "\"event\":\"kvm:kvm_entry\""),
			      "slow IO exit of 20us with both events: %s", jo);
			CHECK(!strstr(jo, "\"type\":\"slow\",") ||
				      !line(jo, "\"type\":\"slow\"", "\"exit_reason\":\"HLT\"", jb,
					    sizeof(jb)),
			      "no slow HLT: %s", jo);
		} else {
			CHECK(line(jo, "\"exit_reason\":\"HLT\",\"tid\":11,", NULL, jb,
				   sizeof(jb)) &&
				      strstr(jb, "\"count\":2,\"total_ns\":300000,") &&
				      row(to, "HLT", "11", tb, sizeof(tb)) && same_times(jb, tb),
			      "--perins: thread 11's HLT: %s\n%s", jo, to);
			CHECK(line(jo, "\"exit_reason\":\"IO_INSTRUCTION\",\"tid\":12,", NULL, jb,
				   sizeof(jb)) &&
				      strstr(jb, "\"count\":1,\"total_ns\":20000,"),
			      "--perins: thread 12's IO, the one across the loss left out: %s", jo);
		}
		CHECK(line(jo, "\"type\":\"dropped\"", NULL, jb, sizeof(jb)) &&
			      strstr(jb, "\"what\":\"pairs\",\"from\":\"kvm:kvm_exit\",\"lost\":1,"
					 "\"exited\":0,"),
		      "the drop: %s", jo);
		CHECK(strstr(to, "1 pending pairs dropped after lost events") != NULL,
		      "the text says it too: %s", to);
		synth_run__cleanup(&t);
		synth_run__cleanup(&j);
	}
}

/* sched_switch on @cpu at @t: @prev leaves in @state, @next comes in */
static void sw(struct synth_run *r, u64 t, u32 cpu, u32 prev, u64 state, u32 next)
{
	struct evsel *ev = synth_run__evsel(r, "sched_switch");
	unsigned char raw[64] = { 0 };
	char comm[16];

	synth__field_u64(ev, raw, "common_pid", prev);
	snprintf(comm, sizeof(comm), "t\"%u", prev); /* a quote in the comm */
	synth__field_str(ev, raw, "prev_comm", comm);
	synth__field_u64(ev, raw, "prev_pid", prev);
	synth__field_u64(ev, raw, "prev_state", state);
	snprintf(comm, sizeof(comm), "t\"%u", next);
	synth__field_str(ev, raw, "next_comm", comm);
	synth__field_u64(ev, raw, "next_pid", next);
	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = prev,
							      .tid = prev,
							      .cpu = cpu,
							      .time = t,
							      .raw = raw,
							      .raw_size = 64 }),
			cpu);
}

static void wakeup(struct synth_run *r, u64 t, u32 cpu, u32 tid)
{
	struct evsel *ev = synth_run__evsel(r, "sched_wakeup");
	unsigned char raw[40] = { 0 };

	synth__field_u64(ev, raw, "common_pid", 1);
	synth__field_str(ev, raw, "comm", "woken");
	synth__field_u64(ev, raw, "pid", tid);
	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = 1,
							      .tid = 1,
							      .cpu = cpu,
							      .time = t,
							      .raw = raw,
							      .raw_size = 36 }),
			cpu);
}

/* thread 50 sleeps 5, 7, 30 ms (S, woken 1 ms before it runs), 2 ms in D; 51 sleeps 3 ms */
static void ts_records(struct synth_run *r)
{
	u64 t = 1000 * MS;

	sw(r, t, 0, 50, 1, 0);
	wakeup(r, t + 4 * MS, 1, 50);
	sw(r, t + 5 * MS, 0, 0, 0, 50);
	sw(r, t + 6 * MS, 0, 50, 1, 0);
	wakeup(r, t + 12 * MS, 1, 50);
	sw(r, t + 13 * MS, 0, 0, 0, 50);
	sw(r, t + 14 * MS, 0, 50, 2, 51);
	sw(r, t + 16 * MS, 0, 51, 1, 50);
	sw(r, t + 19 * MS, 0, 50, 1, 51);
	wakeup(r, t + 48 * MS, 1, 50);
	sw(r, t + 49 * MS, 0, 51, 0, 50);
}

static void task_state(const char *dir)
{
	static const struct synth_fmt fmts[] = { { "sched", fmt_sched_switch },
						 { "sched", fmt_sched_wakeup },
						 { NULL, NULL } };
	char jb[2048], tb[512];
	struct synth_run t, j;
	const char *to, *jo;

	for (int perins = 0; perins < 2; perins++) {
		/* the ring path: these records are injected samples (no kernel) */
		const char *args = perins ? "--no-bpf --perins" : "--no-bpf --than 20ms";

		CHECK(start(&t, "task-state", args, fmts, false) == 0, "text %s", args);
		ts_records(&t);
		to = synth_run__finish(&t);
		CHECK(start(&j, "task-state", args, fmts, true) == 0, "json %s", args);
		ts_records(&j);
		jo = synth_run__finish(&j);
		CHECK(all_json(jo) > 0, "%s: JSON lines only:\n%s", args, jo);
		dump(dir, perins ? "task_state_perins.json" : "task_state.json", jo);
		dump(dir, perins ? "task_state_perins.txt" : "task_state.txt", to);
		if (!perins) {
			CHECK(line(jo, "\"type\":\"row\"", "\"state\":\"S\"", jb, sizeof(jb)) &&
				      strstr(jb, "\"count\":4,\"total_ns\":45000000,") &&
				      strstr(jb, "\"sleep\":{\"count\":3,\"total_ns\":39000000,") &&
				      strstr(jb, "\"runq\":{\"count\":3,\"total_ns\":3000000,"),
			      "S row with its sleep and runq: %s", jo);
			CHECK(row(to, "S", NULL, tb, sizeof(tb)) && same_times(jb, tb),
			      "S: the text's times\n%s\n%s", jb, to);
			CHECK(line(jo, "\"type\":\"row\"", "\"state\":\"D\"", jb, sizeof(jb)) &&
				      strstr(jb, "\"count\":1,\"total_ns\":2000000,") &&
				      !strstr(jb, "\"sleep\""),
			      "D row, not woken: %s", jo);
			CHECK(line(jo, "\"type\":\"slow\"", NULL, jb, sizeof(jb)) &&
				      strstr(jb,
					     "\"comm\":\"t\\\"50\",\"pid\":50,\"tid\":50,\"cpu\":0,"
					     "\"state\":\"S\",\"duration_ns\":30000000}"),
			      "the 30 ms sleep over --than, its comm escaped: %s", jo);
		} else {
			CHECK(line(jo,
				   "\"state\":\"S\",\"comm\":\"t\\\"51\",\"pid\":51,\"tid\":51,",
				   NULL, jb, sizeof(jb)) &&
				      strstr(jb, "\"count\":1,\"total_ns\":3000000,"),
			      "--perins: thread 51's S: %s", jo);
			CHECK(line(jo, "\"state\":\"S\",\"comm\":\"t\\\"50\",", NULL, jb,
				   sizeof(jb)) &&
				      strstr(jb, "\"count\":3,\"total_ns\":42000000,"),
			      "--perins: thread 50's S: %s", jo);
		}
		synth_run__cleanup(&t);
		synth_run__cleanup(&j);
	}
}

int main(int argc, char **argv)
{
	const char *dir = argc == 3 && !strcmp(argv[1], "--dump") ? argv[2] : NULL;

	kvm_exit(dir);
	task_state(dir);
	return ut_done("test_json_latency");
}
