// SPDX-License-Identifier: GPL-2.0
/*
 * ldlat-loads, ldlat-stores: memory access latency from Intel's PEBS.
 * ldlat-loads samples the load latency facility (mem-loads, event 0xcd
 * umask 0x1: MEM_TRANS_RETIRED.LOAD_LATENCY) with its threshold in
 * config1 (--ldlat CYCLES, the MSR_PEBS_LD_LAT_THRESHOLD: loads slower
 * than it are counted), one sample every -T N of them; ldlat-stores
 * samples mem-stores (event 0xd0 umask 0x82: MEM_INST_RETIRED.ALL_STORES).
 * Each PEBS sample carries the data address, the latency (its weight, in
 * core cycles) and where the data came from (its data source): reported
 * per data source and per instruction, with each data source's latency
 * buckets (analysis/memory/memlat); --than CYCLES prints each slower one.
 * A host without a PMU, or not Intel, cannot sample them: one line says so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/memory/memlat.h"
#include "engine/evname.h"
#include "engine/features.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/stats_table.h"
#include "sym/datasym.h"
#include "sym/stack.h"

struct ldlat {
	unsigned long long ldlat, trigger, than;
	bool perins, stores;
	struct evsel *ev;
	struct memlat *m;
	u64 since;
};

#define LDLAT_DEFAULT 3	  /* cycles: the original's threshold */
#define LDLAT_PERIOD 1000 /* a sample every 1000 loads or stores */
#define LDLAT_SAMPLE_TYPE \
	(PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)

/*
 * The event of @pmu ("cpu", "cpu_core") ldlat-loads (@stores false, with
 * threshold @ldlat) or ldlat-stores samples: the PMU's mem-loads or
 * mem-stores alias where sysfs has it (@alias), else its event and umask.
 */
const char *ldlat__event(const char *pmu, bool stores, unsigned ldlat, bool alias, char *buf,
			 size_t len)
{
	if (stores)
		snprintf(buf, len, alias ? "%s/mem-stores/" : "%s/event=0xd0,umask=0x82/", pmu);
	else if (alias)
		snprintf(buf, len, "%s/mem-loads,ldlat=%u/", pmu, ldlat);
	else
		snprintf(buf, len, "%s/event=0xcd,umask=0x1,ldlat=%u/", pmu, ldlat);
	return buf;
}

/*
 * The sampling event's attr on this host's PMU (features' sysfs): PEBS
 * (precise_ip 2), one sample every @period, the data address, weight and
 * data source.  0, or -errno with one line in @err naming what is missing.
 */
int ldlat__attr(bool stores, unsigned ldlat, u64 period, struct perf_event_attr *a, char *err,
		size_t len)
{
	const char *pmu = features__cpu_pmu();
	struct feat_cpuinfo ci;
	struct evname ev;
	char text[128], val[64];

	memset(a, 0, sizeof(*a));
	if (!pmu) {
		snprintf(err, len,
			 "needs a hardware PMU with PEBS (Intel's %s), and this host has none (no "
			 "/sys/bus/event_source/devices/cpu: a VM without a virtual PMU?): memory "
			 "access latency cannot be sampled",
			 stores ? "precise stores" : "load latency facility");
		return -ENODEV;
	}
	if (!features__cpuinfo(&ci) && ci.vendor[0] && strcmp(ci.vendor, "GenuineIntel")) {
		snprintf(err, len,
			 "needs Intel's PEBS %s, and this CPU is '%s' (AMD's IBS is another "
			 "facility)",
			 stores ? "precise stores" : "load latency facility", ci.vendor);
		return -EOPNOTSUPP;
	}
	if (!stores && features__pmu_read(pmu, "format/ldlat", val, sizeof(val))) {
		snprintf(err, len,
			 "the %s PMU has no ldlat format (/sys/bus/event_source/devices/%s/format/"
			 "ldlat): no load latency facility on this CPU",
			 pmu, pmu);
		return -EOPNOTSUPP;
	}
	ldlat__event(pmu, stores, ldlat,
		     !features__pmu_read(pmu, stores ? "events/mem-stores" : "events/mem-loads",
					 val, sizeof(val)),
		     text, sizeof(text));
	if (evname__parse(text, &ev, err, len))
		return -EINVAL;
	*a = ev.attr;
	evname__clear(&ev);
	a->sample_period = period;
	a->sample_type |= LDLAT_SAMPLE_TYPE;
	a->precise_ip = 2; /* PEBS: the ip, address and latency of the sampled access itself */
	return 0;
}

