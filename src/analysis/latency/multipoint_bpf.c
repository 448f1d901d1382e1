// SPDX-License-Identifier: GPL-2.0
/* multi-trace and mpdelay on the BPF back end: see multipoint_bpf.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/bpf_stack.h"
#include "analysis/latency/multipoint_bpf.h"
#include "engine/bpf.h"
#include "engine/session.h"
#include "expr/expr.h"
#include "report/hist.h"

#include <event-parse.h>

/* The drop counts kept per point, in the counters map at what * MAX_POINTS + point. */
enum { C_REPLACED, C_BACKWARDS, C_EXITED, C_KINDS };
#define NR_COUNTERS (C_KINDS * MULTIPOINT_MAX_POINTS)

/* The frame: the back end's scratch (-8), then ours, then bpf_lat's, then the expressions'. */
enum {
	SK_KEY = -16,  /* the event's key */
	SK_SKEY = -32, /* the start map's key: point, key */
	SK_NOW = -40,  /* the event's time */
	SK_VAL = -48,  /* a new start's value */
	SK_CNT = -56,  /* a counter's index (u32) */
	SK_ROLE = -64, /* role= (--than: R7 is the record's room for a while) */
	SK_ROW = -80,  /* bpf_lat's row: from * 256 + to (or the label), key or 0 */
	/* rows by label: a new start's time, label, mark; at a close, +16 the mark */
	SK_VAL3 = -104,
	SK_SCRATCH = SK_VAL3 - BPF_LAT_SCRATCH,
	/* --heatmap: a pair's start, latency, from | to << 8 (below bpf_lat's: the expressions' are done) */
	SK_HEAT = SK_SCRATCH - 24,
};

/*
 * --than: a start (the start map's value): time, thread, CPU | event << 32,
 * label and mark (rows by label), record (-g: its stacks are kept under
 * the same key, bpf_stack.h).  Without --than: the time, with rows by
 * label its label and mark (VL_LABEL).
 */
enum {
	V_TIME = 0,
	V_IDS = 8,
	V_CPU = 16,
	V_LABEL = 24,
	V_MARK = 32,
	V_RAW = 40,
	V_SIZE = V_RAW + MPBPF_RAW,
	VL_LABEL = 8,
};
/*
 * A slow pair copied out: start, latency, key, from | to << 8 | start event
 * << 16 | end event << 24, the start's thread and CPU, the end's, the
 * start's label and mark (rows by label), both records; with -g then stack
 * slots (bpf_stack.h): the start's kept ones, then the end's (the kinds -g
 * takes).
 */
enum {
	O_START = 0,
	O_DELTA = 8,
	O_KEY = 16,
	O_WHICH = 24,
	O_IDS0 = 32,
	O_CPU0 = 40,
	O_IDS1 = 48,
	O_CPU1 = 56,
	O_LABEL = 64,
	O_MARK = 72,
	O_RAW0 = 80,
	O_RAW1 = O_RAW0 + MPBPF_RAW,
	O_SIZE = O_RAW1 + MPBPF_RAW,
};

struct mpbpf {
	struct mpbpf_conf conf;
	struct bpf_back *b;
	struct bpf_lat *lat;
	int starts;   /* hash: (point, key) -> start time */
	int counters; /* per-CPU array: the drop counts */
	int drop_full;
	u64 seen[NR_COUNTERS]; /* the counts at the last read */
	/* --than */
	struct session *s;
	int newval;   /* per-CPU array[1]: a new start made here, then copied into starts */
	int out;      /* bpf_back__out's id */
	int heat_out; /* --heatmap's */
	struct evsel **evs;
	struct bpf_stacks *stacks; /* -g */
	unsigned entries;
	int v_label; /* rows by label: the label's offset in a start (the mark's + 8) */
};

/* counters[@idx] += 1 on this CPU (uses R0-R2) */
static void emit_count(struct mpbpf *m, struct bpfb *c, int idx)
{
	int skip = bpfb__label(c);

	b_st(c, 4, R10, SK_CNT, idx);
	b_lookup(c, m->counters, SK_CNT);
	b_jmpi(c, BPF_JEQ, R0, 0, skip);
	b_ldx(c, 8, R1, R0, 0);
	b_alui(c, BPF_ADD, R1, 1);
	b_stx(c, 8, R0, 0, R1);
	bpfb__here(c, skip);
}

/* the start map's key: (@point, the event's key) */
static void emit_skey(struct bpfb *c, int point)
{
	b_st(c, 8, R10, SK_SKEY, point);
	b_ldx(c, 8, R1, R10, SK_KEY);
	b_stx(c, 8, R10, SK_SKEY + 8, R1);
}

/*
 * The pair from @from closes at @to: its start taken (deleted: another
 * CPU's end cannot take it too), end - start into the row.  Uses R8.
 */
/*
 * Whether perf's samples of @ev have the task's user registers (no kernel
 * frames in their callchain): the syscalls:* tracepoints' do.
 */
