// SPDX-License-Identifier: GPL-2.0
/*
 * task-state: off-CPU analysis from sched:sched_switch and sched:sched_wakeup.
 *
 * A thread switching out records (time, state, stack); when it switches in
 * again the interval is accounted to that state.  A wakeup in between
 * splits it into sleep (out -> wakeup) and run-queue wait (wakeup -> in).
 * Only intervals whose both ends were seen are counted: threads asleep at
 * start, exited threads and intervals spanning lost records never invent
 * a duration.  Events must arrive in time order across CPUs
 * (session__want_order), since a thread may switch out on one CPU and in on
 * another.  Events are opened per CPU even for -p/-t/--
 * (session__want_cpu_wide): the switch-in
 * and the wakeup of a target come from other tasks' contexts, so targets
 * are chosen here, at switch-out.  The kernel's context-switch records
 * stand in for switch-ins whose sched_switch sample is not delivered.
 *
 * On the BPF back end (the default where the host allows it) the intervals
 * are paired and timed in the kernel (analysis/latency/ts_bpf.h: tp_btf on
 * sched_switch and sched_wakeup), kernel stacks (-g --kernel-stack) kept
 * there too; user space reads the rows and stacks at each interval and at
 * the end into the same table and flame graph.  --than's intervals are
 * copied out of the kernel as they end (with -g their stacks, kernel and
 * user, taken at the switch-out) and printed as the ring path prints
 * them.  --prio, a flame graph of user stacks and --call-graph dwarf go
 * the ring path.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "analysis/latency/bpf_stack.h"
#include "analysis/latency/pairs.h"
#include "analysis/latency/ts_bpf.h"
#include "analysis/cpu/prio.h"
#include "engine/bpf.h"
#include "engine/kfilter.h"
#include "report/outfile.h"
#include "report/stack_flame.h"
#include "report/lat_table.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "profiler.h"
#include "sym/stack.h"

/* prev_state as sched_switch reports it: one bit per state, 0 = runnable. */
enum {
	ST_R,
	ST_S,
	ST_D,
	ST_T,
	ST_t,
	ST_X,
	ST_Z,
	ST_P,
	ST_I,
	NR_STATES,
};

static const char *const state_names[NR_STATES] = { "R", "S", "D", "T", "t", "X", "Z", "P", "I" };

/* The "+" flag: switched out by preemption while runnable. */
#define PREV_STATE_PREEMPT 0x100

/* A thread off CPU: the payload of its pending interval (key: tid). */
struct ts_thread {
	u32 tid;
	u32 pid;
	u64 wake_time;
	int state;
	char comm[16];
	struct sample_copy stack; /* taken at switch-out; its buffer is reused */
};

struct task_state {
	/* options */
	unsigned char want_S, want_D; /* STATE_* (-S/-D, --no-(un)interruptible) */
	bool perins;
	unsigned long long than;

	struct evsel *sw_out, *sw_in, *wakeup;
	struct field prev_pid, prev_state, prev_comm, next_pid, wakeup_pid, prev_prio;
	/* --prio, or NULL */
	const struct prio_opts *prio;
	unsigned state_mask;	   /* 1 << ST_* accepted */
	struct pairs *pending;	   /* tid -> ts_thread, switch-out to switch-in */
	struct lat_table *table;   /* by state, or by thread and state (--perins) */
	struct stack_flame *flame; /* off-CPU time by stack, in us */
	const char *filter;	   /* --filter COMM[,COMM...] globs */
	u64 nr_intervals;
	u64 closed_by_record; /* switch-ins seen only as PERF_RECORD_SWITCH */
	bool failed_alloc;
	u64 since;			/* --json: where the next table's span begins */
	struct ts_bpf *bpf;		/* the BPF back end, NULL: the ring path */
	struct bpf_stacks *slow_stacks; /* its --than -g stacks without a flame graph */
	u64 unseen;			/* its drops as last printed (-i) */
	struct session *s;
};

/*
 * A thread entry only matters while an interval is pending; between two it
 * keeps its stack buffer for reuse.  Entries idle this long (event time)
 * are freed: threads that exited unseen (EXIT lost) or sleep elsewhere.
 */
#define IDLE_EVICT_NS (10ULL * 1000000000ULL)

static void thread_free(void *payload)
{
	struct ts_thread *th = payload;

	sample_copy__free(&th->stack);
}

static int state_index(u64 prev_state)
{
	if (!prev_state || (prev_state & PREV_STATE_PREEMPT))
		return ST_R;
	for (int i = ST_S; i < NR_STATES; i++)
		if (prev_state & (1u << (i - 1)))
			return i;
	return ST_R;
}

/*
 * The original's state options: -S and -D choose the states shown (both:
 * either); --no-interruptible and --no-uninterruptible take a state out of
 * them (of all states when neither -S nor -D is given).  For each state
 * the last of its options wins.
 */
