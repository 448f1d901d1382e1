// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls: system call latency, perf trace -s style.  raw_syscalls's
 * sys_enter opens a pair under the thread, sys_exit closes it; one row per
 * syscall (per thread too with --perins) with the shared latency columns
 * and the errors (negative returns).  A thread that exits inside exit or
 * exit_group closes its pair at its exit; any other pair a task leaves
 * open is dropped and counted.  The latency engine is analysis/latency/multipoint.h.
 *
 * On the BPF back end (the default where the host allows it) the pairing
 * and the table are in the kernel: raw tracepoints sys_enter and sys_exit,
 * a start (time, syscall) per thread in a hash map updated in place, the
 * rows in analysis/latency/bpf_lat.h's maps, read at each interval and at
 * the end into the same table; sched_process_exit closes exit and
 * exit_group and forgets the thread.  With --than the calls over the
 * threshold are copied out of the kernel with both events' contents (and
 * stacks with -g) and printed as the ring path prints them (syscalls_bpf.c).
 * --heatmap's times are copied out too.  What needs each call in user
 * space (--detail, -e filters) goes the ring path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/bpf_stack.h"
#include "analysis/latency/multipoint.h"
#include "analysis/latency/multipoint_ev.h"
#include "expr/expr.h"
#include "engine/bpf.h"
#include "engine/kfilter.h"
#include "profiler.h"
#include "report/outfile.h"
#include "sym/stack.h"
#include "util/list.h"

#include "prof/syscalls_int.h"

const char *syscall_label(u64 nr, char *buf, size_t len)
{
	const char *name = expr__syscall_name(nr);

	if (name)
		return name;
	snprintf(buf, len, "syscall_%llu", (unsigned long long)nr);
	return buf;
}

static void sc_row(void *arg, const struct multipoint_pair *p, struct multipoint_row *row)
{
	struct syscalls *sc = arg;
	u64 ret = 0;

	row->key = p->data[0];
	row->group = 0;
	char buf[32];

	snprintf(row->label, sizeof(row->label), "%s", syscall_label(p->data[0], buf, sizeof(buf)));
	if (p->end_smp && !field__u64(&sc->ret, p->end_smp, &ret))
		row->mark = (long long)ret < 0 && (long long)ret >= -4095;
}

unsigned long syscall_nr(const char *n)
{
	char *end;
	unsigned long nr = strtoul(n, &end, 10);
	const char *name;

	if (*end || end == n || *n < '0' || *n > '9') {
		for (nr = 0; nr < MAX_NR; nr++)
			if ((name = expr__syscall_name(nr)) && !strcmp(name, n))
				break;
	}
	return nr >= MAX_NR ? MAX_NR : nr;
}

/* --syscall: a list (util/list.h) of x86-64 syscalls (names or numbers), checked before anything runs. */
static int opt_syscall(void *data, const char *arg, char *err, size_t errlen)
{
	struct syscalls *sc = data;
	char **items;
	int nr;

	if (list__split(arg, "syscall", &items, &nr, err, errlen))
		return -1;
	for (int i = 0; i < nr; i++)
		if (syscall_nr(items[i]) == MAX_NR) {
			snprintf(err, errlen, "--syscall: '%s' is not a syscall of this machine",
				 items[i]);
			free(items);
			return -1;
		}
	free(items);
	sc->names = arg;
	return 0;
}

/* "id == 1 || id == 2" of --syscall's names (checked by opt_syscall); NULL with the error set. */
static char *id_filter(struct session *s, const char *names)
{
	char **items = NULL, *f = NULL, err[256];
	size_t len = 0;
	FILE *m;
	int nr;

	if (list__split(names, "syscall", &items, &nr, err, sizeof(err))) {
		session__usage_err(s, "%s", err);
		return NULL;
	}
	m = open_memstream(&f, &len);
	if (!m) {
		free(items);
		session__set_err(s, -ENOMEM, "out of memory");
		return NULL;
	}
	for (int i = 0; i < nr; i++)
		fprintf(m, "%sid == %lu", i ? " || " : "", syscall_nr(items[i]));
	free(items);
	if (fclose(m)) {
		free(f);
		session__set_err(s, -ENOMEM, "out of memory");
		return NULL;
	}
	return f;
}

