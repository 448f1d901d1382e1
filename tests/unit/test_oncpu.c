// SPDX-License-Identifier: GPL-2.0
/*
 * Who runs where: analysis/runslice on synthesized switches (a slice cut
 * at interval edges, the first task of a CPU running since the start, a
 * switch known only from the kernel's context-switch records, a CPU known
 * only from samples, lost records, a record read after the edge it
 * precedes, a missed switch, a task's last records after its exit), then
 * oncpu on an injected session: sched_switch samples, switch records and
 * cpu-clock samples with known answers, per CPU, per thread (-t) and cut by
 * --top; threads that exit leave the live tables, the whole run keeps the
 * largest by their names and sums the others (memory over hours), a late
 * slice joins its exited thread's row, a tid handed out again is a thread
 * of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/cpu/runslice.h"
#include "expr_formats.h"
#include "synth_run.h"
#include "ut.h"

#define MS 1000000ULL

/* runslice: what was credited, per interval, CPU and tid (< 32) */
static u64 got[3][3][32];
static u32 pid_of[32];
static int iv;

static void take(void *arg, u32 cpu, u32 pid, u32 tid, u64 ns)
{
	(void)arg;
	if (cpu < 3 && tid < 32) {
		got[iv][cpu][tid] += ns;
		pid_of[tid] = pid;
	}
}

static struct rec_switch rec(bool out, u32 pid, u32 tid, u32 other_pid, u32 other_tid, u64 t,
			     u32 cpu)
{
	return (struct rec_switch){ .pid = pid,
				    .tid = tid,
				    .time = t,
				    .cpu = cpu,
				    .out = out,
				    .other_pid = other_pid,
				    .other_tid = other_tid };
}

static void test_runslice(void)
{
	struct runslice *r = runslice__new(2, take, NULL);
	struct runslice_stats st;
	struct rec_switch sw;

	CHECK(r != NULL, "runslice__new");
	if (!r)
		return;
	runslice__start(r, 1000 * MS);
	/* CPU 0: 11 (process 10) had run since the start; 12 across the edge */
	runslice__switch(r, 0, 1100 * MS, 10, 11, 12);
	sw = rec(false, 10, 12, 10, 11, 1150 * MS, 0); /* its switch-in record: 12's process */
	runslice__record(r, &sw);
	/* CPU 1: known from samples only; 21 since the start */
	runslice__running(r, 1, 1005 * MS, 20, 21);
	runslice__running(r, 1, 1500 * MS, 20, 21);
	runslice__edge(r, 2000 * MS);
	iv = 1;
	runslice__switch(r, 0, 2300 * MS, 10, 12, 0);
	/* idle -> 13 and 13 -> idle seen only as switch records */
	sw = rec(false, 13, 13, 0, 0, 2400 * MS, 0);
	runslice__record(r, &sw);
	sw = rec(true, 13, 13, 0, 0, 2500 * MS, 0);
	runslice__record(r, &sw);
	/* CPU 1 lost records: 21's slice is not known; 22 from its sample on */
	runslice__lost(r, 1);
	runslice__running(r, 1, 2600 * MS, 20, 22);
	runslice__edge(r, 3000 * MS);
	iv = 2;
	/* read after the edge, dated before it: nothing before the edge moves */
	runslice__switch(r, 1, 2990 * MS, 20, 22, 23);
	runslice__switch(r, 1, 3100 * MS, 23, 23, 0);
	/* CPU 0 is idle, yet a switch of 14: missed; 14 -> 15 */
	runslice__switch(r, 0, 3500 * MS, 14, 14, 15);
	CHECK(runslice__runs(r, 0, 15), "15 runs on CPU 0");
	/* 15 exits: its last sample and switch-out name no task (-1); 16 comes */
	runslice__running(r, 0, 3600 * MS, RUNSLICE_DEAD, RUNSLICE_DEAD);
	CHECK(runslice__runs(r, 0, 15), "a dead task's sample changes nothing");
	sw = rec(true, RUNSLICE_DEAD, RUNSLICE_DEAD, 16, 16, 3700 * MS, 0);
	runslice__record(r, &sw);
	/* an exiting thread of process 30 preempted on CPU 1 comes back: named by sched_switch */
	runslice__switch(r, 1, 3800 * MS, 0, 0, 31);
	sw = rec(false, 30, RUNSLICE_DEAD, 0, 0, 3801 * MS, 1);
	runslice__record(r, &sw);
	CHECK(runslice__runs(r, 1, 31), "its switch-in record without a tid changes nothing");
	runslice__edge(r, 4000 * MS);

	CHECK_INT(got[0][0][11], 100 * MS);
	CHECK_INT(got[0][0][12], 900 * MS);
	CHECK_INT(got[0][1][21], 1000 * MS);
	CHECK_INT(got[1][0][12], 300 * MS);
	CHECK_INT(got[1][0][13], 100 * MS);
	CHECK_INT(got[1][1][21], 0);
	CHECK_INT(got[1][1][22], 400 * MS);
	CHECK_INT(got[2][1][22], 0);
	CHECK_INT(got[2][1][23], 100 * MS);
	CHECK_INT(got[2][1][31], 200 * MS);
	CHECK_INT(got[2][0][15], 200 * MS);
	CHECK_INT(got[2][0][16], 300 * MS);
	CHECK_INT(got[2][0][14], 0);
	CHECK_INT(pid_of[11], 10);
	CHECK_INT(pid_of[12], 10);
	CHECK_INT(pid_of[13], 13);
	CHECK_INT(pid_of[22], 20);
	CHECK_INT(pid_of[15], RUNSLICE_NO_PID);
	runslice__stats(r, &st);
	CHECK_INT(st.by_record, 3);
	CHECK_INT(st.by_sample, 1);
	CHECK_INT(st.mismatches, 1);
	runslice__delete(r);
}

