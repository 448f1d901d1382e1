// SPDX-License-Identifier: GPL-2.0
/*
 * kmemleak: allocations not freed, grouped by the stack that made them.
 * An alloc event (ptr=, size=) keeps its allocation until a free event
 * names the same pointer; what is left is reported largest first, at exit
 * and every -i.  A free of memory allocated before the start is ignored
 * (counted).  Kernel presets (kmalloc, page, percpu), any events with
 * --alloc/--free, or --user: the target's own allocators through uprobes
 * (analysis/umalloc).  Events are in time order (an allocation on one CPU
 * and its free on another); lost events make the report say what is
 * uncertain.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/memory/memreport.h"
#include "analysis/memory/memtrack.h"
#include "analysis/stacks/stackdb.h"
#include "analysis/memory/umalloc.h"
#include "expr/expr.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/stack_flame.h"

struct kmemleak {
	const char *alloc, *free, *preset;
	bool user, mmap, by_comm;
	unsigned long long than;
	struct ev_spec *specs[2]; /* --alloc's, --free's: the events point into them */
	int nr_specs[2];
	struct memreport_ev *evs; /* every event's, to free */
	struct memtrack *mt;
	struct stackdb *db;
	struct umalloc *um;
	struct stack_flame *flame;
	u64 lost;
	u64 bad_reads; /* ptr/size expressions that could not be read */
	bool nomem;
};

static const struct {
	const char *name, *alloc, *free;
} presets[] = {
	{ "kmalloc", "kmem:kmalloc,kmem:kmem_cache_alloc", "kmem:kfree,kmem:kmem_cache_free" },
	{ "page", "kmem:mm_page_alloc//ptr=pfn/size=4096<<order/",
	  "kmem:mm_page_free//ptr=pfn/,kmem:mm_page_free_batched//ptr=pfn/" },
	{ "percpu", "percpu:percpu_alloc_percpu", "percpu:percpu_free_percpu" },
};

static void record_alloc(struct kmemleak *k, struct session *s, const struct sample *smp, u64 ptr,
			 u64 size)
{
	u32 stack = 0;

	if (ptr && stackdb__add(k->db, session__stack(s), smp, &stack))
		k->nomem = true;
	if (memtrack__alloc(k->mt, ptr, size, smp->time, stack,
			    k->by_comm ? session__comm(s, smp->tid) : NULL))
		k->nomem = true;
}

static void u_alloc(void *arg, struct session *s, const struct sample *smp, u64 ptr, u64 size)
{
	record_alloc(arg, s, smp, ptr, size);
}

static void u_free(void *arg, struct session *s, const struct sample *smp, u64 ptr)
{
	struct kmemleak *k = arg;

	(void)s, (void)smp;
	memtrack__free(k->mt, ptr, NULL);
}

static const struct umalloc_ops u_ops = { .alloc = u_alloc, .free = u_free };

static void kml_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int add_list(struct session *s, struct kmemleak *k, const char *what, const char *list,
		    bool alloc)
{
	static const char *const attrs[] = { "ptr", "size", NULL };
	struct ev_spec *specs = NULL;
	struct ev_spec_err perr;
	int nr = 0, err;

	if (evspec__parse(list, &specs, &nr, &perr))
		return session__usage_err(s, "--%s '%s': %s", what, list, perr.msg);
	for (int i = 0; i < nr; i++) {
		if (evspec__check_attrs(&specs[i], attrs, &perr)) {
			err = session__usage_err(s, "--%s: %s in '%s'", what, perr.msg,
						 specs[i].text);
			evspec__free(specs, nr);
			return err;
		}
	}
	/* the events point at their specs: kept, never moved, until the end */
	k->specs[!alloc] = specs;
	k->nr_specs[!alloc] = nr;
	/* ptr= and size= of each event, or the defaults its fields give */
	for (int i = 0; i < nr; i++) {
		err = memreport__add_spec(s, &specs[i], alloc, alloc, NULL, kml_sample, k, &k->evs);
		if (err)
			return err;
	}
	return 0;
}