/* A sample slower than --than: its line, and JSON's members. */
static const struct rt_col than_cols[] = {
	{ .type = RT_ROW },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	RT_COL("latency_cycles", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("data_source", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("addr", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("data_symbol", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	RT_COL("data_dso", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	RT_COL("ip", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("symbol", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
};
static const struct rt_desc than_desc = { .type = "event", .cols = than_cols, .ncols = 9 };

/* The instruction of @smp: resolved as the innermost frame of a one-address stack. */
static const char *ins_of(struct session *s, const struct sample *smp, u64 *off)
{
	struct stack_ctx *ctx = session__stack(s);
	u64 ips[2] = { (s64)smp->ip < 0 ? PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER, smp->ip };
	struct sample one = *smp;
	struct frame f;

	*off = 0;
	if (!ctx)
		return NULL;
	one.ips = ips;
	one.nr_ips = 2;
	one.stack_size = 0; /* no DWARF unwinding of one address */
	one.regs_abi = 0;
	if (stack__frames(ctx, &one, &f, 1) != 1 || !strcmp(f.sym, "[unknown]"))
		return NULL;
	*off = f.off;
	return f.sym;
}

static void ld_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct ldlat *p = priv;
	u64 off, w = smp->weight;
	const char *func = ins_of(s, smp, &off);
	FILE *out;

	if (memlat__add(p->m, smp->cpu, smp->data_src, smp->ip, func, off, w))
		session__warn(s, "out of memory: a sample was not counted");
	if (!p->than || w <= p->than || !(out = session__event_out(s, priv)))
		return;
	{
		struct rt_val v[EVL_NCOLS];
		struct rt_stack stk;
		char text[1024], src[160], sym[288], dsym[288] = "";
		struct data_sym ds;
		bool named = !stack__data_sym(session__stack(s), smp->pid, smp->addr, &ds);

		memlat__src_text(smp->data_src, src, sizeof(src));
		/* the variable the data address lies in */
		if (named)
			snprintf(dsym, sizeof(dsym), "%s+0x%llx", ds.sym,
				 (unsigned long long)ds.off);
		if (func)
			snprintf(sym, sizeof(sym), "%s+0x%llx", func, (unsigned long long)off);
		else
			snprintf(sym, sizeof(sym), "[unknown]");
		evline__row(v, &stk, s, NULL, smp, session__comm(s, smp->tid), ev->name);
		snprintf(text, sizeof(text),
			 "latency %llu cycles, %s, data 0x%llx%s%s%s, ip 0x%llx %s",
			 (unsigned long long)w, src, (unsigned long long)smp->addr,
			 named ? " (" : "", dsym, named ? ")" : "", (unsigned long long)smp->ip,
			 sym);
		evline__emit(s, out, &than_desc,
			     (struct rt_val[]){ { .row = { &evline_head, v } },
						{ .s = text },
						{ .u = w },
						{ .s = src },
						{ .u = smp->addr },
						{ .s = named ? dsym : NULL },
						{ .s = named ? ds.dso : NULL },
						{ .u = smp->ip },
						{ .s = sym } });
	}
}

static void report(struct session *s, struct ldlat *p, int when)
{
	FILE *out = session__out(s);
	struct stats_stamp st;
	union rt_sinks u, u2;
	struct rt_sink *k = stats_stamp__sink(s, &u, &st, &p->since, when);

	memlat__emit(p->m, k, NULL);
	if (!session__json(s)) {
		memlat__print_buckets(p->m, out);
		fputc('\n', out);
	}
	memlat__emit(p->m, NULL,
		     session__json(s) ? rt_json__init(&u2.json, out, &st)
				      : rt_text__init(&u2.text, out));
	fflush(out);
}

static void ld_interval(struct session *s, void *priv)
{
	struct ldlat *p = priv;

	report(s, p, STATS_INTERVAL);
	memlat__reset(p->m);
}

static void ld_snapshot(struct session *s, void *priv)
{
	report(s, priv, STATS_SO_FAR);
}

static int ld_init(struct session *s, void *priv, const struct opt_set *opts, bool stores)
{
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	struct ldlat *p = priv;
	struct perf_event_attr a;
	char err[512];
	int rc;

	p->stores = stores;
	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));
	rc = ldlat__attr(stores, p->ldlat ?: LDLAT_DEFAULT, p->trigger ?: LDLAT_PERIOD, &a, err,
			 sizeof(err));
	if (rc)
		return session__set_err(s, rc, "%s", err);
	exclude__attr(ex, &a);
	p->m = memlat__new(p->perins, p->than);
	if (!p->m)
		return session__set_err(s, -ENOMEM, "out of memory");
	p->ev = session__add_event(
		s, &(struct evsel_conf){
			   .type = a.type,
			   .config = a.config,
			   .config1 = a.config1,
			   .config2 = a.config2,
			   .sample_period = a.sample_period,
			   .extra_sample_type = LDLAT_SAMPLE_TYPE,
			   /* -g: the stack of each sample; without, the ip names the instruction */
			   .callchain = st && st->capture.cg != CG_NONE && !st->capture.defaulted,
			   .exclude_user = a.exclude_user,
			   .exclude_kernel = a.exclude_kernel,
			   .exclude_hv = a.exclude_hv,
			   .exclude_guest = a.exclude_guest,
			   .exclude_host = a.exclude_host,
			   .name = stores ? "ldlat-stores" : "ldlat-loads",
		   });
	if (!p->ev)
		return -EINVAL;
	p->ev->attr.precise_ip = a.precise_ip;
	evsel__set_handler(p->ev, ld_sample, p);
	return 0;
}

static int loads_init(struct session *s, void *priv, const struct opt_set *opts)
{
	return ld_init(s, priv, opts, false);
}

static int stores_init(struct session *s, void *priv, const struct opt_set *opts)
{
	return ld_init(s, priv, opts, true);
}

static void ld_deinit(struct session *s, void *priv)
{
	struct ldlat *p = priv;

	if (session__started(s) && p->m)
		report(s, p, STATS_END);
	memlat__delete(p->m);
	p->m = NULL;
}

#define LD_COMMON_OPTS                                                                   \
	{ .lname = "trigger",                                                            \
	  .sname = 'T',                                                                  \
	  .argname = "N",                                                                \
	  .help = "a PEBS sample every N accesses (default 1000)",                       \
	  POPT_BIND_UINT(struct ldlat, trigger),                                         \
	  POPT_RANGE(1, 0) },                                                            \
		{ .lname = "perins",                                                     \
		  .help = "rows per CPU",                                                \
		  POPT_BIND_FLAG(struct ldlat, perins) },                                \
	{                                                                                \
		.lname = "than", .argname = "CYCLES",                                    \
		.help = "print each sample slower than CYCLES (and count them per row)", \
		POPT_BIND_UINT(struct ldlat, than)                                       \
	}

static const struct popt loads_opts[] = {
	{ .lname = "ldlat",
	  .argname = "CYCLES",
	  .help = "sample only loads slower than CYCLES (the PEBS load latency threshold, "
		  "default 3)",
	  POPT_BIND_UINT(struct ldlat, ldlat),
	  POPT_RANGE(1, 65535) },
	LD_COMMON_OPTS,
	{ 0 },
};

static const struct popt stores_opts[] = {
	LD_COMMON_OPTS,
	{ 0 },
};

static const struct opt_group *const ld_groups[] = { &target_group, &run_group,	  &ring_group,
						     &output_group, &stack_group, &exclude_group,
						     NULL };

const struct profiler prof_ldlat_loads = {
	.name = "ldlat-loads",
	.needs = (const char *const[]){ "pmu", NULL },
	.desc = "load latency from Intel PEBS per data source and instruction, with buckets "
		"(needs a hardware PMU)",
	.synopsis = "perf-prof ldlat-loads [--ldlat CYCLES] [-T N] [--perins] [--than CYCLES] "
		    "[-i MS] [-C CPUS|-p PID|-t TID|-- command]",
	.examples = "perf-prof ldlat-loads -C 0 -i 1000\n"
		    "  perf-prof ldlat-loads -p 2347 --ldlat 10 --than 100 -i 1000",
	.groups = ld_groups,
	.own = loads_opts,
	.stacks = true,
	.priv_size = sizeof(struct ldlat),
	.init = loads_init,
	.ops = { .interval = ld_interval, .snapshot = ld_snapshot },
	.deinit = ld_deinit,
};

const struct profiler prof_ldlat_stores = {
	.name = "ldlat-stores",
	.needs = (const char *const[]){ "pmu", NULL },
	.desc = "store latency from Intel PEBS per data source and instruction (needs a hardware "
		"PMU)",
	.synopsis = "perf-prof ldlat-stores [-T N] [--perins] [--than CYCLES] [-i MS] [-C CPUS|-p "
		    "PID|-t TID|-- command]",
	.examples = "perf-prof ldlat-stores -C 0 -i 1000\n"
		    "  perf-prof ldlat-stores -p 2347 -T 100 -i 1000",
	.groups = ld_groups,
	.own = stores_opts,
	.stacks = true,
	.priv_size = sizeof(struct ldlat),
	.init = stores_init,
	.ops = { .interval = ld_interval, .snapshot = ld_snapshot },
	.deinit = ld_deinit,
};
