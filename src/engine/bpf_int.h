/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF back end's state, shared by its files (bpf.c, bpf_target.c). */
#ifndef PP_BPF_INT_H
#define PP_BPF_INT_H

#include "engine/bpf.h"
#include "engine/session_int.h"

#define MAX_FDS 512
#define CPU_BITS 1024

enum attach_kind { ATTACH_PERF, ATTACH_PERF_ALL, ATTACH_RAW };

struct attach {
	enum attach_kind kind;
	struct evsel *ev; /* ATTACH_PERF */
	char tp[64];	  /* ATTACH_RAW */
	int prog;
	bool btf; /* a tp_btf program: its target is in the program (no name to open) */
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
	char drop_what[BPF_DROP_SLOTS][80];
	int nr_drops;
	/* targets */
	bool targets_done;
	int targets_err;	/* what making them gave (the next program gets it too) */
	char target_why[160];	/* ... -EOPNOTSUPP's reason */
	bool follow_p; /* -p's new processes are targets too (per-thread profilers, --inherit) */
	int tgids, tids, cpus; /* maps, -1: not needed */
	int fork_prog;
	bool attached, running;
};

/* At open: the -p, -t and workload pids, the -C CPUs, into the target maps (bpf_target.c). */
int bpf_back__fill_targets(struct bpf_back *b);

#endif