static int kml_init(struct session *s, void *priv, const struct opt_set *opts)
{
	struct kmemleak *k = priv;
	int err;

	session__want_order(s);
	session__want_pages(s, 512);
	k->mt = memtrack__new(0);
	k->db = stackdb__new();
	if (!k->mt || !k->db)
		return session__set_err(s, -ENOMEM, "out of memory");
	memtrack__set_stackdb(k->mt, k->db);
	if (k->preset) {
		size_t i;

		if (k->alloc || k->free || k->user)
			return session__usage_err(s,
						  "--preset replaces --alloc, --free and --user");
		for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
			if (!strcmp(k->preset, presets[i].name))
				break;
		if (i == sizeof(presets) / sizeof(presets[0])) {
			if (!strcmp(k->preset, "user"))
				k->user = true;
			else
				return session__usage_err(
					s, "unknown --preset '%s' (kmalloc, page, percpu or user)",
					k->preset);
		} else {
			k->alloc = presets[i].alloc;
			k->free = presets[i].free;
		}
	}
	if (k->user) {
		if (k->alloc || k->free)
			return session__usage_err(s, "--user probes the allocators itself: no "
						     "--alloc/--free with it");
		err = umalloc__add(s, k->mmap, &u_ops, k, &k->um);
	} else if (!k->alloc || !k->free) {
		return session__usage_err(s, "kmemleak needs --alloc EVENT and --free EVENT, "
					     "--preset kmalloc|page|percpu, or --user");
	} else {
		/* a free may run anywhere (RCU callbacks, other tasks): per CPU, targets by pid */
		session__want_cpu_wide(s);
		err = add_list(s, k, "alloc", k->alloc, true);
		if (!err)
			err = add_list(s, k, "free", k->free, false);
	}
	if (err)
		return err;
	return stack_flame__open(s, opt_set__get(opts, &flame_group),
				 &(struct flame_kind){ .title = "Leaked Memory",
						       .count = "objects",
						       .value = "space",
						       .value_unit = "bytes",
						       .fold_value = true },
				 &k->flame);
}

/* The handler of an --alloc or --free event (@priv its memreport_ev). */
static void kml_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct memreport_ev *ke = priv;
	struct kmemleak *k = ke->owner;
	struct expr_ctx ctx = { .smp = smp, .session = s };
	struct expr_value v;
	u64 ptr, size = 0;
	bool target;

	(void)ev;
	if (!ke->ptr)
		return;
	if (expr__eval(ke->ptr, &ctx, &v)) {
		k->bad_reads++;
		return;
	}
	ptr = v.u;
	target = session__is_target(s, smp->pid, smp->tid);
	if (!ke->alloc) {
		/* anyone may free the targets' memory; only their own untracked frees count */
		if (target)
			memtrack__free(k->mt, ptr, NULL);
		else
			memtrack__free_quiet(k->mt, ptr, NULL);
		return;
	}
	if (!target)
		return;
	if (ke->size && !expr__eval(ke->size, &ctx, &v))
		size = v.u;
	record_alloc(k, s, smp, ptr, size);
}

static void kml_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	struct kmemleak *k = priv;

	(void)s, (void)cpu;
	k->lost += nr;
}

/* The counts under the table: sentences in text; the last seven with --user. */
static const struct rt_col stats_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	MEMREPORT_STAMP_COLS,
	{ .name = "allocations", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "frees", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "ignored_frees", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "failed", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "replaced", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "untracked", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "bad_reads", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "lost", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "out_of_memory", .type = RT_BOOL, .flags = RT_NO_TEXT },
	{ .name = "nested", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "probes", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "files", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "unmatched", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "unwound", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "late_reads", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "unreadable", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
};
#define NR_STATS_COLS (int)(sizeof(stats_cols) / sizeof(stats_cols[0]))

