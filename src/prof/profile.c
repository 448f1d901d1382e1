// SPDX-License-Identifier: GPL-2.0
/*
 * profile: where the CPU goes, by sampling.  cycles where the host has a
 * PMU, else the cpu-clock software event (said once).  Per interval and at
 * exit, the top functions (the sample's first frame) or, with -g, the top
 * stacks, with their share; --flame-graph folds every stack.  --than PCT
 * prints a thread's samples, with their stacks, only in the seconds where
 * it was at least PCT busy (samples in that second / the frequency): the
 * occasional burst of %sys, not the steady background.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "analysis/cpu/bpf_sfilter.h"
#include "analysis/cpu/prio.h"
#include "analysis/stacks/stackdb.h"
#include "engine/bpf.h"
#include "engine/kfilter.h"
#include "engine/features.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "report/stack_flame.h"
#include "sym/stack.h"

#define NS_PER_SEC 1000000000ULL

struct pf_count {
	UT_hash_handle hh;
	u64 key; /* --perins: CPU or tid << 32; stack id, or function id */
	u64 n;
};

/* A function: its name and object, interned. */
struct pf_func {
	UT_hash_handle hh;
	u32 id;
	char *name;	/* "sym (dso)" */
	size_t sym_len; /* of name: its sym (--json) */
};

/* A thread's samples of the current second, for --than. */
struct pf_thread {
	UT_hash_handle hh;
	u32 tid;
	u64 second;
	u32 n, cap;
	struct sample_copy *smp;
};

struct profile {
	unsigned long long freq, than, top;
	bool excl_user, excl_kernel, excl_guest, guest, perins;
	bool per_thread; /* --perins: instances are threads (-p/-t/--), else CPUs */
	bool by_stack;	 /* -g given: the table shows stacks */
	bool python;	 /* --python-callchain */
	struct evsel *ev;
	struct stackdb *db;
	struct stack_flame *flame;
	struct pf_count *counts;
	struct pf_func *funcs, **func_by_id;
	u32 nr_funcs;
	u64 total, lost_nomem;
	u64 run_total; /* samples of the run (--python-callchain's warning) */
	struct pf_thread *threads;
	/* --prio: each thread's priority, as sched_switch tells it */
	const struct prio_opts *prio;
	struct prio_map *prios;
	struct evsel *sw;
	struct field prev_pid, prev_prio, prev_state, next_pid, next_prio;
	bool has_state; /* prev_state read: a dying thread is not learnt again */
	u64 than_swept; /* the second --than last dropped idle threads */
	u64 t_last;	/* the last report's time (session__now), or the start */
};

/*
 * --prio: the kernel keeps the sched_switch records where a side has a
 * kept priority; a sample counts when its thread's priority (the last
 * switch that named it, else /proc) is kept.  The idle task has none.
 */
