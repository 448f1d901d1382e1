// SPDX-License-Identifier: GPL-2.0
/* task-state's in-kernel programs: see ts_bpf.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/bpf_stack.h"
#include "analysis/latency/sched_bpf.h"
#include "analysis/latency/ts_bpf.h"

/* a thread's entry (the pending map's value) */
struct ts_ent {
	u64 out;     /* switch-out time, 0: no interval open */
	u64 wake;    /* its first wakeup since, 0: none */
	u32 state;   /* the state index (ST_DEAD: exited, --perins: deleted at the next read) */
	u32 stack;   /* 0: none, else the stack id + 1 (| STACK_B: in the second map) */
	u64 comm[2]; /* its comm at the switch-out */
	u32 tgid;
	u32 pad; /* (unused) */
	u64 ran; /* its se.sum_exec_runtime at the switch-out */
};
enum {
	E_OUT = 0,
	E_WAKE = 8,
	E_STATE = 16,
	E_STACK = 20,
	E_COMM = 24,
	E_TGID = 40,
	E_RAN = 48,
};
_Static_assert(sizeof(struct ts_ent) == 56, "ts_ent");
#define ST_DEAD 0xff
#define STACK_B (1u << 30)

/* the flame map's key (its value: count, ns; one for all CPUs, added atomically) */
struct ts_fkey {
	u32 stack, state;
	u64 comm[2];
};

/* task_state.c's state indexes: the kernel's (sched_bpf.h) */
enum { I_R = SCHED_R, I_X = SCHED_X, I_Z = SCHED_Z };

/* the programs' stack (below the back end's scratch) */
enum {
	SK_TID = -16,	 /* u32 */
	SK_ENT = -72,	 /* a new entry (56) */
	SK_ROW = -88,	 /* bpf_lat's key (16) */
	SK_FKEY = -112,	 /* the flame key (24) */
	SK_FVAL = -128,	 /* a new flame value (16) */
	SK_NOW = -136,	 /* the switch-in's time */
	SK_OUT = -144,	 /* the interval's switch-out time */
	SK_STATE = -152, /* the switch-out's state */
	SK_PREV = -160,	 /* prev, while an unseen switch-in is closed */
	SK_TGID = -168,	 /* prev's tgid, the same */
	SK_SCRATCH = -168 - BPF_LAT_SCRATCH,
	SK_REC = SK_SCRATCH - 56, /* --than: the record copied out (TS_REC) */
};

/* --than's record (struct ts_bpf_slow, as written by emit_slow) */
enum {
	R_END = 0,
	R_DUR = 8,
	R_TID = 16,
	R_PID = 20,
	R_CPU = 24,
	R_STATE = 28,
	R_COMM = 32,
	R_STACK = 48, /* u32: E_STACK (the flame graph's) */
	TS_REC = 56,  /* with slow_stacks then two slots (bpf_stack.h): kernel, user */
};

struct comm_ent {
	u32 tid, tgid;
	char comm[16];
	UT_hash_handle hh;
};

struct fseen {
	struct ts_fkey key;
	u64 count, ns; /* as last read */
	UT_hash_handle hh;
};

struct ts_bpf {
	struct bpf_back *b;
	struct ts_bpf_conf conf;
	int off_pid, off_tgid, off_comm, off_exit, off_state, off_ran;
	int sw_args;
	struct sched_globs globs;		      /* --filter's */
	int pending, flame, stack_a, stack_b, unseen; /* maps */
	int depth;
	int drop_pending, drop_flame, drop_stack;
	int out; /* --than's (bpf_back__out), -1: none */
	struct bpf_lat *lat;
	/* the read in progress */
	struct comm_ent *comms;
	struct fseen *fseen;
	const struct ts_bpf_ops *ops;
	void *arg;
};

/*
 * R0 = the kernel stack's id + 1 (| STACK_B), or 0: the first map, then on
 * a hash collision (-EEXIST) the second, which skips one more frame (the
 * program's own: another hash).  ctx in R6; uses R0-R5.
 */
static void emit_stackid(struct ts_bpf *t, struct bpfb *c)
{
	int have = bpfb__label(c), none = bpfb__label(c), done = bpfb__label(c);

	/* a bucket of the same hash is this stack (jhash of the frames): no compare */
	b_mov(c, R1, R6);
	b_ldmap(c, R2, t->stack_a);
	b_movi(c, R3, BPF_F_FAST_STACK_CMP);
	b_call(c, BPF_FUNC_get_stackid);
	b_jmpi(c, BPF_JSGE, R0, 0, have);
	b_jmpi(c, BPF_JNE, R0, -EEXIST, none);
	b_mov(c, R1, R6);
	b_ldmap(c, R2, t->stack_b);
	b_movi(c, R3, BPF_F_FAST_STACK_CMP | 1);
	b_call(c, BPF_FUNC_get_stackid);
	b_jmpi(c, BPF_JSLT, R0, 0, none);
	b_alui(c, BPF_OR, R0, STACK_B);
	bpfb__here(c, have);
	b_alui(c, BPF_ADD, R0, 1);
	b_ja(c, done);
	bpfb__here(c, none);
	bpf_back__emit_drop(t->b, c, t->drop_stack);
	b_movi(c, R0, 0);
	bpfb__here(c, done);
}

