/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by session.c (setup) and loop.c (event loop). */
#ifndef PP_SESSION_INT_H
#define PP_SESSION_INT_H

#include <signal.h>
#include <trace-seq.h>

#include "engine/cgroup.h"
#include "engine/comm.h"
#include "engine/order.h"
#include "engine/probe.h"
#include "engine/ring.h"
#include "engine/session.h"
#include "engine/tp.h"
#include "engine/tracer.h"
#include "engine/workload.h"

/* Every event shares these sample_id bits so any record's trailer parses alike. */
#define BASE_SAMPLE_TYPE \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

#define SESSION_MAX_OPS 8

/*
 * The names a tracepoint's record gives tasks (comm/pid, prev_comm/prev_pid,
 * next_comm/next_pid, parent_comm/child_comm...: the kernel's own names at
 * the event) go into the comm map, so a task whose COMM or FORK record was
 * lost, or happened on a CPU not monitored, is named all the same.
 */
void session__learn_names(struct session *s, struct evsel *ev, const struct sample *smp);
void tp_names__delete(struct tp_names *n);
/*
 * CPU-wide with CPUs left out (-C, cpus=): a dummy event on each online
 * CPU that has no buffer carries the task records (FORK, COMM, EXIT) of
 * what starts or renames there, in a small ring of its own.  Best effort:
 * a CPU refused keeps the /proc fallback.  session__name_cpus: how many
 * buffers that may add (the online CPUs), for the allocation.
 */
int session__name_cpus(struct session *s);
void session__open_name_trackers(struct session *s);
int session__add_fd(struct session *s, int fd, struct evsel *ev);

/*
 * --kvmclock (engine/kvmclock_run.c): kvm:kvm_pvclock_update of the guest
 * on each online CPU in a ring of its own (session__kvmclock_cpus: how many
 * buffers that adds), its samples to the conversion only, never to a
 * profiler; the times as the guest's kvmclock (-EAGAIN before its first
 * update); at the end, what could not be converted.
 */
int session__kvmclock_cpus(struct session *s);
int session__open_kvmclock(struct session *s);
void session__kvmclock_sample(struct session *s, struct evsel *ev, const struct sample *smp);
int session__wall_kvmclock(struct session *s, u64 time, u64 *ns);
void session__kvmclock_done(struct session *s);