/*
 * CPU 1's buffer is read after CPU 0's: its records are older than the
 * first one read.  CPU 0: 11 from the start, 11 -> 12 at 1100; CPU 2: 31
 * seen at 1050, still running; then CPU 1 from 900: 21 -> 22 at 950.
 */
static void test_late_cpu(void)
{
	struct runslice *r = runslice__new(3, take, NULL);

	CHECK(r != NULL, "runslice__new");
	if (!r)
		return;
	memset(got, 0, sizeof(got));
	iv = 0;
	CHECK(runslice__start(r, 1000 * MS), "the first record starts the run");
	runslice__running(r, 0, 1000 * MS, 10, 11);
	runslice__switch(r, 0, 1100 * MS, 10, 11, 12);
	runslice__running(r, 2, 1050 * MS, 30, 31);
	CHECK(!runslice__start(r, 1200 * MS), "a later record does not move the start");
	CHECK(runslice__start(r, 900 * MS), "an older one, before the first edge, does");
	runslice__switch(r, 1, 950 * MS, 20, 21, 22);
	runslice__edge(r, 2000 * MS);
	CHECK(!runslice__start(r, 800 * MS), "not after an edge");
	runslice__edge(r, 2100 * MS);
	CHECK_INT(got[0][0][11], 200 * MS); /* 100 credited when the start moved */
	CHECK_INT(got[0][0][12], 1000 * MS);
	CHECK_INT(got[0][1][21], 50 * MS);
	CHECK_INT(got[0][1][22], 1150 * MS);
	CHECK_INT(got[0][2][31], 1200 * MS); /* running since the earlier start */
	runslice__delete(r);
}

struct run {
	struct synth_run h;
	struct evsel *sw, *clk;
	u64 t0; /* the injected records' clock: ahead of the real one */
};

static int start(struct run *r, const char *args)
{
	static const struct synth_fmt fmts[] = { { "sched", fmt_sched_switch }, { NULL, NULL } };
	char all[256];

	memset(r, 0, sizeof(*r));
	/* the ring path's slices, from synthesized switches (BPF: t_oncpu) */
	snprintf(all, sizeof(all), "--no-bpf %s", args);
	if (synth_run__start(&r->h, "oncpu", all, &(struct synth_run_opts){ .fmts = fmts }))
		return -1;
	r->sw = synth_run__evsel(&r->h, "sched_switch");
	for (struct evsel *ev = session__evsels(r->h.s); ev; ev = ev->next)
		if (ev != r->sw)
			r->clk = ev;
	/* every edge is "now" or the latest record, whichever is later */
	r->t0 = session__now(r->h.s) + 1000 * MS;
	return r->sw && r->clk ? 0 : -1;
}

