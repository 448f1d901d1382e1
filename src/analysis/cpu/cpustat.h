/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU time by mode, two ways: the kernel's own accounting (/proc/stat,
 * per CPU, in USER_HZ ticks) and samples of a software clock (each
 * sample's mode: idle, user, kernel or guest).
 */
#ifndef PP_CPUSTAT_H
#define PP_CPUSTAT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/sample.h"

/* One CPU's line of /proc/stat, in ticks (guest time is also in user / nice). */
struct cpustat_times {
	u64 user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice;
	bool valid; /* the line was there */
};

/*
 * Parse the text of /proc/stat: the "cpuN" lines into @t[N] for N < @max
 * (the others are left invalid).  Returns the number of lines read, or
 * -EINVAL when there is none.
 */
int cpustat__parse(const char *text, struct cpustat_times *t, int max);
/* Read /proc/stat the same way: the number of lines, or -errno. */
int cpustat__read(struct cpustat_times *t, int max);

/* Percentages of one CPU's ticks between two reads. */
struct cpustat_share {
	double user;  /* user + nice, without guest */
	double sys;   /* system + irq + softirq */
	double guest; /* guest + guest_nice */
	double steal;
	double idle; /* idle + iowait */
	u64 ticks;   /* all the ticks between the reads (0: nothing to tell) */
};
void cpustat__share(const struct cpustat_times *before, const struct cpustat_times *after,
		    struct cpustat_share *sh);

enum cpu_mode { CPU_IDLE, CPU_USER, CPU_KERNEL, CPU_GUEST, NR_CPU_MODES };

/*
 * The mode a sample of a software clock interrupted.  @ip: the sample's
 * (in a guest: the guest's ip, as the kernel reports it); @intr_ip: the ip
 * of the interrupted host context (PERF_SAMPLE_REGS_INTR), or NULL.  The
 * two differ only when a guest ran: that is how the host tells guest time
 * without the record's misc bits.  Kernel mode is the upper half of the
 * address space (x86-64: the vsyscall page there is user mode); tid 0 is
 * the idle task.
 */
enum cpu_mode cpu_mode__of(u32 tid, u64 ip, const u64 *intr_ip);
/*
 * The same from the record's misc bits (struct sample's misc), which the
 * kernel fills from the interrupted registers: user, kernel (or
 * hypervisor), guest user or kernel.  A record without a cpumode falls back
 * to cpu_mode__of(@tid, @ip, NULL).
 */
enum cpu_mode cpu_mode__of_misc(u32 tid, unsigned misc, u64 ip);
/* The register mask that gives cpu_mode__of its @intr_ip (0 where unknown). */
u64 cpu_mode__intr_mask(void);
/* "idle", "user", "kernel", "guest" */
const char *cpu_mode__name(enum cpu_mode m);

#endif