static bool user_regs(const struct evsel *ev)
{
	return ev->tp && ev->tp->system && !strcmp(ev->tp->system, "syscalls");
}

/*
 * The start's record and @e_idx's (ctx in R6) and what the printing needs,
 * copied out when the pair from @from to @to is over --than: the start in
 * R0 (its time in R8), then taken (deleted) as emit_close does; to
 * @recorded, or to @done when another CPU took it first, to @normal when
 * not slow or not copied (a full ring buffer: counted).  Uses R7 (role=
 * kept at SK_ROLE), R9.
 */
static void emit_slow(struct mpbpf *m, struct bpfb *c, int from, int to, int e_idx, int normal,
		      int recorded, int done)
{
	int taken = bpfb__label(c);
	int kept = m->stacks ? bpf_stacks__kept(m->stacks) : 0;
	int took = m->stacks ? bpf_stacks__taken(m->stacks) : 0;
	int16_t end = (int16_t)(O_SIZE + (m->stacks ? bpf_stacks__size(m->stacks, kept) : 0));

	b_ldx(c, 8, R1, R10, SK_NOW);
	b_jmp(c, BPF_JLT, R1, R8, normal);
	b_alu(c, BPF_SUB, R1, R8);
	b_ld64(c, R2, m->conf.than);
	b_jmp(c, BPF_JLE, R1, R2, normal);
	b_mov(c, R9, R0);
	bpf_back__emit_reserve(m->b, c, m->out,
			       end + (m->stacks ? bpf_stacks__size(m->stacks, took) : 0), normal);
	b_mov(c, R7, R0);
	b_stx(c, 8, R7, O_START, R8);
	b_ldx(c, 8, R1, R10, SK_NOW);
	b_alu(c, BPF_SUB, R1, R8);
	b_stx(c, 8, R7, O_DELTA, R1);
	b_ldx(c, 8, R1, R10, SK_KEY);
	b_stx(c, 8, R7, O_KEY, R1);
	b_ldx(c, 8, R1, R9, V_CPU);
	b_alui(c, BPF_RSH, R1, 32);
	b_alui(c, BPF_LSH, R1, 16);
	b_alui(c, BPF_OR, R1, from | to << 8 | e_idx << 24);
	b_stx(c, 8, R7, O_WHICH, R1);
	b_ldx(c, 8, R1, R9, V_IDS);
	b_stx(c, 8, R7, O_IDS0, R1);
	b_ldx(c, 8, R1, R9, V_CPU);
	b_stx(c, 8, R7, O_CPU0, R1);
	b_call(c, BPF_FUNC_get_current_pid_tgid);
	b_stx(c, 8, R7, O_IDS1, R0);
	b_call(c, BPF_FUNC_get_smp_processor_id);
	b_stx(c, 8, R7, O_CPU1, R0);
	if (m->conf.row) {
		b_ldx(c, 8, R1, R9, V_LABEL);
		b_stx(c, 8, R7, O_LABEL, R1);
		b_ldx(c, 8, R1, R9, V_MARK);
		b_stx(c, 8, R7, O_MARK, R1);
	}
	if (m->stacks) { /* the start's kept ones, the end's taken now */
		bpf_stacks__emit_copy(m->stacks, c, SK_SKEY, R7, O_SIZE, kept, false);
		bpf_stacks__emit_take(m->stacks, c, R6, 0, R7, end, took, user_regs(m->evs[e_idx]));
	}
	b_mov(c, R1, R7);
	b_alui(c, BPF_ADD, R1, O_RAW0);
	b_movi(c, R2, MPBPF_RAW);
	b_mov(c, R3, R9);
	b_alui(c, BPF_ADD, R3, V_RAW);
	b_call(c, BPF_FUNC_probe_read_kernel);
	b_mov(c, R1, R7);
	b_alui(c, BPF_ADD, R1, O_RAW1);
	b_movi(c, R2, MPBPF_RAW);
	b_mov(c, R3, R6);
	b_call(c, BPF_FUNC_probe_read_kernel);
	/* copied before the start is taken: a start deleted may be reused at once */
	b_ldmap(c, R1, m->starts);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, SK_SKEY);
	b_call(c, BPF_FUNC_map_delete_elem);
	b_jmpi(c, BPF_JEQ, R0, 0, taken);
	bpf_back__emit_discard(c, R7);
	b_ldx(c, 8, R7, R10, SK_ROLE);
	b_ja(c, done);
	bpfb__here(c, taken);
	bpf_back__emit_submit(c, R7);
	bpf_stacks__emit_forget(m->stacks, c, SK_SKEY);
	b_ldx(c, 8, R7, R10, SK_ROLE);
	b_ja(c, recorded);
}

