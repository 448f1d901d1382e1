// SPDX-License-Identifier: GPL-2.0
/* The clock group (--tsc, --clock-offset, --monotonic, --kvmclock) and its conversions. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/clockopt.h"
#include "engine/kvmclock.h"
#include "engine/procfs.h"

#define DEBUGFS "/sys/kernel/debug"
#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC 0x64626720
#endif

typedef unsigned __int128 u128;

u64 clock__tsc_to_perf(const struct clock_tsc *c, u64 tsc)
{
	return c->time_zero + (u64)(((u128)tsc * c->time_mult) >> c->time_shift);
}

u64 clock__perf_to_tsc(const struct clock_tsc *c, u64 time)
{
	/* the inverse of the kernel's formula, rounded down (within a tick) */
	if (!c->time_mult)
		return 0;
	if (time >= c->time_zero)
		return (u64)(((u128)(time - c->time_zero) << c->time_shift) / c->time_mult);
	return -(u64)(((u128)(c->time_zero - time) << c->time_shift) / c->time_mult);
}

u64 clock__tsc_to_kvmclock(const struct clock_pvclock *p, u64 host_tsc)
{
	u64 delta = host_tsc + p->tsc_offset - p->tsc_timestamp;
	bool before = (long long)delta < 0; /* a time before tsc_timestamp */
	u64 ns;

	if (before)
		delta = -delta;
	/* the guest's own scaling: 2^shift first, then mul / 2^32 */
	if (p->shift < 0)
		delta >>= -p->shift;
	else
		delta <<= p->shift;
	ns = (u64)(((u128)delta * p->mul) >> 32);
	return before ? p->system_time - ns : p->system_time + ns;
}

#if defined(__x86_64__) || defined(__i386__)
static u64 read_tsc(void)
{
	return __builtin_ia32_rdtsc();
}
#define HAVE_TSC 1
#else
static u64 read_tsc(void)
{
	return 0;
}
#define HAVE_TSC 0
#endif

u64 clock__tsc_perf_now(const struct clock_tsc *c)
{
	return clock__tsc_to_perf(c, read_tsc());
}

int clock__probe_tsc(struct clock_tsc *c)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	long psz = sysconf(_SC_PAGESIZE);
	volatile struct perf_event_mmap_page *pg;
	bool zero = false;
	int fd, err = 0;

	memset(c, 0, sizeof(*c));
	if (!HAVE_TSC)
		return -EOPNOTSUPP;
	/* perf's own clock (no use_clockid): the kernel gives time_zero only for it */
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	pg = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	for (int tries = 0; tries < 1000; tries++) {
		unsigned seq = pg->lock;

		__sync_synchronize();
		zero = pg->cap_user_time_zero;
		c->time_shift = pg->time_shift;
		c->time_mult = pg->time_mult;
		c->time_zero = pg->time_zero;
		__sync_synchronize();
		if (pg->lock == seq)
			break;
	}
	munmap((void *)pg, (size_t)psz);
	close(fd);
	if (!zero || !c->time_mult || c->time_shift >= 64) {
		memset(c, 0, sizeof(*c));
		return -EOPNOTSUPP;
	}
	return 0;
}

bool clock__uuid_ok(const char *u)
{
	static const int groups[] = { 8, 4, 4, 4, 12 };

	for (int g = 0; g < 5; g++) {
		for (int i = 0; i < groups[g]; i++, u++)
			if (!isxdigit((unsigned char)*u))
				return false;
		if (*u != (g == 4 ? 0 : '-'))
			return false;
		u += g < 4;
	}
	return true;
}

/* The process's command line has "-uuid @uuid" (or "-uuid=@uuid"). */
static bool runs_uuid(const char *proc_root, const char *pid, const char *uuid)
{
	char path[512], buf[8192];
	bool hit = false;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/cmdline", proc_root, pid);
	n = procfs__read(path, buf, sizeof(buf));
	if (n <= 0)
		return false;
	for (char *w = buf, *prev = NULL; w < buf + n; prev = w, w += strlen(w) + 1) {
		if (prev && !strcmp(prev, "-uuid") && !strcasecmp(w, uuid))
			hit = true;
		if (!strncmp(w, "-uuid=", 6) && !strcasecmp(w + 6, uuid))
			hit = true;
	}
	return hit;
}