/*
 * R7 = the task at [R@ctx + @off] (a tp_btf argument), R8 = its tid, also
 * at SK_TID; the idle task (tid 0) jumps to @skip.
 */
static void emit_task(struct ts_bpf *t, struct bpfb *c, int ctx, short off, int skip)
{
	sched_bpf__emit_task(c, ctx, off, t->off_pid, NULL, SK_TID, skip);
}

/* R@dst = the state index of prev (R7) from ctx (R6), as sched_switch's record's; uses R1-R3 */
static void emit_state(struct ts_bpf *t, struct bpfb *c, int dst)
{
	int done = bpfb__label(c);

	b_movi(c, dst, I_R);
	b_ldx(c, 8, R1, R6, 0);
	b_alui(c, BPF_AND, R1, 0xff); /* bool preempt: R (the record's "R+") */
	b_jmpi(c, BPF_JNE, R1, 0, done);
	if (t->sw_args >= 4) {
		b_ldx(c, 8, R2, R6, 24);
		b_alu32(c, BPF_MOV, R2, R2); /* unsigned int prev_state */
	} else {
		b_ldx(c, 4, R2, R7, (short)t->off_state);
	}
	b_ldx(c, 4, R1, R7, (short)t->off_exit);
	sched_bpf__emit_state(c, dst, R2, R1, R3);
	bpfb__here(c, done);
}

/* record the latency in R8 under state R1's sub-row @sub (0, TS_BPF_SLEEP, TS_BPF_RUNQ) */
static void emit_row(struct ts_bpf *t, struct bpfb *c, int sub)
{
	b_ldx(c, 4, R1, R7, E_STATE);
	if (sub)
		b_alui(c, BPF_OR, R1, sub);
	b_stx(c, 8, R10, SK_ROW, R1);
	if (t->conf.perins) {
		b_ldx(c, 4, R1, R10, SK_TID);
		b_stx(c, 8, R10, SK_ROW + 8, R1);
	} else {
		b_st(c, 8, R10, SK_ROW + 8, 0);
	}
	bpf_lat__emit_record(t->lat, c, SK_ROW, R8, -1, SK_SCRATCH);
}

/* the off-CPU time in R8 to the flame map under the entry's (R7) stack, state, comm */
static void emit_flame(struct ts_bpf *t, struct bpfb *c)
{
	int done = bpfb__label(c), add = bpfb__label(c), drop = bpfb__label(c);

	b_ldx(c, 4, R1, R7, E_STACK);
	b_jmpi(c, BPF_JEQ, R1, 0, done);
	b_stx(c, 4, R10, SK_FKEY, R1);
	b_ldx(c, 4, R1, R7, E_STATE);
	b_stx(c, 4, R10, SK_FKEY + 4, R1);
	b_ldx(c, 8, R1, R7, E_COMM);
	b_stx(c, 8, R10, SK_FKEY + 8, R1);
	b_ldx(c, 8, R1, R7, E_COMM + 8);
	b_stx(c, 8, R10, SK_FKEY + 16, R1);
	b_lookup(c, t->flame, SK_FKEY);
	b_jmpi(c, BPF_JNE, R0, 0, add);
	b_st(c, 8, R10, SK_FVAL, 1);
	b_stx(c, 8, R10, SK_FVAL + 8, R8);
	b_update(c, t->flame, SK_FKEY, SK_FVAL, BPF_NOEXIST);
	b_jmpi(c, BPF_JEQ, R0, 0, done);
	b_jmpi(c, BPF_JNE, R0, -EEXIST, drop);
	b_lookup(c, t->flame, SK_FKEY);
	b_jmpi(c, BPF_JEQ, R0, 0, drop);
	bpfb__here(c, add); /* (one map for all CPUs: atomic adds) */
	b_movi(c, R1, 1);
	b_xadd(c, R0, 0, R1);
	b_xadd(c, R0, 8, R8);
	b_ja(c, done);
	bpfb__here(c, drop);
	bpf_back__emit_drop(t->b, c, t->drop_flame);
	bpfb__here(c, done);
}

/*
 * --than: the interval of the entry at R7 (its length in R8, its end at
 * SK_NOW, its thread at SK_TID) copied out when over it, with the stacks
 * kept at its switch-out (slow_stacks).  Keeps R6-R8; uses R9.
 */
