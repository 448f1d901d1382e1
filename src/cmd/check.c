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
#include "engine/bpf.h"
#include "engine/fdcloser.h"
#include "engine/features.h"
#include "engine/probe.h"
#include "profiler.h"
#include "sym/hostsyms.h"
#include "util/json.h"
#include "util/stopsig.h"

struct check_priv {
	bool json;
};

/* One tracepoint a profiler needs, probed once. */
struct tp_probe {
	char sys[64], name[128];
	int err;
};

struct host {
	/* tracefs */
	const char *tracefs;
	int events_err, nr_systems;
	/* permissions */
	int sw, sw_user, sw_wide, paranoid;
	char perf_why[256];
	unsigned long long caps;
	int caps_err;
	/* PMU, probes, breakpoints */
	int cycles;
	int kp_pmu, kp_dyn, up_pmu, up_dyn;
	char self[PATH_MAX];
	unsigned long long self_off;
	int bp;
	/* BPF, KVM, schedstats, kallsyms */
	int bpf_prog[NR_FEAT_BPF_PROGS], bpf_hash, bpf_array, btf, jit, unpriv_bpf;
	unsigned btf_types;
	int bpf_err; /* features__bpf_why_not: 0 when the BPF back end can run */
	char bpf_why[256];
	int kvm;
	int schedstats;
	int ks_err, kptr;
	long ks_nr, ks_nz;
	unsigned long long ks_first;
	/* files */
	struct libc_info libc;
	int libc_err;
	char kbid[2 * BUILD_ID_MAX + 1], kdebug[PATH_MAX];
	int kdebug_err;
	/* tracepoints the profilers need */
	struct tp_probe *tps;
	int nr_tps;
	int *fds;
	int nr_fds;
};

/* "ENOENT" (the brief name the kernel's documentation uses), or the message. */
static const char *ename(int err)
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

static void caps_of(struct host *h, struct check_caps *c)
{
	memset(c, 0, sizeof(*c));
	c->perf = !h->sw;
	if (h->sw) {
		snprintf(h->perf_why, sizeof(h->perf_why), "%s: see perf permissions",
			 ename(h->sw));
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
	c->tp = tp_cb;
	c->tp_arg = h;
}

/* ---- output ---- */

struct out {
	FILE *fp;
	bool json;
	int verbose;
};

static void row(struct out *o, const char *check, const char *result, const char *detail)
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
static void more(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void more(struct out *o, const char *fmt, ...)
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
static void cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t len, const char *fmt, ...)
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
			cat(req, sizeof(req), "%s%s", req[0] ? ", " : "", profilers[i]->name);
		else if (o)
			cat(opt, sizeof(opt), "%s%s", opt[0] ? ", " : "", profilers[i]->name);
	}
	if (!req[0] && !opt[0])
		return;
	cat(buf, len, " - ");
	if (req[0])
		cat(buf, len, "unavailable: %s%s", req, opt[0] ? "; " : "");
	if (opt[0])
		cat(buf, len, "degraded: %s", opt);
}

