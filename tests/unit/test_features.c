// SPDX-License-Identifier: GPL-2.0
/*
 * Feature detection against fake sysfs/procfs trees, so that both a host
 * with a CPU PMU and kprobes and one without (this VM) are covered.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/features.h"
#include "tmp_tree.h"
#include "ut.h"

static void pmu(const char *name, int type)
{
	char rel[256], num[16];

	snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s", name);
	tmp_tree__dir(rel);
	snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/type", name);
	snprintf(num, sizeof(num), "%d\n", type);
	tmp_tree__put(rel, num);
}

/* Point the module at the fake tree; this also drops its cache. */
static void use_fake_roots(void)
{
	char s[PATH_MAX + 8], p[PATH_MAX + 8];

	snprintf(s, sizeof(s), "%s/sys", tmp_root);
	snprintf(p, sizeof(p), "%s/proc", tmp_root);
	features__set_roots(s, p);
}

static void set_mounts(const char *text)
{
	tmp_tree__put("proc/mounts", text);
	use_fake_roots();
}

static void test_bare_vm(void)
{
	char buf[256], mounts[PATH_MAX * 2];

	/* Like this Firecracker VM: no CPU PMU, no kprobes, uprobes present. */
	pmu("software", 1);
	pmu("tracepoint", 2);
	pmu("uprobe", 8);
	pmu("breakpoint", 5);
	tmp_tree__dir("tracing/events/sched/sched_switch");
	tmp_tree__put("tracing/uprobe_events", "");
	tmp_tree__dir("proc/sys/kernel");
	tmp_tree__put("proc/sys/kernel/perf_event_paranoid", "2\n");

	/* Not mounted: only sysfs and proc, and an unrelated tmpfs. */
	set_mounts("sysfs /sys sysfs rw 0 0\nproc /proc proc rw 0 0\n"
		   "tmpfs /dev/shm tmpfs rw 0 0\n");
	errno = 0;
	CHECK(features__tracefs_dir() == NULL, "tracefs found though not mounted");
	CHECK_INT(errno, ENOENT);
	CHECK_STR(features__why_not(FEAT_TRACEFS, buf, sizeof(buf)),
		  "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	/* Without tracefs the uprobe PMU still tells us uprobes work. */
	CHECK_INT(features__uprobes(), PROBE_PMU);

	snprintf(mounts, sizeof(mounts),
		 "proc /proc proc rw 0 0\nnodev %s/tracing tracefs rw 0 0\n", tmp_root);
	set_mounts(mounts);
	{
		char want[PATH_MAX + 16];
		const char *dir = features__tracefs_dir();

		snprintf(want, sizeof(want), "%s/tracing", tmp_root);
		const char *w = want;
		CHECK_STR(dir, w);
		/* Cached: same pointer on the second call. */
		CHECK(features__tracefs_dir() == dir, "not cached");
	}

	CHECK(features__has_pmu("software"), "software PMU");
	CHECK(!features__has_pmu("cpu"), "cpu PMU on a bare VM");
	CHECK(!features__has_pmu(""), "empty name");
	CHECK(!features__has_pmu("../devices/uprobe"), "path in a PMU name");
	CHECK_INT(features__pmu_type("uprobe"), 8);
	CHECK_INT(features__pmu_type("software"), 1);
	CHECK_INT(features__pmu_type("kprobe"), -ENOENT);
	CHECK(features__cpu_pmu() == NULL, "cpu pmu found");
	CHECK(strstr(features__why_not(FEAT_CPU_PMU, buf, sizeof(buf)), "use cpu-clock") != NULL,
	      "%s", buf);
	CHECK_INT(features__kprobes(), 0);
	CHECK_STR(features__why_not(FEAT_KPROBES, buf, sizeof(buf)),
		  "kprobes: not supported by this kernel (no CONFIG_KPROBES)");
	CHECK_INT(features__uprobes(), PROBE_TRACEFS | PROBE_PMU);
	CHECK_INT(features__paranoid(), 2);
	features__why_not(FEAT_PERM, buf, sizeof(buf));
	CHECK(strstr(buf, "permission denied") != NULL, "%s", buf);
	CHECK(geteuid() == 0 || strstr(buf, "(now 2)") != NULL, "%s", buf);
	CHECK(strstr(features__why_not(FEAT_TRACEFS, buf, sizeof(buf)), "mounted at") != NULL, "%s",
	      buf);
}

static void test_full_host(void)
{
	char buf[256], mounts[PATH_MAX * 3];

	/* A bare-metal host: hybrid CPU PMU, kprobes via tracefs and PMU. */
	pmu("cpu_core", 4);
	pmu("kprobe", 6);
	tmp_tree__put("tracing/kprobe_events", "");
	tmp_tree__put("sys/bus/event_source/devices/kprobe/type", "garbage");
	/* Two tracefs mounts: the standard path wins, whatever the order. */
	snprintf(mounts, sizeof(mounts),
		 "nodev %s/tracing tracefs rw 0 0\nnodev /sys/kernel/tracing tracefs rw 0 0\n",
		 tmp_root);
	set_mounts(mounts);
	CHECK_STR(features__tracefs_dir(), "/sys/kernel/tracing");
	snprintf(mounts, sizeof(mounts), "nodev %s/tracing tracefs rw 0 0\n", tmp_root);
	set_mounts(mounts);

	CHECK_STR(features__cpu_pmu(), "cpu_core");
	CHECK(strstr(features__why_not(FEAT_CPU_PMU, buf, sizeof(buf)), "cpu_core") != NULL, "%s",
	      buf);
	CHECK_INT(features__kprobes(), PROBE_TRACEFS | PROBE_PMU);
	CHECK_INT(features__pmu_type("kprobe"), -EINVAL);
	CHECK_STR(features__why_not(FEAT_KPROBES, buf, sizeof(buf)), "kprobes are supported");

	/* Only debugfs, with tracing/ reachable below it. */
	snprintf(mounts, sizeof(mounts), "debugfs %s debugfs rw 0 0\n", tmp_root);
	set_mounts(mounts);
	{
		char want[PATH_MAX + 16];

		const char *w = want;

		snprintf(want, sizeof(want), "%s/tracing", tmp_root);
		CHECK_STR(features__tracefs_dir(), w);
	}

	/* No /proc/mounts at all. */
	{
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/proc/mounts", tmp_root);
		unlink(path);
		use_fake_roots();
		CHECK(features__tracefs_dir() == NULL, "tracefs without a mount table");
		CHECK_INT(errno, ENOENT);
	}
}

static void test_lists(void)
{
	char **names, buf[64];
	const char *b = buf;
	int n;

	/* From test_bare_vm + test_full_host: six PMUs. */
	tmp_tree__dir("sys/bus/event_source/devices/cpu_core/events");
	tmp_tree__put("sys/bus/event_source/devices/cpu_core/events/instructions", "event=0xc0\n");
	tmp_tree__put("sys/bus/event_source/devices/cpu_core/events/cycles", "event=0x3c\n");
	n = features__list(NULL, NULL, &names);
	CHECK_INT(n, 6);
	if (n == 6) {
		CHECK_STR(names[0], "breakpoint");
		CHECK_STR(names[1], "cpu_core");
		CHECK_STR(names[5], "uprobe");
		CHECK(names[6] == NULL, "not NULL-terminated");
	}
	features__free_list(names);
	n = features__list("cpu_core", "events", &names);
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(names[0], "cycles");
		CHECK_STR(names[1], "instructions");
	}
	features__free_list(names);
	/* No events/ directory: an empty list, not an error. */
	n = features__list("uprobe", "events", &names);
	CHECK_INT(n, 0);
	CHECK(names && !names[0], "empty list expected");
	features__free_list(names);
	CHECK_INT(features__list("nosuch", "events", &names), -ENOENT);
	CHECK_INT(features__list("uprobe", "../x", &names), -ENOENT);
	CHECK_INT(features__pmu_read("cpu_core", "events/cycles", buf, sizeof(buf)), 0);
	CHECK_STR(b, "event=0x3c");
	CHECK_INT(features__pmu_read("cpu_core", "../../x", buf, sizeof(buf)), -ENOENT);
	CHECK_INT(features__pmu_read("cpu_core", "events/nosuch", buf, sizeof(buf)), -ENOENT);
}

