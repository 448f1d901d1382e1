// SPDX-License-Identifier: GPL-2.0
/*
 * rundelay: scheduling delay, from the moment a thread may run to the
 * moment it runs.  Three starts, each ended by the thread's switch-in
 * (sched_switch's next_pid, or the kernel's switch-in record when that
 * sample is not delivered):
 *   wakeup      the first sched_wakeup after it was seen switching out
 *               asleep (S, D: a wakeup of a thread whose sleep began before
 *               the monitor, or a second one, is not a start)
 *   wakeup_new  sched_wakeup_new: a new thread
 *   preempted   a switch-out in state R (its whole wait is run-queue delay)
 * These are task-state's runq split and its R row on the same run.
 * --filter COMM,... (globs) filters in the kernel; -p/-t/-- choose the
 * threads among every CPU's switches.  The latency engine is
 * analysis/latency/multipoint.h.
 *
 * On the BPF back end (by default where the host and the request allow
 * it: analysis/latency/rundelay_bpf.h) the kernel does the same counting
 * and only the table's rows come up, read at each interval and at the end
 * into the same multipoint table; with --than the delays over it come up
 * too, both events' records rebuilt in the kernel (rundelay_slow.c),
 * printed by multipoint as the ring path's samples.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/multipoint.h"
#include "analysis/latency/multipoint_ev.h"
#include "analysis/latency/pairs.h"
#include "analysis/latency/rundelay_bpf.h"
#include "analysis/cpu/prio.h"
#include "engine/bpf.h"
#include "engine/kfilter.h"
#include "expr/expr.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/stats_table.h"
#include "sym/stack.h"

enum { P_WAKEUP, P_WAKEUP_NEW, P_PREEMPT, P_SWITCH_IN, NR_P };

#define PREV_STATE_PREEMPT 0x100 /* "R+": switched out by preemption */
#define PREV_STATE_DEAD 0x30	 /* EXIT_DEAD | EXIT_ZOMBIE */

struct rundelay {
	const char *filter; /* --filter COMM globs */
	struct multipoint *mt;
	struct pairs *asleep; /* threads seen switching out asleep, not woken yet */
	struct evsel *sw, *wk, *wk_new;
	/* the original's -e spelling: which starts, the events' own filters, untraced events */
	bool no_wk, no_wk_new, no_preempt;
	const char *sw_filter[2], *wk_filter, *wk_new_filter;
	struct field prev_pid, prev_state, prev_comm, next_pid, wk_pid, wk_new_pid, prev_prio;
	const struct prio_opts *prio; /* --prio, or NULL */
	/*
	 * The -e filters of sched_switch's two roles, checked on their own
	 * side in user space: the kernel keeps a switch either one passes.
	 */
	const char *sw_uf_text[2];
	struct expr *sw_uf[2];
	u64 closed_by_record;
	struct rd_bpf *bpf; /* the BPF back end, or NULL: the ring path */
	int bpf_err;	    /* reading its maps failed (said once) */
};

static void rd_row(void *arg, const struct multipoint_pair *p, struct multipoint_row *row)
{
	static const char *const labels[] = { "wakeup => switch-in", "wakeup_new => switch-in",
					      "preempted => switch-in" };

	(void)arg;
	row->key = (u64)p->from;
	row->group = p->from;
	snprintf(row->label, sizeof(row->label), "%s", labels[p->from]);
}

