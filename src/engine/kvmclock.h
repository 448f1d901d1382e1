/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --kvmclock UUID: a host perf time as the guest's kvmclock.
 *
 *   host TSC   = the perf time through the ring page's conversion (clockopt.h)
 *   guest TSC  = (host TSC * ratio) >> frac_bits + tsc_offset    (per vCPU)
 *   kvmclock   = system_time + pvscale(guest TSC - tsc_timestamp, mul, shift)
 *
 * tsc_offset (signed), the scaling ratio and its fraction bits are the
 * vCPU's debugfs files (kvm/PID-FD/vcpuN/tsc-offset, tsc-scaling-ratio,
 * tsc-scaling-ratio-frac-bits; no ratio file: no scaling).  The pvclock
 * (tsc_timestamp, system_time, tsc_to_system_mul, tsc_shift) is what KVM
 * last wrote to the vCPU's pvclock page, each write traced by
 * kvm:kvm_pvclock_update in the vCPU's thread.
 *
 * Each update is kept with its perf time and the vCPU's TSC offset and
 * ratio then (re-read from debugfs at each update: a guest that writes its
 * TSC gets a new offset, and KVM updates the pvclock after it).  A time
 * converts with the latest update at or before it, of whichever vCPU (every
 * vCPU's pvclock, through its own TSC offset, gives the same kvmclock);
 * before the first update there is nothing to convert with (-EAGAIN).
 */
#ifndef PP_KVMCLOCK_H
#define PP_KVMCLOCK_H

#include <sys/types.h>

#include "engine/clockopt.h"

/* What a vCPU's TSC is made of (debugfs). */
struct kvm_vcpu_tsc {
	u64 offset;    /* tsc-offset (printed signed; modulo 2^64 here) */
	u64 ratio;     /* tsc-scaling-ratio, 0: no scaling */
	unsigned frac; /* tsc-scaling-ratio-frac-bits */
	bool known;    /* read */
};

/* One kvm:kvm_pvclock_update. */
struct kvm_pvclock_rec {
	unsigned vcpu;
	u64 tsc_timestamp, system_time;
	unsigned mul;
	signed char shift;
};

struct kvmclock {
	char dir[256]; /* DEBUGFS/kvm/PID-FD ("" in unit tests that set vcpus by hand) */
	struct kvm_vcpu_tsc *vcpus;
	unsigned nr_vcpus;
	struct kvm_update {
		u64 time;  /* perf time of the update */
		u64 ratio; /* the vCPU's scaling then */
		unsigned frac;
		struct clock_pvclock p; /* with the vCPU's tsc_offset then */
	} * upd;
	unsigned nr_upd, cap_upd;
	u64 nr_unknown; /* times asked before the first update */
	u64 nr_no_vcpu; /* updates of a vCPU whose offset could not be read */
};

/*
 * The debugfs directory of the guest (@debugfs "/sys/kernel/debug"): 0 with
 * @k->dir set and every vcpuN's TSC read; -ENOENT when @debugfs has no
 * kvm/PID-FD (not mounted, or no such VM), -ENODEV when it has no vcpuN
 * with a readable tsc-offset.
 */
int kvmclock__open_dir(struct kvmclock *k, const char *debugfs, pid_t pid, int vm_fd);
/* Set vCPU @vcpu's TSC by hand (tests; debugfs-less callers). */
int kvmclock__set_vcpu(struct kvmclock *k, unsigned vcpu, const struct kvm_vcpu_tsc *t);
/* Re-read vCPU @vcpu's files (k->dir): 0 or -errno (the old values stay). */
int kvmclock__read_vcpu(struct kvmclock *k, unsigned vcpu);
/*
 * An update at perf time @time (updates come in time order; one out of
 * order is put in its place).  Re-reads the vCPU's TSC when k->dir is set.
 * 0, -ENOENT (a vCPU whose TSC offset is not known: left out, counted),
 * -ENOMEM.
 */
int kvmclock__update(struct kvmclock *k, u64 time, const struct kvm_pvclock_rec *r);
/* Host TSC -> guest TSC of a vCPU. */
u64 kvmclock__guest_tsc(const struct kvm_vcpu_tsc *t, u64 host_tsc);
/*
 * Perf time @time (@c: its TSC conversion) as the kvmclock, ns: 0 with
 * *@ns, -EAGAIN before the first update (counted in nr_unknown).
 */
int kvmclock__convert(struct kvmclock *k, const struct clock_tsc *c, u64 time, u64 *ns);
/*
 * The kernel filter that keeps the threads of process @pid (under
 * @proc_root) where KVM updates the pvclock: its vCPU threads as qemu names
 * them ("CPU 0/KVM"), or every thread when none is so named:
 * "common_pid == T1 || common_pid == T2 ...".  0, -ENOENT (no such
 * process), -ENOSPC (@len too small: the kernel takes a page at most).
 */
int kvmclock__filter(const char *proc_root, pid_t pid, char *buf, size_t len);
void kvmclock__free(struct kvmclock *k);

#endif