static void row_tracefs(struct out *o, struct host *h)
{
	char d[512];

	if (!h->tracefs) {
		row(o, "tracefs", "no",
		    "not mounted (mount -t tracefs nodev /sys/kernel/tracing) - unavailable: every "
		    "profiler of tracepoints");
		return;
	}
	if (h->events_err) {
		snprintf(d, sizeof(d), "%s (mounted), but %s/events: %s%s", h->tracefs, h->tracefs,
			 ename(h->events_err),
			 h->events_err == -EACCES ? " (readable by root only: run as root)" : "");
		row(o, "tracefs", "no", d);
		return;
	}
	snprintf(d, sizeof(d), "%s (mounted; %d event systems readable)", h->tracefs,
		 h->nr_systems);
	row(o, "tracefs", "yes", d);
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
			cat(caps, sizeof(caps), "%s%s", caps[0] ? " " : "", capn[i].name);
	if (geteuid() == 0)
		cat(d, sizeof(d), "root");
	else
		cat(d, sizeof(d), "uid %d", (int)geteuid());
	if (h->paranoid >= -1)
		cat(d, sizeof(d), ", perf_event_paranoid %d", h->paranoid);
	else
		cat(d, sizeof(d), ", no perf_event_paranoid (%s)", ename(h->paranoid));
	cat(d, sizeof(d), ", %s", caps[0] ? caps : "no CAP_PERFMON or CAP_SYS_ADMIN");
	if (h->sw) {
		res = "no";
		cat(d, sizeof(d), "; perf_event_open cpu-clock: %s", ename(h->sw));
		if (!h->sw_user)
			cat(d, sizeof(d),
			    " (user mode only: opens; the profilers count the kernel "
			    "too: root, CAP_PERFMON or perf_event_paranoid <= 1)");
		cat(d, sizeof(d), " - unavailable: every profiler");
	} else if (h->sw_wide) {
		res = "partial";
		cat(d, sizeof(d),
		    "; cpu-clock opens on this thread, system-wide: %s (root, CAP_PERFMON or "
		    "perf_event_paranoid <= 0)",
		    ename(h->sw_wide));
		affects(d, sizeof(d), NEED_CPU_WIDE, NULL);
	} else {
		res = "yes";
		cat(d, sizeof(d), "; cpu-clock opens on this thread and system-wide");
	}
	row(o, "perf permissions", res, d);
}

static void row_pmu(struct out *o, struct host *h)
{
	const char *cpu = features__cpu_pmu();
	char d[768] = "";

	if (!h->cycles) {
		snprintf(d, sizeof(d), "perf_event_open cycles: opened (PMU %s)", cpu ? cpu : "?");
		row(o, "hardware PMU", "yes", d);
		return;
	}
	snprintf(d, sizeof(d), "perf_event_open cycles: %s (%s)", ename(h->cycles),
		 cpu ? "a PMU is listed in /sys/bus/event_source/devices"
		     : "no cpu PMU in /sys/bus/event_source/devices: a VM without a virtual PMU?");
	affects(d, sizeof(d), NEED_PMU, NULL);
	row(o, "hardware PMU", "no", d);
}

/* One way to make a probe: "kprobe PMU: opened ..." or "no kprobe PMU". */
static void method(char *d, size_t len, const char *what, const char *absent, int err,
		   const char *done)
{
	cat(d, len, "%s", d[0] ? "; " : "");
	if (!err)
		cat(d, len, "%s: %s", what, done);
	else if (err == -ENOENT)
		cat(d, len, "%s", absent);
	else
		cat(d, len, "%s: %s", what, ename(err));
}

static void row_probes(struct out *o, struct host *h)
{
	char d[1024] = "", done[PATH_MAX + 64];

	method(d, sizeof(d), "kprobe PMU", "no kprobe PMU", h->kp_pmu,
	       "opened a kprobe on vfs_read");
	method(d, sizeof(d), "kprobe_events", "no kprobe_events in tracefs", h->kp_dyn,
	       "made and removed one");
	if (h->kp_pmu == -ENOENT && h->kp_dyn == -ENOENT)
		cat(d, sizeof(d), ": kernel without CONFIG_KPROBES");
	if (h->kp_pmu)
		affects(d, sizeof(d), NEED_KPROBE, NULL);
	row(o, "kprobes", !h->kp_pmu ? "yes" : !h->kp_dyn ? "partial" : "no", d);

	d[0] = '\0';
	snprintf(done, sizeof(done), "opened a uprobe on %s+0x%llx", h->self, h->self_off);
	method(d, sizeof(d), "uprobe PMU", "no uprobe PMU", h->up_pmu, done);
	method(d, sizeof(d), "uprobe_events", "no uprobe_events in tracefs", h->up_dyn,
	       "made and removed one");
	if (h->up_pmu == -ENOENT && h->up_dyn == -ENOENT)
		cat(d, sizeof(d), ": kernel without CONFIG_UPROBE_EVENTS");
	if (h->up_pmu)
		affects(d, sizeof(d), NEED_UPROBE, NULL);
	row(o, "uprobes", !h->up_pmu ? "yes" : !h->up_dyn ? "partial" : "no", d);
	more(o, "(a PMU probe is what -e uprobe:/kprobe: use; tracefs *_events only for typed "
		"fetches such as arg1=string)");

	d[0] = '\0';
	if (!h->bp)
		snprintf(d, sizeof(d), "perf_event_open of a write breakpoint: opened");
	else
		snprintf(d, sizeof(d), "perf_event_open of a write breakpoint: %s%s", ename(h->bp),
			 h->bp == -ENOENT ? " (no breakpoint PMU: CONFIG_HAVE_HW_BREAKPOINT)" : "");
	if (h->bp)
		affects(d, sizeof(d), NEED_BP, NULL);
	row(o, "hw breakpoints", h->bp ? "no" : "yes", d);
}