static int add_events(struct session *s, struct rundelay *rd)
{
	char *prev = kfilter__comm_globs("prev_comm", rd->filter);
	char *next = kfilter__comm_globs("next_comm", rd->filter);
	char *wk = kfilter__comm_globs("comm", rd->filter);
	char *sw = NULL;
	int err = -ENOMEM;
	bool stacks = session__stacks_for_all(s); /* -g: the slow pairs' events' stacks */

	/* --prio: the kernel keeps the records of threads with a kept priority */
	if (prev && next && wk &&
	    !(rd->prio &&
	      (prio__and(&prev, rd->prio, "prev_prio") || prio__and(&next, rd->prio, "next_prio") ||
	       prio__and(&wk, rd->prio, "prio"))))
		sw = kfilter__or(prev, next);

	if (!prev || !next || !wk || !sw) {
		if (errno == EINVAL)
			err = session__usage_err(s,
						 "--filter '%s': give COMM globs without quotes, "
						 "parentheses, & or |",
						 rd->filter);
		else
			session__set_err(s, err, "out of memory");
		goto out;
	}
	err = -EINVAL;
	if (rd->sw_filter[0] && rd->sw_filter[1]) { /* one event for both ends: either's */
		free(sw);
		sw = kfilter__or(rd->sw_filter[0], rd->sw_filter[1]);
	}
	rd->sw = session__add_tp(
		s, "sched", "sched_switch",
		&(struct evsel_conf){ .filter = sw && *sw ? sw : NULL, .callchain = stacks });
	if (!rd->no_wk && rd->sw) {
		const char *f = rd->wk_filter ? rd->wk_filter : *wk ? wk : NULL;

		rd->wk = session__add_tp(s, "sched", "sched_wakeup",
					 &(struct evsel_conf){ .filter = f, .callchain = stacks });
		if (!rd->wk)
			goto out;
	}
	if (!rd->no_wk_new && rd->sw) {
		const char *f = rd->wk_new_filter ? rd->wk_new_filter : *wk ? wk : NULL;

		rd->wk_new =
			session__add_tp(s, "sched", "sched_wakeup_new",
					&(struct evsel_conf){ .filter = f, .callchain = stacks });
		if (!rd->wk_new)
			goto out;
	}
	if (!rd->sw)
		goto out;
	if (evsel__field(rd->sw, "prev_pid", &rd->prev_pid) ||
	    evsel__field(rd->sw, "prev_state", &rd->prev_state) ||
	    evsel__field(rd->sw, "prev_comm", &rd->prev_comm) ||
	    evsel__field(rd->sw, "next_pid", &rd->next_pid) ||
	    (rd->wk && evsel__field(rd->wk, "pid", &rd->wk_pid)) ||
	    (rd->wk_new && evsel__field(rd->wk_new, "pid", &rd->wk_new_pid)) ||
	    (rd->prio && evsel__field(rd->sw, "prev_prio", &rd->prev_prio))) {
		err = session__set_err(s, -EINVAL,
				       "sched_switch or sched_wakeup lacks a field it needs "
				       "(prev_pid, prev_state, prev_comm, next_pid, pid)");
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		char msg[256];

		if (!rd->sw_uf_text[i])
			continue;
		rd->sw_uf[i] = expr__compile_filter(rd->sw_uf_text[i], rd->sw, msg, sizeof(msg));
		if (!rd->sw_uf[i]) {
			err = session__usage_err(s, "-e sched:sched_switch/%s/: %s",
						 rd->sw_uf_text[i], msg);
			goto out;
		}
	}
	err = 0;
out:
	free(prev);
	free(next);
	free(wk);
	free(sw);
	return err;
}

/* Whether @sp names the sched tracepoint @name (a glob such as sched:sched_wakeup* may). */
static bool names(const struct ev_spec *sp, const char *name)
{
	return sp->probe == EV_TP && !fnmatch(sp->sys, "sched", 0) && !fnmatch(sp->name, name, 0);
}

/*
 * The original's spelling: -e WAKEUPS,sched:sched_switch//key=prev_pid/
 * -e sched:sched_switch//key=next_pid/ -k pid, the same three starts and
 * end as the default; a start left out of the first -e is not measured,
 * the events' filters are the kernel's (the switch opens once: its filter
 * is either position's), and untraced events are seen by --detail only.
 */
