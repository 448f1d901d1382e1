// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls on the BPF back end (see syscalls.c's top comment): raw
 * tracepoints sys_enter and sys_exit pair each thread's calls in a map,
 * bpf_lat keeps the rows; with --than a call over the threshold is copied
 * out of the kernel (bpf_back__out) with both events' contents (and their
 * stacks with -g: bpf_stack.h), printed as the ring path prints it.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/bpf_stack.h"
#include "analysis/latency/multipoint.h"
#include "engine/bpf.h"
#include "prof/syscalls_int.h"
#include "util/list.h"
/*
 * A start (the start map's value): time, syscall; with --than also the CPU
 * and the six arguments of the call (raw_syscalls:sys_enter's args): the
 * span of pt_regs that holds their registers, REGS_SPAN bytes from the
 * lowest (r10 .. di on x86-64), read with one helper call.
 */
#define REGS_SPAN 64
enum {
	ST_TIME = 0,
	ST_ID = 8,
	ST_CPU = 16,
	ST_ARGS = 24,
	SC_START_THAN = ST_ARGS + REGS_SPAN,
};
/*
 * A slow call copied out (u64 words): its start, latency, thread (tid, then
 * tgid, as bpf_get_current_pid_tgid), the CPUs of its enter and exit, the
 * syscall, its arguments and its return; with -g then stack slots
 * (bpf_stack.h; the kinds -g takes): the enter's kernel stack (kept with
 * the start), the exit's kernel stack and the user stack, taken at the end:
 * both events have the same (the task's user registers are the call's).
 */
enum {
	R_START = 0,
	R_DELTA = 8,
	R_IDS = 16,
	R_CPU_IN = 24,
	R_CPU_OUT = 32,
	R_ID = 40,
	R_ARGS = 48,
	R_RET = R_ARGS + REGS_SPAN,
	SC_REC = R_RET + 8,
};

/* The stack of the programs (below R10 and the back end's emitters' scratch) */
#define SK_TID (-BPF_BACK_SCRATCH - 8)	  /* u32: the start map's key */
#define SK_REGS (SK_TID - 8)		  /* sys_enter's pt_regs pointer (--than) */
#define SK_CTX (SK_REGS - 8)		  /* the program's context (-g) */
#define SK_START (SK_CTX - SC_START_THAN) /* a new start */
#define SK_ROW (SK_START - 16)		  /* the row's key: syscall, thread (--perins) or 0 */
#define SK_ZERO (SK_ROW - 8)		  /* u32 0: the exited counter's key */
#define SK_SCRATCH (SK_ROW - BPF_LAT_SCRATCH)
#define SK_REC (SK_SCRATCH - SC_REC) /* a slow call's record */
#define SK_STK (SK_REC - 8)	     /* bpf_stacks__emit_keep's spill */
#define SK_HEAT (SK_STK - 16)	     /* --heatmap: a call's start, latency */

/* R6 = the thread id, R7 = its thread group id (from bpf_get_current_pid_tgid) */
static void emit_ids(struct bpfb *c)
{
	b_call(c, BPF_FUNC_get_current_pid_tgid);
	b_alu32(c, BPF_MOV, R6, R0);
	b_mov(c, R7, R0);
	b_alui(c, BPF_RSH, R7, 32);
}

/* The row's key at SK_ROW: the syscall in @nr_reg, the thread (R6) with --perins */
static void emit_row_key(struct syscalls *sc, struct bpfb *c, int nr_reg)
{
	b_stx(c, 8, R10, SK_ROW, nr_reg);
	if (sc->perins)
		b_stx(c, 8, R10, SK_ROW + 8, R6);
	else
		b_st(c, 8, R10, SK_ROW + 8, 0);
}

