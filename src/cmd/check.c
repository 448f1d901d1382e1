// SPDX-License-Identifier: GPL-2.0
/*
 * check: what this host can do and why, then every profiler: ok, degraded
 * (runs without something optional) or unavailable (needs ...).  Each host
 * line is one probe of the real thing, opened and closed (a perf event, a
 * kprobe, a BPF map: engine/features_probe.c), or a measure of the files
 * (sym/hostsyms.c); the profilers' lines come from their declared needs
 * (struct profiler.needs) evaluated against those probes (cmd/check_eval).
 * Exit 0 when every profiler can run, 1 otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/cpu/bpf_sfilter.h"
#include "cmd/check_eval.h"
#include "cmd/check_int.h"
#include "engine/bpf.h"
#include "engine/fdcloser.h"
#include "engine/features.h"
#include "engine/probe.h"
#include "profiler.h"
#include "sym/hostsyms.h"
#include "sym/kcore.h"
#include "util/json.h"
#include "util/stopsig.h"

struct check_priv {
	bool json;
};

/* "ENOENT" (the brief name the kernel's documentation uses), or the message. */
const char *chk_ename(int err)
{
	const char *n = strerrorname_np(err < 0 ? -err : err);

	return n ? n : strerror(err < 0 ? -err : err);
}

/* ---- probing ---- */

static int count_systems(const char *dir, int *nr)
{
	char path[PATH_MAX + 16];
	struct dirent *de;
	DIR *d;

	*nr = 0;
	snprintf(path, sizeof(path), "%s/events", dir);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && de->d_type == DT_DIR)
			(*nr)++;
	closedir(d);
	return 0;
}

static struct tp_probe *tp_find(struct host *h, const char *sys, const char *name)
{
	for (int i = 0; i < h->nr_tps; i++)
		if (!strcmp(h->tps[i].sys, sys) && !strcmp(h->tps[i].name, name))
			return &h->tps[i];
	return NULL;
}

/* Open each distinct tracepoint the profilers name, once. */
static int probe_tps(struct host *h)
{
	struct check_need_parsed p;
	int cap = 0;

	for (int i = 0; i < nr_profilers; i++) {
		const char *const *needs = profilers[i]->needs;

		for (int k = 0; needs && needs[k]; k++) {
			struct tp_probe *t;
			int fd = -1;

			if (check__parse_need(needs[k], &p) || p.kind != NEED_TP ||
			    tp_find(h, p.sys, p.name))
				continue;
			if (h->nr_tps == cap) {
				int ncap = cap ? 2 * cap : 32;
				struct tp_probe *n = realloc(h->tps, ncap * sizeof(*n));
				int *f = realloc(h->fds, ncap * sizeof(*f));

				if (n)
					h->tps = n;
				if (f)
					h->fds = f;
				if (!n || !f)
					return -ENOMEM;
				cap = ncap;
			}
			t = &h->tps[h->nr_tps++];
			snprintf(t->sys, sizeof(t->sys), "%s", p.sys);
			snprintf(t->name, sizeof(t->name), "%s", p.name);
			t->err = h->tracefs ? features__probe_tp(p.sys, p.name, &fd) : -ENODEV;
			if (fd >= 0)
				h->fds[h->nr_fds++] = fd;
		}
	}
	return 0;
}

/* A tracepoint's last close waits for an RCU grace period: a helper does it (fdcloser.h). */
static void close_tps(struct host *h)
{
	if (h->nr_fds >= FDCLOSER_MIN_FDS)
		fdcloser__spawn(h->fds, h->nr_fds);
	for (int i = 0; i < h->nr_fds; i++)
		close(h->fds[i]);
	free(h->fds);
	free(h->tps);
}

