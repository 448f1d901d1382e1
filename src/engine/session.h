/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine: a session owns the monitored targets (CPUs or threads, or a
 * workload), the events, one ring buffer per CPU (or per thread), the
 * event loop (epoll + signalfd + timerfd) and the optional time ordering
 * across buffers.  It knows no profiler: it calls the hooks of the
 * struct session_ops it is given.
 */
#ifndef PP_SESSION_H
#define PP_SESSION_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "engine/conf.h"
#include "engine/evspec.h"
#include "engine/sample.h"
#include "engine/sideband.h"

struct tep_handle;
struct tep_event;
struct session;
struct evsel;
struct fastprint;

/* What a profiler asks of the engine for one event. */
struct evsel_conf {
	u32 type; /* PERF_TYPE_* (tracepoints: use session__add_tp) */
	u64 config;
	u64 sample_period; /* 0 -> 1 */
	bool freq;	   /* sample_period is a frequency */
	bool callchain;	   /* capture a stack (the capture options decide fp/dwarf) */
	int max_stack;
	bool exclude_user, exclude_kernel, exclude_callchain_user;
	u64 extra_sample_type; /* e.g. PERF_SAMPLE_ADDR, PERF_SAMPLE_READ */
	u64 read_format;
	const char *filter; /* tracepoint filter, NULL for none */
	const char *name;   /* display name (alias); NULL = sys:name */
	u64 config1, config2;
	bool exclude_hv, exclude_guest, exclude_host;
	/*
	 * Counting mode: no samples and no ring buffer; the values are read
	 * with session__read_counter (time enabled and running included, for
	 * multiplexing).  A session of counters only, on threads, gets a dummy
	 * event of its own that follows the threads' lifecycle.
	 */
	bool counting;
	/*
	 * Open in the group of @leader (added before, on the same CPUs and
	 * threads): scheduled on the PMU together, read together.  A sampling
	 * leader with PERF_SAMPLE_READ and read_format PERF_FORMAT_GROUP |
	 * PERF_FORMAT_ID carries its counting members' values in each sample.
	 */
	struct evsel *leader;
	/*
	 * Side-band records it carries (SB_*, engine/sideband.h): a dummy
	 * software event opened on every CPU gets the kernel's, whoever
	 * caused them; they reach the sideband hook.
	 */
	unsigned sideband;
};

/* A counter's read: value, and the time it was enabled and running (ns). */
struct counter_val {
	u64 val, ena, run;
};

struct perf_evsel;