/* "id == 1 || id == 2" of --syscall in the program: to @out unless @reg is one of them. */
static int emit_ids_filter(struct session *s, struct bpfb *c, const char *names, int reg, int out)
{
	int ok = bpfb__label(c), nr;
	char **items, err[256];

	if (list__split(names, "syscall", &items, &nr, err, sizeof(err)))
		return session__usage_err(s, "%s", err);
	for (int i = 0; i < nr; i++)
		b_jmpi(c, BPF_JEQ, reg, (int32_t)syscall_nr(items[i]), ok);
	free(items);
	b_ja(c, out);
	bpfb__here(c, ok);
	return 0;
}

/*
 * --than: the start's CPU and arguments (read from the pt_regs at SK_REGS)
 * at @dst + @off (the map's value or the stack).  Keeps R6-R9.
 */
static void emit_start_than(struct syscalls *sc, struct bpfb *c, int dst, int16_t off)
{
	b_call(c, BPF_FUNC_get_smp_processor_id);
	b_stx(c, 8, dst, off + ST_CPU, R0);
	b_mov(c, R1, dst);
	b_alui(c, BPF_ADD, R1, off + ST_ARGS);
	b_movi(c, R2, REGS_SPAN);
	b_ldx(c, 8, R3, R10, SK_REGS);
	b_alui(c, BPF_ADD, R3, sc->regs_lo);
	b_call(c, BPF_FUNC_probe_read_kernel);
	/* -g: the enter's kernel stack, under the thread (SK_TID) */
	bpf_stacks__emit_keep(sc->stacks, c, -1, SK_CTX, SK_TID, SK_STK, false);
}

/*
 * sys_enter(regs, id): the thread's start, in place (made at its first):
 * time and syscall.  Only the session's targets, not perf-prof itself
 * system-wide, --syscall's.
 */
static int prog_enter(struct session *s, struct syscalls *sc, struct bpfb *c, bool self, char *why,
		      size_t len)
{
	int out = bpfb__label(c), make = bpfb__label(c), slot, err;

	b_ldx(c, 8, R8, R1, 8); /* id */
	if (sc->than) {
		b_stx(c, 8, R10, SK_CTX, R1);
		b_ldx(c, 8, R2, R1, 0);
		b_stx(c, 8, R10, SK_REGS, R2);
	}
	bpf_back__emit_running(sc->bpf, c, out);
	if (sc->names && (err = emit_ids_filter(s, c, sc->names, R8, out)))
		return err;
	emit_ids(c);
	if (self)
		b_jmpi(c, BPF_JEQ, R7, (int32_t)getpid(), out);
	if ((err = bpf_back__emit_target(sc->bpf, c, R7, R6, out, why, len)))
		return err;
	slot = bpf_back__drop_slot(sc->bpf, "syscalls not timed: thread map full (--bpf-entries)");
	if (slot < 0) {
		snprintf(why, len, "no drop slot left");
		return -ENOSPC;
	}
	b_stx(c, 4, R10, SK_TID, R6);
	b_lookup(c, sc->start_map, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, make);
	b_mov(c, R9, R0);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R9, ST_TIME, R0);
	b_stx(c, 8, R9, ST_ID, R8);
	if (sc->than)
		emit_start_than(sc, c, R9, 0);
	b_ja(c, out);
	bpfb__here(c, make);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R10, SK_START + ST_TIME, R0);
	b_stx(c, 8, R10, SK_START + ST_ID, R8);
	if (sc->than)
		emit_start_than(sc, c, R10, SK_START);
	b_ldmap(c, R1, sc->start_map);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, SK_TID);
	b_mov(c, R3, R10);
	b_alui(c, BPF_ADD, R3, SK_START);
	b_movi(c, R4, BPF_ANY);
	b_call(c, BPF_FUNC_map_update_elem);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	bpf_back__emit_drop(sc->bpf, c, slot);
	if (sc->stacks) /* (no start: its stacks, kept above, go too) */
		bpf_stacks__emit_forget(sc->stacks, c, SK_TID);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/*
 * --than: the start at R0 (its time in @time_reg) into the record at
 * SK_REC, with the thread (R6, R7).  Uses R2.
 */