static void emit_close(struct mpbpf *m, struct bpfb *c, int from, int to, int e_idx, int done)
{
	int back = bpfb__label(c), normal = bpfb__label(c), recorded = bpfb__label(c);

	emit_skey(c, from);
	b_lookup(c, m->starts, SK_SKEY);
	b_jmpi(c, BPF_JEQ, R0, 0, done);
	b_ldx(c, 8, R8, R0, 0);
	if (m->conf.row) { /* the start's label is the row, its mark the pair's (kept a while) */
		b_ldx(c, 8, R1, R0, m->v_label);
		b_stx(c, 8, R10, SK_ROW, R1);
		b_ldx(c, 8, R1, R0, m->v_label + 8);
		b_stx(c, 8, R10, SK_VAL3 + 16, R1);
	}
	for (int q = 0; m->conf.than && m->conf.row && q < m->conf.nr_quiet; q++) {
		b_ldx(c, 8, R1, R10, SK_ROW); /* a quiet row's slow pairs stay in the kernel */
		b_ld64(c, R2, m->conf.quiet[q]);
		b_jmp(c, BPF_JEQ, R1, R2, normal);
	}
	if (m->conf.than)
		emit_slow(m, c, from, to, e_idx, normal, recorded, done);
	bpfb__here(c, normal);
	b_ldmap(c, R1, m->starts);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, SK_SKEY);
	b_call(c, BPF_FUNC_map_delete_elem);
	b_jmpi(c, BPF_JNE, R0, 0, done);
	bpf_stacks__emit_forget(m->stacks, c, SK_SKEY);
	bpfb__here(c, recorded);
	b_ldx(c, 8, R1, R10, SK_NOW);
	b_jmp(c, BPF_JLT, R1, R8, back);
	if (m->conf.heatmap)
		b_stx(c, 8, R10, SK_HEAT, R8);
	b_alu(c, BPF_SUB, R1, R8);
	b_mov(c, R8, R1);
	if (m->conf.heatmap) { /* every pair's time, for the heat map */
		b_stx(c, 8, R10, SK_HEAT + 8, R8);
		b_st(c, 8, R10, SK_HEAT + 16, from | to << 8);
		bpf_back__emit_output(m->b, c, m->heat_out, SK_HEAT, 24);
	}
	if (!m->conf.row)
		b_st(c, 8, R10, SK_ROW, from * 256 + to);
	if (m->conf.perins) {
		b_ldx(c, 8, R1, R10, SK_KEY);
		b_stx(c, 8, R10, SK_ROW + 8, R1);
	} else {
		b_st(c, 8, R10, SK_ROW + 8, 0);
	}
	if (m->conf.row)
		b_ldx(c, 8, R7, R10, SK_VAL3 + 16);
	bpf_lat__emit_record(m->lat, c, SK_ROW, R8, m->conf.row ? R7 : -1, SK_SCRATCH);
	b_ja(c, done);
	bpfb__here(c, back);
	emit_count(m, c, C_BACKWARDS * MULTIPOINT_MAX_POINTS + from);
}

/* --than: the start at R8 with the event's time, thread, CPU, stacks and record (ctx in R6) */
static void emit_fill(struct mpbpf *m, struct bpfb *c, int e_idx)
{
	b_ldx(c, 8, R1, R10, SK_NOW);
	b_stx(c, 8, R8, V_TIME, R1);
	b_call(c, BPF_FUNC_get_current_pid_tgid);
	b_stx(c, 8, R8, V_IDS, R0);
	b_call(c, BPF_FUNC_get_smp_processor_id);
	b_ld64(c, R1, (u64)e_idx << 32);
	b_alu(c, BPF_OR, R0, R1);
	b_stx(c, 8, R8, V_CPU, R0);
	/* -g: its stacks, under its key */
	bpf_stacks__emit_keep(m->stacks, c, R6, 0, SK_SKEY, SK_VAL, user_regs(m->evs[e_idx]));
	for (int w = 1; m->conf.row && w < 3; w++) { /* emit_label's */
		b_ldx(c, 8, R1, R10, (int16_t)(SK_VAL3 + 8 * w));
		b_stx(c, 8, R8, (int16_t)(V_LABEL + 8 * (w - 1)), R1);
	}
	b_mov(c, R1, R8);
	b_alui(c, BPF_ADD, R1, V_RAW);
	b_movi(c, R2, MPBPF_RAW);
	b_mov(c, R3, R6);
	b_call(c, BPF_FUNC_probe_read_kernel);
}

/*
 * A pair opens from @k: the start's time under (k, key), over a pending one
 * (counted).  Rows by label: its label and mark (at SK_VAL3 + 8, + 16) too.
 */