static int probe_host(struct host *h)
{
	h->tracefs = features__tracefs_dir();
	h->events_err = h->tracefs ? count_systems(h->tracefs, &h->nr_systems) : -ENOENT;

	h->sw = features__probe_sw(false, false);
	h->sw_user = features__probe_sw(false, true);
	h->sw_wide = features__probe_sw(true, false);
	h->paranoid = features__paranoid();
	h->caps_err = features__capabilities(&h->caps);

	h->cycles = features__probe_cycles();
	h->kp_pmu = features__probe_kprobe_pmu("vfs_read");
	h->kp_dyn = features__probe_dynevent(true);
	h->up_pmu = features__probe_uprobe_pmu();
	h->up_dyn = features__probe_dynevent(false);
	if (features__self_offset(h->self, sizeof(h->self), &h->self_off))
		snprintf(h->self, sizeof(h->self), "this binary");
	h->bp = features__probe_bp();

	for (int k = 0; k < NR_FEAT_BPF_PROGS; k++)
		h->bpf_prog[k] = features__probe_bpf_prog((enum feat_bpf_prog)k);
	h->bpf_hash = features__probe_bpf_map(BPF_MAP_TYPE_PERCPU_HASH);
	h->bpf_array = features__probe_bpf_map(BPF_MAP_TYPE_PERCPU_ARRAY);
	h->btf = features__probe_btf(&h->btf_types);
	h->jit = features__sysctl("net/core/bpf_jit_enable");
	h->unpriv_bpf = features__sysctl("kernel/unprivileged_bpf_disabled");
	h->bpf_err = features__bpf_why_not(h->bpf_why, sizeof(h->bpf_why));
	h->kvm = features__probe_kvm();
	h->cpu_err = features__cpuinfo(&h->cpu);
	h->schedstats = features__sysctl("kernel/sched_schedstats");
	h->ks_err = features__kallsyms(&h->ks_nr, &h->ks_nz, &h->ks_first);
	h->kptr = features__sysctl("kernel/kptr_restrict");

	h->libc_err = hostsyms__libc(&h->libc);
	h->kdebug_err =
		hostsyms__kernel_debug(h->kbid, sizeof(h->kbid), h->kdebug, sizeof(h->kdebug));
	return probe_tps(h);
}

static int tp_cb(void *arg, const char *sys, const char *name)
{
	struct host *h = arg;
	struct tp_probe *t = tp_find(h, sys, name);
	int fd = -1, err;

	if (t)
		return t->err;
	/* a need check__eval met that probe_tps did not see: probe it now */
	err = h->tracefs ? features__probe_tp(sys, name, &fd) : -ENODEV;
	if (fd >= 0)
		close(fd);
	return err;
}

/*
 * Hardware virtualization: vmx or svm in cpuinfo's flags (no flags line, as
 * on other architectures, or no cpuinfo: assumed, not known missing).
 */
static bool hwvirt(const struct host *h)
{
	return h->cpu_err || !h->cpu.flags || h->cpu.virt[0];
}

static void caps_of(struct host *h, struct check_caps *c)
{
	memset(c, 0, sizeof(*c));
	c->perf = !h->sw;
	if (h->sw) {
		snprintf(h->perf_why, sizeof(h->perf_why), "%s: see perf permissions",
			 chk_ename(h->sw));
		c->perf_why = h->perf_why;
	}
	c->have[NEED_TRACEFS] = h->tracefs && !h->events_err;
	c->have[NEED_CPU_WIDE] = !h->sw_wide;
	c->have[NEED_PMU] = !h->cycles;
	c->have[NEED_KPROBE] = !h->kp_pmu;
	c->have[NEED_UPROBE] = !h->up_pmu;
	c->have[NEED_BP] = !h->bp;
	c->have[NEED_KALLSYMS] = !h->ks_err && h->ks_nz > 0;
	c->have[NEED_BPF] = !h->bpf_err;
	c->have[NEED_HWVIRT] = hwvirt(h);
	c->tp = tp_cb;
	c->tp_arg = h;
}

/* ---- output ---- */

void chk_row(struct out *o, const char *check, const char *result, const char *detail)
{
	struct json j;

	if (o->json) {
		json__begin(&j, o->fp, "host");
		json__str(&j, "check", check);
		json__str(&j, "result", result);
		json__str(&j, "detail", detail);
		json__end(&j);
		return;
	}
	fprintf(o->fp, "  %-20s %-8s %s\n", check, result, detail);
}

