// SPDX-License-Identifier: GPL-2.0
/*
 * multi-trace: latency between points.  Each -e is a point (its events are
 * alternatives for it); an event at point k opens the pair k -> k+1 under
 * its key, an event at point k+1 with the same key closes it (--cycle: the
 * last point pairs with the first too).
 *
 * mpdelay, the original's multipoint delay, is a preset of it: one -e list
 * 'A,B[,C...]', every event a point in the order given, keyed by the thread
 * under -p/-t/-- and by the CPU otherwise, --than's bare number in
 * microseconds; no -k, no --cycle.
 *
 * Everything else is the shared latency engine, its hooks included
 * (analysis/latency/multipoint_ev.h, analysis/latency/multipoint.h).
 */
#include <errno.h>
#include <string.h>

#include "analysis/latency/multipoint_ev.h"
#include "engine/bpf.h"
#include "expr/expr.h"
#include "profiler.h"
#include "report/outfile.h"
#include "sym/stack.h"

struct multi_trace {
	bool cycle;
	const char *impl; /* --impl: delay (NULL), pair; the others are profilers of their own */
	struct multipoint_ev *m;
};

static int mt_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct key_opts *ko = opt_set__get(opts, &key_group);
	struct multi_trace *mt = priv;
	bool pair = mt->impl && !strcmp(mt->impl, "pair");

	/* syscalls, kmemprof, call, call-delay: the CLI ran that profiler instead (cli/main.c) */
	if (mt->impl && !pair && strcmp(mt->impl, "delay"))
		return session__usage_err(
			s, "--impl %s: give delay, pair, syscalls, kmemprof, call or call-delay",
			mt->impl);
	mt->m = multipoint_ev__new(s, &(struct multipoint_ev_conf){
					      .who = "multi-trace",
					      .cycle = mt->cycle,
					      .lat = opt_set__get(opts, &lat_group_mt),
					      .key_text = ko ? ko->expr : NULL,
					      .pair = pair,
					      .opts = opts,
				      });
	return mt->m ? 0 : -EINVAL;
}

static int mp_init(struct session *s, void *priv, const struct opt_set *opts)
{
	struct multi_trace *mt = priv;

	mt->m = multipoint_ev__new(s, &(struct multipoint_ev_conf){
					      .who = "mpdelay",
					      .by_index = true,
					      .lat = opt_set__get(opts, &lat_group_us),
					      .opts = opts,
				      });
	return mt->m ? 0 : -EINVAL;
}

static void mt_deinit(struct session *s, void *priv)
{
	struct multi_trace *mt = priv;

	multipoint_ev__delete(mt->m, s);
	mt->m = NULL;
}

static const struct popt mt_opts[] = {
	{ .lname = "cycle",
	  .help = "the last point pairs with the first too",
	  POPT_BIND_FLAG(struct multi_trace, cycle) },
	{ .lname = "impl",
	  .argname = "delay|pair|syscalls|kmemprof|call|call-delay",
	  .help = "delay (the default: the latency table), pair (the pairs left open: a leak "
		  "check), syscalls or kmemprof (run those profilers), call or call-delay "
		  "(nested-trace's modes)",
	  POPT_BIND_STR(struct multi_trace, impl) },
	{ 0 },
};

static const char *const mt_attrs[] = { "key", "role", "untraced", "row", "mark", "trigger", NULL };

const struct profiler prof_multi_trace = {
	.name = "multi-trace",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "latency between events: from each -e point to the next, per key",
	.synopsis = "perf-prof multi-trace -e START[,START...] -e END[,END...] [-e ...] [-k EXPR] "
		    "[--than TIME [-g]|--only-than TIME] [--lower TIME] [--impl "
		    "delay|pair|syscalls|kmemprof] "
		    "[--perins] [--hist] [--cycle] [-i MS] [-C CPUS|-p PID|-t "
		    "TID|-- CMD]",
	.examples =
		"perf-prof multi-trace -e syscalls:sys_enter_clock_nanosleep -e "
		"syscalls:sys_exit_clock_nanosleep -p 1234\n"
		"  perf-prof multi-trace -e 'sched:sched_wakeup//key=pid/' -e "
		"'sched:sched_switch//key=next_pid/' --than 10ms\n"
		"  perf-prof multi-trace -e irq:irq_handler_entry -e irq:irq_handler_exit --hist\n"
		"Key: key=EXPR, else -k EXPR, else the thread (with -p/-t/--), else the CPU.\n"
		"role=EXPR: bit 0 lets an event open a pair, bit 1 close one (default both).\n"
		"row=EXPR, mark=EXPR on the first of two points: a row per value of row= at the "
		"start, mark= (non-zero) counted in a 'marked' column.",
	.groups = (const struct opt_group *const[]){ &event_group, &key_group, &lat_group_mt,
						     &target_group, &run_group, &ring_group,
						     &output_group, &stack_group, &exclude_tp_group,
						     &bpf_group, NULL },
	.own = mt_opts,
	.ev_attrs = mt_attrs,
	/* a profiler in -e ("profile/-F 99/untraced/"): its samples in the --detail timelines */
	.joint = true,
	.priv_size = sizeof(struct multi_trace),
	.init = mt_init,
	.deinit = mt_deinit,
};

const struct profiler prof_mpdelay = {
	.name = "mpdelay",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "multipoint delay: from each event of one -e list to the next, per thread or CPU",
	.synopsis = "perf-prof mpdelay -e EVENT,EVENT[,EVENT...] [--than TIME [-g]] [--perins] "
		    "[--hist] [-i MS] [-C CPUS|-p PID|-t TID|-- CMD]",
	.examples = "perf-prof mpdelay -e "
		    "'syscalls:sys_enter_nanosleep,syscalls:sys_exit_nanosleep' -p 1234 -i 1000 "
		    "--than 600 --perins\n"
		    "  perf-prof mpdelay -e "
		    "'timer:hrtimer_start/function==0x.../,timer:hrtimer_expire_entry,timer:"
		    "hrtimer_expire_exit' -C 1 -i 1000\n"
		    "Key: the thread (with -p/-t/--), else the CPU.  --than: a bare number is us.",
	.groups = (const struct opt_group *const[]){ &event_group, &lat_group_us, &target_group,
						     &run_group, &ring_group, &output_group,
						     &stack_group, &exclude_tp_group, &bpf_group,
						     NULL },
	.ev_attrs = (const char *const[]){ "untraced", NULL },
	.priv_size = sizeof(struct multi_trace),
	.init = mp_init,
	.deinit = mt_deinit,
};