static void stats_text(FILE *fp, struct session *s, struct kmemleak *k,
		       const struct memtrack_stats *st, const struct umalloc_stats *us)
{
	fprintf(fp,
		"allocations %llu, frees %llu, frees ignored %llu (allocated before the start), "
		"failed allocations %llu",
		(unsigned long long)st->allocs, (unsigned long long)st->frees,
		(unsigned long long)st->ignored_frees, (unsigned long long)st->failed);
	if (k->um) {
		fprintf(fp, ", nested calls %llu (%d probes in %d files)",
			(unsigned long long)us->nested, us->probes, us->files);
		if (us->unmatched)
			fprintf(fp, ", returns without their call %llu",
				(unsigned long long)us->unmatched);
		if (us->unwound)
			fprintf(fp, ", calls left without a return (exception, longjmp) %llu",
				(unsigned long long)us->unwound);
		if (us->late_reads || us->unreadable)
			fprintf(fp,
				", posix_memalign results read after the fact %llu, unreadable "
				"(not counted) %llu",
				(unsigned long long)us->late_reads,
				(unsigned long long)us->unreadable);
	}
	if (st->replaced)
		fprintf(fp,
			"\nnote: %llu addresses were allocated again before their free was seen",
			(unsigned long long)st->replaced);
	if (st->untracked)
		fprintf(fp, "\nnote: %llu allocations over the table's limit were not tracked",
			(unsigned long long)st->untracked);
	if (k->bad_reads)
		fprintf(fp, "\nnote: %llu events whose ptr could not be read were left out",
			(unsigned long long)k->bad_reads);
	if (k->lost || session__lost(s))
		fprintf(fp,
			"\nwarning: %llu events lost: the list may hold allocations whose free was "
			"lost and miss allocations that were lost",
			(unsigned long long)(k->lost ? k->lost : session__lost(s)));
	if (k->nomem)
		fprintf(fp, "\nwarning: out of memory: some allocations were not recorded");
}

static void report(struct session *s, struct kmemleak *k, bool final)
{
	const struct rt_desc d = { .type = final ? "summary" : "interval",
				   .cols = stats_cols,
				   .ncols = k->um ? NR_STATS_COLS : NR_STATS_COLS - 7 };
	struct umalloc_stats us = { 0 };
	struct memtrack_stats st;
	union rt_sinks u;
	struct rt_sink *sink;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	if (memreport__outstanding(s, k->mt, k->db, k->than, k->by_comm, final ? k->flame : NULL,
				   "kmemleak", 0, final ? "run" : "interval") < 0) {
		session__warn(s, "out of memory making the report");
		return;
	}
	memtrack__stats(k->mt, &st);
	if (k->um)
		umalloc__stats(k->um, &us);
	fp = open_memstream(&text, &len);
	if (fp) {
		stats_text(fp, s, k, &st, &us);
		fclose(fp);
	}
	sink = memreport__sink(s, &u);
	rtable__one(sink, &d,
		    (struct rt_val[]){ { .s = text ? text : "" },
				       { .s = final ? "run" : "interval" },
				       { .u = session__wall_ns(s, memreport__now(s)) },
				       { .u = st.allocs },
				       { .u = st.frees },
				       { .u = st.ignored_frees },
				       { .u = st.failed },
				       { .u = st.replaced },
				       { .u = st.untracked },
				       { .u = k->bad_reads },
				       { .u = k->lost ? k->lost : session__lost(s) },
				       { .b = k->nomem },
				       { .u = us.nested },
				       { .u = (u64)us.probes },
				       { .u = (u64)us.files },
				       { .u = us.unmatched },
				       { .u = us.unwound },
				       { .u = us.late_reads },
				       { .u = us.unreadable } });
	free(text);
	fflush(session__out(s));
}

