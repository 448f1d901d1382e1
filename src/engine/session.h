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

#include "engine/evspec.h"
#include "engine/sample.h"

struct tep_handle;
struct tep_event;
struct session;
struct evsel;
struct fastprint;

enum call_graph_mode {
	CG_NONE = 0,
	CG_FP,	  /* frame pointers: PERF_SAMPLE_CALLCHAIN */
	CG_DWARF, /* CALLCHAIN (kernel part) + REGS_USER + STACK_USER */
};

/* The common options, filled by the CLI.  Profilers read it, never write it. */
struct env {
	int *cpus; /* -C, or all online CPUs */
	int nr_cpus;
	bool cpus_given;
	pid_t *pids; /* -p: processes (all their threads) */
	int nr_pids;
	pid_t *tids; /* -t: threads */
	int nr_tids;
	char **argv;	       /* -- command args (NULL-terminated) */
	unsigned interval_ms;  /* -i */
	unsigned usage_ms;     /* --usage-self: perf-prof's own cost every MS */
	unsigned mmap_pages;   /* -m, 0 = default */
	const char *output;    /* -o */
	const int *out_errno;  /* where the -o stream keeps the errno of a failed write */
	u64 max_samples;       /* -N, 0 = unlimited */
	bool order;	       /* --order (or the profiler's default) */
	u64 order_mem;	       /* --order-mem: queued bytes at most, 0 = ORDER_MEM_DEFAULT */
	int verbose;	       /* -v (repeatable) */
	bool quiet;	       /* -q */
	const char *events;    /* -e text */
	struct ev_spec *specs; /* -e parsed */
	int nr_specs;
	enum call_graph_mode cg; /* -g / --call-graph fp|dwarf[,SIZE] */
	bool cg_by_attr;	 /* only events with the "stack" attribute want stacks */
	unsigned dwarf_size;	 /* user stack bytes copied for DWARF */
	int max_stack;		 /* --max-stack, 0 = kernel default */
	const char *flame_graph; /* --flame-graph NAME[.svg] */
	unsigned stack_flags;	 /* STACK_* print options (sym/stack.h) */
	const char *filter;	 /* --filter (profiler-defined meaning) */
	bool cpu_wide;		 /* events per CPU even for -p/-t/-- targets */
	bool cg_no_user;	 /* capture no user frames (--no-user-callchain, --kernel-stack) */
	bool cg_no_kernel;    /* capture no kernel frames (--no-kernel-callchain, --user-stack) */
	bool cg_halves_given; /* --[no-]user-callchain / --[no-]kernel-callchain */
	bool watermark_set;   /* --watermark given */
	unsigned watermark;   /* --watermark: PCT of the ring filled wakes us up */
};

/* What a profiler asks of the engine for one event. */
struct evsel_conf {
	u32 type; /* PERF_TYPE_* (tracepoints: use session__add_tp) */
	u64 config;
	u64 sample_period; /* 0 -> 1 */
	bool freq;	   /* sample_period is a frequency */
	bool callchain;	   /* capture a stack (env->cg decides fp/dwarf) */
	int max_stack;
	bool exclude_user, exclude_kernel, exclude_callchain_user;
	u64 extra_sample_type; /* e.g. PERF_SAMPLE_ADDR, PERF_SAMPLE_READ */
	u64 read_format;
	const char *filter; /* tracepoint filter, NULL for none */
	const char *name;   /* display name (alias); NULL = sys:name */
};

struct evsel {
	struct evsel *next;
	int idx;	      /* 0.. in order of addition */
	char *name;	      /* "sys:name" or alias */
	struct tep_event *tp; /* tracepoint format, NULL if not a tracepoint */
	struct ev_spec *spec; /* the -e spec it came from, or NULL */
	struct perf_event_attr attr;
	char *filter; /* tracepoint filter text, NULL for none */
	void *priv;   /* the profiler's per-event data */
	u64 nr_samples;
	struct fastprint *fastprint; /* compiled printer, built on first print (engine-owned) */
	bool fastprint_tried;
	int *cpus; /* cpus=LIST: open only on these CPUs; NULL: every monitored one */
	int nr_cpus;
	bool from_glob;	     /* matched by a glob: skipped, not fatal, if the kernel refuses it */
	bool refused;	     /* ... and it did */
	bool refused_filter; /* ... its filter */
	int refused_err;     /* errno of the refusal */
	int refused_at;	     /* CPU (or thread) of it */
	int nr_open;	     /* perf events opened for it */
};

/*
 * Hooks on what a session reads.  Several sets can be registered
 * (session__add_ops): the symbol layer's (maps, names), the profiler's, the
 * CLI's; each hook runs for every set that has it, in registration order,
 * except exit, which runs in reverse (a profiler still sees the maps of a
 * task at its exit).  @priv is the pointer given with the set.
 */