/* sched_switch on @cpu at t0 + @ms: @prev (of process @pid) leaves for @next */
static void sw(struct run *r, u64 ms, u32 cpu, u32 pid, u32 prev, u32 next)
{
	unsigned char raw[64] = { 0 };

	/*
	 * No names in the fields: the kernel's would be the tasks' own (the
	 * engine takes them), these tests name the threads by COMM records.
	 */
	synth__field_u64(r->sw, raw, "common_pid", prev);
	synth__field_str(r->sw, raw, "prev_comm", "");
	synth__field_u64(r->sw, raw, "prev_pid", prev);
	synth__field_str(r->sw, raw, "next_comm", "");
	synth__field_u64(r->sw, raw, "next_pid", next);
	session__inject(r->h.s,
			synth__sample(&r->h.b, r->sw,
				      &(struct synth_sample){ .pid = pid,
							      .tid = prev,
							      .cpu = cpu,
							      .time = r->t0 + ms * MS,
							      .raw = raw,
							      .raw_size = 64 }),
			cpu);
}

/* a cpu-clock sample: @tid (of @pid) runs on @cpu */
static void tick(struct run *r, u64 ms, u32 cpu, u32 pid, u32 tid)
{
	session__inject(r->h.s,
			synth__sample(&r->h.b, r->clk,
				      &(struct synth_sample){ .pid = pid,
							      .tid = tid,
							      .cpu = cpu,
							      .time = r->t0 + ms * MS }),
			cpu);
}

#define PA 3999900 /* a process: threads alpha, beta */
#define TA 3999901
#define TB 3999902
#define TG 3999911 /* gamma, of process 3999910 */

/*
 * CPU 0: alpha 0-400 ms, beta 400-700, idle; alpha again 1500-1800 (its
 * switch-in only as a record); CPU 1: gamma all along, seen in samples only.
 * An interval edge at 1000 ms, the end at 2000 ms.
 */
static void scenario(struct run *r)
{
	session__inject(r->h.s, synth__comm(&r->h.b, PA, TA, "alpha", r->t0, 0), 0);
	session__inject(r->h.s, synth__comm(&r->h.b, PA, TB, "beta", r->t0, 0), 0);
	session__inject(r->h.s, synth__comm(&r->h.b, TG - 1, TG, "gamma", r->t0, 1), 1);
	tick(r, 0, 0, PA, TA);
	tick(r, 0, 1, TG - 1, TG);
	sw(r, 400, 0, PA, TA, TB);
	sw(r, 700, 0, PA, TB, 0);
	tick(r, 1000, 1, TG - 1, TG);
	r->h.p->ops.interval(r->h.s, r->h.priv);
	session__inject(r->h.s, synth__switch(&r->h.b, false, PA, TA, 0, 0, r->t0 + 1500 * MS, 0),
			0);
	sw(r, 1800, 0, PA, TA, 0);
	tick(r, 2000, 1, TG - 1, TG);
}

/* The text after the first line that starts with @head. */
static const char *after(const char *out, const char *head)
{
	const char *p = out ? strstr(out, head) : NULL;

	return p ? p + strlen(head) : "";
}

static bool has_line(const char *text, const char *line)
{
	const char *p = strstr(text, line);

	return p && (p == text || p[-1] == '\n') && (p[strlen(line)] == '\n');
}

static void test_per_cpu(void)
{
	struct run r;
	const char *out, *iv1, *all;

	if (start(&r, "-C 0,1")) {
		CHECK(0, "start oncpu on an injected session");
		return;
	}
	scenario(&r);
	out = synth_run__finish(&r.h);
	iv1 = after(out, "oncpu: 1000.00 ms on 2 CPUs\n");
	all = after(out, "oncpu: the whole run, 2000.00 ms on 2 CPUs\n");
	CHECK(*iv1, "an interval of 1000 ms: %s", out);
	CHECK(has_line(iv1, "0        700.00   70.0%  alpha:3999901                    400.00"),
	      "CPU 0, alpha first: %s", iv1);
	CHECK(has_line(iv1, "                         beta:3999902                     300.00"),
	      "then beta: %s", iv1);
	CHECK(has_line(iv1, "1       1000.00  100.0%  gamma:3999911                   1000.00"),
	      "CPU 1 gamma, from samples: %s", iv1);
	CHECK(*all, "the whole run, 2000 ms: %s", out);
	CHECK(has_line(all, "0       1000.00   50.0%  alpha:3999901                    700.00"),
	      "the run: alpha 700 ms (300 from its switch record): %s", all);
	CHECK(has_line(all, "                         beta:3999902                     300.00"),
	      "the run: beta: %s", all);
	CHECK(has_line(all, "1       2000.00  100.0%  gamma:3999911                   2000.00"),
	      "the run: gamma: %s", all);
	synth_run__cleanup(&r.h);
}