static void emit_open(struct mpbpf *m, struct bpfb *c, int k, int e_idx, int done)
{
	int make = bpfb__label(c), have = bpfb__label(c), drop = bpfb__label(c);

	emit_skey(c, k);
	b_lookup(c, m->starts, SK_SKEY);
	b_jmpi(c, BPF_JEQ, R0, 0, make);
	bpfb__here(c, have);
	if (m->conf.than) {
		b_mov(c, R8, R0);
		emit_fill(m, c, e_idx);
	} else {
		b_ldx(c, 8, R1, R10, SK_NOW);
		b_stx(c, 8, R0, 0, R1);
		for (int w = 1; m->conf.row && w < 3; w++) {
			b_ldx(c, 8, R1, R10, (int16_t)(SK_VAL3 + 8 * w));
			b_stx(c, 8, R0, (int16_t)(VL_LABEL + 8 * (w - 1)), R1);
		}
	}
	emit_count(m, c, C_REPLACED * MULTIPOINT_MAX_POINTS + k);
	b_ja(c, done);
	bpfb__here(c, make);
	if (m->conf.than) { /* made in the per-CPU array (too big for the stack) */
		b_st(c, 4, R10, SK_CNT, 0);
		b_lookup(c, m->newval, SK_CNT);
		b_jmpi(c, BPF_JEQ, R0, 0, drop);
		b_mov(c, R8, R0);
		emit_fill(m, c, e_idx);
		b_mov(c, R3, R8);
	} else if (m->conf.row) { /* time, label, mark: emit_label put the last two there */
		b_ldx(c, 8, R1, R10, SK_NOW);
		b_stx(c, 8, R10, SK_VAL3, R1);
		b_mov(c, R3, R10);
		b_alui(c, BPF_ADD, R3, SK_VAL3);
	} else {
		b_ldx(c, 8, R1, R10, SK_NOW);
		b_stx(c, 8, R10, SK_VAL, R1);
		b_mov(c, R3, R10);
		b_alui(c, BPF_ADD, R3, SK_VAL);
	}
	b_ldmap(c, R1, m->starts);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, SK_SKEY);
	b_movi(c, R4, BPF_NOEXIST);
	b_call(c, BPF_FUNC_map_update_elem);
	b_jmpi(c, BPF_JEQ, R0, 0, done);
	/* another CPU made it just now: this start replaces that one */
	b_jmpi(c, BPF_JNE, R0, -EEXIST, drop);
	b_lookup(c, m->starts, SK_SKEY);
	b_jmpi(c, BPF_JNE, R0, 0, have);
	bpfb__here(c, drop); /* the map is full: counted, said as lost */
	bpf_back__emit_drop(m->b, c, m->drop_full);
	bpf_stacks__emit_forget(m->stacks, c, SK_SKEY);
}

/* @why prefixed with what of @ev did not compile ("role= of sched:sched_switch: ..."). */
static int bad(char *why, size_t len, int err, const char *what, const struct evsel *ev)
{
	if (err == -EOPNOTSUPP || err == -EINVAL) {
		char tmp[200];

		snprintf(tmp, sizeof(tmp), "%s", why);
		snprintf(why, len, "%s of %.60s: %s", what, ev->name, tmp);
		return -EOPNOTSUPP;
	}
	return err;
}

/*
 * Rows by label, before a start: the role back in R7 (a close used it), the
 * event's label and mark (0 or 1) at SK_VAL3 + 8 and + 16.
 */
static int emit_label(struct bpfb *c, const struct expr_bpf_env *env, const struct mpbpf_event *e,
		      char *why, size_t len)
{
	int ret, zero = bpfb__label(c);

	b_ldx(c, 8, R7, R10, SK_ROLE);
	b_movi(c, R0, 0);
	if (e->label && (ret = expr__bpf(e->label, c, env, why, len)))
		return bad(why, len, ret, "the row's label", e->ev);
	b_stx(c, 8, R10, SK_VAL3 + 8, R0);
	b_movi(c, R0, 0);
	if (e->mark && (ret = expr__bpf(e->mark, c, env, why, len)))
		return bad(why, len, ret, "the row's mark", e->ev);
	b_jmpi(c, BPF_JEQ, R0, 0, zero);
	b_movi(c, R0, 1);
	bpfb__here(c, zero);
	b_stx(c, 8, R10, SK_VAL3 + 16, R0);
	return 0;
}

