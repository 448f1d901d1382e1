// SPDX-License-Identifier: GPL-2.0
/*
 * sched-migrate: task migrations between CPUs (sched:sched_migrate_task).
 * Counted per interval: how far each migration went (within an L2, an LLC,
 * a NUMA node, or across nodes: analysis/cpu/cputopo.h), per task and per
 * (orig_cpu -> dest_cpu) pair; with -g, why, named from the stack of the
 * code that moved it (a wakeup's placement, the load balancer, an affinity
 * change, the stopper thread, NUMA balancing, CPU hotplug): the stopper's
 * stack hides who asked, so a NUMA move of one task is told by the
 * sched:sched_move_numa event just before it (same task, same CPUs).
 * --detail prints each migration: the task, its priority, the CPUs, and
 * the context that moved it (the waker, migration/N, the balancing CPU).
 *
 * The event fires in the mover's context, not the task's: it is opened on
 * every CPU and -p/-t/-- keep the migrations of those tasks by the event's
 * pid field.  --filter takes comm globs of the task moved (the kernel's
 * filter reads the event's comm field), or, as the original's, a filter
 * over the event's fields ("prio<100 && dest_cpu==3").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cpu/cputopo.h"
#include "analysis/cpu/migreason.h"
#include "analysis/cpu/prio.h"
#include "engine/kfilter.h"
#include "engine/procfs.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stack_flame.h"
#include "report/stats_table.h"
#include "sym/stack.h"
#include "util/hash.h"

#define MIG_MAX_FRAMES 64
#define MIG_MAX_TGIDS 65536
#define MIG_MAX_TASKS 65536 /* rows of the task table; more counted, not listed */
#define MIG_MAX_NUMA 4096   /* NUMA moves announced, not yet seen */

struct mig_task {
	u32 tid;
	char comm[16];
	u64 n, far, remote; /* migrations; of them out of the LLC, to another node */
	UT_hash_handle hh;
};

struct mig_pair {
	u64 key; /* orig << 32 | dest */
	u64 n;
	UT_hash_handle hh;
};

struct mig_tgid {
	u32 tid, tgid;
	UT_hash_handle hh;
};

/* sched_move_numa: the task's next migration is this NUMA move (by the stopper) */
struct mig_numa {
	u32 tid;
	int src, dst;
	UT_hash_handle hh;
};

struct sched_migrate {
	const char *filter; /* --filter: comm globs or a filter expression */
	bool detail;
	struct evsel *ev, *numa_ev;
	struct field comm, pid, prio, orig, dest;
	struct field n_pid, n_src, n_dst; /* sched_move_numa's */
	struct cpu_topo *topo;
	struct stack_flame *flame;
	char *kfilter;
	bool reasons;  /* -g: the reason from the stack */
	bool targeted; /* -p, -t or a command: match the task moved */
	/* the interval's counts (the run's without -i) */
	struct mig_task *tasks;
	struct mig_pair *pairs;
	u64 total, dist[CPU_DIST_NR], reason[MR_NR];
	bool oom;
	unsigned nr_tasks;
	u64 untabled; /* migrations of tasks beyond MIG_MAX_TASKS rows */
	u64 since;
	struct mig_tgid *tgids; /* -p: the targets' threads -> process (FORK, /proc) */
	unsigned nr_tgids;
	struct mig_numa *numa; /* -g: NUMA moves announced */
	unsigned nr_numa;
};

/* An expression rather than comm globs: it compares something. */
static bool is_expression(const char *f)
{
	return strpbrk(f, "=<>~!&|() \t") != NULL;
}