static void test_per_thread(void)
{
	struct run r;
	const char *out, *iv1, *all;

	if (start(&r, "-C 0,1 -t 3999902")) {
		CHECK(0, "start oncpu -t on an injected session");
		return;
	}
	scenario(&r);
	out = synth_run__finish(&r.h);
	iv1 = after(out, "oncpu: 1000.00 ms on 2 CPUs\n");
	all = after(out, "oncpu: the whole run, 2000.00 ms on 2 CPUs\n");
	CHECK(has_line(iv1, "beta:3999902                     300.00   30.0%  0:300.00"),
	      "-t: beta 300 ms on CPU 0: %s", out);
	CHECK(!strstr(out, "alpha") && !strstr(out, "gamma"), "-t: only the target: %s", out);
	CHECK(has_line(all, "beta:3999902                     300.00   15.0%  0:300.00"),
	      "-t: the run: %s", all);
	synth_run__cleanup(&r.h);
}

static void test_top(void)
{
	struct run r;
	const char *out;

	if (start(&r, "-C 0,1 --top 1")) {
		CHECK(0, "start oncpu --top 1 on an injected session");
		return;
	}
	scenario(&r);
	out = synth_run__finish(&r.h);
	CHECK(has_line(out, "                         ... 1 more, 300.00 ms"),
	      "--top 1: beta counted, not shown: %s", out);
	CHECK(!strstr(out, "beta:"), "--top 1: %s", out);
	synth_run__cleanup(&r.h);
}

static void task(struct run *r, u32 type, u64 ms, u32 cpu, u32 pid, u32 tid)
{
	session__inject(r->h.s, synth__task(&r->h.b, type, pid, 1, tid, 1, r->t0 + ms * MS, cpu),
			cpu);
}

static void name(struct run *r, u64 ms, u32 pid, u32 tid, const char *comm)
{
	session__inject(r->h.s, synth__comm(&r->h.b, pid, tid, comm, r->t0 + ms * MS, 0), 0);
}

/* Into @buf: the text from @p up to the next report's first line. */
static const char *table(const char *p, char *buf, size_t len)
{
	const char *end = strstr(p, " oncpu: ");

	while (end && end > p && end[-1] != '\n')
		end--;
	snprintf(buf, len, "%.*s", end ? (int)(end - p) : (int)strlen(p), p);
	return buf;
}

/*
 * CPU 0: t1..t5 (tids 101..105) run 10, 20, 30, 40, 50 ms and exit, then t6
 * (106) from 150 ms, exiting at 195 ms; its last switch is read only at 250
 * ms, after the edge at 200 ms.  Tid 105 comes back as "new" (a FORK) at 420
 * ms and runs to the end, 600 ms.  Edges at 200, 400 (idle ticks).
 */
static void exits(struct run *r)
{
	static const char *const names[] = { "t1", "t2", "t3", "t4", "t5", "t6" };
	static const u64 ends[] = { 10, 30, 60, 100, 150 };

	for (u32 i = 0; i < 6; i++)
		name(r, 0, 101 + i, 101 + i, names[i]);
	tick(r, 0, 0, 101, 101);
	for (u32 i = 0; i < 5; i++) {
		task(r, PERF_RECORD_EXIT, ends[i], 0, 101 + i, 101 + i);
		sw(r, ends[i], 0, 101 + i, 101 + i, 102 + i);
	}
	task(r, PERF_RECORD_EXIT, 195, 0, 106, 106);
	/* the edge: a sample of no task (an exited one's) */
	tick(r, 200, 0, RUNSLICE_DEAD, RUNSLICE_DEAD);
	r->h.p->ops.interval(r->h.s, r->h.priv);
	sw(r, 250, 0, 106, 106, 0);
	tick(r, 400, 0, 0, 0);
	r->h.p->ops.interval(r->h.s, r->h.priv);
	task(r, PERF_RECORD_FORK, 420, 0, 105, 105);
	name(r, 420, 105, 105, "new");
	session__inject(r->h.s, synth__switch(&r->h.b, false, 105, 105, 0, 0, r->t0 + 450 * MS, 0),
			0);
	tick(r, 600, 0, 105, 105);
}

