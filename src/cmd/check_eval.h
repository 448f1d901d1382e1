/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-prof check: a profiler's needs (struct profiler.needs) against what
 * the probes found on this host -> ok, degraded or unavailable, and why.
 *
 * A need is "KIND[?][:SYS:NAME][=NOTE]":
 *   tracefs    tracefs mounted and readable (events the user names with -e)
 *   tp         tp:SYS:NAME, a tracepoint that opens system-wide
 *   cpu-wide   system-wide events (root, CAP_PERFMON or perf_event_paranoid <= 0)
 *   pmu        a hardware PMU (cycles)
 *   kprobe     kprobes (CONFIG_KPROBES)
 *   uprobe     uprobes (CONFIG_UPROBE_EVENTS)
 *   bp         hardware breakpoints
 *   kallsyms   /proc/kallsyms with real addresses
 *   bpf        tracepoint BPF programs load (engine/bpf.h; check adds
 *              "bpf?=uses the ring path" to a profiler with the BPF back end)
 *   hwvirt     hardware virtualization (vmx or svm in /proc/cpuinfo's
 *              flags): without it KVM emulates the guest: no VM exit
 *              (kvm:kvm_exit, kvm:kvm_entry) ever happens, kvmmmu:* fire
 *              only while a VM is built
 * '?' makes it optional: without it the profiler runs, degraded, and NOTE
 * says how ("pmu?=uses cpu-clock" -> "degraded (uses cpu-clock: no PMU)").
 * Every profiler needs perf_event_open itself; it is not listed.  One that
 * does not list cpu-wide runs without it on the user's own processes
 * (-p/-t/--): degraded.
 */
#ifndef PP_CHECK_EVAL_H
#define PP_CHECK_EVAL_H

#include <stdbool.h>
#include <stddef.h>

enum check_need {
	NEED_TRACEFS,
	NEED_TP,
	NEED_CPU_WIDE,
	NEED_PMU,
	NEED_KPROBE,
	NEED_UPROBE,
	NEED_BP,
	NEED_KALLSYMS,
	NEED_BPF,
	NEED_HWVIRT,
	NR_NEEDS
};

/* What the probes found. */
struct check_caps {
	bool perf;	      /* perf_event_open of a software event on this thread */
	const char *perf_why; /* why not ("EACCES"), or NULL */
	bool have[NR_NEEDS];  /* [NEED_TP] unused: see tp */
	/* sys:name: 0 when it opens system-wide, else -errno (-ENOENT: not in this kernel) */
	int (*tp)(void *arg, const char *sys, const char *name);
	void *tp_arg;
};

enum check_status { CHECK_OK, CHECK_DEGRADED, CHECK_UNAVAILABLE };

/* A need taken apart. */
struct check_need_parsed {
	enum check_need kind;
	bool optional;
	char sys[64], name[128]; /* NEED_TP */
	char note[96];		 /* after '=', "" if none */
};

/* 0, or -EINVAL for a need that is not well formed (an unknown kind, tp without SYS:NAME). */
int check__parse_need(const char *need, struct check_need_parsed *p);

/* "ok", "degraded", "unavailable". */
const char *check__status_name(enum check_status st);

/*
 * @needs (NULL-terminated) against @caps.  @why gets, for unavailable,
 * "needs a hardware PMU, kprobes (CONFIG_KPROBES)"; for degraded, what is
 * lost, "uses cpu-clock: no PMU"; for ok, "".  A malformed need makes it
 * unavailable ("bad need 'x' ..."), so that a typo cannot pass for ok.
 */
enum check_status check__eval(const char *const *needs, const struct check_caps *caps, char *why,
			      size_t len);

#endif
