// SPDX-License-Identifier: GPL-2.0
/*
 * hwstat: cycles, instructions and IPC, per interval and for the run (per
 * CPU or thread with --perins): the {cycles,instructions} group counted by
 * the CPU's PMU, read together so their ratio holds when multiplexed.  A
 * host without a hardware PMU (most VMs) cannot count them: one line says
 * so, and what counts time instead.
 */
#include <errno.h>
#include <stdio.h>

#include "analysis/counting/counters.h"
#include "engine/features.h"
#include "profiler.h"
#include "report/outfile.h"

struct hwstat {
	bool perins;
	struct evname *evs;
	int nr_evs;
	struct ctr_set cs;
};

static void report(struct session *s, void *priv, const char *what, bool since_start);

static int hw_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	struct hwstat *p = priv;
	char err[256];
	int rc;

	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));
	if (!features__cpu_pmu())
		return session__set_err(
			s, -ENODEV,
			"needs a hardware PMU, and this host has none (no "
			"/sys/bus/event_source/devices/cpu: a VM without a virtual "
			"PMU?): cycles and instructions cannot be counted; 'perf-prof "
			"stat -e task-clock' counts time");
	if (evname__parse_list("{cycles,instructions}", &p->evs, &p->nr_evs, err, sizeof(err)))
		return session__set_err(s, -EINVAL, "%s", err);
	rc = ctr_set__add(&p->cs, s, p->evs, p->nr_evs);
	for (int i = 0; !rc && i < p->cs.nr; i++) /* counted in the modes kept */
		exclude__attr(ex, &p->cs.c[i].ev->attr);
	return rc ?: ctr_set__report_by(&p->cs, s, report, p);
}

/* What was read last: since the last interval, or (@since_start) since the start. */
static void report(struct session *s, void *priv, const char *what, bool since_start)
{
	struct hwstat *p = priv;
	FILE *out = session__out(s);
	char ts[64];

	if (!session__json(s)) {
		session__fmt_time(s, session__now(s), ts, sizeof(ts));
		fprintf(out, "%s hwstat: %s %.3f s\n", ts, what,
			(double)(p->cs.t_now - (since_start ? p->cs.t_first : p->cs.t_last)) / 1e9);
	}
	ctr_set__report(&p->cs, out, session__json(s), p->perins, since_start, what);
	ctr_set__report_ratio(&p->cs, out, session__json(s), 1, 0, "IPC", p->perins, since_start,
			      what);
	fflush(out);
}

static void hw_deinit(struct session *s, void *priv)
{
	struct hwstat *p = priv;

	ctr_set__end(&p->cs, s);
	ctr_set__free(&p->cs);
	evname__free(p->evs, p->nr_evs);
}

static const struct popt hw_opts[] = {
	{ .lname = "perins",
	  .help = "per instance: each CPU (or each thread with -p/-t/--)",
	  POPT_BIND_FLAG(struct hwstat, perins) },
	{ 0 },
};

const struct profiler prof_hwstat = {
	.name = "hwstat",
	.needs = (const char *const[]){ "pmu", NULL },
	.desc = "cycles, instructions and IPC per interval (needs a hardware PMU)",
	.synopsis = "perf-prof hwstat [-i MS] [--perins] [-C CPUS|-p PID|-t TID|-- command]",
	.examples = "perf-prof hwstat -C 0-3 -i 1000 --perins\n"
		    "  perf-prof hwstat -- ./spin 2",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &output_group,
						     &exclude_group, NULL },
	.own = hw_opts,
	.priv_size = sizeof(struct hwstat),
	.init = hw_init,
	.deinit = hw_deinit,
};