static void test_exited(void)
{
	struct run r;
	const char *out, *p1, *p2, *p3, *iv1, *iv2, *iv3, *all;
	char b1[2048], b2[2048], b3[2048];

	if (start(&r, "-C 0 --top 3 -v")) {
		CHECK(0, "start oncpu --top 3 on an injected session");
		return;
	}
	exits(&r);
	r.h.p->ops.interval(r.h.s, r.h.priv);
	out = synth_run__finish(&r.h);
	p1 = after(out, "oncpu: 200.00 ms on 1 CPU\n");
	p2 = after(p1, "oncpu: 200.00 ms on 1 CPU\n");
	p3 = after(p2, "oncpu: 200.00 ms on 1 CPU\n");
	all = after(out, "oncpu: the whole run, 600.00 ms on 1 CPU\n");
	CHECK(*p1 && *p2 && *p3 && *all, "three intervals of 200 ms, the run: %s", out);
	iv1 = table(p1, b1, sizeof(b1));
	iv2 = table(p2, b2, sizeof(b2));
	iv3 = table(p3, b3, sizeof(b3));
	CHECK(has_line(iv1, "0        200.00  100.0%  t5:105                            50.00") &&
		      has_line(
			      iv1,
			      "                         t6:106                            50.00") &&
		      has_line(
			      iv1,
			      "                         t4:104                            40.00") &&
		      has_line(iv1, "                         ... 3 more, 60.00 ms"),
	      "the first interval: t1..t6 in it: %s", iv1);
	/* the late slice of t6, and no other exited thread */
	CHECK(has_line(iv2, "0         50.00   25.0%  t6:106                            50.00"),
	      "the second: t6's late 50 ms: %s", iv2);
	CHECK(!strstr(iv2, "t4:") && !strstr(iv2, "t5:"), "exited threads gone from it: %s", iv2);
	CHECK(has_line(iv3, "0        150.00   75.0%  new:105                          150.00"),
	      "the third: tid 105 again, as 'new': %s", iv3);
	/* t6's two parts in one row; t5 by its own name beside "new" of the same tid */
	CHECK(has_line(all, "0        400.00   66.7%  new:105                          150.00") &&
		      has_line(
			      all,
			      "                         t6:106                           100.00") &&
		      has_line(
			      all,
			      "                         t5:105                            50.00") &&
		      has_line(all, "                         ... 4 more, 100.00 ms"),
	      "the whole run: 400 ms, the 3 largest by name, 4 more: %s", all);
	CHECK(strstr(all, "; 1 rows of live threads, 3 of exited ones\n") != NULL,
	      "memory: one live row, --top exited rows kept: %s", all);
	synth_run__cleanup(&r.h);
}

#define PD 3999904 /* delta, of process PA, alive at the end */

