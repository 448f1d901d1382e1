// SPDX-License-Identifier: GPL-2.0
/* rundelay's in-kernel programs: see rundelay_bpf.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/bpf_stack.h"
#include "analysis/latency/multipoint.h"
#include "analysis/latency/rundelay_bpf.h"
#include "analysis/latency/rundelay_bpf_int.h"
#include "analysis/latency/sched_bpf.h"

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

static void ld_field_cb(void *arg, struct bpfb *c, int dst, int src, int off, int size)
{
	ld_field(arg, c, dst, src, off, size);
}

/*
 * R7 = the task at ctx (R6) + @off, R8 = its tid (the idle task: to
 * @idle); with @lookup, the tid also at S_KEY and R0 its entry in the
 * start map (none: to @none).
 */
static void emit_task(struct rd_bpf *r, struct bpfb *c, short off, int idle, bool lookup, int none)
{
	sched_bpf__emit_task(c, R6, off, r->off_pid, &r->load, lookup ? S_KEY : 0, idle);
	if (!lookup)
		return;
	b_lookup(c, r->start, S_KEY);
	b_jmpi(c, BPF_JEQ, R0, 0, none);
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
	if (!r->globs.n)
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
	sched_bpf__emit_comm_test(&r->globs, c, R2, R3, R4, R5, fail);
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
 * counted drop).  --than: a start (ST_PREEMPT with REC_SWITCH, any with
 * REC_WAKEUP) keeps what its printing needs (emit_fill).  Uses R0-R6.
 */
static void emit_set_start(struct rd_bpf *r, struct bpfb *c, int task, int kind_reg, int rec,
			   int out)
{
	int insert = bpfb__label(c), put = bpfb__label(c), blank = bpfb__label(c);
	int val = r->conf.than ? S_VALT : S_VAL;

	b_lookup(c, r->start, S_KEY);
	b_jmpi(c, BPF_JEQ, R0, 0, insert);
	b_mov(c, R6, R0);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R6, 0, R0);
	b_stx(c, 4, R6, 8, kind_reg);
	emit_save_run_delay(r, c, R6, 16, task);
	if (r->conf.than) {
		if (rec == REC_SWITCH) /* an asleep mark prints nothing */
			b_jmpi(c, BPF_JNE, kind_reg, ST_PREEMPT, out);
		rd_slow__emit_fill(r, c, R6, 0, rec);
	}
	b_ja(c, out);
	bpfb__here(c, insert);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R10, (short)val, R0);
	b_stx(c, 4, R10, (short)(val + 8), kind_reg);
	b_st(c, 4, R10, (short)(val + 12), 0);
	emit_save_run_delay(r, c, R10, val + 16, task);
	if (r->conf.than && rec == REC_SWITCH) { /* an asleep mark's: blank */
		b_jmpi(c, BPF_JNE, kind_reg, ST_PREEMPT, blank);
		rd_slow__emit_fill(r, c, R10, val, rec);
		b_ja(c, put);
		bpfb__here(c, blank);
		for (int w = V_IDS; w < V_SIZE; w += 8)
			b_st(c, 8, R10, (short)(val + w), 0);
		bpfb__here(c, put);
	} else if (r->conf.than) {
		rd_slow__emit_fill(r, c, R10, val, rec);
	}
	b_update(c, r->start, S_KEY, val, BPF_ANY);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	bpf_back__emit_drop(r->b, c, r->drop);
}

/*
 * prev (its task at ctx + 8: R7, tid R8; ctx R6; the idle task: to @idle)
 * runs with a delay still started: its switch-in
 * did not reach the tracepoint (seen here: some switches are not traced at
 * all, on every tracer alike; the ring path closes them with the kernel's
 * context-switch records).  The delay is what that one switch-in added to
 * the task's sched_info.run_delay (enqueue to arrival, the scheduler's
 * clock); without sched_info it is a counted drop.  The switch-in was on
 * this CPU (a thread leaves the CPU it runs on): outside -C the start ends
 * uncounted, as the ring path, which sees no switch there, never ends it
 * either (the targets' test: -C's).  Keeps R6-R8.
 */