static int sm_filter(struct session *s, struct sched_migrate *m, const struct prio_opts *prio)
{
	char *mine = NULL, *p;

	if (m->filter && is_expression(m->filter)) {
		/* in parentheses beside --prio's clause: "a || b" stays one */
		if (prio && prio->set ? asprintf(&mine, "(%s)", m->filter) < 0
				      : !(mine = strdup(m->filter)))
			mine = NULL;
	} else if (m->filter) {
		if (!kfilter__globs_ok(m->filter))
			return session__usage_err(s,
						  "bad --filter '%s': expected COMM[,COMM...] "
						  "globs such as 'nginx*,php-fpm', or a filter "
						  "such as 'prio<100'",
						  m->filter);
		mine = kfilter__comm_globs("comm", m->filter);
	} else {
		mine = strdup("");
	}
	if (!mine || !(p = prio__filter(prio, "prio"))) {
		free(mine);
		return session__set_err(s, -ENOMEM, "out of memory");
	}
	if (*mine || *p) {
		m->kfilter = *mine && *p ? kfilter__and(mine, p) : strdup(*mine ? mine : p);
		if (!m->kfilter) {
			free(mine);
			free(p);
			return session__set_err(s, -ENOMEM, "out of memory");
		}
	}
	free(mine);
	free(p);
	return 0;
}

static void sm_move_numa(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int sm_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	const struct target_opts *t = session__conf(s)->target;
	struct sched_migrate *m = priv;
	struct evsel_conf c = { 0 };
	int err;

	/* a cgroup's events fire for the tasks running in it: here the movers */
	if (t->cgroups)
		return session__usage_err(s, "--cgroups: the event fires in the context of the "
					     "task that moves another (migration/N, a waker), "
					     "not of the task moved; use -p or --filter");
	c.callchain = st && st->capture.cg != CG_NONE;
	m->reasons = c.callchain;
	m->targeted = t->nr_pids || t->nr_tids || t->argv;
	/* the mover runs anywhere: a migration of a target is seen on every CPU */
	session__want_cpu_wide(s);
	/* a thread's FORK record before its migrations; --detail's lines in order */
	if (m->detail || m->targeted)
		session__want_order(s);
	if (sm_filter(s, m, opt_set__get(opts, &prio_group)))
		return -1;
	c.filter = m->kfilter;
	m->ev = session__add_tp(s, "sched", "sched_migrate_task", &c);
	if (!m->ev)
		return -ENOENT;
	if (evsel__field(m->ev, "comm", &m->comm) || evsel__field(m->ev, "pid", &m->pid) ||
	    evsel__field(m->ev, "prio", &m->prio) || evsel__field(m->ev, "orig_cpu", &m->orig) ||
	    evsel__field(m->ev, "dest_cpu", &m->dest))
		return session__set_err(s, -EINVAL,
					"sched:sched_migrate_task lacks a field it needs "
					"(comm, pid, prio, orig_cpu, dest_cpu)");
	/* -g: a NUMA move of one task is announced before the stopper makes it */
	if (m->reasons && session__has_tp(s, "sched", "sched_move_numa")) {
		m->numa_ev =
			session__add_tp(s, "sched", "sched_move_numa", &(struct evsel_conf){ 0 });
		if (!m->numa_ev)
			return -1;
		if (evsel__field(m->numa_ev, "pid", &m->n_pid) ||
		    evsel__field(m->numa_ev, "src_cpu", &m->n_src) ||
		    evsel__field(m->numa_ev, "dst_cpu", &m->n_dst))
			return session__set_err(s, -EINVAL,
						"sched:sched_move_numa lacks a field it needs "
						"(pid, src_cpu, dst_cpu)");
		evsel__set_handler(m->numa_ev, sm_move_numa, m);
		session__want_order(s);
	}
	if ((err = cpu_topo__load(NULL, &m->topo)))
		return session__set_err(s, err, "reading the CPU topology: %s", strerror(-err));
	return stack_flame__open(
		s, opt_set__get(opts, &flame_group),
		&(struct flame_kind){ .title = "Migration Flame Graph", .count = "migrations" },
		&m->flame);
}

/* Thread @tid of a target is in process @tgid (a FORK record, or /proc). */
static void tgid_set(struct sched_migrate *m, u32 tid, u32 tgid)
{
	struct mig_tgid *e;

	HASH_FIND(hh, m->tgids, &tid, sizeof(tid), e);
	if (e) { /* a pid used again (its EXIT record lost) */
		e->tgid = tgid;
		return;
	}
	/* the targets' live threads (EXIT records remove them): a bound never met */
	if (m->nr_tgids >= MIG_MAX_TGIDS)
		return;
	if ((e = calloc(1, sizeof(*e)))) {
		e->tid = tid;
		e->tgid = tgid;
		HASH_ADD(hh, m->tgids, tid, sizeof(e->tid), e);
		m->nr_tgids++;
	}
}