/* -v: one more line under the last row. */
void chk_more(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json || o->verbose < 1)
		return;
	fprintf(o->fp, "  %-20s %-8s ", "", "");
	va_start(ap, fmt);
	vfprintf(o->fp, fmt, ap);
	va_end(ap);
	fputc('\n', o->fp);
}

/* Append to @buf. */
void chk_cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/*
 * " - unavailable: hwstat, split-lock; degraded: profile, stat": the
 * profilers that need @kind (@sys NULL), or a tracepoint of system @sys.
 */
static void affects(char *buf, size_t len, enum check_need kind, const char *sys)
{
	char req[512] = "", opt[512] = "";
	struct check_need_parsed p;

	for (int i = 0; i < nr_profilers; i++) {
		const char *const *needs = profilers[i]->needs;
		bool r = false, o = false;

		for (int k = 0; needs && needs[k]; k++) {
			if (check__parse_need(needs[k], &p) || p.kind != kind ||
			    (sys && strcmp(p.sys, sys)))
				continue;
			if (p.optional)
				o = true;
			else
				r = true;
		}
		if (r)
			chk_cat(req, sizeof(req), "%s%s", req[0] ? ", " : "", profilers[i]->name);
		else if (o)
			chk_cat(opt, sizeof(opt), "%s%s", opt[0] ? ", " : "", profilers[i]->name);
	}
	if (!req[0] && !opt[0])
		return;
	chk_cat(buf, len, " - ");
	if (req[0])
		chk_cat(buf, len, "unavailable: %s%s", req, opt[0] ? "; " : "");
	if (opt[0])
		chk_cat(buf, len, "degraded: %s", opt);
}

static void row_tracefs(struct out *o, struct host *h)
{
	char d[512];

	if (!h->tracefs) {
		chk_row(o, "tracefs", "no",
			"not mounted (mount -t tracefs nodev /sys/kernel/tracing) - unavailable: "
			"every "
			"profiler of tracepoints");
		return;
	}
	if (h->events_err) {
		snprintf(d, sizeof(d), "%s (mounted), but %s/events: %s%s", h->tracefs, h->tracefs,
			 chk_ename(h->events_err),
			 h->events_err == -EACCES ? " (readable by root only: run as root)" : "");
		chk_row(o, "tracefs", "no", d);
		return;
	}
	snprintf(d, sizeof(d), "%s (mounted; %d event systems readable)", h->tracefs,
		 h->nr_systems);
	chk_row(o, "tracefs", "yes", d);
}

static void row_perm(struct out *o, struct host *h)
{
	static const struct {
		int bit;
		const char *name;
	} capn[] = { { 21, "CAP_SYS_ADMIN" },
		     { 38, "CAP_PERFMON" },
		     { 39, "CAP_BPF" },
		     { 34, "CAP_SYSLOG" },
		     { 14, "CAP_IPC_LOCK" } };
	char d[768] = "", caps[160] = "";
	const char *res;

	for (size_t i = 0; i < sizeof(capn) / sizeof(capn[0]); i++)
		if (!h->caps_err && (h->caps >> capn[i].bit) & 1)
			chk_cat(caps, sizeof(caps), "%s%s", caps[0] ? " " : "", capn[i].name);
	if (geteuid() == 0)
		chk_cat(d, sizeof(d), "root");
	else
		chk_cat(d, sizeof(d), "uid %d", (int)geteuid());
	if (h->paranoid >= -1)
		chk_cat(d, sizeof(d), ", perf_event_paranoid %d", h->paranoid);
	else
		chk_cat(d, sizeof(d), ", no perf_event_paranoid (%s)", chk_ename(h->paranoid));
	chk_cat(d, sizeof(d), ", %s", caps[0] ? caps : "no CAP_PERFMON or CAP_SYS_ADMIN");
	if (h->sw) {
		res = "no";
		chk_cat(d, sizeof(d), "; perf_event_open cpu-clock: %s", chk_ename(h->sw));
		if (!h->sw_user)
			chk_cat(d, sizeof(d),
				" (user mode only: opens; the profilers count the kernel "
				"too: root, CAP_PERFMON or perf_event_paranoid <= 1)");
		chk_cat(d, sizeof(d), " - unavailable: every profiler");
	} else if (h->sw_wide) {
		res = "partial";
		chk_cat(d, sizeof(d),
			"; cpu-clock opens on this thread, system-wide: %s (root, CAP_PERFMON or "
			"perf_event_paranoid <= 0)",
			chk_ename(h->sw_wide));
		affects(d, sizeof(d), NEED_CPU_WIDE, NULL);
	} else {
		res = "yes";
		chk_cat(d, sizeof(d), "; cpu-clock opens on this thread and system-wide");
	}
	chk_row(o, "perf permissions", res, d);
}