static void emit_rec_start(struct bpfb *c, int time_reg)
{
	b_stx(c, 8, R10, SK_REC + R_START, time_reg);
	b_stx(c, 4, R10, SK_REC + R_IDS, R6);
	b_stx(c, 4, R10, SK_REC + R_IDS + 4, R7);
	b_ldx(c, 8, R2, R0, ST_CPU);
	b_stx(c, 8, R10, SK_REC + R_CPU_IN, R2);
	b_ldx(c, 8, R2, R0, ST_ID);
	b_stx(c, 8, R10, SK_REC + R_ID, R2);
	for (int i = 0; i < REGS_SPAN / 8; i++) {
		b_ldx(c, 8, R2, R0, ST_ARGS + 8 * i);
		b_stx(c, 8, R10, SK_REC + R_ARGS + 8 * i, R2);
	}
}

/*
 * -g: the slow call's record (SK_REC) and stacks out, through room in @room
 * (one of R6-R9, clobbered): the enter's kernel stack kept under the
 * thread, then with @exit_ev the exit's stacks, else (ended by the task's
 * exit) its user stack only.  A full ring buffer: counted, to @done.
 */
static void emit_slow_stacks(struct syscalls *sc, struct bpfb *c, int room, bool exit_ev, int done)
{
	struct bpf_stacks *st = sc->stacks;
	int taken = bpf_stacks__taken(st), kk = taken & BPF_STACKS_KERNEL;
	int16_t end = (int16_t)(SC_REC + bpf_stacks__size(st, kk));

	bpf_back__emit_reserve(sc->bpf, c, sc->out, end + bpf_stacks__size(st, taken), done);
	b_mov(c, room, R0);
	for (int i = 0; i < SC_REC / 8; i++) {
		b_ldx(c, 8, R1, R10, SK_REC + 8 * i);
		b_stx(c, 8, room, 8 * i, R1);
	}
	bpf_stacks__emit_copy(st, c, SK_TID, room, SC_REC, kk, false);
	if (exit_ev) {
		bpf_stacks__emit_take(st, c, -1, SK_CTX, room, end, taken, false);
	} else {
		if (kk)
			b_st(c, 8, room, end, 0);
		bpf_stacks__emit_take(st, c, -1, SK_CTX, room,
				      (int16_t)(end + bpf_stacks__size(st, kk)),
				      taken & BPF_STACKS_USER, false);
	}
	bpf_back__emit_submit(c, room);
}

/*
 * sys_exit(regs, ret): the thread's start, if any, taken (its time set to
 * 0) and the latency recorded under its syscall; an error is a return in
 * -4095..-1.  With -C, only on those CPUs (both ends, as the ring path).
 */