static void emit_slow(struct ts_bpf *t, struct bpfb *c)
{
	int fast = bpfb__label(c);

	b_ld64(c, R1, t->conf.than);
	b_jmp(c, BPF_JLE, R8, R1, fast);
	b_ldx(c, 8, R1, R10, SK_NOW);
	b_stx(c, 8, R10, SK_REC + R_END, R1);
	b_stx(c, 8, R10, SK_REC + R_DUR, R8);
	b_ldx(c, 4, R1, R10, SK_TID);
	b_stx(c, 4, R10, SK_REC + R_TID, R1);
	b_ldx(c, 4, R1, R7, E_TGID);
	b_stx(c, 4, R10, SK_REC + R_PID, R1);
	b_ldx(c, 4, R1, R7, E_STATE);
	b_stx(c, 4, R10, SK_REC + R_STATE, R1);
	b_ldx(c, 8, R1, R7, E_COMM);
	b_stx(c, 8, R10, SK_REC + R_COMM, R1);
	b_ldx(c, 8, R1, R7, E_COMM + 8);
	b_stx(c, 8, R10, SK_REC + R_COMM + 8, R1);
	b_ldx(c, 4, R1, R7, E_STACK);
	b_stx(c, 8, R10, SK_REC + R_STACK, R1);
	b_call(c, BPF_FUNC_get_smp_processor_id);
	b_stx(c, 4, R10, SK_REC + R_CPU, R0);
	if (t->conf.slow_stacks) {
		struct bpf_stacks *st = t->conf.slow_stacks;
		int kinds = bpf_stacks__kept(st);

		bpf_back__emit_reserve(t->b, c, t->out, TS_REC + bpf_stacks__size(st, kinds), fast);
		b_mov(c, R9, R0);
		for (int i = 0; i < TS_REC / 8; i++) {
			b_ldx(c, 8, R1, R10, SK_REC + 8 * i);
			b_stx(c, 8, R9, 8 * i, R1);
		}
		bpf_stacks__emit_copy(st, c, SK_TID, R9, TS_REC, kinds, false);
		bpf_back__emit_submit(c, R9);
	} else {
		bpf_back__emit_output(t->b, c, t->out, SK_REC, TS_REC);
	}
	bpfb__here(c, fast);
}

/* the entry at R8 (in place) or on the stack (R8 = R10 + SK_ENT): prev (R7) leaves now */
static void emit_fill(struct ts_bpf *t, struct bpfb *c, int tgid_reg)
{
	b_st(c, 8, R8, E_WAKE, 0);
	b_ldx(c, 8, R1, R10, SK_STATE);
	b_stx(c, 4, R8, E_STATE, R1);
	b_ldx(c, 8, R1, R7, (short)t->off_comm);
	b_stx(c, 8, R8, E_COMM, R1);
	b_ldx(c, 8, R1, R7, (short)(t->off_comm + 8));
	b_stx(c, 8, R8, E_COMM + 8, R1);
	b_stx(c, 4, R8, E_TGID, tgid_reg);
	b_ldx(c, 8, R1, R7, (short)t->off_ran);
	b_stx(c, 8, R8, E_RAN, R1);
	if (t->conf.stacks) {
		emit_stackid(t, c);
		b_stx(c, 4, R8, E_STACK, R0);
	} else {
		b_st(c, 4, R8, E_STACK, 0);
		/* --than's stacks, kept under the thread (SK_TID) until its switch-in */
		bpf_stacks__emit_keep(t->conf.slow_stacks, c, R6, 0, SK_TID, SK_FVAL, false);
	}
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R8, E_OUT, R0); /* last: a wakeup on another CPU tests it first */
}

/*
 * The interval of the entry at R7 ends: its length in R8, its switch-out
 * and end times at SK_OUT and SK_NOW.  Its rows (the sleep and runq split
 * where woken), its stack.  Keeps R6, R7; uses R8, R9.
 */
static void emit_close(struct ts_bpf *t, struct bpfb *c)
{
	int done = bpfb__label(c);

	emit_row(t, c, 0);
	if (t->conf.than)
		emit_slow(t, c);
	if (t->conf.stacks)
		emit_flame(t, c);
	/* woken (not a preemption): sleep to the wakeup, runq from it */
	b_ldx(c, 4, R1, R7, E_STATE);
	b_jmpi(c, BPF_JEQ, R1, I_R, done);
	b_ldx(c, 8, R9, R7, E_WAKE);
	b_jmpi(c, BPF_JEQ, R9, 0, done);
	b_ldx(c, 8, R1, R10, SK_OUT);
	b_jmp(c, BPF_JLT, R9, R1, done);
	b_ldx(c, 8, R2, R10, SK_NOW);
	b_jmp(c, BPF_JGT, R9, R2, done);
	b_mov(c, R8, R9);
	b_alu(c, BPF_SUB, R8, R1);
	emit_row(t, c, TS_BPF_SLEEP);
	b_ldx(c, 8, R8, R10, SK_NOW);
	b_alu(c, BPF_SUB, R8, R9);
	emit_row(t, c, TS_BPF_RUNQ);
	bpfb__here(c, done);
}