static void row_pmu(struct out *o, struct host *h)
{
	const char *cpu = features__cpu_pmu();
	char d[768] = "";

	if (!h->cycles) {
		snprintf(d, sizeof(d), "perf_event_open cycles: opened (PMU %s)", cpu ? cpu : "?");
		chk_row(o, "hardware PMU", "yes", d);
		return;
	}
	snprintf(d, sizeof(d), "perf_event_open cycles: %s (%s)", chk_ename(h->cycles),
		 cpu ? "a PMU is listed in /sys/bus/event_source/devices"
		     : "no cpu PMU in /sys/bus/event_source/devices: a VM without a virtual PMU?");
	affects(d, sizeof(d), NEED_PMU, NULL);
	chk_row(o, "hardware PMU", "no", d);
}

/* One way to make a probe: "kprobe PMU: opened ..." or "no kprobe PMU". */
static void method(char *d, size_t len, const char *what, const char *absent, int err,
		   const char *done)
{
	chk_cat(d, len, "%s", d[0] ? "; " : "");
	if (!err)
		chk_cat(d, len, "%s: %s", what, done);
	else if (err == -ENOENT)
		chk_cat(d, len, "%s", absent);
	else
		chk_cat(d, len, "%s: %s", what, chk_ename(err));
}

static void row_probes(struct out *o, struct host *h)
{
	char d[1024] = "", done[PATH_MAX + 64];

	method(d, sizeof(d), "kprobe PMU", "no kprobe PMU", h->kp_pmu,
	       "opened a kprobe on vfs_read");
	method(d, sizeof(d), "kprobe_events", "no kprobe_events in tracefs", h->kp_dyn,
	       "made and removed one");
	if (h->kp_pmu == -ENOENT && h->kp_dyn == -ENOENT)
		chk_cat(d, sizeof(d), ": kernel without CONFIG_KPROBES");
	if (h->kp_pmu)
		affects(d, sizeof(d), NEED_KPROBE, NULL);
	chk_row(o, "kprobes", !h->kp_pmu ? "yes" : !h->kp_dyn ? "partial" : "no", d);

	d[0] = '\0';
	snprintf(done, sizeof(done), "opened a uprobe on %s+0x%llx", h->self, h->self_off);
	method(d, sizeof(d), "uprobe PMU", "no uprobe PMU", h->up_pmu, done);
	method(d, sizeof(d), "uprobe_events", "no uprobe_events in tracefs", h->up_dyn,
	       "made and removed one");
	if (h->up_pmu == -ENOENT && h->up_dyn == -ENOENT)
		chk_cat(d, sizeof(d), ": kernel without CONFIG_UPROBE_EVENTS");
	if (h->up_pmu)
		affects(d, sizeof(d), NEED_UPROBE, NULL);
	chk_row(o, "uprobes", !h->up_pmu ? "yes" : !h->up_dyn ? "partial" : "no", d);
	chk_more(o, "(a PMU probe is what -e uprobe:/kprobe: use; tracefs *_events only for typed "
		    "fetches such as arg1=string)");

	d[0] = '\0';
	if (!h->bp)
		snprintf(d, sizeof(d), "perf_event_open of a write breakpoint: opened");
	else
		snprintf(d, sizeof(d), "perf_event_open of a write breakpoint: %s%s",
			 chk_ename(h->bp),
			 h->bp == -ENOENT ? " (no breakpoint PMU: CONFIG_HAVE_HW_BREAKPOINT)" : "");
	if (h->bp)
		affects(d, sizeof(d), NEED_BP, NULL);
	chk_row(o, "hw breakpoints", h->bp ? "no" : "yes", d);
}