/*
 * The process of thread @tid, for -p: the table holds every thread of the
 * targets (those of the start from /proc, later ones from their FORK
 * records, in time order before their migrations; an entry leaves at the
 * thread's EXIT record, after them), so a thread not in it is no target's
 * but maybe a target itself (-t, a command's main thread): @tid.
 */
static u32 tgid_of(struct sched_migrate *m, u32 tid)
{
	struct mig_tgid *e;

	HASH_FIND(hh, m->tgids, &tid, sizeof(tid), e);
	return e ? e->tgid : tid;
}

/*
 * -p: the threads the processes have now, their events on (a thread that
 * comes later has a FORK record); a thread may exit before its migrations
 * are read, and /proc forgets it.
 */
static int sm_started(struct session *s, void *priv)
{
	const struct target_opts *t = session__conf(s)->target;
	struct sched_migrate *m = priv;

	for (int i = 0; i < t->nr_pids; i++) {
		pid_t *tids;
		int n = procfs__threads(t->pids[i], &tids);

		for (int j = 0; j < n; j++)
			tgid_set(m, (u32)tids[j], (u32)t->pids[i]);
		free(tids);
	}
	return 0;
}

static void sm_fork(struct session *s, void *priv, const struct rec_task *t)
{
	struct sched_migrate *m = priv;
	struct mig_tgid *e;

	if (!m->targeted)
		return;
	if (session__is_target(s, t->pid, t->tid)) {
		tgid_set(m, t->tid, t->pid);
	} else { /* a pid of a target's thread used again by another process */
		HASH_FIND(hh, m->tgids, &t->tid, sizeof(t->tid), e);
		if (e) {
			HASH_DEL(m->tgids, e);
			free(e);
			m->nr_tgids--;
		}
	}
}

/* A thread's end: its migrations were all before (time order). */
static void sm_exit(struct session *s, void *priv, const struct rec_task *t)
{
	struct sched_migrate *m = priv;
	struct mig_tgid *e;
	struct mig_numa *n;

	(void)s;
	HASH_FIND(hh, m->tgids, &t->tid, sizeof(t->tid), e);
	if (e) {
		HASH_DEL(m->tgids, e);
		free(e);
		m->nr_tgids--;
	}
	HASH_FIND(hh, m->numa, &t->tid, sizeof(t->tid), n);
	if (n) {
		HASH_DEL(m->numa, n);
		free(n);
		m->nr_numa--;
	}
}

/* sched_move_numa: the task's next migration, from src_cpu to dst_cpu, is NUMA's. */
static void sm_move_numa(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct sched_migrate *m = priv;
	u64 pid = 0, src = 0, dst = 0;
	struct mig_numa *n;
	u32 tid;

	(void)s;
	(void)ev;
	if (field__u64(&m->n_pid, smp, &pid) || field__u64(&m->n_src, smp, &src) ||
	    field__u64(&m->n_dst, smp, &dst))
		return;
	tid = (u32)pid;
	HASH_FIND(hh, m->numa, &tid, sizeof(tid), n);
	if (!n && m->nr_numa >= MIG_MAX_NUMA) { /* of tasks --filter left out: start again */
		HASH_FREE_ALL(hh, m->numa);
		m->nr_numa = 0;
	}
	if (!n && (n = calloc(1, sizeof(*n)))) {
		n->tid = tid;
		HASH_ADD(hh, m->numa, tid, sizeof(n->tid), n);
		m->nr_numa++;
	}
	if (n) {
		n->src = (int)src;
		n->dst = (int)dst;
	}
}

/*
 * Whether this migration of @tid is the NUMA move announced for it; the
 * announcement is used up by the task's next migration either way (the
 * stopper finds the task gone from src_cpu: no move).
 */
