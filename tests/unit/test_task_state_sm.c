// SPDX-License-Identifier: GPL-2.0
/*
 * task-state's state machine on an injected session: synthesized
 * sched_switch / sched_wakeup samples and COMM / EXIT / LOST / SWITCH
 * records with known answers, no kernel involved.  Each interval below has
 * a known length; those the tool must not count (a lost record in the
 * middle, an exit, a second switch-out without a switch-in) are checked to
 * be left out and reported.
 */
#include <stdlib.h>
#include <string.h>

#include "expr_formats.h"
#include "synth_run.h"
#include "ut.h"

#define MS 1000000ULL

enum { S_ = 1, D_ = 2 }; /* prev_state bits */

struct run {
	struct synth_run h;
	struct evsel *sw, *wk;
};

/* task-state with these options, on an injected session */
static int start(struct run *r, const char *args)
{
	static const struct synth_fmt fmts[] = { { "sched", fmt_sched_switch },
						 { "sched", fmt_sched_wakeup },
						 { NULL, NULL } };

	char all[512];

	/* the ring path: these records are injected samples (no kernel) */
	snprintf(all, sizeof(all), "--no-bpf %s", args);
	memset(r, 0, sizeof(*r));
	if (synth_run__start(&r->h, "task-state", all, &(struct synth_run_opts){ .fmts = fmts }))
		return -1;
	for (struct evsel *ev = session__evsels(r->h.s); ev; ev = ev->next) {
		if (strstr(ev->name, "sched_switch"))
			r->sw = ev; /* with -S/-D: the last of the two (switch-in) */
		else
			r->wk = ev;
	}
	return 0;
}

/* a sched_switch on @cpu at @t: @prev leaves in @state, @next comes in (0: idle) */
static void sw(struct run *r, u64 t, u32 cpu, u32 prev, u64 state, u32 next)
{
	unsigned char raw[64] = { 0 };
	char comm[16];

	for (struct evsel *ev = session__evsels(r->h.s); ev; ev = ev->next) {
		if (!strstr(ev->name, "sched_switch"))
			continue;
		memset(raw, 0, sizeof(raw));
		synth__field_u64(ev, raw, "common_pid", prev);
		snprintf(comm, sizeof(comm), "t%u", prev);
		synth__field_str(ev, raw, "prev_comm", prev ? comm : "swapper/0");
		synth__field_u64(ev, raw, "prev_pid", prev);
		synth__field_u64(ev, raw, "prev_state", state);
		snprintf(comm, sizeof(comm), "t%u", next);
		synth__field_str(ev, raw, "next_comm", next ? comm : "swapper/0");
		synth__field_u64(ev, raw, "next_pid", next);
		/* each sched_switch event of the session sees the switch (filters aside) */
		session__inject(r->h.s,
				synth__sample(&r->h.b, ev,
					      &(struct synth_sample){ .pid = prev,
								      .tid = prev,
								      .cpu = cpu,
								      .time = t,
								      .raw = raw,
								      .raw_size = 64 }),
				cpu);
	}
}

static void wakeup(struct run *r, u64 t, u32 cpu, u32 waker, u32 tid)
{
	unsigned char raw[40] = { 0 };

	synth__field_u64(r->wk, raw, "common_pid", waker);
	synth__field_str(r->wk, raw, "comm", "woken");
	synth__field_u64(r->wk, raw, "pid", tid);
	session__inject(r->h.s,
			synth__sample(&r->h.b, r->wk,
				      &(struct synth_sample){ .pid = waker,
							      .tid = waker,
							      .cpu = cpu,
							      .time = t,
							      .raw = raw,
							      .raw_size = 36 }),
			cpu);
}