/* Probes of perf-prof runs that are gone (SIGKILL, a crash): removed before the checks. */
static void row_stale(struct out *o, int n, const char *names)
{
	char d[640];

	if (!n) {
		chk_row(o, "leftover probes", "none",
			"no perf_prof_PID group of a run that is gone");
		return;
	}
	snprintf(d, sizeof(d), "removed %d probe%s of perf-prof runs that are gone: %s", n,
		 n > 1 ? "s" : "", names);
	chk_row(o, "leftover probes", "removed", d);
}

/*
 * /dev/kvm and the kvm tracepoints; "partial" when /dev/kvm opens on a CPU
 * without vmx/svm: KVM then emulates the guest, which runs, but no VM
 * exit ever happens: kvm:kvm_exit never fires, the kvmmmu events only while
 * a VM is built.
 */
static void row_kvm(struct out *o, struct host *h)
{
	struct tp_probe *ex = tp_find(h, "kvm", "kvm_exit"), *en = tp_find(h, "kvm", "kvm_entry");
	bool emulated = h->kvm >= 0 && !hwvirt(h);
	char d[768];

	if (h->kvm >= 0)
		snprintf(d, sizeof(d), "/dev/kvm: API version %d", h->kvm);
	else
		snprintf(d, sizeof(d), "/dev/kvm: %s", chk_ename(h->kvm));
	if (emulated)
		chk_cat(d, sizeof(d),
			", but no vmx or svm in /proc/cpuinfo's flags%s: KVM emulates the guest, "
			"no VM "
			"exit happens: kvm:kvm_exit never fires, kvmmmu:* only while a VM is built",
			h->cpu.hypervisor ? " (this host is a guest without nested virtualization)"
					  : "");
	if (ex && en && !ex->err && !en->err) {
		chk_cat(d, sizeof(d), "; kvm:kvm_exit, kvm:kvm_entry open");
		if (emulated)
			affects(d, sizeof(d), NEED_HWVIRT, NULL);
	} else {
		int e = ex && ex->err ? ex->err : en ? en->err : -ENOENT;

		chk_cat(d, sizeof(d), "; kvm:kvm_%s: %s%s", ex && ex->err ? "exit" : "entry",
			chk_ename(e), e == -ENOENT ? " (kvm module not loaded?)" : "");
		affects(d, sizeof(d), NEED_TP, "kvm");
	}
	chk_row(o, "KVM", h->kvm < 0 ? "no" : emulated ? "partial" : "yes", d);
}

static void row_schedstats(struct out *o, struct host *h)
{
	if (h->schedstats == 1)
		chk_row(o, "schedstats", "yes", "/proc/sys/kernel/sched_schedstats 1");
	else if (h->schedstats == 0)
		chk_row(o, "schedstats", "no",
			"/proc/sys/kernel/sched_schedstats 0: sched:sched_stat_* do not fire "
			"(sysctl kernel.sched_schedstats=1)");
	else if (h->schedstats == -ENOENT)
		chk_row(o, "schedstats", "no",
			"no /proc/sys/kernel/sched_schedstats: kernel without CONFIG_SCHEDSTATS "
			"(sched:sched_stat_* never fire)");
	else {
		char d[256];

		snprintf(d, sizeof(d), "/proc/sys/kernel/sched_schedstats: %s",
			 chk_ename(h->schedstats));
		chk_row(o, "schedstats", "no", d);
	}
}