/*
 * The original's spelling: -e raw_syscalls:sys_enter[/FILTER/] -e
 * raw_syscalls:sys_exit[/FILTER/] [-k common_pid], the same pairs as the
 * default; the events' filters are the kernel's, untraced events are seen by
 * --detail only.  0 with the two specs set, or the usage error.
 */
static int sc_events(struct session *s, struct syscalls *sc, const struct event_opts *eo,
		     const struct key_opts *ko, struct ev_spec **enter, struct ev_spec **exit)
{
	static const char *const want[2] = { "sys_enter", "sys_exit" };
	int pt[EV_MAX_POS];

	if (multipoint_ev__points(eo, pt) != 2)
		return session__usage_err(s, "syscalls -e: give two, -e raw_syscalls:sys_enter "
					     "-e raw_syscalls:sys_exit");
	if (ko && ko->expr && strcmp(ko->expr, "common_pid"))
		return session__usage_err(s,
					  "-k '%s': syscalls pairs each sys_exit with its "
					  "thread's sys_enter (-k common_pid, as the original)",
					  ko->expr);
	for (int i = 0; i < eo->nr_specs; i++) {
		struct ev_spec *sp = &eo->specs[i];
		const char *key = evspec__attr(sp, "key");

		if (evspec__attr(sp, "untraced"))
			continue;
		if (sp->probe != EV_TP || strcmp(sp->sys, "raw_syscalls") ||
		    strcmp(sp->name, want[pt[sp->pos]]) || (pt[sp->pos] ? *exit : *enter))
			return session__usage_err(s,
						  "-e %s: the %s -e of syscalls is "
						  "raw_syscalls:%s (other events: add untraced, "
						  "for --detail)",
						  sp->text, pt[sp->pos] ? "second" : "first",
						  want[pt[sp->pos]]);
		if (key && strcmp(key, "common_pid"))
			return session__usage_err(s,
						  "-e %s: key=%s: syscalls pairs by thread "
						  "(key=common_pid)",
						  sp->text, key);
		if (sp->filter && sc->names)
			return session__usage_err(s, "give --syscall or filters on -e, not both");
		*(pt[sp->pos] ? exit : enter) = sp;
	}
	if (!*enter || !*exit)
		return session__usage_err(s, "syscalls -e: give -e raw_syscalls:sys_enter "
					     "-e raw_syscalls:sys_exit");
	return 0;
}

/* An event of syscalls: the -e spec's (its filter, or @c's), or raw_syscalls:@name. */
static struct evsel *sc_add(struct session *s, struct syscalls *sc, int at, struct ev_spec *sp,
			    const char *name, const struct evsel_conf *c)
{
	struct evsel *last = NULL;

	if (!sp)
		return session__add_tp(s, "raw_syscalls", name, c);
	/*
	 * The -e filter and ours (not perf-prof's own syscalls) both hold.
	 * The event keeps its spec: the copy lives in @sc, as long as the run.
	 */
	if (sp->filter && c->filter) {
		sc->both_filter[at] = kfilter__and(c->filter, sp->filter);
		if (!sc->both_filter[at]) {
			session__set_err(s, -ENOMEM, "out of memory");
			return NULL;
		}
		sc->both[at] = *sp;
		sc->both[at].filter = sc->both_filter[at];
		sp = &sc->both[at];
	}
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
		last = ev;
	if (session__add_spec(s, sp, c) < 0)
		return NULL;
	for (struct evsel *ev = last ? last->next : session__evsels(s); ev; ev = ev->next)
		last = ev;
	return last;
}

/* sys_enter opens the pair of its thread, with the syscall's number. */
static void sc_enter_ev(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct syscalls *sc = priv;
	u64 id, *data;

	if (field__u64(&sc->enter_id, smp, &id))
		return;
	if ((data = multipoint__start(sc->mt, s, 0, smp->tid, ev, smp)))
		data[0] = id;
}