static bool numa_move(struct sched_migrate *m, u32 tid, int orig, int dest)
{
	struct mig_numa *n;
	bool yes;

	HASH_FIND(hh, m->numa, &tid, sizeof(tid), n);
	if (!n)
		return false;
	yes = n->src == orig && n->dst == dest;
	HASH_DEL(m->numa, n);
	free(n);
	m->nr_numa--;
	return yes;
}

/* The reason the mover's stack tells (MR_OTHER when none does). */
static enum mig_reason reason_of(struct session *s, const struct sample *smp)
{
	struct stack_ctx *ctx = session__stack(s);
	struct frame fr[MIG_MAX_FRAMES];
	int n = ctx ? stack__frames(ctx, smp, fr, MIG_MAX_FRAMES) : 0;

	return mig_reason__of_frames(fr, n);
}

static void count(struct sched_migrate *m, u32 tid, const char *comm, int len, int orig, int dest,
		  enum cpu_dist d, enum mig_reason r)
{
	u64 key = (u64)(u32)orig << 32 | (u32)dest;
	struct mig_task *t;
	struct mig_pair *p;

	m->total++;
	m->dist[d]++;
	if (m->reasons)
		m->reason[r]++;
	HASH_FIND(hh, m->tasks, &tid, sizeof(tid), t);
	if (!t && m->nr_tasks >= MIG_MAX_TASKS) {
		m->untabled++;
	} else if (!t && (t = calloc(1, sizeof(*t)))) {
		t->tid = tid;
		HASH_ADD(hh, m->tasks, tid, sizeof(t->tid), t);
		m->nr_tasks++;
	} else if (!t) {
		m->oom = true;
	}
	if (t) {
		snprintf(t->comm, sizeof(t->comm), "%.*s", len, comm);
		t->n++;
		t->far += d >= CPU_DIST_NODE && d != CPU_DIST_UNKNOWN;
		t->remote += d == CPU_DIST_REMOTE;
	}
	HASH_FIND(hh, m->pairs, &key, sizeof(key), p);
	if (!p && (p = calloc(1, sizeof(*p)))) {
		p->key = key;
		HASH_ADD(hh, m->pairs, key, sizeof(p->key), p);
	}
	if (p)
		p->n++;
	if (!p)
		m->oom = true;
}

/* A migration: the mover's head, then the task, its CPUs and the reason. */
static const struct rt_col mig_cols[] = {
	{ .type = RT_ROW, .flags = RT_NO_JSON },
	{ .type = RT_ROW, .flags = RT_NO_TEXT },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	{ .name = "task_comm", .type = RT_STR, .flags = RT_NO_TEXT },
	{ .name = "task_pid", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "prio", .type = RT_S64, .flags = RT_NO_TEXT },
	{ .name = "orig_cpu", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "dest_cpu", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "distance", .type = RT_STR, .flags = RT_NO_TEXT },
	{ .name = "reason", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	EVL_STACK_COL,
};
static const struct rt_desc mig_desc = { .type = "event", .cols = mig_cols, .ncols = 11 };

static void print_one(struct session *s, struct sched_migrate *m, FILE *out, struct evsel *ev,
		      struct sample *smp, const char *comm, u64 pid, s64 prio, int orig, int dest,
		      enum cpu_dist d, enum mig_reason r)
{
	struct rt_val v[EVL_NCOLS], tv[EVL_NCOLS];
	const char *why = m->reasons ? mig_reason__name(r) : NULL;
	struct rt_stack stk;
	char text[160];

	evline__row(v, &stk, s, NULL, smp, session__comm_at(s, smp->tid, smp->time), ev->name);
	memcpy(tv, v, sizeof(v));
	tv[EVL_EVENT].s = "migrate";
	snprintf(text, sizeof(text), "%s %llu prio %lld: CPU %d -> %d (%s)%s%s", comm,
		 (unsigned long long)pid, (long long)prio, orig, dest, cpu_dist__name(d),
		 why ? " " : "", why ? why : "");
	evline__emit(s, out, &mig_desc,
		     (struct rt_val[]){ { .row = { &evline_head, tv } },
					{ .row = { &evline_head, v } },
					{ .s = text },
					{ .s = comm },
					{ .u = pid },
					{ .i = prio },
					{ .u = (u64)orig },
					{ .u = (u64)dest },
					{ .s = cpu_dist__name(d) },
					{ .s = why },
					v[EVL_STACK] });
}

static void sm_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct sched_migrate *m = priv;
	u64 pid = 0, prio = 0, orig = 0, dest = 0;
	enum mig_reason r = MR_OTHER;
	bool numa;
	const char *comm;
	char cbuf[16];
	enum cpu_dist d;
	FILE *out;
	int len = 0;

	if (ev != m->ev) /* sched_move_numa: its handler's */
		return;
	field__u64(&m->pid, smp, &pid);
	field__u64(&m->orig, smp, &orig);
	field__u64(&m->dest, smp, &dest);
	/* the announcement used up by any task's migration, a target's or not */
	numa = m->numa && numa_move(m, (u32)pid, (int)orig, (int)dest);
	if (m->targeted && !session__is_target(s, tgid_of(m, (u32)pid), (u32)pid))
		return;
	field__u64(&m->prio, smp, &prio);
	comm = field__str(&m->comm, smp, &len);
	snprintf(cbuf, sizeof(cbuf), "%.*s", comm ? len : 0, comm ? comm : "");
	d = cpu_topo__dist(m->topo, (int)orig, (int)dest);
	if (m->reasons)
		r = numa ? MR_NUMA : reason_of(s, smp);
	count(m, (u32)pid, cbuf, (int)strlen(cbuf), (int)orig, (int)dest, d, r);
	if (m->flame)
		stack_flame__add(m->flame, s, smp, cbuf, NULL, 1, 0);
	if (m->detail && (out = session__event_out(s, priv)))
		print_one(s, m, out, ev, smp, cbuf, pid, (s64)(int)prio, (int)orig, (int)dest, d,
			  r);
}