static void row_kallsyms(struct out *o, struct host *h)
{
	char d[512];

	if (h->ks_err) {
		snprintf(d, sizeof(d), "/proc/kallsyms: %s", chk_ename(h->ks_err));
	} else if (h->ks_nz) {
		snprintf(d, sizeof(d), "%ld symbols, real addresses (first %llx)", h->ks_nr,
			 h->ks_first);
	} else {
		snprintf(d, sizeof(d),
			 "%ld symbols, every address 0: hidden from this user (root or CAP_SYSLOG "
			 "sees them, others only with kptr_restrict 0 and perf_event_paranoid <= "
			 "1); kernel frames print as addresses",
			 h->ks_nr);
	}
	if (h->kptr >= 0)
		chk_cat(d, sizeof(d), "; kptr_restrict %d", h->kptr);
	if (h->ks_err || !h->ks_nz)
		affects(d, sizeof(d), NEED_KALLSYMS, NULL);
	chk_row(o, "kallsyms", h->ks_err || !h->ks_nz ? "no" : "yes", d);
}

/* /proc/kcore, for perf-prof kcore (a command: no profiler's need) */
static void row_kcore(struct out *o)
{
	struct kcore *kc;
	char d[512], why[400];
	int err = kcore__open(NULL, &kc);

	if (err)
		snprintf(d, sizeof(d),
			 "/proc/kcore: %s; perf-prof kcore reads only a saved copy "
			 "(--kcore FILE)",
			 kcore__explain(err, why, sizeof(why)));
	else
		snprintf(d, sizeof(d), "%d segments; perf-prof kcore reads kernel memory",
			 kcore__nr_segments(kc));
	kcore__delete(kc);
	chk_row(o, "kcore", err ? "no" : "yes", d);
}

