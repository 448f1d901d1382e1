// SPDX-License-Identifier: GPL-2.0
/*
 * --kvmclock's whole chain on synthesized data: host perf time -> host TSC
 * -> a vCPU's guest TSC (debugfs offset, scaling) -> kvmclock through the
 * pvclock of the latest kvm:kvm_pvclock_update; updates mid-run, several
 * vCPUs with different offsets, the debugfs files and the threads' filter.
 * Every expected number is worked out by hand in the comments.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/kvmclock.h"
#include "tmp_tree.h"
#include "ut.h"

/*
 * The host: perf time = time_zero + tsc * 2^30 >> 31 = 1000 + tsc / 2, so a
 * perf time t is host TSC (t - 1000) * 2: 2 ticks a ns.
 */
static const struct clock_tsc host = { .time_shift = 31, .time_mult = 1U << 30, .time_zero = 1000 };

/* The guest's pvclock for 2 ticks a ns: shift 0, mul 2^31 (ns = delta * 2^31 >> 32). */
static struct kvm_pvclock_rec upd(unsigned vcpu, u64 tsc_timestamp, u64 system_time)
{
	return (struct kvm_pvclock_rec){ .vcpu = vcpu,
					 .tsc_timestamp = tsc_timestamp,
					 .system_time = system_time,
					 .mul = 0x80000000U,
					 .shift = 0 };
}

#define CHECK_U64(a, b)                                                                  \
	CHECK((u64)(a) == (u64)(b), "%s = %llu, want %llu", #a, (unsigned long long)(a), \
	      (unsigned long long)(b))

static u64 conv(struct kvmclock *k, u64 t)
{
	u64 ns = 0;

	CHECK(kvmclock__convert(k, &host, t, &ns) == 0, "time %llu: not converted",
	      (unsigned long long)t);
	return ns;
}

static void test_chain(void)
{
	struct kvmclock k = { 0 };
	/* vCPU 0's TSC is the host's + 1,000,000; vCPU 1's + 3,000,000 */
	struct kvm_vcpu_tsc v0 = { .offset = 1000000 }, v1 = { .offset = 3000000 };
	struct kvm_pvclock_rec r;
	u64 ns;

	CHECK_INT(kvmclock__set_vcpu(&k, 0, &v0), 0);
	CHECK_INT(kvmclock__set_vcpu(&k, 1, &v1), 0);
	/* before any update: unknown, and counted */
	CHECK_INT(kvmclock__convert(&k, &host, 9000, &ns), -EAGAIN);
	CHECK_U64(k.nr_unknown, 1);

	/*
	 * Update A, vCPU 0, at perf time 10,000: host TSC (10000 - 1000) * 2 =
	 * 18,000, guest TSC 1,018,000, when the guest's kvmclock was 5 s.
	 */
	r = upd(0, 1018000, 5000000000ULL);
	CHECK_INT(kvmclock__update(&k, 10000, &r), 0);
	/* 9,000 is still before it */
	CHECK_INT(kvmclock__convert(&k, &host, 9000, &ns), -EAGAIN);
	/* at A itself: 5 s */
	CHECK_U64(conv(&k, 10000), 5000000000ULL);
	/* 12,000: host TSC 22,000, guest 1,022,000, 4,000 ticks after A = 2,000 ns */
	CHECK_U64(conv(&k, 12000), 5000002000ULL);
	/* 19,999: host 37,998, guest 1,037,998, 19,998 ticks = 9,999 ns */
	CHECK_U64(conv(&k, 19999), 5000009999ULL);

	/*
	 * Update B, vCPU 1 (another offset), mid-run at 20,000: host TSC
	 * 38,000, vCPU 1's TSC 3,038,000; KVM stepped the clock by 7 ns (A's
	 * pvclock would say 5,000,010,000 then, B says 5,000,010,007).
	 */
	r = upd(1, 3038000, 5000010007ULL);
	CHECK_INT(kvmclock__update(&k, 20000, &r), 0);
	/* times before B keep A's parameters, from B on B's */
	CHECK_U64(conv(&k, 19999), 5000009999ULL);
	CHECK_U64(conv(&k, 20000), 5000010007ULL);
	/* 30,000: host 58,000, vCPU 1's TSC 3,058,000, 20,000 ticks after B = 10,000 ns */
	CHECK_U64(conv(&k, 30000), 5000020007ULL);

	/*
	 * An update read late (C, vCPU 0, at 25,000, while B is already in):
	 * it goes into its place.  At 25,000 the host TSC is 48,000, vCPU 0's
	 * 1,048,000; C says 5,000,015,100 then (B would say 5,000,015,007).
	 * 30,000 is 10,000 ticks after C: 5,000,020,100; 22,000 is still B's:
	 * host 42,000, vCPU 1's 3,042,000, 4,000 ticks after B, 2,000 ns.
	 */
	r = upd(0, 1048000, 5000015100ULL);
	CHECK_INT(kvmclock__update(&k, 25000, &r), 0);
	CHECK_U64(conv(&k, 30000), 5000020100ULL);
	CHECK_U64(conv(&k, 22000), 5000012007ULL);
	CHECK_U64(conv(&k, 12000), 5000002000ULL);
	CHECK_U64(k.nr_unknown, 2);

	/* a vCPU whose offset is not known: its update is left out, counted */
	r = upd(7, 1, 1);
	CHECK_INT(kvmclock__update(&k, 40000, &r), -ENOENT);
	CHECK_U64(k.nr_no_vcpu, 1);
	/* C's: host 78,000, vCPU 0's 1,078,000, 30,000 ticks after C = 15,000 ns */
	CHECK_U64(conv(&k, 40000), 5000030100ULL);
	kvmclock__free(&k);
}

