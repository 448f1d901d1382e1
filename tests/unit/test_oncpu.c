// SPDX-License-Identifier: GPL-2.0
/*
 * Who runs where: analysis/runslice on synthesized switches (a slice cut
 * at interval edges, the first task of a CPU running since the start, a
 * switch known only from the kernel's context-switch records, a CPU known
 * only from samples, lost records, a record read after the edge it
 * precedes, a missed switch, a task's last records after its exit), then oncpu on an injected session: sched_switch
 * samples, switch records and cpu-clock samples with known answers, per
 * CPU, per thread (-t) and cut by --top.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/runslice.h"
#include "cli/options.h"
#include "expr_formats.h"
#include "profiler.h"
#include "synth.h"
#include "ut.h"

#define MS 1000000ULL

/* runslice: what was credited, per interval, CPU and tid (< 32) */
static u64 got[3][2][32];
static u32 pid_of[32];
static int iv;

static void take(void *arg, u32 cpu, u32 pid, u32 tid, u64 ns)
{
	(void)arg;
	if (cpu < 2 && tid < 32) {
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

struct run {
	const struct profiler *p;
	void *priv;
	struct session *s;
	struct opt_set opts;
	struct engine_conf conf;
	struct evsel *sw, *clk;
	char *out;
	size_t out_len;
	FILE *fp;
	struct synth b;
	u64 t0; /* the injected records' clock: ahead of the real one */
};

static int start(struct run *r, const char *args)
{
	char *argv[16], *copy = strdup(args), *save = NULL;
	int argc = 0;

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < nr_profilers; i++)
		if (!strcmp(profilers[i]->name, "oncpu"))
			r->p = profilers[i];
	if (!r->p || !copy)
		return -1;
	argv[argc++] = "oncpu";
	for (char *t = strtok_r(copy, " ", &save); t && argc < 15; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	r->priv = calloc(1, r->p->priv_size);
	if (options__parse(r->p, argc, argv, &r->opts, r->priv))
		return -1;
	options__engine_conf(&r->opts, &r->conf);
	r->fp = open_memstream(&r->out, &r->out_len);
	r->s = session__new(&r->conf, r->fp);
	if (!r->s || session__add_ops(r->s, &r->p->ops, r->priv) ||
	    session__add_format(r->s, "sched", fmt_sched_switch) ||
	    r->p->init(r->s, r->priv, &r->opts))
		return -1;
	for (struct evsel *ev = session__evsels(r->s); ev; ev = ev->next) {
		if (strstr(ev->name, "sched_switch"))
			r->sw = ev;
		else
			r->clk = ev;
	}
	free(copy);
	/* every edge is "now" or the latest record, whichever is later */
	r->t0 = session__now(r->s) + 1000 * MS;
	return r->sw && r->clk ? session__inject_begin(r->s) : -1;
}

static const char *finish(struct run *r)
{
	r->p->deinit(r->s, r->priv);
	fflush(r->fp);
	return r->out;
}

static void cleanup(struct run *r)
{
	session__delete(r->s);
	fclose(r->fp);
	free(r->out);
	free(r->priv);
	options__free(&r->opts);
}

/* sched_switch on @cpu at t0 + @ms: @prev (of process @pid) leaves for @next */
static void sw(struct run *r, u64 ms, u32 cpu, u32 pid, u32 prev, u32 next)
{
	unsigned char raw[64] = { 0 };

	synth__field_u64(r->sw, raw, "common_pid", prev);
	synth__field_str(r->sw, raw, "prev_comm", "x");
	synth__field_u64(r->sw, raw, "prev_pid", prev);
	synth__field_str(r->sw, raw, "next_comm", "y");
	synth__field_u64(r->sw, raw, "next_pid", next);
	session__inject(r->s,
			synth__sample(&r->b, r->sw,
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
	session__inject(r->s,
			synth__sample(&r->b, r->clk,
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
	session__inject(r->s, synth__comm(&r->b, PA, TA, "alpha", r->t0, 0), 0);
	session__inject(r->s, synth__comm(&r->b, PA, TB, "beta", r->t0, 0), 0);
	session__inject(r->s, synth__comm(&r->b, TG - 1, TG, "gamma", r->t0, 1), 1);
	tick(r, 0, 0, PA, TA);
	tick(r, 0, 1, TG - 1, TG);
	sw(r, 400, 0, PA, TA, TB);
	sw(r, 700, 0, PA, TB, 0);
	tick(r, 1000, 1, TG - 1, TG);
	r->p->ops.interval(r->s, r->priv);
	session__inject(r->s, synth__switch(&r->b, false, PA, TA, 0, 0, r->t0 + 1500 * MS, 0), 0);
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
	out = finish(&r);
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
	cleanup(&r);
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
	out = finish(&r);
	iv1 = after(out, "oncpu: 1000.00 ms on 2 CPUs\n");
	all = after(out, "oncpu: the whole run, 2000.00 ms on 2 CPUs\n");
	CHECK(has_line(iv1, "beta:3999902                     300.00   30.0%  0:300.00"),
	      "-t: beta 300 ms on CPU 0: %s", out);
	CHECK(!strstr(out, "alpha") && !strstr(out, "gamma"), "-t: only the target: %s", out);
	CHECK(has_line(all, "beta:3999902                     300.00   15.0%  0:300.00"),
	      "-t: the run: %s", all);
	cleanup(&r);
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
	out = finish(&r);
	CHECK(has_line(out, "                         ... 1 more, 300.00 ms"),
	      "--top 1: beta counted, not shown: %s", out);
	CHECK(!strstr(out, "beta:"), "--top 1: %s", out);
	cleanup(&r);
}

int main(void)
{
	test_runslice();
	test_per_cpu();
	test_per_thread();
	test_top();
	return ut_done("test_oncpu");
}