static int emit_unseen_switch_in(struct rd_bpf *r, struct bpfb *c, int idle, char *why, size_t len)
{
	int none = bpfb__label(c), drop = bpfb__label(c), err;

	emit_task(r, c, 8, idle, true, none);
	b_ldx(c, 4, R1, R0, 8);
	b_jmpi(c, BPF_JEQ, R1, ST_NONE, none);
	b_jmpi(c, BPF_JEQ, R1, ST_ASLEEP, none);
	b_st(c, 4, R0, 8, ST_NONE);
	b_stx(c, 8, R10, S_SPILL, R0);
	b_stx(c, 8, R10, S_VAL, R1);
	ld_field(r, c, R9, R7, r->off_tgid, 4);
	if ((err = bpf_back__emit_target(r->b, c, R9, R8, none, why, len)))
		return err;
	b_ldx(c, 8, R0, R10, S_SPILL);
	b_ldx(c, 8, R1, R10, S_VAL);
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
		if (r->conf.than || r->conf.heatmap) { /* ended by no switch */
			b_stx(c, 8, R10, S_DELTA, R9);
			b_mov(c, R7, R6);
			b_alui(c, BPF_ADD, R7, 1);
			b_ldx(c, 8, R9, R10, S_SPILL);
			rd_slow__emit(r, c, false);
			b_ldx(c, 8, R9, R10, S_DELTA);
		}
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
	return 0;
}