enum { STATE_ANY, STATE_ONLY, STATE_NOT };

static unsigned state_mask(const struct task_state *ts)
{
	unsigned mask = ~0u;

	if (ts->want_S == STATE_ONLY || ts->want_D == STATE_ONLY)
		return (ts->want_S == STATE_ONLY ? 1u << ST_S : 0) |
		       (ts->want_D == STATE_ONLY ? 1u << ST_D : 0);
	if (ts->want_S == STATE_NOT)
		mask &= ~(1u << ST_S);
	if (ts->want_D == STATE_NOT)
		mask &= ~(1u << ST_D);
	return mask;
}

/* The same choice as a kernel filter on sched_switch's prev_state ("" for all). */
static const char *state_filter(const struct task_state *ts)
{
	bool S = ts->want_S == STATE_ONLY, D = ts->want_D == STATE_ONLY;

	if (S || D)
		return S && D ? "(prev_state == 1 || prev_state == 2)"
		       : S    ? "prev_state == 1"
			      : "prev_state == 2";
	S = ts->want_S == STATE_NOT;
	D = ts->want_D == STATE_NOT;
	if (S && D)
		return "(prev_state != 1 && prev_state != 2)";
	return S ? "prev_state != 1" : D ? "prev_state != 2" : "";
}

static int opt_state(void *priv, int which, int want)
{
	struct task_state *ts = priv;

	if (which == ST_S)
		ts->want_S = (unsigned char)want;
	else
		ts->want_D = (unsigned char)want;
	return 0;
}

static int opt_S(void *priv, const char *arg, char *err, size_t len)
{
	(void)arg, (void)err, (void)len;
	return opt_state(priv, ST_S, STATE_ONLY);
}

static int opt_D(void *priv, const char *arg, char *err, size_t len)
{
	(void)arg, (void)err, (void)len;
	return opt_state(priv, ST_D, STATE_ONLY);
}

static int opt_no_S(void *priv, const char *arg, char *err, size_t len)
{
	(void)arg, (void)err, (void)len;
	return opt_state(priv, ST_S, STATE_NOT);
}

static int opt_no_D(void *priv, const char *arg, char *err, size_t len)
{
	(void)arg, (void)err, (void)len;
	return opt_state(priv, ST_D, STATE_NOT);
}