/* The program of event @e; its fd, or -EOPNOTSUPP with @why set, or -errno. */
static int program(struct mpbpf *m, struct session *s, const struct mpbpf_event *e, int e_idx,
		   char *why, size_t len)
{
	const struct mpbpf_conf *cf = &m->conf;
	struct expr_bpf_env env = {
		.ctx_reg = R6,
		.pid_tgid_reg = R9,
		.stack_lo = -512,
		.stack_hi = SK_SCRATCH,
	};
	int n = cf->nr_points, k = e->point, from = (k + n - 1) % n;
	bool closes = k >= 0 && multipoint__opens(cf->mt, from);
	bool opens = k >= 0 && multipoint__opens(cf->mt, k);
	struct expr *filter = NULL;
	char err[200], name[16];
	struct bpfb c;
	int out, open_part, fd, ret = 0;

	bpfb__init(&c);
	out = bpfb__label(&c);
	open_part = bpfb__label(&c);
	if (k < 0) /* untraced: nothing, no sample */
		goto done;
	if (e->ev->filter) {
		filter = expr__compile_filter(e->ev->filter, e->ev, err, sizeof(err));
		if (!filter) {
			snprintf(why, len, "the filter of %.60s: %.160s", e->ev->name, err);
			ret = -EOPNOTSUPP;
			goto fail;
		}
	}
	b_mov(&c, R6, R1);
	bpf_back__emit_running(m->b, &c, out);
	b_call(&c, BPF_FUNC_get_current_pid_tgid);
	b_mov(&c, R9, R0);
	b_mov(&c, R8, R0);
	b_alui(&c, BPF_RSH, R8, 32);
	b_mov(&c, R7, R9);
	b_alui(&c, BPF_LSH, R7, 32);
	b_alui(&c, BPF_RSH, R7, 32);
	if ((ret = bpf_back__emit_target(m->b, &c, R8, R7, out, why, len)))
		goto fail;
	if (filter) {
		if ((ret = expr__bpf(filter, &c, &env, why, len))) {
			ret = bad(why, len, ret, "the filter", e->ev);
			goto fail;
		}
		b_jmpi(&c, BPF_JEQ, R0, 0, out);
	}
	switch (cf->key_mode) {
	case MPBPF_KEY_EXPR:
		if ((ret = expr__bpf(e->key, &c, &env, why, len))) {
			ret = bad(why, len, ret, "key=", e->ev);
			goto fail;
		}
		break;
	case MPBPF_KEY_THREAD:
		b_mov(&c, R0, R7);
		break;
	case MPBPF_KEY_CPU:
		b_call(&c, BPF_FUNC_get_smp_processor_id);
		break;
	}
	b_stx(&c, 8, R10, SK_KEY, R0);
	if (e->role) {
		if ((ret = expr__bpf(e->role, &c, &env, why, len))) {
			ret = bad(why, len, ret, "role=", e->ev);
			goto fail;
		}
		b_mov(&c, R7, R0);
	} else {
		b_movi(&c, R7, 3);
	}
	b_stx(&c, 8, R10, SK_ROLE, R7);
	b_call(&c, BPF_FUNC_ktime_get_ns);
	b_stx(&c, 8, R10, SK_NOW, R0);
	if (closes) {
		b_mov(&c, R1, R7);
		b_alui(&c, BPF_AND, R1, 2);
		b_jmpi(&c, BPF_JEQ, R1, 0, open_part);
		emit_close(m, &c, from, k, e_idx, open_part);
	}
	bpfb__here(&c, open_part);
	if (opens && cf->row && (ret = emit_label(&c, &env, e, why, len)))
		goto fail;
	if (opens) {
		b_mov(&c, R1, R7);
		b_alui(&c, BPF_AND, R1, 1);
		b_jmpi(&c, BPF_JEQ, R1, 0, out);
		emit_open(m, &c, k, e_idx, out);
	}
done:
	bpfb__here(&c, out);
	b_ret(&c, 1); /* every hit goes on to the tracepoint's other perf users (bpf_attach.c) */
	snprintf(name, sizeof(name), "pp_mt_%u", k < 0 ? 99u : (unsigned)k % 100);
	fd = bpf_back__load(m->b, BPF_PROG_TYPE_TRACEPOINT, name, &c, NULL, err, sizeof(err));
	bpfb__free(&c);
	expr__free(filter);
	if (fd < 0) {
		snprintf(why, len, "the kernel refused the program of %.60s: %.160s", e->ev->name,
			 err);
		return -EOPNOTSUPP;
	}
	(void)s;
	return fd;
fail:
	bpfb__free(&c);
	expr__free(filter);
	return ret;
}

/*
 * sched_process_exit (raw tracepoint, in the exiting thread): keys are
 * threads, the thread's pending pairs are dropped (counted as exited), as
 * the ring path does at the task's exit record.
 */
static int exit_program(struct mpbpf *m, char *why, size_t len)
{
	struct bpfb c;
	char err[200];
	int out, fd;

	bpfb__init(&c);
	out = bpfb__label(&c);
	bpf_back__emit_running(m->b, &c, out);
	b_call(&c, BPF_FUNC_get_current_pid_tgid);
	b_alui(&c, BPF_LSH, R0, 32);
	b_alui(&c, BPF_RSH, R0, 32);
	b_stx(&c, 8, R10, SK_KEY, R0);
	for (int k = 0; k < m->conf.nr_points; k++) {
		int next = bpfb__label(&c);

		if (!multipoint__opens(m->conf.mt, k))
			continue;
		emit_skey(&c, k);
		b_ldmap(&c, R1, m->starts);
		b_mov(&c, R2, R10);
		b_alui(&c, BPF_ADD, R2, SK_SKEY);
		b_call(&c, BPF_FUNC_map_delete_elem);
		b_jmpi(&c, BPF_JNE, R0, 0, next);
		bpf_stacks__emit_forget(m->stacks, &c, SK_SKEY);
		emit_count(m, &c, C_EXITED * MULTIPOINT_MAX_POINTS + k);
		bpfb__here(&c, next);
	}
	bpfb__here(&c, out);
	b_ret(&c, 0);
	fd = bpf_back__load(m->b, BPF_PROG_TYPE_RAW_TRACEPOINT, "pp_mt_exit", &c, NULL, err,
			    sizeof(err));
	bpfb__free(&c);
	if (fd < 0) {
		snprintf(why, len, "the kernel refused the exit program: %.160s", err);
		return -EOPNOTSUPP;
	}
	return bpf_back__attach_raw(m->b, "sched_process_exit", fd);
}