static int rd_events(struct session *s, struct rundelay *rd, const struct event_opts *eo,
		     const struct key_opts *ko)
{
	bool wk = false, wk_new = false, sw0 = false, sw1 = false;
	int pt[EV_MAX_POS];

	if (multipoint_ev__points(eo, pt) != 2)
		return session__usage_err(s, "rundelay -e: give two, -e sched:sched_wakeup,"
					     "sched:sched_wakeup_new,sched:sched_switch -e "
					     "sched:sched_switch (the starts, then the end)");
	if (ko && ko->expr && strcmp(ko->expr, "pid") && strcmp(ko->expr, "common_pid"))
		return session__usage_err(s,
					  "-k '%s': rundelay keys every event by its thread "
					  "(-k pid, as the original)",
					  ko->expr);
	if (rd->filter)
		for (int i = 0; i < eo->nr_specs; i++)
			if (eo->specs[i].filter)
				return session__usage_err(
					s, "give --filter or filters on -e, not both");
	for (int i = 0; i < eo->nr_specs; i++) {
		const struct ev_spec *sp = &eo->specs[i];
		const char *key = evspec__attr(sp, "key");
		bool hit = false;
		int at;

		if (evspec__attr(sp, "untraced"))
			continue; /* added as it is, for --detail */
		at = pt[sp->pos];
		if (at == 0 && names(sp, "sched_wakeup")) {
			hit = wk = true;
			rd->wk_filter = sp->filter;
			if (key && strcmp(key, "pid"))
				goto bad_key;
		}
		if (at == 0 && names(sp, "sched_wakeup_new")) {
			hit = wk_new = true;
			rd->wk_new_filter = sp->filter;
			if (key && strcmp(key, "pid"))
				goto bad_key;
		}
		if (names(sp, "sched_switch")) {
			hit = true;
			*(at ? &sw1 : &sw0) = true;
			rd->sw_filter[at] = sp->filter;
			if (key && strcmp(key, at ? "next_pid" : "prev_pid"))
				goto bad_key;
		}
		if (!hit)
			return session__usage_err(
				s,
				"-e %s: rundelay measures sched_wakeup, sched_wakeup_new and "
				"sched_switch (other events: add untraced, for --detail)",
				sp->text);
		continue;
	bad_key:
		return session__usage_err(s,
					  "-e %s: key=%s: rundelay keys each event by its thread "
					  "(sched_switch: prev_pid, then next_pid; wakeups: pid)",
					  sp->text, key);
	}
	if (!sw1)
		return session__usage_err(s,
					  "rundelay -e: the second -e must be sched:sched_switch "
					  "(the switch-in that ends the delay)");
	if (!wk && !wk_new && !sw0)
		return session__usage_err(
			s, "rundelay -e: the first -e names no start "
			   "(sched:sched_wakeup, sched:sched_wakeup_new, sched:sched_switch)");
	rd->sw_uf_text[0] = rd->sw_filter[0];
	rd->sw_uf_text[1] = rd->sw_filter[1];
	if ((rd->sw_filter[0] != NULL) != (rd->sw_filter[1] != NULL))
		rd->sw_filter[0] = rd->sw_filter[1] = NULL; /* one side unfiltered: every switch */
	rd->no_wk = !wk;
	rd->no_wk_new = !wk_new;
	rd->no_preempt = !sw0;
	return 0;
}

/* The untraced events of -e: seen by --detail timelines only. */
static int rd_untraced(struct session *s, const struct event_opts *eo)
{
	for (int i = 0; eo && i < eo->nr_specs; i++)
		if (evspec__attr(&eo->specs[i], "untraced")) {
			int n = session__add_spec(s, &eo->specs[i], &(struct evsel_conf){ 0 });

			if (n < 0)
				return n;
		}
	return 0;
}

