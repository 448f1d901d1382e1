// SPDX-License-Identifier: GPL-2.0
/* rundelay's in-kernel programs: see rundelay_bpf.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/multipoint.h"
#include "analysis/latency/rundelay_bpf.h"

/* A thread's state in the start map; a start's row is its state - 1 (rundelay.c's P_*). */
enum { ST_NONE, ST_WAKEUP, ST_WAKEUP_NEW, ST_PREEMPT, ST_ASLEEP };
#define P_SWITCH_IN 3

/* the start map's value */
struct rd_start {
	u64 time;
	u32 state, pad;
	u64 run_delay; /* the task's sched_info.run_delay at the start (0: none) */
};

/* sched_switch's prev_state as the trace record reports it (__trace_sched_switch_state) */
#define TASK_REPORT 0x7f
#define TASK_IDLE 0x402		/* TASK_UNINTERRUPTIBLE | TASK_NOLOAD: reported as I (asleep) */
#define TASK_RTLOCK_WAIT 0x1000 /* reported as D */
#define REPORT_DEAD_LO 0x10	/* EXIT_DEAD, EXIT_ZOMBIE: the highest bit reported */
#define REPORT_PARKED 0x40

/*
 * The programs' stack: the comm under BPF_BACK_SCRATCH, a start's key and
 * value, spills, then bpf_lat's row key (row = the start point, the
 * --perins tid or 0) and its scratch.
 */
enum {
	S_COMM = -24,
	S_KEY = -104,
	S_VAL = -128,
	S_SPILL = -136,
	S_CTX = -144,
	S_TASK = -152,
	S_ROW = -168,
	S_LAT = S_ROW - BPF_LAT_SCRATCH,
};

#define MAX_GLOBS 16
struct glob {
	u64 val[2], mask[2];
};

struct rd_bpf {
	struct bpf_back *b;
	struct rd_bpf_conf conf;
	bool btf;    /* tp_btf, else raw tracepoints */
	int sw_args; /* sched_switch's arguments (4: prev_state is one) */
	int off_pid, off_tgid, off_comm, off_exit, off_state;
	int off_run_delay; /* task_struct.sched_info.run_delay, -1: none */
	unsigned state_size;
	struct glob globs[MAX_GLOBS];
	int nr_globs; /* 0: no --filter (or one glob matches all) */
	int start;    /* the start map */
	int unseen;   /* array[1] of u64: switch-ins closed from run_delay */
	int drop, drop_unseen;
	struct bpf_lat *lat;
};

/*
 * --filter's globs as masks on the comm's two words: NAME (the comm is
 * NUL-padded: both words whole) and PREFIX* (its bytes).  0, or -EOPNOTSUPP
 * for other globs (?, [...], * elsewhere).
 */
static int compile_globs(struct rd_bpf *r, const char *globs, char *why, size_t len)
{
	const char *p = globs, *e;

	r->nr_globs = 0;
	if (!globs)
		return 0;
	for (; *p; p = *e ? e + 1 : e) {
		struct glob g = { { 0, 0 }, { 0, 0 } };
		size_t n, full;
		bool prefix;

		e = strchrnul(p, ',');
		n = (size_t)(e - p);
		prefix = n && p[n - 1] == '*';
		full = prefix ? n - 1 : n;
		if (strcspn(p, "*?[") < full) {
			snprintf(why, len,
				 "--filter '%.*s': only NAME and PREFIX* globs are compiled",
				 (int)n, p);
			return -EOPNOTSUPP;
		}
		if (prefix && !full) { /* "*": every comm */
			r->nr_globs = 0;
			return 0;
		}
		if (full > 15)
			continue; /* a comm has 15 bytes: never matches */
		if (r->nr_globs == MAX_GLOBS) {
			snprintf(why, len, "--filter: more than %d globs", MAX_GLOBS);
			return -EOPNOTSUPP;
		}
		for (size_t i = 0; i < 16; i++) {
			if (i < full)
				g.val[i / 8] |= (u64)(unsigned char)p[i] << (8 * (i % 8));
			if (i < full || !prefix)
				g.mask[i / 8] |= 0xffULL << (8 * (i % 8));
		}
		r->globs[r->nr_globs++] = g;
	}
	if (!r->nr_globs) { /* only globs longer than a comm: nothing matches */
		/* a comm's first byte is never 1 (the whole byte: mask 0xff) */
		struct glob none = { { 1, 0 }, { 0xff, 0 } };

		r->globs[r->nr_globs++] = none;
	}
	return 0;
}

