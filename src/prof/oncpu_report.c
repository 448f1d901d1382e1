// SPDX-License-Identifier: GPL-2.0
/*
 * oncpu's tables (oncpu.c keeps the slices): per CPU its busy time and
 * each thread on it, or with -p/-t/-- each target thread and its time per
 * CPU; text and JSON from one description (report/rtable.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/kfilter.h"
#include "engine/procfs.h"
#include "prof/oncpu_int.h"
#include "report/rtable.h"
#include "report/stats_table.h"

static const char *name_of(struct oncpu *oc, u32 tid, const char *kept)
{
	const char *c = oc->bpf && kept[0] ? kept : session__comm(oc->s, tid);

	return strcmp(c, "<...>") ? c : kept;
}

/* By CPU, then largest first (in column *@arg). */
static int by_cpu_ns(const void *a, const void *b, void *arg)
{
	const struct oc_entry *x = *(struct oc_entry *const *)a, *y = *(struct oc_entry *const *)b;
	int sort_k = *(int *)arg;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->ns[sort_k] != y->ns[sort_k])
		return x->ns[sort_k] < y->ns[sort_k] ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static double pct(u64 ns, u64 len)
{
	return len ? 100.0 * (double)ns / (double)len : 0;
}

unsigned oc_nr_kept(const struct oncpu *oc)
{
	unsigned n = 0;

	for (int i = 0; i < oc->nr_ids && oc->kept; i++)
		n += oc->kept[i].n;
	return n;
}

/* By CPU: a "cpu" record (JSON only), then a row per thread (text: on the CPU's line first). */
static const struct rt_col cpu_rec_cols[] = {
	{ .name = "cpu", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "busy_ns", .type = RT_NS, .flags = RT_NO_TEXT },
	{ .name = "busy_pct", .type = RT_F64, .unit = RT_UNIT_PERCENT, .flags = RT_NO_TEXT },
	/* --detail (the last ones) */
	{ .name = "sws", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "max_slice_ns", .type = RT_NS, .flags = RT_NO_TEXT },
};

#define TEXT (RT_NO_JSON | RT_NULL_BLANK) /* a cell of the text, blank without a value */
#define JSON (RT_NO_TEXT | RT_OMIT_EMPTY) /* a member of JSON, none without a value */
#define NOTE (TEXT | RT_TAIL)		  /* its words: "-", "... N more, X ms" */
#define PCT .type = RT_F64, .unit = RT_UNIT_PERCENT, .width = 7, .decimals = 1
#define MS .type = RT_F64, .width = 10, .decimals = 2
#define SWS .type = RT_U64, .width = 7

/*
 * The columns of a table without --detail's (@drop: which those are, -1
 * ends): @all's columns into @cols, described by *@d.
 */
static void without(const struct rt_desc *all, const int *drop, struct rt_col *cols,
		    struct rt_desc *d)
{
	*d = *all;
	d->cols = cols;
	d->ncols = 0;
	for (int i = 0, j = 0; i < all->ncols; i++) {
		if (drop[j] == i) {
			j++;
			continue;
		}
		cols[d->ncols++] = all->cols[i];
	}
}

/* --only-comm: the rows are names, the column says so. */
static void by_comm_title(const struct oncpu *oc, struct rt_col *cols, int n)
{
	for (int i = 0; oc->only_comm && i < n; i++)
		if (cols[i].title && !strcmp(cols[i].title, "COMM:TID"))
			cols[i].title = "COMM";
}

/* The values of a row (@v, @n of them) for a table made by without(). */
static void row_of(struct rt_sink *k, const int *drop, struct rt_val *v, int n)
{
	int m = 0;

	for (int i = 0, j = 0; i < n; i++) {
		if (drop && drop[j] == i) {
			j++;
			continue;
		}
		v[m++] = v[i];
	}
	rtable__row(k, v);
}

