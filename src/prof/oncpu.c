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

#include "analysis/cpu/bpf_sfilter.h"
#include "analysis/cpu/oncpu_bpf.h"
#include "analysis/cpu/prio.h"
#include "analysis/cpu/runslice.h"
#include "engine/kfilter.h"
#include "engine/procfs.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "util/hash.h"
#include "util/keeptop.h"

#include "prof/oncpu_int.h"

struct oc_entry *oc_find_entry(struct oncpu *oc, u32 cpu, u32 tid)
{
	u64 key = (u64)cpu << 32 | tid;
	struct oc_entry *e;

	HASH_FIND(hh, oc->entries, &key, sizeof(key), e);
	return e;
}

static struct oc_entry *get_entry(struct oncpu *oc, u32 cpu, u32 tid)
{
	struct oc_entry *e = oc_find_entry(oc, cpu, tid);

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

void oc_del_entry(struct oncpu *oc, struct oc_entry *e)
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

/* --filter: whether @comm is one of the threads asked for */
static bool kept_comm(const struct oncpu *oc, const char *comm)
{
	return !oc->filter || kfilter__comm_match(oc->filter, comm);
}

/*
 * --detail: @ns more of @tid's slice on @cpu.  A slice is what runs between
 * two switches: the pieces an interval's edge cuts are one slice; the first
 * piece after a switch begins a new one.
 */
static void slice(struct oncpu *oc, struct oc_entry *e, u32 cpu, u32 tid, u64 ns)
{
	struct oc_run *r = cpu < (u32)oc->nr_ids ? &oc->cur[cpu] : NULL;

	if (!r)
		return;
	if (r->fresh || r->tid != tid) {
		*r = (struct oc_run){ .tid = tid };
		e->sws[NOW]++;
		e->sws[RUN]++;
	}
	r->len += ns;
	for (int k = NOW; k <= RUN; k++)
		if (r->len > e->max[k])
			e->max[k] = r->len;
}

/* A switch on @cpu: the next slice credited there is a new one. */
static void switched(struct oncpu *oc, u32 cpu)
{
	if (oc->cur && cpu < (u32)oc->nr_ids)
		oc->cur[cpu].fresh = true;
}

static void credit(void *arg, u32 cpu, u32 pid, u32 tid, u64 ns)
{
	struct oncpu *oc = arg;
	struct oc_entry *e;

	if (oc->prio && !prio__has(oc->prio, prio_map__get(oc->prios, tid)))
		return;
	if (!kept_comm(oc, session__comm(oc->s, tid)))
		return;
	e = get_entry(oc, cpu, tid);
	if (!e || (oc->per_thread && !get_thread(oc, tid, pid))) {
		oc->not_kept += ns;
		return;
	}
	e->ns[NOW] += ns;
	e->ns[RUN] += ns;
	if (oc->cur)
		slice(oc, e, cpu, tid, ns);
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
	int max_cpu = 0, ret;

	oc->s = s;
	oc->prio = opt_set__get(opts, &prio_group);
	if (oc->prio && !oc->prio->set)
		oc->prio = NULL;
	if (oc->prio && !(oc->prios = prio_map__new()))
		return session__set_err(s, -ENOMEM, "out of memory");
	if (oc->filter && !kfilter__globs_ok(oc->filter))
		return session__usage_err(
			s,
			"bad --filter '%s': expected COMM[,COMM...] globs such as "
			"'nginx*,php-fpm'",
			oc->filter);
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
	if (oc->detail) {
		/* the kernel sums time only: the switches and each slice are seen here */
		const struct sfilter_opts *sf = opt_set__get(opts, &sfilter_group);

		if (sf && (sf->irqs_given || sf->tif_given || sf->pid_given || sf->min_given ||
			   sf->max_given || sf->policy_given))
			return session__usage_err(s,
						  "oncpu --detail: not with %s (it filters "
						  "in the kernel, --detail counts in user space)",
						  sfilter__first(sf));
		if (bpf_back__fallback(s, opts,
				       "oncpu --detail: switches and the longest slice are "
				       "counted in user space (the ring path)"))
			return -EINVAL;
		oc->cur = calloc(oc->nr_ids, sizeof(*oc->cur));
		if (!oc->cur)
			return session__set_err(s, -ENOMEM, "out of memory");
		ret = 0;
	} else {
		ret = oc_bpf__try(s, opts, oc->prio, &oc->bpf);
	}
	if (ret < 0)
		return ret;
	if (ret)
		goto seed;
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
seed:
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
	if (oc->rs && (!oc->start || (time < oc->start && !oc->nr_reports)) &&
	    runslice__start(oc->rs, time))
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
	switched(oc, smp->cpu);
}

static void oc_switch(struct session *s, void *priv, const struct rec_switch *sw)
{
	struct oncpu *oc = priv;

	(void)s;
	seen_time(oc, sw->time);
	runslice__record(oc->rs, sw);
	switched(oc, sw->cpu);
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

/* Thread @tid of process @pid exited (@comm its name, or "<...>"). */
static void exited(struct oncpu *oc, u32 tid, u32 pid, const char *comm)
{
	struct oc_exited *x = find_exited(oc, tid);
	struct oc_thread *th;

	if (!x && (x = calloc(1, sizeof(*x)))) {
		x->tid = tid;
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
	th = get_thread(oc, tid, pid);
	if (th)
		th->exited = true;
}

static void oc_exit(struct session *s, void *priv, const struct rec_task *t)
{
	exited(priv, t->tid, t->pid, session__comm(s, t->tid));
}

/* BPF: a thread's time since the last read, per CPU; @gone: as an exit record. */
static void bpf_credit(void *arg, u32 tid, u32 tgid, const char *comm, const u64 *ns, int ncpu,
		       bool gone)
{
	struct oncpu *oc = arg;

	/* (the comm at its latest slice: its slices under another name go with it) */
	if (!kept_comm(oc, comm[0] ? comm : session__comm(oc->s, tid))) {
		if (gone && !find_exited(oc, tid))
			exited(oc, tid, tgid, comm);
		return;
	}
	for (int c = 0; c < ncpu; c++) {
		struct oc_entry *e = ns[c] ? get_entry(oc, (u32)c, tid) : NULL;
		struct oc_thread *t = e && oc->per_thread ? get_thread(oc, tid, tgid) : NULL;

		if (ns[c] && (!e || (oc->per_thread && !t)))
			oc->not_kept += ns[c];
		if (!e || (oc->per_thread && !t))
			continue;
		if (t) /* (the kernel tested the target; its comm is the latest) */
			t->target = true;
		if (t && comm[0])
			snprintf(t->comm, sizeof(t->comm), "%s", comm);
		if (comm[0])
			snprintf(e->comm, sizeof(e->comm), "%s", comm);
		e->ns[NOW] += ns[c];
		e->ns[RUN] += ns[c];
	}
	if (gone && !find_exited(oc, tid))
		exited(oc, tid, tgid, comm);
}

/* BPF: the slices cut, what the threads gained added (@interval: an interval's edge). */
static void bpf_fill(struct session *s, struct oncpu *oc, bool interval)
{
	int err = oc->bpf ? oc_bpf__read(oc->bpf, interval, bpf_credit, oc) : 0;

	if (oc->bpf && !oc->start) /* the run: from the enable (its first switches') */
		oc->start = oc->edge = session__enabled_time(s);
	if (err && !oc->bpf_err) {
		oc->bpf_err = err;
		session__warn(s, "oncpu: reading the BPF maps: %s", strerror(-err));
	}
}

/* BPF: the slices start on every CPU that has not switched since the start. */
static int oc_started(struct session *s, void *priv)
{
	struct oncpu *oc = priv;
	int err;

	if (!oc->bpf)
		return 0;
	err = oc_bpf__cut(oc->bpf, true);
	if (err)
		return session__set_err(s, err, "oncpu: starting the BPF slices: %s",
					strerror(-err));
	return 0;
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
	e->ns[NOW] = e->sws[NOW] = e->max[NOW] = 0;
	if (x->comm[0])
		snprintf(e->comm, sizeof(e->comm), "%s", x->comm);
	/* its slices read after it was retired the interval before */
	for (unsigned i = 0; i < g->n; i++) {
		struct oc_entry *k = g->v[i];

		if (k->tid == e->tid) {
			k->ns[RUN] += e->ns[RUN];
			k->sws[RUN] += e->sws[RUN];
			if (e->max[RUN] > k->max[RUN])
				k->max[RUN] = e->max[RUN];
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
		struct oc_entry *e = oc_find_entry(oc, (u32)oc->cpus[c], t->tid);

		if (!e)
			continue;
		t->run += e->ns[RUN];
		t->sws += e->sws[RUN];
		if (e->max[RUN] > t->max)
			t->max = e->max[RUN];
		if (t->cpu_ns)
			t->cpu_ns[c] = e->ns[RUN];
		oc_del_entry(oc, e);
	}
	if (x && x->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", x->comm);
	for (unsigned i = 0; t->cpu_ns && i < g->n; i++) {
		struct oc_thread *k = g->v[i];

		if (k->tid != t->tid)
			continue;
		k->run += t->run;
		k->sws += t->sws;
		if (t->max > k->max)
			k->max = t->max;
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

/* Whether @g (kept rows of exited threads or entries) holds one of @tid. */
static bool kept_has(const struct keeptop *g, u32 tid, bool threads)
{
	for (unsigned i = 0; i < g->n; i++)
		if ((threads ? ((const struct oc_thread *)g->v[i])->tid
			     : ((const struct oc_entry *)g->v[i])->tid) == tid)
			return true;
	return false;
}

/*
 * Threads that exited leave the live tables (those that never ran go): at
 * each interval's end all of them; before the whole run's report (@late)
 * only those retired before, whose late slice (read after their
 * retirement) joins their row rather than making a second one.
 */
static void retire_exited(struct oncpu *oc, bool late)
{
	struct oc_entry *e, *tmp;
	struct oc_thread *t, *tt;
	struct oc_exited *x;

	HASH_ITER(hh, oc->entries, e, tmp)
	{
		if (oc->per_thread || e->tid == OC_OTHER || !(x = find_exited(oc, e->tid)))
			continue;
		if (!late || kept_has(&oc->kept[e->cpu], e->tid, false))
			retire_entry(oc, e, x);
	}
	HASH_ITER(hh, oc->threads, t, tt)
	{
		if (!t->exited ||
		    (late && (!t->target || !kept_has(&oc->kept_threads, t->tid, true))))
			continue;
		if (oc_thread_ns(oc, t->tid, RUN)) {
			retire_thread(oc, t);
		} else {
			HASH_DEL(oc->threads, t);
			free(t);
		}
	}
}

/*
 * A new interval: its sums from 0; threads that exited leave the live
 * tables, and are forgotten as exited one interval later.
 */
static void reset(struct oncpu *oc, u64 now)
{
	struct oc_entry *e, *tmp;
	struct oc_exited *x, *xx;

	HASH_ITER(hh, oc->entries, e, tmp)
	e->ns[NOW] = e->sws[NOW] = e->max[NOW] = 0;
	retire_exited(oc, false);
	HASH_ITER(hh, oc->exited, x, xx)
	if (x->iv < oc->nr_reports) {
		/* its last slices are in: --prio forgets its priority too (flat memory) */
		if (oc->prios)
			prio_map__forget(oc->prios, x->tid);
		if (oc->bpf) /* and the kernel its sums */
			oc_bpf__forget(oc->bpf, x->tid);
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
	u64 now;

	bpf_fill(s, oc, true);
	now = now_of(s, oc);
	oncpu__report(s, oc, now, NOW, "interval");
	reset(oc, now);
	seen_time(oc, now); /* the start, if no record came before */
	oc->nr_reports++;
}

static void oc_snapshot(struct session *s, void *priv)
{
	bpf_fill(s, priv, false);
	oncpu__report(s, priv, now_of(s, priv), NOW, "so_far");
}

static void oc_deinit(struct session *s, void *priv)
{
	struct oncpu *oc = priv;
	struct oc_entry *e, *tmp;

	if (session__started(s) && (oc->rs || oc->bpf)) {
		struct runslice_stats st = { 0 };
		FILE *v = session__json(s) ? stderr : session__out(s); /* -v: for people */
		u64 end;

		bpf_fill(s, oc, false);
		end = now_of(s, oc);
		/* (BPF: the slices end at the disable, the last cut's time) */
		if (oc->bpf && oc_bpf__stopped(oc->bpf) > oc->last)
			end = oc_bpf__stopped(oc->bpf);
		retire_exited(oc, true);
		oncpu__report(s, oc, end, RUN, NULL);
		if (oc->rs)
			runslice__stats(oc->rs, &st);
		if (oc->rs && session__verbose(s))
			fprintf(v,
				"oncpu: %llu switches seen only as context-switch records, %llu "
				"tasks only from samples, %llu mismatches; ",
				(unsigned long long)st.by_record, (unsigned long long)st.by_sample,
				(unsigned long long)st.mismatches);
		if (session__verbose(s))
			fprintf(v, "%s%u rows of live threads, %u of exited ones\n",
				oc->rs ? "" : "oncpu: ", oc->nr_entries,
				oc_nr_kept(oc) + oc->kept_threads.n);
	}
	HASH_ITER(hh, oc->entries, e, tmp)
	oc_del_entry(oc, e);
	HASH_FREE_ALL(hh, oc->threads);
	HASH_FREE_ALL(hh, oc->exited);
	for (int i = 0; oc->kept && i < oc->nr_ids; i++)
		keeptop__free(&oc->kept[i], free);
	free(oc->kept);
	oc->kept = NULL;
	keeptop__free(&oc->kept_threads, drop_thread);
	runslice__delete(oc->rs);
	oc_bpf__delete(oc->bpf);
	oc->bpf = NULL;
	prio_map__delete(oc->prios);
	free(oc->cur);
	oc->cur = NULL;
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
	{ .lname = "filter",
	  .argname = "COMM,...",
	  .help = "only threads whose comm matches one of these globs (nginx*,php-fpm)",
	  POPT_BIND_STR(struct oncpu, filter) },
	{ .lname = "only-comm",
	  .help = "rows by comm: a name's threads summed, no tid",
	  POPT_BIND_FLAG(struct oncpu, only_comm) },
	{ .lname = "detail",
	  .help = "also the slices begun (SWS) and the longest (MAX_MS), per thread and CPU",
	  POPT_BIND_FLAG(struct oncpu, detail) },
	{ 0 },
};

const struct profiler prof_oncpu = {
	.name = "oncpu",
	.needs = (const char *const[]){ "tp:sched:sched_switch", "cpu-wide", NULL },
	.desc = "who ran on each CPU and for how long; per thread with -p/-t/--",
	.synopsis = "perf-prof oncpu [-i MS] [--top N] [--filter COMM,...] [--only-comm] "
		    "[--detail] [-C CPUS|-p PID|-t TID|-- command]",
	.examples = "perf-prof oncpu -i 1000            # per CPU: busy time, then comm:tid ms\n"
		    "  perf-prof oncpu -C 2,3 --top 3     # the 3 busiest threads of CPUs 2 and 3\n"
		    "  perf-prof oncpu -p 1234            # per thread of 1234: ms on CPU, on "
		    "which CPUs\n"
		    "  perf-prof oncpu --sched_policy 1   # only SCHED_FIFO threads' time (BPF)\n"
		    "  perf-prof oncpu --only-comm --detail  # by name: ms, slices, the longest\n"
		    "Each interval (default 1000 ms) and the whole run at exit; a slice "
		    "running at\nan interval's edge is cut there; the idle task is not busy.",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &ring_group,
						     &output_group, &exclude_tp_group, &prio_group,
						     &sfilter_group, &bpf_group, NULL },
	.own = oc_opts,
	.bpf_results = true,
	.priv_size = sizeof(struct oncpu),
	.init = oc_init,
	.ops = { .interval = oc_interval,
		 .snapshot = oc_snapshot,
		 .started = oc_started,
		 .fork = oc_fork,
		 .exit = oc_exit,
		 .context_switch = oc_switch },
	.deinit = oc_deinit,
};
