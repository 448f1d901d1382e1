/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What this host supports: tracefs, PMUs, kprobes, uprobes, permissions.
 * Used by `list` and by the engine and profilers to turn a failure into
 * one line that says what is missing and what to do instead.
 *
 * Nothing here mounts, loads or changes anything: these are reads of
 * /proc/mounts, sysfs and tracefs only, except the probes of `check`
 * (features__probe_*), which open and close the real thing.
 */
#ifndef PP_FEATURES_H
#define PP_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Mount point of tracefs ("/sys/kernel/tracing", or ".../debug/tracing"
 * when only debugfs is mounted), or NULL with errno set: ENOENT when
 * tracefs is not mounted.  The string is static; do not free it.
 */
const char *features__tracefs_dir(void);

/* 1 if /sys/bus/event_source/devices/@name exists, else 0. */
bool features__has_pmu(const char *name);

/* The PMU's type number for perf_event_attr.type, or -errno (-ENOENT: no such PMU). */
int features__pmu_type(const char *name);

/*
 * Sorted, NULL-terminated names: of every PMU in /sys/bus/event_source/devices
 * (@pmu NULL), or of the entries of that PMU's @sub directory ("events",
 * "format").  Returns the count (0: none or no such directory, with *names
 * an empty list) or -errno.  Free with features__free_list().
 */
int features__list(const char *pmu, const char *sub, char ***names);
void features__free_list(char **names);

/*
 * First line of the PMU's file @rel ("type", "events/tsc", "format/event"),
 * without the newline, into @buf.  Returns 0 or -errno.
 */
int features__pmu_read(const char *pmu, const char *rel, char *buf, size_t len);

/*
 * The core CPU PMU ("cpu", or "cpu_core" on hybrid CPUs), or NULL when the
 * host has none (a VM without a virtual PMU): hardware events such as
 * cycles and instructions then fail with ENOENT and cpu-clock is the
 * substitute.
 */
const char *features__cpu_pmu(void);

/*
 * What /proc/cpuinfo says of the CPU (its first processor's lines): the
 * vendor ("GenuineIntel", "AuthenticAMD"; "" when not said), family and
 * model (-1), and its flags' hardware virtualization: "vmx" or "svm", ""
 * without (KVM then emulates the guest: /dev/kvm opens and a guest runs,
 * but no VM exit happens, so kvm:kvm_exit never fires), and "hypervisor"
 * (this host is itself a guest).  @flags: a flags line was read.  0 or -errno.
 */
struct feat_cpuinfo {
	char vendor[32];
	int family, model;
	char virt[4];
	bool hypervisor, flags;
};
int features__cpuinfo(struct feat_cpuinfo *ci);

/* How dynamic probes can be created: a mask of these, 0 when not supported. */
enum {
	PROBE_TRACEFS = 1 << 0, /* tracefs kprobe_events / uprobe_events */
	PROBE_PMU = 1 << 1,	/* the kprobe / uprobe PMU (perf_event_open directly) */
};
int features__kprobes(void);
int features__uprobes(void);

/* /proc/sys/kernel/perf_event_paranoid, or -errno if unreadable. */
int features__paranoid(void);

enum feature {
	FEAT_TRACEFS,
	FEAT_CPU_PMU,
	FEAT_KPROBES,
	FEAT_UPROBES,
	FEAT_PERM,
};

/*
 * One line (no newline) saying why @f is unavailable and what to do,
 * e.g. "no hardware PMU on this host: use cpu-clock".  Always returns
 * @buf.  For FEAT_PERM it mentions root and the current paranoid level.
 */
const char *features__why_not(enum feature f, char *buf, size_t len);

/*
 * Probes (engine/features_probe.c, for "perf-prof check"): each asks the
 * kernel for the real thing and closes or removes it at once; 0 when it
 * worked, else -errno of the call that failed.
 */
/*
 * The cpu-clock software event, on this thread or (@cpu_wide) on CPU 0 for
 * every task; counting user mode only (@user_only: what perf_event_paranoid
 * 2 allows) or, as the profilers do, the kernel too.
 */
int features__probe_sw(bool cpu_wide, bool user_only);
/* The cycles hardware event (user mode, this thread): -ENOENT without a PMU. */
int features__probe_cycles(void);
/*
 * A counter of @type/@config (user mode, this thread): whether the kernel
 * has it for this CPU (generic cache events: -ENOENT or -EINVAL where its
 * table has no entry, -EOPNOTSUPP where the CPU cannot count it).
 */
int features__probe_counter(unsigned type, unsigned long long config);
/* A hardware write breakpoint on a variable of ours (this thread). */
int features__probe_bp(void);
/* A kprobe on @func through the kprobe PMU (-ENOENT: no such PMU). */
int features__probe_kprobe_pmu(const char *func);
/* A uprobe on a function of this binary through the uprobe PMU. */
int features__probe_uprobe_pmu(void);
/*
 * A probe made in tracefs (kprobe_events on vfs_read, or uprobe_events on
 * this binary) in the group perf_prof_PID, then removed.
 */
