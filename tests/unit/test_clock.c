// SPDX-License-Identifier: GPL-2.0
/* The clock group: --clock-offset parsing, perf time <-> TSC, kvmclock, finding a guest. */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/clockopt.h"
#include "engine/conf.h"
#include "tmp_tree.h"
#include "ut.h"

static const struct popt *opt_named(const char *name)
{
	for (const struct popt *o = clock_group.opts; o->lname; o++)
		if (!strcmp(o->lname, name))
			return o;
	return NULL;
}

static int set(struct clock_opts *c, const char *name, const char *arg, char *err)
{
	return popt__set(opt_named(name), c, arg, err, 512);
}

static void test_offset(void)
{
	static const char *const bad[] = {
		"",    "0x", "12abc", "1.5", "18446744073709551616", "0x10000000000000000",
		"--1", "1s", "0x-1",  NULL
	};
	struct clock_opts c = { 0 };
	char err[512];

	CHECK_INT(set(&c, "clock-offset", "0xffee6aba03eccaac", err), 0);
	CHECK(c.offset == 0xffee6aba03eccaacULL && c.offset_set, "%llx",
	      (unsigned long long)c.offset);
	CHECK_INT(set(&c, "clock-offset", "-500", err), 0);
	CHECK(c.offset == (u64)-500LL, "%llx", (unsigned long long)c.offset);
	CHECK_INT(set(&c, "clock-offset", "1000000000", err), 0);
	CHECK_INT(c.offset, 1000000000);
	CHECK_INT(set(&c, "clock-offset", "18446744073709551615", err), 0);
	CHECK(c.offset == ~0ULL, "%llx", (unsigned long long)c.offset);
	CHECK_INT(set(&c, "clock-offset", "0X1aF", err), 0);
	CHECK_INT(c.offset, 0x1af);
	for (int i = 0; bad[i]; i++) {
		err[0] = 0;
		CHECK(set(&c, "clock-offset", bad[i], err) == -1, "'%s' taken", bad[i]);
		CHECK(strstr(err, "bad --clock-offset") != NULL, "'%s': %s", bad[i], err);
	}
}

static void test_uuid(void)
{
	struct clock_opts c = { 0 };
	char err[512];

	CHECK(clock__uuid_ok("8ab13543-95fc-4a78-9056-d605a03e9033"), "lower");
	CHECK(clock__uuid_ok("8AB13543-95FC-4A78-9056-D605A03E9033"), "upper");
	CHECK(!clock__uuid_ok("8ab13543"), "short");
	CHECK(!clock__uuid_ok("8ab13543-95fc-4a78-9056-d605a03e90334"), "long");
	CHECK(!clock__uuid_ok("8ab13543-95fc-4a78-9056_d605a03e9033"), "separator");
	CHECK(!clock__uuid_ok("8ab1354g-95fc-4a78-9056-d605a03e9033"), "not hex");
	CHECK(!clock__uuid_ok("8ab13543-95fc-4a78-9056-d605a03e903"), "last group short");
	CHECK(!clock__uuid_ok(""), "empty");
	CHECK_INT(set(&c, "kvmclock", "xyz", err), -1);
	CHECK(strstr(err, "bad --kvmclock 'xyz'") != NULL, "%s", err);
}

static void test_combinations(void)
{
	struct clock_opts c = { .tsc = true, .kvmclock = "8ab13543-95fc-4a78-9056-d605a03e9033" };
	char err[512] = "";

	CHECK_INT(clock_group.check(&c, NULL, err, sizeof(err)), -1);
	CHECK(strstr(err, "--tsc and --kvmclock exclude each other") != NULL, "%s", err);
	c = (struct clock_opts){ .tsc = true, .monotonic = true };
	CHECK_INT(clock_group.check(&c, NULL, err, sizeof(err)), -1);
	CHECK(strstr(err, "--monotonic and --tsc exclude each other") != NULL, "%s", err);
	/* alone, --monotonic and --clock-offset need nothing of the host */
	c = (struct clock_opts){ .monotonic = true, .offset_set = true, .offset = 5 };
	CHECK_INT(clock_group.check(&c, NULL, err, sizeof(err)), 0);
}