/* field @n (1-based, blank-separated) of the row starting with @key */
static const char *col(const char *out, const char *key, int n, char *buf, size_t len)
{
	const char *p = out;
	size_t kl = strlen(key);

	buf[0] = 0;
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p;

		if (strncmp(p, key, kl) || (p[kl] != ' ' && p[kl] != '\n'))
			continue;
		for (int i = 1; i <= n; i++) {
			size_t w;

			while (*q == ' ')
				q++;
			w = strcspn(q, " \n");
			if (i == n) {
				snprintf(buf, len, "%.*s", (int)w, q);
				return buf;
			}
			q += w;
		}
	}
	return buf;
}

/* The intervals of every kind, all states. */
static void test_all_states(void)
{
	struct run r;
	const char *out;
	char b[64];

	if (start(&r, "")) {
		CHECK(0, "start task-state on an injected session");
		return;
	}
	/* 1. S on CPU 0, woken at 4 ms, back on CPU 1 at 5 ms: sleep 3, runq 1 */
	sw(&r, 1 * MS, 0, 100, S_, 0);
	wakeup(&r, 4 * MS, 1, 1, 100);
	sw(&r, 5 * MS, 1, 0, 0, 100);
	/* 2. D for 20 ms, never woken by a traced wakeup */
	sw(&r, 10 * MS, 0, 200, D_, 0);
	sw(&r, 30 * MS, 0, 0, 0, 200);
	/* 3. preempted (R): 1 ms on the run queue */
	sw(&r, 40 * MS, 1, 300, 0, 301);
	sw(&r, 41 * MS, 1, 301, S_, 300);
	/* 4. a lost record in the middle: that interval is dropped */
	sw(&r, 50 * MS, 0, 400, S_, 0);
	session__inject(r.h.s, synth__lost(&r.h.b, 10, 55 * MS, 0), 0);
	sw(&r, 60 * MS, 0, 0, 0, 400);
	/* 5. an exit: the pending interval goes, a reused tid starts clean */
	sw(&r, 70 * MS, 0, 500, S_, 0);
	session__inject(r.h.s, synth__task(&r.h.b, PERF_RECORD_EXIT, 500, 1, 500, 1, 75 * MS, 0),
			0);
	sw(&r, 80 * MS, 0, 0, 0, 500);
	/* 6. the switch-in seen only as the kernel's context-switch record: 5 ms */
	sw(&r, 90 * MS, 0, 600, S_, 0);
	session__inject(r.h.s, synth__switch(&r.h.b, false, 600, 600, 0, 0, 95 * MS, 1), 1);
	/* 7. out twice without a switch-in: the first is dropped, the second is 1 ms */
	sw(&r, 100 * MS, 0, 700, S_, 0);
	sw(&r, 110 * MS, 1, 700, S_, 0);
	sw(&r, 111 * MS, 0, 0, 0, 700);
	out = synth_run__finish(&r.h);

	/* S: 1 (4 ms) + 6 (5 ms) + 7 (1 ms); 301's S from case 3 never ends */
	CHECK_STR(col(out, "S", 2, b, sizeof(b)), "3");
	CHECK_STR(col(out, "S", 3, b, sizeof(b)), "10.000ms");
	CHECK_STR(col(out, "  sleep", 2, b, sizeof(b)), "1");
	CHECK_STR(col(out, "  sleep", 3, b, sizeof(b)), "3.000ms");
	CHECK_STR(col(out, "  runq", 3, b, sizeof(b)), "1.000ms");
	CHECK_STR(col(out, "D", 2, b, sizeof(b)), "1");
	CHECK_STR(col(out, "D", 3, b, sizeof(b)), "20.000ms");
	CHECK_STR(col(out, "R", 2, b, sizeof(b)), "1");
	CHECK_STR(col(out, "R", 3, b, sizeof(b)), "1.000ms");
	/* pending at the lost record: 400, and 301 (out at 41 ms, never back) */
	CHECK(strstr(out, "task-state: 2 pending intervals dropped after lost events\n") != NULL,
	      "lost reported:\n%s", out);
	CHECK(strstr(out, "task-state: 1 pending intervals dropped at their task's exit\n") != NULL,
	      "exit reported:\n%s", out);
	CHECK(strstr(out, "task-state: 1 intervals dropped: switch-in not seen") != NULL,
	      "unpaired reported:\n%s", out);
	synth_run__cleanup(&r.h);
}