/* The interval's migrations by distance (cumulative, as the original's "same LLC"). */
static const struct rt_col sum_cols[] = {
	{ .type = RT_STR, .flags = RT_NO_JSON },
	{ .name = "migrations", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "same_l2", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "same_llc", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "same_node", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "cross_node", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "nodes", .type = RT_U64, .flags = RT_NO_TEXT },
};
static const struct rt_desc sum_desc = { .type = "summary", .cols = sum_cols, .ncols = 7 };

/* CROSS_NODE in text only where there are nodes to cross (task_cols_1: one node) */
static const struct rt_col task_cols[] = {
	RT_COL("tid", "TID", RT_U64, RT_UNIT_NONE, 7, 0),
	RT_COL("comm", "COMM", RT_STR, RT_UNIT_NONE, 16, RT_LEFT),
	RT_COL("migrations", "MIGRATIONS", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("out_of_llc", "OUT_OF_LLC", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("cross_node", "CROSS_NODE", RT_U64, RT_UNIT_COUNT, 10, 0),
};
static const struct rt_col task_cols_1[] = {
	RT_COL("tid", "TID", RT_U64, RT_UNIT_NONE, 7, 0),
	RT_COL("comm", "COMM", RT_STR, RT_UNIT_NONE, 16, RT_LEFT),
	RT_COL("migrations", "MIGRATIONS", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("out_of_llc", "OUT_OF_LLC", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("cross_node", "CROSS_NODE", RT_U64, RT_UNIT_COUNT, 10, RT_NO_TEXT),
};
static const struct rt_desc task_desc = { .type = "task", .cols = task_cols, .ncols = 5 };
static const struct rt_desc task_desc_1 = { .type = "task", .cols = task_cols_1, .ncols = 5 };

static const struct rt_col pair_cols[] = {
	RT_COL("orig_cpu", "FROM", RT_U64, RT_UNIT_NONE, 5, 0),
	RT_COL("dest_cpu", "TO", RT_U64, RT_UNIT_NONE, 5, 0),
	RT_COL("migrations", "MIGRATIONS", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("distance", "DISTANCE", RT_STR, RT_UNIT_NONE, 8, RT_LEFT | RT_GAP),
};
static const struct rt_desc pair_desc = { .type = "pair", .cols = pair_cols, .ncols = 4 };

static const struct rt_col reason_cols[] = {
	RT_COL("reason", "REASON", RT_STR, RT_UNIT_NONE, 8, RT_LEFT),
	RT_COL("migrations", "MIGRATIONS", RT_U64, RT_UNIT_COUNT, 10, 0),
};
static const struct rt_desc reason_desc = { .type = "reason", .cols = reason_cols, .ncols = 2 };

static int task_cmp(struct mig_task *a, struct mig_task *b)
{
	return a->n != b->n ? (a->n < b->n ? 1 : -1) : (a->tid > b->tid) - (a->tid < b->tid);
}

static int pair_cmp(struct mig_pair *a, struct mig_pair *b)
{
	return a->n != b->n ? (a->n < b->n ? 1 : -1) : (a->key > b->key) - (a->key < b->key);
}

static void pct(char *buf, size_t len, const char *what, u64 n, u64 total)
{
	snprintf(buf, len, ", %s %llu (%.1f%%)", what, (unsigned long long)n,
		 total ? 100.0 * (double)n / (double)total : 0.0);
}

static void print_summary(struct sched_migrate *m, struct rt_sink *k)
{
	u64 l2 = m->dist[CPU_DIST_SAME] + m->dist[CPU_DIST_L2], llc = l2 + m->dist[CPU_DIST_LLC];
	u64 node = llc + m->dist[CPU_DIST_NODE];
	int nodes = cpu_topo__nr_nodes(m->topo);
	char text[256], part[64];

	snprintf(text, sizeof(text), "migrations %llu", (unsigned long long)m->total);
	pct(part, sizeof(part), "same L2", l2, m->total);
	strcat(text, part);
	pct(part, sizeof(part), "same LLC", llc, m->total);
	strcat(text, part);
	if (nodes > 1) {
		pct(part, sizeof(part), "cross-node", m->dist[CPU_DIST_REMOTE], m->total);
		strcat(text, part);
	}
	rtable__one(k, &sum_desc,
		    (struct rt_val[]){ { .s = text },
				       { .u = m->total },
				       { .u = l2 },
				       { .u = llc },
				       { .u = node },
				       { .u = m->dist[CPU_DIST_REMOTE] },
				       { .u = (u64)nodes } });
}

static void report(struct session *s, struct sched_migrate *m, int when)
{
	FILE *out = session__out(s);
	bool json = session__json(s);
	struct stats_stamp st;
	union rt_sinks u;
	struct rt_sink *k = stats_stamp__sink(s, &u, &st, &m->since, when);

	print_summary(m, k);
	if (m->tasks) {
		HASH_SORT(m->tasks, task_cmp);
		if (!json)
			fputc('\n', out);
		k = json ? rt_json__init(&u.json, out, &st) : rt_text__init(&u.text, out);
		rtable__begin(k, cpu_topo__nr_nodes(m->topo) > 1 ? &task_desc : &task_desc_1);
		for (struct mig_task *t = m->tasks; t; t = t->hh.next)
			rtable__row(k, (struct rt_val[]){ { .u = t->tid },
							  { .s = t->comm },
							  { .u = t->n },
							  { .u = t->far },
							  { .u = t->remote } });
		rtable__end(k);
	}
	if (m->pairs) {
		HASH_SORT(m->pairs, pair_cmp);
		if (!json)
			fputc('\n', out);
		k = json ? rt_json__init(&u.json, out, &st) : rt_text__init(&u.text, out);
		rtable__begin(k, &pair_desc);
		for (struct mig_pair *p = m->pairs; p; p = p->hh.next) {
			int o = (int)(p->key >> 32), d = (int)(u32)p->key;

			rtable__row(k, (struct rt_val[]){ { .u = (u64)o },
							  { .u = (u64)d },
							  { .u = p->n },
							  { .s = cpu_dist__name(cpu_topo__dist(
								    m->topo, o, d)) } });
		}
		rtable__end(k);
	}
	if (m->reasons && m->total) {
		if (!json)
			fputc('\n', out);
		k = json ? rt_json__init(&u.json, out, &st) : rt_text__init(&u.text, out);
		rtable__begin(k, &reason_desc);
		for (int r = 0; r < MR_NR; r++)
			if (m->reason[r])
				rtable__row(k, (struct rt_val[]){ { .s = mig_reason__name(r) },
								  { .u = m->reason[r] } });
		rtable__end(k);
	}
	if (m->untabled)
		stats_note(
			s, "sched-migrate",
			"%llu migrations of tasks beyond the table's %d rows not listed per task",
			(unsigned long long)m->untabled, MIG_MAX_TASKS);
	if (m->oom)
		stats_note(s, "sched-migrate", "out of memory: some tasks or pairs not counted");
	fflush(out);
}

static void reset(struct sched_migrate *m)
{
	HASH_FREE_ALL(hh, m->tasks);
	HASH_FREE_ALL(hh, m->pairs);
	m->total = 0;
	memset(m->dist, 0, sizeof(m->dist));
	memset(m->reason, 0, sizeof(m->reason));
	m->oom = false;
	m->nr_tasks = 0;
	m->untabled = 0;
}

static void sm_interval(struct session *s, void *priv)
{
	struct sched_migrate *m = priv;

	report(s, m, STATS_INTERVAL);
	reset(m);
	stack_flame__interval(m->flame, s);
}

static void sm_snapshot(struct session *s, void *priv)
{
	report(s, priv, STATS_SO_FAR);
}

static void sm_deinit(struct session *s, void *priv)
{
	struct sched_migrate *m = priv;

	/* with -i, the last interval's rest: the intervals add up to the run */
	if (session__started(s) && m->ev) {
		report(s, m, STATS_END);
		if (!session__json(s)) /* --json: the CLI writes the lost record */
			session__print_lost(s, session__out(s));
	}
	stack_flame__close(m->flame, s, "sched-migrate");
	reset(m);
	HASH_FREE_ALL(hh, m->tgids);
	HASH_FREE_ALL(hh, m->numa);
	cpu_topo__delete(m->topo);
	free(m->kfilter);
}

static const struct popt sm_opts[] = {
	{ .lname = "detail",
	  .help = "print each migration: the task, its CPUs, who moved it (its stack with -g)",
	  POPT_BIND_FLAG(struct sched_migrate, detail) },
	{ .lname = "filter",
	  .argname = "FILTER",
	  .help = "only tasks whose comm matches one of these COMM[,COMM...] globs, or a filter "
		  "over the event's fields (comm, pid, prio, orig_cpu, dest_cpu)",
	  POPT_BIND_STR(struct sched_migrate, filter) },
	{ 0 },
};

const struct profiler prof_sched_migrate = {
	.name = "sched-migrate",
	.needs = (const char *const[]){ "tp:sched:sched_migrate_task", "cpu-wide", NULL },
	.desc = "task migrations between CPUs: per task, per CPU pair, how far (L2, LLC, "
		"node), why (-g)",
	.synopsis = "perf-prof sched-migrate [--detail] [--filter FILTER] [-g [--flame-graph "
		    "FILE]] [-i MS] [-C CPUS|-p PID|-t TID|-- CMD]",
	.examples =
		"perf-prof sched-migrate -i 1000               # per second: tasks, pairs, "
		"distance\n"
		"  perf-prof sched-migrate --detail -g -p 1234    # each move of 1234, and why\n"
		"  perf-prof sched-migrate --filter 'nginx*' -g -i 10000\n"
		"  perf-prof sched-migrate --filter 'prio<100' --detail   # real-time tasks\n"
		"  perf-prof sched-migrate -g --flame-graph migrate.svg",
	.groups = (const struct opt_group *const[]){ &target_group, &ring_group, &run_group,
						     &output_group, &stack_group, &flame_group,
						     &prio_group, &exclude_tp_group, NULL },
	.own = sm_opts,
	.priv_size = sizeof(struct sched_migrate),
	.init = sm_init,
	.ops = { .sample = sm_sample,
		 .interval = sm_interval,
		 .snapshot = sm_snapshot,
		 .fork = sm_fork,
		 .exit = sm_exit,
		 .started = sm_started },
	.deinit = sm_deinit,
};
