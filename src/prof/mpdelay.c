// SPDX-License-Identifier: GPL-2.0
/*
 * mpdelay: multipoint delay, the original's spelling.  One -e list
 * 'A,B[,C...]': every event is a point in the order given, each adjacent
 * pair measured, keyed by the thread under -p/-t/-- and by the CPU
 * otherwise; --than's bare number is in microseconds, as the original's.
 * The shared latency engine does the rest (analysis/latency/multipoint_ev.h).
 */
#include <errno.h>

#include "analysis/latency/multipoint_ev.h"
#include "profiler.h"
#include "report/outfile.h"
#include "sym/stack.h"

struct mpdelay {
	struct multipoint_ev *m;
};

static int mp_init(struct session *s, void *priv, const struct opt_set *opts)
{
	struct mpdelay *mp = priv;

	mp->m = multipoint_ev__new(s, &(struct multipoint_ev_conf){
					      .who = "mpdelay",
					      .by_index = true,
					      .lat = opt_set__get(opts, &lat_group_us),
				      });
	return mp->m ? 0 : -EINVAL;
}

static void mp_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	multipoint_ev__sample(((struct mpdelay *)priv)->m, s, ev, smp);
}

static void mp_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	(void)s, (void)cpu, (void)nr;
	multipoint__lost(multipoint_ev__multipoint(((struct mpdelay *)priv)->m));
}

static void mp_exit(struct session *s, void *priv, const struct rec_task *t)
{
	(void)s;
	multipoint_ev__exit(((struct mpdelay *)priv)->m, t->tid);
}

static void mp_interval(struct session *s, void *priv)
{
	multipoint__interval(multipoint_ev__multipoint(((struct mpdelay *)priv)->m), s);
}

static void mp_snapshot(struct session *s, void *priv)
{
	multipoint__snapshot(multipoint_ev__multipoint(((struct mpdelay *)priv)->m), s);
}

static void mp_deinit(struct session *s, void *priv)
{
	struct mpdelay *mp = priv;

	if (!mp->m)
		return;
	if (session__started(s))
		multipoint__finish(multipoint_ev__multipoint(mp->m), s);
	multipoint_ev__delete(mp->m, s);
	mp->m = NULL;
}

static const char *const mp_attrs[] = { "untraced", NULL };

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
						     &stack_group, &exclude_tp_group, NULL },
	.ev_attrs = mp_attrs,
	.priv_size = sizeof(struct mpdelay),
	.init = mp_init,
	.ops = { .sample = mp_sample,
		 .lost = mp_lost,
		 .exit = mp_exit,
		 .interval = mp_interval,
		 .snapshot = mp_snapshot },
	.deinit = mp_deinit,
};