static const struct rt_col row_cols[] = {
	{ .title = "CPU", .type = RT_U64, .width = 4, .flags = TEXT | RT_LEFT },
	{ .title = "BUSY_MS", MS, .flags = TEXT },
	{ .title = "BUSY%", PCT, .flags = TEXT | RT_PCT_SIGN },
	{ .title = "CPU_SWS", SWS, .flags = TEXT },   /* --detail */
	{ .title = "CPU_MAX_MS", MS, .flags = TEXT }, /* --detail */
	{ .type = RT_STR, .flags = NOTE | RT_GAP },
	{ .title = "COMM:TID", .type = RT_STR, .width = 28, .flags = NOTE | RT_LEFT | RT_GAP },
	{ .title = "MS", MS, .flags = TEXT | RT_TAIL },
	{ .title = "SWS", SWS, .flags = TEXT | RT_TAIL },   /* --detail */
	{ .title = "MAX_MS", MS, .flags = TEXT | RT_TAIL }, /* --detail */
	{ .name = "cpu", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "other", .type = RT_BOOL, .flags = JSON },
	{ .name = "comm", .type = RT_STR, .flags = JSON },
	{ .name = "tid", .type = RT_U64, .flags = JSON },
	{ .name = "more_threads", .type = RT_U64, .flags = JSON },
	{ .name = "oncpu_ns", .type = RT_NS, .flags = RT_NO_TEXT },
	{ .name = "sws", .type = RT_U64, .flags = JSON },	  /* --detail */
	{ .name = "max_slice_ns", .type = RT_NS, .flags = JSON }, /* --detail */
	{ .type = RT_BOOL, .flags = RT_ROW_IF | RT_NO_TEXT | RT_NO_JSON },
};
static const struct rt_desc row_all = { .type = "row", .cols = row_cols, .ncols = 19 };
static const int row_detail[] = { 3, 4, 8, 9, 16, 17, -1 };
static const int cpu_rec_detail[] = { 3, 4, -1 };

/* The CPU view's tables: rows (text and JSON), "cpu" records (JSON); --detail's columns or not. */
struct cpu_tables {
	struct rt_desc row, rec;
	const int *row_drop, *rec_drop; /* NULL: --detail (every column) */
	struct rt_col row_cols[19], rec_cols[5];
};

static void cpu_tables(const struct oncpu *oc, struct cpu_tables *t)
{
	static const int none[] = { -1 };
	const struct rt_desc rec = { .type = "cpu", .cols = cpu_rec_cols, .ncols = 5 };

	t->row_drop = oc->detail ? NULL : row_detail;
	t->rec_drop = oc->detail ? NULL : cpu_rec_detail;
	without(&row_all, oc->detail ? none : row_detail, t->row_cols, &t->row);
	without(&rec, oc->detail ? none : cpu_rec_detail, t->rec_cols, &t->rec);
	by_comm_title(oc, t->row_cols, t->row.ncols);
}

/* A CPU's sums: its busy time, slices begun, the longest one. */
struct cpu_sum {
	u64 busy, sws, max;
};

/*
 * A row of @cpu: thread @e's (text: on the CPU's line if @first), or
 * @note's (@more threads, @ns).
 */
static void cpu_row(struct oncpu *oc, struct rt_sink *k, const struct cpu_tables *t, int kk,
		    u32 cpu, bool first, const struct cpu_sum *cs, u64 len, const char *note,
		    const struct oc_entry *e, u64 ns, unsigned long long more)
{
	bool named = e && e->tid != OC_OTHER, by_comm = named && e->tid == OC_COMM;
	const char *comm = !named ? NULL : e->gone ? e->comm : name_of(oc, e->tid, e->comm);
	char who[64];
	struct rt_val v[19] = {
		{ .u = cpu, .null = !first },
		{ .d = cs->busy / NS_PER_MS, .null = !first },
		{ .d = pct(cs->busy, len), .null = !first },
		{ .u = cs->sws, .null = !first },
		{ .d = cs->max / NS_PER_MS, .null = !first },
		{ .s = note },
		{ .s = e ? who : NULL },
		{ .d = ns / NS_PER_MS, .null = !e },
		{ .u = e ? e->sws[kk] : 0, .null = !e },
		{ .d = e ? e->max[kk] / NS_PER_MS : 0, .null = !e },
		{ .u = cpu },
		{ .b = true, .null = named || !e },
		{ .s = comm },
		{ .u = named ? e->tid : 0, .null = !named || by_comm },
		{ .u = more, .null = !more },
		{ .u = ns },
		{ .u = e ? e->sws[kk] : 0, .null = !e },
		{ .u = e ? e->max[kk] : 0, .null = !e },
		{ .b = e || more },
	};

	if (by_comm)
		snprintf(who, sizeof(who), "%s", comm);
	else if (named)
		snprintf(who, sizeof(who), "%s:%u", comm, e->tid);
	else
		snprintf(who, sizeof(who), "[other]");
	row_of(k, t->row_drop, v, 19);
}

