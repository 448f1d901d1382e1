// SPDX-License-Identifier: GPL-2.0
/*
 * llcstat: the last-level cache's accesses, misses and miss ratio, per
 * interval and for the run (per CPU or thread with --perins), counted by
 * the CPU's PMU as one group so that the ratio holds when multiplexed.
 * The kernel's generic cache events (LLC-loads, LLC-load-misses) where
 * its table has them for this CPU; otherwise Intel's architectural
 * LONGEST_LAT_CACHE events, or AMD's L3 PMU (amd_l3), by name.  A host
 * without a hardware PMU (most VMs) cannot count them: one line says so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/counting/missrate.h"
#include "engine/features.h"
#include "profiler.h"
#include "report/outfile.h"

struct llcstat {
	bool perins;
	struct missrate_set m;
};

/*
 * The events llcstat counts on a CPU of @vendor: the generic ones when the
 * kernel has them (@generic), else by name (Intel: LONGEST_LAT_CACHE
 * .REFERENCE and .MISS, architectural since Core 2; AMD: the L3 PMU's
 * accesses and misses when @amd_l3), or NULL.
 */
const char *llcstat__events(const char *vendor, bool generic, bool amd_l3)
{
	if (generic)
		return "{LLC-loads,LLC-load-misses}";
	if (!strcmp(vendor, "GenuineIntel"))
		return "{cpu/event=0x2e,umask=0x4f,name=LLC-references/,"
		       "cpu/event=0x2e,umask=0x41,name=LLC-misses/}";
	if (amd_l3 && (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")))
		return "{amd_l3/event=0x04,umask=0xff,name=L3-accesses/,"
		       "amd_l3/event=0x04,umask=0x01,name=L3-misses/}";
	return NULL;
}

static const struct missrate_pair llc_pair = {
	.access = 0,
	.miss = 1,
	.acc_title = "ACCESSES",
	.acc_name = "accesses",
	.miss_name = "misses",
	.pct_name = "miss_pct",
};

static void report(struct session *s, void *priv, const char *what, bool since_start)
{
	struct llcstat *p = priv;
	FILE *out = session__out(s);
	char ts[64];

	if (!session__json(s)) {
		session__fmt_time(s, session__now(s), ts, sizeof(ts));
		fprintf(out, "%s llcstat: %s %.3f s (%s, %s)\n", ts, what,
			(double)(p->m.cs.t_now - (since_start ? p->m.cs.t_first : p->m.cs.t_last)) /
				1e9,
			p->m.cs.c[0].name, p->m.cs.c[1].name);
	}
	missrate__report(&p->m.cs, out, session__json(s), &llc_pair, 1, p->perins, since_start,
			 what);
	fflush(out);
}

static int llc_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	struct llcstat *p = priv;
	struct feat_cpuinfo ci;
	const char *events;
	int rc;

	if ((rc = missrate__check(s, ex, "the last-level cache's accesses and misses")))
		return rc;
	features__cpuinfo(&ci);
	events = llcstat__events(
		ci.vendor,
		!features__probe_counter(PERF_TYPE_HW_CACHE,
					 PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_OP_READ << 8 |
						 PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16),
		features__has_pmu("amd_l3"));
	return missrate__open(&p->m, s, ex, events, "last-level cache events", "LLC-loads",
			      ci.vendor, report, p);
}

static void llc_deinit(struct session *s, void *priv)
{
	struct llcstat *p = priv;

	missrate__close(&p->m, s);
}

static const struct popt llc_opts[] = {
	{ .lname = "perins",
	  .help = "per instance: each CPU (or each thread with -p/-t/--), then all",
	  POPT_BIND_FLAG(struct llcstat, perins) },
	{ 0 },
};

const struct profiler prof_llcstat = {
	.name = "llcstat",
	.needs = (const char *const[]){ "pmu", NULL },
	.desc = "last-level cache accesses, misses and miss ratio per interval (needs a "
		"hardware PMU)",
	.synopsis = "perf-prof llcstat [-i MS] [--perins] [-G|--exclude-host] [-C CPUS|-p PID|-t "
		    "TID|-- command]",
	.examples = "perf-prof llcstat -i 1000 --perins\n"
		    "  perf-prof llcstat -C 0-3 -i 1000 --exclude-host   # the guests' only\n"
		    "  perf-prof llcstat -- ./workload",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &output_group,
						     &exclude_group, NULL },
	.own = llc_opts,
	.priv_size = sizeof(struct llcstat),
	.init = llc_init,
	.deinit = llc_deinit,
};
