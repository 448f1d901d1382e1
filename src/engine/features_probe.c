// SPDX-License-Identifier: GPL-2.0
/*
 * Probes of what this host can do (perf-prof check): each one asks the
 * kernel for the real thing (a perf event, a kprobe, a BPF map) and closes
 * or removes it at once.  Nothing is guessed from a version number or from
 * a file that merely exists.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "engine/features.h"

#define KVM_GET_API_VERSION_NR 0xAE00 /* _IO(KVMIO, 0x00) */

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	int fd = (int)syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Open, close: 0 or -errno. */
static int open_close(struct perf_event_attr *a, pid_t pid, int cpu)
{
	int fd = perf_open(a, pid, cpu);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static void attr_init(struct perf_event_attr *a, __u32 type, __u64 config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->disabled = 1;
}

int features__probe_sw(bool cpu_wide, bool user_only)
{
	struct perf_event_attr a;

	attr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	a.exclude_kernel = user_only;
	a.exclude_hv = user_only;
	return cpu_wide ? open_close(&a, -1, 0) : open_close(&a, 0, -1);
}

int features__probe_cycles(void)
{
	struct perf_event_attr a;

	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	/* user mode only: what is asked is whether the PMU exists, not the permissions */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return open_close(&a, 0, -1);
}

int features__probe_counter(unsigned type, unsigned long long config)
{
	struct perf_event_attr a;

	attr_init(&a, type, config);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return open_close(&a, 0, -1);
}

static volatile unsigned long bp_target;

int features__probe_bp(void)
{
	struct perf_event_attr a;

	attr_init(&a, PERF_TYPE_BREAKPOINT, 0);
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uintptr_t)&bp_target;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.sample_period = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return open_close(&a, 0, -1);
}

int features__probe_kprobe_pmu(const char *func)
{
	int type = features__pmu_type("kprobe");
	struct perf_event_attr a;

	if (type < 0)
		return type;
	attr_init(&a, (__u32)type, 0);
	a.config1 = (uintptr_t)func;
	a.config2 = 0;
	a.sample_period = 1;
	return open_close(&a, -1, 0);
}

/*
 * The uprobe goes on this function: never called, so the breakpoint the
 * kernel places while the probe exists is never hit.
 */
__attribute__((noinline, used)) void features__uprobe_target(void)
{
	__asm__ volatile("" ::: "memory");
}

int features__self_offset(char *path, size_t len, unsigned long long *off)
{
	uintptr_t addr = (uintptr_t)&features__uprobe_target;
	char line[PATH_MAX + 128];
	ssize_t n;
	FILE *fp;
	int err = -ENOENT;

	n = readlink("/proc/self/exe", path, len - 1);
	if (n <= 0)
		return -errno;
	path[n] = '\0';
	fp = fopen("/proc/self/maps", "re");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long start, end, pgoff;

		if (sscanf(line, "%llx-%llx %*s %llx", &start, &end, &pgoff) != 3)
			continue;
		if (addr >= start && addr < end) {
			*off = addr - start + pgoff;
			err = 0;
			break;
		}
	}
	fclose(fp);
	return err;
}

int features__probe_uprobe_pmu(void)
{
	int type = features__pmu_type("uprobe");
	char path[PATH_MAX];
	unsigned long long off;
	struct perf_event_attr a;
	int err;

	if (type < 0)
		return type;
	err = features__self_offset(path, sizeof(path), &off);
	if (err)
		return err;
	attr_init(&a, (__u32)type, 0);
	a.config1 = (uintptr_t)path;
	a.config2 = off;
	a.sample_period = 1;
	return open_close(&a, 0, -1);
}

static int append(const char *file, const char *line)
{
	int fd = open(file, O_WRONLY | O_APPEND | O_CLOEXEC);
	ssize_t n, len = (ssize_t)strlen(line);
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, line, len);
	if (n != len)
		err = n < 0 ? -errno : -EIO;
	close(fd);
	return err;
}

