// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof check: needs -> ok / degraded / unavailable on synthesized
 * hosts (a capability set and a tracepoint table), and every profiler's
 * declared needs well formed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/check_eval.h"
#include "profiler.h"
#include "ut.h"

/* Tracepoints of the synthesized host: "sys:name=errno" (absent: it opens). */
static const char *const *tp_table;

static int tp_cb(void *arg, const char *sys, const char *name)
{
	char key[256];

	(void)arg;
	snprintf(key, sizeof(key), "%s:%s", sys, name);
	for (int i = 0; tp_table && tp_table[i]; i += 2)
		if (!strcmp(tp_table[i], key))
			return -(int)(long)tp_table[i + 1][0];
	return 0;
}

/* A host with everything. */
static struct check_caps full(void)
{
	struct check_caps c = { .perf = true, .tp = tp_cb };

	for (int k = 0; k < NR_NEEDS; k++)
		c.have[k] = true;
	tp_table = NULL;
	return c;
}

static const struct profiler *find(const char *name)
{
	for (int i = 0; i < nr_profilers; i++)
		if (!strcmp(profilers[i]->name, name))
			return profilers[i];
	return NULL;
}

static void test_parse(void)
{
	struct check_need_parsed p;

	CHECK_INT(check__parse_need("pmu", &p), 0);
	CHECK_INT(p.kind, NEED_PMU);
	CHECK(!p.optional, "pmu is required");
	CHECK_STR(p.note, "");
	CHECK_INT(check__parse_need("pmu?=uses cpu-clock", &p), 0);
	CHECK(p.optional, "pmu? is optional");
	CHECK_STR(p.note, "uses cpu-clock");
	CHECK_INT(check__parse_need("tp:sched:sched_switch", &p), 0);
	CHECK_INT(p.kind, NEED_TP);
	CHECK_STR(p.sys, "sched");
	CHECK_STR(p.name, "sched_switch");
	CHECK_INT(check__parse_need("tp?:kvm:kvm_exit=no kvmexit column", &p), 0);
	CHECK(p.optional && !strcmp(p.sys, "kvm") && !strcmp(p.name, "kvm_exit"), "tp? parsed");
	CHECK_STR(p.note, "no kvmexit column");
	CHECK_INT(check__parse_need("cpu-wide", &p), 0);
	CHECK_INT(p.kind, NEED_CPU_WIDE);
	CHECK_INT(check__parse_need("kallsyms", &p), 0);
	CHECK_INT(check__parse_need("bp", &p), 0);

	static const char *const bad[] = { "",		"pm",	    "pmux",	"pmu:x",
					   "pmu?=",	"pmu??",    "tp",	"tp:sched",
					   "tp:sched:", "tp::x",    "tp:a:b:c", "tp?sched:x",
					   "tracefs!",	"kprobe?x", "uprobe=" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(check__parse_need(bad[i], &p) == -EINVAL, "'%s' accepted", bad[i]);
	CHECK(check__parse_need(NULL, &p) == -EINVAL, "NULL accepted");
}

static void test_eval(void)
{
	struct check_caps c = full();
	char wbuf[512];
	const char *why = wbuf;

	/* everything here: ok, nothing to say */
	CHECK_INT(check__eval((const char *const[]){ "pmu", "tp:sched:sched_switch", NULL }, &c,
			      wbuf, sizeof(wbuf)),
		  CHECK_OK);
	CHECK_STR(why, "");
	CHECK_INT(check__eval((const char *const[]){ NULL }, &c, wbuf, sizeof(wbuf)), CHECK_OK);

	/* no PMU: required -> unavailable, optional -> degraded with its note */
	c.have[NEED_PMU] = false;
	CHECK_INT(check__eval((const char *const[]){ "pmu", NULL }, &c, wbuf, sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs a hardware PMU");
	CHECK_INT(check__eval((const char *const[]){ "pmu?=uses cpu-clock", NULL }, &c, wbuf,
			      sizeof(wbuf)),
		  CHECK_DEGRADED);
	CHECK_STR(why, "uses cpu-clock: no PMU");
	CHECK_INT(check__eval((const char *const[]){ "pmu?", NULL }, &c, wbuf, sizeof(wbuf)),
		  CHECK_DEGRADED);
	CHECK_STR(why, "no PMU");

	/* several missing: each named, required ones win */
	c.have[NEED_KPROBE] = false;
	CHECK_INT(check__eval((const char *const[]){ "kprobe", "pmu", "bp", NULL }, &c, wbuf,
			      sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs kprobes (CONFIG_KPROBES), a hardware PMU");
	CHECK_INT(check__eval((const char *const[]){ "pmu?=uses cpu-clock", "kprobe", NULL }, &c,
			      wbuf, sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs kprobes (CONFIG_KPROBES)");
	CHECK_INT(check__eval((const char *const[]){ "pmu?=uses cpu-clock", "kprobe?", NULL }, &c,
			      wbuf, sizeof(wbuf)),
		  CHECK_DEGRADED);
	CHECK_STR(why, "uses cpu-clock: no PMU; no kprobes");

	/* tracepoints: absent from the kernel, or refused */
	c = full();
	tp_table = (const char *const[]){
		"kvm:kvm_exit", "\x02", "kvm:kvm_entry", "\x02", "sched:sched_switch", "\x0d", NULL
	};
	CHECK_INT(check__eval((const char *const[]){ "tp:kvm:kvm_exit", "tp:kvm:kvm_entry", NULL },
			      &c, wbuf, sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why,
		  "needs kvm:kvm_exit (not in this kernel), kvm:kvm_entry (not in this kernel)");
	CHECK_INT(check__eval((const char *const[]){ "tp:sched:sched_switch", NULL }, &c, wbuf,
			      sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs sched:sched_switch (Permission denied)");
	CHECK_INT(check__eval((const char *const[]){ "tp:sched:sched_wakeup", "tp?:kvm:kvm_exit",
						     "tp?:irq:irq_handler_entry", NULL },
			      &c, wbuf, sizeof(wbuf)),
		  CHECK_DEGRADED);
	CHECK_STR(why, "no kvm:kvm_exit");
	CHECK_INT(check__eval((const char *const[]){ "tp?:kvm:kvm_exit=no kvmexit column", NULL },
			      &c, wbuf, sizeof(wbuf)),
		  CHECK_DEGRADED);
	CHECK_STR(why, "no kvmexit column: no kvm:kvm_exit");

	/* no system-wide events: listed -> unavailable, else own processes only */
	c = full();
	c.have[NEED_CPU_WIDE] = false;
	CHECK_INT(check__eval((const char *const[]){ "cpu-wide", NULL }, &c, wbuf, sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs system-wide events (root, CAP_PERFMON or perf_event_paranoid <= 0)");
	CHECK_INT(check__eval((const char *const[]){ "tracefs", NULL }, &c, wbuf, sizeof(wbuf)),
		  CHECK_DEGRADED);
	CHECK_STR(why, "only -p/-t/-- targets: no system-wide events");

	/* perf_event_open refused: nothing runs */
	c = full();
	c.perf = false;
	c.perf_why = "EACCES";
	CHECK_INT(check__eval((const char *const[]){ NULL }, &c, wbuf, sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs perf_event_open (EACCES)");

	/* undeclared or malformed needs never pass for ok */
	c = full();
	CHECK_INT(check__eval(NULL, &c, wbuf, sizeof(wbuf)), CHECK_UNAVAILABLE);
	CHECK_STR(why, "its needs are not declared");
	CHECK_INT(check__eval((const char *const[]){ "tracefs", "pmux", NULL }, &c, wbuf,
			      sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why, "bad need 'pmux' (a bug in its declaration)");

	/* a short buffer stays terminated */
	c.have[NEED_PMU] = false;
	CHECK_INT(check__eval((const char *const[]){ "pmu", NULL }, &c, wbuf, 8),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs a");

	CHECK_STR(check__status_name(CHECK_OK), "ok");
	CHECK_STR(check__status_name(CHECK_DEGRADED), "degraded");
	CHECK_STR(check__status_name(CHECK_UNAVAILABLE), "unavailable");
}

/* The real profilers: needs declared and well formed; verdicts on a host like this VM. */
/* The BPF back end: check adds "bpf?=uses the ring path" to a profiler that has it. */
static void test_bpf(void)
{
	struct check_caps c = full();
	struct check_need_parsed p;
	char wbuf[512];
	const char *why = wbuf;

	CHECK_INT(check__parse_need("bpf?=uses the ring path", &p), 0);
	CHECK_INT(p.kind, NEED_BPF);
	CHECK(p.optional, "bpf? is optional");
	CHECK_INT(check__eval((const char *const[]){ "tracefs", "bpf?=uses the ring path", NULL },
			      &c, wbuf, sizeof(wbuf)),
		  CHECK_OK);
	CHECK_STR(why, "");
	c.have[NEED_BPF] = false;
	CHECK_INT(check__eval((const char *const[]){ "tracefs", "bpf?=uses the ring path", NULL },
			      &c, wbuf, sizeof(wbuf)),
		  CHECK_DEGRADED);
	CHECK_STR(why, "uses the ring path: no BPF");
	CHECK_INT(check__eval((const char *const[]){ "bpf", NULL }, &c, wbuf, sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs BPF (CAP_BPF and CAP_PERFMON, or root)");
	/* with something else missing too: both said */
	c.have[NEED_PMU] = false;
	CHECK_INT(check__eval((const char *const[]){ "pmu?=uses cpu-clock",
						     "bpf?=uses the ring path", NULL },
			      &c, wbuf, sizeof(wbuf)),
		  CHECK_DEGRADED);
	CHECK_STR(why, "uses cpu-clock: no PMU; uses the ring path: no BPF");
}

static void test_profilers(void)
{
	struct check_caps c = full();
	struct check_need_parsed p;
	char wbuf[512];
	const char *why = wbuf;

	for (int i = 0; i < nr_profilers; i++) {
		const struct profiler *pr = profilers[i];

		CHECK(pr->needs != NULL, "%s declares no needs", pr->name);
		for (int k = 0; pr->needs && pr->needs[k]; k++)
			CHECK(!check__parse_need(pr->needs[k], &p), "%s: bad need '%s'", pr->name,
			      pr->needs[k]);
		CHECK(check__eval(pr->needs, &c, wbuf, sizeof(wbuf)) == CHECK_OK,
		      "%s not ok on a full host: %s", pr->name, why);
	}

	/* no PMU, no kprobes, no kvm tracepoints */
	c.have[NEED_PMU] = c.have[NEED_KPROBE] = false;
	tp_table = (const char *const[]){ "kvm:kvm_exit", "\x02", "kvm:kvm_entry", "\x02", NULL };
	CHECK_INT(check__eval(find("profile")->needs, &c, wbuf, sizeof(wbuf)), CHECK_DEGRADED);
	CHECK_STR(why, "uses cpu-clock: no PMU");
	CHECK_INT(check__eval(find("hwstat")->needs, &c, wbuf, sizeof(wbuf)), CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs a hardware PMU");
	CHECK_INT(check__eval(find("split-lock")->needs, &c, wbuf, sizeof(wbuf)),
		  CHECK_UNAVAILABLE);
	CHECK_INT(check__eval(find("kvm-exit")->needs, &c, wbuf, sizeof(wbuf)), CHECK_UNAVAILABLE);
	CHECK_STR(why,
		  "needs kvm:kvm_exit (not in this kernel), kvm:kvm_entry (not in this kernel)");
	CHECK_INT(check__eval(find("percpu-stat")->needs, &c, wbuf, sizeof(wbuf)), CHECK_DEGRADED);
	CHECK_STR(why, "no kvm:kvm_exit");
	CHECK_INT(check__eval(find("breakpoint")->needs, &c, wbuf, sizeof(wbuf)), CHECK_DEGRADED);
	CHECK_INT(check__eval(find("trace")->needs, &c, wbuf, sizeof(wbuf)), CHECK_OK);
	CHECK_INT(check__eval(find("task-state")->needs, &c, wbuf, sizeof(wbuf)), CHECK_OK);

	/* /dev/kvm without vmx/svm: KVM emulates, no VM exit: kvm-exit degraded, and why */
	c = full();
	c.have[NEED_HWVIRT] = false;
	CHECK_INT(check__eval(find("kvm-exit")->needs, &c, wbuf, sizeof(wbuf)), CHECK_DEGRADED);
	CHECK_STR(why, "kvm:kvm_exit never fires: no vmx or svm in /proc/cpuinfo, KVM emulates "
		       "the guest");
	CHECK_INT(check__eval(find("trace")->needs, &c, wbuf, sizeof(wbuf)), CHECK_OK);
	CHECK_INT(check__parse_need("hwvirt?=x", &p), 0);
	CHECK(p.kind == NEED_HWVIRT && p.optional, "hwvirt parsed");

	/* no tracefs: trace cannot run, page-faults (a software event) can */
	c = full();
	c.have[NEED_TRACEFS] = false;
	CHECK_INT(check__eval(find("trace")->needs, &c, wbuf, sizeof(wbuf)), CHECK_UNAVAILABLE);
	CHECK_STR(why, "needs tracefs (mounted and readable)");
	CHECK_INT(check__eval(find("page-faults")->needs, &c, wbuf, sizeof(wbuf)), CHECK_OK);
}

int main(void)
{
	test_parse();
	test_eval();
	test_bpf();
	test_profilers();
	return ut_done("test_check");
}
