// SPDX-License-Identifier: GPL-2.0
/*
 * oncpu: who ran on each CPU, and for how long.  Per interval and for the
 * whole run: per CPU, the busy time (not the idle task), then each thread
 * with its time there, largest first; with -p/-t/-- per target thread, its
 * time on CPU and on which CPUs.  The time is measured between switches
 * (sched:sched_switch on every CPU, the kernel's context-switch records
 * where its samples are not delivered, a 100 Hz cpu-clock for CPUs that
 * never switch), a slice running at an interval's edge is cut there
 * (analysis/cpu/runslice.h).
 *
 * Over hours: a thread that has exited leaves the live tables at the end of
 * the interval it exited in; the whole run keeps the --top largest of them
 * by name (per CPU, or per process view) and sums the others as "more", so
 * the memory follows the live threads, and a tid the kernel hands out again
 * is a thread of its own.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "analysis/cpu/prio.h"
#include "analysis/cpu/runslice.h"
#include "engine/procfs.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "util/hash.h"
#include "util/keeptop.h"

#define OC_MAX_ENTRIES (1u << 18) /* (CPU, thread) pairs kept; beyond: "[other]" */
#define OC_OTHER ((u32)-1)	  /* the tid of a CPU's "[other]" row */
#define OC_HINT_NS 10000000ULL /* the cpu-clock's period: who runs on a CPU that never switches */
#define NS_PER_MS 1e6

enum { NOW, RUN }; /* ns[]: this interval, the whole run */

/* A thread's time on one CPU. */
struct oc_entry {
	UT_hash_handle hh;
	u64 key; /* cpu << 32 | tid */
	u32 cpu, tid;
	u64 ns[2];
	char comm[16]; /* the name when first seen (the comm map may forget an exited thread) */
	bool gone;     /* its thread exited: a row of the whole run only, named by comm */
};

/* -p/-t/--: a thread, whether it is a target, and its sums for a report. */
struct oc_thread {
	UT_hash_handle hh;
	u32 tid, pid;
	bool target, exited;
	u64 sum;
	char comm[16];
	u64 run;     /* gone: its whole-run time ... */
	u64 *cpu_ns; /* ... per monitored CPU (index in oncpu.cpus) */
};

/* A thread that exited in this interval or the one before (its last records may come late). */
struct oc_exited {
	UT_hash_handle hh;
	u32 tid;
	unsigned iv;   /* the interval it exited in (oncpu.nr_reports then) */
	char comm[16]; /* its name then: the comm map forgets it, the tid may come back */
};

struct oncpu {
	unsigned long long top;
	struct session *s;
	struct evsel *sw, *clk;
	struct field prev_pid, next_pid;
	struct runslice *rs;
	/* --prio: only time of threads whose priority (as the switches tell it) is kept */
	const struct prio_opts *prio;
	struct prio_map *prios;
	struct field prev_prio, next_prio;
	struct oc_entry *entries;
	u32 nr_entries;
	struct oc_thread *threads;
	struct oc_exited *exited;
	/* exited threads for the whole run: the --top largest kept, the others summed */
	struct keeptop *kept;	     /* per CPU (0..nr_ids-1): struct oc_entry */
	struct keeptop kept_threads; /* -p/-t/--: struct oc_thread */
	int nr_ids;
	bool per_thread;
	const int *cpus; /* the monitored ones */
	int nr_cpus;
	u64 start, edge; /* the first record's time (enabled by then), the last edge */
	u64 last;	 /* the latest record's time */
	u64 init;	 /* when the events were asked for (no record came yet) */
	unsigned nr_reports;
	u64 not_kept;
	/* a thread's time per monitored CPU: "cpus" in JSON, "CPU:MS" in text (32 bytes a CPU) */
	struct rt_col *cpu_cols;
	struct rt_val *cpu_vals;
	char *cpu_text;
};

static struct oc_entry *find_entry(struct oncpu *oc, u32 cpu, u32 tid)
{
	u64 key = (u64)cpu << 32 | tid;
	struct oc_entry *e;

	HASH_FIND(hh, oc->entries, &key, sizeof(key), e);
	return e;
}