int features__probe_dynevent(bool kernel)
{
	const char *dir = features__tracefs_dir();
	char file[PATH_MAX + 32], line[PATH_MAX + 128], ev[PATH_MAX + 128], path[PATH_MAX];
	unsigned long long off;
	struct stat st;
	int err;

	if (!dir)
		return -errno;
	snprintf(file, sizeof(file), "%s/%s", dir, kernel ? "kprobe_events" : "uprobe_events");
	if (access(file, F_OK))
		return -errno;
	/* the group probe.c's sessions use: a crash leaves it to the next run's cleanup */
	if (kernel) {
		snprintf(line, sizeof(line), "p:perf_prof_%d/check vfs_read\n", (int)getpid());
	} else {
		err = features__self_offset(path, sizeof(path), &off);
		if (err)
			return err;
		if (strpbrk(path, " \t\n"))
			return -EINVAL;
		snprintf(line, sizeof(line), "p:perf_prof_%d/check %s:0x%llx\n", (int)getpid(),
			 path, off);
	}
	err = append(file, line);
	if (err)
		return err;
	/* made: it must show as an event, then go */
	snprintf(ev, sizeof(ev), "%s/events/perf_prof_%d/check", dir, (int)getpid());
	if (stat(ev, &st))
		err = -errno;
	snprintf(line, sizeof(line), "-:perf_prof_%d/check\n", (int)getpid());
	for (int try = 0; try < 100; try++) {
		int r = append(file, line);

		if (r != -EBUSY) {
			if (r && !err)
				err = r;
			break;
		}
		usleep(10000);
	}
	return err;
}

