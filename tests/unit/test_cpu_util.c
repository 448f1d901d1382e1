// SPDX-License-Identifier: GPL-2.0
/*
 * CPU time by mode: /proc/stat lines parsed and turned into shares (guest
 * time taken out of user), a sample's mode from its ip and the interrupted
 * context's (a guest: the two differ), and cpu-util on an injected session:
 * cpu-clock samples of known modes over one interval give exact
 * percentages per CPU and for "all", with --exclude-* and -G choosing the
 * columns; bad combinations are usage errors.  (No guest runs in hardware
 * on this machine's KVM: this is where guest time is tested.)
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/cpu/cpustat.h"
#include "synth_run.h"
#include "ut.h"

#define MS 1000000ULL
#define KIP 0xffffffff81001234ULL /* a kernel address */
#define UIP 0x401000ULL		  /* a user one */

static void test_parse(void)
{
	static const char text[] = "cpu  300 0 120 5000 10 0 5 0 0 0\n"
				   "cpu0 100 20 50 800 10 5 5 10 60 10\n"
				   "cpu1 200 0 70 4200 0 0 0 0 0 0\n"
				   "cpu3 1 2 3 4\n"
				   "intr 12345 0 0\n"
				   "ctxt 999\n";
	static const char later[] = "cpu0 200 30 90 900 10 10 10 20 150 10\n"
				    "cpu1 200 0 70 4200 0 0 0 0 0 0\n";
	struct cpustat_times a[4], b[4];
	struct cpustat_share sh;

	CHECK_INT(cpustat__parse(text, a, 4), 3);
	CHECK(a[0].valid && a[1].valid && !a[2].valid && a[3].valid, "cpu0, 1, 3 read");
	CHECK_INT(a[0].user, 100);
	CHECK_INT(a[0].guest, 60);
	CHECK_INT(a[0].guest_nice, 10);
	CHECK_INT(a[1].idle, 4200);
	CHECK_INT(a[3].idle, 4);
	CHECK_INT(a[3].steal, 0); /* a short line: the rest are 0 */
	CHECK_INT(cpustat__parse("intr 1\n", a, 4), -22);
	CHECK_INT(cpustat__parse(text, a, 4), 3);
	CHECK_INT(cpustat__parse(later, b, 4), 2);
	/*
	 * cpu0: user +100, nice +10, system +40, idle +100, irq +5, softirq
	 * +5, steal +10, guest +90: 270 ticks; user 110 - 90 = 20
	 */
	cpustat__share(&a[0], &b[0], &sh);
	CHECK_INT(sh.ticks, 270);
	CHECK(sh.user > 7.40 && sh.user < 7.41, "user 20/270: %.3f", sh.user);
	CHECK(sh.sys > 18.51 && sh.sys < 18.52, "sys 50/270: %.3f", sh.sys);
	CHECK(sh.guest > 33.33 && sh.guest < 33.34, "guest 90/270: %.3f", sh.guest);
	CHECK(sh.steal > 3.70 && sh.steal < 3.71, "steal 10/270: %.3f", sh.steal);
	CHECK(sh.idle > 37.03 && sh.idle < 37.04, "idle 100/270: %.3f", sh.idle);
	cpustat__share(&a[1], &b[1], &sh);
	CHECK_INT(sh.ticks, 0);
	cpustat__share(&a[2], &b[2], &sh); /* no such CPU */
	CHECK_INT(sh.ticks, 0);
	{
		struct cpustat_times now[64];

		CHECK(cpustat__read(now, 64) > 0 && now[0].valid, "this machine's /proc/stat");
	}
}

