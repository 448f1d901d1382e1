/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clocks times can be printed in (clock_group, engine/conf.h): the
 * conversions from a perf time, and what the host is asked for them.
 *
 * perf time -> TSC: the kernel publishes, in the first page of an event's
 * ring (struct perf_event_mmap_page), how perf's own clock (sched_clock:
 * the clock of an event opened without use_clockid) is computed from the
 * TSC: time = time_zero + (tsc * time_mult) >> time_shift.  It does so
 * (cap_user_time_zero) only when sched_clock runs on a stable TSC; on a VM
 * whose sched_clock is kvm-clock it does not, and --tsc is refused.
 *
 * TSC -> a guest's kvmclock: guest TSC = host TSC + the vCPU's tsc-offset,
 * and kvmclock = system_time + ((guest TSC - tsc_timestamp) scaled by the
 * pvclock's 2^shift and mul / 2^32), the pvclock the host last gave the
 * guest.
 */
#ifndef PP_CLOCKOPT_H
#define PP_CLOCKOPT_H

#include <stdbool.h>
#include <sys/types.h>

#include "engine/conf.h"

/* A perf time (sched_clock ns) as TSC ticks. */
u64 clock__perf_to_tsc(const struct clock_tsc *c, u64 time);
/* TSC ticks as a perf time: the kernel's formula. */
u64 clock__tsc_to_perf(const struct clock_tsc *c, u64 tsc);

/* What the host gave a guest vCPU: its tsc-offset and its last pvclock. */
struct clock_pvclock {
	u64 tsc_offset;	   /* guest TSC - host TSC (modulo 2^64) */
	u64 tsc_timestamp; /* the pvclock's guest TSC ... */
	u64 system_time;   /* ... and its kvmclock then, ns */
	unsigned mul;	   /* tsc_to_system_mul */
	signed char shift; /* tsc_shift */
};
/* A host TSC as the guest's kvmclock (ns). */
u64 clock__tsc_to_kvmclock(const struct clock_pvclock *p, u64 host_tsc);

/*
 * Ask the kernel for perf time <-> TSC (a dummy event on this thread, its
 * first ring page): 0 with @c filled in, -EOPNOTSUPP when the host does not
 * give it (no stable TSC under sched_clock, or not x86), -errno when the
 * event cannot be opened.
 */
int clock__probe_tsc(struct clock_tsc *c);
/* The perf clock now, from the TSC (after clock__probe_tsc said yes). */
u64 clock__tsc_perf_now(const struct clock_tsc *c);

/* "8ab13543-95fc-4a78-9056-d605a03e9033": 8-4-4-4-12 hex digits. */
bool clock__uuid_ok(const char *uuid);
/*
 * The KVM guest with @uuid: a process under @proc_root ("/proc") whose
 * command line has "-uuid UUID" (as libvirt starts qemu) and that holds a
 * KVM VM (an fd on anon_inode:kvm-vm).  0 with *@pid and *@vm_fd, -ENOENT
 * when no process runs it, -ENODEV when one does without KVM (*@pid set).
 */
int clock__find_guest(const char *proc_root, const char *uuid, pid_t *pid, int *vm_fd);

#endif