/* Probes of perf-prof runs that are gone (SIGKILL, a crash): removed before the checks. */
static void row_stale(struct out *o, int n, const char *names)
{
	char d[640];

	if (!n) {
		row(o, "leftover probes", "none", "no perf_prof_PID group of a run that is gone");
		return;
	}
	snprintf(d, sizeof(d), "removed %d probe%s of perf-prof runs that are gone: %s", n,
		 n > 1 ? "s" : "", names);
	row(o, "leftover probes", "removed", d);
}

/* The program types the BPF back end attaches with, cheapest first (engine/bpf.h). */
static const enum feat_bpf_prog bpf_kinds[] = { FEAT_BPF_TRACEPOINT, FEAT_BPF_RAW_TP,
						FEAT_BPF_TP_BTF, FEAT_BPF_PERF_EVENT };
#define NR_BPF_KINDS (int)(sizeof(bpf_kinds) / sizeof(bpf_kinds[0]))

/* "ok" or "EPERM". */
static const char *okerr(int err)
{
	return err ? ename(err) : "ok";
}

static void bpf_json(struct out *o, struct host *h, const char *result, const char *detail)
{
	struct json j;

	json__begin(&j, o->fp, "host");
	json__str(&j, "check", "BPF");
	json__str(&j, "result", result);
	json__str(&j, "detail", detail);
	json__obj(&j, "programs");
	for (int k = 0; k < NR_FEAT_BPF_PROGS; k++) {
		char key[32];

		snprintf(key, sizeof(key), "%s", features__bpf_prog_name((enum feat_bpf_prog)k));
		for (char *c = key; *c; c++)
			*c = *c == ' ' ? '_' : *c;
		json__str(&j, key, okerr(h->bpf_prog[k]));
	}
	json__close(&j);
	json__str(&j, "percpu_hash", okerr(h->bpf_hash));
	json__str(&j, "percpu_array", okerr(h->bpf_array));
	json__str(&j, "btf", okerr(h->btf));
	json__u64(&j, "btf_types", h->btf ? 0 : h->btf_types);
	if (h->jit >= 0)
		json__i64(&j, "jit", h->jit);
	else
		json__null(&j, "jit");
	if (h->unpriv_bpf >= 0)
		json__i64(&j, "unprivileged_bpf_disabled", h->unpriv_bpf);
	else
		json__null(&j, "unprivileged_bpf_disabled");
	json__str(&j, "why", h->bpf_why);
	json__end(&j);
}

/*
 * "tracepoint, raw_tp, tp_btf, perf_event programs load; per-CPU hash and
 * array maps; BTF (vmlinux, N types); JIT on": yes with all of them,
 * partial when tracepoint programs load but something is missing, no
 * when they do not (the BPF back end then is not used).
 */