static void on_switch(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
static void on_wakeup(struct session *s, void *priv, struct evsel *ev, struct sample *smp);
static void on_wakeup_new(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static void rd_switch(struct session *s, void *priv, const struct rec_switch *sw);
static const struct session_ops rd_ring_ops = { .context_switch = rd_switch };
static void rd_snapshot(struct session *s, void *priv);

/*
 * The BPF back end for this request: 1 (rd->bpf set), 0 (the ring path,
 * said under -v), or -errno (--bpf and it cannot: a usage error).
 */
static int rd_try_bpf(struct session *s, struct rundelay *rd, const struct opt_set *opts,
		      const struct event_opts *eo)
{
	const struct lat_opts *lat = opt_set__get(opts, &lat_group);
	struct bpf_back *b;
	char why[256] = "";
	int err, mark;

	const struct capture_opts *cap = session__conf(s)->capture;

	if (lat && lat->detail)
		return bpf_back__fallback(s, opts,
					  "rundelay --detail: every event between the two ends "
					  "is read from the ring buffer");
	/*
	 * (user frames in code that is no file, a JIT's, resolve on the ring
	 * path only: its anonymous maps are not found for a record copied out)
	 */
	if (lat && lat->than && session__stacks_for_all(s) && (cap->cg != CG_FP || !cap->no_user))
		return bpf_back__fallback(
			s, opts,
			"rundelay -g with --than: user stacks are read from the "
			"ring buffer (--kernel-stack: kernel stacks copied out of "
			"the kernel)");
	if (rd->prio)
		return bpf_back__fallback(s, opts, "rundelay --prio is not compiled");
	/* (-N, --sampling-limit, --perfeval-*: bpf_back__get says the ring path) */
	for (int i = 0; eo && i < eo->nr_specs; i++)
		if (eo->specs[i].filter)
			return bpf_back__fallback(s, opts,
						  "rundelay -e %s: event filters are not "
						  "compiled",
						  eo->specs[i].text);
	err = bpf_back__get(s, opts, &b);
	if (err <= 0)
		return err;
	mark = bpf_back__mark(b);
	err = rd_bpf__new(b,
			  &(struct rd_bpf_conf){ .no_wakeup = rd->no_wk,
						 .no_wakeup_new = rd->no_wk_new,
						 .no_preempt = rd->no_preempt,
						 .perins = lat && lat->perins,
						 .filter = rd->filter,
						 .entries = bpf_back__entries(opts),
						 .than = lat ? lat->than : 0,
						 .heatmap = lat && lat->heatmap,
						 .s = s },
			  &rd->bpf, why, sizeof(why));
	if (err) /* (what was asked to be attached, the target followers too: not attached) */
		bpf_back__rollback(b, mark);
	if (err == -EOPNOTSUPP)
		return bpf_back__fallback(s, opts, "rundelay: %s", why);
	if (err && why[0])
		return session__set_err(s, err, "rundelay: %s", why);
	if (err) /* (the map's or the memory's message is set) */
		return session__strerror(s) ? err : session__set_err(s, err, "out of memory");
	session__notice(s, "the BPF back end (%s programs)", rd_bpf__how(rd->bpf));
	/* (and without -i, the maps read as it goes: the idle rows taken out) */
	err = bpf_back__on_read(b, rd_snapshot, rd);
	return err ? err : 1;
}

static int rd_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *eo = opt_set__get(opts, &event_group);
	struct rundelay *rd = priv;
	int err, bpf;

	if (rd->filter && !kfilter__globs_ok(rd->filter))
		return session__usage_err(s,
					  "--filter '%s': give COMM globs without quotes, "
					  "parentheses, & or | ([^...] is not a kernel glob)",
					  rd->filter);
	rd->prio = opt_set__get(opts, &prio_group);
	if (rd->prio && !rd->prio->set)
		rd->prio = NULL;
	if (eo && eo->nr_specs && (err = rd_events(s, rd, eo, opt_set__get(opts, &key_group))))
		return err;
	/*
	 * A thread's switch-in and wakeup come from other tasks, on any CPU.
	 * Said before the BPF back end builds its targets: -p then means the
	 * process's threads, not what it creates (without --inherit), as on
	 * the ring path.
	 */
	session__want_cpu_wide(s);
	bpf = rd_try_bpf(s, rd, opts, eo);
	if (bpf < 0)
		return bpf;
	if (!bpf) {
		session__want_order(s);
		session__want_pages(s, 512);
	}
	rd->mt = multipoint__new(
		s, &(struct multipoint_conf){
			   .who = "rundelay",
			   .nr_points = NR_P,
			   .lat = opt_set__get(opts, &lat_group),
			   .key_title = "TID",
			   .row_title = "START => END",
			   .json_row = "pair",
			   .row_width = 24,
			   .row = rd_row,
			   .ends = { 1u << P_SWITCH_IN, 1u << P_SWITCH_IN, 1u << P_SWITCH_IN },
			   .exit_forgets = true,
			   .see_by_thread = true, /* samekey: the events the thread raised itself */
		   });
	if (!rd->mt)
		return -EINVAL;
	multipoint__name(rd->mt, P_WAKEUP, "sched:sched_wakeup", "sched_wakeup");
	multipoint__name(rd->mt, P_WAKEUP_NEW, "sched:sched_wakeup_new", "sched_wakeup_new");
	multipoint__name(rd->mt, P_PREEMPT, "sched:sched_switch", "sched_switch");
	multipoint__name(rd->mt, P_SWITCH_IN, "sched:sched_switch", "sched_switch");
	if (bpf) {
		rd_bpf__print_to(rd->bpf, rd->mt);
		return multipoint__ready(rd->mt, s);
	}
	if (session__add_ops(s, &rd_ring_ops, rd))
		return -ENOMEM;
	rd->asleep = pairs__new(&(struct pairs_conf){ .max_keys = MULTIPOINT_MAX_KEYS });
	if (!rd->asleep)
		return session__set_err(s, -ENOMEM, "out of memory");
	if (pairs__add_hooks(rd->asleep, s))
		return -ENOMEM;
	err = add_events(s, rd) ?: rd_untraced(s, eo);
	if (err)
		return err;
	evsel__set_handler(rd->sw, on_switch, rd);
	if (rd->wk)
		evsel__set_handler(rd->wk, on_wakeup, rd);
	if (rd->wk_new)
		evsel__set_handler(rd->wk_new, on_wakeup_new, rd);
	return multipoint__ready(rd->mt, s);
}

/* @tid runs from @time on: whatever it waited for ends. */
static void switch_in(struct session *s, struct rundelay *rd, u32 tid, struct evsel *ev,
		      const struct sample *smp, u64 time)
{
	pairs__cancel(rd->asleep, tid);
	for (int k = P_WAKEUP; k < P_SWITCH_IN; k++)
		if (multipoint__end(rd->mt, s, k, P_SWITCH_IN, tid, ev, smp, time))
			break;
}

static bool comm_ok(struct rundelay *rd, const struct sample *smp)
{
	const char *comm;
	char buf[16];
	int len;

	if (!rd->filter)
		return true;
	comm = field__str(&rd->prev_comm, smp, &len);
	if (!comm || len <= 0)
		return false;
	snprintf(buf, sizeof(buf), "%.*s", len, comm);
	return kfilter__comm_match(rd->filter, buf);
}

/* --prio: the thread leaving has a kept priority (the kernel kept the record for either side) */
static bool prio_ok(struct rundelay *rd, const struct sample *smp)
{
	u64 prio;

	return !rd->prio ||
	       (!field__u64(&rd->prev_prio, smp, &prio) && prio__has(rd->prio, (long long)prio));
}

/* Whether @smp passes the -e filter of sched_switch's role @at (0: prev, 1: next). */
static bool role_ok(struct session *s, struct rundelay *rd, int at, const struct sample *smp)
{
	return !rd->sw_uf[at] ||
	       expr__match(rd->sw_uf[at], &(struct expr_ctx){ .smp = smp, .session = s });
}

static void on_switch(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct rundelay *rd = priv;
	u64 prev, state, next;

	if (!field__u64(&rd->next_pid, smp, &next) && next && role_ok(s, rd, 1, smp))
		switch_in(s, rd, (u32)next, ev, smp, 0);
	if (field__u64(&rd->prev_pid, smp, &prev) || !prev ||
	    field__u64(&rd->prev_state, smp, &state))
		return;
	if (state & PREV_STATE_DEAD) {
		pairs__forget(rd->asleep, prev);
		multipoint__forget(rd->mt, prev);
		return;
	}
	if (!session__is_target(s, smp->pid, (u32)prev) || !comm_ok(rd, smp) || !prio_ok(rd, smp) ||
	    !role_ok(s, rd, 0, smp))
		return;
	if (!state || (state & PREV_STATE_PREEMPT)) {
		if (!rd->no_preempt)
			multipoint__start(rd->mt, s, P_PREEMPT, prev, ev, smp);
	} else
		pairs__start(rd->asleep, prev, smp->time, smp->cpu);
}

/* The first wakeup since it was seen falling asleep. */
static void on_wakeup(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct rundelay *rd = priv;
	u64 pid, start;

	if (field__u64(&rd->wk_pid, smp, &pid) || !pairs__pending(rd->asleep, pid, &start) ||
	    smp->time < start)
		return;
	pairs__cancel(rd->asleep, pid);
	multipoint__start(rd->mt, s, P_WAKEUP, pid, ev, smp);
}

static void on_wakeup_new(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct rundelay *rd = priv;
	u64 pid;

	if (field__u64(&rd->wk_new_pid, smp, &pid))
		return;
	/* a new process is its own target; a new thread is its creator's */
	if (session__is_target(s, (u32)pid, (u32)pid) || session__is_target(s, smp->pid, (u32)pid))
		multipoint__start(rd->mt, s, P_WAKEUP_NEW, pid, ev, smp);
}

/*
 * The switch-in record closes what the sched_switch sample would have: on
 * some VMs samples raised in an idle CPU's context are never delivered.
 * When the sample came, it was first, and nothing is pending any more.
 */
static void rd_switch(struct session *s, void *priv, const struct rec_switch *sw)
{
	struct rundelay *rd = priv;

	if (sw->out || !sw->tid)
		return;
	for (int k = P_WAKEUP; k < P_SWITCH_IN; k++)
		if (multipoint__pending(rd->mt, k, sw->tid, NULL)) {
			rd->closed_by_record++;
			break;
		}
	switch_in(s, rd, sw->tid, NULL, NULL, sw->time);
}

/* BPF: what the maps gained since the last read, added to the table (bpf_lat__read's @flags). */
static void rd_fill(struct session *s, struct rundelay *rd, unsigned flags)
{
	int err;

	if (!rd->bpf || !rd->mt)
		return;
	err = rd_bpf__fill(rd->bpf, rd->mt, flags);
	if (err && !rd->bpf_err) {
		rd->bpf_err = err;
		session__warn(s, "rundelay: reading the BPF maps: %s", strerror(-err));
	}
}

/* (before multipoint's hooks, which print the table) */
static void rd_interval(struct session *s, void *priv)
{
	rd_fill(s, priv, BPF_LAT_NEXT_INTERVAL);
}

static void rd_snapshot(struct session *s, void *priv)
{
	rd_fill(s, priv, 0);
}

static void rd_deinit(struct session *s, void *priv)
{
	struct rundelay *rd = priv;

	for (int i = 0; i < 2; i++) {
		expr__free(rd->sw_uf[i]);
		rd->sw_uf[i] = NULL;
	}

	if (rd->mt && session__started(s)) {
		if (rd->bpf) {
			rd_fill(s, rd, BPF_LAT_LAST);
			multipoint__add_open(rd->mt, rd_bpf__open(rd->bpf));
			rd->closed_by_record = rd_bpf__unseen(rd->bpf);
		}
		multipoint__finish(rd->mt, s);
		if (session__verbose(s) && rd->closed_by_record) /* --json: on stderr */
			stats_note(s, "rundelay",
				   rd->bpf ? "%llu switch-ins not traced, closed from their "
					     "sched_info.run_delay"
					   : "%llu switch-ins seen only as switch records",
				   (unsigned long long)rd->closed_by_record);
	}
	multipoint__delete(rd->mt);
	rd->mt = NULL;
	pairs__delete(rd->asleep);
	rd->asleep = NULL;
	rd_bpf__delete(rd->bpf);
	rd->bpf = NULL;
}

static const char *const rd_attrs[] = { "key", "untraced", NULL };

static const struct popt rd_opts[] = {
	{ .lname = "filter",
	  .argname = "COMM[,COMM...]",
	  .help = "only threads whose comm matches one of these globs (in the kernel)",
	  POPT_BIND_STR(struct rundelay, filter) },
	{ 0 },
};

const struct profiler prof_rundelay = {
	.name = "rundelay",
	.needs = (const char *const[]){ "tp:sched:sched_switch", "tp:sched:sched_wakeup",
					"tp:sched:sched_wakeup_new", "cpu-wide", NULL },
	.desc = "scheduling delay: from wakeup or preemption to switch-in, per thread",
	.synopsis = "perf-prof rundelay [-e STARTS -e sched:sched_switch [-k pid]] "
		    "[--filter COMM,...] [--than TIME [-g]] [--perins] "
		    "[--hist] [-i MS] [-C CPUS|-p PID|-t TID|-- CMD]",
	.examples = "perf-prof rundelay --than 10ms -i 1000\n"
		    "  perf-prof rundelay --filter 'java,qemu*' --perins --hist\n"
		    "  perf-prof rundelay -p 1234\n"
		    "  perf-prof rundelay -e sched:sched_wakeup,sched:sched_wakeup_new,"
		    "sched:sched_switch//key=prev_pid/ -e sched:sched_switch//key=next_pid/ -k pid "
		    "-p 1234",
	.groups = (const struct opt_group *const[]){ &event_group, &key_group, &lat_group,
						     &target_group, &run_group, &ring_group,
						     &output_group, &stack_group, &exclude_tp_group,
						     &prio_group, &bpf_group, NULL },
	.own = rd_opts,
	.ev_attrs = rd_attrs,
	.priv_size = sizeof(struct rundelay),
	.init = rd_init,
	.ops = { .interval = rd_interval, .snapshot = rd_snapshot },
	.deinit = rd_deinit,
};
