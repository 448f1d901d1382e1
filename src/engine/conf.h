/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's configuration, in the option groups the engine owns: what
 * to monitor (-C/-p/-t/--), the ring buffers and time order (-m,
 * --watermark, --order, --order-mem), the run (-i, --usage-self, -N,
 * --sampling-limit, --perfeval-cpus/--perfeval-pids) and
 * the events (-e).  Stack capture (-g, --call-graph ...) is a struct of
 * the engine too, parsed in the stack group (sym/stack.h) that also holds
 * the print options.  The CLI gives the session a struct engine_conf of the
 * groups the profiler accepts; a missing group means its defaults.
 */
#ifndef PP_CONF_H
#define PP_CONF_H

#include <stdbool.h>
#include <sys/types.h>

#include "engine/evspec.h"
#include "engine/sample.h"
#include "util/opt.h"

enum call_graph_mode {
	CG_NONE = 0,
	CG_FP,	  /* frame pointers: PERF_SAMPLE_CALLCHAIN */
	CG_DWARF, /* CALLCHAIN (kernel part) + REGS_USER + STACK_USER */
};

struct target_opts {
	int *cpus; /* -C, or all online CPUs (the check fills them in) */
	int nr_cpus;
	bool cpus_given;
	pid_t *pids; /* -p: processes (all their threads) */
	int nr_pids;
	pid_t *tids; /* -t: threads */
	int nr_tids;
	char **argv;	     /* -- command args (NULL-terminated), set by the CLI */
	bool inherit;	     /* --inherit: -t threads' children too; CPU-wide: -p's children */
	bool ptrace;	     /* --ptrace: new tasks stop at birth until they are targets */
	const char *cgroups; /* --cgroups NAME,...: per CPU, only these cgroups' tasks */
};

struct ring_opts {
	unsigned mmap_pages; /* -m, 0 = default (ring__default_pages) */
	unsigned watermark;  /* --watermark: PCT of the ring filled wakes us up */
	bool watermark_set;
	bool order;	/* --order */
	u64 order_mem;	/* --order-mem: queued bytes at most, 0 = ORDER_MEM_DEFAULT */
	bool overwrite; /* --overwrite: overwritable rings, read at SIGUSR1, -i and the end */
};

struct run_opts {
	unsigned interval_ms; /* -i */
	unsigned usage_ms;    /* --usage-self: perf-prof's own cost every MS */
	u64 max_samples;      /* -N, 0 = unlimited */
	u64 sampling_limit;   /* --sampling-limit: samples a second per CPU or thread, 0 = all */
	int *eval_cpus;	      /* --perfeval-cpus: perf-prof's cost for these CPUs' samples */
	int nr_eval_cpus;
	char *eval_cpus_text; /* ... as given, for the cost line */
	pid_t *eval_pids;     /* --perfeval-pids: ... and these processes' samples */
	int nr_eval_pids;
	char *eval_pids_text;
};

#define EV_MAX_POS 16 /* -e given this many times at most */

/*
 * -e, repeatable: each -e is a position (the points of a latency profiler:
 * "-e A -e B"); its events' ev_spec.pos is its index.  Profilers without
 * positions take them all alike.
 */
struct event_opts {
	const char *texts[EV_MAX_POS];
	int nr_texts;
	struct ev_spec *specs; /* of every -e, in order */
	int nr_specs;
	/* names read as profilers (joint analysis: evspec__parse_joint), or NULL */
	const char *const *profilers;
};

struct capture_opts {
	enum call_graph_mode cg; /* -g / --call-graph fp|dwarf[,SIZE] */
	bool by_attr;		 /* only events with the "stack" attribute want stacks */
	unsigned dwarf_size;	 /* user stack bytes copied for DWARF, 0 = default */
	int max_stack;		 /* --max-stack, 0 = kernel default */
	bool no_user;		 /* capture no user frames */
	bool no_kernel;		 /* capture no kernel frames */
	bool halves_given;	 /* --[no-]user-callchain / --[no-]kernel-callchain */
	bool defaulted;		 /* stacks without -g: the profiler takes them by default */
};