static void learn_prio(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int add_prio(struct session *s, struct profile *p)
{
	char *prev = prio__filter(p->prio, "prev_prio"), *next = prio__filter(p->prio, "next_prio");
	char *f = prev && next ? kfilter__or(prev, next) : NULL;

	free(prev);
	free(next);
	p->prios = prio_map__new();
	if (!f || !p->prios || prio_map__add_hooks(p->prios, s)) {
		free(f);
		return session__set_err(s, -ENOMEM, "out of memory");
	}
	p->sw = session__add_tp(s, "sched", "sched_switch", &(struct evsel_conf){ .filter = f });
	free(f);
	if (!p->sw)
		return -ENOENT;
	evsel__set_handler(p->sw, learn_prio, p);
	if (evsel__field(p->sw, "prev_pid", &p->prev_pid) ||
	    evsel__field(p->sw, "prev_prio", &p->prev_prio) ||
	    evsel__field(p->sw, "next_pid", &p->next_pid) ||
	    evsel__field(p->sw, "next_prio", &p->next_prio))
		return session__set_err(s, -EINVAL,
					"sched:sched_switch lacks a field --prio needs (prev_pid, "
					"prev_prio, next_pid, next_prio)");
	p->has_state = !evsel__field(p->sw, "prev_state", &p->prev_state);
	return 0;
}

#define PREV_STATE_DEAD 0x30 /* sched_switch prev_state: EXIT_DEAD | EXIT_ZOMBIE */

/* The handler of sched_switch (@priv the profile). */
static void learn_prio(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct profile *p = priv;
	u64 pid, prio, state = 0;

	(void)s, (void)ev;

	/*
	 * A dying thread's last switch comes after its EXIT record (which
	 * forgot it): it is not learnt again, or the map would keep every
	 * thread that ever ran
	 */
	if (p->has_state)
		field__u64(&p->prev_state, smp, &state);
	if (!(state & PREV_STATE_DEAD) && !field__u64(&p->prev_pid, smp, &pid) &&
	    !field__u64(&p->prev_prio, smp, &prio))
		prio_map__set(p->prios, (u32)pid, (int)prio);
	if (!field__u64(&p->next_pid, smp, &pid) && !field__u64(&p->next_prio, smp, &prio))
		prio_map__set(p->prios, (u32)pid, (int)prio);
}

static void pf_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int pf_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	struct profile *p = priv;
	struct evsel_conf c = { 0 };
	const char *cpu = features__cpu_pmu();

	if (!p->freq)
		p->freq = 99;
	if (p->freq > 100000)
		return session__usage_err(s, "-F %llu: at most 100000 Hz", p->freq);
	if (p->than > 100)
		return session__usage_err(s, "--than %llu: a percentage of one CPU, 1..100",
					  p->than);
	if (!p->top)
		p->top = 10;
	if (ex) {
		p->excl_user = ex->user;
		p->excl_kernel = ex->kernel;
		p->excl_guest = ex->guest;
		p->guest = ex->host;
	}
	if (p->excl_user && p->excl_kernel)
		return session__usage_err(s, "--exclude-user and --exclude-kernel leave nothing");
	if (p->guest && p->excl_guest)
		return session__usage_err(s, "-G and --exclude-guest leave nothing");
	{
		const struct target_opts *t = opt_set__get(opts, &target_group);

		p->per_thread = t && (t->nr_pids || t->nr_tids || (t->argv && !t->cpus_given));
	}
	p->by_stack = st && !st->capture.defaulted;
	p->python = st && (st->print & STACK_PYTHON);
	if (p->python && !p->by_stack)
		return session__usage_err(s, "--python-callchain shows the Python frames of the "
					     "stacks: add -g");
	p->t_last = session__now(s);
	p->db = stackdb__new();
	if (!p->db)
		return session__set_err(s, -ENOMEM, "out of memory");
	c.type = cpu ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	c.config = cpu ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK;
	c.sample_period = p->freq;
	c.freq = true;
	c.callchain = true;
	c.exclude_user = p->excl_user;
	c.exclude_kernel = p->excl_kernel;
	c.extra_sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	c.name = cpu ? "cycles" : "cpu-clock";
	p->ev = session__add_event(s, &c);
	if (!p->ev)
		return -ENOMEM;
	evsel__set_handler(p->ev, pf_sample, p);
	p->ev->attr.exclude_guest = p->excl_guest;
	if (p->guest && cpu)
		p->ev->attr.exclude_host = 1; /* the PMU counts only while a guest runs */
	p->prio = opt_set__get(opts, &prio_group);
	if (p->prio && !p->prio->set)
		p->prio = NULL;
	{
		/* the sample filters, --prio among them, in the kernel where BPF is */
		int err = sfilter__attach(s, opts, p->ev, true);

		if (err < 0)
			return err;
		if (err > 0)
			p->prio = NULL;
	}
	if (p->prio) { /* the ring path: priorities learnt from sched_switch */
		int err = add_prio(s, p);

		if (err)
			return err;
	}
	if (!cpu)
		session__notice(
			s, "no hardware PMU here: sampling the cpu-clock software event at %llu Hz",
			p->freq);
	return stack_flame__open(s, opt_set__get(opts, &flame_group),
				 &(struct flame_kind){ .title = "CPU Flame Graph",
						       .count = "samples",
						       .value = "cpu",
						       .value_unit = "nanoseconds",
						       .period = NS_PER_SEC / p->freq,
						       .stamp_first = true },
				 &p->flame);
}