/*
 * prev (R7; tgid R9) switches out, its entry (R8) still open: the switch-in
 * was not traced (seen here, on other tracers alike).  It has run since:
 * its interval is the time from its switch-out less what it ran
 * (se.sum_exec_runtime), ended where it started to run.  An entry left
 * by an exited thread whose switch-outs were not seen either (another
 * process's now: its tid came back), or one it ran less since than its
 * entry says, is no interval: the caller fills it anew.  Keeps R6-R9.
 */
static void emit_unseen(struct ts_bpf *t, struct bpfb *c)
{
	int back = bpfb__label(c), stale = bpfb__label(c);

	int counted = bpfb__label(c);

	b_ldx(c, 4, R1, R7, (short)t->off_tgid);
	b_ldx(c, 4, R2, R8, E_TGID);
	b_jmp(c, BPF_JNE, R1, R2, stale);

	b_stx(c, 8, R10, SK_PREV, R7);
	b_stx(c, 8, R10, SK_TGID, R9);
	b_st(c, 4, R10, SK_FVAL, 0);
	b_lookup(c, t->unseen, SK_FVAL);
	b_jmpi(c, BPF_JEQ, R0, 0, counted);
	b_ldx(c, 8, R1, R0, 0);
	b_alui(c, BPF_ADD, R1, 1);
	b_stx(c, 8, R0, 0, R1);
	bpfb__here(c, counted);
	b_ldx(c, 8, R9, R7, (short)t->off_ran);
	b_mov(c, R7, R8);
	b_ldx(c, 8, R1, R7, E_RAN);
	b_alu(c, BPF_SUB, R9, R1); /* ran since */
	b_jmpi(c, BPF_JSLT, R9, 0, back);
	b_ldx(c, 8, R1, R7, E_OUT);
	b_stx(c, 8, R10, SK_OUT, R1);
	b_st(c, 8, R7, E_OUT, 0);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_alu(c, BPF_SUB, R0, R9); /* where it started to run */
	b_stx(c, 8, R10, SK_NOW, R0);
	b_mov(c, R8, R0);
	b_ldx(c, 8, R1, R10, SK_OUT);
	b_alu(c, BPF_SUB, R8, R1);
	b_jmpi(c, BPF_JSLE, R8, 0, back);
	emit_close(t, c);
	bpfb__here(c, back);
	b_mov(c, R8, R7);
	b_ldx(c, 8, R7, R10, SK_PREV);
	b_ldx(c, 8, R9, R10, SK_TGID);
	bpfb__here(c, stale);
}

/*
 * The thread whose tid is at SK_TID exited: its entry is deleted, so that
 * a long run's exited threads do not fill the map.  With --perins its rows
 * need its name until the next read: marked dead, deleted by that read
 * (as many as its rows at most, which bpf_lat's map bounds).  Uses R0-R5.
 */