static struct oc_entry *get_entry(struct oncpu *oc, u32 cpu, u32 tid)
{
	struct oc_entry *e = find_entry(oc, cpu, tid);

	if (e)
		return e;
	if (oc->nr_entries >= OC_MAX_ENTRIES) {
		/* threads are counted by CPU only: the table is full */
		if (oc->per_thread || tid == OC_OTHER)
			return NULL;
		return get_entry(oc, cpu, OC_OTHER);
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->key = (u64)cpu << 32 | tid;
	e->cpu = cpu;
	e->tid = tid;
	snprintf(e->comm, sizeof(e->comm), "%s",
		 tid == OC_OTHER ? "[other]" : session__comm(oc->s, tid));
	HASH_ADD(hh, oc->entries, key, sizeof(e->key), e);
	oc->nr_entries++;
	return e;
}

static void del_entry(struct oncpu *oc, struct oc_entry *e)
{
	HASH_DEL(oc->entries, e);
	free(e);
	oc->nr_entries--;
}

static struct oc_exited *find_exited(struct oncpu *oc, u32 tid)
{
	struct oc_exited *x;

	HASH_FIND(hh, oc->exited, &tid, sizeof(tid), x);
	return x;
}

static struct oc_thread *get_thread(struct oncpu *oc, u32 tid, u32 pid)
{
	struct oc_thread *t;

