/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rundelay_bpf's inside, shared by its two files: rundelay_bpf.c (the
 * counting) and rundelay_slow.c (--than and --heatmap: what a start keeps
 * for its printing, the delays copied out, printed as the ring path
 * prints them).
 */
#ifndef PP_RUNDELAY_BPF_INT_H
#define PP_RUNDELAY_BPF_INT_H

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/rundelay_bpf.h"
#include "analysis/latency/sched_bpf.h"
#include "engine/session.h"

/* the longest record rebuilt: sched_switch's (64 bytes here) */
#define RD_BPF_REC 64

/* A thread's state in the start map; a start's row is its state - 1 (rundelay.c's P_*). */
enum { ST_NONE, ST_WAKEUP, ST_WAKEUP_NEW, ST_PREEMPT, ST_ASLEEP };
#define P_SWITCH_IN 3

/* the start map's value */
struct rd_start {
	u64 time;
	u32 state, pad;
	u64 run_delay; /* the task's sched_info.run_delay at the start (0: none) */
};
/*
 * --than: a start also keeps, for its printing, the thread and CPU of its
 * event, the comm of the task that raised it and its trace record rebuilt
 * (sched_wakeup's, sched_wakeup_new's or sched_switch's, at the offsets of
 * the tracepoint's format; the common fields are put back in user space).
 * Its kernel stack (-g) is kept under its thread by bpf_stack.h.
 */
enum {
	V_IDS = 24,
	V_CPU = 32,
	V_COMM = 40,
	V_REC = 56,
	V_SIZE = V_REC + RD_BPF_REC,
};
/*
 * A slow delay copied out: its start, latency, which (the start's state |
 * ended by no switch << 8 | tid << 32), the start's part of the value (its
 * thread, CPU, comm and record), the switch-in's thread, CPU and
 * sched_switch record; with -g then the start's kernel stack and the
 * switch-in's (bpf_stack.h's slots; length 0: none).
 */
enum {
	O_START = 0,
	O_DELTA = 8,
	O_WHICH = 16,
	O_START_PART = V_IDS, /* to V_SIZE */
	O_IDS1 = V_SIZE,
	O_CPU1 = O_IDS1 + 8,
	O_REC1 = O_CPU1 + 8,
	O_SIZE = O_REC1 + RD_BPF_REC,
};
#define O_NO_END 0x100

/*
 * The programs' stack: the comm under BPF_BACK_SCRATCH, a start's key and
 * value, spills, then bpf_lat's row key (row = the start point, the
 * --perins tid or 0) and its scratch; with --than or --heatmap a new
 * start's value, bpf_stacks__emit_keep's spill, the delay, the tid kept while
 * a record is written, a heat map's line.
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
	S_VALT = S_LAT - V_SIZE,
	S_STK = S_VALT - 8,
	S_DELTA = S_STK - 8,
	S_TID = S_DELTA - 8,
	S_HEAT = S_TID - 24,
};

/* the fields of a record rebuilt (--than) */
struct rd_recf {
	struct field comm, pid, prio, target_cpu;		     /* sched_wakeup(_new) */
	struct field pcomm, ppid, pprio, pstate, ncomm, npid, nprio; /* sched_switch */
};

struct rd_bpf {
	struct bpf_back *b;
	struct rd_bpf_conf conf;
	bool btf;    /* tp_btf, else raw tracepoints */
	int sw_args; /* sched_switch's arguments (4: prev_state is one) */
	int off_pid, off_tgid, off_comm, off_exit, off_state;
	int off_run_delay; /* task_struct.sched_info.run_delay, -1: none */
	unsigned state_size;
	struct sched_globs globs;   /* --filter's */
	struct sched_bpf_load load; /* ld_field */
	int start;		    /* the start map */
	int unseen;		    /* array[1] of u64: switch-ins closed from run_delay */
	int drop, drop_unseen;
	struct bpf_lat *lat;
	/* --than, --heatmap */
	int off_prio, off_cpu; /* task_struct.prio, the task's CPU (task_cpu) */
	struct rd_recf f;
	struct evsel *evs[3];	   /* sched_wakeup, sched_wakeup_new, sched_switch */
	struct bpf_stacks *stacks; /* -g */
	int out, heat_out;
	struct multipoint *mt; /* where slow delays print */
};

enum { REC_SWITCH, REC_WAKEUP };

/*
 * --than: what a start at @dst + @off (its value) keeps for its printing:
 * the thread and CPU of the event, its stacks (-g), the comm of the task
 * that raised it, the record (@rec: REC_SWITCH from the context at S_CTX,
 * REC_WAKEUP of the task in R7).  Keeps R6-R9, uses R0-R5.
 */
void rd_slow__emit_fill(struct rd_bpf *r, struct bpfb *c, int dst, int off, int rec);
/*
 * A delay of the thread R8 ends (its state in R7, its entry in R9), its
 * latency at S_DELTA: --heatmap's line; over --than the delay copied out,
 * with the switch-in's sched_switch record when @end (else it ended by no
 * switch: its switch-in was not traced).  Keeps R6-R9 (ctx at S_CTX),
 * uses R0-R5.
 */
void rd_slow__emit(struct rd_bpf *r, struct bpfb *c, bool end);
/*
 * --than, --heatmap (tp_btf only): the task fields and the tracepoints'
 * formats the records are rebuilt with, the stacks (-g), the outs: 0, or
 * -EOPNOTSUPP with @why (or another -errno, @why saying it).
 */
int rd_slow__setup(struct rd_bpf *r, char *why, size_t len);

#endif