static void test_real_host(void)
{
	int t;

	features__set_roots(NULL, NULL);
	/* Every Linux host with perf has the software and tracepoint PMUs. */
	t = features__pmu_type("software");
	CHECK_INT(t, 1);
	t = features__pmu_type("tracepoint");
	CHECK_INT(t, 2);
	CHECK(features__paranoid() >= -1, "paranoid %d", features__paranoid());
}

/* features__bpf_explain: what a failed tracepoint program load is said as. */
static void test_bpf_explain(void)
{
	struct feat_bpf_env env = { .caps_known = true, .cap_last = 40, .unpriv = 2 };
	char buf[256], small[8];

	CHECK_STR(features__bpf_explain(0, &env, buf, sizeof(buf)), "");
	/* a user with no capability: both named, the sysctl said */
	CHECK_STR(features__bpf_explain(-EPERM, &env, buf, sizeof(buf)),
		  "bpf(2) not permitted: no CAP_BPF, no CAP_PERFMON (needs CAP_BPF and "
		  "CAP_PERFMON, or root); kernel.unprivileged_bpf_disabled=2");
	env.unpriv = 0;
	env.caps = 1ULL << 38; /* CAP_PERFMON */
	CHECK_STR(features__bpf_explain(-EPERM, &env, buf, sizeof(buf)),
		  "bpf(2) not permitted: no CAP_BPF (needs CAP_BPF and CAP_PERFMON, or root)");
	env.caps = 1ULL << 39; /* CAP_BPF */
	CHECK_STR(features__bpf_explain(-EPERM, &env, buf, sizeof(buf)),
		  "bpf(2) not permitted: no CAP_PERFMON (needs CAP_BPF and CAP_PERFMON, or root)");
	/* CAP_SYS_ADMIN stands for both: refused for another reason */
	env.caps = 1ULL << 21;
	CHECK(strstr(features__bpf_explain(-EPERM, &env, buf, sizeof(buf)),
		     "bpf(2) refused (EPERM) with CAP_BPF and CAP_PERFMON held") == buf,
	      "%s", buf);
	env.caps = (1ULL << 38) | (1ULL << 39);
	CHECK(strstr(features__bpf_explain(-EACCES, &env, buf, sizeof(buf)),
		     "bpf(2) refused (EACCES) with CAP_BPF") == buf,
	      "%s", buf);
	/* a kernel before 5.8 (cap_last_cap 37): only CAP_SYS_ADMIN */
	env.caps = 0;
	env.cap_last = 37;
	env.unpriv = 1;
	CHECK_STR(features__bpf_explain(-EPERM, &env, buf, sizeof(buf)),
		  "bpf(2) not permitted: no CAP_SYS_ADMIN (this kernel has no CAP_BPF: run as "
		  "root); kernel.unprivileged_bpf_disabled=1");
	/* capabilities unreadable, the sysctl too */
	env.caps_known = false;
	env.unpriv = -ENOENT;
	CHECK_STR(features__bpf_explain(-EPERM, &env, buf, sizeof(buf)),
		  "bpf(2) not permitted: needs CAP_BPF and CAP_PERFMON (or root)");
	/* the kernel lacks it */
	CHECK_STR(features__bpf_explain(-ENOSYS, &env, buf, sizeof(buf)),
		  "no bpf(2): kernel without CONFIG_BPF_SYSCALL");
	CHECK_STR(features__bpf_explain(-EINVAL, &env, buf, sizeof(buf)),
		  "tracepoint programs do not load: EINVAL (kernel without CONFIG_BPF_EVENTS?)");
	CHECK_STR(features__bpf_explain(-E2BIG, &env, buf, sizeof(buf)),
		  "tracepoint programs do not load: E2BIG");
	/* a short buffer: cut, terminated */
	CHECK_STR(features__bpf_explain(-ENOSYS, &env, small, sizeof(small)), "no bpf(");
}