	HASH_FIND(hh, oc->threads, &tid, sizeof(tid), t);
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->tid = tid;
		t->pid = RUNSLICE_NO_PID;
		/* the last slices of one that exited: it goes with it at the interval's end */
		t->exited = find_exited(oc, tid) != NULL;
		HASH_ADD(hh, oc->threads, tid, sizeof(t->tid), t);
	}
	if (pid != RUNSLICE_NO_PID && t->pid == RUNSLICE_NO_PID)
		t->pid = pid;
	/* a workload's new process is a target from its FORK record on */
	if (!t->target && t->pid != RUNSLICE_NO_PID)
		t->target = session__is_target(oc->s, t->pid, tid);
	if (t->target && !t->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", session__comm(oc->s, tid));
	return t;
}

static void credit(void *arg, u32 cpu, u32 pid, u32 tid, u64 ns)
{
	struct oncpu *oc = arg;
	struct oc_entry *e;

	if (oc->prio && !prio__has(oc->prio, prio_map__get(oc->prios, tid)))
		return;
	e = get_entry(oc, cpu, tid);
	if (!e || (oc->per_thread && !get_thread(oc, tid, pid))) {
		oc->not_kept += ns;
		return;
	}
	e->ns[NOW] += ns;
	e->ns[RUN] += ns;
}

/* -p: the threads there are now (a thread that never runs shows 0). */
static void seed_process(struct oncpu *oc, pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9')
			get_thread(oc, (u32)atoi(d->d_name), (u32)pid);
	closedir(dir);
}

static void oc_clock(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
static void oc_sched_switch(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int oc_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct target_opts *tg = session__conf(s)->target;
	struct oncpu *oc = priv;
	int max_cpu = 0;

	oc->s = s;
	oc->prio = opt_set__get(opts, &prio_group);
	if (oc->prio && !oc->prio->set)
		oc->prio = NULL;
	if (oc->prio && !(oc->prios = prio_map__new()))
		return session__set_err(s, -ENOMEM, "out of memory");
	if (!oc->top)
		oc->top = 10;
	oc->cpus = tg->cpus;
	oc->nr_cpus = tg->nr_cpus;
	for (int i = 0; i < tg->nr_cpus; i++)
		if (tg->cpus[i] > max_cpu)
			max_cpu = tg->cpus[i];
	oc->init = session__now(s);
	oc->per_thread = tg->nr_pids || tg->nr_tids || (tg->argv && tg->argv[0]);
	oc->nr_ids = max_cpu + 1;
	oc->kept = calloc(oc->nr_ids, sizeof(*oc->kept));
	/* the columns, their values, the text, the CPUs' names (12 bytes each) */
	oc->cpu_cols = calloc(tg->nr_cpus + 1, sizeof(struct rt_col) + sizeof(struct rt_val) + 44);
	if (!oc->kept || !oc->cpu_cols)
		return session__set_err(s, -ENOMEM, "out of memory");
	oc->cpu_vals = (struct rt_val *)(oc->cpu_cols + tg->nr_cpus + 1);
	oc->cpu_text = (char *)(oc->cpu_vals + tg->nr_cpus + 1);
	for (int i = 0; i < tg->nr_cpus; i++) {
		char *name = oc->cpu_text + 32 * (tg->nr_cpus + 1) + 12 * i;

		snprintf(name, 12, "%d", tg->cpus[i]);
		oc->cpu_cols[i] =
			(struct rt_col){ .name = name, .type = RT_NS, .flags = RT_OMIT_ZERO };
	}
	/* a thread's switches come from every CPU, and from other tasks' contexts */
	session__want_cpu_wide(s);
	session__want_interval(s, 1000);
	oc->rs = runslice__new(max_cpu + 1, credit, oc);
	if (!oc->rs)
		return session__set_err(s, -ENOMEM, "out of memory");
	if (runslice__add_hooks(oc->rs, s))
		return -ENOMEM;
	oc->sw = session__add_tp(s, "sched", "sched_switch", &(struct evsel_conf){ 0 });
	if (!oc->sw)
		return -ENOENT;
	if (evsel__field(oc->sw, "prev_pid", &oc->prev_pid) ||
	    evsel__field(oc->sw, "next_pid", &oc->next_pid) ||
	    (oc->prio && (evsel__field(oc->sw, "prev_prio", &oc->prev_prio) ||
			  evsel__field(oc->sw, "next_prio", &oc->next_prio))))
		return session__set_err(s, -EINVAL,
					"sched:sched_switch lacks a field it needs (prev_pid, "
					"next_pid%s)",
					oc->prio ? ", prev_prio, next_prio" : "");
	oc->clk = session__add_event(s, &(struct evsel_conf){ .type = PERF_TYPE_SOFTWARE,
							      .config = PERF_COUNT_SW_CPU_CLOCK,
							      .sample_period = OC_HINT_NS,
							      .name = "cpu-clock" });
	if (!oc->clk)
		return -ENOMEM;
	evsel__set_handler(oc->sw, oc_sched_switch, oc);
	evsel__set_handler(oc->clk, oc_clock, oc);
	for (int i = 0; i < tg->nr_pids; i++)
		seed_process(oc, tg->pids[i]);
	for (int i = 0; i < tg->nr_tids; i++) {
		pid_t pid = procfs__tgid(tg->tids[i]);
		struct oc_thread *t =
			get_thread(oc, (u32)tg->tids[i], pid > 0 ? (u32)pid : RUNSLICE_NO_PID);

		if (t)
			t->target = true;
	}
	return 0;
}

/*
 * The run starts with the oldest record: the events are enabled then, and
 * the task a CPU's first record shows has run since (not since the events
 * were asked for: opening them takes a while).  The buffers are read one
 * CPU after the other: another CPU's records may be older than the first
 * one read, by up to a read period (100 ms).
 */
static void seen_time(struct oncpu *oc, u64 time)
{
	if ((!oc->start || (time < oc->start && !oc->nr_reports)) && runslice__start(oc->rs, time))
		oc->start = oc->edge = time;
	if (time > oc->last)
		oc->last = time;
}

/* The handlers of cpu-clock and sched_switch (@priv the oncpu). */
static void oc_clock(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct oncpu *oc = priv;

	(void)s, (void)ev;
	seen_time(oc, smp->time);
	runslice__running(oc->rs, smp->cpu, smp->time, smp->pid, smp->tid);
}

static void oc_sched_switch(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct oncpu *oc = priv;
	u64 prev, next;

	(void)s, (void)ev;
	seen_time(oc, smp->time);
	if (field__u64(&oc->prev_pid, smp, &prev) || field__u64(&oc->next_pid, smp, &next))
		return;
	if (oc->prio) {
		u64 pp, np;

		/* every switch is read (slices need both ends): prev's ends at its priority */
		if (!field__u64(&oc->prev_prio, smp, &pp))
			prio_map__set(oc->prios, (u32)prev, (int)pp);
		if (!field__u64(&oc->next_prio, smp, &np))
			prio_map__set(oc->prios, (u32)next, (int)np);
	}
	/* the sample is taken in the context of the task leaving: its pid is prev's process */
	runslice__switch(oc->rs, smp->cpu, smp->time,
			 (u32)prev == smp->tid ? smp->pid : RUNSLICE_NO_PID, (u32)prev, (u32)next);
}

static void oc_switch(struct session *s, void *priv, const struct rec_switch *sw)
{
	struct oncpu *oc = priv;

	(void)s;
	seen_time(oc, sw->time);
	runslice__record(oc->rs, sw);
}

static void oc_fork(struct session *s, void *priv, const struct rec_task *t)
{
	struct oncpu *oc = priv;
	struct oc_exited *x = find_exited(oc, t->tid);

	/* a tid handed out again, after the rows of the one that had it left */
	if (x && x->iv < oc->nr_reports) {
		HASH_DEL(oc->exited, x);
		free(x);
	}
	if (oc->per_thread && session__is_target(s, t->pid, t->tid))
		get_thread(oc, t->tid, t->pid);
}

static void oc_exit(struct session *s, void *priv, const struct rec_task *t)
{
	struct oncpu *oc = priv;
	struct oc_exited *x = find_exited(oc, t->tid);
	struct oc_thread *th;
	const char *comm = session__comm(s, t->tid);

	if (!x && (x = calloc(1, sizeof(*x)))) {
		x->tid = t->tid;
		HASH_ADD(hh, oc->exited, tid, sizeof(x->tid), x);
	}
	if (x) { /* out of memory: its rows stay with the live ones */
		x->iv = oc->nr_reports;
		if (strcmp(comm, "<...>"))
			snprintf(x->comm, sizeof(x->comm), "%s", comm);
	}
	if (!oc->per_thread)
		return;
	/* still a target here: the engine forgets it after this hook */
	th = get_thread(oc, t->tid, t->pid);
	if (th)
		th->exited = true;
}

static const char *name_of(struct oncpu *oc, u32 tid, const char *kept)
{
	const char *c = session__comm(oc->s, tid);

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

static unsigned nr_kept(const struct oncpu *oc)
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
};
static const struct rt_desc cpu_rec = { .type = "cpu", .cols = cpu_rec_cols, .ncols = 3 };

#define TEXT (RT_NO_JSON | RT_NULL_BLANK) /* a cell of the text, blank without a value */
#define JSON (RT_NO_TEXT | RT_OMIT_EMPTY) /* a member of JSON, none without a value */
#define NOTE (TEXT | RT_TAIL)		  /* its words: "-", "... N more, X ms" */
#define PCT .type = RT_F64, .unit = RT_UNIT_PERCENT, .width = 7, .decimals = 1
#define MS .type = RT_F64, .width = 10, .decimals = 2

static const struct rt_col row_cols[] = {
	{ .title = "CPU", .type = RT_U64, .width = 4, .flags = TEXT | RT_LEFT },
	{ .title = "BUSY_MS", MS, .flags = TEXT },
	{ .title = "BUSY%", PCT, .flags = TEXT | RT_PCT_SIGN },
	{ .type = RT_STR, .flags = NOTE | RT_GAP },
	{ .title = "COMM:TID", .type = RT_STR, .width = 28, .flags = NOTE | RT_LEFT | RT_GAP },
	{ .title = "MS", MS, .flags = TEXT | RT_TAIL },
	{ .name = "cpu", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "other", .type = RT_BOOL, .flags = JSON },
	{ .name = "comm", .type = RT_STR, .flags = JSON },
	{ .name = "tid", .type = RT_U64, .flags = JSON },
	{ .name = "more_threads", .type = RT_U64, .flags = JSON },
	{ .name = "oncpu_ns", .type = RT_NS, .flags = RT_NO_TEXT },
	{ .type = RT_BOOL, .flags = RT_ROW_IF | RT_NO_TEXT | RT_NO_JSON },
};
static const struct rt_desc row_desc = { .type = "row", .cols = row_cols, .ncols = 13 };

/* A row of @cpu: thread @e's (text: on the CPU's line if @first), or @note's (@more threads). */
static void cpu_row(struct oncpu *oc, struct rt_sink *k, u32 cpu, bool first, u64 busy, u64 len,
		    const char *note, const struct oc_entry *e, u64 ns, unsigned long long more)
{
	bool named = e && e->tid != OC_OTHER;
	const char *comm = !named ? NULL : e->gone ? e->comm : name_of(oc, e->tid, e->comm);
	char who[64];

	if (named)
		snprintf(who, sizeof(who), "%s:%u", comm, e->tid);
	else
		snprintf(who, sizeof(who), "[other]");
	rtable__row(k, (struct rt_val[]){ { .u = cpu, .null = !first },
					  { .d = busy / NS_PER_MS, .null = !first },
					  { .d = pct(busy, len), .null = !first },
					  { .s = note },
					  { .s = e ? who : NULL },
					  { .d = ns / NS_PER_MS, .null = !e },
					  { .u = cpu },
					  { .b = true, .null = named || !e },
					  { .s = comm },
					  { .u = named ? e->tid : 0, .null = !named },
					  { .u = more, .null = !more },
					  { .u = ns },
					  { .b = e || more } });
}

/* The table of report(): @kr its sink, @st its JSON stamp (text: NULL). */
static void print_cpus(struct oncpu *oc, struct rt_sink *kr, FILE *out, int k, u64 len,
		       const struct stats_stamp *st)
{
	unsigned n = 0, cap = oc->nr_entries + (k == RUN ? nr_kept(oc) : 0);
	struct oc_entry **all = calloc(cap ? cap : 1, sizeof(*all)), *e, *tmp;
	union rt_sinks u;
	struct rt_sink *kc = st ? rt_json__init(&u.json, out, st) : rt_text__init(&u.text, out);
	char note[64];

	if (!all) {
		fprintf(st ? stderr : out, "oncpu: out of memory making the report\n");
		return;
	}
	HASH_ITER(hh, oc->entries, e, tmp)
	if (e->ns[k])
		all[n++] = e;
	/* the whole run: the exited threads' rows too (they have no time in an interval) */
	for (int i = 0; k == RUN && i < oc->nr_ids; i++)
		for (unsigned j = 0; j < oc->kept[i].n; j++)
			all[n++] = oc->kept[i].v[j];
	qsort_r(all, n, sizeof(*all), by_cpu_ns, &k);
	rtable__begin(kr, &row_desc);
	rtable__begin(kc, &cpu_rec);
	/* both sorted by CPU: @i0 the first row of the CPU, @m its rows */
	for (unsigned c = 0, i0 = 0, m = 0; c < (unsigned)oc->nr_cpus; c++, i0 += m, m = 0) {
		u32 cpu = (u32)oc->cpus[c];
		const struct keeptop *g = k == RUN && cpu < (u32)oc->nr_ids ? &oc->kept[cpu] : NULL;
		unsigned long long more = g ? g->more : 0;
		u64 rest = g ? g->more_w : 0, busy = rest;

		while (i0 < n && all[i0]->cpu < cpu)
			i0++;
		while (i0 + m < n && all[i0 + m]->cpu == cpu)
			busy += all[i0 + m++]->ns[k];
		rtable__row(kc, (struct rt_val[]){
					{ .u = cpu }, { .u = busy }, { .d = pct(busy, len) } });
		if (!m)
			cpu_row(oc, kr, cpu, true, busy, len, "-", NULL, 0, 0);
		for (unsigned i = 0; i < m; i++) {
			e = all[i0 + i];
			if (i >= oc->top) {
				rest += e->ns[k];
				more++;
				continue;
			}
			cpu_row(oc, kr, cpu, !i, busy, len, NULL, e, e->ns[k], 0);
		}
		if (!more)
			continue;
		snprintf(note, sizeof(note), "... %llu more, %.2f ms", more, rest / NS_PER_MS);
		cpu_row(oc, kr, cpu, false, busy, len, note, NULL, rest, more);
	}
	rtable__end(kc);
	rtable__end(kr);
	free(all);
}

/* A thread's time on every monitored CPU. */
static u64 thread_ns(struct oncpu *oc, u32 tid, int k)
{
	u64 sum = 0;

	for (int c = 0; c < oc->nr_cpus; c++) {
		struct oc_entry *e = find_entry(oc, (u32)oc->cpus[c], tid);

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
			struct oc_entry *e = find_entry(oc, (u32)oc->cpus[c], t->tid);

			if (e)
				del_entry(oc, e);
		}
		HASH_DEL(oc->threads, t);
		free(t);
	}
}

/* --prio: a target thread that never ran at a kept priority is not shown */
static bool hidden(struct oncpu *oc, const struct oc_thread *t)
{
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
	{ .name = "cpus", .type = RT_ROW, .flags = JSON },
	{ .title = "CPU:MS", .type = RT_STR, .flags = NOTE | RT_LEFT | RT_GAP },
	{ .type = RT_BOOL, .flags = RT_ROW_IF | RT_NO_TEXT | RT_NO_JSON },
};
static const struct rt_desc th_desc = { .type = "row", .cols = th_cols, .ncols = 13 };

/* A thread's row: @t's, or (NULL) @note's (@more exited threads, @ns). */
static void thread_row(struct oncpu *oc, struct rt_sink *k, int kk, u64 len,
		       const struct oc_thread *t, const char *note, u64 ns, unsigned long long more)
{
	const struct rt_desc cd = { .cols = oc->cpu_cols, .ncols = oc->nr_cpus };
	const char *comm = NULL, *cpus = NULL;
	char who[64];
	size_t at = 0;

	for (int c = 0; t && c < oc->nr_cpus; c++) {
		struct oc_entry *e = t->cpu_ns ? NULL : find_entry(oc, (u32)oc->cpus[c], t->tid);
		u64 v = t->cpu_ns ? t->cpu_ns[c] : e ? e->ns[kk] : 0;

		oc->cpu_vals[c].u = v;
		if (v)
			at += snprintf(oc->cpu_text + at, 32, "%s%d:%.2f", at ? " " : "",
				       oc->cpus[c], v / NS_PER_MS);
	}
	if (t) {
		comm = t->cpu_ns ? t->comm : name_of(oc, t->tid, t->comm);
		snprintf(who, sizeof(who), "%s:%u", comm, t->tid);
		cpus = at ? oc->cpu_text : "-";
		ns = t->sum;
	}
	rtable__row(k, (struct rt_val[]){
			       { .s = note },
			       { .s = t ? who : NULL },
			       { .s = comm },
			       { .u = t ? t->tid : 0, .null = !t },
			       { .u = t ? t->pid : 0, .null = !t || t->pid == RUNSLICE_NO_PID },
			       { .b = true, .null = !t || !t->cpu_ns },
			       { .u = more, .null = !more },
			       { .d = ns / NS_PER_MS, .null = !t },
			       { .u = ns },
			       { .d = pct(ns, len), .null = !t },
			       { .row = { &cd, t ? oc->cpu_vals : NULL } },
			       { .s = cpus },
			       { .b = t || more } });
}

static void print_threads(struct oncpu *oc, struct rt_sink *kr, FILE *out, int k, u64 len,
			  const struct stats_stamp *st)
{
	const struct keeptop *g = &oc->kept_threads;
	unsigned n = HASH_COUNT(oc->threads) + (k == RUN ? g->n : 0), m = 0;
	struct oc_thread **all = calloc(n ? n : 1, sizeof(*all)), *t, *tt;
	char note[80];

	if (!all) {
		fprintf(st ? stderr : out, "oncpu: out of memory making the report\n");
		return;
	}
	HASH_ITER(hh, oc->threads, t, tt)
	{
		t->sum = thread_ns(oc, t->tid, k);
		if (!hidden(oc, t))
			all[m++] = t;
	}
	for (unsigned i = 0; k == RUN && i < g->n; i++) {
		t = g->v[i];
		t->sum = t->run;
		if (!hidden(oc, t))
			all[m++] = t;
	}
	qsort(all, m, sizeof(*all), thread_by_sum);
	rtable__begin(kr, &th_desc);
	for (unsigned i = 0; i < m; i++)
		thread_row(oc, kr, k, len, all[i], NULL, 0, 0);
	if (k == RUN && g->more) {
		snprintf(note, sizeof(note), "... %llu more exited threads, %.2f ms", g->more,
			 g->more_w / NS_PER_MS);
		thread_row(oc, kr, k, len, NULL, note, g->more_w, g->more);
	} else if (!m) {
		thread_row(oc, kr, k, len, NULL, "(no target thread)", 0, 0);
	}
	rtable__end(kr);
	free(all);
}

/* The text's first line, JSON's "interval" or "summary" record. */
static const struct rt_col head_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	{ .name = "cpus", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "not_kept_ns", .type = RT_NS, .unit = RT_UNIT_NS, .flags = RT_NO_TEXT },
};

