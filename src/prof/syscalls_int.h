/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syscalls' state, shared by its ring path and table (syscalls.c) and its
 * BPF back end (syscalls_bpf.c: the programs, the slow calls copied out).
 */
#ifndef PP_SYSCALLS_INT_H
#define PP_SYSCALLS_INT_H

#include <stdbool.h>

#include "engine/session.h"
#include "util/opt.h"

struct multipoint;
struct bpf_back;
struct bpf_lat;
struct bpf_stacks;
struct event_opts;

#define MAX_NR 1024 /* syscall numbers looked up by name */
/* --perins on BPF: a read every so many exited threads (their rows leave the maps) */
#define SC_REAP 1024

struct syscalls {
	const char *names; /* --syscall NAME[,NAME...] */
	struct multipoint *mt;
	struct evsel *enter, *exit;
	struct field enter_id, exit_id, ret;
	/* -e with a filter, system-wide: the spec with ours and's the user's */
	struct ev_spec both[2];
	char *both_filter[2];
	/* the BPF back end (NULL: the ring path) */
	struct bpf_back *bpf;
	struct bpf_lat *lat;
	int start_map, exited_map;
	u64 exited;	     /* pending at their task's exit, as last read */
	unsigned forgot;     /* --perins: threads exited since the last read */
	unsigned reap_every; /* that make a read: a 64th of the rows map, at most SC_REAP */
	bool perins, on_bpf;
	/* --than on BPF: the slow calls copied out (the start map keeps cpu and args too) */
	struct session *s;
	u64 than;
	int out;			  /* bpf_back__out's id */
	unsigned start_size;		  /* the start map's value: 16, or SC_START_THAN */
	int regs_off[6];		  /* pt_regs' di, si, dx, r10, r8, r9: the arguments */
	int regs_lo;			  /* the lowest of them */
	struct evsel *tp_enter, *tp_exit; /* their formats, to print the records as events */
	struct field f_id[2], f_args, f_ret, f_pid[2];
	struct bpf_stacks *stacks; /* -g with --than */
	int heat_out;		   /* --heatmap: every call's start and latency copied out */
	bool heat;
};

/* syscall @nr's name, or "syscall_NR" in @buf */
const char *syscall_label(u64 nr, char *buf, size_t len);
/* The number of syscall @n (a name or a number), or MAX_NR when it is none. */
unsigned long syscall_nr(const char *n);

/*
 * The BPF back end, if the host and the request allow it: 1 with the
 * programs loaded (attached at open), 0 for the ring path (said under -v),
 * or -errno (--bpf and it cannot: the usage error).
 */
int sc_bpf(struct session *s, struct syscalls *sc, const struct opt_set *opts,
	   const struct event_opts *eo);
/* What the maps gained since the last read, into multipoint's table (BPF_LAT_* @flags). */
void sc_bpf_read(struct session *s, struct syscalls *sc, unsigned flags);
/* The threads still in a syscall at the end (their start not taken). */
u64 sc_bpf_open(struct syscalls *sc);

#endif