/* The program's context (R1) in R6, and at S_CTX for what --than and --heatmap write. */
static void emit_ctx(struct rd_bpf *r, struct bpfb *c)
{
	b_mov(c, R6, R1);
	if (r->conf.than || r->conf.heatmap)
		b_stx(c, 8, R10, S_CTX, R6);
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

	emit_ctx(r, c);
	bpf_back__emit_running(r->b, c, out);

	/* the switch-in of next */
	emit_task(r, c, 16, sw_out, true, sw_out);
	b_ldx(c, 4, R1, R0, 8);
	b_jmpi(c, BPF_JEQ, R1, ST_NONE, sw_out);
	b_stx(c, 8, R10, S_SPILL, R0);
	ld_field(r, c, R9, R7, r->off_tgid, 4);
	err = bpf_back__emit_target(r->b, c, R9, R8, sw_out, why, len);
	if (err)
		return err;
	if (r->globs.n) { /* the ring path's kernel filter: prev's or next's comm */
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
	if (r->conf.than || r->conf.heatmap) {
		b_stx(c, 8, R10, S_DELTA, R0);
		rd_slow__emit(r, c, true);
		b_ldx(c, 8, R0, R10, S_DELTA);
	}
	b_mov(c, R9, R0);
	b_alui(c, BPF_SUB, R7, 1); /* the row: the start point */
	if (!r->conf.perins)
		b_movi(c, R8, 0);
	emit_record(r, c, R7, R8);

	/* the switch-out of prev */
	bpfb__here(c, sw_out);
	if ((err = emit_unseen_switch_in(r, c, out, why, len)))
		return err;
	if (r->sw_args >= 4) {
		b_ldx(c, 8, R9, R6, 24);
		b_alu32(c, BPF_MOV, R9, R9); /* unsigned int */
	} else {
		ld_field(r, c, R9, R7, r->off_state, 4);
	}
	b_ldx(c, 8, R1, R6, 0);
	b_alui(c, BPF_AND, R1, 0xff); /* bool preempt */
	b_jmpi(c, BPF_JNE, R1, 0, preempt);
	/* the state as the record reports it (a frozen task is D: asleep, not preempted) */
	ld_field(r, c, R1, R7, r->off_exit, 4);
	sched_bpf__emit_state(c, R2, R9, R1, R3);
	b_jmpi(c, BPF_JEQ, R2, SCHED_R, preempt);
	b_jmpi(c, BPF_JEQ, R2, SCHED_X, dead);
	b_jmpi(c, BPF_JEQ, R2, SCHED_Z, dead);
	b_ja(c, asleep);

	bpfb__here(c, dead); /* its entry goes (a pid is reused), its stacks kept too */
	b_stx(c, 4, R10, S_KEY, R8);
	b_ldmap(c, R1, r->start);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, S_KEY);
	b_call(c, BPF_FUNC_map_delete_elem);
	if (r->stacks)
		bpf_stacks__emit_forget(r->stacks, c, S_KEY);
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
	emit_set_start(r, c, R7, R9, REC_SWITCH, out);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/* sched_wakeup(p): the first wakeup since p was seen switching out asleep starts a delay */
static int build_wakeup(struct rd_bpf *r, struct bpfb *c, char *why, size_t len)
{
	int out = bpfb__label(c), err;

	emit_ctx(r, c);
	bpf_back__emit_running(r->b, c, out);
	emit_task(r, c, 0, out, true, out);
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
	if (r->conf.than)
		rd_slow__emit_fill(r, c, R9, 0, REC_WAKEUP);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/* sched_wakeup_new(p): a new thread's delay starts (a new process is its own target) */
static int build_wakeup_new(struct rd_bpf *r, struct bpfb *c, char *why, size_t len)
{
	int out = bpfb__label(c), err;

	emit_ctx(r, c);
	bpf_back__emit_running(r->b, c, out);
	emit_task(r, c, 0, out, false, out);
	ld_field(r, c, R9, R7, r->off_tgid, 4);
	err = bpf_back__emit_target(r->b, c, R9, R8, out, why, len);
	if (err)
		return err;
	emit_comm_test(r, c, R7, out);
	b_stx(c, 4, R10, S_KEY, R8);
	b_movi(c, R9, ST_WAKEUP_NEW);
	emit_set_start(r, c, R7, R9, REC_WAKEUP, out);
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
		r->load = (struct sched_bpf_load){ .fn = ld_field_cb, .arg = r };
		if (!btf && (r->conf.than || r->conf.heatmap)) {
			snprintf(why, len, "--than and --heatmap need tp_btf programs");
			return -EOPNOTSUPP;
		}
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

void rd_bpf__print_to(struct rd_bpf *r, struct multipoint *mt)
{
	r->mt = mt;
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
	err = sched_bpf__compile_globs(&r->globs, conf->filter, why, len);
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
	/* a map the kernel cannot make (memory, a cgroup's limit): the ring path, unless --bpf */
	r->start = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_rd_start", 4,
				 conf->than ? V_SIZE : sizeof(struct rd_start), conf->entries, 0);
	if ((err = r->start) < 0)
		goto fail_map;
	r->drop = bpf_back__drop_slot(b, "delays not started: map full (--bpf-entries)");
	r->unseen = bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_rd_unseen", 4, 8, 1, 0);
	if ((err = r->unseen) < 0)
		goto fail_map;
	r->drop_unseen =
		bpf_back__drop_slot(b, "delays not counted: their switch-in was not traced");
	/*
	 * Preallocated, as task-state's: written from sched_switch, where
	 * interrupts are off and a map that allocates as keys come finds the
	 * kernel's element cache empty in a burst (drops).  Rows: 3 start
	 * points, or per thread --bpf-entries; buckets a quarter, or 4 a row.
	 */
	r->lat = bpf_lat__new_sized(b, "pp_rd", conf->perins ? conf->entries : 64,
				    conf->perins ? conf->entries * BPF_LAT_BUCKETS_PER_ROW
						 : conf->entries / 4,
				    true, why, len);
	err = -EOPNOTSUPP;
	if (!r->lat)
		goto fail; /* (@why says what) */
	if ((conf->than || conf->heatmap) && (err = rd_slow__setup(r, why, len)))
		goto fail;
	bpf_lat__set_than(r->lat, conf->than);
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
fail_map:
	snprintf(why, len, "its maps (%u entries): %s", conf->entries, strerror(-err));
	err = -EOPNOTSUPP;
fail:
	rd_bpf__delete(r);
	return err;
}

void rd_bpf__delete(struct rd_bpf *r)
{
	if (!r)
		return;
	bpf_lat__delete(r->lat);
	bpf_stacks__delete(r->stacks);
	free(r);
}

const char *rd_bpf__how(const struct rd_bpf *r)
{
	return r->btf ? "tp_btf" : "raw tracepoints";
}

struct to_table {
	struct rd_bpf *r;
	struct multipoint *mt;
};

/*
 * A row read from bpf_lat: key[0] the start point, key[1] the --perins tid
 * (or 0); its own row, with the delays over --than counted in the kernel.
 */
static void to_table(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked)
{
	struct to_table *t = arg;
	struct multipoint_row row;

	if (key[0] >= P_SWITCH_IN)
		return;
	multipoint__own_row(t->mt, (int)key[0], P_SWITCH_IN, key[1], &row);
	row.over = bpf_lat__over(t->r->lat);
	multipoint__record_hist(t->mt, (int)key[0], P_SWITCH_IN, key[1], &row, h, marked);
}

int rd_bpf__fill(struct rd_bpf *r, struct multipoint *mt, unsigned flags)
{
	struct to_table t = { r, mt };

	return bpf_lat__read(r->lat, flags, to_table, &t);
}

unsigned long long rd_bpf__open(struct rd_bpf *r)
{
	unsigned long long n = 0;
	u32 key, next, *prev = NULL;
	union {
		struct rd_start v;
		u64 than[V_SIZE / 8]; /* the value with --than */
	} u;

	/* once, at the end: key by key */
	while (!bpf_map_get_next_key(r->start, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(r->start, &key, &u) && u.v.state >= ST_WAKEUP &&
		    u.v.state <= ST_PREEMPT)
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