/* R@dst = the @size bytes at @src + @off of a kernel object: a load (tp_btf) or a helper */
static void ld_field(struct rd_bpf *r, struct bpfb *c, int dst, int src, int off, int size)
{
	if (r->btf) {
		b_ldx(c, size, dst, src, (short)off);
		return;
	}
	b_mov(c, R1, R10);
	b_alui(c, BPF_ADD, R1, -8);
	b_movi(c, R2, size);
	b_mov(c, R3, src);
	b_alui(c, BPF_ADD, R3, off);
	b_call(c, BPF_FUNC_probe_read_kernel);
	b_ldx(c, size, dst, R10, -8);
}

/* The delay in R9 into bpf_lat's row (@row_reg, @key_reg); keeps R6-R9, uses R0-R5. */
static void emit_record(struct rd_bpf *r, struct bpfb *c, int row_reg, int key_reg)
{
	b_stx(c, 8, R10, S_ROW, row_reg);
	b_stx(c, 8, R10, S_ROW + 8, key_reg);
	bpf_lat__emit_record(r->lat, c, S_ROW, R9, -1, S_LAT);
}

/* go to @fail unless task @task's comm matches a --filter glob (uses R0-R5) */
static void emit_comm_test(struct rd_bpf *r, struct bpfb *c, int task, int fail)
{
	int ok = bpfb__label(c);

	if (!r->nr_globs)
		return;
	if (r->btf) {
		b_ldx(c, 8, R2, task, (short)r->off_comm);
		b_ldx(c, 8, R3, task, (short)(r->off_comm + 8));
	} else {
		b_mov(c, R1, R10);
		b_alui(c, BPF_ADD, R1, S_COMM);
		b_movi(c, R2, 16);
		b_mov(c, R3, task);
		b_alui(c, BPF_ADD, R3, r->off_comm);
		b_call(c, BPF_FUNC_probe_read_kernel);
		b_ldx(c, 8, R2, R10, S_COMM);
		b_ldx(c, 8, R3, R10, S_COMM + 8);
	}
	for (int i = 0; i < r->nr_globs; i++) {
		const struct glob *g = &r->globs[i];
		int next = bpfb__label(c);

		for (int w = 0; w < 2; w++) {
			if (!g->mask[w])
				continue;
			b_mov(c, R4, w ? R3 : R2);
			if (g->mask[w] != ~0ULL) {
				b_ld64(c, R5, g->mask[w]);
				b_alu(c, BPF_AND, R4, R5);
			}
			b_ld64(c, R5, g->val[w]);
			b_jmp(c, BPF_JNE, R4, R5, next);
		}
		b_ja(c, ok);
		bpfb__here(c, next);
	}
	b_ja(c, fail);
	bpfb__here(c, ok);
}

/* *(u64 *)(@dst + @off) = task @task's sched_info.run_delay (0 without it); uses R0-R5 */
static void emit_save_run_delay(struct rd_bpf *r, struct bpfb *c, int dst, int off, int task)
{
	if (r->off_run_delay < 0)
		b_movi(c, R1, 0);
	else
		ld_field(r, c, R1, task, r->off_run_delay, 8);
	b_stx(c, 8, dst, (short)off, R1);
}

/*
 * The thread @task (R7) whose tid is at S_KEY starts state @kind_reg (R8,
 * R9) now: in place when it has an entry, else a new one (a full map: a
 * counted drop).  Uses R0-R6.
 */
