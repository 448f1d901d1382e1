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
#include "sym/stack.h"
#include "util/json.h"

struct kmp_stat {
	UT_hash_handle hh;
	u32 stack;
	u64 bytes, objects;
};

struct kmp_side {
	struct kmp_stat *by_stack;
	u64 bytes, objects;
};

struct kmemprof;

/* Per event (its handler's). */
struct kmp_ev {
	struct kmemprof *k;
	struct kmp_ev *next; /* kmemprof.evs */
	bool alloc;
	struct expr *ptr, *size;
};

struct kmemprof {
	unsigned long long top;
	struct kmp_ev *evs; /* every event's, to free */
	struct memtrack *mt;
	struct stackdb *db;
	struct kmp_side alloc, free;
	u64 older_frees; /* frees of memory allocated before the start (this interval) */
	/* ... once allocations went untracked (over the cap): theirs, or older */
	u64 untracked_frees;
	u64 untracked_frees_run; /* for the run: at most as many as went untracked */
	u64 bad_reads;
	bool nomem;
	/* --json: the report being made's scope (NULL: text) and time, the last one's */
	const char *scope;
	u64 now, last;
};

static const char *const kmp_attrs[] = { "key", "ptr", "size", NULL };

static void kmp_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

/* key= (or ptr=) of the event, else -k, else its field ptr; its handler. */
static int compile_ev(struct session *s, struct kmemprof *k, struct evsel *ev, const char *key)
{
	const char *text = evspec__attr(ev->spec, "key");
	bool alloc = ev->spec->pos == 0;
	struct kmp_ev *ke = calloc(1, sizeof(*ke));
	char err[512];

	if (!ke)
		return session__set_err(s, -ENOMEM, "out of memory");
	ke->k = k;
	ke->next = k->evs;
	k->evs = ke;
	ke->alloc = alloc;
	evsel__set_handler(ev, kmp_sample, ke);
	if (!text && !evspec__attr(ev->spec, "ptr"))
		text = key;
	if (!text)
		return memreport__exprs(s, ev, alloc, &ke->ptr, alloc ? &ke->size : NULL);
	ke->ptr = expr__compile(text, ev, err, sizeof(err));
	if (!ke->ptr)
		return session__usage_err(s, "%s: key %s: %s", ev->name, text, err);
	return alloc ? memreport__size(s, ev, &ke->size) : 0;
}

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
	for (int i = 0; i < eo->nr_specs; i++) {
		struct evsel *last = NULL;

		for (struct evsel *e = session__evsels(s); e; e = e->next)
			last = e;
		err = session__add_spec(s, &eo->specs[i],
					&(struct evsel_conf){ .callchain = true });
		if (err < 0)
			return err;
		for (struct evsel *e = last ? last->next : session__evsels(s); e; e = e->next) {
			err = compile_ev(s, k, e, ko ? ko->expr : NULL);
			if (err)
				return err;
		}
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

/* The handler of an allocation or free event (@priv its kmp_ev). */
static void kmp_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct kmp_ev *ke = priv;
	struct kmemprof *k = ke->k;
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

/* --json: a row of print_side's table @title ("allocated", "freed"). */
static void json_side_row(struct session *s, struct kmemprof *k, const struct kmp_side *side,
			  const char *title, const struct kmp_stat *st, u64 more)
{
	struct json j;

	memreport__json_head(s, &j, "row", k->scope, k->now);
	json__str(&j, "table", title);
	if (!st) {
		json__u64(&j, "more_stacks", more);
		json__end(&j);
		return;
	}
	json__u64(&j, "bytes", st->bytes);
	json__f64(&j, "pct", side->bytes ? 100.0 * (double)st->bytes / (double)side->bytes : 0.0);
	json__u64(&j, "objects", st->objects);
	memreport__json_stack(s, k->db, st->stack, &j);
	json__end(&j);
}

/* The top stacks of one side with their share, then the side is reset. */
static void print_side(struct session *s, struct kmemprof *k, struct kmp_side *side,
		       const char *title)
{
	FILE *out = session__out(s);
	unsigned n = HASH_COUNT(side->by_stack), i = 0;
	struct kmp_stat **all = calloc(n ? n : 1, sizeof(*all)), *st, *tmp;

	if (!all) {
		k->nomem = true;
		return;
	}
	HASH_ITER(hh, side->by_stack, st, tmp)
	all[i++] = st;
	qsort(all, n, sizeof(*all), by_bytes);
	if (k->scope) {
		for (i = 0; i < n && i < k->top; i++)
			json_side_row(s, k, side, title, all[i], 0);
		if (n > k->top)
			json_side_row(s, k, side, title, NULL, n - k->top);
		goto out;
	}
	if (n)
		fprintf(out, "%-9s %12s %7s %9s\n", title, "BYTES", "SHARE", "OBJECTS");
	for (i = 0; i < n && i < k->top; i++) {
		fprintf(out, "%9s %12llu %6.1f%% %9llu\n", "", (unsigned long long)all[i]->bytes,
			side->bytes ? 100.0 * (double)all[i]->bytes / (double)side->bytes : 0.0,
			(unsigned long long)all[i]->objects);
		memreport__stack(s, k->db, all[i]->stack, out);
	}
	if (n > k->top)
		fprintf(out, "... %llu more stacks\n", n - k->top);
out:
	free(all);
	side_clear(k, side);
}

static void report(struct session *s, struct kmemprof *k)
{
	FILE *out = session__out(s);
	char tbuf[64];

	if (session__json(s)) {
		struct json j;

		k->now = memreport__now(s);
		k->scope = session__interval_ms(s) ? "interval" : "run";
		/* without -i, the one table is the whole run's: scope "run" */
		memreport__json_head(s, &j, "interval", k->scope, k->now);
		json__u64(&j, "interval_ns", k->now - k->last);
		json__u64(&j, "allocated_bytes", k->alloc.bytes);
		json__u64(&j, "allocated_objects", k->alloc.objects);
		json__u64(&j, "freed_bytes", k->free.bytes);
		json__u64(&j, "freed_objects", k->free.objects);
		json__u64(&j, "older_frees", k->older_frees);
		json__u64(&j, "untracked_frees", k->untracked_frees);
		json__end(&j);
		print_side(s, k, &k->alloc, "allocated");
		print_side(s, k, &k->free, "freed");
		k->older_frees = 0;
		k->untracked_frees = 0;
		k->scope = NULL;
		k->last = k->now;
		fflush(out);
		return;
	}
	session__fmt_time(s, memreport__now(s), tbuf, sizeof(tbuf));
	fprintf(out,
		"%s kmemprof: allocated %llu bytes in %llu objects, freed %llu bytes in %llu "
		"objects, %llu frees of memory allocated before the start\n",
		tbuf, (unsigned long long)k->alloc.bytes, (unsigned long long)k->alloc.objects,
		(unsigned long long)k->free.bytes, (unsigned long long)k->free.objects,
		(unsigned long long)k->older_frees);
	if (k->untracked_frees)
		fprintf(out,
			"%s kmemprof: %llu frees of memory not tracked (allocated over the table's "
			"limit, or before the start)\n",
			tbuf, (unsigned long long)k->untracked_frees);
	print_side(s, k, &k->alloc, "ALLOCATED");
	print_side(s, k, &k->free, "FREED");
	k->older_frees = 0;
	k->untracked_frees = 0;
	fflush(out);
}

static void kmp_interval(struct session *s, void *priv)
{
	report(s, priv);
}

static void kmp_deinit(struct session *s, void *priv)
{
	struct kmemprof *k = priv;

	if (session__started(s) && k->mt) {
		struct memtrack_stats st;

		if (k->alloc.objects || k->free.objects || !session__interval_ms(s))
			report(s, k);
		if (memreport__outstanding(s, k->mt, k->db, 0, false, NULL, "not freed",
					   (int)k->top, "run") < 0)
			k->nomem = true;
		memtrack__stats(k->mt, &st);
		if (session__json(s)) {
			struct json j;

			memreport__json_head(s, &j, "summary", "run", memreport__now(s));
			json__u64(&j, "replaced", st.replaced);
			json__u64(&j, "untracked", st.untracked);
			json__u64(&j, "bad_reads", k->bad_reads);
			json__bool(&j, "events_lost", session__lost(s) != 0);
			json__bool(&j, "out_of_memory", k->nomem);
			json__end(&j);
			goto out_free;
		}
		/* frees not traced (kfree_rcu's batches) leave allocations live: a cap */
		if (st.untracked)
			fprintf(session__out(s),
				"note: %llu allocations over the table's limit (%llu live) were "
				"not "
				"tracked: not in the not-freed list\n",
				(unsigned long long)st.untracked,
				(unsigned long long)memtrack__live(k->mt));
		if (st.replaced)
			fprintf(session__out(s),
				"note: %llu addresses were allocated again before their free was "
				"seen\n",
				(unsigned long long)st.replaced);
		if (k->bad_reads)
			fprintf(session__out(s), "note: %llu events whose key could not be read\n",
				(unsigned long long)k->bad_reads);
		if (session__lost(s))
			fprintf(session__out(s),
				"warning: events were lost: frees may be missing (more not freed) "
				"and allocations too\n");
		if (k->nomem)
			fprintf(session__out(s), "warning: out of memory: the counts are short\n");
	}
out_free:
	side_clear(k, &k->alloc);
	side_clear(k, &k->free);
	if (session__verbose(s))
		stackdb__print_stats(k->db, "kmemprof", stderr);
	while (k->evs) {
		struct kmp_ev *ke = k->evs;

		k->evs = ke->next;
		expr__free(ke->ptr);
		expr__free(ke->size);
		free(ke);
	}
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
