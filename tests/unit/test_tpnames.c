// SPDX-License-Identifier: GPL-2.0
/*
 * Task names from tracepoint fields (engine/names.c), on an injected
 * trace run: a task known by no record is named by the sched_switch that
 * carries its prev_comm; a kernel thread whose rename record was lost
 * ("kthreadd" from its FORK) gets the name the fields give from then on;
 * a kworker named with /proc's "-suffix" keeps it; pid 0 stays <idle>.
 */
#include <stdio.h>
#include <string.h>

#include "engine/session.h"
#include "expr_formats.h"
#include "synth_run.h"
#include "ut.h"

#define MS 1000000ULL
#define KW 3999950 /* pids no live task has */
#define KT 3999951
#define KTHREADD 3999952

static struct synth_run r;
static struct evsel *sw;
static u64 t0;

/* sched_switch on CPU 0 at t0 + @ms: @prev (named @prev_comm) leaves for @next (@next_comm) */
static void sw_at(u64 ms, u32 prev, const char *prev_comm, u32 next, const char *next_comm)
{
	unsigned char raw[64] = { 0 };

	synth__field_u64(sw, raw, "common_pid", prev);
	synth__field_str(sw, raw, "prev_comm", prev_comm);
	synth__field_u64(sw, raw, "prev_pid", prev);
	synth__field_str(sw, raw, "next_comm", next_comm);
	synth__field_u64(sw, raw, "next_pid", next);
	synth_run__tp(&r, sw, prev, prev, 0, t0 + ms * MS, raw, sizeof(raw));
}

static int count(const char *out, const char *s)
{
	int n = 0;

	for (const char *p = out; (p = strstr(p, s)); p++)
		n++;
	return n;
}

int main(void)
{
	static const struct synth_fmt fmts[] = { { "sched", fmt_sched_switch }, { NULL, NULL } };
	const char *out;

	CHECK(!synth_run__start(&r, "trace", "-e sched:sched_switch",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "%s", synth_run__err(&r));
	sw = synth_run__evsel(&r, "sched_switch");
	CHECK(sw != NULL, "sched_switch");
	if (!sw) {
		synth_run__cleanup(&r);
		return ut_done("test_tpnames");
	}
	t0 = session__now(r.s) + 1000 * MS;
	/* known by no record, no /proc: its own switch names it */
	sw_at(1, KW, "kworker/0:7", 0, "swapper/0");
	/* a kernel thread forked by kthreadd, its rename lost: kthreadd's name until a field says */
	session__inject(r.s, synth__comm(&r.b, KTHREADD, KTHREADD, "kthreadd", t0, 0), 0);
	session__inject(
		r.s,
		synth__task(&r.b, PERF_RECORD_FORK, KT, KTHREADD, KT, KTHREADD, t0 + 2 * MS, 0), 0);
	CHECK_STR(session__comm_at(r.s, KT, t0 + 3 * MS), "kthreadd");
	sw_at(4, 0, "swapper/0", KT, "kworker/1:5"); /* named as next */
	sw_at(5, KT, "kworker/1:5", 0, "swapper/0"); /* then its own */
	out = synth_run__finish(&r);
	CHECK(count(out, " kworker/0:7 3999950 [000]") == 1 && !strstr(out, "<...>"),
	      "the task named by its prev_comm: %s", out);
	CHECK(count(out, " kworker/1:5 3999951 [000]") == 1, "the kthread by its fields: %s", out);
	CHECK_STR(session__comm_at(r.s, KT, t0 + 3 * MS), "kthreadd");
	CHECK_STR(session__comm_at(r.s, KT, t0 + 4 * MS), "kworker/1:5");
	CHECK_STR(session__comm_at(r.s, KW, t0 + 1 * MS), "kworker/0:7");
	CHECK_STR(session__comm(r.s, 0), "<idle>");
	synth_run__cleanup(&r);
	return ut_done("test_tpnames");
}
