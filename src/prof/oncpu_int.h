/* SPDX-License-Identifier: GPL-2.0 */
/* oncpu's state, shared by its files: oncpu.c (the slices), oncpu_report.c (the tables). */
#ifndef PP_ONCPU_INT_H
#define PP_ONCPU_INT_H

#include <stdbool.h>

#include <uthash.h>

#include "analysis/cpu/oncpu_bpf.h"
#include "analysis/cpu/prio.h"
#include "analysis/cpu/runslice.h"
#include "profiler.h"
#include "report/rtable.h"
#include "util/keeptop.h"

#define OC_MAX_ENTRIES (1u << 18) /* (CPU, thread) pairs kept; beyond: "[other]" */
#define OC_OTHER ((u32)-1)	  /* the tid of a CPU's "[other]" row */
#define OC_COMM ((u32)-2)	  /* --only-comm: the tid of a row that sums a comm's threads */
#define OC_HINT_NS 10000000ULL /* the cpu-clock's period: who runs on a CPU that never switches */
#define NS_PER_MS 1e6

enum { NOW, RUN }; /* ns[]: this interval, the whole run */

/* A thread's time on one CPU. */
struct oc_entry {
	UT_hash_handle hh;
	u64 key; /* cpu << 32 | tid */
	u32 cpu, tid;
	u64 ns[2];
	u64 sws[2], max[2]; /* --detail: slices begun, the longest one (ns) */
	char comm[16]; /* the name when first seen (the comm map may forget an exited thread) */
	bool gone;     /* its thread exited: a row of the whole run only, named by comm */
};

/* -p/-t/--: a thread, whether it is a target, and its sums for a report. */
struct oc_thread {
	UT_hash_handle hh;
	u32 tid, pid;
	bool target, exited;
	u64 sum;
	char comm[16];
	u64 run;      /* gone: its whole-run time ... */
	u64 sws, max; /* ... (--detail: its slices, the longest; a report's sums) */
	u64 *cpu_ns;  /* ... per monitored CPU (index in oncpu.cpus) */
};

/* A thread that exited in this interval or the one before (its last records may come late). */
struct oc_exited {
	UT_hash_handle hh;
	u32 tid;
	unsigned iv;   /* the interval it exited in (oncpu.nr_reports then) */
	char comm[16]; /* its name then: the comm map forgets it, the tid may come back */
};

struct oncpu {
	unsigned long long top;
	struct session *s;
	struct evsel *sw, *clk;
	struct field prev_pid, next_pid;
	struct runslice *rs; /* the ring path's slices, or ... */
	struct oc_bpf *bpf;  /* ... the kernel's sums (the BPF back end) */
	int bpf_err;	     /* reading them failed (said once) */
	/* --prio: only time of threads whose priority (as the switches tell it) is kept */
	const struct prio_opts *prio;
	struct prio_map *prios;
	struct field prev_prio, next_prio;
	struct oc_entry *entries;
	u32 nr_entries;
	/* --filter COMM globs, --only-comm (rows by comm), --detail (slices, the longest) */
	const char *filter;
	bool only_comm, detail;
	struct oc_run {
		u32 tid;
		bool fresh; /* a switch came: the next slice credited is a new one */
		u64 len;
	} * cur; /* --detail: the slice running per CPU id (0..nr_ids-1) */
	struct oc_thread *threads;
	struct oc_exited *exited;
	/* exited threads for the whole run: the --top largest kept, the others summed */
	struct keeptop *kept;	     /* per CPU (0..nr_ids-1): struct oc_entry */
	struct keeptop kept_threads; /* -p/-t/--: struct oc_thread */
	int nr_ids;
	bool per_thread;
	const int *cpus; /* the monitored ones */
	int nr_cpus;
	u64 start, edge; /* the first record's time (enabled by then), the last edge */
	u64 last;	 /* the latest record's time */
	u64 init;	 /* when the events were asked for (no record came yet) */
	unsigned nr_reports;
	u64 not_kept;
	/* a thread's time per monitored CPU: "cpus" in JSON, "CPU:MS" in text (32 bytes a CPU) */
	struct rt_col *cpu_cols;
	struct rt_val *cpu_vals;
	char *cpu_text;
};

struct oc_entry *oc_find_entry(struct oncpu *oc, u32 cpu, u32 tid);
void oc_del_entry(struct oncpu *oc, struct oc_entry *e);
/* A thread's time on every monitored CPU (@k: NOW or RUN); the exited threads' rows kept. */
u64 oc_thread_ns(struct oncpu *oc, u32 tid, int k);
unsigned oc_nr_kept(const struct oncpu *oc);
/*
 * The report of [oc->edge or the start, @now]: @k NOW (an interval) or RUN
 * (the whole run); --json's @scope of an interval: "interval" or "so_far".
 */
void oncpu__report(struct session *s, struct oncpu *oc, u64 now, int k, const char *scope);

#endif