/* -D: only D intervals; --perins: one row per thread */
static void test_options(void)
{
	struct run r;
	const char *out;
	char b[64];

	if (start(&r, "-D --perins")) {
		CHECK(0, "start task-state -D --perins");
		return;
	}
	sw(&r, 1 * MS, 0, 100, S_, 0);
	sw(&r, 2 * MS, 0, 0, 0, 100);
	sw(&r, 3 * MS, 0, 200, D_, 0);
	sw(&r, 7 * MS, 1, 0, 0, 200);
	sw(&r, 8 * MS, 0, 201, D_, 0);
	sw(&r, 9 * MS, 1, 0, 0, 201);
	sw(&r, 10 * MS, 0, 200, D_, 0);
	sw(&r, 12 * MS, 1, 0, 0, 200);
	out = synth_run__finish(&r.h);
	CHECK(strncmp(out, "STATE COMM                 TID", 30) == 0, "perins header:\n%s", out);
	/* largest total first */
	CHECK_STR(col(out, "D     t200", 3, b, sizeof(b)), "200");
	CHECK_STR(col(out, "D     t200", 4, b, sizeof(b)), "2");
	CHECK_STR(col(out, "D     t200", 5, b, sizeof(b)), "6.000ms");
	CHECK_STR(col(out, "D     t201", 5, b, sizeof(b)), "1.000ms");
	CHECK(strstr(out, "D     t200") < strstr(out, "D     t201"), "order:\n%s", out);
	CHECK(!strstr(out, "\nS "), "no S row with -D:\n%s", out);
	synth_run__cleanup(&r.h);
}

/*
 * The original's state options on the same records (one S, one D, one R
 * interval): each choice keeps exactly its rows, the last option for a
 * state winning.
 */
static void test_state_options(void)
{
	static const struct {
		const char *args;
		bool S, D, R;
	} cases[] = {
		{ "", true, true, true },
		{ "-SD", true, true, false },
		{ "-S", true, false, false },
		{ "--no-interruptible", false, true, true },
		{ "--no-uninterruptible", true, false, true },
		{ "--no-interruptible --no-uninterruptible", false, false, true },
		{ "-S --no-interruptible", false, true, true },
		{ "--no-interruptible -S", true, false, false },
		{ "-SD --no-uninterruptible", true, false, false },
	};
	char b[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;
		const char *out;

		if (start(&r, cases[i].args)) {
			CHECK(0, "start task-state %s", cases[i].args);
			continue;
		}
		sw(&r, 1 * MS, 0, 100, S_, 0);
		sw(&r, 2 * MS, 0, 0, 0, 100);
		sw(&r, 3 * MS, 0, 200, D_, 0);
		sw(&r, 5 * MS, 0, 0, 0, 200);
		sw(&r, 6 * MS, 0, 300, 0, 0); /* preempted while runnable: R */
		sw(&r, 9 * MS, 0, 0, 0, 300);
		out = synth_run__finish(&r.h);
		CHECK(!strcmp(col(out, "S", 2, b, sizeof(b)), cases[i].S ? "1" : ""),
		      "'%s': S row %s:\n%s", cases[i].args, cases[i].S ? "wanted" : "unwanted",
		      out);
		CHECK(!strcmp(col(out, "D", 2, b, sizeof(b)), cases[i].D ? "1" : ""),
		      "'%s': D row %s:\n%s", cases[i].args, cases[i].D ? "wanted" : "unwanted",
		      out);
		CHECK(!strcmp(col(out, "R", 2, b, sizeof(b)), cases[i].R ? "1" : ""),
		      "'%s': R row %s:\n%s", cases[i].args, cases[i].R ? "wanted" : "unwanted",
		      out);
		synth_run__cleanup(&r.h);
	}
}

int main(void)
{
	test_all_states();
	test_options();
	test_state_options();
	return ut_done("test_task_state_sm");
}