/* --only-comm: by CPU, then by name (the names of exited threads' rows are kept in them). */
static int by_cpu_comm(const void *a, const void *b)
{
	const struct oc_entry *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

/*
 * --only-comm: @all's @n rows as one per (CPU, name) in a new array
 * (*@merged, to free; NULL when out of memory); their number.
 */
static unsigned merge_comms(struct oncpu *oc, struct oc_entry **all, unsigned n, int k,
			    struct oc_entry **merged)
{
	struct oc_entry *m = calloc(n ? n : 1, sizeof(*m));
	unsigned out = 0;

	*merged = m;
	if (!m)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		const struct oc_entry *e = all[i];

		m[i] = (struct oc_entry){ .cpu = e->cpu,
					  .tid = e->tid == OC_OTHER ? OC_OTHER : OC_COMM,
					  .gone = true };
		m[i].ns[k] = e->ns[k];
		m[i].sws[k] = e->sws[k];
		m[i].max[k] = e->max[k];
		snprintf(m[i].comm, sizeof(m[i].comm), "%s",
			 e->tid == OC_OTHER ? "[other]"
			 : e->gone	    ? e->comm
					    : name_of(oc, e->tid, e->comm));
	}
	qsort(m, n, sizeof(*m), by_cpu_comm);
	for (unsigned i = 0; i < n; i++) {
		struct oc_entry *o = out ? &m[out - 1] : NULL;

		if (o && !by_cpu_comm(o, &m[i]) && m[i].tid == o->tid) {
			o->ns[k] += m[i].ns[k];
			o->sws[k] += m[i].sws[k];
			if (m[i].max[k] > o->max[k])
				o->max[k] = m[i].max[k];
			continue;
		}
		m[out++] = m[i];
	}
	for (unsigned i = 0; i < out; i++)
		all[i] = &m[i];
	return out;
}