/* -p PA: alpha, beta and a third thread exit in the first interval; delta runs in the second. */
static void test_exited_threads(void)
{
	struct run r;
	const char *out, *iv2, *all;
	char b[2048];

	if (start(&r, "-C 0 -p 3999900 --top 1")) {
		CHECK(0, "start oncpu -p on an injected session");
		return;
	}
	name(&r, 0, PA, TA, "alpha");
	name(&r, 0, PA, TB, "beta");
	name(&r, 0, PA, TB + 1, "gamma");
	name(&r, 0, PA, PD, "delta");
	tick(&r, 0, 0, PA, TA);
	task(&r, PERF_RECORD_EXIT, 100, 0, PA, TA);
	sw(&r, 100, 0, PA, TA, TB);
	task(&r, PERF_RECORD_EXIT, 150, 0, PA, TB);
	sw(&r, 150, 0, PA, TB, TB + 1);
	task(&r, PERF_RECORD_EXIT, 180, 0, PA, TB + 1);
	sw(&r, 180, 0, PA, TB + 1, 0);
	tick(&r, 200, 0, 0, 0);
	r.h.p->ops.interval(r.h.s, r.h.priv);
	session__inject(r.h.s, synth__switch(&r.h.b, false, PA, PD, 0, 0, r.t0 + 250 * MS, 0), 0);
	tick(&r, 400, 0, PA, PD);
	r.h.p->ops.interval(r.h.s, r.h.priv);
	out = synth_run__finish(&r.h);
	iv2 = table(after(after(out, "oncpu: 200.00 ms on 1 CPU\n"), "oncpu: 200.00 ms on 1 CPU\n"),
		    b, sizeof(b));
	all = after(out, "oncpu: the whole run, 400.00 ms on 1 CPU\n");
	CHECK(strstr(out, "alpha:3999901                    100.00   50.0%  0:100.00\n") != NULL,
	      "-p: alpha in the first interval: %s", out);
	CHECK(has_line(iv2, "delta:3999904                    150.00   75.0%  0:150.00") &&
		      !strstr(iv2, "alpha") && !strstr(iv2, "beta") && !strstr(iv2, "gamma"),
	      "-p: the second interval without the threads that exited before: %s", iv2);
	CHECK(has_line(all, "delta:3999904                    150.00   37.5%  0:150.00") &&
		      has_line(all, "alpha:3999901                    100.00   25.0%  0:100.00") &&
		      has_line(all, "... 2 more exited threads, 80.00 ms"),
	      "-p: the whole run: delta, the largest exited, 2 more: %s", all);
	synth_run__cleanup(&r.h);
}

/*
 * -p PA: alpha exits in the first interval while on CPU (retired at its end);
 * its slice's end comes in the second, and the run ends before a third: one
 * row of alpha in the whole run, both parts in it (seen live as two rows).
 */
static void test_late_at_end(void)
{
	struct run r;
	const char *out, *all;
	int rows = 0;

	if (start(&r, "-C 0 -p 3999900")) {
		CHECK(0, "start oncpu -p on an injected session");
		return;
	}
	name(&r, 0, PA, TA, "alpha");
	tick(&r, 0, 0, PA, TA);
	task(&r, PERF_RECORD_EXIT, 195, 0, PA, TA);
	tick(&r, 200, 0, RUNSLICE_DEAD, RUNSLICE_DEAD);
	r.h.p->ops.interval(r.h.s, r.h.priv);
	sw(&r, 250, 0, PA, TA, 0);
	tick(&r, 300, 0, 0, 0);
	out = synth_run__finish(&r.h);
	all = after(out, "oncpu: the whole run, 300.00 ms on 1 CPU\n");
	for (const char *p = all; (p = strstr(p, "alpha:")); p++)
		rows++;
	CHECK(has_line(all, "alpha:3999901                    250.00   83.3%  0:250.00") &&
		      rows == 1,
	      "-p: the whole run: alpha's 200 + 50 ms in one row (%d): %s", rows, all);
	synth_run__cleanup(&r.h);
}

/* CPU 1's buffer read after CPU 0's, its records older: the run starts with them. */
static void test_late_buffer(void)
{
	struct run r;
	const char *out, *all;

	if (start(&r, "-C 0,1")) {
		CHECK(0, "start oncpu on an injected session");
		return;
	}
	name(&r, 0, PA, TA, "alpha");
	name(&r, 0, TG - 1, TG, "gamma");
	tick(&r, 100, 0, PA, TA);
	tick(&r, 200, 0, PA, TA);
	tick(&r, 0, 1, TG - 1, TG);
	tick(&r, 200, 1, TG - 1, TG);
	out = synth_run__finish(&r.h);
	all = after(out, "oncpu: the whole run, 200.00 ms on 2 CPUs\n");
	CHECK(has_line(all, "0        200.00  100.0%  alpha:3999901                    200.00") &&
		      has_line(all,
			       "1        200.00  100.0%  gamma:3999911                    200.00"),
	      "the run from CPU 1's first record, alpha since then too: %s", out);
	synth_run__cleanup(&r.h);
}

int main(void)
{
	test_runslice();
	test_late_cpu();
	test_per_cpu();
	test_per_thread();
	test_top();
	test_exited();
	test_exited_threads();
	test_late_at_end();
	test_late_buffer();
	return ut_done("test_oncpu");
}