/*
 * The report of [oc->edge or the start, @now]: @k NOW (an interval) or RUN
 * (the whole run); --json's @scope of an interval: "interval" or "so_far".
 */
static void report(struct session *s, struct oncpu *oc, u64 now, int k, const char *scope)
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

static void drop_thread(void *t)
{
	free(((struct oc_thread *)t)->cpu_ns);
	free(t);
}

static u64 entry_w(const void *e)
{
	return ((const struct oc_entry *)e)->ns[RUN];
}

static u64 thread_w(const void *t)
{
	return ((const struct oc_thread *)t)->run;
}

/* A CPU's row of an exited thread leaves the live table for the whole run's. */
static void retire_entry(struct oncpu *oc, struct oc_entry *e, const struct oc_exited *x)
{
	struct keeptop *g = &oc->kept[e->cpu];

	HASH_DEL(oc->entries, e);
	oc->nr_entries--;
	e->gone = true;
	e->ns[NOW] = 0;
	if (x->comm[0])
		snprintf(e->comm, sizeof(e->comm), "%s", x->comm);
	/* its slices read after it was retired the interval before */
	for (unsigned i = 0; i < g->n; i++) {
		struct oc_entry *k = g->v[i];

		if (k->tid == e->tid) {
			k->ns[RUN] += e->ns[RUN];
			free(e);
			return;
		}
	}
	keeptop__add(g, oc->top, e, entry_w, free);
}

