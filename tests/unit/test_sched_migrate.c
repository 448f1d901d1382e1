// SPDX-License-Identifier: GPL-2.0
/*
 * sched-migrate on an injected session over a fake sysfs of 4 CPUs on 2
 * nodes: CPUs 0 and 1 share an L2 and an LLC on node 0, 2 and 3 an LLC
 * (not an L2) on node 1.  Migrations: task "a" 0 -> 1 (l2), 0 -> 2
 * (remote), 2 -> 3 (llc); task "b" 1 -> 0 twice (l2).  The summary's
 * cumulative shares, the rows per task (most first) and per CPU pair with
 * their distances, the same in --json; -i: an interval's counts start
 * again; -p: a thread of the process by its FORK record, though the mover
 * is another task, and not a thread of another process; the comm payload
 * as __data_loc (this kernel's) and as char[16] (older kernels').
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cputopo_tree.h"
#include "fmt_common.h"
#include "synth_run.h"
#include "ut.h"

static const char fmt_loc[] =
	"name: sched_migrate_task\n"
	"ID: 371\n"
	"format:\n" FMT_COMMON_FIELDS
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", __get_str(comm), "
	"REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu\n";

static const char fmt_arr[] =
	"name: sched_migrate_task\n"
	"ID: 371\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:36;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, "
	"REC->prio, REC->orig_cpu, REC->dest_cpu\n";

static const char fmt_numa[] =
	"name: sched_move_numa\n"
	"ID: 372\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t tgid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t ngid;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int src_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:int src_nid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int dst_cpu;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int dst_nid;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"pid=%d tgid=%d ngid=%d src_cpu=%d src_nid=%d dst_cpu=%d dst_nid=%d\", "
	"REC->pid, REC->tgid, REC->ngid, REC->src_cpu, REC->src_nid, REC->dst_cpu, "
	"REC->dst_nid\n";

static const struct synth_fmt fmts_loc[] = { { "sched", fmt_loc }, { NULL, NULL } };
static const struct synth_fmt fmts_numa[] = { { "sched", fmt_loc },
					      { "sched", fmt_numa },
					      { NULL, NULL } };
static const struct synth_fmt fmts_arr[] = { { "sched", fmt_arr }, { NULL, NULL } };
static bool old_layout;

/* A migration of @tid (@comm) from @orig to @dest, moved by task 7 on CPU @orig. */
static void mig(struct synth_run *r, struct evsel *ev, const char *comm, int tid, int orig,
		int dest, u64 t)
{
	unsigned char raw[48] = { 0 };
	int prio = 120, n = (int)strlen(comm) + 1, base = old_layout ? 24 : 12;
	u32 loc = (u32)n << 16 | 28, size = old_layout ? 40 : 28 + (u32)n;

	if (old_layout) {
		memcpy(raw + 8, comm, n);
	} else {
		memcpy(raw + 8, &loc, 4);
		memcpy(raw + 28, comm, n);
	}
	memcpy(raw + base, &tid, 4);
	memcpy(raw + base + 4, &prio, 4);
	memcpy(raw + base + 8, &orig, 4);
	memcpy(raw + base + 12, &dest, 4);
	synth_run__tp(r, ev, 7, 7, (u32)orig, t, raw, (size + 3) & ~3u);
}

/* sched_move_numa: task @tid is to move from @src to @dst (announced by the task itself). */
static void move_numa(struct synth_run *r, struct evsel *ev, int tid, int src, int dst, u64 t)
{
	int raw[7] = { tid, tid, tid, src, 0, dst, 0 };
	unsigned char b[36] = { 0 };

	memcpy(b + 8, raw, sizeof(raw));
	synth_run__tp(r, ev, (u32)tid, (u32)tid, (u32)src, t, b, sizeof(b));
}

static void feed(struct synth_run *r, struct evsel *ev, u64 t)
{
	mig(r, ev, "a", 100, 0, 1, t + 1000);
	mig(r, ev, "b", 200, 1, 0, t + 2000);
	mig(r, ev, "a", 100, 0, 2, t + 3000);
	mig(r, ev, "b", 200, 1, 0, t + 4000);
	mig(r, ev, "a", 100, 2, 3, t + 5000);
}

static const char tables[] = "migrations 5, same L2 3 (60.0%), same LLC 4 (80.0%), cross-node 1 "
			     "(20.0%)\n"
			     "\n"
			     "    TID COMM             MIGRATIONS OUT_OF_LLC CROSS_NODE\n"
			     "    100 a                         3          1          1\n"
			     "    200 b                         2          0          0\n"
			     "\n"
			     " FROM    TO MIGRATIONS  DISTANCE\n"
			     "    1     0          2  l2      \n"
			     "    0     1          1  l2      \n"
			     "    0     2          1  remote  \n"
			     "    2     3          1  llc     \n";

