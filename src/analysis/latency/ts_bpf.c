// SPDX-License-Identifier: GPL-2.0
/* task-state's in-kernel programs: see ts_bpf.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/ts_bpf.h"

/* a thread's entry (the pending map's value) */
struct ts_ent {
	u64 out;     /* switch-out time, 0: no interval open */
	u64 wake;    /* its first wakeup since, 0: none */
	u32 state;   /* the state index (ST_DEAD: exited, deleted at the next read) */
	u32 stack;   /* 0: none, else the stack id + 1 (| STACK_B: in the second map) */
	u64 comm[2]; /* its comm at the switch-out */
	u32 tgid, pad;
	u64 ran; /* its se.sum_exec_runtime at the switch-out */
};
enum { E_OUT = 0, E_WAKE = 8, E_STATE = 16, E_STACK = 20, E_COMM = 24, E_TGID = 40, E_RAN = 48 };
_Static_assert(sizeof(struct ts_ent) == 56, "ts_ent");
#define ST_DEAD 0xff
#define STACK_B (1u << 30)

/* the flame map's key and value (per CPU) */
struct ts_fkey {
	u32 stack, state;
	u64 comm[2];
};

/* task_state.c's state indexes: R S D T t X Z P I */
enum { I_R, I_S, I_D, I_T, I_t, I_X, I_Z, I_P, I_I };

/* the kernel's task states, as sched_switch's record reports them (__trace_sched_switch_state) */
#define TASK_REPORT 0x7f
#define TASK_IDLE 0x402
#define TASK_RTLOCK_WAIT 0x1000

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
};

#define MAX_GLOBS 16
struct glob {
	u64 val[2], mask[2];
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
	struct glob globs[MAX_GLOBS];
	int nr_globs;
	int pending, flame, stack_a, stack_b, unseen; /* maps */
	int depth;
	int drop_pending, drop_flame, drop_stack;
	struct bpf_lat *lat;
	/* the read in progress */
	struct comm_ent *comms;
	struct fseen *fseen;
	const struct ts_bpf_ops *ops;
	void *arg;
};

/*
 * --filter's globs as masks on the comm's two words: NAME (the comm is
 * NUL-padded: both words whole) and PREFIX*.  -EOPNOTSUPP for others.
 */
static int compile_globs(struct ts_bpf *t, const char *globs, char *why, size_t len)
{
	const char *p = globs, *e;

	t->nr_globs = 0;
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
		if (strcspn(p, "*?[\\") < full) {
			snprintf(why, len,
				 "--filter '%.*s': only NAME and PREFIX* globs are compiled",
				 (int)n, p);
			return -EOPNOTSUPP;
		}
		if (prefix && !full) { /* "*": every comm */
			t->nr_globs = 0;
			return 0;
		}
		if (full > 15)
			continue; /* longer than a comm: never matches */
		if (t->nr_globs == MAX_GLOBS) {
			snprintf(why, len, "--filter: more than %d globs", MAX_GLOBS);
			return -EOPNOTSUPP;
		}
		for (size_t i = 0; i < 16; i++) {
			if (i < full)
				g.val[i / 8] |= (u64)(unsigned char)p[i] << (8 * (i % 8));
			if (i < full || !prefix)
				g.mask[i / 8] |= 0xffULL << (8 * (i % 8));
		}
		t->globs[t->nr_globs++] = g;
	}
	if (!t->nr_globs) { /* only globs longer than a comm: nothing matches */
		t->globs[0] = (struct glob){ { 1, 0 }, { 0xff, 0 } };
		t->nr_globs = 1;
	}
	return 0;
}