static void emit_set_start(struct rd_bpf *r, struct bpfb *c, int task, int kind_reg, int out)
{
	int insert = bpfb__label(c);

	b_lookup(c, r->start, S_KEY);
	b_jmpi(c, BPF_JEQ, R0, 0, insert);
	b_mov(c, R6, R0);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R6, 0, R0);
	b_stx(c, 4, R6, 8, kind_reg);
	emit_save_run_delay(r, c, R6, 16, task);
	b_ja(c, out);
	bpfb__here(c, insert);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R10, S_VAL, R0);
	b_stx(c, 4, R10, S_VAL + 8, kind_reg);
	b_st(c, 4, R10, S_VAL + 12, 0);
	emit_save_run_delay(r, c, R10, S_VAL + 16, task);
	b_ldmap(c, R1, r->start);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, S_KEY);
	b_mov(c, R3, R10);
	b_alui(c, BPF_ADD, R3, S_VAL);
	b_movi(c, R4, BPF_ANY);
	b_call(c, BPF_FUNC_map_update_elem);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	bpf_back__emit_drop(r->b, c, r->drop);
}

/*
 * prev (R7, tid R8; ctx R6) runs with a delay still started: its switch-in
 * did not reach the tracepoint (seen here: some switches are not traced at
 * all, on every tracer alike; the ring path closes them with the kernel's
 * context-switch records).  The delay is what that one switch-in added to
 * the task's sched_info.run_delay (enqueue to arrival, the scheduler's
 * clock); without sched_info it is a counted drop.  Keeps R6-R8.
 */
static void emit_unseen_switch_in(struct rd_bpf *r, struct bpfb *c)
{
	int none = bpfb__label(c), drop = bpfb__label(c);

	b_stx(c, 4, R10, S_KEY, R8);
	b_lookup(c, r->start, S_KEY);
	b_jmpi(c, BPF_JEQ, R0, 0, none);
	b_ldx(c, 4, R1, R0, 8);
	b_jmpi(c, BPF_JEQ, R1, ST_NONE, none);
	b_jmpi(c, BPF_JEQ, R1, ST_ASLEEP, none);
	b_st(c, 4, R0, 8, ST_NONE);
	if (r->off_run_delay < 0) {
		b_ja(c, drop);
	} else {
		b_stx(c, 8, R10, S_CTX, R6);
		b_stx(c, 8, R10, S_TASK, R7);
		b_mov(c, R6, R1);
		b_alui(c, BPF_SUB, R6, 1); /* the row */
		b_ldx(c, 8, R9, R0, 16);
		ld_field(r, c, R1, R7, r->off_run_delay, 8);
		b_alu(c, BPF_SUB, R1, R9);
		b_jmpi(c, BPF_JSLE, R1, 0, drop);
		b_mov(c, R9, R1);
		if (r->conf.perins)
			b_mov(c, R7, R8);
		else
			b_movi(c, R7, 0);
		emit_record(r, c, R6, R7);
		/* counted, for -v (rare: one atomic add) */
		bpfb__emit(c, BPFB_INSN(BPF_LD | BPF_DW | BPF_IMM, R1, BPF_PSEUDO_MAP_VALUE, 0,
					r->unseen));
		bpfb__emit(c, BPFB_INSN(0, 0, 0, 0, 0));
		b_movi(c, R2, 1);
		b_xadd(c, R1, 0, R2);
		b_ldx(c, 8, R6, R10, S_CTX);
		b_ldx(c, 8, R7, R10, S_TASK);
		b_ja(c, none);
	}
	bpfb__here(c, drop);
	bpf_back__emit_drop(r->b, c, r->drop_unseen);
	if (r->off_run_delay >= 0) {
		b_ldx(c, 8, R6, R10, S_CTX);
		b_ldx(c, 8, R7, R10, S_TASK);
	}
	bpfb__here(c, none);
}

/*
 * sched_switch(preempt, prev, next[, prev_state]): next's start ends (the
 * ring path's switch_in: an asleep mark is cancelled), then prev starts
 * one (preempted, or R) or is marked asleep (S, D, ...), or is gone (dead).
 */