/* The fd of the process's KVM VM, or -1. */
static int vm_fd_of(const char *proc_root, const char *pid)
{
	char path[512], link[64];
	struct dirent *d;
	int vm = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%s/fd", proc_root, pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while (vm < 0 && (d = readdir(dir))) {
		char fpath[800];
		ssize_t n;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(fpath, sizeof(fpath), "%s/%s", path, d->d_name);
		n = readlink(fpath, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (!strcmp(link, "anon_inode:kvm-vm"))
			vm = atoi(d->d_name);
	}
	closedir(dir);
	return vm;
}

int clock__find_guest(const char *proc_root, const char *uuid, pid_t *pid, int *vm_fd)
{
	struct dirent *d;
	int ret = -ENOENT;
	DIR *dir;

	*pid = 0;
	*vm_fd = -1;
	dir = opendir(proc_root);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		int fd;

		if (!isdigit((unsigned char)d->d_name[0]) || !runs_uuid(proc_root, d->d_name, uuid))
			continue;
		*pid = (pid_t)atoi(d->d_name);
		fd = vm_fd_of(proc_root, d->d_name);
		if (fd >= 0) {
			*vm_fd = fd;
			ret = 0;
			break;
		}
		ret = -ENODEV;
	}
	closedir(dir);
	return ret;
}

/* --clock-offset N: decimal, -N or 0xHEX, modulo 2^64 (the original's 0xffee... is negative). */
static int opt_offset(void *data, const char *arg, char *err, size_t errlen)
{
	struct clock_opts *c = data;
	const char *p = arg;
	bool neg = *p == '-';
	u64 v = 0;
	int base = 10;

	p += neg || *p == '+';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		goto bad;
	for (; *p; p++) {
		int d = isdigit((unsigned char)*p)		    ? *p - '0'
			: base == 16 && isxdigit((unsigned char)*p) ? tolower(*p) - 'a' + 10
								    : -1;

		if (d < 0 || v > (~0ULL - (u64)d) / (u64)base)
			goto bad;
		v = v * (u64)base + (u64)d;
	}
	c->offset = neg ? -v : v;
	c->offset_set = true;
	return 0;
bad:
	snprintf(err, errlen,
		 "bad --clock-offset '%s' (an integer added to every time, in the printed clock's "
		 "unit: ns, TSC ticks with --tsc; e.g. 1000000, -500 or 0xffee6aba03eccaac)",
		 arg);
	return -1;
}

static int opt_kvmclock(void *data, const char *arg, char *err, size_t errlen)
{
	struct clock_opts *c = data;

	if (!clock__uuid_ok(arg)) {
		snprintf(err, errlen,
			 "bad --kvmclock '%s' (a guest's UUID, 8-4-4-4-12 hex digits as `virsh "
			 "list --uuid` prints them)",
			 arg);
		return -1;
	}
	c->kvmclock = arg;
	return 0;
}

static int tsc_refused(int e, const char *opt, char *err, size_t errlen)
{
	if (e == -EOPNOTSUPP)
		snprintf(err, errlen,
			 "%s: this host gives no conversion of perf time to TSC (the kernel "
			 "gives it only where sched_clock runs on a stable TSC%s)",
			 opt, HAVE_TSC ? ": not on kvm-clock or an unstable TSC" : ", on x86");
	else
		snprintf(err, errlen, "%s: cannot ask the kernel for the TSC conversion: %s", opt,
			 strerror(-e));
	return -1;
}

/* debugfs at DEBUGFS, mounted here when nothing is (as perf does): 0 or -errno. */
static int debugfs_mounted(void)
{
	struct statfs st;

	if (!statfs(DEBUGFS, &st) && st.f_type == DEBUGFS_MAGIC)
		return 0;
	if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL))
		return -errno;
	return 0;
}

/*
 * --kvmclock of guest @pid (VM fd @vm): what the run needs, each refused
 * with its reason: the vCPUs' TSC offsets (debugfs) and the tracepoint the
 * pvclock updates come from.
 */