/* go to @fail unless the comm in R2 (bytes 0-7) and R3 (8-15) matches a glob; uses R4, R5 */
static void emit_comm_test(struct ts_bpf *t, struct bpfb *c, int fail)
{
	int ok = bpfb__label(c);

	if (!t->nr_globs)
		return;
	for (int i = 0; i < t->nr_globs; i++) {
		const struct glob *g = &t->globs[i];
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

/* R1 = map, R2 = R10 + @key, R3 = R10 + @val, R4 = @flags; update: R0 = 0 or -errno */
static void emit_update(struct bpfb *c, int fd, int key, int val, int flags)
{
	b_ldmap(c, R1, fd);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, key);
	b_mov(c, R3, R10);
	b_alui(c, BPF_ADD, R3, val);
	b_movi(c, R4, flags);
	b_call(c, BPF_FUNC_map_update_elem);
}

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

/* R@dst = the state index of prev (R7) from ctx (R6): sched_switch's record's; uses R1, R2 */
static void emit_state(struct ts_bpf *t, struct bpfb *c, int dst)
{
	int done = bpfb__label(c);
	static const int at[] = { 0x40, 0x20, 0x10, 8, 4, 2, 1 };

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
	b_movi(c, dst, I_I);
	b_jmpi(c, BPF_JEQ, R2, TASK_IDLE, done);
	b_movi(c, dst, I_D);
	b_jmpi(c, BPF_JEQ, R2, TASK_RTLOCK_WAIT, done);
	b_ldx(c, 4, R1, R7, (short)t->off_exit);
	b_alu(c, BPF_OR, R2, R1);
	b_alui(c, BPF_AND, R2, TASK_REPORT);
	/* the highest bit's index (fls): 0x40 P ... 1 S, none R */
	for (int i = 0; i < 7; i++) {
		b_movi(c, dst, 7 - i);
		b_jmpi(c, BPF_JGE, R2, at[i], done);
	}
	b_movi(c, dst, I_R);
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
	emit_update(c, t->flame, SK_FKEY, SK_FVAL, BPF_NOEXIST);
	b_jmpi(c, BPF_JEQ, R0, 0, done);
	b_jmpi(c, BPF_JNE, R0, -EEXIST, drop);
	b_lookup(c, t->flame, SK_FKEY);
	b_jmpi(c, BPF_JEQ, R0, 0, drop);
	bpfb__here(c, add);
	b_ldx(c, 8, R1, R0, 0);
	b_alui(c, BPF_ADD, R1, 1);
	b_stx(c, 8, R0, 0, R1);
	b_ldx(c, 8, R1, R0, 8);
	b_alu(c, BPF_ADD, R1, R8);
	b_stx(c, 8, R0, 8, R1);
	b_ja(c, done);
	bpfb__here(c, drop);
	bpf_back__emit_drop(t->b, c, t->drop_flame);
	bpfb__here(c, done);
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
 * (se.sum_exec_runtime), ended where it started to run.  Keeps R6-R9.
 */
static void emit_unseen(struct ts_bpf *t, struct bpfb *c)
{
	int back = bpfb__label(c);

	int counted = bpfb__label(c);

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
}

/*
 * sched_switch(preempt, prev, next[, prev_state]): next's interval ends,
 * then prev's starts.  R6 ctx throughout.
 */
static int build_switch(struct ts_bpf *t, struct bpfb *c, char *why, size_t len)
{
	int out = bpfb__label(c), sw_out = bpfb__label(c);
	int dead = bpfb__label(c), other = bpfb__label(c), insert = bpfb__label(c);
	int fill = bpfb__label(c), err;

	b_mov(c, R6, R1);
	bpf_back__emit_running(t->b, c, out);

	/* ---- next switches in ---- */
	b_ldx(c, 8, R7, R6, 16);
	b_ldx(c, 4, R8, R7, (short)t->off_pid);
	b_jmpi(c, BPF_JEQ, R8, 0, sw_out);
	b_stx(c, 4, R10, SK_TID, R8);
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
	b_ldx(c, 8, R7, R6, 8);
	b_ldx(c, 4, R8, R7, (short)t->off_pid);
	b_jmpi(c, BPF_JEQ, R8, 0, out);
	b_stx(c, 4, R10, SK_TID, R8);
	emit_state(t, c, R9);
	b_jmpi(c, BPF_JEQ, R9, I_X, dead);
	b_jmpi(c, BPF_JEQ, R9, I_Z, dead);
	b_ld64(c, R1, t->conf.state_mask);
	b_alu(c, BPF_RSH, R1, R9);
	b_alui(c, BPF_AND, R1, 1);
	b_jmpi(c, BPF_JEQ, R1, 0, other);
	b_stx(c, 8, R10, SK_STATE, R9);
	b_ldx(c, 4, R9, R7, (short)t->off_tgid);
	if ((err = bpf_back__emit_target(t->b, c, R9, R8, out, why, len)))
		return err;
	if (t->nr_globs) {
		b_ldx(c, 8, R2, R7, (short)t->off_comm);
		b_ldx(c, 8, R3, R7, (short)(t->off_comm + 8));
		emit_comm_test(t, c, other);
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
	b_st(c, 4, R8, E_TGID + 4, 0); /* pad */
	emit_fill(t, c, R9);
	emit_update(c, t->pending, SK_TID, SK_ENT, BPF_ANY);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	bpf_back__emit_drop(t->b, c, t->drop_pending);
	b_ja(c, out);

	/* not counted (state, comm): an interval still open ends (its switch-in unseen) */
	bpfb__here(c, other);
	b_lookup(c, t->pending, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_mov(c, R8, R0);
	b_ldx(c, 8, R1, R8, E_OUT);
	b_jmpi(c, BPF_JEQ, R1, 0, out);
	emit_unseen(t, c);
	b_ja(c, out);

	/* dead: marked, its name kept until the next read deletes it */
	bpfb__here(c, dead);
	b_lookup(c, t->pending, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_st(c, 8, R0, E_OUT, 0);
	b_st(c, 4, R0, E_STATE, ST_DEAD);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/* sched_wakeup(p): the first wakeup of an open interval */
static int build_wakeup(struct ts_bpf *t, struct bpfb *c)
{
	int out = bpfb__label(c);

	bpf_back__emit_running(t->b, c, out);
	b_ldx(c, 8, R7, R1, 0);
	b_ldx(c, 4, R8, R7, (short)t->off_pid);
	b_jmpi(c, BPF_JEQ, R8, 0, out);
	b_stx(c, 4, R10, SK_TID, R8);
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

int ts_bpf__new(struct bpf_back *b, const struct ts_bpf_conf *conf, struct ts_bpf **out, char *why,
		size_t len)
{
	struct ts_bpf *t = calloc(1, sizeof(*t));
	static const char *const tps[2] = { "sched_switch", "sched_wakeup" };
	static const char *const names[2] = { "pp_ts_switch", "pp_ts_wakeup" };
	char err[200] = "";
	int fd[2], ret;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->b = b;
	t->conf = *conf;
	t->pending = t->flame = t->stack_a = t->stack_b = -1;
	if ((ret = compile_globs(t, conf->filter, why, len)))
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
	    t->off_ran < 0 || t->sw_args < 3 || bpf_back__btf_tp_args("sched_wakeup") < 1) {
		snprintf(why, len,
			 "no task_struct, sched_switch or sched_wakeup in the kernel's BTF");
		goto fail;
	}
	if (t->sw_args < 4 && t->off_state < 0) {
		snprintf(why, len, "sched_switch without prev_state and no task_struct.__state");
		goto fail;
	}
	t->drop_pending = bpf_back__drop_slot(b, "intervals not timed: thread map full "
						 "(--bpf-entries)");
	ret = -ENOMEM;
	t->pending = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_ts_pending", 4, sizeof(struct ts_ent),
				   conf->entries, 0);
	t->unseen = t->pending < 0 ? t->pending
				   : bpf_back__map(b, BPF_MAP_TYPE_PERCPU_ARRAY, "pp_ts_unseen", 4,
						   8, 1, 0);
	if (t->unseen < 0)
		goto fail_map;
	/*
	 * Preallocated: at sched_switch interrupts are off, and a map that
	 * allocates as keys come finds the kernel's cache empty in a burst
	 * (counted drops).  Rows: 27 a table (9 states, 2 sub-rows), or per
	 * thread a quarter of --bpf-entries; buckets: a quarter, or all.
	 */
	t->lat = bpf_lat__new_sized(b, "pp_ts", conf->perins ? conf->entries / 4 : 64,
				    conf->perins ? conf->entries : conf->entries / 4, true, why,
				    len);
	if (!t->lat) {
		ret = -EOPNOTSUPP;
		goto fail;
	}
	if (conf->stacks) {
		unsigned n = conf->entries < 16384 ? conf->entries : 16384;

		t->depth = conf->max_stack > 0 && conf->max_stack < 127 ? conf->max_stack : 127;
		t->drop_flame = bpf_back__drop_slot(b, "off-CPU stacks not kept: map full "
						       "(--bpf-entries)");
		t->drop_stack = bpf_back__drop_slot(b, "off-CPU stacks not kept: stack map "
						       "full or a hash collision");
		t->stack_a = bpf_back__map(b, BPF_MAP_TYPE_STACK_TRACE, "pp_ts_stack", 4,
					   8 * t->depth, n, 0);
		t->stack_b = t->stack_a < 0 ? t->stack_a
					    : bpf_back__map(b, BPF_MAP_TYPE_STACK_TRACE,
							    "pp_ts_stack2", 4, 8 * t->depth, n, 0);
		t->flame = t->stack_b < 0 ? t->stack_b
					  : bpf_back__map(b, BPF_MAP_TYPE_PERCPU_HASH,
							  "pp_ts_flame", sizeof(struct ts_fkey), 16,
							  conf->entries / 4, 0);
		if (t->flame < 0)
			goto fail_map;
	}
	for (int i = 0; i < 2; i++) {
		struct bpfb c;

		bpfb__init(&c);
		ret = i ? build_wakeup(t, &c) : build_switch(t, &c, why, len);
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
	for (int i = 0; i < 2; i++)
		if ((ret = bpf_back__attach_raw(b, tps[i], fd[i])))
			goto fail;
	*out = t;
	return 0;
fail_map:
	snprintf(why, len, "its maps: %s", strerror(ENOMEM));
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

/* The names of the threads in the pending map; the dead ones go after this read. */
static int read_comms(struct ts_bpf *t, u32 **dead, int *nr_dead)
{
	u32 key, next, *prev = NULL;
	struct ts_ent v;
	int cap = 0;

	*dead = NULL;
	*nr_dead = 0;
	while (!bpf_map_get_next_key(t->pending, prev, &next)) {
		struct comm_ent *e;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(t->pending, &key, &v))
			continue;
		if (v.state == ST_DEAD) {
			if (*nr_dead == cap) {
				u32 *d = realloc(*dead, (cap = cap ? 2 * cap : 64) * sizeof(u32));

				if (!d)
					return -ENOMEM;
				*dead = d;
			}
			(*dead)[(*nr_dead)++] = key;
			/* its rows leave the maps when they fill (with their values then) */
			if (t->conf.perins && bpf_lat__forget(t->lat, key))
				return -ENOMEM;
		}
		if (!t->conf.perins)
			continue;
		if (!(e = calloc(1, sizeof(*e))))
			return -ENOMEM;
		e->tid = key;
		e->tgid = v.tgid;
		memcpy(e->comm, v.comm, 15);
		HASH_ADD(hh, t->comms, tid, sizeof(e->tid), e);
	}
	return 0;
}

static void lat_row(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked)
{
	struct ts_bpf *t = arg;
	struct comm_ent *e = NULL;
	u32 tid = (u32)key[1];

	(void)marked;
	if (t->conf.perins)
		HASH_FIND(hh, t->comms, &tid, sizeof(tid), e);
	t->ops->row(t->arg, (unsigned)key[0], e ? e->tgid : 0, tid, e ? e->comm : NULL, h);
}

/* The stacks' growth since the last read. */
static int read_flame(struct ts_bpf *t)
{
	int ncpu = bpf_back__nr_cpus();
	u64 *vals = calloc((size_t)ncpu * 2, sizeof(u64));
	u64 *ips = calloc(t->depth, sizeof(u64));
	struct ts_fkey key, next, *prev = NULL;
	int err = 0;

	if (!vals || !ips) {
		err = -ENOMEM;
		goto out;
	}
	while (!bpf_map_get_next_key(t->flame, prev, &next)) {
		u64 count = 0, ns = 0;
		struct fseen *f;
		char comm[16];
		u32 id;
		int n;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(t->flame, &key, vals))
			continue;
		for (int c = 0; c < ncpu; c++) {
			count += vals[2 * c];
			ns += vals[2 * c + 1];
		}
		HASH_FIND(hh, t->fseen, &key, sizeof(key), f);
		if (!f) {
			if (!(f = calloc(1, sizeof(*f)))) {
				err = -ENOMEM;
				goto out;
			}
			f->key = key;
			HASH_ADD(hh, t->fseen, key, sizeof(f->key), f);
		}
		if (count == f->count)
			continue;
		id = (key.stack - 1) & ~STACK_B;
		memset(ips, 0, t->depth * sizeof(u64));
		if (bpf_map_lookup_elem((key.stack - 1) & STACK_B ? t->stack_b : t->stack_a, &id,
					ips))
			continue; /* (never deleted: not expected) */
		for (n = 0; n < t->depth && ips[n]; n++)
			;
		memcpy(comm, key.comm, 15);
		comm[15] = 0;
		t->ops->stack(t->arg, ips, n, comm, key.state, count - f->count, ns - f->ns);
		f->count = count;
		f->ns = ns;
	}
out:
	free(vals);
	free(ips);
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