static int build_switch(struct rd_bpf *r, struct bpfb *c, char *why, size_t len)
{
	int out = bpfb__label(c), sw_out = bpfb__label(c), started = bpfb__label(c);
	int preempt = bpfb__label(c), asleep = bpfb__label(c), dead = bpfb__label(c);
	int set = bpfb__label(c), err;

	b_mov(c, R6, R1);
	bpf_back__emit_running(r->b, c, out);

	/* the switch-in of next */
	b_ldx(c, 8, R7, R6, 16);
	ld_field(r, c, R8, R7, r->off_pid, 4);
	b_jmpi(c, BPF_JEQ, R8, 0, sw_out);
	b_stx(c, 4, R10, S_KEY, R8);
	b_lookup(c, r->start, S_KEY);
	b_jmpi(c, BPF_JEQ, R0, 0, sw_out);
	b_ldx(c, 4, R1, R0, 8);
	b_jmpi(c, BPF_JEQ, R1, ST_NONE, sw_out);
	b_stx(c, 8, R10, S_SPILL, R0);
	ld_field(r, c, R9, R7, r->off_tgid, 4);
	err = bpf_back__emit_target(r->b, c, R9, R8, sw_out, why, len);
	if (err)
		return err;
	if (r->nr_globs) { /* the ring path's kernel filter: prev's or next's comm */
		int kept = bpfb__label(c), try_next = bpfb__label(c);

		b_ldx(c, 8, R7, R6, 8);
		emit_comm_test(r, c, R7, try_next);
		b_ja(c, kept);
		bpfb__here(c, try_next);
		b_ldx(c, 8, R7, R6, 16);
		emit_comm_test(r, c, R7, sw_out);
		bpfb__here(c, kept);
	}
	b_ldx(c, 8, R9, R10, S_SPILL);
	b_ldx(c, 4, R1, R9, 8);
	b_jmpi(c, BPF_JNE, R1, ST_ASLEEP, started);
	b_st(c, 4, R9, 8, ST_NONE); /* woken unseen: no delay */
	b_ja(c, sw_out);
	bpfb__here(c, started);
	b_mov(c, R7, R1);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_ldx(c, 8, R1, R9, 0);
	b_st(c, 4, R9, 8, ST_NONE);
	b_alu(c, BPF_SUB, R0, R1);
	b_jmpi(c, BPF_JSLT, R0, 0, sw_out);
	b_mov(c, R9, R0);
	b_alui(c, BPF_SUB, R7, 1); /* the row: the start point */
	if (!r->conf.perins)
		b_movi(c, R8, 0);
	emit_record(r, c, R7, R8);

	/* the switch-out of prev */
	bpfb__here(c, sw_out);
	b_ldx(c, 8, R7, R6, 8);
	ld_field(r, c, R8, R7, r->off_pid, 4);
	b_jmpi(c, BPF_JEQ, R8, 0, out);
	emit_unseen_switch_in(r, c);
	if (r->sw_args >= 4) {
		b_ldx(c, 8, R9, R6, 24);
		b_alu32(c, BPF_MOV, R9, R9); /* unsigned int */
	} else {
		ld_field(r, c, R9, R7, r->off_state, 4);
	}
	b_ldx(c, 8, R1, R6, 0);
	b_alui(c, BPF_AND, R1, 0xff); /* bool preempt */
	b_jmpi(c, BPF_JNE, R1, 0, preempt);
	b_jmpi(c, BPF_JEQ, R9, TASK_IDLE, asleep);
	b_jmpi(c, BPF_JEQ, R9, TASK_RTLOCK_WAIT, asleep);
	ld_field(r, c, R1, R7, r->off_exit, 4);
	b_alu(c, BPF_OR, R9, R1);
	b_alui(c, BPF_AND, R9, TASK_REPORT);
	b_jmpi(c, BPF_JEQ, R9, 0, preempt);
	b_jmpi(c, BPF_JGE, R9, REPORT_PARKED, asleep);
	b_jmpi(c, BPF_JGE, R9, REPORT_DEAD_LO, dead);
	b_ja(c, asleep);

	bpfb__here(c, dead); /* its entry goes (a pid is reused) */
	b_stx(c, 4, R10, S_KEY, R8);
	b_ldmap(c, R1, r->start);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, S_KEY);
	b_call(c, BPF_FUNC_map_delete_elem);
	b_ja(c, out);

	bpfb__here(c, preempt);
	if (r->conf.no_preempt) {
		b_ja(c, out);
	} else {
		b_movi(c, R9, ST_PREEMPT);
		b_ja(c, set);
	}
	bpfb__here(c, asleep);
	if (r->conf.no_wakeup) /* no wakeup to start from the mark */
		b_ja(c, out);
	b_movi(c, R9, ST_ASLEEP);
	bpfb__here(c, set);
	ld_field(r, c, R6, R7, r->off_tgid, 4);
	err = bpf_back__emit_target(r->b, c, R6, R8, out, why, len);
	if (err)
		return err;
	emit_comm_test(r, c, R7, out);
	b_stx(c, 4, R10, S_KEY, R8);
	emit_set_start(r, c, R7, R9, out);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/* sched_wakeup(p): the first wakeup since p was seen switching out asleep starts a delay */