/* sys_exit closes it. */
static void sc_exit_ev(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct syscalls *sc = priv;
	u64 id, *pending;

	/* an exit of another syscall than the pending one: its enter was not seen */
	if (!field__u64(&sc->exit_id, smp, &id) &&
	    (pending = multipoint__pending(sc->mt, 0, smp->tid, NULL)) && pending[0] != id) {
		multipoint__cancel(sc->mt, 0, smp->tid);
		return;
	}
	multipoint__end(sc->mt, s, 0, 1, smp->tid, ev, smp, 0);
}

static int sc_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *eo = opt_set__get(opts, &event_group);
	struct ev_spec *sp_enter = NULL, *sp_exit = NULL;
	const struct target_opts *t = session__conf(s)->target;
	struct syscalls *sc = priv;
	struct evsel_conf c = { .callchain = session__stacks_for_all(s) };
	char *ids = NULL, *filter = NULL;
	int err = -EINVAL;

	if (eo && eo->nr_specs &&
	    (err = sc_events(s, sc, eo, opt_set__get(opts, &key_group), &sp_enter, &sp_exit)))
		return err;
	err = -EINVAL;
	if (sc->names && !(ids = id_filter(s, sc->names)))
		return -EINVAL;
	if ((err = sc_bpf(s, sc, opts, eo)) < 0)
		goto out;
	sc->on_bpf = err == 1;
	err = -EINVAL;
	if (sc->on_bpf) {
		/* no events: the programs' raw tracepoints */
	} else if (!t->nr_pids && !t->nr_tids && !t->argv) {
		/* system-wide: not perf-prof's own reads and polls */
		if (asprintf(&filter, "%s%s%scommon_pid != %d", ids ? "(" : "", ids ? ids : "",
			     ids ? ") && " : "", (int)getpid()) < 0) {
			filter = NULL;
			err = session__set_err(s, -ENOMEM, "out of memory");
			goto out;
		}
		c.filter = filter;
	} else {
		c.filter = ids;
	}
	/* a thread's syscall may end on another CPU */
	if (!sc->on_bpf)
		session__want_order(s);
	sc->mt = multipoint__new(s, &(struct multipoint_conf){
					    .who = "syscalls",
					    .nr_points = 2,
					    .lat = opt_set__get(opts, &lat_group),
					    .key_title = "TID",
					    .row_title = "SYSCALL",
					    .row_width = 24,
					    .mark_title = "errors",
					    .json_row = "syscall",
					    .row = sc_row,
					    .arg = sc,
					    .see_by_thread = true,
				    });
	if (!sc->mt)
		goto out;
	multipoint__name(sc->mt, 0, "raw_syscalls:sys_enter", "sys_enter");
	multipoint__name(sc->mt, 1, "raw_syscalls:sys_exit", "sys_exit");
	if (sc->on_bpf) {
		/* no samples: the task records (exits, names) and the targets' lifetime */
		if (!session__add_event(s, &(struct evsel_conf){ .type = PERF_TYPE_SOFTWARE,
								 .config = PERF_COUNT_SW_DUMMY,
								 .name = "dummy" }))
			goto out;
		err = multipoint__ready(sc->mt, s);
		goto out;
	}
	sc->enter = sc_add(s, sc, 0, sp_enter, "sys_enter", &c);
	sc->exit = sc->enter ? sc_add(s, sc, 1, sp_exit, "sys_exit", &c) : NULL;
	if (!sc->enter || !sc->exit)
		goto out;
	evsel__set_handler(sc->enter, sc_enter_ev, sc);
	evsel__set_handler(sc->exit, sc_exit_ev, sc);
	for (int i = 0; eo && i < eo->nr_specs; i++) /* for --detail */
		if (evspec__attr(&eo->specs[i], "untraced") &&
		    session__add_spec(s, &eo->specs[i], &(struct evsel_conf){ 0 }) < 0)
			goto out;
	if (evsel__field(sc->enter, "id", &sc->enter_id) ||
	    evsel__field(sc->exit, "id", &sc->exit_id) || evsel__field(sc->exit, "ret", &sc->ret)) {
		err = session__set_err(s, -EINVAL, "raw_syscalls lacks a field it needs (id, ret)");
		goto out;
	}
	err = multipoint__ready(sc->mt, s);