static void test_mode(void)
{
	u64 kip = KIP, uip = UIP, host = 0xffffffff81aabbccULL;

	CHECK_INT(cpu_mode__of(0, KIP, NULL), CPU_IDLE);
	CHECK_INT(cpu_mode__of(7, KIP, NULL), CPU_KERNEL);
	CHECK_INT(cpu_mode__of(7, UIP, NULL), CPU_USER);
	CHECK_INT(cpu_mode__of(7, KIP, &kip), CPU_KERNEL);
	CHECK_INT(cpu_mode__of(7, UIP, &uip), CPU_USER);
	/* in a guest the sample's ip is the guest's, the interrupted one the host's */
	CHECK_INT(cpu_mode__of(7, 0x1000, &host), CPU_GUEST);
	CHECK_INT(cpu_mode__of(7, KIP, &host), CPU_GUEST);
#if defined(__x86_64__)
	CHECK_INT(cpu_mode__of(7, 0xffffffffff600400ULL, NULL), CPU_USER);   /* vsyscall */
	CHECK_INT(cpu_mode__of(7, 0xffffffffff601000ULL, NULL), CPU_KERNEL); /* the page after */
#endif
	/* 5-level page tables: user space up to 2^56, the kernel's half still from bit 63 */
	CHECK_INT(cpu_mode__of(7, 0x00fffffffffff000ULL, NULL), CPU_USER);
	CHECK_INT(cpu_mode__of(7, 0xff11000000001000ULL, NULL), CPU_KERNEL);
	CHECK_STR(cpu_mode__name(CPU_GUEST), "guest");
	CHECK(cpu_mode__intr_mask() != 0, "the interrupted ip is asked for on x86");
	/* from the record's cpumode bits, the ip only when there are none */
	CHECK_INT(cpu_mode__of_misc(7, PERF_RECORD_MISC_USER, KIP), CPU_USER);
	CHECK_INT(cpu_mode__of_misc(7, PERF_RECORD_MISC_KERNEL, UIP), CPU_KERNEL);
	CHECK_INT(cpu_mode__of_misc(7, PERF_RECORD_MISC_HYPERVISOR, UIP), CPU_KERNEL);
	CHECK_INT(cpu_mode__of_misc(7, PERF_RECORD_MISC_GUEST_USER, UIP), CPU_GUEST);
	CHECK_INT(cpu_mode__of_misc(7, PERF_RECORD_MISC_GUEST_KERNEL, KIP), CPU_GUEST);
	CHECK_INT(cpu_mode__of_misc(0, PERF_RECORD_MISC_KERNEL, KIP), CPU_IDLE);
	CHECK_INT(cpu_mode__of_misc(7, 0, KIP), CPU_KERNEL);
	CHECK_INT(cpu_mode__of_misc(7, 0, UIP), CPU_USER);
}

struct run {
	struct synth_run h;
	struct evsel *ev;
	u64 t0;
};

static int start(struct run *r, const char *args)
{
	char line[256];

	memset(r, 0, sizeof(*r));
	/* -q: no "what it uses" line in the test's output */
	snprintf(line, sizeof(line), "-q %s", args);
	if (synth_run__start(&r->h, "cpu-util", line,
			     &(struct synth_run_opts){ .init_may_fail = true }))
		return -1;
	if (r->h.init_err)
		return 0;
	r->ev = session__evsels(r->h.s);
	r->t0 = session__now(r->h.s) + 1000 * MS;
	return r->ev ? 0 : -1;
}

/*
 * A cpu-clock sample at t0 + @ms: @ip, taken in a guest when the
 * interrupted host context's ip @iip is another (the record's cpumode says
 * so, as the kernel sets it).
 */
static void smp(struct run *r, u64 ms, u32 cpu, u32 tid, u64 ip, u64 iip)
{
	unsigned misc = iip != ip  ? PERF_RECORD_MISC_GUEST_KERNEL
			: ip >> 63 ? PERF_RECORD_MISC_KERNEL
				   : PERF_RECORD_MISC_USER;

	synth__sample(
		&r->h.b, r->ev,
		&(struct synth_sample){
			.pid = tid, .tid = tid, .cpu = cpu, .time = r->t0 + ms * MS, .ip = ip });
	session__inject(r->h.s, synth__finish(&r->h.b, PERF_RECORD_SAMPLE, misc), cpu);
}

/*
 * One interval, 1000 ms: CPU 0 600 ms user, 300 kernel, 100 guest; CPU 1 50
 * ms user and 100 samples of the idle task (hosts that deliver them).
 */