static void row_bpf(struct out *o, struct host *h)
{
	char d[1024] = "", bad[256] = "";
	int nok = 0;
	bool all;

	for (int i = 0; i < NR_BPF_KINDS; i++) {
		int err = h->bpf_prog[bpf_kinds[i]];
		const char *name = features__bpf_prog_name(bpf_kinds[i]);

		if (!err)
			cat(d, sizeof(d), "%s%s", nok++ ? ", " : "", name);
		else
			cat(bad, sizeof(bad), ", %s: %s%s", name, ename(err),
			    bpf_kinds[i] == FEAT_BPF_TP_BTF && h->btf ? " (no BTF)" : "");
	}
	if (h->bpf_err) {
		/* why not, and nothing about the maps (refused alike) */
		snprintf(d, sizeof(d), "%s", h->bpf_why);
	} else {
		cat(d, sizeof(d), " program%s load%s", nok > 1 ? "s" : "", nok > 1 ? "" : "s");
		cat(d, sizeof(d), "%s", bad);
		if (!h->bpf_hash && !h->bpf_array)
			cat(d, sizeof(d), "; per-CPU hash and array maps");
		else
			cat(d, sizeof(d), "; per-CPU hash map: %s, per-CPU array: %s",
			    okerr(h->bpf_hash), okerr(h->bpf_array));
	}
	if (!h->btf)
		cat(d, sizeof(d), "; BTF (vmlinux, %u types)", h->btf_types);
	else
		cat(d, sizeof(d), "; no BTF (/sys/kernel/btf/vmlinux: %s%s)", ename(h->btf),
		    h->btf == -ENOENT  ? ": kernel without CONFIG_DEBUG_INFO_BTF"
		    : h->btf == -ESRCH ? ": not valid BTF for libbpf"
				       : "");
	if (h->jit > 0)
		cat(d, sizeof(d), "; JIT on%s", h->jit > 1 ? " (debug)" : "");
	else if (h->jit == 0)
		cat(d, sizeof(d),
		    "; JIT off (net.core.bpf_jit_enable=0: programs are interpreted)");
	else if (h->jit == -ENOENT)
		cat(d, sizeof(d), "; no JIT (kernel without CONFIG_BPF_JIT)");
	else
		cat(d, sizeof(d), "; JIT: %s", ename(h->jit));
	all = nok == NR_BPF_KINDS && !h->bpf_hash && !h->bpf_array && !h->btf && h->jit > 0;
	if (o->json) {
		bpf_json(o, h, h->bpf_err ? "no" : all ? "yes" : "partial", d);
		return;
	}
	row(o, "BPF", h->bpf_err ? "no" : all ? "yes" : "partial", d);
	more(o, "BPF_PROG_LOAD of each type: %s %s, %s %s, %s %s, %s %s, %s %s",
	     features__bpf_prog_name(FEAT_BPF_TRACEPOINT), okerr(h->bpf_prog[FEAT_BPF_TRACEPOINT]),
	     features__bpf_prog_name(FEAT_BPF_RAW_TP), okerr(h->bpf_prog[FEAT_BPF_RAW_TP]),
	     features__bpf_prog_name(FEAT_BPF_TP_BTF), okerr(h->bpf_prog[FEAT_BPF_TP_BTF]),
	     features__bpf_prog_name(FEAT_BPF_PERF_EVENT), okerr(h->bpf_prog[FEAT_BPF_PERF_EVENT]),
	     features__bpf_prog_name(FEAT_BPF_SOCKET), okerr(h->bpf_prog[FEAT_BPF_SOCKET]));
	if (h->unpriv_bpf >= 0)
		more(o, "kernel.unprivileged_bpf_disabled=%d", h->unpriv_bpf);
}

static bool has_group(const struct profiler *p, const struct opt_group *g)
{
	for (int k = 0; p->groups && p->groups[k]; k++)
		if (p->groups[k] == g)
			return true;
	return false;
}

/*
 * Whether @p has the BPF back end (its groups include engine/bpf.h's
 * bpf_group); not one that takes it only for its sample filters
 * (analysis/cpu/bpf_sfilter.h: profile, hrtimer), whose results always
 * come from the ring.
 */
static bool has_bpf(const struct profiler *p)
{
	return has_group(p, &bpf_group) && !has_group(p, &sfilter_group);
}