static int prog_exit(struct syscalls *sc, struct bpfb *c, bool cpus, char *why, size_t len)
{
	int out = bpfb__label(c), ok = bpfb__label(c), err;

	b_ldx(c, 8, R9, R1, 8); /* ret */
	if (sc->than)
		b_stx(c, 8, R10, SK_CTX, R1);
	bpf_back__emit_running(sc->bpf, c, out);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_mov(c, R8, R0);
	emit_ids(c);
	if (cpus && (err = bpf_back__emit_target(sc->bpf, c, R7, R6, out, why, len)))
		return err;
	b_stx(c, 4, R10, SK_TID, R6);
	b_lookup(c, sc->start_map, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_ldx(c, 8, R1, R0, 0);
	b_jmpi(c, BPF_JEQ, R1, 0, out);
	b_st(c, 8, R0, 0, 0);
	if (sc->than) /* what the record needs of the start, before the start is reused */
		emit_rec_start(c, R1);
	if (sc->heat)
		b_stx(c, 8, R10, SK_HEAT, R1);
	b_alu(c, BPF_SUB, R8, R1);
	b_ldx(c, 8, R2, R0, 8);
	emit_row_key(sc, c, R2);
	b_movi(c, R7, 0);
	b_jmpi(c, BPF_JSGE, R9, 0, ok);
	b_jmpi(c, BPF_JSLT, R9, -4095, ok);
	b_movi(c, R7, 1);
	bpfb__here(c, ok);
	if (sc->than) { /* over --than: copied out */
		int fast = bpfb__label(c);

		b_ld64(c, R1, sc->than);
		b_jmp(c, BPF_JLE, R8, R1, fast);
		b_stx(c, 8, R10, SK_REC + R_DELTA, R8);
		b_stx(c, 8, R10, SK_REC + R_RET, R9);
		b_call(c, BPF_FUNC_get_smp_processor_id);
		b_stx(c, 8, R10, SK_REC + R_CPU_OUT, R0);
		if (sc->stacks) /* (R9, the return, is in the record) */
			emit_slow_stacks(sc, c, R9, true, fast);
		else
			bpf_back__emit_output(sc->bpf, c, sc->out, SK_REC, SC_REC);
		bpfb__here(c, fast);
	}
	if (sc->heat) { /* every call's time, for the heat map */
		b_stx(c, 8, R10, SK_HEAT + 8, R8);
		bpf_back__emit_output(sc->bpf, c, sc->heat_out, SK_HEAT, 16);
	}
	bpf_lat__emit_record(sc->lat, c, SK_ROW, R8, R7, SK_SCRATCH);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/*
 * sched_process_exit, in the exiting thread: a pending exit or exit_group
 * ends now (they never return), any other pending call is counted as
 * dropped; the thread's entry goes.
 */
static void prog_task_exit(struct syscalls *sc, struct bpfb *c)
{
	int out = bpfb__label(c), del = bpfb__label(c), rec = bpfb__label(c);

	if (sc->stacks)
		b_stx(c, 8, R10, SK_CTX, R1);
	bpf_back__emit_running(sc->bpf, c, out);
	emit_ids(c);
	b_stx(c, 4, R10, SK_TID, R6);
	b_lookup(c, sc->start_map, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_ldx(c, 8, R8, R0, 0);
	b_ldx(c, 8, R9, R0, 8);
	b_jmpi(c, BPF_JEQ, R8, 0, del);
	b_jmpi(c, BPF_JEQ, R9, (int32_t)syscall_nr("exit"), rec);
	b_jmpi(c, BPF_JEQ, R9, (int32_t)syscall_nr("exit_group"), rec);
	b_st(c, 4, R10, SK_ZERO, 0);
	b_lookup(c, sc->exited_map, SK_ZERO);
	b_jmpi(c, BPF_JEQ, R0, 0, del);
	b_ldx(c, 8, R1, R0, 0);
	b_alui(c, BPF_ADD, R1, 1);
	b_stx(c, 8, R0, 0, R1);
	b_ja(c, del);
	bpfb__here(c, rec);
	if (sc->than)
		emit_rec_start(c, R8);
	if (sc->heat)
		b_stx(c, 8, R10, SK_HEAT, R8);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_alu(c, BPF_SUB, R0, R8);
	b_mov(c, R8, R0);
	if (sc->heat) {
		b_stx(c, 8, R10, SK_HEAT + 8, R8);
		bpf_back__emit_output(sc->bpf, c, sc->heat_out, SK_HEAT, 16);
	}
	if (sc->than) { /* over --than: copied out, ended by the exit (no end event) */
		int fast = bpfb__label(c);

		b_ld64(c, R1, sc->than);
		b_jmp(c, BPF_JLE, R8, R1, fast);
		b_stx(c, 8, R10, SK_REC + R_DELTA, R8);
		b_st(c, 8, R10, SK_REC + R_RET, 0);
		b_st(c, 8, R10, SK_REC + R_CPU_OUT, -1);
		if (sc->stacks) /* (R7 is set again below) */
			emit_slow_stacks(sc, c, R7, false, fast);
		else
			bpf_back__emit_output(sc->bpf, c, sc->out, SK_REC, SC_REC);
		bpfb__here(c, fast);
	}
	emit_row_key(sc, c, R9);
	b_movi(c, R7, 0);
	bpf_lat__emit_record(sc->lat, c, SK_ROW, R8, R7, SK_SCRATCH);
	bpfb__here(c, del);
	bpf_stacks__emit_forget(sc->stacks, c, SK_TID);
	b_ldmap(c, R1, sc->start_map);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, SK_TID);
	b_call(c, BPF_FUNC_map_delete_elem);
	bpfb__here(c, out);
	b_ret(c, 0);
}

/* A row read from the maps into the table (bpf_lat__read's callback). */
static void sc_bpf_row(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked)
{
	struct syscalls *sc = arg;
	struct multipoint_row row = { .key = key[0] };
	char buf[32];

	snprintf(row.label, sizeof(row.label), "%s", syscall_label(key[0], buf, sizeof(buf)));
	row.over = bpf_lat__over(sc->lat);
	multipoint__record_hist(sc->mt, 0, 1, key[1], &row, h, marked);
}

/* A field of @ev's record set to @v (as many bytes as the field has, at most 8) */
static void put_field(void *raw, const struct field *f, u64 v)
{
	if (f->valid && f->size <= 8)
		memcpy((char *)raw + f->offset, &v, f->size);
}

/* One event of a slow call as the ring path's sample of @ev would be: its record in @raw. */
static void slow_sample(struct syscalls *sc, int i, struct evsel *ev, struct sample *smp, u64 *raw,
			size_t words, u64 time, u32 cpu, const u64 *w, size_t size, u64 *chain)
{
	const struct field *last = i ? &sc->f_ret : &sc->f_args;
	uint16_t type = (uint16_t)ev->attr.config;

	memset(raw, 0, words * 8);
	memcpy(raw, &type, sizeof(type)); /* common_type */
	put_field(raw, &sc->f_pid[i], (u32)w[R_IDS / 8]);
	put_field(raw, &sc->f_id[i], w[R_ID / 8]);
	if (i)
		put_field(raw, &sc->f_ret, w[R_RET / 8]);
	else if (sc->f_args.valid && (size_t)sc->f_args.offset + 48 <= words * 8)
		for (int a = 0; a < 6; a++) /* from the span of pt_regs copied */
			memcpy((char *)raw + sc->f_args.offset + 8 * a,
			       w + R_ARGS / 8 + (sc->regs_off[a] - sc->regs_lo) / 8, 8);
	*smp = (struct sample){
		.type = PERF_RECORD_SAMPLE,
		.sample_type =
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
		.pid = (u32)(w[R_IDS / 8] >> 32),
		.tid = (u32)w[R_IDS / 8],
		.time = time,
		.cpu = cpu,
		.period = 1,
		.raw_size = last->valid ? (u32)(last->offset + last->size) : 0,
		.raw = raw,
	};
	if (sc->stacks) { /* the enter's kernel slot, then the exit's slots (user: both's) */
		struct bpf_stacks *st = sc->stacks;
		int taken = bpf_stacks__taken(st), kk = taken & BPF_STACKS_KERNEL;
		const char *d0 = (const char *)w + SC_REC, *d1 = d0 + bpf_stacks__size(st, kk);

		if (size >= SC_REC + bpf_stacks__size(st, kk) + bpf_stacks__size(st, taken))
			bpf_stacks__sample(st, session__stack(sc->s),
					   i ? bpf_stacks__slot_of(st, d1, taken, BPF_STACKS_KERNEL)
					     : bpf_stacks__slot_of(st, d0, kk, BPF_STACKS_KERNEL),
					   bpf_stacks__slot_of(st, d1, taken, BPF_STACKS_USER),
					   chain, smp);
	}
}

/*
 * A slow call copied out of the kernel (bpf_back__out's callback): printed
 * as the ring path prints it, its two events synthesized from the record.
 */
static int sc_slow(void *arg, void *data, size_t size)
{
	struct syscalls *sc = arg;
	const u64 *w = data;
	u64 raw[2][16], chain[2][BPF_STACK_CHAIN];
	struct sample smp[2];
	struct multipoint_pair p;
	bool ended;

	if (size < SC_REC)
		return 0;
	slow_sample(sc, 0, sc->tp_enter, &smp[0], raw[0], 16, w[R_START / 8], (u32)w[R_CPU_IN / 8],
		    w, size, chain[0]);
	slow_sample(sc, 1, sc->tp_exit, &smp[1], raw[1], 16, w[R_START / 8] + w[R_DELTA / 8],
		    (u32)w[R_CPU_OUT / 8], w, size, chain[1]);
	ended = w[R_CPU_OUT / 8] == ~0ULL; /* by the task's exit (exit, exit_group) */
	p = (struct multipoint_pair){
		.from = 0,
		.to = 1,
		.key = (u32)w[R_IDS / 8],
		.start = w[R_START / 8],
		.delta = w[R_DELTA / 8],
		.data = w + R_ID / 8,
		.start_ev = sc->tp_enter,
		.end_ev = ended ? NULL : sc->tp_exit,
		.start_smp = &smp[0],
		.end_smp = ended ? NULL : &smp[1],
	};
	multipoint__print_pair(sc->mt, sc->s, &p);
	return 0;
}

/* A call's start and latency copied out (--heatmap): a line of its heat map. */
static int sc_heat(void *arg, void *data, size_t size)
{
	struct syscalls *sc = arg;
	const u64 *w = data;

	if (size >= 16)
		multipoint__heat_pair(sc->mt, sc->s, 0, 1, w[0], w[1]);
	return 0;
}

/*
 * --than on BPF: the out the slow calls come through, the formats they are
 * printed with, the argument registers: 0, or a reason in @why (-errno).
 */
static int sc_than(struct syscalls *sc, char *why, size_t len)
{
	static const char *const regs[6] = { "di", "si", "dx", "r10", "r8", "r9" };

	int hi = 0;

	sc->regs_lo = 1 << 30;
	for (int i = 0; i < 6; i++) {
		sc->regs_off[i] = bpf_back__btf_member("pt_regs", regs[i], NULL);
		if (sc->regs_off[i] < 0) {
			snprintf(why, len, "--than: no pt_regs.%s in the kernel's BTF", regs[i]);
			return -ENOENT;
		}
		sc->regs_lo = sc->regs_off[i] < sc->regs_lo ? sc->regs_off[i] : sc->regs_lo;
		hi = sc->regs_off[i] + 8 > hi ? sc->regs_off[i] + 8 : hi;
	}
	if (hi - sc->regs_lo != REGS_SPAN) {
		snprintf(why, len, "--than: pt_regs' argument registers are not %d bytes together",
			 REGS_SPAN);
		return -ENOENT;
	}
	sc->tp_enter = bpf_back__tp_evsel(sc->bpf, "raw_syscalls", "sys_enter");
	sc->tp_exit = sc->tp_enter ? bpf_back__tp_evsel(sc->bpf, "raw_syscalls", "sys_exit") : NULL;
	if (!sc->tp_exit || evsel__field(sc->tp_enter, "id", &sc->f_id[0]) ||
	    evsel__field(sc->tp_exit, "id", &sc->f_id[1]) ||
	    evsel__field(sc->tp_enter, "args", &sc->f_args) ||
	    evsel__field(sc->tp_exit, "ret", &sc->f_ret) || sc->f_args.offset + 48 > 16 * 8 ||
	    sc->f_ret.offset + sc->f_ret.size > 16 * 8) {
		snprintf(why, len, "--than: raw_syscalls' formats are not as expected");
		return -ENOENT;
	}
	evsel__field(sc->tp_enter, "common_pid", &sc->f_pid[0]);
	evsel__field(sc->tp_exit, "common_pid", &sc->f_pid[1]);
	sc->out = bpf_back__out(sc->bpf, "slow cases counted but not printed", sc_slow, sc);
	if (sc->out < 0) {
		snprintf(why, len, "--than: %s",
			 sc->out == -EOPNOTSUPP ? bpf_back__out_why(sc->bpf) : strerror(-sc->out));
		return sc->out;
	}
	return 0;
}

/* What the maps gained since the last read, into multipoint's table. */
void sc_bpf_read(struct session *s, struct syscalls *sc, unsigned flags)
{
	u32 zero = 0;
	u64 exited = 0;
	int err = bpf_lat__read(sc->lat, flags, sc_bpf_row, sc);

	sc->forgot = 0;
	if (err)
		session__warn(s, "reading the BPF maps: %s", strerror(-err));
	if (!bpf_back__percpu_sum(sc->bpf, sc->exited_map, &zero, &exited, 1) &&
	    exited > sc->exited) {
		multipoint__add_exited(sc->mt, 0, exited - sc->exited);
		sc->exited = exited;
	}
}

static void sc_bpf_interval(struct session *s, void *priv)
{
	sc_bpf_read(s, priv, BPF_LAT_NEXT_INTERVAL);
}

static void sc_bpf_snapshot(struct session *s, void *priv)
{
	sc_bpf_read(s, priv, 0);
}

/* before multipoint's, which print the table */
static const struct session_ops sc_bpf_ops = {
	.interval = sc_bpf_interval,
	.snapshot = sc_bpf_snapshot,
};

/* The threads still in a syscall at the end (their start not taken). */
u64 sc_bpf_open(struct syscalls *sc)
{
	u32 key, next, *prev = NULL;
	u64 v[SC_START_THAN / 8], n = 0;

	while (!bpf_map_get_next_key(sc->start_map, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(sc->start_map, &key, v) && v[0])
			n++;
	}
	return n;
}

/*
 * The BPF back end, if the host and the request allow it: 1 with the
 * programs loaded (attached at open), 0 for the ring path (said under -v),
 * or -errno (--bpf and it cannot: the usage error).
 */
int sc_bpf(struct session *s, struct syscalls *sc, const struct opt_set *opts,
	   const struct event_opts *eo)
{
	const struct lat_opts *lo = opt_set__get(opts, &lat_group);
	const struct target_opts *t = session__conf(s)->target;
	bool self = !t->nr_pids && !t->nr_tids && !t->argv;
	struct bpfb code[3];
	char why[256] = "", err[256] = "";
	static const char *const tps[3] = { "sys_enter", "sys_exit", "sched_process_exit" };
	static const char *const names[3] = { "pp_sc_enter", "pp_sc_exit", "pp_sc_task_exit" };
	int ret, fd[3], mark;

	if ((ret = bpf_back__get(s, opts, &sc->bpf)) <= 0)
		return ret;
	mark = bpf_back__mark(sc->bpf);
	if (lo && lo->than && lo->detail)
		return bpf_back__fallback(s, opts,
					  "--detail: the events around each slow call are "
					  "read from the ring buffer");
	/*
	 * -C: a call whose exit was on a CPU left out stays open, and the
	 * ring path pairs by the syscall's number, which the exit program
	 * does not read (yet).
	 */
	if (t->cpus_given)
		return bpf_back__fallback(s, opts,
					  "-C: calls that move to a CPU left out are paired "
					  "by their number on the ring path");
	for (int i = 0; eo && i < eo->nr_specs; i++) {
		const struct ev_spec *sp = &eo->specs[i];

		if (evspec__attr(sp, "untraced"))
			return bpf_back__fallback(s, opts,
						  "-e %s: untraced events are read from "
						  "the ring buffer",
						  sp->text);
		if (sp->filter)
			return bpf_back__fallback(s, opts,
						  "-e %s: tracepoint filters are not "
						  "compiled (--syscall is)",
						  sp->text);
	}
	sc->perins = lo && lo->perins;
	sc->s = s;
	sc->than = lo ? lo->than : 0;
	sc->start_size = sc->than ? SC_START_THAN : 16;
	if (sc->than && session__stacks_for_all(s) &&
	    !(sc->stacks = bpf_stacks__new(s, sc->bpf, bpf_back__entries(opts), 4,
					   BPF_STACKS_KERNEL, false, why, sizeof(why))))
		return bpf_back__fallback(s, opts, "-g with --than: %s", why);
	if (sc->than && (ret = sc_than(sc, why, sizeof(why))))
		return session__err_is_usage(s) ? ret : bpf_back__fallback(s, opts, "%s", why);
	sc->heat = lo && lo->heatmap;
	if (sc->heat && (sc->heat_out = bpf_back__out(sc->bpf, "pairs not written to the heat map",
						      sc_heat, sc)) < 0)
		return bpf_back__fallback(s, opts, "--heatmap: %s",
					  sc->heat_out == -EOPNOTSUPP ? bpf_back__out_why(sc->bpf)
								      : strerror(-sc->heat_out));
	sc->start_map = bpf_back__map(sc->bpf, BPF_MAP_TYPE_HASH, "pp_sc_start", 4, sc->start_size,
				      bpf_back__entries(opts), 0);
	sc->exited_map = sc->start_map < 0 ? sc->start_map
					   : bpf_back__map(sc->bpf, BPF_MAP_TYPE_PERCPU_ARRAY,
							   "pp_sc_exited", 4, 8, 1, 0);
	if (sc->exited_map < 0)
		return bpf_back__fallback(s, opts, "syscalls' maps: %s", strerror(-sc->exited_map));
	sc->reap_every = bpf_back__entries(opts) / 64;
	sc->reap_every = !sc->reap_every ? 1 : sc->reap_every > SC_REAP ? SC_REAP : sc->reap_every;
	sc->lat = bpf_lat__new(sc->bpf, "pp_sc", bpf_back__entries(opts), err, sizeof(err));
	if (!sc->lat)
		return bpf_back__fallback(s, opts, "%s", err);
	bpf_lat__set_than(sc->lat, sc->than);
	for (int i = 0; i < 3; i++)
		bpfb__init(&code[i]);
	ret = prog_enter(s, sc, &code[0], self, why, sizeof(why));
	if (!ret)
		ret = prog_exit(sc, &code[1], t->cpus_given, why, sizeof(why));
	if (!ret)
		prog_task_exit(sc, &code[2]);
	for (int i = 0; i < 3 && !ret; i++) {
		fd[i] = bpf_back__load(sc->bpf, BPF_PROG_TYPE_RAW_TRACEPOINT, names[i], &code[i],
				       NULL, err, sizeof(err));
		if (fd[i] < 0) {
			snprintf(why, sizeof(why), "%s: %s", names[i], err);
			ret = fd[i];
		}
	}
	for (int i = 0; i < 3; i++)
		bpfb__free(&code[i]);
	if (ret)
		bpf_back__rollback(sc->bpf, mark); /* (the targets' followers made for them) */
	if (ret && session__err_is_usage(s))
		return ret;
	if (ret)
		return bpf_back__fallback(s, opts, "%s", why);
	for (int i = 0; i < 3; i++)
		if ((ret = bpf_back__attach_raw(sc->bpf, tps[i], fd[i])))
			return session__set_err(s, ret, "out of memory");
	/* (and without -i, the maps read as it goes: the idle rows taken out) */
	if ((ret = session__add_ops(s, &sc_bpf_ops, sc)) ||
	    (ret = bpf_back__on_read(sc->bpf, sc_bpf_snapshot, sc)))
		return ret;
	session__notice(s, "the BPF back end: syscalls paired and timed in the kernel (raw "
			   "tracepoints sys_enter, sys_exit, sched_process_exit)");
	return 1;
}