static void hex(char *out, size_t len, const unsigned char *b, int n)
{
	out[0] = '\0';
	for (int i = 0; i < n && (size_t)(2 * i + 2) < len; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static void row_files(struct out *o, struct host *h)
{
	char d[2 * PATH_MAX + 512], bid[2 * BUILD_ID_MAX + 1];
	const struct libc_info *l = &h->libc;

	if (h->libc_err) {
		snprintf(d, sizeof(d), "no libc in this process: %s", chk_ename(h->libc_err));
		chk_row(o, "libc debug file", "no", d);
	} else {
		hex(bid, sizeof(bid), l->build_id, l->bid_len);
		if (l->debug[0])
			snprintf(d, sizeof(d), "%s (of %s)", l->debug, l->path);
		else
			snprintf(d, sizeof(d),
				 "none for %s (build-id %s): libc's internal functions show as "
				 "addresses (Debian: apt install libc6-dbg)",
				 l->path, l->bid_len ? bid : "none");
		chk_row(o, "libc debug file", l->debug[0] ? "yes" : "no", d);
		chk_more(o, "build-id %s", l->bid_len ? bid : "none");
	}
	if (!h->kdebug_err)
		snprintf(d, sizeof(d), "%s (build-id %s)", h->kdebug, h->kbid);
	else if (h->kdebug_err == -ENOENT && h->kbid[0])
		snprintf(d, sizeof(d),
			 "no vmlinux with the kernel's build-id %s under /usr/lib/debug or /boot "
			 "(not needed: kernel symbols come from /proc/kallsyms)",
			 h->kbid);
	else
		snprintf(d, sizeof(d), "the kernel's build-id (/sys/kernel/notes): %s",
			 chk_ename(h->kdebug_err));
	chk_row(o, "kernel debuginfo", h->kdebug_err ? "no" : "yes", d);

	if (h->libc_err)
		return;
	if (l->fp_err) {
		snprintf(d, sizeof(d), "cannot tell for %s: %s", l->path, chk_ename(l->fp_err));
		chk_row(o, "libc frame pointers", "unknown", d);
		return;
	}
	/* An FP-built libc begins nearly all of them so; Debian's a few hand-written ones. */
	snprintf(d, sizeof(d),
		 "%d of the %d functions of %s begin with push %%rbp; mov %%rsp,%%rbp", l->nr_fp,
		 l->nr_funcs, l->path);
	if (2 * l->nr_fp > l->nr_funcs)
		chk_cat(d, sizeof(d), ": -g stacks go through libc");
	else
		chk_cat(d, sizeof(d),
			": -g (frame pointer) stacks lose frames or end in libc; --call-graph "
			"dwarf "
			"unwinds it");
	chk_row(o, "libc frame pointers", 2 * l->nr_fp > l->nr_funcs ? "yes" : "no", d);
}

static void row_tps(struct out *o, struct host *h)
{
	char d[1024] = "";
	int ok = 0, shown = 0;

	for (int i = 0; i < h->nr_tps; i++)
		ok += !h->tps[i].err;
	snprintf(d, sizeof(d), "%d of the %d the profilers name open system-wide", ok, h->nr_tps);
	/* those the kernel lacks by name, the others by error */
	for (int i = 0; i < h->nr_tps; i++) {
		if (h->tps[i].err != -ENOENT)
			continue;
		chk_cat(d, sizeof(d), "%s%s:%s",
			shown++ ? ", " : "; not in this kernel: ", h->tps[i].sys, h->tps[i].name);
	}
	for (int i = 0; i < h->nr_tps; i++) {
		int e = h->tps[i].err, n = 0, seen = 0;

		if (!e || e == -ENOENT)
			continue;
		for (int k = 0; k < h->nr_tps; k++) {
			n += h->tps[k].err == e;
			seen += k < i && h->tps[k].err == e;
		}
		if (!seen)
			chk_cat(d, sizeof(d), "; %d: %s", n, chk_ename(e));
	}
	chk_row(o, "tracepoints", ok == h->nr_tps ? "yes" : ok ? "partial" : "no", d);
	for (int i = 0; i < h->nr_tps; i++)
		chk_more(o, "%s:%s %s", h->tps[i].sys, h->tps[i].name,
			 h->tps[i].err ? chk_ename(h->tps[i].err) : "opened");
}

/*
 * @p's needs, and for a profiler with the BPF back end the BPF it uses
 * when the host allows (else the ring path: degraded), into @buf.
 */
static const char *const *needs_of(const struct profiler *p, const char **buf, int cap)
{
	int n = 0;

	if (!p->needs || !chk_has_bpf(p))
		return p->needs;
	while (p->needs[n] && n < cap - 2) {
		buf[n] = p->needs[n];
		n++;
	}
	buf[n++] = "bpf?=uses the ring path";
	buf[n] = NULL;
	return buf;
}

/* One profiler's (or command's) line. */
static enum check_status check_row(struct out *o, const struct check_caps *caps, const char *name,
				   const char *const *needs, const char *backend)
{
	enum check_status st;
	char why[1024];

	st = check__eval(needs, caps, why, sizeof(why));
	if (o->json) {
		struct json j;

		json__begin(&j, o->fp, "profiler");
		json__str(&j, "name", name);
		json__str(&j, "status", check__status_name(st));
		json__str(&j, "why", why);
		json__str(&j, "backend", backend);
		json__arr(&j, "needs");
		for (int k = 0; needs && needs[k]; k++)
			json__str(&j, NULL, needs[k]);
		json__end(&j);
		return st;
	}
	if (st == CHECK_OK)
		fprintf(o->fp, "  %-20s ok\n", name);
	else
		fprintf(o->fp, "  %-20s %s (%s)\n", name, check__status_name(st), why);
	if (o->verbose && needs) {
		char list[512] = "";

		for (int k = 0; needs[k]; k++)
			chk_cat(list, sizeof(list), "%s%s", k ? " " : "", needs[k]);
		chk_more(o, "needs: %s", list[0] ? list : "perf_event_open only");
	}
	return st;
}

/*
 * The profilers' lines, then the commands' that need something of the
 * host (usdt: tracefs uprobes); returns how many are unavailable.
 */
static int profiler_rows(struct out *o, struct host *h, int *nr_ok, int *nr_deg)
{
	struct check_caps caps;
	int unavail = 0;

	caps_of(h, &caps);
	*nr_ok = *nr_deg = 0;
	for (int i = 0; i < nr_profilers + nr_commands; i++) {
		const struct profiler *p = i < nr_profilers ? profilers[i] : NULL;
		const struct command *c = p ? NULL : commands[i - nr_profilers];
		const char *buf[64];
		const char *const *needs = p ? needs_of(p, buf, 64) : c->needs;
		enum check_status st;

		if (c && !c->needs)
			continue;
		st = check_row(o, &caps, p ? p->name : c->name, needs,
			       p && chk_has_bpf(p) && !h->bpf_err ? "bpf" : "ring");
		*nr_ok += st == CHECK_OK;
		*nr_deg += st == CHECK_DEGRADED;
		unavail += st == CHECK_UNAVAILABLE;
	}
	return unavail;
}

static int check_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	const struct log_opts *log = opt_set__get(opts, &log_group);
	struct check_priv *cp = priv;
	struct out o = { stdout, cp && cp->json, log ? log->verbose : 0 };
	struct host h;
	int unavail, nr_ok, nr_deg, err, stale;
	char stale_names[512];

	(void)argv;
	if (argc > 0) {
		fprintf(stderr, "perf-prof check: takes no arguments (try: perf-prof check -v)\n");
		return 2;
	}
	memset(&h, 0, sizeof(h));
	/* the probes it makes and removes: a stop waits until they are gone */
	stopsig__hold();
	stale = probe__remove_stale(stale_names, sizeof(stale_names));
	err = probe_host(&h);
	stopsig__release();
	if (err) {
		close_tps(&h);
		fprintf(stderr, "perf-prof check: %s\n", strerror(-err));
		return 1;
	}
	if (!o.json)
		fprintf(o.fp, "Host:\n");
	row_tracefs(&o, &h);
	row_perm(&o, &h);
	row_pmu(&o, &h);
	row_probes(&o, &h);
	row_stale(&o, stale, stale_names);
	chk_row_bpf(&o, &h);
	chk_row_bpf_back(&o, &h);
	row_kvm(&o, &h);
	row_schedstats(&o, &h);
	row_kallsyms(&o, &h);
	row_kcore(&o);
	row_files(&o, &h);
	row_tps(&o, &h);
	if (!o.json)
		fprintf(o.fp, "\nProfilers:\n");
	unavail = profiler_rows(&o, &h, &nr_ok, &nr_deg);
	if (o.json) {
		struct json j;

		json__begin(&j, o.fp, "summary");
		json__u64(&j, "ok", nr_ok);
		json__u64(&j, "degraded", nr_deg);
		json__u64(&j, "unavailable", unavail);
		json__end(&j);
	} else {
		fprintf(o.fp, "\n%d ok, %d degraded, %d unavailable\n", nr_ok, nr_deg, unavail);
	}
	close_tps(&h);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "perf-prof check: cannot write: %s\n", strerror(errno));
		return 1;
	}
	return unavail ? 1 : 0;
}

static const struct popt check_opts[] = {
	{ .lname = "json",
	  .help = "one JSON object per line: each host check, each profiler, a summary",
	  POPT_BIND_FLAG(struct check_priv, json) },
	{ 0 },
};

const struct command cmd_check = {
	.name = "check",
	.desc = "what this host can do (tracefs, permissions, PMU, probes, BPF, ...) and which "
		"profilers run",
	.synopsis = "perf-prof check [-v] [--json]",
	.examples =
		"perf-prof check            # the host, then every profiler: ok, degraded, "
		"unavailable\n"
		"  perf-prof check -v         # with each tracepoint and each profiler's needs\n"
		"  perf-prof check --json | jq -r 'select(.status == \"unavailable\") | .name'",
	.own = check_opts,
	.priv_size = sizeof(struct check_priv),
	.run = check_run,
};