static int guest_ready(struct clock_opts *c, pid_t pid, int vm, char *err, size_t errlen)
{
	struct kvmclock k = { 0 };
	int e;

	e = debugfs_mounted();
	if (e) {
		snprintf(err, errlen,
			 "--kvmclock: the vCPUs' TSC offsets are in debugfs, which is not mounted "
			 "and cannot be (%s): mount -t debugfs none " DEBUGFS,
			 strerror(-e));
		return -1;
	}
	e = kvmclock__open_dir(&k, DEBUGFS, pid, vm);
	kvmclock__free(&k);
	if (e) {
		snprintf(err, errlen,
			 "--kvmclock: guest %s (process %d) has no readable vCPU TSC offset "
			 "in " DEBUGFS "/kvm/%d-%d/vcpuN/tsc-offset (%s)",
			 c->kvmclock, (int)pid, (int)pid, vm,
			 e == -ENOENT ? "no such directory" : "no vcpuN/tsc-offset");
		return -1;
	}
	if (access("/sys/kernel/tracing/events/kvm/kvm_pvclock_update", F_OK) &&
	    access(DEBUGFS "/tracing/events/kvm/kvm_pvclock_update", F_OK)) {
		snprintf(err, errlen,
			 "--kvmclock: no tracepoint kvm:kvm_pvclock_update, where the guest's "
			 "pvclock comes from (tracefs not mounted, or a kernel without it)");
		return -1;
	}
	c->guest_pid = pid;
	c->guest_vm_fd = vm;
	return 0;
}

static int clock_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	struct clock_opts *c = data;
	pid_t pid;
	int e, vm;

	(void)set;
	if (c->tsc && c->kvmclock) {
		snprintf(err, errlen,
			 "--tsc and --kvmclock exclude each other (--kvmclock converts through "
			 "the TSC itself)");
		return -1;
	}
	if (c->monotonic && (c->tsc || c->kvmclock)) {
		snprintf(err, errlen,
			 "--monotonic and %s exclude each other (the TSC converts from perf's "
			 "own clock, not CLOCK_MONOTONIC)",
			 c->tsc ? "--tsc" : "--kvmclock");
		return -1;
	}
	if (c->kvmclock) {
		e = clock__find_guest("/proc", c->kvmclock, &pid, &vm);
		if (e == -ENODEV) {
			snprintf(err, errlen,
				 "--kvmclock: no KVM guest with UUID %s (process %d runs it "
				 "without KVM)",
				 c->kvmclock, (int)pid);
			return -1;
		}
		if (e) {
			snprintf(err, errlen,
				 "--kvmclock: no KVM guest with UUID %s (no process runs with "
				 "-uuid %s; `virsh list --uuid` lists the guests)",
				 c->kvmclock, c->kvmclock);
			return -1;
		}
		e = clock__probe_tsc(&c->conv);
		if (e)
			return tsc_refused(e, "--kvmclock", err, errlen);
		return guest_ready(c, pid, vm, err, errlen);
	}
	if (c->tsc) {
		e = clock__probe_tsc(&c->conv);
		if (e)
			return tsc_refused(e, "--tsc", err, errlen);
	}
	return 0;
}

static const struct popt clock_popts[] = {
	{ "tsc", 0, NULL,
	  "print times as TSC ticks (SECONDS.USEC of ticks / 10^9, as the original); refused "
	  "where the host gives no TSC conversion",
	  POPT_BIND_FLAG(struct clock_opts, tsc) },
	{ "clock-offset", 0, "N",
	  "add N to every printed time, in its unit: ns (TSC ticks with --tsc); -N or 0xHEX "
	  "(modulo 2^64) too",
	  POPT_CB, .cb = opt_offset },
	{ "monotonic", 0, NULL,
	  "events timed by CLOCK_MONOTONIC (always so here; times print as without it)",
	  POPT_BIND_FLAG(struct clock_opts, monotonic) },
	{ "kvmclock", 0, "UUID",
	  "print times as the kvmclock of the KVM guest UUID (SECONDS.USEC of ns since the VM "
	  "started; "
	  "needs a stable TSC, debugfs and kvm:kvm_pvclock_update; 0 before its first pvclock "
	  "update)",
	  POPT_CB, .cb = opt_kvmclock },
	{ 0 },
};

const struct opt_group clock_group = {
	.name = "clock",
	.opts = clock_popts,
	.size = sizeof(struct clock_opts),
	.check = clock_check,
};