/* The profilers that use the BPF back end when the host allows it. */
static void row_bpf_back(struct out *o, struct host *h)
{
	char names[512] = "", d[1024];
	struct json j;

	for (int i = 0; i < nr_profilers; i++)
		if (has_bpf(profilers[i]))
			cat(names, sizeof(names), "%s%s", names[0] ? ", " : "", profilers[i]->name);
	if (!names[0])
		snprintf(d, sizeof(d), "no profiler of this build has it");
	else if (!h->bpf_err)
		snprintf(d, sizeof(d), "%s (by default; the ring path: --no-bpf)", names);
	else
		snprintf(d, sizeof(d), "unavailable here: %s - the ring path: %s", h->bpf_why,
			 names);
	for (int i = 0, n = 0; i < nr_profilers; i++)
		if (has_group(profilers[i], &sfilter_group))
			cat(d, sizeof(d), "%s%s",
			    n++ ? ", " : "; sample filters: ", profilers[i]->name);
	if (!o->json) {
		row(o, "BPF back end", !names[0] ? "none" : h->bpf_err ? "no" : "yes", d);
		return;
	}
	json__begin(&j, o->fp, "host");
	json__str(&j, "check", "BPF back end");
	json__str(&j, "result", !names[0] ? "none" : h->bpf_err ? "no" : "yes");
	json__str(&j, "detail", d);
	json__arr(&j, "profilers");
	for (int i = 0; i < nr_profilers; i++)
		if (has_bpf(profilers[i]))
			json__str(&j, NULL, profilers[i]->name);
	json__end(&j);
}

static void row_kvm(struct out *o, struct host *h)
{
	struct tp_probe *ex = tp_find(h, "kvm", "kvm_exit"), *en = tp_find(h, "kvm", "kvm_entry");
	char d[512];

	if (h->kvm >= 0)
		snprintf(d, sizeof(d), "/dev/kvm: API version %d", h->kvm);
	else
		snprintf(d, sizeof(d), "/dev/kvm: %s", ename(h->kvm));
	if (ex && en && !ex->err && !en->err) {
		cat(d, sizeof(d), "; kvm:kvm_exit, kvm:kvm_entry open");
	} else {
		int e = ex && ex->err ? ex->err : en ? en->err : -ENOENT;

		cat(d, sizeof(d), "; kvm:kvm_%s: %s%s", ex && ex->err ? "exit" : "entry", ename(e),
		    e == -ENOENT ? " (kvm module not loaded?)" : "");
		affects(d, sizeof(d), NEED_TP, "kvm");
	}
	row(o, "KVM", h->kvm >= 0 ? "yes" : "no", d);
}

static void row_schedstats(struct out *o, struct host *h)
{
	if (h->schedstats == 1)
		row(o, "schedstats", "yes", "/proc/sys/kernel/sched_schedstats 1");
	else if (h->schedstats == 0)
		row(o, "schedstats", "no",
		    "/proc/sys/kernel/sched_schedstats 0: sched:sched_stat_* do not fire "
		    "(sysctl kernel.sched_schedstats=1)");
	else if (h->schedstats == -ENOENT)
		row(o, "schedstats", "no",
		    "no /proc/sys/kernel/sched_schedstats: kernel without CONFIG_SCHEDSTATS "
		    "(sched:sched_stat_* never fire)");
	else {
		char d[256];

		snprintf(d, sizeof(d), "/proc/sys/kernel/sched_schedstats: %s",
			 ename(h->schedstats));
		row(o, "schedstats", "no", d);
	}
}

