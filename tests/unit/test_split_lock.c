// SPDX-License-Identifier: GPL-2.0
/*
 * split-lock's modes without a PMU: --test's split locks (a 4-byte value
 * that straddles a cache line, incremented with the lock prefix: every
 * increment lands, across the boundary); on an injected session over a
 * fake Intel cpu PMU, -T -g samples with a callchain printed under the
 * event line, -g without -T refused, -G counting only the guest.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake_sysfs.h"
#include "synth_run.h"
#include "ut.h"

/* prof/split_lock.c */
u32 split_lock__take(unsigned char *buf, unsigned n);
int split_lock__test(int cpu, unsigned n, u32 *taken, int *on_cpu, int *sig);

static void test_take(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned char buf[128] = { 0 };
	uintptr_t line = ((uintptr_t)buf + 64) & ~(uintptr_t)63;
	unsigned char *at = (unsigned char *)line - 2;
	unsigned zeros = 0;

	/* 70000 = 0x00011170: its third byte lies past the boundary */
	CHECK_INT(split_lock__take(buf, 70000), 70000);
	CHECK(at[0] == 0x70 && at[1] == 0x11, "before the line's end: %02x %02x", at[0], at[1]);
	CHECK(at[2] == 0x01 && at[3] == 0x00, "after it: %02x %02x", at[2], at[3]);
	for (unsigned i = 0; i < sizeof(buf); i++)
		zeros += buf + i < at || buf + i >= at + 4 ? buf[i] == 0 : 0;
	CHECK_INT(zeros, sizeof(buf) - 4);
	CHECK_INT(split_lock__take(buf, 5), 70005);
#else
	printf("skip - split_lock__take: not x86\n");
#endif
}

/* --test's child: its 1000 locks on the CPU asked, and it ends by itself (no signal) */
static void test_child(void)
{
#if defined(__x86_64__) || defined(__i386__)
	int last = -1, cpu = -2, sig = -1, pid;
	cpu_set_t allowed;
	u32 taken = 0;

	/* the highest CPU this test may run on (taskset, cpusets) */
	if (!sched_getaffinity(0, sizeof(allowed), &allowed))
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &allowed))
				last = c;

	pid = split_lock__test(last, 1000, &taken, &cpu, &sig);
	CHECK(pid > 0 && pid != getpid(), "a child's pid: %d", pid);
	CHECK_INT(taken, 1000);
	CHECK_INT(cpu, last);
	CHECK_INT(sig, 0);
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "the child reaped");
#else
	printf("skip - split_lock__test: not x86\n");
#endif
}

static void fake_pmu(const char *vendor)
{
	char cpuinfo[128], sys[PATH_MAX + 8], proc[PATH_MAX + 8];

	fake_sysfs__put("cpu/type", "4\n");
	fake_sysfs__put("cpu/format/event", "config:0-7\n");
	fake_sysfs__put("cpu/format/umask", "config:8-15\n");
	snprintf(cpuinfo, sizeof(cpuinfo), "processor\t: 0\nvendor_id\t: %s\n\n", vendor);
	tmp_tree__put("proc/cpuinfo", cpuinfo);
	snprintf(sys, sizeof(sys), "%s/sys", tmp_root);
	snprintf(proc, sizeof(proc), "%s/proc", tmp_root);
	features__set_roots(sys, proc);
}

static struct evsel *sampler(struct synth_run *r)
{
	for (struct evsel *e = session__evsels(r->s); e; e = e->next)
		if (!e->counting)
			return e;
	return NULL;
}

static void test_modes(void)
{
	static const u64 ips[] = { PERF_CONTEXT_USER, 0x401234, 0x401100 };
	struct synth_run r;
	struct evsel *ev;
	const char *out;

	if (fake_sysfs__make("split-lock")) {
		CHECK(0, "mkdtemp");
		return;
	}
	fake_pmu("GenuineIntel");

	/* -g without -T: counts have no stacks */
	synth_run__start(&r, "split-lock", "-g -C 0",
			 &(struct synth_run_opts){ .init_may_fail = true });
	CHECK_INT(r.init_err, -EINVAL);
	CHECK_STR(synth_run__err(&r), "-g: stacks are of the samples -T N takes (no -T: counts "
				      "only)");
	synth_run__cleanup(&r);

	/* -T 100 -g: each sample's stack under its line */
	if (synth_run__start(&r, "split-lock", "-T 100 -g -C 0,1",
			     &(struct synth_run_opts){ .init_may_fail = true }) ||
	    r.init_err) {
		CHECK(0, "start split-lock -T 100 -g (%d): %s", r.init_err, synth_run__err(&r));
	} else if (!(ev = sampler(&r))) {
		CHECK(0, "the sampler");
	} else {
		CHECK(ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN, "-g: callchains asked for");
		/* (the vendor is the host's: Intel's event 0xf4 umask 0x10, AMD's 0x25 umask 1) */
		CHECK(ev->attr.sample_period == 100 &&
			      (ev->attr.config == 0x10f4 || ev->attr.config == 0x125),
		      "every 100 split locks: %llu 0x%llx",
		      (unsigned long long)ev->attr.sample_period,
		      (unsigned long long)ev->attr.config);
		synth__sample(&r.b, ev,
			      &(struct synth_sample){ .pid = 4242,
						      .tid = 4243,
						      .cpu = 1,
						      .time = session__now(r.s),
						      .ip = 0x401234,
						      .ips = ips,
						      .nr_ips = 3 });
		session__inject(r.s, synth__finish(&r.b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER),
				1);
		out = synth_run__finish(&r);
		CHECK(strstr(out, " 4243 [001] split-lock: 100 split locks, ip 0x401234\n"
				  "    0000000000401234 [unknown] ([unknown])\n"
				  "    0000000000401100 [unknown] ([unknown])\n"),
		      "its stack's frames under the line: %s", out);
	}
	synth_run__cleanup(&r);

	/* -G: the guest's split locks only */
	if (synth_run__start(&r, "split-lock", "-G -C 0",
			     &(struct synth_run_opts){ .init_may_fail = true }) ||
	    r.init_err) {
		CHECK(0, "start split-lock -G (%d): %s", r.init_err, synth_run__err(&r));
	} else {
		struct evsel *c = session__evsels(r.s);

		CHECK(c && c->attr.exclude_host && !c->attr.exclude_guest,
		      "-G: the host excluded, the guest counted");
	}
	synth_run__cleanup(&r);

	/* --test is accepted (it runs once the counters do) */
	synth_run__start(&r, "split-lock", "--test -C 0",
			 &(struct synth_run_opts){ .init_may_fail = true });
	CHECK_INT(r.init_err, 0);
	synth_run__cleanup(&r);

	fake_sysfs__remove();
	features__set_roots(NULL, NULL);
}

int main(void)
{
	test_take();
	test_child();
	test_modes();
	return ut_done("test_split_lock");
}
