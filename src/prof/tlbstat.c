// SPDX-License-Identifier: GPL-2.0
/*
 * tlbstat: the data TLB's loads and stores, their misses and miss ratios,
 * per interval and for the run (per CPU or thread with --perins), counted
 * by the CPU's PMU as one group.  The kernel's generic events (dTLB-loads,
 * dTLB-load-misses, dTLB-stores, dTLB-store-misses) where its table has
 * them for this CPU (AMD's has no stores: loads only); otherwise, on Intel,
 * the loads by name (MEM_INST_RETIRED.ALL_LOADS and DTLB_LOAD_MISSES
 * .WALK_COMPLETED, Skylake and later).  No hardware PMU: one line says so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/counting/missrate.h"
#include "engine/features.h"
#include "profiler.h"
#include "report/outfile.h"

struct tlbstat {
	bool perins;
	int nr_pairs;
	struct missrate_set m;
};

#define DTLB(op, res)                                                  \
	(PERF_COUNT_HW_CACHE_DTLB | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##res << 16)

/*
 * The events tlbstat counts on a CPU of @vendor: the generic loads when
 * the kernel has them (@loads), with the stores when it has those too
 * (@stores); else Intel's by name; or NULL.  *@pairs: 2 with the stores.
 */
const char *tlbstat__events(const char *vendor, bool loads, bool stores, int *pairs)
{
	*pairs = 1;
	if (loads && stores) {
		*pairs = 2;
		return "{dTLB-loads,dTLB-load-misses,dTLB-stores,dTLB-store-misses}";
	}
	if (loads)
		return "{dTLB-loads,dTLB-load-misses}";
	if (!strcmp(vendor, "GenuineIntel"))
		return "{cpu/event=0xd0,umask=0x81,name=dTLB-loads/,"
		       "cpu/event=0x08,umask=0x0e,name=dTLB-load-misses/}";
	return NULL;
}

static const struct missrate_pair tlb_pairs[] = {
	{ .access = 0,
	  .miss = 1,
	  .acc_title = "LOADS",
	  .acc_name = "loads",
	  .miss_name = "load_misses",
	  .pct_name = "load_miss_pct" },
	{ .access = 2,
	  .miss = 3,
	  .acc_title = "STORES",
	  .acc_name = "stores",
	  .miss_name = "store_misses",
	  .pct_name = "store_miss_pct" },
};

static void report(struct session *s, void *priv, const char *what, bool since_start)
{
	struct tlbstat *p = priv;
	FILE *out = session__out(s);
	char ts[64];

	if (!session__json(s)) {
		session__fmt_time(s, session__now(s), ts, sizeof(ts));
		fprintf(out, "%s tlbstat: %s %.3f s\n", ts, what,
			(double)(p->m.cs.t_now - (since_start ? p->m.cs.t_first : p->m.cs.t_last)) /
				1e9);
	}
	missrate__report(&p->m.cs, out, session__json(s), tlb_pairs, p->nr_pairs, p->perins,
			 since_start, what);
	fflush(out);
}

static int tlb_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	struct tlbstat *p = priv;
	struct feat_cpuinfo ci;
	const char *events;
	int rc;

	if ((rc = missrate__check(s, ex, "the dTLB's loads, stores and misses")))
		return rc;
	features__cpuinfo(&ci);
	events = tlbstat__events(
		ci.vendor, !features__probe_counter(PERF_TYPE_HW_CACHE, DTLB(READ, ACCESS)),
		!features__probe_counter(PERF_TYPE_HW_CACHE, DTLB(WRITE, ACCESS)), &p->nr_pairs);
	return missrate__open(&p->m, s, ex, events, "dTLB events", "dTLB-loads", ci.vendor, report,
			      p);
}

static void tlb_deinit(struct session *s, void *priv)
{
	struct tlbstat *p = priv;

	missrate__close(&p->m, s);
}

static const struct popt tlb_opts[] = {
	{ .lname = "perins",
	  .help = "per instance: each CPU (or each thread with -p/-t/--), then all",
	  POPT_BIND_FLAG(struct tlbstat, perins) },
	{ 0 },
};

const struct profiler prof_tlbstat = {
	.name = "tlbstat",
	.needs = (const char *const[]){ "pmu", NULL },
	.desc = "dTLB loads, stores, misses and miss ratios per interval (needs a hardware PMU)",
	.synopsis = "perf-prof tlbstat [-i MS] [--perins] [-G|--exclude-host] [-C CPUS|-p PID|-t "
		    "TID|-- command]",
	.examples = "perf-prof tlbstat -i 1000 --perins\n"
		    "  perf-prof tlbstat -C 0-3 -i 1000\n"
		    "  perf-prof tlbstat -- ./workload",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &output_group,
						     &exclude_group, NULL },
	.own = tlb_opts,
	.priv_size = sizeof(struct tlbstat),
	.init = tlb_init,
	.deinit = tlb_deinit,
};