/* A row read from bpf_lat into multipoint's table. */
static void read_row(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked)
{
	struct mpbpf *m = arg;
	struct multipoint_row row = { .key = key[0] };
	int from = (int)(key[0] >> 8), to = (int)(key[0] & 0xff);

	if (m->conf.row) { /* rows by label: the pair 0 => 1 */
		m->conf.row(m->conf.row_arg, key[0], &row);
		row.over = bpf_lat__over(m->lat);
		multipoint__record_hist(m->conf.mt, 0, 1, key[1], &row, h, marked);
		return;
	}
	multipoint__own_row(m->conf.mt, from, to, key[1], &row);
	row.over = bpf_lat__over(m->lat);
	multipoint__record_hist(m->conf.mt, from, to, key[1], &row, h, marked);
}

/*
 * One end of a slow pair as the ring path's sample of it: its thread, CPU,
 * time, record (copied into @raw, its common fields put back:
 * bpf_back__tp_sample) and stacks.
 */
static void slow_sample(struct mpbpf *m, struct evsel *ev, struct sample *smp, u64 ids, u64 cpu,
			u64 time, const void *rec, const char *slots, int kinds, u64 *chain,
			u64 *raw)
{
	bpf_back__tp_sample(ev, smp, ids, (u32)cpu, time, rec, MPBPF_RAW, MPBPF_RAW, raw);
	if (slots)
		bpf_stacks__sample(m->stacks, session__stack(m->s),
				   bpf_stacks__slot_of(m->stacks, slots, kinds, BPF_STACKS_KERNEL),
				   bpf_stacks__slot_of(m->stacks, slots, kinds, BPF_STACKS_USER),
				   chain, smp);
}

/* A slow pair copied out of the kernel (bpf_back__out's callback): printed as the ring path does. */
static int on_slow(void *arg, void *data, size_t size)
{
	static const u64 none[MULTIPOINT_DATA];
	struct mpbpf *m = arg;
	const u64 *w = data;
	struct sample smp[2];
	struct multipoint_pair p;
	u64 which, chain[2][BPF_STACK_CHAIN], raw[2][MPBPF_RAW / 8], label[MULTIPOINT_DATA] = { 0 };
	const char *slots = NULL;
	int kept = m->stacks ? bpf_stacks__kept(m->stacks) : 0;
	int took = m->stacks ? bpf_stacks__taken(m->stacks) : 0;
	size_t end = m->stacks ? bpf_stacks__size(m->stacks, kept) : 0;
	int e0, e1;

	if (size < O_SIZE)
		return 0;
	/* -g: the start's kept slots, then the end's */
	if (m->stacks && size >= O_SIZE + end + bpf_stacks__size(m->stacks, took))
		slots = (const char *)data + O_SIZE;
	which = w[O_WHICH / 8];
	/* rows by label: the start's label and mark, the row hook's data */
	label[0] = w[O_LABEL / 8];
	label[1] = w[O_MARK / 8];
	e0 = (int)(which >> 16 & 0xff);
	e1 = (int)(which >> 24 & 0xff);
	if (e0 >= m->conf.nr_events || e1 >= m->conf.nr_events)
		return 0;
	slow_sample(m, m->evs[e0], &smp[0], w[O_IDS0 / 8], w[O_CPU0 / 8], w[O_START / 8],
		    (const char *)data + O_RAW0, slots, kept, chain[0], raw[0]);
	slow_sample(m, m->evs[e1], &smp[1], w[O_IDS1 / 8], w[O_CPU1 / 8],
		    w[O_START / 8] + w[O_DELTA / 8], (const char *)data + O_RAW1,
		    slots ? slots + end : NULL, took, chain[1], raw[1]);
	p = (struct multipoint_pair){
		.from = (int)(which & 0xff),
		.to = (int)(which >> 8 & 0xff),
		.key = w[O_KEY / 8],
		.start = w[O_START / 8],
		.delta = w[O_DELTA / 8],
		.data = m->conf.row ? label : none,
		.start_ev = m->evs[e0],
		.end_ev = m->evs[e1],
		.start_smp = &smp[0],
		.end_smp = &smp[1],
	};
	multipoint__print_pair(m->conf.mt, m->s, &p);
	return 0;
}