static void test_scaling_and_sign(void)
{
	/* TSC scaling 1.5 in 48 fraction bits (3 * 2^47): host 1,000 -> 1,500, + 100 */
	struct kvm_vcpu_tsc s = { .offset = 100, .ratio = 3ULL << 47, .frac = 48 };
	/* a negative offset (debugfs prints it signed): -1,000 modulo 2^64 */
	struct kvm_vcpu_tsc n = { .offset = (u64)-1000LL };
	struct clock_pvclock p = { .tsc_timestamp = 1000,
				   .system_time = 1000000000ULL,
				   .mul = 0x80000000U };

	CHECK_U64(kvmclock__guest_tsc(&s, 1000), 1600);
	CHECK_U64(kvmclock__guest_tsc(&n, 5000), 4000);
	/* no ratio: no scaling */
	n.ratio = 0;
	CHECK_U64(kvmclock__guest_tsc(&n, 1000), 0);
	/* a TSC 200 ticks before tsc_timestamp is 100 ns before system_time */
	CHECK_U64(clock__tsc_to_kvmclock(&p, 800), 999999900ULL);
	CHECK_U64(clock__tsc_to_kvmclock(&p, 1200), 1000000100ULL);
}

static void test_debugfs(void)
{
	struct kvmclock k = { 0 };
	struct kvm_pvclock_rec r;

	tmp_tree__dir("kvm");
	tmp_tree__dir("kvm/100-17");
	tmp_tree__dir("kvm/100-17/vcpu0");
	tmp_tree__dir("kvm/100-17/vcpu1");
	tmp_tree__dir("kvm/100-17/vcpux");
	tmp_tree__put("kvm/100-17/vcpu0/tsc-offset", "-1000000\n");
	tmp_tree__put("kvm/100-17/vcpu1/tsc-offset", "3000000\n");
	tmp_tree__put("kvm/100-17/vcpu1/tsc-scaling-ratio", "422212465065984\n"); /* 1.5 * 2^48 */
	tmp_tree__put("kvm/100-17/vcpu1/tsc-scaling-ratio-frac-bits", "48\n");
	tmp_tree__dir("kvm/200-9");
	tmp_tree__dir("kvm/200-9/vcpu0");

	CHECK_INT(kvmclock__open_dir(&k, tmp_root, 100, 17), 0);
	CHECK_INT(k.nr_vcpus, 2);
	CHECK_U64(k.vcpus[0].offset, (u64)-1000000LL);
	CHECK_U64(k.vcpus[0].ratio, 0);
	CHECK_U64(k.vcpus[1].offset, 3000000);
	CHECK_U64(k.vcpus[1].ratio, 422212465065984ULL);
	CHECK_INT(k.vcpus[1].frac, 48);
	/* host 2,000,000 -> vCPU 1: 3,000,000 + 3,000,000 = 6,000,000 */
	CHECK_U64(kvmclock__guest_tsc(&k.vcpus[1], 2000000), 6000000);

	/* an update re-reads the vCPU's offset: the guest wrote its TSC since */
	tmp_tree__put("kvm/100-17/vcpu0/tsc-offset", "5\n");
	r = upd(0, 0, 0);
	CHECK_INT(kvmclock__update(&k, 1000, &r), 0);
	CHECK_U64(k.upd[0].p.tsc_offset, 5);
	kvmclock__free(&k);

	CHECK_INT(kvmclock__open_dir(&k, tmp_root, 100, 18), -ENOENT); /* no such VM */
	kvmclock__free(&k);
	CHECK_INT(kvmclock__open_dir(&k, tmp_root, 200, 9), -ENODEV); /* no tsc-offset */
	kvmclock__free(&k);
}

static void test_filter(void)
{
	char buf[256];

	tmp_tree__dir("300");
	tmp_tree__dir("300/task");
	tmp_tree__dir("300/task/300");
	tmp_tree__dir("300/task/301");
	tmp_tree__dir("300/task/302");
	tmp_tree__put("300/task/300/comm", "qemu-system-x86\n");
	tmp_tree__put("300/task/301/comm", "CPU 0/KVM\n");
	tmp_tree__put("300/task/302/comm", "CPU 1/KVM\n");
	tmp_tree__dir("400");
	tmp_tree__dir("400/task");
	tmp_tree__dir("400/task/400");
	tmp_tree__put("400/task/400/comm", "kvm_guest\n");

	/* the vCPU threads only, in readdir's order */
	CHECK_INT(kvmclock__filter(tmp_root, 300, buf, sizeof(buf)), 0);
	CHECK(!strcmp(buf, "common_pid == 301 || common_pid == 302") ||
		      !strcmp(buf, "common_pid == 302 || common_pid == 301"),
	      "%s", buf);
	/* none named CPU N/KVM: every thread */
	CHECK_INT(kvmclock__filter(tmp_root, 400, buf, sizeof(buf)), 0);
	CHECK(!strcmp(buf, "common_pid == 400"), "%s", buf);
	CHECK_INT(kvmclock__filter(tmp_root, 300, buf, 20), -ENOSPC);
	CHECK_INT(kvmclock__filter(tmp_root, 500, buf, sizeof(buf)), -ENOENT);
}

int main(void)
{
	test_chain();
	test_scaling_and_sign();
	if (tmp_tree__make("kvmclock")) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
	} else {
		test_debugfs();
		test_filter();
		tmp_tree__remove(tmp_root);
	}
	return ut_done("kvmclock");
}
