// SPDX-License-Identifier: GPL-2.0
/*
 * kmemprof: where memory is allocated and freed.  The first -e allocates
 * (key= or -k: the address, size=: the bytes), the second frees (the same
 * key); per interval, the bytes and objects allocated and freed by stack,
 * the top stacks with their share; at exit, what was allocated and not
 * freed.  A free's bytes are those of the allocation it frees (memory
 * allocated before the start: counted apart).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "analysis/memory/memreport.h"
#include "analysis/memory/memtrack.h"
#include "analysis/stacks/stackdb.h"
#include "expr/expr.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/stats_table.h"

struct kmp_stat {
	UT_hash_handle hh;
	u32 stack;
	u64 bytes, objects;
};

struct kmp_side {
	struct kmp_stat *by_stack;
	u64 bytes, objects;
};

struct kmemprof {
	unsigned long long top;
	struct memreport_ev *evs; /* every event's, to free */
	struct memtrack *mt;
	struct stackdb *db;
	struct kmp_side alloc, free;
	u64 older_frees; /* frees of memory allocated before the start (this interval) */
	/* ... once allocations went untracked (over the cap): theirs, or older */
	u64 untracked_frees;
	u64 untracked_frees_run; /* for the run: at most as many as went untracked */
	u64 bad_reads;
	bool nomem;
	/* the report being made's scope and time, the last one's */
	const char *scope;
	u64 now, last;
};

static const char *const kmp_attrs[] = { "key", "ptr", "size", NULL };

static void kmp_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int kmp_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *eo = opt_set__get(opts, &event_group);
	const struct key_opts *ko = opt_set__get(opts, &key_group);
	struct kmemprof *k = priv;
	int err;

	if (!eo || eo->nr_texts != 2)
		return session__usage_err(s, "kmemprof takes two -e: the allocation events, then "
					     "the free events");
	if (!k->top)
		k->top = 10;
	session__want_order(s);
	session__want_cpu_wide(s);
	session__want_pages(s, 512);
	k->mt = memtrack__new(0);
	k->db = stackdb__new();
	k->last = memreport__now(s);
	if (!k->mt || !k->db)
		return session__set_err(s, -ENOMEM, "out of memory");
	memtrack__set_stackdb(k->mt, k->db);
	/* the address: key= (or ptr=) of the event, else -k, else its field ptr */
	for (int i = 0; i < eo->nr_specs; i++) {
		err = memreport__add_spec(s, &eo->specs[i], eo->specs[i].pos == 0, true,
					  ko ? ko->expr : NULL, kmp_sample, k, &k->evs);
		if (err)
			return err;
	}
	return 0;
}

static void count(struct kmemprof *k, struct kmp_side *side, u32 stack, u64 bytes)
{
	struct kmp_stat *st;

	side->bytes += bytes;
	side->objects++;
	HASH_FIND(hh, side->by_stack, &stack, sizeof(stack), st);
	if (!st) {
		st = calloc(1, sizeof(*st));
		if (!st) {
			k->nomem = true;
			return;
		}
		st->stack = stack;
		stackdb__get(k->db, stack); /* until the row goes (side_clear) */
		HASH_ADD(hh, side->by_stack, stack, sizeof(stack), st);
	}
	st->bytes += bytes;
	st->objects++;
}

