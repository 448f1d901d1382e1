/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf ring source's state (session_int.h's plan, step a): what the
 * session holds for perf_event_open(2) alone, the fds, the rings and their
 * ids, the name trackers and --kvmclock's ring, --overwrite's copies, the
 * losses, the per-thread targets, --cgroups and --ptrace.  Its files:
 * open.c, open_target.c, ring reading in loop.c, overwrite.c, counter.c,
 * names.c, kvmclock_run.c, lost.c; its source_ops in perf_ops.c.  An
 * event's own perf state is behind ev->src (struct perf_evsel).
 */
#ifndef PP_PERF_SOURCE_H
#define PP_PERF_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/types.h>

#include "engine/cgroup.h"
#include "engine/ring.h"
#include "engine/sample.h"
#include "engine/session.h"

struct kvmclock;
struct tracer;

struct buf {
	struct ring ring;
	u64 lost;      /* records lost in this buffer */
	u64 read_time; /* when data_head was last read (events' clock) */
	bool hup;      /* every task writing here is gone */
	int fd_first;  /* s->perf.fds[fd_first..fd_end) write here */
	int fd_end;
	int fd_cur;  /* the one epoll watches */
	u64 scanned; /* COMM/FORK records looked at up to here (prescan_names) */
	u64 ow_head; /* --overwrite: data_head at the last read (0: none yet) */

	bool names_only; /* a name tracker's (engine/names.c): task records only */
	bool kvmclock;	 /* --kvmclock's pvclock updates (engine/kvmclock_run.c) */
};

struct id_map {
	u64 id;
	struct evsel *ev;
};

/* Where one counter of a counting event is open. */
struct counter_fd {
	int fd;
	int cpu;   /* the CPU it counts on (-1: any, a thread followed everywhere) */
	pid_t tid; /* -1: every task on cpu */
};

/*
 * An event's state in the perf source (ev->src): what opening it found.
 * It is allocated with the event (perf_evsel__alloc): free(ev) frees it
 * (and free(ev->src->cnt) its counters).
 */
struct perf_evsel {
	int cur_fd;		/* open: its fd on the CPU/thread being opened */
	int nr_open;		/* perf events opened for it */
	bool refused;		/* from a glob (ev->from_glob), and the kernel refused it */
	bool refused_filter;	/* ... its filter */
	int refused_err;	/* errno of the refusal */
	int refused_at;		/* CPU (or thread) of it */
	struct counter_fd *cnt; /* counting: where it is open (cpu, then thread order) */
	int nr_cnt, cap_cnt;
};

/* A zeroed event with its perf state (ev->src, cur_fd -1) in one block, or NULL. */
static inline struct evsel *perf_evsel__alloc(void)
{
	struct {
		struct evsel ev;
		struct perf_evsel src;
	} *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->ev.src = &e->src;
	e->src.cur_fd = -1;
	return &e->ev;
}

struct perf_source {
	unsigned want_pages; /* the profiler's minimum ring size without -m */

	pid_t *threads; /* per-thread targets (-p/-t expanded, or the workload) */
	int nr_threads;
	bool per_thread;
	struct cgroup_set cg;  /* --cgroups: opened per CPU in place of threads */
	struct tracer *tracer; /* --ptrace */

	int *fds;
	int nr_fds, cap_fds;
	struct evsel **fd_ev; /* the event of each fds[] entry */
	struct buf *bufs;
	int nr_bufs;
	int nr_trackers; /* of nr_fds: name trackers (engine/names.c), --kvmclock's: not events */
	int *online;	 /* the online CPUs (session__name_cpus), or NULL */
	int nr_online;
	struct kvmclock *kvm; /* --kvmclock: the guest's vCPUs and pvclock updates */
	struct evsel *kvm_ev; /* ... its kvm:kvm_pvclock_update, no profiler's */
	struct id_map *ids;
	int nr_ids, cap_ids;

	u64 *lost_cpu; /* indexed by CPU (session's max_cpu) */
	u64 lost_total;
	u64 throttled;	     /* PERF_RECORD_THROTTLE seen */
	u64 nr_read;	     /* records read from the ring buffers */
	u64 abandoned_bytes; /* left in the ring buffers by the interrupt */

	unsigned char *ow_data; /* --overwrite: the copies of a read (every ring's size) */
	size_t ow_size;
};

#endif