/* The table of report(): @kr its sink, @st its JSON stamp (text: NULL). */
static void print_cpus(struct oncpu *oc, struct rt_sink *kr, FILE *out, int k, u64 len,
		       const struct stats_stamp *st)
{
	unsigned n = 0, cap = oc->nr_entries + (k == RUN ? oc_nr_kept(oc) : 0);
	struct oc_entry **all = calloc(cap ? cap : 1, sizeof(*all)), *e, *tmp, *merged = NULL;
	union rt_sinks u;
	struct rt_sink *kc = st ? rt_json__init(&u.json, out, st) : rt_text__init(&u.text, out);
	struct cpu_tables t;
	char note[64];

	if (!all) {
		fprintf(st ? stderr : out, "oncpu: out of memory making the report\n");
		return;
	}
	cpu_tables(oc, &t);
	HASH_ITER(hh, oc->entries, e, tmp)
	if (e->ns[k])
		all[n++] = e;
	/* the whole run: the exited threads' rows too (they have no time in an interval) */
	for (int i = 0; k == RUN && i < oc->nr_ids; i++)
		for (unsigned j = 0; j < oc->kept[i].n; j++)
			all[n++] = oc->kept[i].v[j];
	if (oc->only_comm) {
		n = merge_comms(oc, all, n, k, &merged);
		if (!merged) {
			fprintf(st ? stderr : out, "oncpu: out of memory making the report\n");
			free(all);
			return;
		}
	}
	qsort_r(all, n, sizeof(*all), by_cpu_ns, &k);
	rtable__begin(kr, &t.row);
	rtable__begin(kc, &t.rec);
	/* both sorted by CPU: @i0 the first row of the CPU, @m its rows */
	for (unsigned c = 0, i0 = 0, m = 0; c < (unsigned)oc->nr_cpus; c++, i0 += m, m = 0) {
		u32 cpu = (u32)oc->cpus[c];
		const struct keeptop *g = k == RUN && cpu < (u32)oc->nr_ids ? &oc->kept[cpu] : NULL;
		unsigned long long more = g ? g->more : 0;
		u64 rest = g ? g->more_w : 0;
		struct cpu_sum cs = { .busy = rest };

		while (i0 < n && all[i0]->cpu < cpu)
			i0++;
		for (; i0 + m < n && all[i0 + m]->cpu == cpu; m++) {
			e = all[i0 + m];
			cs.busy += e->ns[k];
			cs.sws += e->sws[k];
			if (e->max[k] > cs.max)
				cs.max = e->max[k];
		}
		row_of(kc, t.rec_drop,
		       (struct rt_val[]){ { .u = cpu },
					  { .u = cs.busy },
					  { .d = pct(cs.busy, len) },
					  { .u = cs.sws },
					  { .u = cs.max } },
		       5);
		if (!m)
			cpu_row(oc, kr, &t, k, cpu, true, &cs, len, "-", NULL, 0, 0);
		for (unsigned i = 0; i < m; i++) {
			e = all[i0 + i];
			if (i >= oc->top) {
				rest += e->ns[k];
				more++;
				continue;
			}
			cpu_row(oc, kr, &t, k, cpu, !i, &cs, len, NULL, e, e->ns[k], 0);
		}
		if (!more)
			continue;
		snprintf(note, sizeof(note), "... %llu more, %.2f ms", more, rest / NS_PER_MS);
		cpu_row(oc, kr, &t, k, cpu, false, &cs, len, note, NULL, rest, more);
	}
	rtable__end(kc);
	rtable__end(kr);
	free(merged);
	free(all);
}

/* A thread's time on every monitored CPU. */
u64 oc_thread_ns(struct oncpu *oc, u32 tid, int k)
{
	u64 sum = 0;

	for (int c = 0; c < oc->nr_cpus; c++) {
		struct oc_entry *e = oc_find_entry(oc, (u32)oc->cpus[c], tid);

		sum += e ? e->ns[k] : 0;
	}
	return sum;
}