/* The handler of an allocation or free event (@priv its memreport_ev). */
static void kmp_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct memreport_ev *ke = priv;
	struct kmemprof *k = ke->owner;
	struct expr_ctx ctx = { .smp = smp, .session = s };
	struct expr_value v;
	u64 ptr, size = 0;
	u32 stack = 0;

	(void)ev;
	if (expr__eval(ke->ptr, &ctx, &v)) {
		k->bad_reads++;
		return;
	}
	ptr = v.u;
	if (!ke->alloc) {
		if (!ptr)
			return;
		if (!memtrack__free_quiet(k->mt, ptr, &size)) {
			struct memtrack_stats st;

			/* only the targets' own: anyone else's memory is not of interest */
			if (!session__is_target(s, smp->pid, smp->tid))
				return;
			/*
			 * Past the cap, an unknown address may be an untracked
			 * allocation: counted as one while fewer such frees
			 * were seen than allocations went untracked, then as
			 * memory allocated before the start again.
			 */
			memtrack__stats(k->mt, &st);
			if (st.untracked > k->untracked_frees_run) {
				k->untracked_frees++;
				k->untracked_frees_run++;
			} else {
				k->older_frees++;
			}
			return;
		}
	} else {
		if (!session__is_target(s, smp->pid, smp->tid))
			return;
		if (ke->size && !expr__eval(ke->size, &ctx, &v))
			size = v.u;
	}
	if (stackdb__add(k->db, session__stack(s), smp, &stack))
		k->nomem = true;
	if (ke->alloc) {
		if (memtrack__alloc(k->mt, ptr, size, smp->time, stack, NULL))
			k->nomem = true;
		if (!ptr)
			return;
	}
	count(k, ke->alloc ? &k->alloc : &k->free, stack, size);
}

static int by_bytes(const void *a, const void *b)
{
	const struct kmp_stat *x = *(struct kmp_stat *const *)a, *y = *(struct kmp_stat *const *)b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return x->objects < y->objects ? 1 : x->objects > y->objects ? -1 : 0;
}

static void side_clear(struct kmemprof *k, struct kmp_side *side)
{
	struct kmp_stat *st, *tmp;

	HASH_ITER(hh, side->by_stack, st, tmp)
	{
		HASH_DEL(side->by_stack, st);
		stackdb__put(k->db, st->stack);
		free(st);
	}
	side->bytes = side->objects = 0;
}

/* A side's table ("ALLOCATED"/"allocated", "FREED"/"freed"): its stacks, largest first. */
static const struct rt_col side_cols[] = {
	{ .type = RT_STR, .width = 9, .flags = RT_LEFT | RT_NO_JSON }, /* title: the side's */
	MEMREPORT_STAMP_COLS,
	{ .name = "table", .type = RT_STR, .flags = RT_NO_TEXT },
	RT_COL("bytes", "BYTES", RT_U64, RT_UNIT_BYTES, 12, 0),
	{ .name = "pct",
	  .title = "SHARE",
	  .type = RT_F64,
	  .unit = RT_UNIT_PERCENT,
	  .width = 7,
	  .decimals = 1,
	  .flags = RT_PCT_SIGN },
	RT_COL("objects", "OBJECTS", RT_U64, RT_UNIT_COUNT, 9, 0),
	MEMREPORT_STACK_COL,
};
#define NR_SIDE_COLS (int)(sizeof(side_cols) / sizeof(side_cols[0]))

/* The top stacks of one side with their share, then the side is reset. */
static void print_side(struct session *s, struct kmemprof *k, struct rt_sink *sink,
		       struct kmp_side *side, const char *title, const char *table)
{
	unsigned n = HASH_COUNT(side->by_stack), i = 0;
	struct kmp_stat **all = calloc(n ? n : 1, sizeof(*all)), *st, *tmp;
	struct rt_col cols[NR_SIDE_COLS];
	const struct rt_desc d = { .type = "row", .cols = cols, .ncols = NR_SIDE_COLS };
	u64 wall = session__wall_ns(s, k->now);

	if (!all) {
		k->nomem = true;
		return;
	}
	HASH_ITER(hh, side->by_stack, st, tmp)
	all[i++] = st;
	qsort(all, n, sizeof(*all), by_bytes);
	memcpy(cols, side_cols, sizeof(cols));
	cols[0].title = title;
	if (n)
		rtable__begin(sink, &d);
	for (i = 0; i < n && i < k->top; i++) {
		struct rt_stack stk;

		memreport__stack_val(s, k->db, all[i]->stack, &stk);
		rtable__row(sink,
			    (struct rt_val[]){ { .s = "" },
					       { .s = k->scope },
					       { .u = wall },
					       { .s = table },
					       { .u = all[i]->bytes },
					       { .d = side->bytes ? 100.0 * (double)all[i]->bytes /
									    (double)side->bytes
								  : 0.0 },
					       { .u = all[i]->objects },
					       { .stk = &stk } });
	}
	if (n)
		rtable__end(sink);
	if (n > k->top)
		memreport__more(s, sink, k->scope, k->now, table, n - k->top);
	free(all);
	side_clear(k, side);
}

