/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layers, top first; a file includes its own layer and lower ones only
 * (scripts/check-layers.sh, run by make check):
 *   cli -> profilers, commands (prof/, cmd/) -> analysis (analysis/:
 *   latency, memory, cpu, counting, stacks) -> reports, expressions
 *   (report/, expr/) -> symbols (sym/) -> engine
 *   (engine/) -> utilities (util/).
 *
 * A profiler is one struct profiler in one file under src/prof/, listed
 * once in src/profilers.c: its events, its state machine, its key.  It
 * lists the option groups it accepts (util/opt.h: target, ring, run,
 * event, stack, flame, output; each module validates its own) and its own
 * table (own[], bound to priv with POPT_BIND_*).  The CLI parses them,
 * gives the engine's groups to the session, allocates priv_size bytes,
 * then runs init (ask the engine for what it needs with session__want_*,
 * add events with session__add_tp/spec, look fields up once with
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
#include "util/opt.h"

struct profiler {
	const char *name;
	/* other names it runs under, the original perf-prof's (NULL-terminated, or NULL) */
	const char *const *aliases;
	const char *desc;     /* one line for "perf-prof -h" */
	const char *synopsis; /* "perf-prof trace -e EVENT[,...] [-g] [...]" */
	const char *examples; /* lines of examples, '\n'-separated */
	/* option groups accepted (NULL-terminated), in the order -h lists them */
	const struct opt_group *const *groups;
	const struct popt *own;	     /* terminated by { 0 } */
	const char *const *ev_attrs; /* extra -e attributes accepted (NULL-terminated) */
	/*
	 * What it needs of the host, for "perf-prof check" (NULL-terminated;
	 * { NULL }: perf_event_open only): "tp:sched:sched_switch", "tracefs",
	 * "cpu-wide", "pmu", "kprobe", "uprobe", "bp", "kallsyms"; "pmu?=uses
	 * cpu-clock" is optional (degraded without).  cmd/check_eval.h.
	 */
	const char *const *needs;
	bool stacks; /* stacks without -g (frame pointers): a leak needs its site */
	/*
	 * Takes profilers in its -e (joint analysis, cli/joint.h): their
	 * samples and rows reach the inner_sample hook of its own set or of a
	 * module's set its init registered (multi-trace: multipoint_ev's).
	 */
	bool joint;
	/*
	 * Its results come from the BPF back end (where the host allows it)
	 * even though it takes the sample filters' options too (oncpu: they
	 * filter its slices in the kernel); profile and hrtimer take them for
	 * their samples only.  For "perf-prof check".
	 */
	bool bpf_results;
	size_t priv_size;
	/*
	 * Positional arguments ("perf-prof expr -e EV 'EXPR'"), anywhere before
	 * "--": NULL takes none.  0, or -1 with one line in @err (usage).
	 */
	int (*args)(void *priv, int argc, char **argv, char *err, size_t errlen);
	/*
	 * The first positional argument ends the options: it and every word
	 * after it ("--" and "-x" too) go to args ("perf-prof python -e EV
	 * script.py -x --y": the script's own).  No "-- COMMAND" workload then.
	 */
	bool args_stop;

	/*
	 * Ask the engine for what the profiler needs, add events to @s.
	 * @opts: the parsed groups (opt_set__get(opts, &flame_group)).
	 * Return 0 or -errno (message via session__set_err).
	 */
	int (*init)(struct session *s, void *priv, const struct opt_set *opts);
	/*
	 * The session's hooks, called with priv (engine/session.h: sample,
	 * lost, interval, snapshot, exit, fork, comm, mmap2, context_switch:
	 * setting it turns the kernel's context-switch records on).  Only the
	 * profiler's own: a shared module registers its set itself in init
	 * (multipoint__ready, multipoint_ev__new, ctr_set__report_by,
	 * hrgroup__report_to, umalloc__add), and an event's samples can go to
	 * its own handler (evsel__set_handler) instead of ops.sample.
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
/* The profiler named @name, by its name or one of its aliases, or NULL. */
const struct profiler *profiler__find(const char *name);

/*
 * A command opens no events (list, flamegraph; heatmap, expr, check come):
 * one struct command in src/cmd/, listed in src/cmd/commands.c.  It takes
 * the option groups it lists (-v, -q and -h always) and its own;
 * positional arguments may come anywhere on the line ("perf-prof
 * flamegraph in.folded -o out.svg").  run() does everything and returns
 * the exit status.
 */
struct command {
	const char *name;
	const char *desc;
	const char *synopsis;
	const char *examples;
	const struct opt_group *const *groups; /* NULL-terminated, or NULL */
	const struct popt *own;		       /* terminated by { 0 } */
	/* what it needs of the host, as struct profiler's; NULL: nothing ("check" omits it) */
	const char *const *needs;
	size_t priv_size;
	int (*run)(const struct opt_set *opts, void *priv, int argc, char **argv);
};

extern const struct command *const commands[];
extern const int nr_commands;

#endif