/* An exited target thread: its time per CPU moves into it, its rows go. */
static void retire_thread(struct oncpu *oc, struct oc_thread *t)
{
	struct keeptop *g = &oc->kept_threads;
	struct oc_exited *x = find_exited(oc, t->tid);

	HASH_DEL(oc->threads, t);
	t->cpu_ns = calloc(oc->nr_cpus, sizeof(*t->cpu_ns));
	t->run = 0;
	for (int c = 0; c < oc->nr_cpus; c++) {
		struct oc_entry *e = find_entry(oc, (u32)oc->cpus[c], t->tid);

		if (!e)
			continue;
		t->run += e->ns[RUN];
		if (t->cpu_ns)
			t->cpu_ns[c] = e->ns[RUN];
		del_entry(oc, e);
	}
	if (x && x->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", x->comm);
	for (unsigned i = 0; t->cpu_ns && i < g->n; i++) {
		struct oc_thread *k = g->v[i];

		if (k->tid != t->tid)
			continue;
		k->run += t->run;
		for (int c = 0; c < oc->nr_cpus; c++)
			k->cpu_ns[c] += t->cpu_ns[c];
		free(t->cpu_ns);
		free(t);
		return;
	}
	if (t->cpu_ns)
		keeptop__add(g, oc->top, t, thread_w, drop_thread);
	else /* out of memory: summed, not named */
		keeptop__sum(g, t, t->run, drop_thread);
}

/*
 * A new interval: its sums from 0; threads that exited leave the live
 * tables (those that never ran go), and are forgotten as exited one
 * interval later.
 */
static void reset(struct oncpu *oc, u64 now)
{
	struct oc_entry *e, *tmp;
	struct oc_thread *t, *tt;
	struct oc_exited *x, *xx;

	HASH_ITER(hh, oc->entries, e, tmp)
	{
		e->ns[NOW] = 0;
		if (!oc->per_thread && e->tid != OC_OTHER && (x = find_exited(oc, e->tid)))
			retire_entry(oc, e, x);
	}
	HASH_ITER(hh, oc->threads, t, tt)
	{
		if (!t->exited)
			continue;
		if (thread_ns(oc, t->tid, RUN)) {
			retire_thread(oc, t);
		} else {
			HASH_DEL(oc->threads, t);
			free(t);
		}
	}
	HASH_ITER(hh, oc->exited, x, xx)
	if (x->iv < oc->nr_reports) {
		/* its last slices are in: --prio forgets its priority too (flat memory) */
		if (oc->prios)
			prio_map__forget(oc->prios, x->tid);
		HASH_DEL(oc->exited, x);
		free(x);
	}
	oc->edge = now;
}

/* The edge: now, never before a record already counted (injected sessions have their own clock). */
static u64 now_of(struct session *s, struct oncpu *oc)
{
	u64 now = session__now(s);

	return now > oc->last ? now : oc->last;
}

static void oc_interval(struct session *s, void *priv)
{
	struct oncpu *oc = priv;
	u64 now = now_of(s, oc);

	report(s, oc, now, NOW, "interval");
	reset(oc, now);
	seen_time(oc, now); /* the start, if no record came before */
	oc->nr_reports++;
}

static void oc_snapshot(struct session *s, void *priv)
{
	report(s, priv, now_of(s, priv), NOW, "so_far");
}

static void oc_deinit(struct session *s, void *priv)
{
	struct oncpu *oc = priv;
	struct oc_entry *e, *tmp;

	if (session__started(s) && oc->rs) {
		struct runslice_stats st;

		report(s, oc, now_of(s, oc), RUN, NULL);
		runslice__stats(oc->rs, &st);
		if (session__verbose(s)) /* --json: for people, on stderr */
			fprintf(session__json(s) ? stderr : session__out(s),
				"oncpu: %llu switches seen only as context-switch records, %llu "
				"tasks only from samples, %llu mismatches; %u rows of live "
				"threads, "
				"%u of exited ones\n",
				(unsigned long long)st.by_record, (unsigned long long)st.by_sample,
				(unsigned long long)st.mismatches, oc->nr_entries,
				nr_kept(oc) + oc->kept_threads.n);
	}
	HASH_ITER(hh, oc->entries, e, tmp)
	del_entry(oc, e);
	HASH_FREE_ALL(hh, oc->threads);
	HASH_FREE_ALL(hh, oc->exited);
	for (int i = 0; oc->kept && i < oc->nr_ids; i++)
		keeptop__free(&oc->kept[i], free);
	free(oc->kept);
	oc->kept = NULL;
	keeptop__free(&oc->kept_threads, drop_thread);
	runslice__delete(oc->rs);
	prio_map__delete(oc->prios);
	oc->rs = NULL;
	free(oc->cpu_cols);
	oc->cpu_cols = NULL;
}

static const struct popt oc_opts[] = {
	{ .lname = "top",
	  .argname = "N",
	  .help = "threads shown per CPU (default 10)",
	  POPT_BIND_UINT(struct oncpu, top),
	  POPT_RANGE(1, 0) },
	{ 0 },
};

const struct profiler prof_oncpu = {
	.name = "oncpu",
	.needs = (const char *const[]){ "tp:sched:sched_switch", "cpu-wide", NULL },
	.desc = "who ran on each CPU and for how long; per thread with -p/-t/--",
	.synopsis = "perf-prof oncpu [-i MS] [--top N] [-C CPUS|-p PID|-t TID|-- command]",
	.examples = "perf-prof oncpu -i 1000            # per CPU: busy time, then comm:tid ms\n"
		    "  perf-prof oncpu -C 2,3 --top 3     # the 3 busiest threads of CPUs 2 and 3\n"
		    "  perf-prof oncpu -p 1234            # per thread of 1234: ms on CPU, on "
		    "which CPUs\n"
		    "Each interval (default 1000 ms) and the whole run at exit; a slice "
		    "running at\nan interval's edge is cut there; the idle task is not busy.",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &ring_group,
						     &output_group, &exclude_tp_group, &prio_group,
						     NULL },
	.own = oc_opts,
	.priv_size = sizeof(struct oncpu),
	.init = oc_init,
	.ops = { .interval = oc_interval,
		 .snapshot = oc_snapshot,
		 .fork = oc_fork,
		 .exit = oc_exit,
		 .context_switch = oc_switch },
	.deinit = oc_deinit,
};