struct evsel {
	struct evsel *next;
	int idx;	      /* 0.. in order of addition */
	char *name;	      /* "sys:name" or alias */
	struct tep_event *tp; /* tracepoint format, NULL if not a tracepoint */
	struct ev_spec *spec; /* the -e spec it came from, or NULL */
	struct perf_event_attr attr;
	char *filter; /* tracepoint filter text, NULL for none */
	/*
	 * Who takes its samples (evsel__set_handler): a profiler, or the
	 * module it is built on, sets it when it adds the event; the engine
	 * calls it with @priv, its per-event data, for each sample of the
	 * event, after the sample hooks of the hook sets.  NULL: the sample
	 * hooks only.
	 */
	void (*handler)(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
	void *priv; /* the handler's (or the profiler's) per-event data */
	u64 nr_samples;
	void *ufilter;		     /* the filter, run in user space (the kernel refused it) */
	u64 nr_ufiltered;	     /* samples it left out */
	struct fastprint *fastprint; /* compiled printer, built on first print (engine-owned) */
	bool fastprint_tried;
	/* its fields typed (engine/evfields.h: --json, sql, python), built on first use */
	struct evfields *evfields;
	bool evfields_tried;
	int *cpus; /* cpus=LIST: open only on these CPUs; NULL: every monitored one */
	int nr_cpus;
	bool from_glob;	      /* matched by a glob: skipped, not fatal, if the kernel refuses it */
	struct probe *probe;  /* a dynamic probe (engine/probe.h), or NULL */
	bool counting;	      /* evsel_conf.counting */
	struct evsel *leader; /* evsel_conf.leader */
	/* the perf source's state of it (engine/perf_source.h: open, refusals, counters) */
	struct perf_evsel *src;
	struct tp_names *names; /* the task names its fields carry (engine/tpnames.c) */
	bool names_tried;
	int owner; /* the hook set that added it (session__own_events), -1: every set's */
	/*
	 * Joint analysis: the rows of an inner profiler's report, as events
	 * (session__deliver_row; never opened).  A sample's raw payload is the
	 * row's text, a NUL, its JSON members, a NUL: evsel__print_raw prints
	 * the text, evsel__json_fields the members.  A row is no task's: its
	 * event line names @row_by (the inner profiler) where a comm goes.
	 */
	bool row;
	const char *row_by;
	/*
	 * A classic tracepoint program of the BPF back end counts its hits
	 * (bpf_back__attach_perf): the perf source opens nothing for it, so
	 * the program can let every hit through to the other perf users of
	 * the tracepoint without a sample of ours.
	 */
	bool bpf_taken;
};

/*
 * Hooks on what a session reads.  Any number of sets can be registered
 * (session__add_ops): the symbol layer's (maps, names), the profiler's,
 * those of the shared modules a profiler is built on (a module registers
 * its own set in the profiler's init: multipoint, ctr_set, hrgroup), the
 * CLI's; each hook runs for every set that has it, in registration order,
 * except exit, which runs in reverse (a profiler still sees the maps of a
 * task at its exit).  @priv is the pointer given with the set.  A sample
 * goes to every set's sample hook, then to its event's own handler
 * (struct evsel, evsel__set_handler), if it has one: a profiler whose
 * events all have handlers needs no sample hook and no `if (ev == ...)`.
 */
struct session_ops {
	/* A sample of @ev.  @s is valid only during the call. */
	void (*sample)(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
	/* Records lost on @cpu (cpu -1 when per-thread). Already counted by the engine. */
	void (*lost)(struct session *s, void *priv, int cpu, u64 nr);
	/* Every -i interval (run_opts.interval_ms). */
	void (*interval)(struct session *s, void *priv);
	/* Thread lifecycle, for profilers that track per-thread state. */
	void (*exit)(struct session *s, void *priv, const struct rec_task *t);
	void (*fork)(struct session *s, void *priv, const struct rec_task *t);
	void (*comm)(struct session *s, void *priv, const struct rec_comm *c);
	void (*mmap2)(struct session *s, void *priv, const struct rec_mmap2 *m);
	/* Context-switch records: setting it (in any set) turns them on. */
	void (*context_switch)(struct session *s, void *priv, const struct rec_switch *sw);
	/* Side-band records, of the events that ask for them (evsel_conf.sideband). */
	void (*sideband)(struct session *s, void *priv, const struct rec_sideband *r);
	/* SIGUSR1: what the next interval would print, without resetting. */
	void (*snapshot)(struct session *s, void *priv);
	/* SIGUSR2, and every --usage-self interval: perf-prof's own cost. */
	void (*usage)(struct session *s, void *priv);
	/* SIGHUP with an output file (engine_conf.output_file): reopen it (log rotation). */
	void (*reopen)(struct session *s, void *priv);
	/*
	 * The run is certain to start: the events are on and the workload's
	 * exec is done (session__run, before any record is read).  Where the
	 * CLI opens -o: a run that fails before leaves an old file alone.  0,
	 * or -errno with the message set: the run ends there, its workload
	 * killed, and session__started stays false.
	 */
	int (*started)(struct session *s, void *priv);
	/*
	 * Joint analysis: a sample of an event that an inner profiler (one
	 * named in this profiler's -e, session__add_profiler) added, after the
	 * inner profiler's own sample hook saw it.  A profiler without it
	 * takes no profiler in -e.
	 */
	void (*inner_sample)(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
};

/*
 * Create a session for @conf (copied; the structs it points to must live as
 * long as the session).  Output goes to @out.  Returns NULL with errno set.
 */
struct session *session__new(const struct engine_conf *conf, FILE *out);
void session__delete(struct session *s);

/*
 * The last error message (one line, no newline) after a failing call, or
 * NULL when the failure was not the session's (a profiler's own check).
 */
const char *session__strerror(struct session *s);
/*
 * A run-time error (a missing kernel feature, out of memory, a file that
 * cannot be written): one line, no newline, that the CLI prints as
 * "perf-prof PROFILER: MSG" before it exits 1.  Returns @err (-errno).
 * Profilers report their errors this way too, never on stderr themselves.
 */
int session__set_err(struct session *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * A usage error: the command line asks for something that cannot be on
 * any run (an unknown event, a filter the kernel rejects).  Sets the
 * message like session__strerror's and returns -EINVAL; the CLI exits 2.
 */
int session__usage_err(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A warning that is not an error (values not counted, a fault of an
 * expression): "perf-prof NAME: MSG" on stderr, unless -q.  The one way a
 * profiler writes to stderr; NAME is what session__set_name gave.
 */
void session__warn(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A notice: how the run is done (a fallback, a filter run in user space),
 * nothing lost or cut short.  Like session__warn, but only with -v: a
 * successful run prints nothing on stderr.
 */
void session__notice(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void session__set_name(struct session *s, const char *name);
bool session__err_is_usage(struct session *s);
/*
 * Events a glob matched that the kernel refused to open, skipped by
 * session__open ("sys:name" each).  Returns their count.
 */
int session__skipped(struct session *s, char *const **names);

/* The configuration, every group present (defaults for those not given). */
const struct engine_conf *session__conf(struct session *s);
/* -v level, and -q. */
int session__verbose(struct session *s);
bool session__quiet(struct session *s);
/* -g (or --call-graph) asked for stacks on every event, not only on "stack" ones. */
bool session__stacks_for_all(struct session *s);
/*
 * What a profiler needs of the engine, asked from its init: events in time
 * order across CPUs; events opened per CPU even for -p/-t/-- (the profiler
 * chooses its targets with session__is_target: it must see other tasks
 * switching them in or waking them); at least @pages ring pages per CPU
 * when -m is not given.
 */
void session__want_order(struct session *s);
/*
 * Stacks imply time order (a user stack resolves through the maps other
 * CPUs' records build): a profiler that measures the order the rings give
 * (event-care) asks for it anyway, from its init, before anything asks
 * session__want_order; only --order then sorts.  Its user frames may miss
 * a mapping recorded on another CPU and not read yet.
 */
void session__arrival_order(struct session *s);
void session__want_cpu_wide(struct session *s);
void session__want_pages(struct session *s, unsigned pages);
/*
 * A profiler whose result is a rate over the run's time or a live alarm
 * cannot take --overwrite (the rings keep only their newest records):
 * a usage error naming @what, or 0 without --overwrite.
 */
int session__refuse_overwrite(struct session *s, const char *what);
/* The interval hook every @ms when -i is not given (top: 1000). */
void session__want_interval(struct session *s, unsigned ms);
/*
 * A timer of the profiler's own, from its init: @fn(@priv) every @ns (1 ms
 * .. 60 s) from the start of the loop, after the interval hook when both
 * are due; @periods is how many periods went by since the last call (more
 * than 1 when the loop was late by a period or more).  At most
 * SESSION_MAX_TIMERS.  0, or -errno with the session's error set.
 */
#define SESSION_MAX_TIMERS 4
int session__every(struct session *s, u64 ns,
		   void (*fn)(struct session *s, void *priv, u64 periods), void *priv);
/* -i, or the profiler's default; 0: no interval. */
unsigned session__interval_ms(struct session *s);
FILE *session__out(struct session *s);
/*
 * Send the output to @out from now on (the CLI opens -o once the events
 * are open); *@out_errno (may be NULL) holds the errno of a failed write.
 */
void session__set_out(struct session *s, FILE *out, const int *out_errno);
/* errno of a failed write to the output during the run (EPIPE: the reader left), or 0. */
int session__out_errno(struct session *s);
/* True once the events were enabled: there is a run to report on. */
bool session__started(struct session *s);
/*
 * An output of the run could not be written completely (a flame graph, a
 * heat map): "perf-prof NAME: MSG" on stderr, even with -q (an error, not
 * a warning), and session__output_failed is true from then on: the CLI
 * exits 1.  For the outputs written where no error can be returned (the
 * profilers' deinit, a write during the run that must not stop it).
 */
void session__output_err(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool session__output_failed(struct session *s);
/*
 * When the events were enabled (session__now's clock: the events'), the
 * start of what counters count; 0 before (injected sessions: what
 * session__inject_enabled set, else 0).
 */
u64 session__enabled_time(struct session *s);
/*
 * When the last event was enabled (events are enabled one after the other):
 * a record before it may lack its partner, an entry whose exit event was
 * not on yet.  0 before the start (injected sessions: as above).
 */
u64 session__all_enabled_time(struct session *s);
/*
 * When the first stop signal was read (session__now's clock), 0 if none;
 * *@cpu_ns gets the process's CPU time (CLOCK_PROCESS_CPUTIME_ID) then.
 */
u64 session__signal_time(struct session *s, u64 *cpu_ns);
/* Records read from the ring buffers so far. */
u64 session__records_read(struct session *s);
struct tep_handle *session__tep(struct session *s);

/*
 * Add tracepoint events for @spec (globs expanded) with @conf as the base.
 * spec->filter overrides conf->filter; spec->stack sets callchain;
 * spec->cpus limits the CPUs.  An event identical to one added before
 * (same tracepoint, filter, name, stack and CPUs) is not added twice.
 * Returns the number of events matched (> 0) or -errno with the message set.
 */
int session__add_spec(struct session *s, struct ev_spec *spec, const struct evsel_conf *conf);
/* Add the tracepoint "sys:name". Returns the evsel or NULL with the message set. */
struct evsel *session__add_tp(struct session *s, const char *sys, const char *name,
			      const struct evsel_conf *conf);
/*
 * Whether tracepoint "sys:name" exists, for an optional event (after a first
 * session__add_tp: false before it), no error set.
 */
bool session__has_tp(struct session *s, const char *sys, const char *name);
/* Add a non-tracepoint event. */
struct evsel *session__add_event(struct session *s, const struct evsel_conf *conf);

struct evsel *session__evsels(struct session *s);

/*
 * Read counter @i (0..session__nr_counters - 1) of the counting event @ev, or the sum
 * of all of them (@i < 0).  0, or -errno (a counter never read: zeros).
 */
int session__read_counter(struct session *s, struct evsel *ev, int i, struct counter_val *v);
/* How many counters the counting event @ev has (0: none). */
int session__nr_counters(struct session *s, const struct evsel *ev);
/* Where counter @i counts: its CPU (-1: any) and thread (-1: every task). 0 or -EINVAL. */
int session__counter_at(struct session *s, const struct evsel *ev, int i, int *cpu, pid_t *tid);

/*
 * Open, filter, mmap and enable all events; start the workload if any.
 * Returns 0 or -errno with the message set.  Nothing is left open on error.
 */
int session__open(struct session *s);

/*
 * Run the event loop until SIGINT/SIGTERM/SIGQUIT (or SIGHUP without an
 * output file, unless SIGHUP was ignored at start), the workload exits, -N
 * is reached or session__stop().  SIGUSR1, SIGUSR2 and SIGHUP with an
 * output file call the snapshot, usage and reopen hooks.  Returns 0 or
 * -errno.
 */
/*
 * Filters the kernel refuses but user space can evaluate (a field compared
 * with a field, _cpu, a function call): when PERF_EVENT_IOC_SET_FILTER
 * fails with EINVAL and compile() accepts the filter, the event opens
 * without a kernel filter, "filter 'F' on EV runs in user space" is said
 * once, and each sample must pass match() before any hook sees it (or -N
 * counts it).  done() reports what the filter met (faults) and frees it.
 * Without these ops (or when compile() refuses too), the kernel's reason
 * is the error, as for any refused filter.
 */
struct user_filter_ops {
	void *(*compile)(struct session *s, struct evsel *ev, const char *text, char *err,
			 size_t errlen);
	bool (*match)(void *f, struct session *s, const struct sample *smp);
	void (*done)(void *f, struct session *s, struct evsel *ev);
};
void session__set_user_filters(struct session *s, const struct user_filter_ops *ops);

/*
 * Register a hook set, before session__open (@ops must live as long as the
 * session).  0 or -ENOMEM with the session's error set.
 */
int session__add_ops(struct session *s, const struct session_ops *ops, void *priv);
/* Whether a set registered so far has a snapshot hook (the CLI's default snapshot). */
bool session__has_snapshot(const struct session *s);
/* @ev's samples go to @fn with @priv (struct evsel: handler). */
static inline void evsel__set_handler(struct evsel *ev,
				      void (*fn)(struct session *s, void *priv, struct evsel *ev,
						 struct sample *smp),
				      void *priv)
{
	ev->handler = fn;
	ev->priv = priv;
}
int session__run(struct session *s);
void session__stop(struct session *s);
/*
 * Whether the session is to stop: session__stop was called (before the
 * run: by a profiler's init that has done its work, such as a help text
 * or a script that exited while loading), or a stop signal was read.
 */
bool session__stopping(const struct session *s);

/*
 * Joint analysis (profilers inside another's -e).  A profiler's hook set
 * registered this way sees the samples of its own events only: those
 * added while session__own_events named it.  The set @outer (an index
 * this returned, or -1) also gets them, in its inner_sample hook.  After
 * @max samples (the inner profiler's -N; 0: no limit) its events are
 * disabled in the kernel and reach no one, and the run goes on.  Sets of session__add_ops see every sample,
 * as before.  Returns the set's index, or -errno with the message set.
 */
int session__add_profiler(struct session *s, const struct session_ops *ops, void *priv, int outer,
			  u64 max);
/* Events added from now on belong to set @set (-1: to none, every set sees them). */
void session__own_events(struct session *s, int set);
/*
 * The item of the outer profiler's -e that inner set @set came from
 * ("profile/-F 99/untraced/key=_tid/"), and, for an event, that of the
 * inner profiler that added it (its attributes: multi-trace's key=), or
 * NULL when no inner profiler added it.
 */
void session__set_inner_item(struct session *s, int set, const struct ev_spec *item);
const struct ev_spec *session__inner_item(const struct session *s, const struct evsel *ev);
/*
 * An aggregating inner profiler's rows as events (cli/joint.c).  While the
 * interval and snapshot hooks of inner set @set (and of the modules its
 * init registered) run, session__out is @fp (NULL: the session's): the CLI
 * gives a stream that discards and whose report sinks are tapped
 * (rtable__tap).
 */
void session__set_inner_out(struct session *s, int set, FILE *fp);
/*
 * A row of the inner profiler that owns @ev (an evsel with .row, owner
 * its set) to its outer profiler, as its samples go (inner_sample), with
 * session__out the session's again.  Its time: session__row_time.
 */
void session__deliver_row(struct session *s, struct evsel *ev, struct sample *smp);
/*
 * A row's time, the same for every row of one interval (or snapshot): its
 * time; in time order (--order), the time of the last sample delivered
 * then (a row counts the samples delivered up to it, and the next ones are
 * not older), so rows keep the order of the output.
 */
u64 session__row_time(struct session *s);
/*
 * Where the profiler whose private data is @priv writes its line per event
 * (a line that shows the event itself): session__out, or NULL when it is an
 * inner profiler (its outer profiler prints its events).  Its reports (at
 * the end, each interval) go to session__out as always.
 */
FILE *session__event_out(struct session *s, const void *priv);
/*
 * An inner profiler's init sees its own -e, stack capture and -N: swap
 * those parts of the session's configuration with @c's (NULL: the
 * defaults), and back with a second call.
 */
void session__swap_conf(struct session *s, struct engine_conf *c);

/*
 * The time-order queue holds at most this many bytes of copied records
 * (--order-mem); beyond, samples are dropped and counted.
 */
#define ORDER_MEM_DEFAULT (32ULL << 20)
u64 session__order_budget(struct session *s);

/*
 * Records lost so far on all CPUs, plus throttle episodes, plus records
 * dropped over the order queue's budget (anything to report).
 */
u64 session__lost(struct session *s);
/* What the sources left out without losing an event (source_stats' noted): said with the lost. */
u64 session__noted(struct session *s);
/* Of those, the records the time-order queue dropped over its budget. */
u64 session__lost_budget(struct session *s);
/*
 * Samples --sampling-limit dropped so far (not in session__lost: the user
 * asked for it, no buffer was too small).
 */
u64 session__limited(struct session *s);
/*
 * --perfeval-cpus/--perfeval-pids: perf-prof's cost of handling those
 * CPUs' or processes' samples since the last such lines, on the output
 * (under --json objects of type "perfeval"); @scope "interval" or "end".
 */
void session__print_perfeval(struct session *s, const char *scope);
/*
 * Print "lost N events (CPU0: x, ...)", throttling and the samples
 * --sampling-limit dropped to @fp, if any.
 */
void session__print_lost(struct session *s, FILE *fp);
/*
 * --json: the same as one line {"type":"lost","scope":"run","lost":N,
 * "lost_per_cpu":{"CPU":N},"throttled":N,"dropped_samples":N,
 * "dropped_records":N,"unprocessed_records":N,"unprocessed_bytes":N,
 * "sampling_limit_dropped":N}; nothing when nothing was lost or dropped.
 */
void session__json_lost(struct session *s, FILE *fp);
/* --json: the profilers write JSON lines (util/json.h) instead of text. */
bool session__json(struct session *s);
void session__set_json(struct session *s, bool on);

/* Workload exit status (wait(2) status) if a workload ran; -1 otherwise. */
int session__workload_status(struct session *s);
pid_t session__workload_pid(struct session *s);
/* True when perf-prof ended the workload itself (-N reached, output failed). */
bool session__workload_stopped(struct session *s);
/*
 * The first stop signal (SIGINT, SIGTERM, SIGQUIT, SIGHUP) that ended the
 * run and was passed on to a running workload; 0 if none was.
 */
int session__stop_signal(struct session *s);
/* A stop signal came during start-up: the command was never run. */
bool session__workload_unstarted(struct session *s);

/*
 * The stack resolver (sym/stack.h) the CLI attached when callchains are
 * captured, NULL otherwise.  The engine only stores it; the CLI feeds it
 * MMAP2/COMM/FORK/EXIT records before the profiler's hooks see them.
 */
struct stack_ctx;
struct stack_ctx *session__stack(struct session *s);
void session__set_stack(struct session *s, struct stack_ctx *ctx);

/*
 * Whether the task is one -p, -t or "-- command" names (the workload's
 * descendant processes too, followed through FORK records); true for all
 * tasks when none is named.  For CPU-wide sessions that choose their
 * targets in user space.
 */
bool session__is_target(struct session *s, u32 pid, u32 tid);

/*
 * Whether the events are opened per thread (-p, -t, a command without -C):
 * an event's counter is then a thread's on a CPU, and with inherit each
 * thread born under it has its own (its samples carry the opened event's
 * id); false: per CPU (or per cgroup on a CPU), whoever runs there.
 */
bool session__per_thread(const struct session *s);

/*
 * Injected sessions, for tests without a kernel: after the profiler's init
 * added its events (formats fixed with session__add_format first, if
 * wanted), session__inject_begin gives each event the sample id
 * session__inject_id(ev) and session__inject dispatches synthesized
 * records (samples with PERF_SAMPLE_IDENTIFIER first, COMM, FORK, EXIT,
 * LOST, SWITCH...) in the order given, as if read from CPU @cpu's buffer.
 */
int session__add_format(struct session *s, const char *sys, const char *format);
int session__inject_begin(struct session *s);
u64 session__inject_id(const struct evsel *ev);
void session__inject(struct session *s, const struct perf_event_header *rec, int cpu);
/* Sets session__enabled_time and session__all_enabled_time (0 until then). */
void session__inject_enabled(struct session *s, u64 enabled_at, u64 all_enabled_at);

/* Comm of @pid (from COMM records, else /proc, else "<...>"). Never NULL. */
const char *session__comm(struct session *s, u32 pid);
/* The comm @pid had at @time (a sample's): what a sample should print. */
const char *session__comm_at(struct session *s, u32 pid, u64 time);
/*
 * @pid was named @comm (at most @len bytes, NUL-padded) at @time, seen
 * elsewhere than in the ring (a record a BPF program copied out): the
 * samples printed after name it so, as the task records would (pid 0,
 * an idle task, stays <idle>).
 */
void session__saw_comm(struct session *s, u32 pid, const char *comm, int len, u64 time);

/*
 * A sample timestamp as printed: wall-clock text "YYYY-MM-DD HH:MM:SS.uuuuuu"
 * (local time), or with --tsc the TSC ticks as "SECONDS.USEC" of ticks / 10^9
 * (the original's form); --clock-offset is added (clock group, engine/conf.h).
 */
void session__fmt_time(struct session *s, u64 time, char *buf, size_t len);
/* The same of a time session__wall_ns gave already. */
void session__fmt_wall(struct session *s, u64 wall_ns, char *buf, size_t len);
/*
 * The same as a number (--json's time_ns): wall-clock ns since the Unix
 * epoch, or TSC ticks with --tsc, plus --clock-offset.
 */
u64 session__wall_ns(struct session *s, u64 time);
/* A sample timestamp as wall-clock ns since the epoch whatever the clock options. */
u64 session__epoch_ns(struct session *s, u64 time);
/* Current time in the events' clock (CLOCK_MONOTONIC; perf's own with --tsc). */
u64 session__now(struct session *s);

/*
 * A tracepoint field looked up once, by name in the event's format (at init,
 * right after session__add_tp), and read from each sample: no search per
 * sample.  The expression language evaluates these handles.
 */
struct field {
	unsigned short offset, size;
	bool is_signed, is_dynamic, is_relative, is_string;
	bool valid;		  /* false: the event has no such field */
	bool is_array;		  /* a fixed array (char x[16]) or a __data_loc one */
	unsigned short elem_size; /* an array's element size (the field's size otherwise) */
	unsigned short nr_elems;  /* a fixed array's length, 0 otherwise */
	/* a probe's argument (engine/probe.h): not in the record */
	bool in_regs;	   /* the low @size bytes of register @reg of the sample */
	bool reg_intr;	   /* ... of the kernel's interrupted context, else the user's */
	unsigned char reg; /* PERF_REG_X86_* */
	bool is_const;	   /* a constant operand: @value */
	long long value;
};
/*
 * Look @name up in @ev's format, then among a probe's arguments (arg1..,
 * retval): 0, or -ENOENT (f->valid false)
 */
int evsel__field(const struct evsel *ev, const char *name, struct field *f);
/* The field as a number (sign-extended if signed); -1 if absent or cut short. */
int field__u64(const struct field *f, const struct sample *smp, u64 *val);
/* Pointer to a string/array field and its length up to a NUL (__data_loc, __rel_loc). */
const char *field__str(const struct field *f, const struct sample *smp, int *len);

/* Print the tracepoint payload as the kernel's print format does. */
void evsel__print_raw(struct session *s, struct evsel *ev, struct sample *smp, FILE *fp);
/*
 * --json: the payload as the member @key ("fields") of @j's open object:
 * {"NAME":VALUE,...} in the format's order, the common_* fields left out.
 * Integers are numbers (signed as the format says; bool true/false);
 * pointers and what the print format shows in hex (%p, %x) are "0x..."
 * strings; char arrays (fixed, __data_loc, __rel_loc) strings up to their
 * NUL; other arrays, arrays of numbers; other types their bytes in hex; a
 * field the record cuts short, null.  A probe's: __probe_ip (or
 * __probe_func and __probe_ret_ip), arg1.. and retval as the text shows
 * them.
 */
struct json;
void evsel__json_fields(struct evsel *ev, const struct sample *smp, struct json *j,
			const char *key);

#endif