/* A pair's start and latency copied out (--heatmap): a line of its heat map. */
static int on_heat(void *arg, void *data, size_t size)
{
	struct mpbpf *m = arg;
	const u64 *w = data;

	if (size >= 24)
		multipoint__heat_pair(m->conf.mt, m->s, (int)(w[2] & 0xff), (int)(w[2] >> 8 & 0xff),
				      w[0], w[1]);
	return 0;
}

/*
 * --than: the records' room, the new starts' array, the out: 0, or
 * -EOPNOTSUPP with @why (an event whose record's fixed part is longer
 * than MPBPF_RAW, too many events), or -errno.
 */
static int than_setup(struct mpbpf *m, char *why, size_t len)
{
	if (m->conf.nr_events > 127) {
		snprintf(why, len, "--than: more than 127 events");
		return -EOPNOTSUPP;
	}
	for (int i = 0; i < m->conf.nr_events; i++) {
		const struct tep_event *tp = m->conf.events[i].ev->tp;
		unsigned end = 0;

		for (struct tep_format_field *f = tp ? tp->format.fields : NULL; f; f = f->next)
			if ((unsigned)(f->offset + f->size) > end)
				end = (unsigned)(f->offset + f->size);
		if (end > MPBPF_RAW) {
			snprintf(why, len,
				 "--than: the record of %.60s is %u bytes, more than the %d a "
				 "start keeps",
				 m->conf.events[i].ev->name, end, MPBPF_RAW);
			return -EOPNOTSUPP;
		}
		m->evs[i] = m->conf.events[i].ev;
	}
	if (session__stacks_for_all(m->s)) {
		char w[160];

		/* preallocated: events in interrupts keep starts too */
		m->stacks =
			bpf_stacks__new(m->s, m->b, m->entries, 16,
					BPF_STACKS_KERNEL | BPF_STACKS_USER, true, w, sizeof(w));
		if (!m->stacks) {
			snprintf(why, len, "-g: %s", w);
			return -EOPNOTSUPP;
		}
	}
	m->newval = bpf_back__map(m->b, BPF_MAP_TYPE_PERCPU_ARRAY, "pp_mt_new", 4, V_SIZE, 1, 0);
	if (m->newval < 0)
		return m->newval;
	m->out = bpf_back__out(m->b, "slow cases counted but not printed", on_slow, m);
	if (m->out == -EOPNOTSUPP)
		snprintf(why, len, "--than: %s", bpf_back__out_why(m->b));
	return m->out < 0 ? m->out : 0;
}

/* What the maps gained since the last read: rows into the table, drops into the counts. */
static void mpbpf_read(struct session *s, struct mpbpf *m, bool next_interval)
{
	int err = bpf_lat__read(m->lat, next_interval, read_row, m);
	u64 d[C_KINDS];

	if (err)
		session__warn(s, "reading the BPF maps: %s", strerror(-err));
	for (int k = 0; k < m->conf.nr_points; k++) {
		for (int w = 0; w < C_KINDS; w++) {
			u32 idx = (u32)(w * MULTIPOINT_MAX_POINTS + k);
			u64 now = 0;

			d[w] = 0;
			if (bpf_back__percpu_sum(m->b, m->counters, &idx, &now, 1) ||
			    now <= m->seen[idx])
				continue;
			d[w] = now - m->seen[idx];
			m->seen[idx] = now;
		}
		if (d[C_REPLACED] || d[C_BACKWARDS])
			multipoint__add_dropped(m->conf.mt, k, d[C_REPLACED], d[C_BACKWARDS]);
		if (d[C_EXITED])
			multipoint__add_exited(m->conf.mt, k, d[C_EXITED]);
	}
}

static void on_interval(struct session *s, void *priv)
{
	mpbpf_read(s, priv, true);
}

static void on_snapshot(struct session *s, void *priv)
{
	mpbpf_read(s, priv, false);
}

/* before multipoint's, which print the table */
static const struct session_ops mpbpf_ops = {
	.interval = on_interval,
	.snapshot = on_snapshot,
};

void mpbpf__delete(struct mpbpf *m)
{
	if (!m)
		return;
	bpf_lat__delete(m->lat);
	bpf_stacks__delete(m->stacks);
	free(m->evs);
	free(m);
}

void mpbpf__finish(struct mpbpf *m, struct session *s)
{
	u64 key[2], next[2], open = 0;
	void *prev = NULL;

	if (!m || !session__started(s))
		return;
	mpbpf_read(s, m, false);
	/* the starts left: pairs still open */
	while (!bpf_map_get_next_key(m->starts, prev, next)) {
		memcpy(key, next, sizeof(key));
		prev = key;
		open++;
	}
	multipoint__add_open(m->conf.mt, open);
}

int mpbpf__new(struct session *s, const struct opt_set *opts, const struct mpbpf_conf *conf,
	       struct mpbpf **out)
{
	struct bpf_back *b;
	struct mpbpf *m;
	char why[320] = "", err[200] = "";
	int ret, *fds, mark;