static u32 func_id(struct profile *p, const struct frame *f)
{
	char name[512];
	struct pf_func *fn;
	size_t len;

	snprintf(name, sizeof(name), "%s (%s)", f->sym, f->dso ? f->dso : "[unknown]");
	len = strlen(name);
	HASH_FIND(hh, p->funcs, name, len, fn);
	if (fn)
		return fn->id;
	fn = calloc(1, sizeof(*fn));
	struct pf_func **b = realloc(p->func_by_id, (p->nr_funcs + 1) * sizeof(*b));

	if (!fn || !b || !(fn->name = strdup(name))) {
		if (b)
			p->func_by_id = b;
		free(fn);
		return 0;
	}
	p->func_by_id = b;
	fn->sym_len = strlen(f->sym);
	fn->id = ++p->nr_funcs;
	b[fn->id - 1] = fn;
	HASH_ADD_KEYPTR(hh, p->funcs, fn->name, len, fn);
	return fn->id;
}

static void count(struct profile *p, u64 key)
{
	struct pf_count *c;

	HASH_FIND(hh, p->counts, &key, sizeof(key), c);
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c) {
			p->lost_nomem++;
			return;
		}
		c->key = key;
		if (p->by_stack) /* the row holds its stack until the table is reset */
			stackdb__get(p->db, (u32)key);
		HASH_ADD(hh, p->counts, key, sizeof(key), c);
	}
	c->n++;
}

static void counts_clear(struct profile *p)
{
	struct pf_count *c, *tmp;

	HASH_ITER(hh, p->counts, c, tmp)
	{
		HASH_DEL(p->counts, c);
		if (p->by_stack)
			stackdb__put(p->db, (u32)c->key);
		free(c);
	}
}

/*
 * A sample --than prints: the event line's head, the ip ("ip 0x..." in
 * text), the stack (JSON: [] when the sample has none).
 */
static const struct rt_col smp_cols[] = {
	{ .type = RT_ROW },
	RT_COL("ip", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL(NULL, NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_JSON),
	RT_COL("stack", NULL, RT_STACK, RT_UNIT_NONE, 4, 0),
};
static const struct rt_desc smp_desc = { .type = "event", .cols = smp_cols, .ncols = 4 };

static void print_sample(struct session *s, struct profile *p, const struct sample *smp)
{
	FILE *out = session__event_out(s, p);
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	char ip[32];

	if (!out)
		return;
	evline__row(v, &stk, s, NULL, smp, session__comm(s, smp->tid), p->ev->name);
	snprintf(ip, sizeof(ip), "ip 0x%llx", (unsigned long long)smp->ip);
	evline__emit(s, out, &smp_desc,
		     (struct rt_val[]){ { .row = { &evline_head, v } },
					{ .u = smp->ip },
					{ .s = ip },
					{ .stk = &stk } });
}

/* The thread's buffered second: printed if it was busy enough, then dropped. */
static void flush_thread(struct session *s, struct profile *p, struct pf_thread *t)
{
	if (t->n && (u64)t->n * 100 >= p->than * p->freq)
		for (u32 i = 0; i < t->n; i++)
			if (t->smp[i].valid)
				print_sample(s, p, &t->smp[i].smp);
	t->n = 0;
}

static void thread_free(struct profile *p, struct pf_thread *t)
{
	for (u32 i = 0; i < t->cap; i++)
		sample_copy__free(&t->smp[i]);
	free(t->smp);
	HASH_DEL(p->threads, t);
	free(t);
}

/*
 * Once a second: threads without a sample in the last two seconds (gone,
 * or idle) have their last second printed if it was busy, and go.  A
 * sample of theirs that comes later (another CPU's buffer) starts anew.
 */
static void than_sweep(struct session *s, struct profile *p, u64 second)
{
	struct pf_thread *t, *tmp;

	if (second <= p->than_swept)
		return;
	p->than_swept = second;
	HASH_ITER(hh, p->threads, t, tmp)
	{
		if (t->second + 2 > second)
			continue;
		flush_thread(s, p, t);
		thread_free(p, t);
	}
}

static void than_sample(struct session *s, struct profile *p, const struct sample *smp)
{
	u64 second = smp->time / NS_PER_SEC;
	struct pf_thread *t;

	than_sweep(s, p, second);
	HASH_FIND(hh, p->threads, &smp->tid, sizeof(smp->tid), t);
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t) {
			p->lost_nomem++;
			return;
		}
		t->tid = smp->tid;
		t->second = second;
		HASH_ADD(hh, p->threads, tid, sizeof(t->tid), t);
	}
	if (second != t->second) {
		flush_thread(s, p, t);
		t->second = second;
	}
	if (t->n == t->cap) {
		u32 cap = t->cap ? t->cap * 2 : 64;
		struct sample_copy *n = realloc(t->smp, cap * sizeof(*n));

		if (!n) {
			p->lost_nomem++;
			return;
		}
		memset(n + t->cap, 0, (cap - t->cap) * sizeof(*n));
		t->smp = n;
		t->cap = cap;
	}
	if (sample_copy__save(&t->smp[t->n], smp, false))
		p->lost_nomem++;
	else
		t->n++;
}