static void run_tables(const struct synth_fmt *fmts, const char *what)
{
	struct synth_run r;
	struct evsel *ev;
	const char *out;

	CHECK(!synth_run__start(&r, "sched-migrate", "", &(struct synth_run_opts){ .fmts = fmts }),
	      "start: %s", synth_run__err(&r));
	if ((ev = synth_run__evsel(&r, "sched_migrate_task")))
		feed(&r, ev, 1000000000ULL);
	out = synth_run__finish(&r);
	CHECK(!strcmp(out, tables), "%s: the tables:\n%s", what, out);
	synth_run__cleanup(&r);
}

int main(void)
{
	struct synth_run r;
	struct evsel *ev, *ev2;
	const char *out;
	char args[64];
	u64 t0 = 1000000000ULL;

	CHECK(!cputopo_tree__make(), "the fake sysfs");

	run_tables(fmts_loc, "comm as __data_loc");
	old_layout = true;
	run_tables(fmts_arr, "comm as char[16]");
	old_layout = false;

	/* --json: the same counts */
	CHECK(!synth_run__start(&r, "sched-migrate", "--json",
				&(struct synth_run_opts){ .fmts = fmts_loc }),
	      "start --json: %s", synth_run__err(&r));
	if ((ev = synth_run__evsel(&r, "sched_migrate_task")))
		feed(&r, ev, t0);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "\"migrations\":5,\"same_l2\":3,\"same_llc\":4,\"same_node\":4,"
			  "\"cross_node\":1,\"nodes\":2}\n") != NULL,
	      "JSON summary: %s", out);
	CHECK(strstr(out, "\"tid\":100,\"comm\":\"a\",\"migrations\":3,\"out_of_llc\":1,"
			  "\"cross_node\":1}") != NULL,
	      "JSON task a: %s", out);
	CHECK(strstr(out,
		     "\"orig_cpu\":0,\"dest_cpu\":2,\"migrations\":1,\"distance\":\"remote\"}") !=
		      NULL,
	      "JSON pair 0 -> 2: %s", out);
	CHECK(strstr(out, "\"type\":\"reason\"") == NULL, "no reasons without -g: %s", out);
	synth_run__cleanup(&r);

	/* --detail: a line per migration, the mover's head, the task's words */
	CHECK(!synth_run__start(&r, "sched-migrate", "--detail",
				&(struct synth_run_opts){ .fmts = fmts_loc }),
	      "start --detail: %s", synth_run__err(&r));
	if ((ev = synth_run__evsel(&r, "sched_migrate_task")))
		feed(&r, ev, t0);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "[000] migrate: a 100 prio 120: CPU 0 -> 2 (remote)\n") != NULL,
	      "--detail's line: %s", out);
	synth_run__cleanup(&r);

	/* -i: each interval counts its own */
	CHECK(!synth_run__start(&r, "sched-migrate", "-i 1000",
				&(struct synth_run_opts){ .fmts = fmts_loc }),
	      "start -i: %s", synth_run__err(&r));
	if ((ev = synth_run__evsel(&r, "sched_migrate_task"))) {
		feed(&r, ev, t0);
		r.p->ops.interval(r.s, r.priv);
		mig(&r, ev, "b", 200, 1, 0, t0 + 9000);
	}
	out = synth_run__finish(&r);
	CHECK(strstr(out, "migrations 5, ") != NULL && strstr(out, "migrations 1, ") != NULL &&
		      strstr(out, "    200 b                         1          0          0\n") !=
			      NULL,
	      "two intervals, the second of one: %s", out);
	synth_run__cleanup(&r);

	/* -p: thread 4242 of this process (its FORK record), not 200 */
	snprintf(args, sizeof(args), "-p %d", (int)getpid());
	CHECK(!synth_run__start(&r, "sched-migrate", args,
				&(struct synth_run_opts){ .fmts = fmts_loc }),
	      "start -p: %s", synth_run__err(&r));
	if ((ev = synth_run__evsel(&r, "sched_migrate_task"))) {
		session__inject(r.s,
				synth__task(&r.b, PERF_RECORD_FORK, (u32)getpid(), (u32)getpid(),
					    4242, (u32)getpid(), t0, 0),
				0);
		mig(&r, ev, "t", 4242, 0, 1, t0 + 1000);
		mig(&r, ev, "b", 200, 1, 0, t0 + 2000);
		mig(&r, ev, "t", 4242, 1, 0, t0 + 3000);
	}
	out = synth_run__finish(&r);
	CHECK(strstr(out, "migrations 2, ") != NULL &&
		      strstr(out, "   4242 t                         2          0          0\n") !=
			      NULL &&
		      strstr(out, " 200 b ") == NULL,
	      "-p: the process's thread only: %s", out);
	synth_run__cleanup(&r);

	/*
	 * -p: a thread that exited (EXIT after its migrations, in time order)
	 * still counts; its pid used again by another process's thread does
	 * not; a thread of another process (its FORK) neither
	 */
	CHECK(!synth_run__start(&r, "sched-migrate", args,
				&(struct synth_run_opts){ .fmts = fmts_loc }),
	      "start -p exit: %s", synth_run__err(&r));
	if ((ev = synth_run__evsel(&r, "sched_migrate_task"))) {
		u32 me = (u32)getpid();

		session__inject(r.s, synth__task(&r.b, PERF_RECORD_FORK, me, me, 4242, me, t0, 0),
				0);
		mig(&r, ev, "t", 4242, 0, 1, t0 + 1000);
		session__inject(r.s,
				synth__task(&r.b, PERF_RECORD_EXIT, me, me, 4242, me, t0 + 2000, 0),
				0);
		session__inject(
			r.s, synth__task(&r.b, PERF_RECORD_FORK, 9999, 1, 4242, 9999, t0 + 3000, 0),
			0);
		mig(&r, ev, "u", 4242, 1, 0, t0 + 4000);
		session__inject(
			r.s, synth__task(&r.b, PERF_RECORD_FORK, 9999, 1, 4343, 9999, t0 + 5000, 0),
			0);
		mig(&r, ev, "v", 4343, 1, 0, t0 + 6000);
		mig(&r, ev, "t", (int)me, 1, 0, t0 + 7000);
	}
	out = synth_run__finish(&r);
	CHECK(strstr(out, "migrations 2, ") != NULL &&
		      strstr(out, "   4242 t                         1          0          0\n") !=
			      NULL &&
		      strstr(out, " u ") == NULL && strstr(out, " v ") == NULL,
	      "-p: the exited thread counts, the pid reused by another process not: %s", out);
	synth_run__cleanup(&r);

	/*
	 * -g: the migration sched_move_numa announced (same task, same CPUs)
	 * is "numa" though the stopper's stack does not tell; the announcement
	 * is used up by the task's next migration (here from other CPUs: not
	 * that move), which is told by its stack (none here: "other")
	 */
	CHECK(!synth_run__start(&r, "sched-migrate", "-g",
				&(struct synth_run_opts){ .fmts = fmts_numa, .json = true }),
	      "start -g: %s", synth_run__err(&r));
	if ((ev = synth_run__evsel(&r, "sched_migrate_task")) &&
	    (ev2 = synth_run__evsel(&r, "sched_move_numa"))) {
		move_numa(&r, ev2, 100, 0, 2, t0 + 500);
		mig(&r, ev, "a", 100, 0, 2, t0 + 1000);
		mig(&r, ev, "a", 100, 2, 3, t0 + 2000);
		move_numa(&r, ev2, 200, 1, 3, t0 + 3000);
		mig(&r, ev, "b", 200, 1, 0, t0 + 4000);
		mig(&r, ev, "b", 200, 1, 3, t0 + 5000);
	} else {
		CHECK(0, "-g opens sched_move_numa");
	}
	out = synth_run__finish(&r);
	CHECK(strstr(out, "\"reason\":\"numa\",\"migrations\":1}") != NULL &&
		      strstr(out, "\"reason\":\"other\",\"migrations\":3}") != NULL,
	      "-g: one NUMA move: %s", out);
	synth_run__cleanup(&r);

	/* the task table's rows are bounded: the rest counted in the total and said */
	CHECK(!synth_run__start(&r, "sched-migrate", "",
				&(struct synth_run_opts){ .fmts = fmts_loc }),
	      "start many: %s", synth_run__err(&r));
	if ((ev = synth_run__evsel(&r, "sched_migrate_task")))
		for (int i = 0; i < 65536 + 3; i++)
			mig(&r, ev, "m", 100000 + i, 0, 1, t0 + (u64)i);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "migrations 65539, ") != NULL &&
		      strstr(out, "sched-migrate: 3 migrations of tasks beyond the table's 65536 "
				  "rows not listed per task") != NULL,
	      "the table's bound: %.300s", out + (strlen(out) > 300 ? strlen(out) - 300 : 0));
	synth_run__cleanup(&r);

	cputopo_tree__remove();
	return ut_done("sched_migrate");
}