out:
	free(ids);
	free(filter);
	return err;
}

static void sc_exit(struct session *s, void *priv, const struct rec_task *t)
{
	struct syscalls *sc = priv;
	u64 *pending = multipoint__pending(sc->mt, 0, t->tid, NULL);
	const char *name = pending ? expr__syscall_name(pending[0]) : NULL;

	/*
	 * --perins on BPF: the thread's rows leave the maps at the next read,
	 * made every reap_every exits (a read adds to the table: the same report)
	 */
	if (sc->on_bpf && sc->perins) {
		if (bpf_lat__forget(sc->lat, t->tid))
			session__warn(s,
				      "out of memory: the rows of thread %d stay in the BPF maps",
				      (int)t->tid);
		else if (++sc->forgot >= sc->reap_every)
			sc_bpf_read(s, sc, 0);
	}
	/* exit and exit_group never return: the task's exit ends them */
	if (name && (!strcmp(name, "exit") || !strcmp(name, "exit_group")))
		multipoint__end(sc->mt, s, 0, 1, t->tid, NULL, NULL, t->time);
	else
		multipoint__forget(sc->mt, t->tid);
}

static void sc_deinit(struct session *s, void *priv)
{
	struct syscalls *sc = priv;

	if (sc->on_bpf && sc->mt && session__started(s)) {
		sc_bpf_read(s, sc, BPF_LAT_LAST);
		multipoint__add_open(sc->mt, sc_bpf_open(sc));
	}
	multipoint__done(sc->mt, s);
	sc->mt = NULL;
	bpf_lat__delete(sc->lat);
	sc->lat = NULL;
	bpf_stacks__delete(sc->stacks);
	sc->stacks = NULL;
	/* read only as the events were added (each keeps a copy) */
	for (int i = 0; i < 2; i++) {
		free(sc->both_filter[i]);
		sc->both_filter[i] = NULL;
		sc->both[i].filter = NULL;
	}
}

static const char *const sc_attrs[] = { "key", "untraced", NULL };

static const struct popt sc_opts[] = {
	{ .lname = "syscall",
	  .argname = "NAME[,NAME...]",
	  .help = "only these syscalls (names or numbers), filtered in the kernel",
	  POPT_CB,
	  .cb = opt_syscall },
	{ 0 },
};

const struct profiler prof_syscalls = {
	.name = "syscalls",
	.needs = (const char *const[]){ "tp:raw_syscalls:sys_enter", "tp:raw_syscalls:sys_exit",
					NULL },
	.desc = "system call latency per syscall (per thread with --perins), with errors",
	.synopsis = "perf-prof syscalls [-e raw_syscalls:sys_enter -e raw_syscalls:sys_exit "
		    "[-k common_pid]] [--syscall NAME,...] [--than TIME [-g]] [--perins] "
		    "[--hist] [-i MS] [-C CPUS|-p PID|-t TID|-- CMD]",
	.examples =
		"perf-prof syscalls -p 1234 -i 1000\n"
		"  perf-prof syscalls --syscall read,write --than 10ms -g\n"
		"  perf-prof syscalls --perins -- ./workload\n"
		"  perf-prof syscalls -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -p 1234",
	.groups = (const struct opt_group *const[]){ &event_group, &key_group, &lat_group,
						     &target_group, &run_group, &ring_group,
						     &output_group, &stack_group, &exclude_tp_group,
						     &bpf_group, NULL },
	.own = sc_opts,
	.ev_attrs = sc_attrs,
	.priv_size = sizeof(struct syscalls),
	.init = sc_init,
	.ops = { .exit = sc_exit },
	.deinit = sc_deinit,
};