static void test_tsc(void)
{
	/* 2.44543 GHz as the kernel scales it: ns = tsc * mult >> 31 */
	struct clock_tsc c = { .time_shift = 31,
			       .time_mult = (unsigned)((1000000ULL << 31) / 2445430),
			       .time_zero = 123456789 };
	struct clock_tsc ghz = { .time_shift = 31, .time_mult = 1U << 31, .time_zero = 1000 };
	static const u64 tscs[] = {
		0, 1, 2445430, 1ULL << 40, 18085684369061234ULL, (1ULL << 63) / 3
	};

	/* 1 GHz: a tick a ns, shifted by time_zero, below it modulo 2^64 */
	CHECK(clock__perf_to_tsc(&ghz, 1000 + 5000000000ULL) == 5000000000ULL, "%llu",
	      (unsigned long long)clock__perf_to_tsc(&ghz, 1000 + 5000000000ULL));
	CHECK(clock__perf_to_tsc(&ghz, 500) == (u64)-500LL, "%llx",
	      (unsigned long long)clock__perf_to_tsc(&ghz, 500));
	CHECK(clock__tsc_to_perf(&ghz, 7) == 1007, "%llu",
	      (unsigned long long)clock__tsc_to_perf(&ghz, 7));
	/* the kernel's formula: 1 s of ticks is 1 s */
	CHECK(clock__tsc_to_perf(&c, 2445430000ULL) - c.time_zero >= 999999999ULL &&
		      clock__tsc_to_perf(&c, 2445430000ULL) - c.time_zero <= 1000000000ULL,
	      "%llu", (unsigned long long)(clock__tsc_to_perf(&c, 2445430000ULL) - c.time_zero));
	for (size_t i = 0; i < sizeof(tscs) / sizeof(tscs[0]); i++) {
		u64 t = clock__tsc_to_perf(&c, tscs[i]), back = clock__perf_to_tsc(&c, t);

		/* back within a ns worth of ticks below (the time is rounded down to the ns) */
		CHECK(back <= tscs[i] && tscs[i] - back <= 3, "tsc %llu -> %llu -> %llu",
		      (unsigned long long)tscs[i], (unsigned long long)t, (unsigned long long)back);
		/* and a time goes to the tick at or before it */
		CHECK(clock__tsc_to_perf(&c, clock__perf_to_tsc(&c, t + 7)) <= t + 7 &&
			      clock__tsc_to_perf(&c, clock__perf_to_tsc(&c, t + 7)) >= t + 6,
		      "time %llu", (unsigned long long)t + 7);
	}
	/* intervals survive: 1 ms of perf time is 2445430 ticks (+-1) */
	{
		u64 a = clock__perf_to_tsc(&c, 5000000000ULL),
		    b = clock__perf_to_tsc(&c, 5001000000ULL);

		CHECK(b - a >= 2445429 && b - a <= 2445431, "%llu", (unsigned long long)(b - a));
	}
	/* a zero multiplier (no conversion) gives 0, never a division by zero */
	{
		struct clock_tsc none = { 0 };

		CHECK_INT(clock__perf_to_tsc(&none, 12345), 0);
	}
}

static void test_kvmclock(void)
{
	/* guest TSC = host + offset; kvmclock = system_time + scaled (delta) */
	struct clock_pvclock p = { .tsc_offset = (u64)-100LL,
				   .tsc_timestamp = 1000,
				   .system_time = 5000000000ULL,
				   .mul = 0x80000000U,
				   .shift = 1 };

	CHECK(clock__tsc_to_kvmclock(&p, 2100) == 5000000000ULL + 1000, "%llu",
	      (unsigned long long)clock__tsc_to_kvmclock(&p, 2100));
	p.shift = -1;
	p.mul = 0xffffffffU; /* ~1: ticks / 2 */
	CHECK(clock__tsc_to_kvmclock(&p, 2100) == 5000000000ULL + 499, "%llu",
	      (unsigned long long)clock__tsc_to_kvmclock(&p, 2100));
	/* 2.5 GHz guest: mul = 0.4 * 2^32 with shift 0: 2.5e9 ticks are 1 s */
	p = (struct clock_pvclock){ .tsc_offset = 0xffee6aba03eccaacULL,
				    .tsc_timestamp = 1000000,
				    .system_time = 16132000000000ULL,
				    .mul = 1717986918U,
				    .shift = 0 };
	{
		u64 host = 1000000 - 0xffee6aba03eccaacULL; /* the host TSC at tsc_timestamp */
		u64 k0 = clock__tsc_to_kvmclock(&p, host),
		    k1 = clock__tsc_to_kvmclock(&p, host + 2500000000ULL);

		CHECK(k0 == 16132000000000ULL, "%llu", (unsigned long long)k0);
		CHECK(k1 - k0 >= 999999999ULL && k1 - k0 <= 1000000000ULL, "%llu",
		      (unsigned long long)(k1 - k0));
	}
}

static void test_find_guest(void)
{
	static const char qemu[] = "qemu-system-x86_64\0-name\0g1\0-uuid\0"
				   "8AB13543-95FC-4A78-9056-D605A03E9033\0-m\0001024";
	static const char tcg[] = "qemu-system-x86_64\0-uuid=11111111-2222-3333-4444-555555555555";
	static const char other[] = "bash\0-uuid";
	char link[PATH_MAX + 32];
	pid_t pid;
	int fd;

	if (tmp_tree__make("clock")) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	tmp_tree__dir("100");
	tmp_tree__dir("100/fd");
	tmp_tree__write("100/cmdline", qemu, sizeof(qemu));
	snprintf(link, sizeof(link), "%s/100/fd/3", tmp_root);
	CHECK_INT(symlink("/dev/kvm", link), 0);
	snprintf(link, sizeof(link), "%s/100/fd/17", tmp_root);
	CHECK_INT(symlink("anon_inode:kvm-vm", link), 0);
	tmp_tree__dir("200");
	tmp_tree__dir("200/fd");
	tmp_tree__write("200/cmdline", tcg, sizeof(tcg));
	tmp_tree__dir("300");
	tmp_tree__write("300/cmdline", other, sizeof(other));
	tmp_tree__dir("self");

	CHECK_INT(clock__find_guest(tmp_root, "8ab13543-95fc-4a78-9056-d605a03e9033", &pid, &fd),
		  0);
	CHECK_INT(pid, 100);
	CHECK_INT(fd, 17);
	CHECK_INT(clock__find_guest(tmp_root, "11111111-2222-3333-4444-555555555555", &pid, &fd),
		  -ENODEV);
	CHECK_INT(pid, 200);
	CHECK_INT(clock__find_guest(tmp_root, "00000000-2222-3333-4444-555555555555", &pid, &fd),
		  -ENOENT);
	CHECK_INT(fd, -1);
	CHECK_INT(clock__find_guest("/nonexistent-proc", "00000000-2222-3333-4444-555555555555",
				    &pid, &fd),
		  -ENOENT);
	tmp_tree__remove(tmp_root);
}

int main(void)
{
	test_offset();
	test_uuid();
	test_combinations();
	test_tsc();
	test_kvmclock();
	test_find_guest();
	return ut_done("clock");
}