/* The interval's record: a sentence (two with untracked frees) in text. */
static const struct rt_col interval_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	{ .name = "allocated_bytes", .type = RT_U64, .unit = RT_UNIT_BYTES, .flags = RT_NO_TEXT },
	{ .name = "allocated_objects", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "freed_bytes", .type = RT_U64, .unit = RT_UNIT_BYTES, .flags = RT_NO_TEXT },
	{ .name = "freed_objects", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "older_frees", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "untracked_frees", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
};
static const struct rt_desc interval_desc = { .type = "interval",
					      .cols = interval_cols,
					      .ncols = 7 };

static void report(struct session *s, struct kmemprof *k)
{
	FILE *out = session__out(s);
	struct stats_stamp stamp;
	union rt_sinks u;
	struct rt_sink *sink;
	char tbuf[64], text[512];
	int l;

	k->now = memreport__now(s);
	/* without -i, the one table is the whole run's: scope "run" */
	k->scope = session__interval_ms(s) ? "interval" : "run";
	stamp = (struct stats_stamp){ .scope = k->scope,
				      .time_ns = session__wall_ns(s, k->now),
				      .interval_ns = k->now - k->last };
	sink = session__json(s) ? rt_json__init(&u.json, out, &stamp) : rt_text__init(&u.text, out);
	session__fmt_time(s, k->now, tbuf, sizeof(tbuf));
	l = snprintf(text, sizeof(text),
		     "%s kmemprof: allocated %llu bytes in %llu objects, freed %llu bytes in %llu "
		     "objects, %llu frees of memory allocated before the start",
		     tbuf, (unsigned long long)k->alloc.bytes, (unsigned long long)k->alloc.objects,
		     (unsigned long long)k->free.bytes, (unsigned long long)k->free.objects,
		     (unsigned long long)k->older_frees);
	if (k->untracked_frees && l > 0 && (size_t)l < sizeof(text))
		snprintf(text + l, sizeof(text) - (size_t)l,
			 "\n%s kmemprof: %llu frees of memory not tracked (allocated over the "
			 "table's limit, or before the start)",
			 tbuf, (unsigned long long)k->untracked_frees);
	rtable__one(sink, &interval_desc,
		    (struct rt_val[]){ { .s = text },
				       { .u = k->alloc.bytes },
				       { .u = k->alloc.objects },
				       { .u = k->free.bytes },
				       { .u = k->free.objects },
				       { .u = k->older_frees },
				       { .u = k->untracked_frees } });
	sink = memreport__sink(s, &u);
	print_side(s, k, sink, &k->alloc, "ALLOCATED", "allocated");
	print_side(s, k, sink, &k->free, "FREED", "freed");
	k->older_frees = 0;
	k->untracked_frees = 0;
	k->last = k->now;
	fflush(out);
}

/* The run's record: notes in text (none when all is well). */
static const struct rt_col summary_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON | RT_OMIT_EMPTY },
	MEMREPORT_STAMP_COLS,
	{ .name = "replaced", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "untracked", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "bad_reads", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "events_lost", .type = RT_BOOL, .flags = RT_NO_TEXT },
	{ .name = "out_of_memory", .type = RT_BOOL, .flags = RT_NO_TEXT },
};
static const struct rt_desc summary_desc = { .type = "summary", .cols = summary_cols, .ncols = 8 };