static int thread_by_sum(const void *a, const void *b)
{
	const struct oc_thread *x = *(struct oc_thread *const *)a,
			       *y = *(struct oc_thread *const *)b;

	if (x->sum != y->sum)
		return x->sum < y->sum ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Threads that turned out not to be targets go, with their entries. */
static void drop_others(struct oncpu *oc)
{
	struct oc_thread *t, *tt;

	HASH_ITER(hh, oc->threads, t, tt)
	{
		if (!t->target && t->pid == RUNSLICE_NO_PID) {
			pid_t pid = procfs__tgid((pid_t)t->tid);

			if (pid > 0)
				t->pid = (u32)pid;
			t->target = pid > 0 && session__is_target(oc->s, t->pid, t->tid);
		}
		if (t->target)
			continue;
		for (int c = 0; c < oc->nr_cpus; c++) {
			struct oc_entry *e = oc_find_entry(oc, (u32)oc->cpus[c], t->tid);

			if (e)
				oc_del_entry(oc, e);
		}
		HASH_DEL(oc->threads, t);
		free(t);
	}
}

/*
 * A target thread that never ran at a kept priority (--prio), or whose name
 * --filter does not keep, is not shown
 */
static bool hidden(struct oncpu *oc, const struct oc_thread *t)
{
	if (oc->filter && !t->sum &&
	    !kfilter__comm_match(oc->filter, t->cpu_ns ? t->comm : name_of(oc, t->tid, t->comm)))
		return true;
	return oc->prio && !t->sum && !prio__has(oc->prio, prio_map__get(oc->prios, t->tid));
}

/* -p/-t/--: a row per thread, its time per CPU an object in JSON ("cpus"). */
static const struct rt_col th_cols[] = {
	{ .type = RT_STR, .flags = NOTE },
	{ .title = "COMM:TID", .type = RT_STR, .width = 28, .flags = NOTE | RT_LEFT },
	{ .name = "comm", .type = RT_STR, .flags = JSON },
	{ .name = "tid", .type = RT_U64, .flags = JSON },
	{ .name = "pid", .type = RT_U64, .flags = JSON },
	{ .name = "exited", .type = RT_BOOL, .flags = JSON },
	{ .name = "more_exited_threads", .type = RT_U64, .flags = JSON },
	{ .title = "MS", MS, .flags = TEXT | RT_TAIL },
	{ .name = "oncpu_ns", .type = RT_NS, .flags = RT_NO_TEXT },
	{ .name = "cpu_pct",
	  .title = "%CPU",
	  PCT,
	  .flags = RT_PCT_SIGN | RT_NULL_BLANK | RT_OMIT_EMPTY | RT_TAIL },
	{ .title = "SWS", SWS, .flags = TEXT | RT_TAIL },	  /* --detail */
	{ .title = "MAX_MS", MS, .flags = TEXT | RT_TAIL },	  /* --detail */
	{ .name = "sws", .type = RT_U64, .flags = JSON },	  /* --detail */
	{ .name = "max_slice_ns", .type = RT_NS, .flags = JSON }, /* --detail */
	{ .name = "cpus", .type = RT_ROW, .flags = JSON },
	{ .title = "CPU:MS", .type = RT_STR, .flags = NOTE | RT_LEFT | RT_GAP },
	{ .type = RT_BOOL, .flags = RT_ROW_IF | RT_NO_TEXT | RT_NO_JSON },
};
static const struct rt_desc th_all = { .type = "row", .cols = th_cols, .ncols = 17 };
static const int th_detail[] = { 10, 11, 12, 13, -1 };

/*
 * A thread's row: @t's, or (NULL) @note's (@more exited threads, @ns);
 * @drop: --detail's columns to leave out (NULL: none).
 */
static void thread_row(struct oncpu *oc, struct rt_sink *k, const int *drop, int kk, u64 len,
		       const struct oc_thread *t, const char *note, u64 ns, unsigned long long more)
{
	bool by_comm = t && t->tid == OC_COMM;
	const struct rt_desc cd = { .cols = oc->cpu_cols, .ncols = oc->nr_cpus };
	const char *comm = NULL, *cpus = NULL;
	char who[64];
	size_t at = 0;

	for (int c = 0; t && c < oc->nr_cpus; c++) {
		struct oc_entry *e = t->cpu_ns ? NULL : oc_find_entry(oc, (u32)oc->cpus[c], t->tid);
		u64 v = t->cpu_ns ? t->cpu_ns[c] : e ? e->ns[kk] : 0;

		oc->cpu_vals[c].u = v;
		if (v)
			at += snprintf(oc->cpu_text + at, 32, "%s%d:%.2f", at ? " " : "",
				       oc->cpus[c], v / NS_PER_MS);
	}
	if (t) {
		comm = t->cpu_ns ? t->comm : name_of(oc, t->tid, t->comm);
		if (by_comm)
			snprintf(who, sizeof(who), "%s", comm);
		else
			snprintf(who, sizeof(who), "%s:%u", comm, t->tid);
		cpus = at ? oc->cpu_text : "-";
		ns = t->sum;
	}
	row_of(k, drop,
	       (struct rt_val[]){
		       { .s = note },
		       { .s = t ? who : NULL },
		       { .s = comm },
		       { .u = t ? t->tid : 0, .null = !t || by_comm },
		       { .u = t ? t->pid : 0, .null = !t || by_comm || t->pid == RUNSLICE_NO_PID },
		       { .b = true, .null = !t || !t->cpu_ns || by_comm },
		       { .u = more, .null = !more },
		       { .d = ns / NS_PER_MS, .null = !t },
		       { .u = ns },
		       { .d = pct(ns, len), .null = !t },
		       { .u = t ? t->sws : 0, .null = !t },
		       { .d = t ? t->max / NS_PER_MS : 0, .null = !t },
		       { .u = t ? t->sws : 0, .null = !t },
		       { .u = t ? t->max : 0, .null = !t },
		       { .row = { &cd, t ? oc->cpu_vals : NULL } },
		       { .s = cpus },
		       { .b = t || more } },
	       17);
}

/* --detail: a live thread's slices begun and its longest one, on every monitored CPU. */
static void thread_detail(struct oncpu *oc, struct oc_thread *t, int k)
{
	t->sws = t->max = 0;
	for (int c = 0; c < oc->nr_cpus; c++) {
		struct oc_entry *e = oc_find_entry(oc, (u32)oc->cpus[c], t->tid);

		if (!e)
			continue;
		t->sws += e->sws[k];
		if (e->max[k] > t->max)
			t->max = e->max[k];
	}
}

static int thread_by_comm(const void *a, const void *b)
{
	return strcmp(((const struct oc_thread *)a)->comm, ((const struct oc_thread *)b)->comm);
}

/*
 * --only-comm: @all's @n threads as one per name, in a new array (*@merged
 * and *@cpu_ns, to free; *@merged NULL when out of memory); their number.
 */
static unsigned merge_threads(struct oncpu *oc, struct oc_thread **all, unsigned n, int k,
			      struct oc_thread **merged, u64 **cpu_ns)
{
	struct oc_thread *m = calloc(n ? n : 1, sizeof(*m));
	u64 *ns = calloc((size_t)(n ? n : 1) * oc->nr_cpus, sizeof(*ns));
	unsigned out = 0;

	*merged = m;
	*cpu_ns = ns;
	if (!m || !ns) {
		free(m);
		free(ns);
		*merged = NULL;
		*cpu_ns = NULL;
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct oc_thread *t = all[i];

		m[i] = (struct oc_thread){ .tid = OC_COMM,
					   .pid = RUNSLICE_NO_PID,
					   .target = true,
					   .sum = t->sum,
					   .sws = t->sws,
					   .max = t->max };
		snprintf(m[i].comm, sizeof(m[i].comm), "%s",
			 t->cpu_ns ? t->comm : name_of(oc, t->tid, t->comm));
		m[i].cpu_ns = ns + (size_t)i * oc->nr_cpus;
		for (int c = 0; c < oc->nr_cpus; c++) {
			struct oc_entry *e =
				t->cpu_ns ? NULL : oc_find_entry(oc, (u32)oc->cpus[c], t->tid);

			m[i].cpu_ns[c] = t->cpu_ns ? t->cpu_ns[c] : e ? e->ns[k] : 0;
		}
	}
	qsort(m, n, sizeof(*m), thread_by_comm);
	for (unsigned i = 0; i < n; i++) {
		struct oc_thread *o = out ? &m[out - 1] : NULL;

		if (o && !thread_by_comm(o, &m[i])) {
			o->sum += m[i].sum;
			o->sws += m[i].sws;
			if (m[i].max > o->max)
				o->max = m[i].max;
			for (int c = 0; c < oc->nr_cpus; c++)
				o->cpu_ns[c] += m[i].cpu_ns[c];
			continue;
		}
		m[out++] = m[i];
	}
	for (unsigned i = 0; i < out; i++)
		all[i] = &m[i];
	return out;
}

static void print_threads(struct oncpu *oc, struct rt_sink *kr, FILE *out, int k, u64 len,
			  const struct stats_stamp *st)
{
	const struct keeptop *g = &oc->kept_threads;
	unsigned n = HASH_COUNT(oc->threads) + (k == RUN ? g->n : 0), m = 0;
	struct oc_thread **all = calloc(n ? n : 1, sizeof(*all)), *t, *tt, *merged = NULL;
	const int *drop = oc->detail ? NULL : th_detail;
	struct rt_col cols[17];
	struct rt_desc d = th_all;
	u64 *merged_ns = NULL;
	char note[80];

	if (!all) {
		fprintf(st ? stderr : out, "oncpu: out of memory making the report\n");
		return;
	}
	HASH_ITER(hh, oc->threads, t, tt)
	{
		t->sum = oc_thread_ns(oc, t->tid, k);
		thread_detail(oc, t, k);
		if (!hidden(oc, t))
			all[m++] = t;
	}
	for (unsigned i = 0; k == RUN && i < g->n; i++) {
		t = g->v[i];
		t->sum = t->run;
		if (!hidden(oc, t))
			all[m++] = t;
	}
	if (oc->only_comm && m) {
		m = merge_threads(oc, all, m, k, &merged, &merged_ns);
		if (!merged) {
			fprintf(st ? stderr : out, "oncpu: out of memory making the report\n");
			free(all);
			return;
		}
	}
	qsort(all, m, sizeof(*all), thread_by_sum);
	without(&th_all, drop ? drop : (const int[]){ -1 }, cols, &d);
	by_comm_title(oc, cols, d.ncols);
	rtable__begin(kr, &d);
	for (unsigned i = 0; i < m; i++)
		thread_row(oc, kr, drop, k, len, all[i], NULL, 0, 0);
	if (k == RUN && g->more) {
		snprintf(note, sizeof(note), "... %llu more exited threads, %.2f ms", g->more,
			 g->more_w / NS_PER_MS);
		thread_row(oc, kr, drop, k, len, NULL, note, g->more_w, g->more);
	} else if (!m) {
		thread_row(oc, kr, drop, k, len, NULL, "(no target thread)", 0, 0);
	}
	rtable__end(kr);
	free(merged);
	free(merged_ns);
	free(all);
}

/* The text's first line, JSON's "interval" or "summary" record. */
static const struct rt_col head_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	{ .name = "cpus", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "not_kept_ns", .type = RT_NS, .unit = RT_UNIT_NS, .flags = RT_NO_TEXT },
};