	*out = NULL;
	if (conf->row && (conf->nr_points != 2 || conf->cycle))
		return session__set_err(s, -EINVAL, "rows by label: two points, no cycle");
	if ((ret = bpf_back__get(s, opts, &b)) <= 0)
		return ret;
	mark = bpf_back__mark(b);
	m = calloc(1, sizeof(*m));
	fds = calloc((size_t)conf->nr_events + 1, sizeof(*fds));
	if (!m || !fds) {
		free(m);
		free(fds);
		return session__set_err(s, -ENOMEM, "out of memory");
	}
	m->conf = *conf;
	m->conf.events = NULL; /* the caller's: only during this call */
	m->b = b;
	m->s = s;
	m->entries = bpf_back__entries(opts);
	if (conf->than) {
		m->conf.events = conf->events;
		m->evs = calloc((size_t)conf->nr_events, sizeof(*m->evs));
		ret = m->evs ? than_setup(m, why, sizeof(why)) : -ENOMEM;
		m->conf.events = NULL;
		if (ret == -EOPNOTSUPP)
			ret = bpf_back__fallback(s, opts, "%s", why);
		else if (ret == -ENOMEM)
			ret = session__set_err(s, ret, "out of memory");
		if (ret)
			goto out;
	}
	if (conf->heatmap && (m->heat_out = bpf_back__out(m->b, "pairs not written to the heat map",
							  on_heat, m)) < 0) {
		ret = bpf_back__fallback(s, opts, "--heatmap: %s",
					 m->heat_out == -EOPNOTSUPP ? bpf_back__out_why(m->b)
								    : strerror(-m->heat_out));
		goto out;
	}
	m->v_label = conf->than ? V_LABEL : VL_LABEL;
	m->starts = bpf_back__map(m->b, BPF_MAP_TYPE_HASH, "pp_mt_starts", 16,
				  conf->than  ? V_SIZE
				  : conf->row ? VL_LABEL + 16
					      : 8,
				  bpf_back__entries(opts), 0);
	m->counters = m->starts < 0 ? m->starts
				    : bpf_back__map(m->b, BPF_MAP_TYPE_PERCPU_ARRAY, "pp_mt_drops",
						    4, 8, NR_COUNTERS, 0);
	if (m->counters < 0) {
		ret = bpf_back__fallback(s, opts, "multi-trace's maps: %s", strerror(-m->counters));
		goto out;
	}
	m->drop_full = bpf_back__drop_slot(m->b, "pairs not timed: start map full "
						 "(--bpf-entries)");
	/*
	 * Preallocated: the programs run in interrupts too (timer:*, irq:*),
	 * where a map that allocates as keys come finds the kernel's element
	 * cache empty (a lost row or bucket, seen with hrtimer expiries).
	 * Rows: per key with --perins, else the pairs or labels (bpf_lat.h).
	 */
	m->lat = bpf_lat__new_sized(m->b, "pp_mt", bpf_lat__rows_for(opts, conf->perins),
				    bpf_lat__buckets_for(opts, conf->perins), true, err,
				    sizeof(err));
	if (!m->lat) {
		ret = bpf_back__fallback(s, opts, "%s", err);
		goto out;
	}
	bpf_lat__set_than(m->lat, conf->than);
	ret = 0;
	for (int i = 0; i < conf->nr_events; i++)
		if (!bpf_back__classic_tp(conf->events[i].ev)) {
			ret = bpf_back__fallback(s, opts,
						 "%s: a probe's programs are not "
						 "generated yet",
						 conf->events[i].ev->name);
			goto out;
		}
	for (int i = 0; i < conf->nr_events && ret >= 0; i++) {
		ret = program(m, s, &conf->events[i], i, why, sizeof(why));
		fds[i] = ret;
	}
	m->conf.quiet = NULL; /* the caller's: only while the programs are made */
	if (ret >= 0 && conf->key_mode == MPBPF_KEY_THREAD)
		ret = exit_program(m, why, sizeof(why));
	if (ret < 0) {
		if (session__err_is_usage(s))
			goto out;
		ret = ret == -EOPNOTSUPP ? bpf_back__fallback(s, opts, "%s", why)
					 : session__set_err(s, ret, "BPF: %s", why);
		goto out;
	}
	for (int i = 0; i < conf->nr_events; i++)
		if ((ret = bpf_back__attach_perf(m->b, conf->events[i].ev, fds[i])))
			goto out;
	/* (and without -i, the maps read as it goes: the idle rows taken out) */
	if ((ret = bpf_back__on_read(m->b, on_snapshot, m)) ||
	    (ret = session__add_ops(s, &mpbpf_ops, m)))
		goto out;
	session__notice(s,
			"the BPF back end: pairs timed in the kernel (a tracepoint program "
			"on each of %d events)",
			conf->nr_events);
	free(fds);
	*out = m;
	return 1;
out:
	/* (the ring path: no program of ours stays attached, the targets' followers neither) */
	bpf_back__rollback(b, mark);
	free(fds);
	mpbpf__delete(m);
	return ret;
}
