/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rundelay's in-kernel programs (the BPF back end): the ring path's
 * counting (prof/rundelay.c) on sched_switch, sched_wakeup and
 * sched_wakeup_new, BTF-typed (tp_btf) where the kernel has them, raw
 * tracepoints otherwise.  Per thread (a hash keyed by tid, shared by the
 * CPUs: a wakeup and the switch-in come on any CPU) the state the ring
 * path keeps in its stores: seen switching out asleep, or a start
 * (wakeup, wakeup_new, preempted) and its time; the switch-in closes a
 * start into analysis/latency/bpf_lat.h's rows, keyed by the start point
 * and the --perins tid (0 without).  With --than a start also keeps its
 * trace record, rebuilt from the tracepoint's arguments, and a delay over
 * it is copied out with both (rundelay_bpf_int.h, rundelay_slow.c).
 */
#ifndef PP_RUNDELAY_BPF_H
#define PP_RUNDELAY_BPF_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/bpf.h"

struct multipoint;
struct session;

struct rd_bpf_conf {
	bool no_wakeup, no_wakeup_new, no_preempt; /* starts not measured (the original's -e) */
	bool perins;				   /* a row per thread */
	const char *filter;			   /* --filter COMM globs, or NULL */
	unsigned entries;			   /* --bpf-entries */
	/*
	 * --than (ns, 0: none): each delay over it copied out of the kernel
	 * with both events' records rebuilt from the tracepoints' arguments
	 * (and their kernel stacks with -g), printed into the table's
	 * multipoint (rd_bpf__print_to) as the ring path prints it; --heatmap:
	 * each delay's start and latency.  Both need tp_btf programs.
	 */
	unsigned long long than;
	bool heatmap;
	struct session *s;
};

struct rd_bpf;

/*
 * Build, load and ask to attach the programs: 0 with *@out set, or
 * -EOPNOTSUPP with @why saying what does not compile or load here (the
 * caller falls back), or another -errno (the session's error set).
 */
int rd_bpf__new(struct bpf_back *b, const struct rd_bpf_conf *conf, struct rd_bpf **out, char *why,
		size_t len);
void rd_bpf__delete(struct rd_bpf *r);
/* Where --than's slow delays and --heatmap's lines go, once the table is made. */
void rd_bpf__print_to(struct rd_bpf *r, struct multipoint *mt);
/* "tp_btf" or "raw tracepoints": how the programs are attached. */
const char *rd_bpf__how(const struct rd_bpf *r);

/*
 * The delays recorded since the last read, added to @mt's table (rows by
 * start point); @flags are bpf_lat__read's (BPF_LAT_NEXT_INTERVAL,
 * BPF_LAT_LAST).  0 or -errno.
 */
int rd_bpf__fill(struct rd_bpf *r, struct multipoint *mt, unsigned flags);
/* Delays started and not ended (at the end: the table's "still open"). */
unsigned long long rd_bpf__open(struct rd_bpf *r);
/* Switch-ins the tracepoint did not show, closed from sched_info.run_delay. */
unsigned long long rd_bpf__unseen(struct rd_bpf *r);

#endif
