// SPDX-License-Identifier: GPL-2.0
/*
 * signal: every signal sent, as it is sent (signal:signal_generate): the
 * sender (the task that raised it), the target, the signal's name and what
 * became of it (delivered, ignored, already pending, ...).  -p/-t/-- keep
 * the signals sent to those processes (whoever sends them); --filter keeps
 * those whose target or sender comm matches.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/kfilter.h"
#include "engine/procfs.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/evline.h"
#include "report/rtable.h"
#include "sym/stack.h"

struct sigwatch {
	const char *filter;
	struct evsel *ev;
	struct field sig, comm, pid, group, result;
	u64 shown;
};

static const char *const results[] = { "delivered", "ignored", "already pending", "overflow (lost)",
				       "lost info" };

/* "SIGUSR1", "SIGRTMIN+3", or "signal 99". */
static const char *sig_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sig > 0 && sig < SIGRTMIN ? sigabbrev_np(sig) : NULL;

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, len, sig == SIGRTMIN ? "SIGRTMIN" : "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

static int sw_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	struct sigwatch *w = priv;
	struct evsel_conf c = { .callchain = st && st->capture.cg != CG_NONE };

	/*
	 * A signal to a target may come from any task, on any CPU; in time
	 * order, a target is still known when a signal to it is read (its
	 * exit, on another CPU, comes after).
	 */
	session__want_cpu_wide(s);
	session__want_order(s);
	/*
	 * Matched here, not in the kernel: the event's "comm" is the
	 * target's, the sender's is the filter's COMM (the current task),
	 * and "either of them matches one of the globs" is one test here;
	 * signals are few.
	 */
	if (w->filter && !kfilter__globs_ok(w->filter))
		return session__usage_err(
			s,
			"bad --filter '%s': expected COMM[,COMM...] globs such as "
			"'nginx*,php-fpm'",
			w->filter);
	w->ev = session__add_tp(s, "signal", "signal_generate", &c);
	if (!w->ev)
		return -ENOENT;
	if (evsel__field(w->ev, "sig", &w->sig) || evsel__field(w->ev, "comm", &w->comm) ||
	    evsel__field(w->ev, "pid", &w->pid) || evsel__field(w->ev, "group", &w->group) ||
	    evsel__field(w->ev, "result", &w->result))
		return session__set_err(s, -EINVAL,
					"signal:signal_generate lacks a field it needs "
					"(sig, comm, pid, group, result)");
	return 0;
}

/* A signal sent: its event line in text (the signal's name for the event's), members in JSON. */
static const struct rt_col sig_cols[] = {
	{ .type = RT_ROW, .flags = RT_NO_JSON },
	{ .type = RT_ROW, .flags = RT_NO_TEXT },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	{ .name = "signal", .type = RT_STR, .flags = RT_NO_TEXT },
	{ .name = "sig", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "target_comm", .type = RT_STR, .flags = RT_NO_TEXT },
	{ .name = "target_pid", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "process", .type = RT_BOOL, .flags = RT_NO_TEXT },
	{ .name = "result", .type = RT_STR, .flags = RT_NO_TEXT },
	EVL_STACK_COL,
};
static const struct rt_desc sig_desc = { .type = "event", .cols = sig_cols, .ncols = 10 };

static void sw_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct sigwatch *w = priv;
	FILE *out = session__event_out(s, priv);
	u64 sig = 0, pid = 0, group = 0, result = 0;
	char name[32], target[64], text[128];
	const char *comm, *res;
	struct rt_val v[EVL_NCOLS], tv[EVL_NCOLS];
	struct rt_stack stk;
	int len = 0;
	pid_t tgid;

	field__u64(&w->sig, smp, &sig);
	field__u64(&w->pid, smp, &pid);
	field__u64(&w->group, smp, &group);
	field__u64(&w->result, smp, &result);
	/* the target's process, for -p: its thread group */
	tgid = procfs__tgid((pid_t)pid);
	if (!session__is_target(s, tgid > 0 ? (u32)tgid : (u32)pid, (u32)pid))
		return;
	comm = field__str(&w->comm, smp, &len);
	if (w->filter) {
		snprintf(target, sizeof(target), "%.*s", comm ? len : 0, comm ? comm : "");
		if (!kfilter__comm_match(w->filter, target) &&
		    !kfilter__comm_match(w->filter, session__comm(s, smp->tid)))
			return;
	}
	w->shown++;
	if (!out)
		return;
	sig_name((int)sig, name, sizeof(name));
	res = result < sizeof(results) / sizeof(results[0]) ? results[result] : "?";
	snprintf(target, sizeof(target), "%.*s", comm ? len : 0, comm ? comm : "");
	evline__row(v, &stk, s, NULL, smp, session__comm(s, smp->tid), ev->name);
	/* text: the signal's name where the event's is */
	memcpy(tv, v, sizeof(v));
	tv[EVL_EVENT].s = name;
	snprintf(text, sizeof(text), "to %s %llu%s: %s", comm ? target : "?",
		 (unsigned long long)pid, group ? " (process)" : "", res);
	evline__emit(s, out, &sig_desc,
		     (struct rt_val[]){ { .row = { &evline_head, tv } },
					{ .row = { &evline_head, v } },
					{ .s = text },
					{ .s = name },
					{ .u = sig },
					{ .s = target },
					{ .u = pid },
					{ .b = group != 0 },
					{ .s = res },
					v[EVL_STACK] });
}

static void sw_deinit(struct session *s, void *priv)
{
	/* --json: the CLI writes the lost record */
	if (session__started(s) && !session__json(s))
		session__print_lost(s, session__out(s));
	(void)priv;
}

static const struct popt sw_opts[] = {
	{ .lname = "filter",
	  .argname = "COMM,...",
	  .help = "only signals whose target or sender comm matches one of these globs",
	  POPT_BIND_STR(struct sigwatch, filter) },
	{ 0 },
};

const struct profiler prof_signal = {
	.name = "signal",
	.needs = (const char *const[]){ "tp:signal:signal_generate", "cpu-wide", NULL },
	.desc = "every signal sent: sender, target, signal and what became of it",
	.synopsis = "perf-prof signal [--filter COMM[,COMM...]] [-g] [-C CPUS|-p PID|-t TID|-- "
		    "command]",
	.examples =
		"perf-prof signal                           # every signal on the host\n"
		"  perf-prof signal -p 1234 -g               # who signals 1234, and from where\n"
		"  perf-prof signal --filter 'nginx*'        # signals to or from nginx\n"
		"A line: the sender (comm, tid, CPU), the signal, 'to' the target comm and "
		"tid,\n"
		"(process) for a process-directed signal, and delivered / ignored / already "
		"pending / ....",
	.groups = (const struct opt_group *const[]){ &target_group, &ring_group, &run_group,
						     &output_group, &stack_group, &exclude_tp_group,
						     NULL },
	.own = sw_opts,
	.priv_size = sizeof(struct sigwatch),
	.init = sw_init,
	.ops = { .sample = sw_sample },
	.deinit = sw_deinit,
};