static void kml_interval(struct session *s, void *priv)
{
	report(s, priv, false);
}

static void kml_deinit(struct session *s, void *priv)
{
	struct kmemleak *k = priv;

	if (session__started(s) && k->mt)
		report(s, k, true);
	stack_flame__close(k->flame, s, "kmemleak");
	umalloc__delete(k->um);
	memreport__evs_free(&k->evs);
	for (int i = 0; i < 2; i++)
		evspec__free(k->specs[i], k->nr_specs[i]);
	if (session__verbose(s))
		stackdb__print_stats(k->db, "kmemleak", stderr);
	memtrack__delete(k->mt);
	stackdb__delete(k->db);
}

static const struct popt kml_opts[] = {
	{ .lname = "alloc",
	  .argname = "EVENT[,...]",
	  .help = "allocation events (ptr=EXPR, size=EXPR; default fields ptr and "
		  "bytes_alloc/bytes_req/size)",
	  POPT_BIND_STR(struct kmemleak, alloc) },
	{ .lname = "free",
	  .argname = "EVENT[,...]",
	  .help = "free events (ptr=EXPR; default the field ptr)",
	  POPT_BIND_STR(struct kmemleak, free) },
	{ .lname = "preset",
	  .argname = "NAME",
	  .help = "kmalloc (kmalloc/kmem_cache), page, percpu, or user (same as --user)",
	  POPT_BIND_STR(struct kmemleak, preset) },
	{ .lname = "user",
	  .help = "the target's malloc/calloc/realloc/free/new/delete... through uprobes "
		  "(-p PID or -- COMMAND)",
	  POPT_BIND_FLAG(struct kmemleak, user) },
	{ .lname = "mmap",
	  .help = "with --user: mmap/munmap too",
	  POPT_BIND_FLAG(struct kmemleak, mmap) },
	{ .lname = "than",
	  .argname = "AGE",
	  .help = "only allocations older than AGE (ns/us/ms/s; a bare number is ms)",
	  POPT_BIND_TIME(struct kmemleak, than, "ms") },
	{ .lname = "comm",
	  .help = "split each stack by the allocating task's comm",
	  POPT_BIND_FLAG(struct kmemleak, by_comm) },
	{ 0 },
};

const struct profiler prof_kmemleak = {
	.name = "kmemleak",
	.needs = (const char *const[]){ "tracefs", "uprobe?=no --user", NULL },
	.desc = "memory leaks: allocations not freed, by allocation stack (kernel or user space)",
	.synopsis = "perf-prof kmemleak {--alloc EVENT --free EVENT | --preset NAME | --user} "
		    "[--than AGE] [--comm] [-g|--call-graph dwarf] [--flame-graph NAME] [-i MS] "
		    "[-p PID|-t TID|-C CPUS|-- command]",
	.examples =
		"perf-prof kmemleak --user -p 1234 -i 10000        # a process's leaks, every 10 "
		"s\n"
		"  perf-prof kmemleak --user --call-graph dwarf -- ./app  # stacks through libc\n"
		"  perf-prof kmemleak --preset kmalloc --than 5s      # kernel objects older than "
		"5 s\n"
		"  perf-prof kmemleak --preset percpu --flame-graph pcpu.svg\n"
		"  perf-prof kmemleak --alloc 'kprobes:alloc//ptr=retval/' --free kprobes:free\n"
		"The allocation stack is always captured (frame pointers without -g).  At exit\n"
		"and every -i: what is still allocated, grouped by stack, largest first.",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &ring_group,
						     &output_group, &stack_group, &flame_group,
						     &exclude_tp_group, NULL },
	.own = kml_opts,
	.stacks = true,
	.priv_size = sizeof(struct kmemleak),
	.init = kml_init,
	.ops = { .lost = kml_lost, .interval = kml_interval, .snapshot = kml_interval },
	.deinit = kml_deinit,
};