static int build_wakeup(struct rd_bpf *r, struct bpfb *c, char *why, size_t len)
{
	int out = bpfb__label(c), err;

	b_mov(c, R6, R1);
	bpf_back__emit_running(r->b, c, out);
	b_ldx(c, 8, R7, R6, 0);
	ld_field(r, c, R8, R7, r->off_pid, 4);
	b_jmpi(c, BPF_JEQ, R8, 0, out);
	b_stx(c, 4, R10, S_KEY, R8);
	b_lookup(c, r->start, S_KEY);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_ldx(c, 4, R1, R0, 8);
	b_jmpi(c, BPF_JNE, R1, ST_ASLEEP, out);
	b_stx(c, 8, R10, S_SPILL, R0);
	ld_field(r, c, R9, R7, r->off_tgid, 4);
	err = bpf_back__emit_target(r->b, c, R9, R8, out, why, len);
	if (err)
		return err;
	emit_comm_test(r, c, R7, out);
	b_ldx(c, 8, R9, R10, S_SPILL);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R9, 0, R0);
	b_st(c, 4, R9, 8, ST_WAKEUP);
	emit_save_run_delay(r, c, R9, 16, R7);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/* sched_wakeup_new(p): a new thread's delay starts (a new process is its own target) */
static int build_wakeup_new(struct rd_bpf *r, struct bpfb *c, char *why, size_t len)
{
	int out = bpfb__label(c), err;

	b_mov(c, R6, R1);
	bpf_back__emit_running(r->b, c, out);
	b_ldx(c, 8, R7, R6, 0);
	ld_field(r, c, R8, R7, r->off_pid, 4);
	b_jmpi(c, BPF_JEQ, R8, 0, out);
	ld_field(r, c, R9, R7, r->off_tgid, 4);
	err = bpf_back__emit_target(r->b, c, R9, R8, out, why, len);
	if (err)
		return err;
	emit_comm_test(r, c, R7, out);
	b_stx(c, 4, R10, S_KEY, R8);
	b_movi(c, R9, ST_WAKEUP_NEW);
	emit_set_start(r, c, R7, R9, out);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

static int (*const builders[])(struct rd_bpf *, struct bpfb *, char *,
			       size_t) = { build_switch, build_wakeup, build_wakeup_new };
static const char *const tps[] = { "sched_switch", "sched_wakeup", "sched_wakeup_new" };

/* Build and load the three programs as tp_btf (@btf) or raw tracepoint programs. */
static int load_all(struct rd_bpf *r, bool btf, int *fds, char *why, size_t len)
{
	for (int i = 0; i < 3; i++) {
		struct bpfb c;
		char name[32], err[160];
		int fd;

		fds[i] = -1;
		if ((i == 1 && r->conf.no_wakeup) || (i == 2 && r->conf.no_wakeup_new))
			continue;
		r->btf = btf;
		bpfb__init(&c);
		fd = builders[i](r, &c, why, len);
		if (fd) {
			bpfb__free(&c);
			return fd;
		}
		snprintf(name, sizeof(name), "pp_rd_%s",
			 i ? (i == 1 ? "wakeup" : "wknew") : "switch");
		fd = bpf_back__load(r->b,
				    btf ? BPF_PROG_TYPE_TRACING : BPF_PROG_TYPE_RAW_TRACEPOINT,
				    name, &c, btf ? tps[i] : NULL, err, sizeof(err));
		bpfb__free(&c);
		if (fd < 0) {
			snprintf(why, len, "%s program for %s does not load: %s",
				 btf ? "the tp_btf" : "the raw tracepoint", tps[i], err);
			return -EOPNOTSUPP;
		}
		fds[i] = fd;
	}
	return 0;
}

int rd_bpf__new(struct bpf_back *b, const struct rd_bpf_conf *conf, struct rd_bpf **out, char *why,
		size_t len)
{
	struct rd_bpf *r = calloc(1, sizeof(*r));
	const char *state = "__state";
	int fds[3], err;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	r->b = b;
	r->conf = *conf;
	err = compile_globs(r, conf->filter, why, len);
	if (err)
		goto fail;
	r->off_pid = bpf_back__btf_member("task_struct", "pid", NULL);
	r->off_tgid = bpf_back__btf_member("task_struct", "tgid", NULL);
	r->off_comm = bpf_back__btf_member("task_struct", "comm", NULL);
	r->off_exit = bpf_back__btf_member("task_struct", "exit_state", NULL);
	r->off_state = bpf_back__btf_member("task_struct", state, &r->state_size);
	r->sw_args = bpf_back__btf_tp_args("sched_switch");
	{
		int si = bpf_back__btf_member("task_struct", "sched_info", NULL);
		int rd = bpf_back__btf_member("sched_info", "run_delay", NULL);

		r->off_run_delay = si >= 0 && rd >= 0 ? si + rd : -1;
	}
	if (r->off_pid < 0 || r->off_tgid < 0 || r->off_comm < 0 || r->off_exit < 0 ||
	    r->sw_args < 3) {
		snprintf(why, len, "no task_struct or sched_switch in the kernel's BTF");
		err = -EOPNOTSUPP;
		goto fail;
	}
	if (r->sw_args < 4 && (r->off_state < 0 || r->state_size != 4)) {
		snprintf(why, len, "sched_switch without prev_state and no task_struct.__state");
		err = -EOPNOTSUPP;
		goto fail;
	}
	err = -EINVAL;
	r->start = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_rd_start", 4, sizeof(struct rd_start),
				 conf->entries, 0);
	if (r->start < 0)
		goto fail;
	r->drop = bpf_back__drop_slot(b, "delays not started: map full (--bpf-entries)");
	r->unseen = bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_rd_unseen", 4, 8, 1, 0);
	if (r->unseen < 0)
		goto fail;
	r->drop_unseen =
		bpf_back__drop_slot(b, "delays not counted: their switch-in was not traced");
	r->lat = bpf_lat__new(b, "pp_rd", conf->entries, why, len);
	if (!r->lat)
		goto fail; /* (-EINVAL, @why says what) */
	err = load_all(r, true, fds, why, len);
	if (err == -EOPNOTSUPP) {
		char first[256];

		snprintf(first, sizeof(first), "%s", why);
		err = load_all(r, false, fds, why, len);
		if (err == -EOPNOTSUPP) /* both: say the first */
			snprintf(why, len, "%s", first);
	}
	if (err)
		goto fail;
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && (err = bpf_back__attach_raw(b, tps[i], fds[i])))
			goto fail;
	*out = r;
	return 0;