/* The probes on this host: why_not agrees with the tracepoint program's load. */
static void test_bpf_host(void)
{
	char buf[256];
	int tp = features__probe_bpf_prog(FEAT_BPF_TRACEPOINT);
	int r = features__bpf_why_not(buf, sizeof(buf));

	CHECK_INT(r, tp);
	CHECK(!r == !buf[0], "why_not %d, '%s'", r, buf);
	CHECK_INT(features__probe_bpf_prog(NR_FEAT_BPF_PROGS), -EINVAL);
	CHECK_STR(features__bpf_prog_name(FEAT_BPF_TP_BTF), "tp_btf");
	CHECK_STR(features__bpf_prog_name(NR_FEAT_BPF_PROGS), "?");
}

/* /proc/cpuinfo: the first processor's vendor, family, model, vmx/svm and hypervisor. */
static void test_cpuinfo(void)
{
	struct feat_cpuinfo ci;

	tmp_tree__put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
				      "model\t\t: 85\nmodel name\t: Intel(R) Xeon(R)\n"
				      "flags\t\t: fpu vme pse hypervisor lahf_lm\n\n"
				      "processor\t: 1\nflags\t\t: fpu vmx\n\n");
	use_fake_roots();
	CHECK_INT(features__cpuinfo(&ci), 0);
	CHECK_STR(ci.vendor, "GenuineIntel");
	CHECK_INT(ci.family, 6);
	CHECK_INT(ci.model, 85);
	CHECK_STR(ci.virt, ""); /* the second processor's flags are not read */
	CHECK(ci.hypervisor && ci.flags, "hypervisor %d flags %d", ci.hypervisor, ci.flags);

	tmp_tree__put("proc/cpuinfo", "vendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
				      "model\t\t: 1\nflags\t\t: fpu svm_lock svm npt\n");
	CHECK_INT(features__cpuinfo(&ci), 0);
	CHECK_STR(ci.vendor, "AuthenticAMD");
	CHECK_INT(ci.family, 25);
	CHECK_STR(ci.virt, "svm");
	CHECK(!ci.hypervisor, "no hypervisor flag");

	tmp_tree__put("proc/cpuinfo", "flags\t\t: vmxx avmx vmx\n");
	CHECK_INT(features__cpuinfo(&ci), 0);
	CHECK_STR(ci.virt, "vmx");
	CHECK_STR(ci.vendor, "");
	CHECK_INT(ci.family, -1);

	/* arm64: "Features", no flags line */
	tmp_tree__put("proc/cpuinfo", "processor\t: 0\nFeatures\t: fp asimd\n");
	CHECK_INT(features__cpuinfo(&ci), 0);
	CHECK(!ci.flags && !ci.virt[0], "no flags line");
	{
		char path[PATH_MAX];

		tmp_tree__path(path, sizeof(path), "proc/cpuinfo");
		unlink(path);
	}
	CHECK_INT(features__cpuinfo(&ci), -ENOENT);
	features__set_roots(NULL, NULL);
}

int main(void)
{
	if (tmp_tree__make("features")) {
		perror("mkdtemp");
		return 1;
	}
	test_bare_vm();
	test_full_host();
	test_lists();
	test_real_host();
	test_bpf_explain();
	test_bpf_host();
	test_cpuinfo();
	tmp_tree__remove(tmp_root);
	return ut_done("test_features");
}