static void on_switch(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
static void task_state_switch(struct session *s, void *priv, const struct rec_switch *sw);
static const struct session_ops ts_ring_ops = { .context_switch = task_state_switch };
static void on_switch_in(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
static void on_switch_out(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
static void on_wakeup(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int add_events(struct session *s, struct task_state *ts)
{
	bool cg = session__conf(s)->capture->cg != CG_NONE;
	char *prev = NULL, *next = NULL, *wk = NULL, *f_out = NULL;
	const char *states = state_filter(ts);
	int err = -ENOMEM;

	prev = kfilter__comm_globs("prev_comm", ts->filter);
	next = kfilter__comm_globs("next_comm", ts->filter);
	wk = kfilter__comm_globs("comm", ts->filter);
	if (!prev || !next || !wk || prio__and(&prev, ts->prio, "prev_prio") ||
	    prio__and(&next, ts->prio, "next_prio") || prio__and(&wk, ts->prio, "prio"))
		goto out;

	if (*states) {
		/*
		 * Stacks are wanted only where the thread leaves in the chosen
		 * state, but its switch-in comes from any sched_switch: one
		 * event filtered on prev_state (with the callchain) and one on
		 * next_comm only (without).
		 */
		struct evsel_conf out_c = { .callchain = cg, .name = "sched:sched_switch/out" };
		struct evsel_conf in_c = { .name = "sched:sched_switch/in" };

		f_out = kfilter__and(states, prev);
		if (!f_out)
			goto out;
		out_c.filter = f_out;
		in_c.filter = *next ? next : NULL;
		ts->sw_out = session__add_tp(s, "sched", "sched_switch", &out_c);
		if (ts->sw_out)
			ts->sw_in = session__add_tp(s, "sched", "sched_switch", &in_c);
	} else {
		struct evsel_conf c = { .callchain = cg };

		f_out = kfilter__or(prev, next);
		if (!f_out)
			goto out;
		c.filter = *f_out ? f_out : NULL;
		ts->sw_out = ts->sw_in = session__add_tp(s, "sched", "sched_switch", &c);
	}
	if (ts->sw_in) {
		struct evsel_conf c = { .filter = *wk ? wk : NULL };

		ts->wakeup = session__add_tp(s, "sched", "sched_wakeup", &c);
	}
	/* the session holds the message; the CLI prints it */
	err = ts->sw_out && ts->sw_in && ts->wakeup ? 0 : -EINVAL;
	if (!err) {
		if (ts->sw_in == ts->sw_out) {
			evsel__set_handler(ts->sw_in, on_switch, ts);
		} else {
			evsel__set_handler(ts->sw_in, on_switch_in, ts);
			evsel__set_handler(ts->sw_out, on_switch_out, ts);
		}
		evsel__set_handler(ts->wakeup, on_wakeup, ts);
	}
	if (!err && (evsel__field(ts->sw_out, "prev_pid", &ts->prev_pid) ||
		     evsel__field(ts->sw_out, "prev_state", &ts->prev_state) ||
		     evsel__field(ts->sw_out, "prev_comm", &ts->prev_comm) ||
		     (ts->prio && evsel__field(ts->sw_out, "prev_prio", &ts->prev_prio)) ||
		     evsel__field(ts->sw_in, "next_pid", &ts->next_pid) ||
		     evsel__field(ts->wakeup, "pid", &ts->wakeup_pid))) {
		err = session__set_err(s, -EINVAL,
				       "sched_switch or sched_wakeup lacks a field it needs "
				       "(prev_pid, prev_state, prev_comm, next_pid, pid%s)",
				       ts->prio ? ", prev_prio" : "");
	}
out:
	if (err == -ENOMEM)
		session__set_err(s, err, "out of memory");
	free(prev);
	free(next);
	free(wk);
	free(f_out);
	return err;
}

/* A row's key: the state (and the thread's comm, pid and tid with --perins). */
static const struct rt_col state_key[] = {
	RT_COL("state", "STATE", RT_STR, 0, 9, RT_LEFT),
};
static const struct rt_col thread_key[] = {
	RT_COL("state", "STATE", RT_STR, 0, 5, RT_LEFT),
	RT_COL("comm", "COMM", RT_STR, 0, 16, RT_LEFT),
	RT_COL("pid", NULL, RT_U64, 0, 0, RT_NO_TEXT),
	RT_COL("tid", "TID", RT_U64, 0, 7, 0),
};

static int set_key(struct task_state *ts, struct lat_row *r, int state, const struct ts_thread *th)
{
	if (!th)
		return lat_row__set_keys(ts->table, r,
					 (struct rt_val[]){ { .s = state_names[state] } });
	return lat_row__set_keys(ts->table, r,
				 (struct rt_val[]){ { .s = state_names[state] },
						    { .s = th->comm },
						    { .u = th->pid },
						    { .u = th->tid } });
}

/* ---- the BPF back end ---- */

/* A row read from the kernel's maps (ts_bpf's callback). */
static void bpf_row(void *arg, unsigned key, u32 pid, u32 tid, const char *comm,
		    const struct hist *h, u64 over)
{
	struct task_state *ts = arg;
	int state = key & 0xff, err;
	struct lat_row *row;

	if (state >= NR_STATES)
		return;
	if (ts->perins) {
		struct ts_thread th = { .tid = tid, .pid = pid };

		if (!comm)
			comm = session__comm(ts->s, tid);
		snprintf(th.comm, sizeof(th.comm), "%s", comm ? comm : "<...>");
		row = lat_table__row(ts->table, (u64)tid << 8 | state, state, NULL);
		if (row && set_key(ts, row, state, &th))
			ts->failed_alloc = true;
	} else {
		row = lat_table__row(ts->table, state, state, NULL);
	}
	if (!row) {
		ts->failed_alloc = true;
		return;
	}
	if (key & TS_BPF_SLEEP)
		err = lat_table__merge_sub(ts->table, row, 0, h);
	else if (key & TS_BPF_RUNQ)
		err = lat_table__merge_sub(ts->table, row, 1, h);
	else if (!(err = lat_table__merge(ts->table, row, h, 0)) && over)
		lat_row__add_over(row, over);
	if (err)
		ts->failed_alloc = true;
}

/*
 * The frames of the program's own call before __schedule, where the ring
 * path's callchain of sched_switch starts: the program (its JIT address,
 * named after whatever symbol precedes it), then the tracepoint's
 * plumbing (bpf_trace_run4, __bpf_trace_sched_switch, __traceiter_...).
 * Up to the last plumbing frame among the first few.
 */
static int plumbing(const struct frame *f, int n)
{
	int skip = 0;

	for (int i = 0; i < n && i < 8; i++)
		if (!strncmp(f[i].sym, "bpf_trace_run", 13) ||
		    !strncmp(f[i].sym, "__bpf_trace", 11) ||
		    !strncmp(f[i].sym, "__traceiter_", 12) || !strncmp(f[i].sym, "bpf_prog_", 9))
			skip = i + 1;
	while (skip < n && !strcmp(f[skip].sym, "[unknown]"))
		skip++;
	return skip;
}

#define BPF_MAX_FRAMES 128

/* A kernel stack read from the maps: into the flame graph as the ring path's. */
static void bpf_stack(void *arg, const u64 *ips, int nr, const char *comm, unsigned state,
		      u64 count, u64 ns)
{
	struct task_state *ts = arg;
	u64 chain[BPF_MAX_FRAMES + 1];
	struct frame frames[BPF_MAX_FRAMES];
	struct sample smp = { .nr_ips = 1 };
	struct stack_ctx *ctx = session__stack(ts->s);
	int n = 0, skip = 0;

	if (state >= NR_STATES)
		return;
	chain[0] = PERF_CONTEXT_KERNEL;
	for (int i = 0; i < nr && i < BPF_MAX_FRAMES; i++)
		chain[smp.nr_ips++] = ips[i];
	smp.ips = chain;
	if (ctx)
		n = stack__frames(ctx, &smp, frames, BPF_MAX_FRAMES);
	skip = plumbing(frames, n);
	stack_flame__add_frames(ts->flame, frames + skip, n - skip, comm, state_names[state], count,
				ns);
}

static const struct ts_bpf_ops bpf_read_ops = { .row = bpf_row, .stack = bpf_stack };

static void print_slow(struct session *s, const char *comm, u32 pid, u32 tid, int state, u64 now,
		       u32 cpu, u64 dur, const struct rt_stack *stk);

/* An interval over --than copied out of the kernel: printed as the ring path's (print_than). */
static void bpf_slow(void *arg, const struct ts_bpf_slow *r)
{
	struct task_state *ts = arg;
	u64 chain[BPF_MAX_FRAMES + 1];
	struct frame frames[BPF_MAX_FRAMES];
	struct sample smp = { .nr_ips = 1 };
	struct stack_ctx *ctx = session__stack(ts->s);
	struct rt_stack stk = { .ctx = ctx };
	int n = 0, skip;

	if (r->state >= NR_STATES)
		return;
	if (ts->slow_stacks) { /* -g's callchain as the ring path's sample has it */
		u64 ichain[BPF_STACK_CHAIN];
		struct sample is = { .type = PERF_RECORD_SAMPLE,
				     .sample_type =
					     PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
				     .pid = r->pid,
				     .tid = r->tid,
				     .time = r->end,
				     .cpu = r->cpu,
				     .period = 1 };

		bpf_stacks__sample(ts->slow_stacks, ctx, r->kslot, r->uslot, ichain, &is);
		stk.smp = &is;
		print_slow(ts->s, r->comm, r->pid, r->tid, (int)r->state, r->end, r->cpu, r->dur,
			   is.nr_ips ? &stk : NULL);
		return;
	}
	chain[0] = PERF_CONTEXT_KERNEL;
	for (int i = 0; i < r->nr && i < BPF_MAX_FRAMES; i++)
		chain[smp.nr_ips++] = r->ips[i];
	smp.ips = chain;
	if (ctx && r->nr)
		n = stack__frames(ctx, &smp, frames, BPF_MAX_FRAMES);
	skip = plumbing(frames, n);
	stk.fr = frames + skip;
	stk.nf = n - skip;
	print_slow(ts->s, r->comm, r->pid, r->tid, (int)r->state, r->end, r->cpu, r->dur,
		   stk.nf > 0 ? &stk : NULL);
}

static void bpf_read(struct session *s, struct task_state *ts, bool interval, bool last)
{
	int err = ts_bpf__read(ts->bpf, interval, last, &bpf_read_ops, ts);

	if (err)
		session__warn(s, "reading the BPF maps: %s", strerror(-err));
}

static void bpf_visit(struct session *s, void *ts)
{
	bpf_read(s, ts, false, false);
}

/*
 * The BPF back end, if the host and the request allow it: 1 with the
 * programs loaded (attached at open), 0 for the ring path (said under -v),
 * or -errno (--bpf and it cannot: the usage error).
 */
static int ts_try_bpf(struct session *s, struct task_state *ts, const struct opt_set *opts)
{
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	/* -g: the flame graph's (kernel stacks kept in the kernel), or --than's lines' */
	bool want = st && st->capture.cg != CG_NONE && (ts->flame || ts->than);
	bool stacks = want && ts->flame;
	struct bpf_stacks *slow_stacks = NULL;
	struct bpf_back *b;
	char why[256] = "";
	int err, mark;

	if (!session__event_out(s, ts))
		return bpf_back__fallback(s, opts,
					  "task-state inside another profiler's -e: its events go "
					  "to that profiler");
	if (ts->prio)
		return bpf_back__fallback(s, opts, "task-state --prio is not compiled");
	if (stacks && (st->capture.cg != CG_FP || !st->capture.no_user))
		return bpf_back__fallback(s, opts,
					  "task-state -g with a flame graph: user stacks are read "
					  "from the ring buffer (--kernel-stack: kernel stacks in "
					  "the kernel)");
	err = bpf_back__get(s, opts, &b);
	if (err <= 0)
		return err;
	/* --than -g without a flame graph: its stacks, as other slow cases' (not dwarf's) */
	if (want && !stacks &&
	    !(slow_stacks =
		      bpf_stacks__new(s, b, bpf_back__entries(opts), 4,
				      BPF_STACKS_KERNEL | BPF_STACKS_USER, true, why, sizeof(why))))
		return bpf_back__fallback(s, opts, "task-state -g with --than: %s", why);
	mark = bpf_back__mark(b);
	err = ts_bpf__new(b,
			  &(struct ts_bpf_conf){ .state_mask = ts->state_mask,
						 .perins = ts->perins,
						 .filter = ts->filter,
						 .stacks = stacks,
						 .max_stack = st ? st->capture.max_stack : 0,
						 .than = ts->than,
						 .slow = bpf_slow,
						 .slow_arg = ts,
						 .slow_stacks = slow_stacks,
						 .entries = bpf_back__entries(opts) },
			  &ts->bpf, why, sizeof(why));
	if (err) { /* (what was asked to be attached, the target followers too: not attached) */
		bpf_back__rollback(b, mark);
		bpf_stacks__delete(slow_stacks);
	} else {
		ts->slow_stacks = slow_stacks;
	}
	if (err == -EOPNOTSUPP)
		return bpf_back__fallback(s, opts, "task-state: %s", why);
	if (err && why[0])
		return session__set_err(s, err, "task-state: %s", why);
	if (err)
		return session__strerror(s) ? err : session__set_err(s, err, "out of memory");
	session__notice(s,
			"the BPF back end: off-CPU intervals paired and timed in the kernel "
			"(tp_btf sched_switch, sched_wakeup%s%s)",
			stacks ? "; kernel stacks kept there" : "",
			!ts->than     ? ""
			: slow_stacks ? "; intervals over --than copied out with their stacks"
				      : "; intervals over --than copied out");
	/* (and without -i, the maps read as it goes: exited threads and idle rows taken out) */
	err = bpf_back__on_read(b, bpf_visit, ts);
	return err ? err : 1;
}

static int task_state_init(struct session *s, void *priv, const struct opt_set *opts)
{
	struct task_state *ts = priv;
	int err;

	ts->s = s;
	if (ts->filter && !kfilter__globs_ok(ts->filter))
		return session__usage_err(
			s,
			"bad --filter '%s': expected COMM[,COMM...] globs such as "
			"'nginx*,php-fpm' (see: perf-prof task-state -h)",
			ts->filter);
	ts->state_mask = state_mask(ts);
	ts->prio = opt_set__get(opts, &prio_group);
	if (ts->prio && !ts->prio->set)
		ts->prio = NULL;
	/* Threads come and go: --perins rows are dropped at each interval. */
	ts->table = lat_table__new("", (const char *const[]){ "sleep", "runq", NULL },
				   ts->perins ? LAT_DROP_ROWS : 0);
	if (!ts->table ||
	    lat_table__set_keys(ts->table, ts->perins ? thread_key : state_key, ts->perins ? 4 : 1))
		return session__set_err(s, -ENOMEM, "out of memory");
	/* --than in the header with its unit: a ">100ms" column, the intervals over it */
	lat_table__set_than(ts->table, ts->than);
	for (int i = 0; i < NR_STATES && !ts->perins; i++) {
		struct lat_row *r = lat_table__row(ts->table, i, i, NULL);

		if (!r || set_key(ts, r, i, NULL))
			return session__set_err(s, -ENOMEM, "out of memory");
	}
	err = stack_flame__open(s, opt_set__get(opts, &flame_group),
				&(struct flame_kind){ .title = "Off-CPU Time Flame Graph",
						      .count = "samples",
						      .value = "off_cpu",
						      .value_unit = "nanoseconds",
						      .fold_value = true,
						      .leaf_label = "state",
						      .stamp_first = true },
				&ts->flame);
	if (err)
		return err;
	/*
	 * A target's switch-in and wakeup come from other tasks: per CPU even
	 * for -p (on BPF too: -p's threads, not the processes they start, as
	 * on the ring path)
	 */
	session__want_cpu_wide(s);
	err = ts_try_bpf(s, ts, opts);
	if (err < 0)
		return err;
	if (err) /* no samples: the task records (names, exits) and the targets' lifetime */
		return session__add_event(s, &(struct evsel_conf){ .type = PERF_TYPE_SOFTWARE,
								   .config = PERF_COUNT_SW_DUMMY,
								   .name = "dummy" })
			       ? 0
			       : -EINVAL;
	/* every context switch of the host, in time order */
	session__want_order(s);
	session__want_pages(s, 512);
	if (session__add_ops(s, &ts_ring_ops, ts))
		return -ENOMEM;
	ts->pending = pairs__new(&(struct pairs_conf){ .payload_size = sizeof(struct ts_thread),
						       .idle_ns = IDLE_EVICT_NS,
						       .payload_free = thread_free });
	if (!ts->pending)
		return session__set_err(s, -ENOMEM, "out of memory");
	/*
	 * Records lost: a lost switch-in would let a pending interval run on
	 * until the next one, and a lost switch-out would pair a stale start
	 * with a later switch-in; which threads are affected is unknown, so
	 * every pending interval goes (pairs' own hooks, exits too).
	 */
	if (pairs__add_hooks(ts->pending, s))
		return -ENOMEM;
	return add_events(s, ts);
}

/* --than: an interval over it, with the stack where the thread left */
static const struct rt_col slow_cols[] = {
	RT_COL(NULL, NULL, RT_STR, 0, 0, RT_NO_JSON), /* the time, as text shows it */
	RT_COL("time_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("comm", NULL, RT_STR, 0, 16, RT_LEFT),
	RT_COL("pid", NULL, RT_U64, 0, 0, RT_NO_TEXT),
	RT_COL("tid", NULL, RT_U64, 0, 7, 0),
	RT_COL(NULL, NULL, RT_STR, 0, 0, RT_NO_JSON), /* "[CPU]" */
	RT_COL("cpu", NULL, RT_U64, 0, 0, RT_NO_TEXT),
	RT_COL("state", NULL, RT_STR, 0, 2, RT_LEFT),
	RT_COL("duration_ns", NULL, RT_NS, RT_UNIT_NS, 0, 0),
	RT_COL("stack", NULL, RT_STACK, 0, 4, RT_OMIT_EMPTY),
};
static const struct rt_desc slow_desc = { .type = "slow", .cols = slow_cols, .ncols = 10 };

static void print_slow(struct session *s, const char *comm, u32 pid, u32 tid, int state, u64 now,
		       u32 cpu, u64 dur, const struct rt_stack *stk)
{
	char tbuf[64], cbuf[16];

	session__fmt_time(s, now, tbuf, sizeof(tbuf));
	snprintf(cbuf, sizeof(cbuf), "[%03u]", cpu);
	rtable__record(session__out(s), session__json(s), &slow_desc,
		       (struct rt_val[]){ { .s = tbuf },
					  { .u = session__wall_ns(s, now) },
					  { .s = comm },
					  { .u = pid },
					  { .u = tid },
					  { .s = cbuf },
					  { .u = cpu },
					  { .s = state_names[state] },
					  { .u = dur },
					  { .stk = stk } });
}

static void print_than(struct session *s, struct ts_thread *th, u64 now, u32 cpu, u64 dur)
{
	struct rt_stack stk = { .ctx = session__stack(s), .smp = &th->stack.smp };

	print_slow(s, th->comm, th->pid, th->tid, th->state, now, cpu, dur,
		   th->stack.valid ? &stk : NULL);
}

/* @tid switches in at @now on @cpu: account the interval it was off CPU. */
static void switch_in(struct session *s, struct task_state *ts, u32 tid, u64 now, u32 cpu)
{
	u64 dur, sleep = 0, runq = 0;
	struct pair_span span;
	struct ts_thread *th;
	struct lat_row *row;
	bool woken;

	if (!pairs__end(ts->pending, tid, now, &span))
		return;
	th = span.payload;
	dur = span.delta;
	woken = th->wake_time && th->state != ST_R;
	if (woken) {
		sleep = th->wake_time - span.start;
		runq = now - th->wake_time;
	}
	if (ts->perins) {
		row = lat_table__row(ts->table, (u64)th->tid << 8 | th->state, th->state, NULL);
		if (row && set_key(ts, row, th->state, th))
			ts->failed_alloc = true;
	} else {
		row = lat_table__row(ts->table, th->state, th->state, NULL);
	}
	if (!row || lat_table__record(ts->table, row, dur, woken ? (u64[]){ sleep, runq } : NULL))
		ts->failed_alloc = true;
	ts->nr_intervals++;
	if (ts->than && dur > ts->than)
		print_than(s, th, now, cpu, dur);
	if (ts->flame && th->stack.valid)
		stack_flame__add(ts->flame, s, &th->stack.smp, th->comm, state_names[th->state], 1,
				 dur);
	th->wake_time = 0;
	th->stack.valid = false;
}

static void copy_comm(char *dst, const char *src, int len)
{
	if (!src || len <= 0) {
		strcpy(dst, "<...>");
		return;
	}
	if (len > 15)
		len = 15;
	memcpy(dst, src, len);
	dst[len] = 0;
	dst[strnlen(dst, len)] = 0;
}

/*
 * --prio: the thread leaving has a kept priority (one sched_switch record
 * serves both sides: the kernel kept it for either).
 */
static bool prio_ok(struct task_state *ts, struct sample *smp)
{
	u64 prio;

	return !ts->prio ||
	       (!field__u64(&ts->prev_prio, smp, &prio) && prio__has(ts->prio, (long long)prio));
}

/* The handlers of the events (@priv the task_state): sched_switch out, in, both, sched_wakeup. */
static void on_switch_out(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct task_state *ts = priv;
	u64 prev_pid, prev_state;
	struct ts_thread *th;
	const char *comm;
	char cbuf[16];
	u64 start;
	u32 tid;
	int state, len;

	(void)ev;
	if (field__u64(&ts->prev_pid, smp, &prev_pid) ||
	    field__u64(&ts->prev_state, smp, &prev_state))
		return;
	tid = prev_pid;
	if (!tid) /* the idle task */
		return;
	state = state_index(prev_state);
	if (state == ST_X || state == ST_Z) {
		/* Dead: it will not run again. */
		pairs__forget(ts->pending, tid);
		return;
	}
	comm = field__str(&ts->prev_comm, smp, &len);
	copy_comm(cbuf, comm, len);
	if (!(ts->state_mask & (1u << state)) || !session__is_target(s, smp->pid, tid) ||
	    (ts->filter && !kfilter__comm_match(ts->filter, cbuf)) || !prio_ok(ts, smp)) {
		pairs__cancel(ts->pending, tid);
		return;
	}
	/*
	 * Still pending: neither its sched_switch-in nor the switch record
	 * was delivered (lost), so the old interval has no end and is
	 * dropped (the store counts it).
	 */
	if (session__verbose(s) >= 2 && (th = pairs__pending(ts->pending, tid, &start)))
		session__warn(s,
			      "%s/%u switched out in %s at %" PRIu64 ", again at %" PRIu64
			      " on CPU %u without a switch-in",
			      th->comm, tid, state_names[th->state], start, smp->time, smp->cpu);
	th = pairs__start(ts->pending, tid, smp->time, smp->cpu);
	if (!th)
		return;
	th->tid = tid;
	th->pid = smp->pid;
	th->wake_time = 0;
	th->state = state;
	memcpy(th->comm, cbuf, sizeof(cbuf));
	th->stack.valid = false;
	if (smp->nr_ips && (ts->than || ts->flame) && sample_copy__save(&th->stack, smp, false))
		ts->failed_alloc = true;
}

static void on_switch_in(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct task_state *ts = priv;
	u64 next_pid;

	(void)ev;
	if (field__u64(&ts->next_pid, smp, &next_pid) || !next_pid)
		return;
	switch_in(s, ts, next_pid, smp->time, smp->cpu);
}

static void on_wakeup(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct task_state *ts = priv;
	struct ts_thread *th;
	u64 pid, start;

	(void)s, (void)ev;
	if (field__u64(&ts->wakeup_pid, smp, &pid))
		return;
	th = pairs__pending(ts->pending, pid, &start);
	/* The first wakeup ends the sleep; later ones are spurious. */
	if (th && !th->wake_time && smp->time >= start)
		th->wake_time = smp->time;
}

/*
 * The kernel's switch-in record comes a few us after sched_switch, from the
 * next task's context.  sched_switch samples taken in some contexts (an
 * idle task, on some virtual machines) are never delivered, so a thread
 * woken on an idle CPU would have no switch-in; the record closes the
 * interval then.  When the tracepoint was seen, it came first and nothing
 * is pending any more.
 * Records arrive for every task on the CPU, unfiltered: a hash lookup is all
 * an untracked thread costs.
 */
static void task_state_switch(struct session *s, void *priv, const struct rec_switch *sw)
{
	struct task_state *ts = priv;

	if (sw->out || !sw->tid || !pairs__pending(ts->pending, sw->tid, NULL))
		return;
	ts->closed_by_record++;
	switch_in(s, ts, sw->tid, sw->time, sw->cpu);
}

/* One sched_switch both ends an interval (next) and starts one (prev). */
static void on_switch(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	on_switch_in(s, priv, ev, smp);
	on_switch_out(s, priv, ev, smp);
}

/* The table, the drops, the notes (stats_note). */
static void print_stats(struct session *s, struct task_state *ts, int when)
{
	struct stats_stamp st;
	union rt_sinks u;
	struct rt_sink *k = stats_stamp__sink(s, &u, &st, &ts->since, when);

	lat_table__emit(ts->table, k);
	if (ts->pending)
		pairs__emit_drops(ts->pending, k, "intervals", NULL, "task-state",
				  "switch-in not seen (neither sched_switch nor a context-switch "
				  "record)");
	if (ts->bpf && session__verbose(s) && ts_bpf__unseen(ts->bpf) > ts->unseen) {
		stats_note(s, "task-state",
			   "%" PRIu64 " switch-ins not traced: their intervals closed at the next "
			   "switch-out, less the time run since",
			   ts_bpf__unseen(ts->bpf) - ts->unseen);
		if (when == STATS_INTERVAL)
			ts->unseen = ts_bpf__unseen(ts->bpf);
	}
	if (ts->failed_alloc)
		stats_note(s, "task-state", "out of memory, some intervals were not counted");
	if (ts->closed_by_record && session__verbose(s))
		stats_note(s, "task-state",
			   "%" PRIu64 " switch-ins taken from context-switch records "
			   "(their sched_switch was not delivered)",
			   ts->closed_by_record);
	fflush(session__out(s));
}

static void reset_stats(struct task_state *ts)
{
	if (ts->table)
		lat_table__reset(ts->table);
	if (ts->pending)
		pairs__reset_counts(ts->pending);
	ts->closed_by_record = 0;
}

static void task_state_interval(struct session *s, void *priv)
{
	struct task_state *ts = priv;

	if (ts->bpf)
		bpf_read(s, ts, true, false);
	print_stats(s, ts, STATS_INTERVAL);
	reset_stats(ts);
	stack_flame__interval(ts->flame, s);
}

static void task_state_snapshot(struct session *s, void *priv)
{
	struct task_state *ts = priv;

	if (ts->bpf)
		bpf_read(s, ts, false, false);
	print_stats(s, priv, STATS_SO_FAR);
}

static void task_state_deinit(struct session *s, void *priv)
{
	struct task_state *ts = priv;
	bool ran = session__started(s);

	if (ran && ts->bpf)
		bpf_read(s, ts, false, true);
	if (ran)
		print_stats(s, ts, STATS_END);
	stack_flame__close(ts->flame, s, "task-state");
	ts->flame = NULL;
	if (ran && session__verbose(s) && ts->pending)
		pairs__print_usage(ts->pending, stderr, "task-state", "thread");
	pairs__delete(ts->pending);
	ts->pending = NULL;
	reset_stats(ts);
	lat_table__delete(ts->table);
	ts->table = NULL;
	ts_bpf__delete(ts->bpf);
	ts->bpf = NULL;
	bpf_stacks__delete(ts->slow_stacks);
	ts->slow_stacks = NULL;
}

static const struct popt task_state_opts[] = {
	{ .lname = "interruptible",
	  .sname = 'S',
	  .help = "TASK_INTERRUPTIBLE (S) sleeps (with -D: S and D; -SD)",
	  .type = POPT_CB,
	  .cb = opt_S },
	{ .lname = "uninterruptible",
	  .sname = 'D',
	  .help = "TASK_UNINTERRUPTIBLE (D) sleeps",
	  .type = POPT_CB,
	  .cb = opt_D },
	{ .lname = "no-interruptible",
	  .help = "leave out S sleeps (of all states, or of -D)",
	  .type = POPT_CB,
	  .cb = opt_no_S },
	{ .lname = "no-uninterruptible",
	  .help = "leave out D sleeps",
	  .type = POPT_CB,
	  .cb = opt_no_D },
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "print intervals longer than TIME (ns/us/ms/s; a bare number is ms)",
	  POPT_BIND_TIME(struct task_state, than, "ms") },
	{ .lname = "perins",
	  .help = "statistics per thread",
	  POPT_BIND_FLAG(struct task_state, perins) },
	{ .lname = "filter",
	  .argname = "COMM,...",
	  .help = "only threads whose comm matches one of these globs (nginx*,php-fpm)",
	  POPT_BIND_STR(struct task_state, filter) },
	{ 0 },
};

const struct profiler prof_task_state = {
	.name = "task-state",
	.needs = (const char *const[]){ "tp:sched:sched_switch", "tp:sched:sched_wakeup",
					"cpu-wide", NULL },
	.desc = "off-CPU analysis: time in S/D/R/... states, run-queue delay, stacks, flame graphs",
	.synopsis = "perf-prof task-state [-S] [-D] [--no-interruptible] [--no-uninterruptible] "
		    "[--than TIME] [--filter COMM[,COMM...]] "
		    "[--perins] [-g [--flame-graph NAME]] [-C CPUS [-- command]] [-i MS]",
	.examples =
		"perf-prof task-state -D --than 100ms -g                   "
		"# who is in D > 100 ms, and where\n"
		"  perf-prof task-state -S --filter 'nginx*' -i 1000         "
		"# nginx's sleeps, each second\n"
		"  perf-prof task-state --filter myapp --perins              # per thread, all "
		"states\n"
		"  perf-prof task-state -g --filter myapp --flame-graph offcpu.svg\n"
		"  perf-prof task-state -C 0-3 -g --flame-graph cmd -- ./cmd args\n"
		"--filter takes comm globs, applied by the kernel to sched_switch and "
		"sched_wakeup.\n"
		"Statistics: one row per state (per thread with --perins): switch-out to "
		"switch-in;\n"
		"'sleep' and 'runq' split it at the wakeup.  R is preempted (run-queue delay).\n"
		"Also named bpf:task-state (the original's BPF profiler's name).",
	.aliases = (const char *const[]){ "bpf:task-state", "bpf:task_state", NULL },
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &ring_group,
						     &output_group, &stack_group, &flame_group,
						     &exclude_tp_group, &prio_group, &bpf_group,
						     NULL },
	.own = task_state_opts,
	.priv_size = sizeof(struct task_state),
	.init = task_state_init,
	.ops = { .interval = task_state_interval, .snapshot = task_state_snapshot },
	.deinit = task_state_deinit,
};