/* The handler of the sampling event (@priv the profile). */
static void pf_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct profile *p = priv;
	struct stack_ctx *ctx = session__stack(s);
	u32 id = 0;

	(void)ev;
	if (p->prio && (!smp->tid || !prio__has(p->prio, prio_map__get(p->prios, smp->tid))))
		return;
	if (p->guest) { /* a software clock cannot leave the host out: the sample's mode can */
		unsigned mode = smp->misc & PERF_RECORD_MISC_CPUMODE_MASK;

		if (mode != PERF_RECORD_MISC_GUEST_KERNEL && mode != PERF_RECORD_MISC_GUEST_USER)
			return;
	}
	p->total++;
	p->run_total++;
	if (p->by_stack) {
		if (stackdb__add(p->db, ctx, smp, &id))
			p->lost_nomem++;
	} else if (ctx) {
		struct frame f;

		if (stack__frames(ctx, smp, &f, 1) == 1)
			id = func_id(p, &f);
	}
	count(p, p->perins ? (u64)(p->per_thread ? smp->tid : smp->cpu) << 32 | id : id);
	if (p->flame)
		stack_flame__add(p->flame, s, smp, session__comm(s, smp->tid), NULL, 1,
				 NS_PER_SEC / p->freq);
	if (p->than)
		than_sample(s, p, smp);
}

static int by_count(const void *a, const void *b)
{
	const struct pf_count *x = *(struct pf_count *const *)a, *y = *(struct pf_count *const *)b;

	u32 ix = (u32)(x->key >> 32), iy = (u32)(y->key >> 32); /* --perins: by instance first */

	if (ix != iy)
		return ix < iy ? -1 : 1;
	return x->n < y->n ? 1 : x->n > y->n ? -1 : (x->key > y->key) - (x->key < y->key);
}

/*
 * report()'s records (README, profile): the head ("interval" or "summary"),
 * with --perins an "instance" per thread or CPU, and the rows of each:
 * samples, share, and the function ("sym (dso)"; --json: "function" and
 * "dso") or, with -g, the stack (text: its lines under the row).  The head
 * and the instances are sentences in text, records only with --json (so
 * that joint analysis makes no event of them in text).  Rows: [0][] by
 * function, [1][] by stack.
 */
#define PF_JSON (RT_NO_TEXT | RT_OMIT_EMPTY)
#define PF_SENTENCE                                                        \
	RT_COL(NULL, NULL, RT_STR, RT_UNIT_NONE, 0, RT_LEFT | RT_NO_JSON), \
		RT_COL(NULL, NULL, RT_BOOL, RT_UNIT_NONE, 0, RT_NO_TEXT | RT_NO_JSON | RT_ROW_IF)