static void emit_gone(struct ts_bpf *t, struct bpfb *c, int out)
{
	bpf_stacks__emit_forget(t->conf.slow_stacks, c, SK_TID);
	if (!t->conf.perins) {
		b_ldmap(c, R1, t->pending);
		b_mov(c, R2, R10);
		b_alui(c, BPF_ADD, R2, SK_TID);
		b_call(c, BPF_FUNC_map_delete_elem);
		return;
	}
	b_lookup(c, t->pending, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_st(c, 8, R0, E_OUT, 0);
	b_st(c, 4, R0, E_STATE, ST_DEAD);
}

/*
 * sched_switch(preempt, prev, next[, prev_state]): next's interval ends,
 * then prev's starts.  R6 ctx throughout.
 */
static int build_switch(struct ts_bpf *t, struct bpfb *c, char *why, size_t len)
{
	int out = bpfb__label(c), sw_out = bpfb__label(c);
	int comm = bpfb__label(c), other = bpfb__label(c), insert = bpfb__label(c);
	int fill = bpfb__label(c), closed = bpfb__label(c), gone = bpfb__label(c), err;

	b_mov(c, R6, R1);
	bpf_back__emit_running(t->b, c, out);

	/* ---- next switches in ---- */
	emit_task(t, c, R6, 16, sw_out);
	b_lookup(c, t->pending, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, sw_out);
	b_mov(c, R7, R0);
	b_ldx(c, 8, R9, R7, E_OUT);
	b_jmpi(c, BPF_JEQ, R9, 0, sw_out);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_st(c, 8, R7, E_OUT, 0);
	b_stx(c, 8, R10, SK_NOW, R0);
	b_stx(c, 8, R10, SK_OUT, R9);
	b_mov(c, R8, R0);
	b_alu(c, BPF_SUB, R8, R9);
	b_jmpi(c, BPF_JSLT, R8, 0, sw_out);
	emit_close(t, c);

	/* ---- prev switches out ---- */
	bpfb__here(c, sw_out);
	emit_task(t, c, R6, 8, out);
	emit_state(t, c, R9);
	b_jmpi(c, BPF_JEQ, R9, I_X, other);
	b_jmpi(c, BPF_JEQ, R9, I_Z, other);
	b_ld64(c, R1, t->conf.state_mask);
	b_alu(c, BPF_RSH, R1, R9);
	b_alui(c, BPF_AND, R1, 1);
	b_jmpi(c, BPF_JEQ, R1, 0, other);
	b_stx(c, 8, R10, SK_STATE, R9);
	b_ldx(c, 4, R9, R7, (short)t->off_tgid);
	if ((err = bpf_back__emit_target(t->b, c, R9, R8, out, why, len)))
		return err;
	if (t->globs.n) {
		b_ldx(c, 8, R2, R7, (short)t->off_comm);
		b_ldx(c, 8, R3, R7, (short)(t->off_comm + 8));
		sched_bpf__emit_comm_test(&t->globs, c, R2, R3, R4, R5, comm);
	}
	b_lookup(c, t->pending, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, insert);
	b_mov(c, R8, R0);
	b_ldx(c, 8, R1, R8, E_OUT);
	b_jmpi(c, BPF_JEQ, R1, 0, fill);
	emit_unseen(t, c);
	bpfb__here(c, fill);
	emit_fill(t, c, R9);
	b_ja(c, out);
	bpfb__here(c, insert);
	b_mov(c, R8, R10);
	b_alui(c, BPF_ADD, R8, SK_ENT);
	emit_fill(t, c, R9);
	b_update(c, t->pending, SK_TID, SK_ENT, BPF_ANY);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	bpf_back__emit_drop(t->b, c, t->drop_pending);
	b_ja(c, out);

	/*
	 * Not counted (state, comm), or dead: an interval still open ends (its
	 * switch-in unseen; for a dead thread see build_exit), as at any
	 * switch-out.  Then a dead one is gone (as at its exit, which may not
	 * have been seen).  R9: the state (kept by emit_unseen).
	 */
	bpfb__here(c, comm);
	if (t->globs.n) /* (the comm test's: R9 is the tgid there) */
		b_ldx(c, 8, R9, R10, SK_STATE);
	bpfb__here(c, other);
	b_lookup(c, t->pending, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, closed);
	b_mov(c, R8, R0);
	b_ldx(c, 8, R1, R8, E_OUT);
	b_jmpi(c, BPF_JEQ, R1, 0, closed);
	emit_unseen(t, c);
	bpfb__here(c, closed);
	b_jmpi(c, BPF_JEQ, R9, I_X, gone);
	b_jmpi(c, BPF_JNE, R9, I_Z, out);
	bpfb__here(c, gone);
	emit_gone(t, c, out);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/*
 * sched_process_exit(p): the thread's entry goes (or is marked, as
 * build_switch's dead).  Unless an interval is still open: the thread
 * runs (its exit), so its switch-in was not delivered.  That happens here
 * when the task switched from is one of a few whose switch-outs reach no
 * tracer (ftrace, BPF), though perf's context-switch records have them
 * (see sched_bpf.h).  A thread that exits right after it was woken (a
 * vfork child's, a short command's one sleep) has no later switch-out but
 * its dead one: that one closes it, where se.sum_exec_runtime is exact
 * (updated as the thread leaves; here it lacks the time run since the
 * switch-in).  Deleted here, the interval was lost.
 */
static int build_exit(struct ts_bpf *t, struct bpfb *c)
{
	int out = bpfb__label(c);

	bpf_back__emit_running(t->b, c, out);
	emit_task(t, c, R1, 0, out);
	b_lookup(c, t->pending, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_ldx(c, 8, R1, R0, E_OUT);
	b_jmpi(c, BPF_JNE, R1, 0, out);
	emit_gone(t, c, out);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/* sched_wakeup(p): the first wakeup of an open interval */
static int build_wakeup(struct ts_bpf *t, struct bpfb *c)
{
	int out = bpfb__label(c);

	bpf_back__emit_running(t->b, c, out);
	emit_task(t, c, R1, 0, out);
	b_lookup(c, t->pending, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_mov(c, R9, R0);
	b_ldx(c, 8, R1, R9, E_OUT);
	b_jmpi(c, BPF_JEQ, R1, 0, out);
	b_ldx(c, 8, R1, R9, E_WAKE);
	b_jmpi(c, BPF_JNE, R1, 0, out);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_ldx(c, 8, R1, R9, E_OUT);
	b_jmp(c, BPF_JLT, R0, R1, out);
	b_stx(c, 8, R9, E_WAKE, R0);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/* The frames of stack @id (E_STACK's: id + 1 | STACK_B, 0: none) at @ips: their number. */
static int stack_frames(struct ts_bpf *t, u32 id, u64 *ips)
{
	u32 key = (id - 1) & ~STACK_B;
	int n = 0;

	if (!id || t->stack_a < 0)
		return 0;
	memset(ips, 0, t->depth * sizeof(u64));
	if (bpf_map_lookup_elem((id - 1) & STACK_B ? t->stack_b : t->stack_a, &key, ips))
		return 0;
	while (n < t->depth && ips[n])
		n++;
	return n;
}

/* An interval over --than copied out (bpf_back__out's callback): to the conf's slow. */
static int ts_slow(void *arg, void *data, size_t size)
{
	struct ts_bpf *t = arg;
	const unsigned char *d = data;
	struct ts_bpf_slow r = { 0 };
	u64 ips[128];
	u32 stack;

	if (size < TS_REC || !t->conf.slow)
		return 0;
	memcpy(&r.end, d + R_END, 8);
	memcpy(&r.dur, d + R_DUR, 8);
	memcpy(&r.tid, d + R_TID, 4);
	memcpy(&r.pid, d + R_PID, 4);
	memcpy(&r.cpu, d + R_CPU, 4);
	memcpy(&r.state, d + R_STATE, 4);
	memcpy(r.comm, d + R_COMM, 15);
	memcpy(&stack, d + R_STACK, 4);
	if (t->conf.slow_stacks) {
		struct bpf_stacks *st = t->conf.slow_stacks;
		int kinds = bpf_stacks__kept(st);

		if (size >= TS_REC + bpf_stacks__size(st, kinds)) {
			r.kslot = bpf_stacks__slot_of(st, d + TS_REC, kinds, BPF_STACKS_KERNEL);
			r.uslot = bpf_stacks__slot_of(st, d + TS_REC, kinds, BPF_STACKS_USER);
		}
	} else {
		r.nr = stack_frames(t, stack, ips);
		r.ips = ips;
	}
	t->conf.slow(t->conf.slow_arg, &r);
	return 0;
}

int ts_bpf__new(struct bpf_back *b, const struct ts_bpf_conf *conf, struct ts_bpf **out, char *why,
		size_t len)
{
	struct ts_bpf *t = calloc(1, sizeof(*t));
	static const char *const tps[3] = { "sched_switch", "sched_wakeup", "sched_process_exit" };
	static const char *const names[3] = { "pp_ts_switch", "pp_ts_wakeup", "pp_ts_exit" };
	char err[200] = "";
	int fd[3], ret;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->b = b;
	t->conf = *conf;
	t->pending = t->flame = t->stack_a = t->stack_b = t->out = -1;
	if ((ret = sched_bpf__compile_globs(&t->globs, conf->filter, why, len)))
		goto fail;
	t->off_pid = bpf_back__btf_member("task_struct", "pid", NULL);
	t->off_tgid = bpf_back__btf_member("task_struct", "tgid", NULL);
	t->off_comm = bpf_back__btf_member("task_struct", "comm", NULL);
	t->off_exit = bpf_back__btf_member("task_struct", "exit_state", NULL);
	t->off_state = bpf_back__btf_member("task_struct", "__state", NULL);
	{
		int se = bpf_back__btf_member("task_struct", "se", NULL);
		int ran = bpf_back__btf_member("sched_entity", "sum_exec_runtime", NULL);

		t->off_ran = se >= 0 && ran >= 0 ? se + ran : -1;
	}
	t->sw_args = bpf_back__btf_tp_args("sched_switch");
	ret = -EOPNOTSUPP;
	if (t->off_pid < 0 || t->off_tgid < 0 || t->off_comm < 0 || t->off_exit < 0 ||
	    t->off_ran < 0 || t->sw_args < 3 || bpf_back__btf_tp_args("sched_wakeup") < 1 ||
	    bpf_back__btf_tp_args("sched_process_exit") < 1) {
		snprintf(why, len,
			 "no task_struct, sched_switch, sched_wakeup or "
			 "sched_process_exit in the kernel's BTF");
		goto fail;
	}
	if (t->sw_args < 4 && t->off_state < 0) {
		snprintf(why, len, "sched_switch without prev_state and no task_struct.__state");
		goto fail;
	}
	t->drop_pending = bpf_back__drop_slot(b, "intervals not timed: thread map full "
						 "(--bpf-entries)");
	t->pending = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_ts_pending", 4, sizeof(struct ts_ent),
				   conf->entries, 0);
	t->unseen = t->pending < 0 ? t->pending
				   : bpf_back__map(b, BPF_MAP_TYPE_PERCPU_ARRAY, "pp_ts_unseen", 4,
						   8, 1, 0);
	if ((ret = t->unseen) < 0)
		goto fail_map;
	/*
	 * Preallocated: at sched_switch interrupts are off, and a map that
	 * allocates as keys come finds the kernel's cache empty in a burst
	 * (counted drops).  Rows: 27 a table (9 states, 2 sub-rows), or per
	 * thread a quarter of --bpf-entries; buckets: a quarter of it, or 16
	 * a row (a bucket not kept leaves its value out of the quantiles only).
	 */
	t->lat = bpf_lat__new_sized(b, "pp_ts", conf->perins ? conf->entries / 4 : 64,
				    conf->perins ? conf->entries * 4 : conf->entries / 4, true, why,
				    len);
	if (!t->lat) {
		ret = -EOPNOTSUPP;
		goto fail;
	}
	if (conf->than) { /* the >T column exact, the intervals over it copied out */
		bpf_lat__set_than(t->lat, conf->than);
		t->out = bpf_back__out(b, "slow cases counted but not printed", ts_slow, t);
		if (t->out < 0) {
			snprintf(why, len, "--than: %s",
				 t->out == -EOPNOTSUPP ? bpf_back__out_why(b) : strerror(-t->out));
			ret = t->out == -ENOMEM ? -ENOMEM : -EOPNOTSUPP;
			goto fail;
		}
	}
	if (conf->stacks) {
		unsigned n = conf->entries < 16384 ? conf->entries : 16384;

		t->depth = conf->max_stack > 0 && conf->max_stack < 127 ? conf->max_stack : 127;
		/* (notes: the table counts those intervals, only the flame graph misses them) */
		t->drop_flame =
			bpf_back__note_slot(b, "off-CPU intervals left out of the flame "
					       "graph only: flame map full (--bpf-entries)");
		t->drop_stack = bpf_back__note_slot(b, "off-CPU intervals left out of the flame "
						       "graph only: stack map full or a hash "
						       "collision");
		t->stack_a = bpf_back__map(b, BPF_MAP_TYPE_STACK_TRACE, "pp_ts_stack", 4,
					   8 * t->depth, n, 0);
		t->stack_b = t->stack_a < 0 ? t->stack_a
					    : bpf_back__map(b, BPF_MAP_TYPE_STACK_TRACE,
							    "pp_ts_stack2", 4, 8 * t->depth, n, 0);
		if ((ret = t->stack_b) < 0)
			goto fail_map;
		/* not per CPU: a preallocated per-CPU map costs its size times the CPUs */
		t->flame = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_ts_flame",
					 sizeof(struct ts_fkey), 16, conf->entries / 4, 0);
		if ((ret = t->flame) < 0)
			goto fail_map;
	}
	for (int i = 0; i < 3; i++) {
		struct bpfb c;

		bpfb__init(&c);
		ret = i == 2 ? build_exit(t, &c)
		      : i    ? build_wakeup(t, &c)
			     : build_switch(t, &c, why, len);
		fd[i] = ret ? ret
			    : bpf_back__load(b, BPF_PROG_TYPE_TRACING, names[i], &c, tps[i], err,
					     sizeof(err));
		bpfb__free(&c);
		if (ret)
			goto fail;
		if (fd[i] < 0) {
			snprintf(why, len, "the tp_btf program for %s does not load: %s", tps[i],
				 err);
			ret = -EOPNOTSUPP;
			goto fail;
		}
	}
	for (int i = 0; i < 3; i++)
		if ((ret = bpf_back__attach_raw(b, tps[i], fd[i])))
			goto fail;
	*out = t;
	return 0;
fail_map: /* (a map the kernel cannot make: the ring path, unless --bpf) */
	snprintf(why, len, "its maps (%u entries): %s", conf->entries, strerror(-ret));
	ret = -EOPNOTSUPP;
fail:
	ts_bpf__delete(t);
	return ret;
}

static void forget_read(struct ts_bpf *t)
{
	struct comm_ent *e, *et;

	HASH_ITER(hh, t->comms, e, et)
	{
		HASH_DEL(t->comms, e);
		free(e);
	}
}

void ts_bpf__delete(struct ts_bpf *t)
{
	struct fseen *f, *ft;

	if (!t)
		return;
	forget_read(t);
	HASH_ITER(hh, t->fseen, f, ft)
	{
		HASH_DEL(t->fseen, f);
		free(f);
	}
	bpf_lat__delete(t->lat);
	free(t); /* the maps are the session's */
}

/* read_comms' walk */
struct comms_walk {
	struct ts_bpf *t;
	u32 *dead;
	int nr_dead, cap;
};

static int comm_one(void *arg, const void *kp, const void *vp)
{
	struct comms_walk *w = arg;
	struct ts_bpf *t = w->t;
	struct ts_ent v;
	struct comm_ent *e;
	u32 key;

	memcpy(&key, kp, sizeof(key));
	memcpy(&v, vp, sizeof(v));
	if (v.state == ST_DEAD) {
		if (w->nr_dead == w->cap) {
			u32 *d =
				realloc(w->dead, (w->cap = w->cap ? 2 * w->cap : 64) * sizeof(u32));

			if (!d)
				return -ENOMEM;
			w->dead = d;
		}
		w->dead[w->nr_dead++] = key;
		/* its rows leave the maps when they fill (with their values then) */
		if (t->conf.perins && bpf_lat__forget(t->lat, key))
			return -ENOMEM;
	}
	if (!t->conf.perins)
		return 0;
	if (!(e = calloc(1, sizeof(*e))))
		return -ENOMEM;
	e->tid = key;
	e->tgid = v.tgid;
	memcpy(e->comm, v.comm, 15);
	HASH_ADD(hh, t->comms, tid, sizeof(e->tid), e);
	return 0;
}

/* The names of the threads in the pending map (by batches); the dead ones go after this read. */
static int read_comms(struct ts_bpf *t, u32 **dead, int *nr_dead)
{
	struct comms_walk w = { .t = t };
	int err = bpf_back__each(t->pending, sizeof(u32), sizeof(struct ts_ent), comm_one, &w);

	*dead = w.dead;
	*nr_dead = w.nr_dead;
	return err;
}

static void lat_row(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked)
{
	struct ts_bpf *t = arg;
	struct comm_ent *e = NULL;
	u32 tid = (u32)key[1];

	(void)marked;
	if (t->conf.perins)
		HASH_FIND(hh, t->comms, &tid, sizeof(tid), e);
	t->ops->row(t->arg, (unsigned)key[0], e ? e->tgid : 0, tid, e ? e->comm : NULL, h,
		    bpf_lat__over(t->lat));
}

/* read_flame's walk */
struct flame_walk {
	struct ts_bpf *t;
	u64 *ips; /* t->depth of them */
};

static int flame_one(void *arg, const void *kp, const void *vp)
{
	struct flame_walk *w = arg;
	struct ts_bpf *t = w->t;
	struct ts_fkey key;
	u64 vals[2], count, ns;
	struct fseen *f;
	char comm[16];
	u32 id;
	int n;

	memcpy(&key, kp, sizeof(key));
	memcpy(vals, vp, sizeof(vals));
	count = vals[0];
	ns = vals[1];
	HASH_FIND(hh, t->fseen, &key, sizeof(key), f);
	if (!f) {
		if (!(f = calloc(1, sizeof(*f))))
			return -ENOMEM;
		f->key = key;
		HASH_ADD(hh, t->fseen, key, sizeof(f->key), f);
	}
	if (count == f->count)
		return 0;
	id = (key.stack - 1) & ~STACK_B;
	memset(w->ips, 0, t->depth * sizeof(u64));
	if (bpf_map_lookup_elem((key.stack - 1) & STACK_B ? t->stack_b : t->stack_a, &id, w->ips))
		return 0; /* (never deleted: not expected) */
	for (n = 0; n < t->depth && w->ips[n]; n++)
		;
	memcpy(comm, key.comm, 15);
	comm[15] = 0;
	t->ops->stack(t->arg, w->ips, n, comm, key.state, count - f->count, ns - f->ns);
	f->count = count;
	f->ns = ns;
	return 0;
}

/* The stacks' growth since the last read (the map by batches). */
static int read_flame(struct ts_bpf *t)
{
	struct flame_walk w = { .t = t, .ips = calloc(t->depth, sizeof(u64)) };
	int err;

	if (!w.ips)
		return -ENOMEM;
	err = bpf_back__each(t->flame, sizeof(struct ts_fkey), 2 * sizeof(u64), flame_one, &w);
	free(w.ips);
	return err;
}

int ts_bpf__read(struct ts_bpf *t, bool interval, bool last, const struct ts_bpf_ops *ops,
		 void *arg)
{
	u32 *dead = NULL;
	int nr_dead = 0, err;

	t->ops = ops;
	t->arg = arg;
	err = read_comms(t, &dead, &nr_dead);
	if (!err)
		err = bpf_lat__read(
			t->lat, (interval ? BPF_LAT_NEXT_INTERVAL : 0) | (last ? BPF_LAT_LAST : 0),
			lat_row, t);
	if (!err && t->flame >= 0)
		err = read_flame(t);
	for (int i = 0; i < nr_dead; i++) {
		struct ts_ent v;

		/* (unless its tid came back meanwhile) */
		if (!bpf_map_lookup_elem(t->pending, &dead[i], &v) && v.state == ST_DEAD)
			bpf_map_delete_elem(t->pending, &dead[i]);
	}
	free(dead);
	forget_read(t);
	return err;
}

uint64_t ts_bpf__unseen(struct ts_bpf *t)
{
	u32 zero = 0;
	u64 n = 0;

	return bpf_back__percpu_sum(t->b, t->unseen, &zero, &n, 1) ? 0 : n;
}
