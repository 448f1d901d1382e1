/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check's parts (check.c: the host's probes, the rows and the profilers'
 * verdicts; check_bpf.c: the BPF rows): what the host was found to have,
 * and the output the rows go to.
 */
#ifndef PP_CHECK_INT_H
#define PP_CHECK_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine/features.h"
#include "sym/hostsyms.h"

/* One tracepoint a profiler needs, probed once. */
struct tp_probe {
	char sys[64], name[128];
	int err;
};

struct host {
	/* tracefs */
	const char *tracefs;
	int events_err, nr_systems;
	/* permissions */
	int sw, sw_user, sw_wide, paranoid;
	char perf_why[256];
	unsigned long long caps;
	int caps_err;
	/* PMU, probes, breakpoints */
	int cycles;
	int kp_pmu, kp_dyn, up_pmu, up_dyn;
	char self[PATH_MAX];
	unsigned long long self_off;
	int bp;
	/* BPF, KVM, schedstats, kallsyms */
	int bpf_prog[NR_FEAT_BPF_PROGS], bpf_hash, bpf_array, btf, jit, unpriv_bpf;
	unsigned btf_types;
	int bpf_err; /* features__bpf_why_not: 0 when the BPF back end can run */
	char bpf_why[256];
	int kvm;
	struct feat_cpuinfo cpu;
	int cpu_err;
	int schedstats;
	int ks_err, kptr;
	long ks_nr, ks_nz;
	unsigned long long ks_first;
	/* files */
	struct libc_info libc;
	int libc_err;
	char kbid[2 * BUILD_ID_MAX + 1], kdebug[PATH_MAX];
	int kdebug_err;
	/* tracepoints the profilers need */
	struct tp_probe *tps;
	int nr_tps;
	int *fds;
	int nr_fds;
};

struct out {
	FILE *fp;
	bool json;
	int verbose;
};

/* "ENOENT" (the brief name the kernel's documentation uses), or the message. */
const char *chk_ename(int err);
/* A row: CHECK RESULT DETAIL (--json: a "host" record). */
void chk_row(struct out *o, const char *check, const char *result, const char *detail);
/* -v: one more line under the last row. */
void chk_more(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append to @buf. */
void chk_cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* check_bpf.c: what the BPF back end finds here, and which profilers use it */
void chk_row_bpf(struct out *o, struct host *h);
void chk_row_bpf_back(struct out *o, struct host *h);
/* Whether @p runs on the BPF back end where the host allows it. */
struct profiler;
bool chk_has_bpf(const struct profiler *p);

#endif