static void row_kallsyms(struct out *o, struct host *h)
{
	char d[512];

	if (h->ks_err) {
		snprintf(d, sizeof(d), "/proc/kallsyms: %s", ename(h->ks_err));
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
		cat(d, sizeof(d), "; kptr_restrict %d", h->kptr);
	if (h->ks_err || !h->ks_nz)
		affects(d, sizeof(d), NEED_KALLSYMS, NULL);
	row(o, "kallsyms", h->ks_err || !h->ks_nz ? "no" : "yes", d);
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
		snprintf(d, sizeof(d), "no libc in this process: %s", ename(h->libc_err));
		row(o, "libc debug file", "no", d);
	} else {
		hex(bid, sizeof(bid), l->build_id, l->bid_len);
		if (l->debug[0])
			snprintf(d, sizeof(d), "%s (of %s)", l->debug, l->path);
		else
			snprintf(d, sizeof(d),
				 "none for %s (build-id %s): libc's internal functions show as "
				 "addresses (Debian: apt install libc6-dbg)",
				 l->path, l->bid_len ? bid : "none");
		row(o, "libc debug file", l->debug[0] ? "yes" : "no", d);
		more(o, "build-id %s", l->bid_len ? bid : "none");
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
			 ename(h->kdebug_err));
	row(o, "kernel debuginfo", h->kdebug_err ? "no" : "yes", d);

	if (h->libc_err)
		return;
	if (l->fp_err) {
		snprintf(d, sizeof(d), "cannot tell for %s: %s", l->path, ename(l->fp_err));
		row(o, "libc frame pointers", "unknown", d);
		return;
	}
	/* An FP-built libc begins nearly all of them so; Debian's a few hand-written ones. */
	snprintf(d, sizeof(d),
		 "%d of the %d functions of %s begin with push %%rbp; mov %%rsp,%%rbp", l->nr_fp,
		 l->nr_funcs, l->path);
	if (2 * l->nr_fp > l->nr_funcs)
		cat(d, sizeof(d), ": -g stacks go through libc");
	else
		cat(d, sizeof(d),
		    ": -g (frame pointer) stacks lose frames or end in libc; --call-graph dwarf "
		    "unwinds it");
	row(o, "libc frame pointers", 2 * l->nr_fp > l->nr_funcs ? "yes" : "no", d);
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
		cat(d, sizeof(d), "%s%s:%s",
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
			cat(d, sizeof(d), "; %d: %s", n, ename(e));
	}
	row(o, "tracepoints", ok == h->nr_tps ? "yes" : ok ? "partial" : "no", d);
	for (int i = 0; i < h->nr_tps; i++)
		more(o, "%s:%s %s", h->tps[i].sys, h->tps[i].name,
		     h->tps[i].err ? ename(h->tps[i].err) : "opened");
}

/*
 * @p's needs, and for a profiler with the BPF back end the BPF it uses
 * when the host allows (else the ring path: degraded), into @buf.
 */
static const char *const *needs_of(const struct profiler *p, const char **buf, int cap)
{
	int n = 0;

	if (!p->needs || !has_bpf(p))
		return p->needs;
	while (p->needs[n] && n < cap - 2) {
		buf[n] = p->needs[n];
		n++;
	}
	buf[n++] = "bpf?=uses the ring path";
	buf[n] = NULL;
	return buf;
}

/* The profilers' lines; returns how many are unavailable. */
static int profiler_rows(struct out *o, struct host *h, int *nr_ok, int *nr_deg)
{
	struct check_caps caps;
	char why[1024];
	int unavail = 0;

	caps_of(h, &caps);
	*nr_ok = *nr_deg = 0;
	for (int i = 0; i < nr_profilers; i++) {
		const struct profiler *p = profilers[i];
		const char *buf[64];
		const char *const *needs = needs_of(p, buf, 64);
		enum check_status st = check__eval(needs, &caps, why, sizeof(why));

		*nr_ok += st == CHECK_OK;
		*nr_deg += st == CHECK_DEGRADED;
		unavail += st == CHECK_UNAVAILABLE;
		if (o->json) {
			struct json j;

			json__begin(&j, o->fp, "profiler");
			json__str(&j, "name", p->name);
			json__str(&j, "status", check__status_name(st));
			json__str(&j, "why", why);
			json__str(&j, "backend", has_bpf(p) && !h->bpf_err ? "bpf" : "ring");
			json__arr(&j, "needs");
			for (int k = 0; needs && needs[k]; k++)
				json__str(&j, NULL, needs[k]);
			json__end(&j);
			continue;
		}
		if (st == CHECK_OK)
			fprintf(o->fp, "  %-20s ok\n", p->name);
		else
			fprintf(o->fp, "  %-20s %s (%s)\n", p->name, check__status_name(st), why);
		if (o->verbose && needs) {
			char list[512] = "";

			for (int k = 0; needs[k]; k++)
				cat(list, sizeof(list), "%s%s", k ? " " : "", needs[k]);
			more(o, "needs: %s", list[0] ? list : "perf_event_open only");
		}
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
	row_bpf(&o, &h);
	row_bpf_back(&o, &h);
	row_kvm(&o, &h);
	row_schedstats(&o, &h);
	row_kallsyms(&o, &h);
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
