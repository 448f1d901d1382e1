/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The value at a watched address at each hit of a hardware breakpoint,
 * read in the kernel (breakpoint; any profiler that sets one).  A write
 * or read breakpoint's debug exception is a trap: it comes after the
 * instruction, so the memory then holds the value written (or read).
 * A BPF_PROG_TYPE_PERF_EVENT program per breakpoint, attached to every
 * perf fd of its event, runs at each hit before the kernel writes the
 * sample: it reads the LEN bytes at the address (bpf_probe_read_kernel
 * for a kernel address, bpf_probe_read_user for a user one: the current
 * task's) and copies them out with the time, the thread, the CPU and the
 * hit's number (the event's count, bpf_perf_prog_read_value) into a BPF
 * ring buffer, and keeps the sample.  In user space each sample takes its
 * record: with the sample's count (PERF_SAMPLE_READ), the record of the
 * same breakpoint, CPU, thread and number; a hit without its record (the
 * ring buffer was full, the program did not run, the read failed) has no
 * value, never another hit's.  An inherited event's count cannot be read
 * in the program (-p, --): there by time, the record of that thread and
 * CPU next to the sample (watchval.c), where a hit without its record
 * takes the next hit's, which then has none: one hit in error.
 *
 * Without BPF (--no-bpf, a host without it, --tsc/--kvmclock whose times
 * cannot be paired) there are no values: watchval__add says why.
 */
#ifndef PP_WATCHVAL_H
#define PP_WATCHVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/sample.h"
#include "util/opt.h"

struct session;
struct evsel;
struct watchval;

/*
 * The values of @ev's hits, a breakpoint on @addr of @len bytes (1, 2, 4
 * or 8), known to the caller as @id (0..63): 1 when they will be read,
 * with *@wv made at the first call (the same then), 0 when they cannot
 * be (@why says why: "--no-bpf"), -errno with the session's error set
 * (--bpf given and BPF missing: a usage error).
 */
int watchval__add(struct session *s, const struct opt_set *opts, struct watchval **wv,
		  struct evsel *ev, int id, u64 addr, unsigned len, char *why, size_t whylen);
/* The value of the hit @smp of breakpoint @id: 0 with *@val, or -ENOENT (none read). */
int watchval__get(struct watchval *w, const struct sample *smp, int id, u64 *val);
void watchval__free(struct watchval *w);

/* What the program copies out of each hit (40 bytes). */
struct watchval_rec {
	u64 time;  /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	u64 value; /* the LEN bytes, little-endian, 0 above */
	u64 count; /* the event's count at the hit: its number (0: unknown) */
	u32 tid, cpu;
	u32 id;	     /* the breakpoint's */
	int32_t err; /* the read's: 0, or -errno (no value) */
};

/*
 * For tests: a set of values without BPF, and a record as the program
 * would write it (what watchval__get pairs with samples).
 */
struct watchval *watchval__new(void);
void watchval__push(struct watchval *w, const struct watchval_rec *r);

#endif
