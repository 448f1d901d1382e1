// SPDX-License-Identifier: GPL-2.0
/* perf-prof check: a profiler's needs against the host's probes (cmd/check_eval.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/check_eval.h"

static const struct {
	const char *name;
	const char *missing; /* unavailable: "needs ..." */
	const char *lost;    /* degraded: what is missing */
} kinds[NR_NEEDS] = {
	[NEED_TRACEFS] = { "tracefs", "tracefs (mounted and readable)", "no tracefs" },
	[NEED_TP] = { "tp", NULL, NULL },
	[NEED_CPU_WIDE] = { "cpu-wide",
			    "system-wide events (root, CAP_PERFMON or perf_event_paranoid <= 0)",
			    "no system-wide events" },
	[NEED_PMU] = { "pmu", "a hardware PMU", "no PMU" },
	[NEED_KPROBE] = { "kprobe", "kprobes (CONFIG_KPROBES)", "no kprobes" },
	[NEED_UPROBE] = { "uprobe", "uprobes (CONFIG_UPROBE_EVENTS)", "no uprobes" },
	[NEED_BP] = { "bp", "hardware breakpoints (CONFIG_HAVE_HW_BREAKPOINT)",
		      "no hardware breakpoints" },
	[NEED_KALLSYMS] = { "kallsyms", "kernel addresses in /proc/kallsyms (kptr_restrict)",
			    "no kernel addresses in /proc/kallsyms" },
	[NEED_BPF] = { "bpf", "BPF (CAP_BPF and CAP_PERFMON, or root)", "no BPF" },
	[NEED_HWVIRT] = { "hwvirt", "hardware virtualization (vmx or svm in /proc/cpuinfo)",
			  "no vmx or svm in /proc/cpuinfo, KVM emulates the guest" },
};

const char *check__status_name(enum check_status st)
{
	return st == CHECK_OK ? "ok" : st == CHECK_DEGRADED ? "degraded" : "unavailable";
}

int check__parse_need(const char *need, struct check_need_parsed *p)
{
	const char *eq, *end;
	size_t klen;
	int k;

	memset(p, 0, sizeof(*p));
	if (!need || !*need)
		return -EINVAL;
	eq = strchr(need, '=');
	end = eq ? eq : need + strlen(need);
	if (eq) {
		if (!eq[1] || strlen(eq + 1) >= sizeof(p->note))
			return -EINVAL;
		snprintf(p->note, sizeof(p->note), "%s", eq + 1);
	}
	klen = strcspn(need, "?:=");
	for (k = 0; k < NR_NEEDS; k++)
		if (strlen(kinds[k].name) == klen && !strncmp(need, kinds[k].name, klen))
			break;
	if (k == NR_NEEDS)
		return -EINVAL;
	p->kind = (enum check_need)k;
	need += klen;
	if (*need == '?') {
		p->optional = true;
		need++;
	}
	if (p->kind != NEED_TP) {
		/* only a note may follow; an optional need without one is fine */
		return need == end ? 0 : -EINVAL;
	}
	/* tp:SYS:NAME */
	if (*need != ':')
		return -EINVAL;
	need++;
	{
		const char *colon = memchr(need, ':', end - need);
		size_t slen, nlen;

		if (!colon)
			return -EINVAL;
		slen = colon - need;
		nlen = end - colon - 1;
		if (!slen || !nlen || slen >= sizeof(p->sys) || nlen >= sizeof(p->name) ||
		    memchr(colon + 1, ':', nlen))
			return -EINVAL;
		memcpy(p->sys, need, slen);
		memcpy(p->name, colon + 1, nlen);
	}
	return 0;
}

/* Append @s to @buf (@sep between items); truncation keeps the string terminated. */
static void add(char *buf, size_t len, const char *sep, const char *s)
{
	size_t n = strlen(buf);

	if (n + 1 >= len)
		return;
	snprintf(buf + n, len - n, "%s%s", n ? sep : "", s);
}

/* Whether @p is met; if not, what is missing into @what. */
static bool met(const struct check_need_parsed *p, const struct check_caps *caps, bool lost,
		char *what, size_t len)
{
	int err;

	if (p->kind != NEED_TP) {
		snprintf(what, len, "%s", lost ? kinds[p->kind].lost : kinds[p->kind].missing);
		return caps->have[p->kind];
	}
	err = caps->tp ? caps->tp(caps->tp_arg, p->sys, p->name) : -ENOENT;
	if (!err)
		return true;
	if (lost)
		snprintf(what, len, "no %s:%s", p->sys, p->name);
	else if (err == -ENOENT)
		snprintf(what, len, "%s:%s (not in this kernel)", p->sys, p->name);
	else
		snprintf(what, len, "%s:%s (%s)", p->sys, p->name, strerror(-err));
	return false;
}

enum check_status check__eval(const char *const *needs, const struct check_caps *caps, char *why,
			      size_t len)
{
	char missing[512] = "", lost[512] = "", what[256], item[400];
	struct check_need_parsed p;
	bool cpu_wide_listed = false;

	if (len)
		why[0] = '\0';
	if (!needs) {
		snprintf(why, len, "its needs are not declared");
		return CHECK_UNAVAILABLE;
	}
	if (!caps->perf) {
		snprintf(why, len, "needs perf_event_open (%s)",
			 caps->perf_why ? caps->perf_why : "refused here");
		return CHECK_UNAVAILABLE;
	}
	for (int i = 0; needs[i]; i++) {
		if (check__parse_need(needs[i], &p)) {
			snprintf(why, len, "bad need '%s' (a bug in its declaration)", needs[i]);
			return CHECK_UNAVAILABLE;
		}
		cpu_wide_listed |= p.kind == NEED_CPU_WIDE;
		if (met(&p, caps, p.optional, what, sizeof(what)))
			continue;
		if (!p.optional) {
			add(missing, sizeof(missing), ", ", what);
		} else {
			if (p.note[0])
				snprintf(item, sizeof(item), "%s: %s", p.note, what);
			else
				snprintf(item, sizeof(item), "%s", what);
			add(lost, sizeof(lost), "; ", item);
		}
	}
	/* without system-wide events, any profiler still watches the user's own processes */
	if (!cpu_wide_listed && !caps->have[NEED_CPU_WIDE])
		add(lost, sizeof(lost), "; ", "only -p/-t/-- targets: no system-wide events");
	if (missing[0]) {
		snprintf(why, len, "needs %s", missing);
		return CHECK_UNAVAILABLE;
	}
	if (lost[0]) {
		snprintf(why, len, "%s", lost);
		return CHECK_DEGRADED;
	}
	return CHECK_OK;
}
