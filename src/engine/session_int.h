/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the engine's files: session.c (setup), open*.c (perf
 * events), loop.c (event loop), and the parts below.
 *
 * struct session is a handful of parts, each with one job, one header and
 * (mostly) one file:
 *   out     the results' stream, --json, the name messages carry (output.h/.c)
 *   err     the last error and its kind, the events skipped (output.h/.c)
 *   sig     the signals the loop reads and what they asked (signals.h/.c)
 *   wl      the -- command as the session runs it (signals.h/.c; workload.c)
 *   probes  probes made in tracefs, the user probe resolver (probeset.h/.c)
 *   perf    the perf ring source's state: fds, rings, ids, losses, the
 *           per-thread targets, --cgroups, --ptrace (perf_source.h)
 *   sources the sources read, behind struct source_ops (source.h): perf's
 *           (perf_src, perf_ops.c) first, the replay source of injected
 *           sessions (inject.c), any a test adds
 *   the rest: events, the loop, order and dispatch: the next steps' work
 *           (below).
 *
 * ---- Next step: events from any source (issue 22, part 2) ----
 *
 * Two halves that today share struct session and struct evsel:
 *
 * 1. The event catalogue, independent of any source: what an event is.
 *    evspec (the -e text), evname (a name to a PMU type/config), tp (the
 *    tracefs formats), probe (a probe's site and arguments as fields),
 *    kfilter (a filter's kernel and user parts), features (what this
 *    kernel has).  An event of the catalogue is struct evsel without its
 *    perf state: name, spec, tp format, probe, filter text, cpus=, stack
 *    wish, the field decoders (fastprint, evfields, names), and the
 *    profiler's handler and private data (the hooks work).  A profiler
 *    asks for events and gets samples; it never sees an attr, fd or ring.
 *    The probes in tracefs (probeset) are the perf source's way to fetch
 *    memory at a probe; another source (BPF) fetches itself: they go with
 *    the perf source, made when it takes the event rather than at add.
 *
 * 2. Sources, behind one interface (engine/source.h, in use since step c):
 *    add (take an event or leave it to another source: not called yet),
 *    open, enable, poll_fds (what the loop waits on), ready (one of them
 *    polled), read (deliver what is ready; final after disable; pull when
 *    the order queue has room), counters, stats (lost, throttled,
 *    abandoned), disable, abandon, close.  The perf ring source is the
 *    first behind it, the replay source (inject.c) the second.
 *
 *    read() hands records in the session's record format (perf's: header,
 *    sample_id fields, PERF_SAMPLE_IDENTIFIER first; ids from the id map,
 *    session__add_id) to session__source_record: straight to dispatch, or
 *    into the order queue, which merges every source's records by time up
 *    to the lowest horizon the sources give (perf: its rings' read time
 *    less the margin).  Later: parsed samples (struct sample with its
 *    evsel) for a source whose records are not perf's, the queue holding
 *    parsed samples (parse once).
 *
 *    The perf ring source takes what is perf's from here: fds, bufs, ids,
 *    fd_ev, trackers (names.c) and --kvmclock's ring, ow_data (overwrite.c),
 *    lost_cpu/lost_total/throttled (lost.c), threads/per_thread, cgroups,
 *    --ptrace, and from struct evsel: cur_fd, nr_open, cnt, refused* (attr,
 *    leader and counting stay: the event's request).  Its files: open.c,
 *    open_target.c, ring.c, overwrite.c, counter.c, names.c,
 *    kvmclock_run.c, perf_ops.c, and loop.c's drain.
 *    The session keeps conf, the parts above, the catalogue's events, the
 *    hooks, the order queue, stop/started and the enable times, comms,
 *    targets, the stack resolver and time formatting; the loop waits on
 *    every source's fds, the signalfd and the timers.  A source without
 *    task events (no COMM/FORK) leaves names to the comm map's /proc
 *    fallback, as a CPU not monitored does today.
 *
 *    Second sources to prove the interface: the injected session
 *    (inject.c: records given by tests, a replay source), then a profiler
 *    as a source (part 3: its rows as events whose fields are its report
 *    columns), then BPF.
 *
 * Order of work, each step mechanical and tested like this one: (a) the
 * perf fields into struct perf_source (s->perf: done); (b) struct evsel
 * split, the perf state behind ev->src (done: the open state, the
 * refusals and the counters, cnt/nr_cnt and their fds, in struct
 * perf_evsel; attr stays in struct evsel: it is the event's request, what
 * to count, sample and exclude, which profilers and analysis/counting set
 * and read, and a source that is not perf reads it as such); (c)
 * source_ops with the perf source behind it (done: the session's
 * sources, open/enable/disable/close through the ops, the loop waits on
 * every source's fds and reads every source, the lost report and
 * session__records_read ask their stats, counters through the counters
 * op, analysis/counting through session__nr_counters/counter_at); (d)
 * inject.c as a source (done: the replay source; tests/unit/test_source.c
 * adds a third); (e) the profiler source.  Left of (c): the add op is not
 * called (every event is the perf source's in a run); session__read_counter
 * asks the first source, the only one with counters; the id map, the
 * dispatch of THROTTLE (perf.throttled) and the name trackers stay perf's
 * as the record format is; session__open's prelude (the workload, stale
 * probes) is the session's.  session.h's functions stay; perf-only ones
 * (session__want_pages, session__refuse_overwrite...) ask the perf source.
 */
#ifndef PP_SESSION_INT_H
#define PP_SESSION_INT_H

#include <signal.h>
#include <trace-seq.h>

#include "engine/cgroup.h"
#include "engine/comm.h"
#include "engine/order.h"
#include "engine/output.h"
#include "engine/perf_source.h"
#include "engine/probe.h"
#include "engine/probeset.h"
#include "engine/ring.h"
#include "engine/session.h"
#include "engine/signals.h"
#include "engine/source.h"
#include "engine/tp.h"
#include "engine/tracer.h"

/* Every event shares these sample_id bits so any record's trailer parses alike. */
#define BASE_SAMPLE_TYPE \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

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
/* A side-band record (engine/sideband.h) to the sideband hooks (engine/sideband.c). */
void session__sideband(struct session *s, const struct perf_event_header *h);
int session__wall_kvmclock(struct session *s, u64 time, u64 *ns);
void session__kvmclock_done(struct session *s);

/* Call HOOK(s, priv, ...) of every registered set that has it, in order. */
#define SESSION_CALL(s, hook, ...)                                                               \
	do {                                                                                     \
		for (int h_ = 0; h_ < (s)->nr_hooks; h_++)                                       \
			if ((s)->hooks[h_].ops->hook)                                            \
				(s)->hooks[h_].ops->hook(s, (s)->hooks[h_].priv, ##__VA_ARGS__); \
	} while (0)

/*
 * SESSION_CALL for the hooks that write reports (interval, snapshot): an
 * inner set's (or its modules') write to its session__set_inner_out stream.
 */
#define SESSION_CALL_REPORT(s, hook)                                              \
	do {                                                                      \
		(s)->row_at = session__row_time_now(s);                           \
		for (int h_ = 0; h_ < (s)->nr_hooks; h_++)                        \
			if ((s)->hooks[h_].ops->hook) {                           \
				(s)->out_inner = session__hooks_out(s, h_);       \
				(s)->hooks[h_].ops->hook(s, (s)->hooks[h_].priv); \
				(s)->out_inner = NULL;                            \
			}                                                         \
	} while (0)
FILE *session__hooks_out(struct session *s, int h);
u64 session__row_time_now(struct session *s);

/* A registered hook set (session__add_ops). */
struct session_hooks {
	const struct session_ops *ops;
	void *priv;
	/* session__add_profiler: sees its own events only (evsel.owner) */
	bool owns;
	bool cpu_wide; /* it asked for CPU-wide events (the others filter) */
	int outer;     /* the set its events also go to (inner_sample), or -1 */
	/*
	 * A set added while a profiler's init ran with an owner (a module's,
	 * registered by an inner profiler): its samples are that owner's
	 * events only, as it would have seen alone; -1: every sample.
	 */
	int owner;
	u64 max, nr;		    /* its -N (0: none), and its samples delivered */
	const struct ev_spec *item; /* an inner set's item in its outer's -e, or NULL */
	FILE *out;		    /* session__set_inner_out's, or NULL */
};

struct session {
	struct engine_conf conf; /* every group present: the defaults below when not given */
	struct target_opts def_target;
	struct ring_opts def_ring;
	struct run_opts def_run;
	struct event_opts def_events;
	struct capture_opts def_capture;
	struct log_opts def_log;
	struct clock_opts def_clock;

	/* The parts with one job each, in their own headers and files: */
	struct session_output out;  /* results' stream, --json, warnings' name: output.h */
	struct session_errors err;  /* the last error, the events skipped: output.h */
	struct session_signals sig; /* signals read by the loop, and what they asked: signals.h */
	struct session_workload wl; /* the -- command as the session runs it: signals.h */
	struct probeset probes;	    /* probes in tracefs, the user probe resolver: probeset.h */

	/* The rest: events, the loop, order and dispatch (next: evsel's perf state). */
	bool order;		/* time order: --order, stacks, or the profiler asked */
	bool cpu_wide;		/* the profiler asked for per-CPU events with -p/-t/-- */
	unsigned want_interval; /* the profiler's -i when none is given */
	const struct user_filter_ops *uf_ops; /* refused filters run in user space */
	struct tp_db *tp;
	struct comm_map *comms;
	struct target_set *targets; /* -p/-t/-- as seen by CPU-wide events */
	struct stack_ctx *stack;

	struct evsel *evsels, **tail;
	int nr_evsels;

	/* perf_event_open's fds, rings, ids, losses, targets: perf_source.h */
	struct perf_source perf;
	/* the sources read (source.h): perf's (perf_src, always first), then those added */
	struct source perf_src;
	struct source **sources;
	int nr_sources, cap_sources;

	/* names learnt from fields, by pid & (NAME_CACHE - 1): a repeat costs a compare */
	struct {
		u32 pid;
		char comm[16];
	} name_cache[256];
	int max_cpu;
	/* --sampling-limit, --perfeval-* (engine/rate.h), or NULL */
	struct rate *rate;
	u64 eval_since; /* the last --perfeval-* lines (session__now) */

	int epfd, tickfd, intfd, usefd;
	/* session__every: a profiler's own timers */
	struct session_timer {
		int fd;
		u64 ns;
		u64 due; /* expirations read, not yet given to fn */
		void (*fn)(struct session *s, void *priv, u64 periods);
		void *priv;
		int owner; /* the hook set it was asked from (cur_owner): its output stream */
	} timers[SESSION_MAX_TIMERS];
	int nr_timers;
	struct order_queue *oq;
	u64 order_margin;
	bool stop;
	bool started;	    /* the events were enabled */
	u64 enabled_at;	    /* ... then (session__now's clock) */
	u64 all_enabled_at; /* the last of them enabled */
	u64 abandoned_recs; /* left in the order queue by the interrupt */
	const char *stop_reason;
	u64 nr_samples;
	struct session_hooks *hooks; /* session__add_ops: grows as sets are added */
	int nr_hooks, cap_hooks;
	int cur_owner;		/* session__own_events: the owner of the events added now */
	FILE *out_inner;	/* session__out while an inner set's report hook runs */
	u64 last_delivered;	/* joint analysis: the time of the newest sample delivered */
	u64 row_at;		/* ... and of the rows of this interval (session__row_time) */
	bool want_switch;	/* a hook set takes context-switch records */
	unsigned targets_nomem; /* workload processes not followed (out of memory) */

	long long wall_offset; /* CLOCK_REALTIME - the events' clock (session__now), ns */
	long long cached_sec;
	char cached_prefix[32];
	struct trace_seq seq; /* event printing buffer */
	bool seq_ready;
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
/* A record's time (0 when it has none), read in place: samples are decoded at dispatch only. */
u64 session__record_time(struct session *s, const struct perf_event_header *h);
/*
 * Read every ring now and deliver its records, through the time order when
 * there is one (@final: all it holds).  0 or -ENOMEM.  The loop's; the
 * tests' on rings they fill themselves.
 */
int session__drain_rings(struct session *s, bool final);
/* --overwrite (overwrite.c): deliver the records written since the last read, in time order. */
int session__read_overwrite(struct session *s, bool final);
/* A LOST / LOST_SAMPLES record: add it to the totals and its CPU's count. */
void session__count_lost(struct session *s, const struct perf_event_header *h, int cpu);
/* ... to @total and @per_cpu (max_cpu entries): a source's own counts. */
void session__count_lost_in(struct session *s, const struct perf_event_header *h, int cpu,
			    u64 *total, u64 *per_cpu);

/*
 * The perf ring source behind source_ops (engine/perf_ops.c: its ops
 * table, enable and close, added by session__new as the first source);
 * its parts in open.c, loop.c (a ring's drain, the pull of full rings)
 * and counter.c.
 */
int perf_source__add(struct session *s);
int perf_source__open(struct session *s);
int perf_source__drain(struct session *s, struct buf *b);
void perf_source__pull(struct session *s);
int perf_source__counters(struct evsel *ev, int i, struct counter_val *v);
/* inject.c: the replay source's memory (session__delete) */
void session__replay_free(struct session *s);
/* bpf.c: the BPF back end, closed by session__close, freed here (session__delete) */
void session__bpf_free(struct session *s);
/* The sources' stats summed (lost_cpu: NULL), for the lost report. */
void session__source_stats(struct session *s, struct source_stats *st);

/* timers.c: session__every's timers in the loop */
int session__arm_timer_ns(int fd, u64 ns);
int session__timers_setup(struct session *s);
/* the epoll tag @tag a timer's: its expirations read (true), or not a timer's */
bool session__timer_tag(struct session *s, u64 tag);
/* the timers due given to their profilers */
void session__timers_run(struct session *s);
void session__timers_close(struct session *s);

#endif