/* Call HOOK(s, priv, ...) of every registered set that has it, in order. */
#define SESSION_CALL(s, hook, ...)                                                               \
	do {                                                                                     \
		for (int h_ = 0; h_ < (s)->nr_hooks; h_++)                                       \
			if ((s)->hooks[h_].ops->hook)                                            \
				(s)->hooks[h_].ops->hook(s, (s)->hooks[h_].priv, ##__VA_ARGS__); \
	} while (0)

struct buf {
	struct ring ring;
	u64 lost;      /* records lost in this buffer */
	u64 read_time; /* when data_head was last read (events' clock) */
	bool hup;      /* every task writing here is gone */
	int fd_first;  /* s->fds[fd_first..fd_end) write here */
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

/* After the first stop signal, what is left is processed this long at most. */
#define ABANDON_NS (200 * 1000000ULL)

struct session {
	struct engine_conf conf; /* every group present: the defaults below when not given */
	struct target_opts def_target;
	struct ring_opts def_ring;
	struct run_opts def_run;
	struct event_opts def_events;
	struct capture_opts def_capture;
	struct log_opts def_log;
	struct clock_opts def_clock;
	bool order;		 /* time order: --order, stacks, or the profiler asked */
	bool cpu_wide;		 /* the profiler asked for per-CPU events with -p/-t/-- */
	unsigned want_pages;	 /* the profiler's minimum ring size without -m */
	unsigned want_interval;	 /* the profiler's -i when none is given */
	const int *out_errno_at; /* where the -o stream keeps a failed write's errno */
	const char *name;	 /* the profiler's, for session__warn */
	const struct user_filter_ops *uf_ops; /* refused filters run in user space */
	FILE *out;
	struct tp_db *tp;
	struct comm_map *comms;
	struct target_set *targets; /* -p/-t/-- as seen by CPU-wide events */
	struct stack_ctx *stack;

	struct evsel *evsels, **tail;
	int nr_evsels;

	pid_t *threads; /* per-thread targets (-p/-t expanded, or the workload) */
	int nr_threads;
	bool per_thread;
	struct workload wl;
	bool has_wl;
	struct cgroup_set cg;  /* --cgroups: opened per CPU in place of threads */
	struct tracer *tracer; /* --ptrace */

	int *fds;
	int nr_fds, cap_fds;
	struct buf *bufs;
	int nr_bufs;
	int nr_trackers; /* of nr_fds: name trackers (engine/names.c), --kvmclock's: not events */
	struct kvmclock *kvm; /* --kvmclock: the guest's vCPUs and pvclock updates */
	struct evsel *kvm_ev; /* ... its kvm:kvm_pvclock_update, no profiler's */
	/* names learnt from fields, by pid & (NAME_CACHE - 1): a repeat costs a compare */
	struct {
		u32 pid;
		char comm[16];
	} name_cache[256];
	int *online; /* the online CPUs (session__name_cpus), or NULL */
	int nr_online;
	struct id_map *ids;
	int nr_ids, cap_ids;
	int max_cpu;
	u64 *lost_cpu; /* indexed by CPU */
	u64 lost_total;
	u64 throttled; /* PERF_RECORD_THROTTLE seen */
	/* --sampling-limit, --perfeval-* (engine/rate.h), or NULL */
	struct rate *rate;
	u64 eval_since; /* the last --perfeval-* lines (session__now) */

	int epfd, sigfd, tickfd, intfd, usefd;
	struct order_queue *oq;
	u64 order_margin;
	bool stop;
	bool started;		  /* the events were enabled */
	bool output_failed;	  /* session__output_err was called */
	u64 enabled_at;		  /* ... then (session__now's clock) */
	u64 all_enabled_at;	  /* the last of them enabled */
	bool want_snapshot;	  /* SIGUSR1 seen */
	bool want_usage;	  /* SIGUSR2 seen */
	bool want_reopen;	  /* SIGHUP seen, with an output file */
	u64 nr_read;		  /* records read from the ring buffers */
	bool interrupted;	  /* SIGINT/SIGTERM/SIGQUIT/SIGHUP (passed on to the workload) */
	int wl_signal;		  /* the first of them passed on to a running workload */
	unsigned nr_interrupts;	  /* stop signals received */
	unsigned interrupts_seen; /* ... when the loops started to give up */
	u64 abandon_at;		  /* after an interrupt, stop processing at this time */
	u64 signal_cpu;		  /* our CPU time (ns) at the first stop signal */
	u64 abandoned_recs;	  /* left in the order queue by the interrupt */
	u64 abandoned_bytes;	  /* left in the ring buffers by the interrupt */
	bool wl_stopped;	  /* we ended the workload (-N, output error) */
	bool wl_unstarted;	  /* stopped during start-up: the command never ran */
	int out_errno;		  /* writing the output failed */
	bool json;		  /* --json */
	const char *stop_reason;
	u64 nr_samples;
	struct {
		const struct session_ops *ops;
		void *priv;
		/* session__add_profiler: sees its own events only (evsel.owner) */
		bool owns;
		bool cpu_wide;	 /* it asked for CPU-wide events (the others filter) */
		int outer;	 /* the set its events also go to (inner_sample), or -1 */
		u64 max, nr;	 /* its -N (0: none), and its samples delivered */
	} hooks[SESSION_MAX_OPS];
	int nr_hooks;
	int cur_owner; /* session__own_events: the owner of the events added now */
	bool want_switch;	/* a hook set takes context-switch records */
	unsigned targets_nomem; /* workload processes not followed (out of memory) */

	long long wall_offset; /* CLOCK_REALTIME - the events' clock (session__now), ns */
	long long cached_sec;
	char cached_prefix[32];
	struct trace_seq seq; /* event printing buffer */
	bool seq_ready;
	sigset_t old_mask; /* restored after the run */
	void (*old_pipe)(int);
	bool sig_blocked;
	bool hup_ignored; /* SIGHUP was ignored at start (nohup): it stays so */
	char err[512];
	int err_code;	/* -errno that went with err */
	bool err_usage; /* err is a usage error */
	char **skipped; /* glob matches the kernel refused */
	int nr_skipped;
	/* dynamic probes (probe.c) */
	int (*probe_resolve)(struct session *s, const struct ev_spec *spec,
			     struct probe_site **sites, int *nr);
	char **dyn_names; /* "FILE\n-:GROUP/EVENT": how each tracefs event of ours goes */
	int nr_dyn;
	bool dyn_tried;	      /* stale groups removed */
	bool probe_sigs_held; /* stop signals held while tracefs events of ours exist */
	sigset_t probe_old_mask;
	struct evsel **fd_ev;	    /* the event of each fds[] entry */
	char probe_filter_err[256]; /* why user space could not take a probe's filter */
	unsigned char *ow_data;	    /* --overwrite: the copies of a read (every ring's size) */
	size_t ow_size;
};

/*
 * Joint analysis (engine/joint.c): whether the owner of @ev (ev->owner >= 0)
 * takes @smp, and its delivery to the owner and to its outer profiler.
 */
bool session__owner_takes(struct session *s, const struct evsel *ev, const struct sample *smp);
void session__deliver(struct session *s, struct evsel *ev, struct sample *smp);

struct evsel *session__evsel_by_id(struct session *s, u64 id);
/* The id map (open.c): add, then sort with session__cmp_id before lookups. */
int session__add_id(struct session *s, u64 id, struct evsel *ev);
int session__cmp_id(const void *a, const void *b);
void session__close(struct session *s);
/* Ring pages per CPU (or thread): -m, else the default with the profiler's wish. */
unsigned session__pages(struct session *s);
/* The wakeup settings (--watermark) of an event's attr. */
void session__set_wakeup(struct session *s, struct perf_event_attr *a);
int session__enable(struct session *s);
void session__block_signals(struct session *s);
void session__restore_signals(struct session *s);
/* engine/signals.c: the signals the loop's signalfd reads; act on those pending. */
void session__loop_sigset(struct session *s, sigset_t *set);
void session__handle_signals(struct session *s);
bool session__reap_workload(struct session *s);
/* open_target.c: --ptrace on the workload or the -p/-t threads; --cgroups */
int session__trace_targets(struct session *s);
int session__open_cgroups(struct session *s);
void session__dispatch(struct session *s, const struct perf_event_header *h, int cpu);
/* A record's time (0 when it has none). */
u64 session__record_time(struct session *s, const struct perf_event_header *h);
/* --overwrite (overwrite.c): deliver the records written since the last read, in time order. */
int session__read_overwrite(struct session *s, bool final);
/* A LOST / LOST_SAMPLES record: add it to the totals and its CPU's count. */
void session__count_lost(struct session *s, const struct perf_event_header *h, int cpu);

#endif