static const char *one_second(struct run *r)
{
	for (u64 k = 1; k <= 1000; k++)
		smp(r, k, 0, 100,
		    k <= 600   ? UIP
		    : k <= 900 ? KIP
			       : 0x1000,
		    k <= 600   ? UIP
		    : k <= 900 ? KIP
			       : 0xffffffff81aabbccULL);
	for (u64 k = 1; k <= 150; k++)
		smp(r, k, 1, k <= 50 ? 200 : 0, k <= 50 ? UIP : KIP, k <= 50 ? UIP : KIP);
	r->h.p->ops.interval(r->h.s, r->h.priv);
	fflush(r->h.fp);
	return r->h.out ? r->h.out : "";
}

static bool has_prefix_line(const char *text, const char *head)
{
	for (const char *p = strstr(text, head); p; p = strstr(p + 1, head))
		if (p == text || p[-1] == '\n')
			return true;
	return false;
}

static void test_samples(void)
{
	struct run r;
	const char *out;

	if (start(&r, "-C 0,1") || r.h.init_err) {
		CHECK(0, "start cpu-util on an injected session");
		return;
	}
	out = one_second(&r);
	CHECK(strstr(out, "cpu-util: 1000.00 ms on 2 CPUs\n") != NULL, "1000 ms: %s", out);
	CHECK(has_prefix_line(out,
			      "CPU   USER%   SYS% GUEST%  BUSY%    USER%   SYS% GUEST% STEAL%"),
	      "the columns: %s", out);
	CHECK(has_prefix_line(out, "0      60.0   30.0   10.0  100.0   "), "CPU 0: %s", out);
	CHECK(has_prefix_line(out, "1       5.0    0.0    0.0    5.0   "), "CPU 1: %s", out);
	CHECK(has_prefix_line(out, "all    32.5   15.0    5.0   52.5   "), "all: %s", out);
	synth_run__cleanup(&r.h);

	if (start(&r, "-C 0,1 --exclude-guest") || r.h.init_err) {
		CHECK(0, "start cpu-util --exclude-guest");
		return;
	}
	out = one_second(&r);
	CHECK(has_prefix_line(out, "CPU   USER%   SYS%  BUSY%    USER%   SYS% STEAL%  BUSY%"),
	      "--exclude-guest: no GUEST column: %s", out);
	CHECK(has_prefix_line(out, "0      60.0   30.0   90.0   "), "--exclude-guest: %s", out);
	synth_run__cleanup(&r.h);

	if (start(&r, "-C 0 -G --exclude-user") || r.h.init_err) {
		CHECK(0, "start cpu-util -G");
		return;
	}
	out = one_second(&r);
	CHECK(has_prefix_line(out, "0      10.0   10.0   "), "-G: the guest only: %s", out);
	CHECK(!has_prefix_line(out, "all"), "one CPU: no 'all' row: %s", out);
	synth_run__cleanup(&r.h);

	if (start(&r, "-C 0,1 --exclude-kernel") || r.h.init_err) {
		CHECK(0, "start cpu-util --exclude-kernel");
		return;
	}
	out = one_second(&r);
	CHECK(has_prefix_line(out, "0      60.0   10.0   70.0   "), "--exclude-kernel: %s", out);
	synth_run__cleanup(&r.h);
}

static void test_usage(void)
{
	static const char *const bad[] = { "-G --exclude-guest",
					   "--exclude-user --exclude-kernel --exclude-guest",
					   "-p 1" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run r;
		int err = start(&r, bad[i]);

		/* guest and host both excluded: the shared exclude group refuses it as parsed */
		if (i == 0) {
			CHECK(err, "'%s': refused by the option parser", bad[i]);
			synth_run__cleanup(&r.h);
			continue;
		}
		if (err) {
			CHECK(0, "parse '%s'", bad[i]);
			synth_run__cleanup(&r.h);
			continue;
		}
		CHECK(r.h.init_err && session__err_is_usage(r.h.s), "'%s': a usage error (%s)",
		      bad[i], session__strerror(r.h.s) ? session__strerror(r.h.s) : "none");
		synth_run__cleanup(&r.h);
	}
}

int main(void)
{
	test_parse();
	test_mode();
	test_samples();
	test_usage();
	return ut_done("test_cpu_util");
}