int features__tp_id(const char *sys, const char *name)
{
	const char *dir = features__tracefs_dir();
	char path[PATH_MAX + 512];
	int id, n;
	FILE *fp;

	if (!dir)
		return -errno;
	if (strchr(sys, '/') || strchr(name, '/') || strstr(sys, "..") || strstr(name, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	n = fscanf(fp, "%d", &id);
	fclose(fp);
	return n == 1 && id >= 0 ? id : -EINVAL;
}

int features__probe_tp(const char *sys, const char *name, int *fd)
{
	struct perf_event_attr a;
	int id = features__tp_id(sys, name), r;

	*fd = -1;
	if (id < 0)
		return id;
	attr_init(&a, PERF_TYPE_TRACEPOINT, (__u64)id);
	r = perf_open(&a, -1, 0);
	if (r < 0)
		return r;
	*fd = r;
	return 0;
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	int fd = (int)syscall(SYS_bpf, cmd, attr, sizeof(*attr));

	return fd < 0 ? -errno : fd;
}

int features__probe_bpf_map(unsigned map_type)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = map_type;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* vmlinux BTF's type @name of @kind (BTF_KIND_*): its id, or -errno; *@nr its types. */
static int vmlinux_btf_id(const char *name, int kind, unsigned *nr)
{
	/* libbpf's warnings would go to stderr: the caller says what failed */
	libbpf_print_fn_t print = libbpf_set_print(NULL);
	struct btf *btf = btf__load_vmlinux_btf();
	int id = 0, err = errno;

	libbpf_set_print(print);
	if (!btf) {
		/* ESRCH: no valid BTF anywhere libbpf looks; ENOENT when the kernel has none */
		if (access("/sys/kernel/btf/vmlinux", F_OK) && errno == ENOENT)
			return -ENOENT;
		return err ? -err : -ENOENT;
	}
	if (nr)
		*nr = btf__type_cnt(btf) - 1; /* without the void type 0 */
	if (name) {
		id = btf__find_by_name_kind(btf, name, kind);
		if (id < 0)
			id = -ENOENT;
	}
	btf__free(btf);
	return id;
}

int features__probe_btf(unsigned *nr_types)
{
	int r = vmlinux_btf_id(NULL, 0, nr_types);

	return r < 0 ? r : 0;
}

static const struct {
	const char *name;
	enum bpf_prog_type type;
	enum bpf_attach_type attach; /* expected_attach_type */
	const char *btf_target;	     /* attach_btf_id: this typedef of vmlinux BTF */
} bpf_progs[NR_FEAT_BPF_PROGS] = {
	[FEAT_BPF_SOCKET] = { "socket filter", BPF_PROG_TYPE_SOCKET_FILTER, 0, NULL },
	[FEAT_BPF_TRACEPOINT] = { "tracepoint", BPF_PROG_TYPE_TRACEPOINT, 0, NULL },
	[FEAT_BPF_RAW_TP] = { "raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, NULL },
	[FEAT_BPF_TP_BTF] = { "tp_btf", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP,
			      "btf_trace_sched_switch" },
	[FEAT_BPF_PERF_EVENT] = { "perf_event", BPF_PROG_TYPE_PERF_EVENT, 0, NULL },
};

const char *features__bpf_prog_name(enum feat_bpf_prog kind)
{
	return (unsigned)kind < NR_FEAT_BPF_PROGS ? bpf_progs[kind].name : "?";
}

int features__probe_bpf_prog(enum feat_bpf_prog kind)
{
	/* r0 = 0; exit: keeps nothing, counts nothing */
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static const char license[] = "GPL";
	union bpf_attr attr;
	int fd;

	if ((unsigned)kind >= NR_FEAT_BPF_PROGS)
		return -EINVAL;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = bpf_progs[kind].type;
	attr.expected_attach_type = bpf_progs[kind].attach;
	if (bpf_progs[kind].btf_target) {
		int id = vmlinux_btf_id(bpf_progs[kind].btf_target, BTF_KIND_TYPEDEF, NULL);

		if (id < 0)
			return id;
		attr.attach_btf_id = (__u32)id;
	}
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = 2;
	attr.license = (uintptr_t)license;
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

#define CAP_BIT_SYS_ADMIN 21
#define CAP_BIT_PERFMON 38
#define CAP_BIT_BPF 39

void features__bpf_env(struct feat_bpf_env *env)
{
	memset(env, 0, sizeof(*env));
	env->caps_known = !features__capabilities(&env->caps);
	env->cap_last = features__sysctl("kernel/cap_last_cap");
	env->unpriv = features__sysctl("kernel/unprivileged_bpf_disabled");
}

const char *features__bpf_explain(int err, const struct feat_bpf_env *env, char *buf, size_t len)
{
	bool admin = (env->caps >> CAP_BIT_SYS_ADMIN) & 1;
	bool bpf = admin || ((env->caps >> CAP_BIT_BPF) & 1);
	bool perfmon = admin || ((env->caps >> CAP_BIT_PERFMON) & 1);
	char unpriv[96] = "";
	const char *name = strerrorname_np(-err);

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!err)
		return buf;
	if (env->unpriv > 0)
		snprintf(unpriv, sizeof(unpriv), "; kernel.unprivileged_bpf_disabled=%d",
			 env->unpriv);
	if (err == -ENOSYS) {
		snprintf(buf, len, "no bpf(2): kernel without CONFIG_BPF_SYSCALL");
	} else if (err != -EPERM && err != -EACCES) {
		snprintf(buf, len, "tracepoint programs do not load: %s%s", name ? name : "?",
			 err == -EINVAL ? " (kernel without CONFIG_BPF_EVENTS?)" : "");
	} else if (!env->caps_known) {
		snprintf(buf, len,
			 "bpf(2) not permitted: needs CAP_BPF and CAP_PERFMON (or root)%s", unpriv);
	} else if (env->cap_last >= 0 && env->cap_last < CAP_BIT_BPF && !admin) {
		/* before 5.8: no CAP_BPF, CAP_PERFMON */
		snprintf(buf, len,
			 "bpf(2) not permitted: no CAP_SYS_ADMIN (this kernel has no CAP_BPF: "
			 "run as root)%s",
			 unpriv);
	} else if (!bpf || !perfmon) {
		snprintf(buf, len,
			 "bpf(2) not permitted: no %s (needs CAP_BPF and CAP_PERFMON, or root)%s",
			 !bpf && !perfmon ? "CAP_BPF, no CAP_PERFMON"
			 : !bpf		  ? "CAP_BPF"
					  : "CAP_PERFMON",
			 unpriv);
	} else {
		snprintf(buf, len,
			 "bpf(2) refused (%s) with CAP_BPF and CAP_PERFMON held: seccomp, an LSM, "
			 "or locked memory (ulimit -l) on a kernel before 5.11?",
			 name ? name : "EPERM");
	}
	return buf;
}

int features__bpf_why_not(char *buf, size_t len)
{
	struct feat_bpf_env env;
	int err = features__probe_bpf_prog(FEAT_BPF_TRACEPOINT);

	if (len)
		buf[0] = '\0';
	if (!err)
		return 0;
	features__bpf_env(&env);
	features__bpf_explain(err, &env, buf, len);
	return err;
}

int features__probe_kvm(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), v;

	if (fd < 0)
		return -errno;
	v = ioctl(fd, KVM_GET_API_VERSION_NR, 0);
	if (v < 0)
		v = -errno;
	close(fd);
	return v;
}

int features__sysctl(const char *name)
{
	char path[PATH_MAX];
	int val, ret;
	FILE *fp;

	if (strstr(name, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	ret = fscanf(fp, "%d", &val);
	fclose(fp);
	return ret == 1 ? val : -EINVAL;
}

int features__kallsyms(long *nr, long *nonzero, unsigned long long *first)
{
	char line[512];
	FILE *fp = fopen("/proc/kallsyms", "re");

	*nr = *nonzero = 0;
	*first = 0;
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long addr;

		if (sscanf(line, "%llx", &addr) != 1)
			continue;
		(*nr)++;
		if (addr) {
			if (!*nonzero)
				*first = addr;
			(*nonzero)++;
		}
	}
	fclose(fp);
	return 0;
}

int features__capabilities(unsigned long long *eff)
{
	char line[256];
	FILE *fp = fopen("/proc/self/status", "re");
	int err = -ENOENT;

	*eff = 0;
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CapEff: %llx", eff) == 1) {
			err = 0;
			break;
		}
	fclose(fp);
	return err;
}
