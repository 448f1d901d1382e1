/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layers, top first; a file includes its own layer and lower ones only
 * (scripts/check-layers.sh, run by make check):
 *   cli -> profilers, commands (prof/, cmd/) -> reports, pairing,
 *   expressions (report/, analysis/, expr/) -> symbols (sym/) -> engine
 *   (engine/) -> utilities (util/).
 *
 * A profiler is one struct profiler in one file under src/prof/, listed
 * once in src/profilers.c: its events, its state machine, its key.  The
 * CLI parses the common options it accepts (OPT_* mask) and its own
 * (own[], bound with POPT_BIND_*), allocates priv_size bytes, then runs
 * init (add events with session__add_tp/spec, look fields up once with
 * evsel__field, report errors with session__set_err/session__usage_err)
 * -> open -> the hooks of ops -> deinit (output only if session__started).
 * Anything a second profiler would need goes into a shared module first:
 * pairs (start -> end by key), lat_table (keyed latency rows),
 * stack_flame (--flame-graph), kfilter (kernel filters), sample_copy,
 * session__is_target.  Test its state machine on an injected session
 * (session__inject, tests/unit/synth.h).
 *
 * A tool that opens no events is a struct command in src/cmd/.
 */
#ifndef PP_PROFILER_H
#define PP_PROFILER_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/session.h"

/* Common options a profiler may accept. -h, -v, -q are always accepted. */
enum {
	OPT_CPU = 1u << 0,	 /* -C */
	OPT_PID = 1u << 1,	 /* -p */
	OPT_TID = 1u << 2,	 /* -t */
	OPT_INTERVAL = 1u << 3,	 /* -i */
	OPT_MMAP = 1u << 4,	 /* -m */
	OPT_OUTPUT = 1u << 5,	 /* -o */
	OPT_COUNT = 1u << 6,	 /* -N */
	OPT_ORDER = 1u << 7,	 /* --order */
	OPT_EVENT = 1u << 8,	 /* -e */
	OPT_CALLCHAIN = 1u << 9, /* -g, --call-graph, --max-stack, stack print options */
	OPT_FLAME = 1u << 10,	 /* --flame-graph */
	OPT_WORKLOAD = 1u << 11, /* -- command args */
	OPT_FILTER = 1u << 12,	 /* --filter */
	OPT_TARGET = OPT_CPU | OPT_PID | OPT_TID | OPT_WORKLOAD,
};

enum popt_type {
	POPT_FLAG, /* bool at off, no argument */
	POPT_STR,  /* const char * at off */
	POPT_UINT, /* unsigned long long at off */
	POPT_TIME, /* unsigned long long nanoseconds at off: "10ms", "5us", "1s", "300" (= unit) */
	POPT_CB,   /* cb(priv, arg) */
};

struct popt {
	const char *lname;   /* long name without "--" */
	int sname;	     /* short option character, 0 for none */
	const char *argname; /* NULL: no argument */
	const char *help;
	enum popt_type type;
	size_t off;	  /* offset in the profiler's priv */
	const char *unit; /* POPT_TIME: unit of a bare number ("ms") */
	int (*cb)(void *priv, const char *arg, char *err, size_t errlen);
};

/*
 * Bindings checked at compile time: the member must have the type the
 * option writes (a flag a bool, a string a const char *, a number or a
 * time an unsigned long long), or the table does not compile.  Use these,
 * never a bare .off.
 */
#define POPT_OFF_(T, m, type)                                                              \
	__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(((T *)0)->m), type), \
			      offsetof(T, m), (void)0)
#define POPT_BIND_FLAG(T, m) .type = POPT_FLAG, .off = POPT_OFF_(T, m, bool)
#define POPT_BIND_STR(T, m) .type = POPT_STR, .off = POPT_OFF_(T, m, const char *)
#define POPT_BIND_UINT(T, m) .type = POPT_UINT, .off = POPT_OFF_(T, m, unsigned long long)
#define POPT_BIND_TIME_MS(T, m) POPT_BIND_TIME(T, m, "ms")
#define POPT_BIND_TIME(T, m, u) \
	.type = POPT_TIME, .off = POPT_OFF_(T, m, unsigned long long), .unit = (u)

struct profiler {
	const char *name;
	const char *desc;	     /* one line for "perf-prof -h" */
	const char *synopsis;	     /* "perf-prof trace -e EVENT[,...] [-g] [...]" */
	const char *examples;	     /* lines of examples, '\n'-separated */
	unsigned opts;		     /* OPT_* */
	const struct popt *own;	     /* terminated by { 0 } */
	const char *filter_help;     /* what --filter means here (with OPT_FILTER) */
	const char *const *ev_attrs; /* extra -e attributes accepted (NULL-terminated) */
	size_t priv_size;
	int order;	     /* 1: --order is on by default */
	unsigned mmap_pages; /* default -m for this profiler (0: the engine's) */
	int cpu_wide;	     /* 1: open events per CPU even with -p/-t/--; the profiler
				 * selects its targets itself (it must see other tasks
				 * switching them in or waking them) */

	/* Add events to @s.  Return 0 or -errno (message via session__set_err). */
	int (*init)(struct session *s, void *priv);
	/*
	 * The session's hooks, called with priv (engine/session.h: sample,
	 * lost, interval, snapshot, exit, fork, comm, mmap2, context_switch:
	 * setting it turns the kernel's context-switch records on).
	 */
	struct session_ops ops;
	/*
	 * Final output and release of priv's contents (priv itself is freed by
	 * the CLI).  There is output only if session__started(s): a run that
	 * failed before must not print a report or replace any file.
	 */
	void (*deinit)(struct session *s, void *priv);
};

extern const struct profiler *const profilers[];
extern const int nr_profilers;

/*
 * A command opens no events (list, flamegraph; heatmap, expr, check come):
 * one struct command in src/cmd/, listed in src/cmd/commands.c.  It takes
 * the common options of @opts (-o makes sense; -v, -q and -h always) and
 * its own; positional arguments may come anywhere on the line
 * ("perf-prof flamegraph in.folded -o out.svg").  run() does everything and
 * returns the exit status.
 */
struct command {
	const char *name;
	const char *desc;
	const char *synopsis;
	const char *examples;
	unsigned opts;		/* OPT_* */
	const struct popt *own; /* terminated by { 0 } */
	size_t priv_size;
	int (*run)(const struct env *env, void *priv, int argc, char **argv);
};

extern const struct command *const commands[];
extern const int nr_commands;

#endif