#define PF_INST                                                         \
	RT_COL("tid", NULL, RT_STR, RT_UNIT_NONE, 0, PF_JSON),          \
		RT_COL("comm", NULL, RT_STR, RT_UNIT_NONE, 0, PF_JSON), \
		RT_COL("cpu", NULL, RT_STR, RT_UNIT_NONE, 0, PF_JSON)
#define PF_NINST 3
/* the number of functions or stacks: one of the two is null */
#define PF_WHAT                                                       \
	RT_COL("functions", NULL, RT_U64, RT_UNIT_COUNT, 0, PF_JSON), \
		RT_COL("stacks", NULL, RT_U64, RT_UNIT_COUNT, 0, PF_JSON)
static const struct rt_col head_cols[] = {
	PF_SENTENCE,
	RT_COL("samples", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("event", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("freq_hz", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT),
	PF_WHAT,
	RT_COL("not_counted", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
};
static const struct rt_col inst_cols[] = {
	PF_INST,
	RT_COL("samples", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	PF_WHAT,
	PF_SENTENCE,
};
#define PF_ROW                                                                            \
	PF_INST, { .name = "samples", .title = "SAMPLES", .type = RT_U64, .width = 9 },   \
	{                                                                                 \
		.name = "pct", .title = "SHARE", .type = RT_F64, .unit = RT_UNIT_PERCENT, \
		.width = 7, .decimals = 2, .flags = RT_PCT_SIGN                           \
	}
static const struct rt_col row_cols[2][8] = {
	{ PF_ROW, RT_COL(NULL, "FUNCTION", RT_STR, RT_UNIT_NONE, 0, RT_LEFT | RT_GAP | RT_NO_JSON),
	  RT_COL("function", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	  RT_COL("dso", NULL, RT_STR, RT_UNIT_NONE, 0, PF_JSON) },
	{ PF_ROW,
	  RT_COL(NULL, "STACK", RT_STR, RT_UNIT_NONE, 0,
		 RT_LEFT | RT_GAP | RT_HEAD_ONLY | RT_NO_JSON),
	  RT_COL("stack", "[no stack]", RT_STACK, RT_UNIT_NONE, 8, 0) },
};

/* --perins: the instance's key members (a thread's tid and comm, or a CPU). */
static void inst_vals(struct session *s, struct profile *p, u32 inst, struct rt_val *v)
{
	memset(v, 0, PF_NINST * sizeof(*v));
	if (!p->perins)
		return;
	if (p->per_thread) {
		v[0] = (struct rt_val){ .s = "", .num = true, .i = inst };
		v[1].s = session__comm(s, inst);
	} else {
		v[2] = (struct rt_val){ .s = "", .num = true, .i = inst };
	}
}

/* The row of @c (of @base samples): its function, or its stack. */
static void emit_row(struct session *s, struct profile *p, struct rt_sink *k,
		     const struct pf_count *c, u64 base, const struct rt_val *inst)
{
	struct rt_stack stk = { .ctx = session__stack(s) };
	struct rt_val v[PF_NINST + 5] = { 0 };
	u32 id = (u32)c->key;
	char *own[2] = { NULL, NULL };
	int i = PF_NINST;

	memcpy(v, inst, PF_NINST * sizeof(*v));
	v[i++].u = c->n;
	v[i++].d = base ? 100.0 * (double)c->n / (double)base : 0;
	if (p->by_stack) {
		stk.fr = stackdb__frames(p->db, id, &stk.nf);
		v[i + 1].stk = &stk; /* after STACK, the title */
	} else if (id && id <= p->nr_funcs) {
		const struct pf_func *fn = p->func_by_id[id - 1];
		size_t len = strlen(fn->name);

		v[i++].s = fn->name;
		/*
		 * "sym (dso)" apart, also in text: a joint analysis (sql, trace
		 * --json) takes the JSON members of the rows whatever the output
		 */
		v[i++].s = own[0] = strndup(fn->name, fn->sym_len);
		v[i].s = own[1] = strndup(fn->name + fn->sym_len + 2, len - fn->sym_len - 3);
	} else {
		v[i++].s = "[unknown]";
		v[i].s = "[unknown]";
	}
	rtable__row(k, v);
	free(own[0]);
	free(own[1]);
}

static void report(struct session *s, struct profile *p)
{
	FILE *out = session__out(s);
	unsigned n = HASH_COUNT(p->counts), i = 0;
	struct pf_count **all = calloc(n ? n : 1, sizeof(*all)), *c, *tmp;
	bool json = session__json(s);
	u64 now = session__now(s);
	struct stats_stamp st = { .scope = session__interval_ms(s) ? "interval" : "run",
				  .time_ns = session__wall_ns(s, now),
				  .interval_ns = now - p->t_last };
	const struct rt_desc row = { .type = "row",
				     .cols = row_cols[p->by_stack],
				     .ncols = p->by_stack ? 7 : 8 };
	const struct rt_desc head = { .type = session__interval_ms(s) ? "interval" : "summary",
				      .cols = head_cols,
				      .ncols = 8 };
	const struct rt_desc instance = { .type = "instance", .cols = inst_cols, .ncols = 8 };
	union rt_sinks u;
	struct rt_sink *k = json ? rt_json__init(&u.json, out, &st) : rt_text__init(&u.text, out);
	struct rt_val iv[PF_NINST + 5], what[2] = { { .null = true }, { .null = true } };
	char ts[64], text[160];

	if (!all) {
		session__warn(s, "out of memory making the report");
		return;
	}
	HASH_ITER(hh, p->counts, c, tmp)
	all[i++] = c;
	qsort(all, n, sizeof(*all), by_count);
	session__fmt_time(s, now, ts, sizeof(ts));
	snprintf(text, sizeof(text), "%s profile: %llu samples of %s at %llu Hz, %u %s", ts,
		 (unsigned long long)p->total, p->ev->name, p->freq, n,
		 p->by_stack ? "stacks" : "functions");
	what[p->by_stack] = (struct rt_val){ .u = n };
	rtable__one(k, &head,
		    (struct rt_val[]){ { .s = text },
				       { .b = json },
				       { .u = p->total },
				       { .s = p->ev->name },
				       { .u = p->freq },
				       what[0],
				       what[1],
				       { .u = p->lost_nomem } });
	if (n && !p->perins)
		rtable__begin(k, &row);
	for (i = 0; i < n;) {
		u32 inst = (u32)(all[i]->key >> 32);
		unsigned j = i, m;
		u64 tot = 0;

		while (j < n && (u32)(all[j]->key >> 32) == inst)
			tot += all[j++]->n;
		inst_vals(s, p, inst, iv);
		if (p->perins) {
			if (p->per_thread)
				snprintf(text, sizeof(text), "%s:%u: %llu samples",
					 session__comm(s, inst), inst, (unsigned long long)tot);
			else
				snprintf(text, sizeof(text), "CPU %u: %llu samples", inst,
					 (unsigned long long)tot);
			iv[PF_NINST] = (struct rt_val){ .u = tot };
			iv[PF_NINST + 1 + !p->by_stack] = (struct rt_val){ .null = true };
			iv[PF_NINST + 1 + p->by_stack] = (struct rt_val){ .u = j - i };
			iv[PF_NINST + 3] = (struct rt_val){ .s = text };
			iv[PF_NINST + 4] = (struct rt_val){ .b = json };
			rtable__one(k, &instance, iv);
			rtable__begin(k, &row);
		}
		for (m = i; m < j && m - i < p->top; m++)
			emit_row(s, p, k, all[m], p->perins ? tot : p->total, iv);
		if (p->perins)
			rtable__end(k);
		if (j - i > p->top && !json)
			fprintf(out, "... %llu more\n", (unsigned long long)(j - i - p->top));
		i = j;
	}
	if (n && !p->perins)
		rtable__end(k);
	p->t_last = now;
	if (!json && p->lost_nomem)
		fprintf(out, "warning: out of memory: %llu samples not counted\n",
			(unsigned long long)p->lost_nomem);
	if (!json)
		session__print_lost(s, out);
	fflush(out);
	counts_clear(p);
	p->total = 0;
	free(all);
}

static void pf_interval(struct session *s, void *priv)
{
	struct profile *p = priv;

	report(s, p);
	stack_flame__interval(p->flame, s);
}

static void pf_deinit(struct session *s, void *priv)
{
	struct profile *p = priv;
	struct pf_thread *t, *tt;
	struct pf_func *f, *tf;

	HASH_ITER(hh, p->threads, t, tt)
	{
		if (session__started(s))
			flush_thread(s, p, t);
		thread_free(p, t);
	}
	if (session__started(s) && p->ev && (p->total || !session__interval_ms(s)))
		report(s, p);
	stack_flame__close(p->flame, s, "profile");
	/* a run without one Python frame had no perf map: say why the stacks are native */
	if (p->python && session__started(s) && p->run_total &&
	    !stack_ctx__python_frames(session__stack(s)))
		session__warn(s, "--python-callchain: no Python frame in any stack: no process had "
				 "a /tmp/perf-PID.map naming one (CPython 3.12+ writes it with -X "
				 "perf)");
	counts_clear(p);
	if (session__verbose(s) && p->by_stack)
		stackdb__print_stats(p->db, "profile", stderr);
	HASH_ITER(hh, p->funcs, f, tf)
	{
		HASH_DEL(p->funcs, f);
		free(f->name);
		free(f);
	}
	free(p->func_by_id);
	stackdb__delete(p->db);
	prio_map__delete(p->prios);
}

static const struct popt pf_opts[] = {
	{ .lname = "freq",
	  .sname = 'F',
	  .argname = "HZ",
	  .help = "samples per second per CPU (default 99)",
	  POPT_BIND_UINT(struct profile, freq),
	  POPT_RANGE(1, 100000) },
	{ .lname = "than",
	  .argname = "PCT",
	  .help = "print a thread's samples in the seconds it was at least PCT% busy",
	  POPT_BIND_UINT(struct profile, than),
	  POPT_RANGE(1, 100) },
	{ .lname = "top",
	  .argname = "N",
	  .help = "rows of the table (default 10)",
	  POPT_BIND_UINT(struct profile, top),
	  POPT_RANGE(1, 0) },
	{ .lname = "perins",
	  .help = "a table per CPU (per thread with -p/-t/--)",
	  POPT_BIND_FLAG(struct profile, perins) },
	{ 0 },
};

const struct profiler prof_profile = {
	.name = "profile",
	.needs = (const char *const[]){ "pmu?=uses cpu-clock", NULL },
	.desc = "where the CPU goes: sampled functions or stacks, flame graphs, busy-second bursts",
	.synopsis = "perf-prof profile [-F HZ] [-g|--call-graph dwarf] [--flame-graph NAME[.svg]] "
		    "[--than PCT] [--top N] [--exclude-user|--exclude-kernel] [--exclude-guest|-G] "
		    "[--perins] [-i MS] [-C CPUS|-p PID|-t TID|-- command]",
	.examples =
		"perf-prof profile -F 999 -i 1000                 # top functions each second\n"
		"  perf-prof profile -F 999 -g --flame-graph cpu.svg -p 1234\n"
		"  perf-prof profile --exclude-user --than 50 -g    # bursts of %sys, with stacks\n"
		"cycles where the host has a PMU, else cpu-clock (said once).",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &ring_group,
						     &output_group, &stack_group, &flame_group,
						     &exclude_group, &prio_group, &sfilter_group,
						     &bpf_group, NULL },
	.own = pf_opts,
	.stacks = true,
	.priv_size = sizeof(struct profile),
	.init = pf_init,
	.ops = { .interval = pf_interval, .snapshot = pf_interval },
	.deinit = pf_deinit,
};
