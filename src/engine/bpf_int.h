/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF back end's state, shared by its files (bpf.c, bpf_attach.c, bpf_target.c). */
#ifndef PP_BPF_INT_H
#define PP_BPF_INT_H

#include "engine/bpf.h"
#include "engine/session_int.h"

#define MAX_FDS 512
#define CPU_BITS 1024
#define BPF_MAX_OUTS 4
#define BPF_MAX_VISITS 8

struct ring_buffer;

enum attach_kind { ATTACH_PERF, ATTACH_PERF_ALL, ATTACH_RAW };

struct attach {
	enum attach_kind kind;
	struct evsel *ev; /* ATTACH_PERF */
	char tp[64];	  /* ATTACH_RAW */
	int prog;
	bool btf; /* a tp_btf program: its target is in the program (no name to open) */
};

/*
 * With time order, a record copied out waits (bpf_back's pend list) until
 * the perf source's records up to its read (@stamp, the events' clock)
 * are delivered: the task records its thread and stacks are named with
 * come first (a workload that exits right after its slow call).
 */
struct bpf_pend {
	struct bpf_pend *next;
	u64 stamp;
	struct bpf_out *o;
	size_t size;
	unsigned char data[];
};

struct bpf_back {
	struct source src;
	struct session *s;
	int fds[MAX_FDS]; /* maps and programs, closed last */
	int nr_fds;
	int links[MAX_FDS]; /* raw tracepoint links, closed first */
	int nr_links;
	int btf_progs[MAX_FDS]; /* the tp_btf programs loaded */
	int nr_btf_progs;
	struct attach att[MAX_FDS];
	int nr_att;
	int ctl;	/* array[1] of struct ctl */
	u32 ctl_val[2]; /* its value: running, the workload's pid (0 before its exec) */
	int drops;	/* array[1] of u64[BPF_DROP_SLOTS] */
	char drop_what[BPF_DROP_SLOTS][128];
	bool drop_note[BPF_DROP_SLOTS]; /* bpf_back__note_slot's: not lost events */
	bool drop_out[BPF_DROP_SLOTS];	/* an out's slot: the case was counted, not printed */
	int nr_drops;
	/* targets */
	bool targets_done;
	int targets_mark;     /* the attachments before the followers make_targets asked */
	int targets_err;      /* what making them gave (the next program gets it too) */
	char target_why[160]; /* ... -EOPNOTSUPP's reason */
	bool follow_p; /* -p's new processes are targets too (per-thread profilers, --inherit) */
	int tgids, tids, cpus; /* maps, -1: not needed */
	int fork_prog;
	bool attached, running;
	/* the programs' recursion_misses at the enable and at the disable */
	u64 misses_at_enable, misses_at_disable;
	bool misses_done;
	/* records copied out (bpf_back__out): a ring buffer map each */
	struct bpf_out {
		int map;
		struct ring_buffer *rb;
		int (*fn)(void *arg, void *data, size_t size);
		void *arg;
		int drop_slot;
		struct bpf_back *b;
		bool now;      /* bpf_back__out_now's: never held for time order */
		bool draining; /* bpf_back__out_drain is consuming it */
	} outs[BPF_MAX_OUTS];
	int nr_outs;
	struct bpf_pend *pend, **pend_tail;
	u64 read_stamp;
	struct evsel *tp_evs[BPF_MAX_OUTS * 2]; /* bpf_back__tp_evsel's, never opened */
	int nr_tp_evs;
	bool consuming; /* a callback is running: no read from inside it */
	/* the profilers' reads between prints and at the stop (bpf_visit.c) */
	struct bpf_visit {
		bpf_visit_fn fn;
		void *arg;
		bool stop; /* bpf_back__on_stop's */
	} visits[BPF_MAX_VISITS];
	int nr_visits;
	u64 visited_at; /* ms, CLOCK_MONOTONIC */
	/* bpf_back__aside's wait: an array of maps, updated */
	bool barrier_made;
	int barrier_map, barrier_in;
};

/* At open: attach @a (bpf_attach.c): 0 or -errno with the message set. */
int bpf_back__attach_one(struct bpf_back *b, struct attach *a);

/* At open: the -p, -t and workload pids, the -C CPUs, into the target maps (bpf_target.c). */
int bpf_back__fill_targets(struct bpf_back *b);
/* A loop's read (@how: SOURCE_READ_*) and the disable, for the visits (bpf_visit.c). */
void bpf_back__visit_read(struct bpf_back *b, unsigned how);
void bpf_back__visit_stop(struct bpf_back *b);

#endif