fail:
	rd_bpf__delete(r);
	return err;
}

void rd_bpf__delete(struct rd_bpf *r)
{
	if (!r)
		return;
	bpf_lat__delete(r->lat);
	free(r);
}

const char *rd_bpf__how(const struct rd_bpf *r)
{
	return r->btf ? "tp_btf" : "raw tracepoints";
}

/* A row read from bpf_lat: key[0] the start point, key[1] the --perins tid (or 0). */
static void to_table(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked)
{
	if (key[0] < P_SWITCH_IN)
		multipoint__record_hist(arg, (int)key[0], P_SWITCH_IN, key[1], NULL, h, marked);
}

int rd_bpf__fill(struct rd_bpf *r, struct multipoint *mt, unsigned flags)
{
	return bpf_lat__read(r->lat, flags, to_table, mt);
}

unsigned long long rd_bpf__open(struct rd_bpf *r)
{
	unsigned long long n = 0;
	u32 key, next, *prev = NULL;
	struct rd_start v;

	/* once, at the end: key by key */
	while (!bpf_map_get_next_key(r->start, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(r->start, &key, &v) && v.state >= ST_WAKEUP &&
		    v.state <= ST_PREEMPT)
			n++;
	}
	return n;
}

unsigned long long rd_bpf__unseen(struct rd_bpf *r)
{
	unsigned long long n = 0;
	u32 zero = 0;

	return bpf_map_lookup_elem(r->unseen, &zero, &n) ? 0 : n;
}