void oncpu__report(struct session *s, struct oncpu *oc, u64 now, int k, const char *scope)
{
	FILE *out = session__out(s);
	u64 from = !oc->start ? oc->init : k == NOW ? oc->edge : oc->start;
	u64 len = now > from ? now - from : 0;
	const struct rt_desc hd = { .type = k == RUN ? "summary" : "interval",
				    .cols = head_cols,
				    .ncols = 3 };
	struct stats_stamp st = { .scope = k == RUN ? "run" : scope,
				  .time_ns = session__wall_ns(s, now),
				  .interval_ns = len };
	const struct stats_stamp *json = session__json(s) ? &st : NULL;
	char ts[64], head[160];
	union rt_sinks u;
	struct rt_sink *kr = json ? rt_json__init(&u.json, out, json) : rt_text__init(&u.text, out);

	if (oc->rs)
		runslice__edge(oc->rs, now);
	if (oc->per_thread)
		drop_others(oc);
	session__fmt_time(s, now, ts, sizeof(ts));
	snprintf(head, sizeof(head), "%s oncpu: %s%.2f ms on %d CPU%s", ts,
		 k == RUN ? "the whole run, " : "", len / NS_PER_MS, oc->nr_cpus,
		 oc->nr_cpus == 1 ? "" : "s");
	rtable__begin(kr, &hd);
	rtable__row(kr, (struct rt_val[]){
				{ .s = head }, { .u = oc->nr_cpus }, { .u = oc->not_kept } });
	rtable__end(kr);
	if (oc->per_thread)
		print_threads(oc, kr, out, k, len, json);
	else
		print_cpus(oc, kr, out, k, len, json);
	if (oc->not_kept && !json)
		fprintf(out, "oncpu: %.2f ms not kept (out of memory or over %u threads)\n",
			oc->not_kept / NS_PER_MS, OC_MAX_ENTRIES);
	if (!json)
		session__print_lost(s, out);
	fflush(out);
}