/*
 * The clock the times are printed in (every profiler takes these): the
 * engine's events run on CLOCK_MONOTONIC (--monotonic says so, as the
 * original's spelling); --tsc prints the TSC of each time, --kvmclock a
 * guest's kvmclock; --clock-offset is added to every printed time, in its
 * unit (ns, or TSC ticks with --tsc).  The check probes the host: what it
 * cannot convert is refused before the run.
 */
struct clock_tsc {
	unsigned short time_shift; /* the perf mmap page's conversion of perf time <-> TSC */
	unsigned time_mult;
	u64 time_zero;
};

struct clock_opts {
	bool tsc;	       /* --tsc */
	bool monotonic;	       /* --monotonic (the events' clock in any case) */
	bool offset_set;       /* --clock-offset given */
	u64 offset;	       /* --clock-offset, modulo 2^64 (0xffee... is a negative one) */
	const char *kvmclock;  /* --kvmclock UUID */
	struct clock_tsc conv; /* --tsc, --kvmclock: filled in by the check */
	pid_t guest_pid;       /* --kvmclock: the guest's process ... */
	int guest_vm_fd;       /* ... and its VM's fd (debugfs kvm/PID-FD) */
};

/* What a session is created with: any pointer may be NULL (defaults). */
struct engine_conf {
	const struct target_opts *target;
	const struct ring_opts *ring;
	const struct run_opts *run;
	const struct event_opts *events;
	const struct capture_opts *capture;
	const struct log_opts *log;
	const struct clock_opts *clock; /* --tsc, --clock-offset, ... (NULL: wall clock) */
	bool output_file;		/* the output is a file: SIGHUP calls the reopen hook */
};

/*
 * --exclude-user, --exclude-kernel, --exclude-guest, -G/--exclude-host: the
 * modes a sampling profiler leaves out (the perf attr's exclude_* bits, or
 * the profiler's documented meaning).  Excluding both guest and host leaves
 * nothing and is refused; each profiler refuses what is empty for it.
 */
struct exclude_opts {
	bool user, kernel, guest, host;
};
extern const struct opt_group exclude_group; /* --exclude-* -G */
/*
 * The same options for profilers of tracepoints (and kprobes): those fire
 * in the host's kernel, so --exclude-user and --exclude-guest leave none of
 * them out (accepted, nothing changes) and --exclude-kernel or -G leave
 * nothing (refused by the group's check, one line).
 */
extern const struct opt_group exclude_tp_group;

/*
 * The options as exclude bits ORed into @a, a hardware, software or PMU
 * event's attr (the kernel applies exclude_guest/exclude_host to PMU events
 * only).  @x may be NULL (nothing).
 */
void exclude__attr(const struct exclude_opts *x, struct perf_event_attr *a);
/* Whether a sample whose record's misc is @misc is in a mode @x keeps. */
bool exclude__keep(const struct exclude_opts *x, unsigned misc);
/* NULL when @x leaves some mode, else the reason (for session__usage_err's "%s"). */
const char *exclude__empty(const struct exclude_opts *x);
extern const struct opt_group target_group; /* -C -p -t (and "-- command") */
extern const struct opt_group ring_group;   /* -m --watermark --order --order-mem --overwrite */
extern const struct opt_group run_group;    /* -i --usage-self -N --sampling-limit ... */
extern const struct opt_group event_group;  /* -e (parsed into specs by its check) */
/* --tsc --clock-offset --monotonic --kvmclock: every profiler gets it (cli/options.c) */
extern const struct opt_group clock_group;

/*
 * Default ring size: a 64 MiB budget split over @nr_cpus, 128..2048 pages
 * each, at least @want.
 */
unsigned ring__default_pages(int nr_cpus, unsigned want);

#endif