static void summary(struct session *s, struct kmemprof *k)
{
	struct memtrack_stats st;
	union rt_sinks u;
	struct rt_sink *sink = memreport__sink(s, &u);
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	memtrack__stats(k->mt, &st);
	/* frees not traced (kfree_rcu's batches) leave allocations live: a cap */
	if (fp && st.untracked)
		fprintf(fp,
			"note: %llu allocations over the table's limit (%llu live) were not "
			"tracked: not in the not-freed list\n",
			(unsigned long long)st.untracked,
			(unsigned long long)memtrack__live(k->mt));
	if (fp && st.replaced)
		fprintf(fp,
			"note: %llu addresses were allocated again before their free was seen\n",
			(unsigned long long)st.replaced);
	if (fp && k->bad_reads)
		fprintf(fp, "note: %llu events whose key could not be read\n",
			(unsigned long long)k->bad_reads);
	if (fp && session__lost(s))
		fprintf(fp, "warning: events were lost: frees may be missing (more not freed) "
			    "and allocations too\n");
	if (fp && k->nomem)
		fprintf(fp, "warning: out of memory: the counts are short\n");
	if (fp)
		fclose(fp);
	if (text && len && text[len - 1] == '\n')
		text[len - 1] = 0; /* the row ends the line */
	rtable__one(sink, &summary_desc,
		    (struct rt_val[]){ { .s = text && *text ? text : NULL },
				       { .s = "run" },
				       { .u = session__wall_ns(s, memreport__now(s)) },
				       { .u = st.replaced },
				       { .u = st.untracked },
				       { .u = k->bad_reads },
				       { .b = session__lost(s) != 0 },
				       { .b = k->nomem } });
	free(text);
}

static void kmp_interval(struct session *s, void *priv)
{
	report(s, priv);
}

static void kmp_deinit(struct session *s, void *priv)
{
	struct kmemprof *k = priv;

	if (session__started(s) && k->mt) {
		if (k->alloc.objects || k->free.objects || !session__interval_ms(s))
			report(s, k);
		if (memreport__outstanding(s, k->mt, k->db, 0, false, NULL, "not freed",
					   (int)k->top, "run") < 0)
			k->nomem = true;
		summary(s, k);
	}
	side_clear(k, &k->alloc);
	side_clear(k, &k->free);
	if (session__verbose(s))
		stackdb__print_stats(k->db, "kmemprof", stderr);
	memreport__evs_free(&k->evs);
	memtrack__delete(k->mt);
	stackdb__delete(k->db);
}

static const struct popt kmp_opts[] = {
	{ .lname = "top",
	  .argname = "N",
	  .help = "stacks shown per table (default 10)",
	  POPT_BIND_UINT(struct kmemprof, top),
	  POPT_RANGE(1, 0) },
	{ 0 },
};

const struct profiler prof_kmemprof = {
	.name = "kmemprof",
	.needs = (const char *const[]){ "tracefs", "cpu-wide", NULL },
	.desc = "allocation and free profile by stack, per interval; what is not freed at exit",
	.synopsis = "perf-prof kmemprof -e ALLOC[,...] -e FREE[,...] [-k EXPR] [--top N] [-i MS] "
		    "[-g|--call-graph dwarf] [-C CPUS|-p PID|-- command]",
	.examples = "perf-prof kmemprof -e kmem:kmalloc -e kmem:kfree -k ptr -i 1000\n"
		    "  perf-prof kmemprof -e 'kmem:mm_page_alloc//key=pfn/size=4096<<order/' "
		    "-e 'kmem:mm_page_free//key=pfn/'\n"
		    "The first -e allocates, the second frees; key= (or -k) is the address, "
		    "size= the bytes\n"
		    "(default: the fields ptr and bytes_alloc/bytes_req/size).",
	.groups = (const struct opt_group *const[]){ &event_group, &key_group, &target_group,
						     &run_group, &ring_group, &output_group,
						     &stack_group, &exclude_tp_group, NULL },
	.own = kmp_opts,
	.ev_attrs = kmp_attrs,
	.stacks = true,
	.priv_size = sizeof(struct kmemprof),
	.init = kmp_init,
	.ops = { .interval = kmp_interval, .snapshot = kmp_interval },
	.deinit = kmp_deinit,
};
