// SPDX-License-Identifier: GPL-2.0
/* CPU time by mode: /proc/stat and software-clock samples (analysis/cpu/cpustat.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <asm/perf_regs.h>
#endif

#include "analysis/cpu/cpustat.h"

int cpustat__parse(const char *text, struct cpustat_times *t, int max)
{
	const char *p = text;
	int n = 0;

	for (int i = 0; i < max; i++)
		t[i].valid = false;
	while (p && *p) {
		unsigned long long v[10] = { 0 };
		char *end;
		long cpu;

		if (!strncmp(p, "cpu", 3) && p[3] >= '0' && p[3] <= '9') {
			cpu = strtol(p + 3, &end, 10);
			/* older kernels have fewer columns: the missing ones are 0 */
			for (int k = 0; k < 10 && *end == ' '; k++)
				v[k] = strtoull(end, &end, 10);
			if (cpu >= 0 && cpu < max) {
				t[cpu] = (struct cpustat_times){ .user = v[0],
								 .nice = v[1],
								 .system = v[2],
								 .idle = v[3],
								 .iowait = v[4],
								 .irq = v[5],
								 .softirq = v[6],
								 .steal = v[7],
								 .guest = v[8],
								 .guest_nice = v[9],
								 .valid = true };
				n++;
			}
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n ? n : -EINVAL;
}

int cpustat__read(struct cpustat_times *t, int max)
{
	size_t cap = 16384, len = 0;
	char *buf = malloc(cap);
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		free(buf);
		if (fd >= 0)
			close(fd);
		return err;
	}
	/* a host with many CPUs has a long file: read it whole */
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (len + 1 == cap) {
			char *b = realloc(buf, cap * 2);

			if (!b) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = b;
			cap *= 2;
		}
	}
	err = n < 0 ? -errno : 0;
	close(fd);
	buf[len] = 0;
	if (!err)
		err = cpustat__parse(buf, t, max);
	free(buf);
	return err;
}

static u64 delta(u64 a, u64 b)
{
	return b > a ? b - a : 0; /* a CPU that went offline and back restarts its counts */
}

void cpustat__share(const struct cpustat_times *a, const struct cpustat_times *b,
		    struct cpustat_share *sh)
{
	u64 user, guest, sys, idle, steal, all;

	memset(sh, 0, sizeof(*sh));
	if (!a->valid || !b->valid)
		return;
	guest = delta(a->guest, b->guest) + delta(a->guest_nice, b->guest_nice);
	user = delta(a->user, b->user) + delta(a->nice, b->nice);
	/* the kernel counts guest time in user (and nice) too */
	all = user + delta(a->system, b->system) + delta(a->idle, b->idle) +
	      delta(a->iowait, b->iowait) + delta(a->irq, b->irq) + delta(a->softirq, b->softirq) +
	      delta(a->steal, b->steal);
	user = user > guest ? user - guest : 0;
	sys = delta(a->system, b->system) + delta(a->irq, b->irq) + delta(a->softirq, b->softirq);
	idle = delta(a->idle, b->idle) + delta(a->iowait, b->iowait);
	steal = delta(a->steal, b->steal);
	sh->ticks = all;
	if (!all)
		return;
	sh->user = 100.0 * (double)user / (double)all;
	sh->sys = 100.0 * (double)sys / (double)all;
	sh->guest = 100.0 * (double)guest / (double)all;
	sh->steal = 100.0 * (double)steal / (double)all;
	sh->idle = 100.0 * (double)idle / (double)all;
}

/* x86-64's legacy vsyscall page: user mode at an address of the kernel's half */
static bool vsyscall(u64 ip)
{
#if defined(__x86_64__)
	return (ip & ~0xfffULL) == 0xffffffffff600000ULL;
#else
	(void)ip;
	return false; /* elsewhere that address is the kernel's */
#endif
}

enum cpu_mode cpu_mode__of(u32 tid, u64 ip, const u64 *intr_ip)
{
	if (!tid)
		return CPU_IDLE;
	if (intr_ip && *intr_ip != ip)
		return CPU_GUEST;
	if ((ip >> 63) && !vsyscall(ip))
		return CPU_KERNEL;
	return CPU_USER;
}

enum cpu_mode cpu_mode__of_misc(u32 tid, unsigned misc, u64 ip)
{
	if (!tid)
		return CPU_IDLE;
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
	case PERF_RECORD_MISC_HYPERVISOR:
		return CPU_KERNEL;
	case PERF_RECORD_MISC_USER:
		return CPU_USER;
	case PERF_RECORD_MISC_GUEST_KERNEL:
	case PERF_RECORD_MISC_GUEST_USER:
		return CPU_GUEST;
	default:
		return cpu_mode__of(tid, ip, NULL);
	}
}

u64 cpu_mode__intr_mask(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return 1ULL << PERF_REG_X86_IP;
#else
	return 0;
#endif
}

const char *cpu_mode__name(enum cpu_mode m)
{
	static const char *const names[] = { "idle", "user", "kernel", "guest" };

	return m < NR_CPU_MODES ? names[m] : "?";
}
