// SPDX-License-Identifier: GPL-2.0
/* --kvmclock: a guest's vCPU TSCs (debugfs), its pvclock updates, and the conversion. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/kvmclock.h"
#include "engine/procfs.h"

typedef unsigned __int128 u128;

#define KVM_UPDATES_MAX 4096 /* kept; beyond, the older half is dropped */

/* The number in @dir/@name: 0 with *@v, -errno. Signed ("%lld") is taken modulo 2^64. */
static int read_num(const char *dir, const char *name, u64 *v)
{
	char path[512], buf[64], *end;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	n = procfs__read(path, buf, sizeof(buf));
	if (n <= 0)
		return n < 0 ? (int)n : -EINVAL;
	errno = 0;
	if (buf[0] == '-')
		*v = (u64)strtoll(buf, &end, 10);
	else
		*v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

static int grow_vcpus(struct kvmclock *k, unsigned vcpu)
{
	struct kvm_vcpu_tsc *v;

	if (vcpu < k->nr_vcpus)
		return 0;
	if (vcpu > 4095) /* KVM's own limit is lower: a bogus vcpu_id */
		return -EINVAL;
	v = realloc(k->vcpus, (vcpu + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memset(v + k->nr_vcpus, 0, (vcpu + 1 - k->nr_vcpus) * sizeof(*v));
	k->vcpus = v;
	k->nr_vcpus = vcpu + 1;
	return 0;
}

int kvmclock__set_vcpu(struct kvmclock *k, unsigned vcpu, const struct kvm_vcpu_tsc *t)
{
	int e = grow_vcpus(k, vcpu);

	if (e)
		return e;
	k->vcpus[vcpu] = *t;
	k->vcpus[vcpu].known = true;
	return 0;
}

int kvmclock__read_vcpu(struct kvmclock *k, unsigned vcpu)
{
	struct kvm_vcpu_tsc t = { 0 };
	char dir[320];
	u64 frac = 0;
	int e;

	if (!k->dir[0])
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/vcpu%u", k->dir, vcpu);
	e = read_num(dir, "tsc-offset", &t.offset);
	if (e)
		return e;
	/* only where the CPU scales the TSC (kvm_has_tsc_control) */
	if (read_num(dir, "tsc-scaling-ratio", &t.ratio) ||
	    read_num(dir, "tsc-scaling-ratio-frac-bits", &frac) || frac >= 64 || !t.ratio)
		t.ratio = 0;
	t.frac = t.ratio ? (unsigned)frac : 0;
	return kvmclock__set_vcpu(k, vcpu, &t);
}

int kvmclock__open_dir(struct kvmclock *k, const char *debugfs, pid_t pid, int vm_fd)
{
	struct dirent *d;
	int nr = 0;
	DIR *dir;

	snprintf(k->dir, sizeof(k->dir), "%s/kvm/%d-%d", debugfs, (int)pid, vm_fd);
	dir = opendir(k->dir);
	if (!dir) {
		k->dir[0] = 0;
		return -ENOENT;
	}
	while ((d = readdir(dir))) {
		char *end;
		unsigned long n;

		if (strncmp(d->d_name, "vcpu", 4) || !isdigit((unsigned char)d->d_name[4]))
			continue;
		n = strtoul(d->d_name + 4, &end, 10);
		if (*end || n > 4095)
			continue;
		if (!kvmclock__read_vcpu(k, (unsigned)n))
			nr++;
	}
	closedir(dir);
	return nr ? 0 : -ENODEV;
}

u64 kvmclock__guest_tsc(const struct kvm_vcpu_tsc *t, u64 host_tsc)
{
	u64 tsc = host_tsc;

	if (t->ratio)
		tsc = (u64)(((u128)host_tsc * t->ratio) >> t->frac);
	return tsc + t->offset;
}

int kvmclock__update(struct kvmclock *k, u64 time, const struct kvm_pvclock_rec *r)
{
	struct kvm_update *u;
	unsigned at;

	/* the offset now: re-read (a TSC write changes it, and KVM then updates the pvclock) */
	if (k->dir[0])
		kvmclock__read_vcpu(k, r->vcpu);
	if (r->vcpu >= k->nr_vcpus || !k->vcpus[r->vcpu].known) {
		k->nr_no_vcpu++;
		return -ENOENT;
	}
	if (k->nr_upd == KVM_UPDATES_MAX) {
		k->nr_upd /= 2;
		memmove(k->upd, k->upd + KVM_UPDATES_MAX / 2, k->nr_upd * sizeof(*k->upd));
	}
	if (k->nr_upd == k->cap_upd) {
		unsigned cap = k->cap_upd ? k->cap_upd * 2 : 16;

		u = realloc(k->upd, cap * sizeof(*u));
		if (!u)
			return -ENOMEM;
		k->upd = u;
		k->cap_upd = cap;
	}
	/* in time order: an update read late goes into its place */
	for (at = k->nr_upd; at > 0 && k->upd[at - 1].time > time; at--)
		;
	memmove(k->upd + at + 1, k->upd + at, (k->nr_upd - at) * sizeof(*k->upd));
	k->nr_upd++;
	u = &k->upd[at];
	u->time = time;
	u->ratio = k->vcpus[r->vcpu].ratio;
	u->frac = k->vcpus[r->vcpu].frac;
	u->p = (struct clock_pvclock){
		.tsc_offset = k->vcpus[r->vcpu].offset,
		.tsc_timestamp = r->tsc_timestamp,
		.system_time = r->system_time,
		.mul = r->mul,
		.shift = r->shift,
	};
	return 0;
}

int kvmclock__convert(struct kvmclock *k, const struct clock_tsc *c, u64 time, u64 *ns)
{
	unsigned lo = 0, hi = k->nr_upd;
	const struct kvm_update *u;
	struct kvm_vcpu_tsc t;
	struct clock_pvclock p;

	/* the last update at or before @time */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (k->upd[mid].time <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		k->nr_unknown++;
		return -EAGAIN;
	}
	u = &k->upd[lo - 1];
	t = (struct kvm_vcpu_tsc){ .offset = u->p.tsc_offset, .ratio = u->ratio, .frac = u->frac };
	p = u->p;
	p.tsc_offset = 0; /* applied (after the scaling) here */
	*ns = clock__tsc_to_kvmclock(&p, kvmclock__guest_tsc(&t, clock__perf_to_tsc(c, time)));
	return 0;
}

/* Whether thread @tid of @pid is a vCPU thread as qemu names them ("CPU 0/KVM"). */
static bool vcpu_thread(const char *task_dir, const char *tid)
{
	char path[600], comm[32];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/comm", task_dir, tid);
	if (procfs__read(path, comm, sizeof(comm)) <= 0)
		return false;
	comm[strcspn(comm, "\n")] = 0;
	n = (ssize_t)strlen(comm);
	return !strncmp(comm, "CPU ", 4) && n > 4 && !strcmp(comm + n - 4, "/KVM");
}

/* The threads of @dir (all, or the vCPU threads only) as the filter in @buf. */
static int filter_of(const char *dir_path, bool vcpus_only, char *buf, size_t len)
{
	struct dirent *d;
	size_t at = 0;
	int ret = 0;
	DIR *dir;

	dir = opendir(dir_path);
	if (!dir)
		return -ENOENT;
	if (len)
		buf[0] = 0;
	while ((d = readdir(dir))) {
		int n;

		if (!isdigit((unsigned char)d->d_name[0]) ||
		    (vcpus_only && !vcpu_thread(dir_path, d->d_name)))
			continue;
		n = snprintf(buf + at, len - at, "%scommon_pid == %s", at ? " || " : "", d->d_name);
		if (n < 0 || (size_t)n >= len - at) {
			ret = -ENOSPC;
			break;
		}
		at += (size_t)n;
	}
	closedir(dir);
	if (!ret && !at)
		ret = -ENOENT;
	return ret;
}

int kvmclock__filter(const char *proc_root, pid_t pid, char *buf, size_t len)
{
	char path[512];
	int e;

	snprintf(path, sizeof(path), "%s/%d/task", proc_root, (int)pid);
	/* qemu's vCPU threads, where KVM updates the pvclock; else every thread */
	e = filter_of(path, true, buf, len);
	if (e == -ENOENT)
		e = filter_of(path, false, buf, len);
	return e;
}

void kvmclock__free(struct kvmclock *k)
{
	free(k->vcpus);
	free(k->upd);
	memset(k, 0, sizeof(*k));
}