struct session_ops {
	/* A sample of @ev.  @s is valid only during the call. */
	void (*sample)(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
	/* Records lost on @cpu (cpu -1 when per-thread). Already counted by the engine. */
	void (*lost)(struct session *s, void *priv, int cpu, u64 nr);
	/* Every env->interval_ms. */
	void (*interval)(struct session *s, void *priv);
	/* Thread lifecycle, for profilers that track per-thread state. */
	void (*exit)(struct session *s, void *priv, const struct rec_task *t);
	void (*fork)(struct session *s, void *priv, const struct rec_task *t);
	void (*comm)(struct session *s, void *priv, const struct rec_comm *c);
	void (*mmap2)(struct session *s, void *priv, const struct rec_mmap2 *m);
	/* Context-switch records: setting it (in any set) turns them on. */
	void (*context_switch)(struct session *s, void *priv, const struct rec_switch *sw);
	/* SIGUSR1: what the next interval would print, without resetting. */
	void (*snapshot)(struct session *s, void *priv);
	/* SIGUSR2, and every env->usage_ms: perf-prof's own cost. */
	void (*usage)(struct session *s, void *priv);
	/* SIGHUP with an output file (env->output): reopen it (log rotation). */
	void (*reopen)(struct session *s, void *priv);
};

/* Create a session for @env.  Output goes to @out.  Returns NULL with errno set. */
struct session *session__new(const struct env *env, FILE *out);
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
bool session__err_is_usage(struct session *s);
/*
 * Events a glob matched that the kernel refused to open, skipped by
 * session__open ("sys:name" each).  Returns their count.
 */
int session__skipped(struct session *s, char *const **names);

const struct env *session__env(struct session *s);
FILE *session__out(struct session *s);
/* Send the output to @out from now on (the CLI opens -o once the events are open). */
void session__set_out(struct session *s, FILE *out);
/* errno of a failed write to the output during the run (EPIPE: the reader left), or 0. */
int session__out_errno(struct session *s);
/* True once the events were enabled: there is a run to report on. */
bool session__started(struct session *s);
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
/* Add a non-tracepoint event. */
struct evsel *session__add_event(struct session *s, const struct evsel_conf *conf);

struct evsel *session__evsels(struct session *s);

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
/* Register a hook set, before session__open.  0 or -ENOSPC (more than 4 sets). */
int session__add_ops(struct session *s, const struct session_ops *ops, void *priv);
int session__run(struct session *s);
void session__stop(struct session *s);

/*
 * The time-order queue holds at most this many bytes of copied records
 * (--order-mem); beyond, samples are dropped and counted.
 */
#define ORDER_MEM_DEFAULT (32ULL << 20)
u64 session__order_budget(const struct env *env);

/*
 * Records lost so far on all CPUs, plus throttle episodes, plus records
 * dropped over the order queue's budget (anything to report).
 */
u64 session__lost(struct session *s);
/* Of those, the records the time-order queue dropped over its budget. */
u64 session__lost_budget(struct session *s);
/* Print "lost N events (CPU0: x, ...)" and throttling to @fp, if any. */
void session__print_lost(struct session *s, FILE *fp);

/* Workload exit status (wait(2) status) if a workload ran; -1 otherwise. */
int session__workload_status(struct session *s);
pid_t session__workload_pid(struct session *s);
/* True when perf-prof ended the workload itself (-N reached, output failed). */
bool session__workload_stopped(struct session *s);

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

/* Comm of @pid (from COMM records, else /proc, else "<...>"). Never NULL. */
const char *session__comm(struct session *s, u32 pid);
/* The comm @pid had at @time (a sample's): what a sample should print. */
const char *session__comm_at(struct session *s, u32 pid, u64 time);

/* Convert a sample timestamp to wall-clock text "YYYY-MM-DD HH:MM:SS.uuuuuu". */
void session__fmt_time(struct session *s, u64 time, char *buf, size_t len);
/* Current time in the events' clock. */
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
};
/* Look @name up in @ev's format: 0, or -ENOENT (f->valid false) */
int evsel__field(const struct evsel *ev, const char *name, struct field *f);
/* The field as a number (sign-extended if signed); -1 if absent or cut short. */
int field__u64(const struct field *f, const struct sample *smp, u64 *val);
/* Pointer to a string/array field and its length up to a NUL (__data_loc, __rel_loc). */
const char *field__str(const struct field *f, const struct sample *smp, int *len);

/* One-off reads by name (a format lookup each call): prefer field handles per sample. */
int evsel__field_u64(struct evsel *ev, struct sample *smp, const char *field, u64 *val);
const char *evsel__field_str(struct evsel *ev, struct sample *smp, const char *field, int *len);
/* Print the tracepoint payload as the kernel's print format does. */
void evsel__print_raw(struct session *s, struct evsel *ev, struct sample *smp, FILE *fp);

#endif