int features__probe_dynevent(bool kernel);
/* This binary's path and the file offset of a function in it (the uprobe's target). */
int features__self_offset(char *path, size_t len, unsigned long long *off);
/* The id of tracepoint @sys:@name from tracefs, or -errno (-ENOENT: none). */
int features__tp_id(const char *sys, const char *name);
/*
 * @sys:@name opened system-wide on CPU 0 (counting, disabled), as the
 * profilers open it: 0 with the event's descriptor in *@fd, for the
 * caller to close (a tracepoint's last close waits for an RCU grace
 * period: engine/fdcloser.h), or -errno (-ENOENT: no such tracepoint).
 */
int features__probe_tp(const char *sys, const char *name, int *fd);
/*
 * bpf(2): BPF_MAP_CREATE of a one-entry map of @map_type (BPF_MAP_TYPE_ARRAY,
 * BPF_MAP_TYPE_PERCPU_HASH, ...); BPF_PROG_LOAD of "r0 = 0; exit" as a
 * program of @kind.  FEAT_BPF_TP_BTF finds its attach target, the typedef
 * btf_trace_sched_switch, in vmlinux BTF first (-ENOENT without BTF).
 */
enum feat_bpf_prog {
	FEAT_BPF_SOCKET,     /* a socket filter: what unprivileged users may load */
	FEAT_BPF_TRACEPOINT, /* BPF_PROG_TYPE_TRACEPOINT: on a tracepoint's perf fd */
	FEAT_BPF_RAW_TP,     /* BPF_PROG_TYPE_RAW_TRACEPOINT */
	FEAT_BPF_TP_BTF,     /* BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP: typed arguments */
	FEAT_BPF_PERF_EVENT, /* BPF_PROG_TYPE_PERF_EVENT: on a sampling event */
	NR_FEAT_BPF_PROGS
};
int features__probe_bpf_map(unsigned map_type);
int features__probe_bpf_prog(enum feat_bpf_prog kind);
/* "socket filter", "tracepoint", "raw_tp", "tp_btf", "perf_event". */
const char *features__bpf_prog_name(enum feat_bpf_prog kind);
/*
 * vmlinux BTF (/sys/kernel/btf/vmlinux) loaded with libbpf's
 * btf__load_vmlinux_btf: 0 with its number of types in *@nr_types, or
 * -errno (-ENOENT: kernel without CONFIG_DEBUG_INFO_BTF; -ESRCH: libbpf found no
 * valid BTF there).  libbpf's own messages are silenced meanwhile.
 */
int features__probe_btf(unsigned *nr_types);

/*
 * Whether the BPF back end can run here, cheaply (one tracepoint program
 * loaded and closed): 0, or -errno with @buf holding one line naming what
 * is missing and what to do, e.g. "bpf(2) not permitted: no CAP_BPF (needs
 * CAP_BPF and CAP_PERFMON, or root)".  @buf is "" on 0.
 */
int features__bpf_why_not(char *buf, size_t len);
/* What features__bpf_why_not reads of the host, for its line. */
struct feat_bpf_env {
	unsigned long long caps; /* effective capabilities */
	bool caps_known;	 /* caps read (CapEff in /proc/self/status) */
	int cap_last;		 /* kernel/cap_last_cap: below 39 no CAP_BPF, CAP_PERFMON */
	int unpriv;		 /* kernel/unprivileged_bpf_disabled, or -errno */
};
void features__bpf_env(struct feat_bpf_env *env);
/* The line for @err, the error of loading a tracepoint program, given @env: @buf. */
const char *features__bpf_explain(int err, const struct feat_bpf_env *env, char *buf, size_t len);
/* open("/dev/kvm") and KVM_GET_API_VERSION: the version, or -errno. */
int features__probe_kvm(void);
/* The integer in /proc/sys/@name ("kernel/kptr_restrict"), or -errno. */
int features__sysctl(const char *name);
/*
 * /proc/kallsyms read whole: the symbols, those with a non-zero address
 * (0 when kptr_restrict hides them from us), the first such address.
 */
int features__kallsyms(long *nr, long *nonzero, unsigned long long *first);
/* The effective capabilities (CapEff of /proc/self/status). */
int features__capabilities(unsigned long long *eff);

/*
 * For tests: look for sysfs and procfs (and so /proc/mounts) under other roots
 * (< 512 bytes; NULL restores "/sys", "/proc").  Drops cached results.
 */
void features__set_roots(const char *sysfs, const char *procfs);
/* Where sysfs is looked for: "/sys", or the tests' root. */
const char *features__sysfs(void);

#endif
