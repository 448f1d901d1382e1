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
 * exit_group and forgets the thread.  What needs each call in user space
 * (--than, --detail, --heatmap, -e filters) goes the ring path.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/multipoint.h"
#include "analysis/latency/multipoint_ev.h"
#include "expr/expr.h"
#include "engine/bpf.h"
#include "engine/kfilter.h"
#include "profiler.h"
#include "report/outfile.h"
#include "sym/stack.h"
#include "util/list.h"

#define MAX_NR 1024 /* syscall numbers looked up by name */
/* --perins on BPF: a read every so many exited threads (their rows leave the maps) */
#define SC_REAP 1024

struct syscalls {
	const char *names; /* --syscall NAME[,NAME...] */
	struct multipoint *mt;
	struct evsel *enter, *exit;
	struct field enter_id, exit_id, ret;
	/* -e with a filter, system-wide: the spec with ours and's the user's */
	struct ev_spec both[2];
	char *both_filter[2];
	/* the BPF back end (NULL: the ring path) */
	struct bpf_back *bpf;
	struct bpf_lat *lat;
	int start_map, exited_map;
	u64 exited;	     /* pending at their task's exit, as last read */
	unsigned forgot;     /* --perins: threads exited since the last read */
	unsigned reap_every; /* that make a read: a 64th of the rows map, at most SC_REAP */
	bool perins, on_bpf;
};

static const char *syscall_label(u64 nr, char *buf, size_t len)
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

/* The number of syscall @n (a name or a number), or MAX_NR when it is none. */
static unsigned long syscall_nr(const char *n)
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

/* ---- the BPF back end ---- */

/* The stack of the programs (below R10 and the back end's emitters' scratch) */
#define SK_TID (-BPF_BACK_SCRATCH - 8) /* u32: the start map's key */
#define SK_START (SK_TID - 16)	       /* a new start: time, syscall */
#define SK_ROW (SK_START - 16)	       /* the row's key: syscall, thread (--perins) or 0 */
#define SK_ZERO (SK_ROW - 8)	       /* u32 0: the exited counter's key */
#define SK_SCRATCH (SK_ROW - BPF_LAT_SCRATCH)

/* R6 = the thread id, R7 = its thread group id (from bpf_get_current_pid_tgid) */
static void emit_ids(struct bpfb *c)
{
	b_call(c, BPF_FUNC_get_current_pid_tgid);
	b_alu32(c, BPF_MOV, R6, R0);
	b_mov(c, R7, R0);
	b_alui(c, BPF_RSH, R7, 32);
}

/* The row's key at SK_ROW: the syscall in @nr_reg, the thread (R6) with --perins */
static void emit_row_key(struct syscalls *sc, struct bpfb *c, int nr_reg)
{
	b_stx(c, 8, R10, SK_ROW, nr_reg);
	if (sc->perins)
		b_stx(c, 8, R10, SK_ROW + 8, R6);
	else
		b_st(c, 8, R10, SK_ROW + 8, 0);
}

/* "id == 1 || id == 2" of --syscall in the program: to @out unless @reg is one of them. */
static int emit_ids_filter(struct session *s, struct bpfb *c, const char *names, int reg, int out)
{
	int ok = bpfb__label(c), nr;
	char **items, err[256];

	if (list__split(names, "syscall", &items, &nr, err, sizeof(err)))
		return session__usage_err(s, "%s", err);
	for (int i = 0; i < nr; i++)
		b_jmpi(c, BPF_JEQ, reg, (int32_t)syscall_nr(items[i]), ok);
	free(items);
	b_ja(c, out);
	bpfb__here(c, ok);
	return 0;
}

/*
 * sys_enter(regs, id): the thread's start, in place (made at its first):
 * time and syscall.  Only the session's targets, not perf-prof itself
 * system-wide, --syscall's.
 */
static int prog_enter(struct session *s, struct syscalls *sc, struct bpfb *c, bool self, char *why,
		      size_t len)
{
	int out = bpfb__label(c), make = bpfb__label(c), slot, err;

	b_ldx(c, 8, R8, R1, 8); /* id */
	bpf_back__emit_running(sc->bpf, c, out);
	if (sc->names && (err = emit_ids_filter(s, c, sc->names, R8, out)))
		return err;
	emit_ids(c);
	if (self)
		b_jmpi(c, BPF_JEQ, R7, (int32_t)getpid(), out);
	if ((err = bpf_back__emit_target(sc->bpf, c, R7, R6, out, why, len)))
		return err;
	slot = bpf_back__drop_slot(sc->bpf, "syscalls not timed: thread map full (--bpf-entries)");
	if (slot < 0) {
		snprintf(why, len, "no drop slot left");
		return -ENOSPC;
	}
	b_stx(c, 4, R10, SK_TID, R6);
	b_lookup(c, sc->start_map, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, make);
	b_mov(c, R9, R0);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R9, 0, R0);
	b_stx(c, 8, R9, 8, R8);
	b_ja(c, out);
	bpfb__here(c, make);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R10, SK_START, R0);
	b_stx(c, 8, R10, SK_START + 8, R8);
	b_ldmap(c, R1, sc->start_map);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, SK_TID);
	b_mov(c, R3, R10);
	b_alui(c, BPF_ADD, R3, SK_START);
	b_movi(c, R4, BPF_ANY);
	b_call(c, BPF_FUNC_map_update_elem);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	bpf_back__emit_drop(sc->bpf, c, slot);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/*
 * sys_exit(regs, ret): the thread's start, if any, taken (its time set to
 * 0) and the latency recorded under its syscall; an error is a return in
 * -4095..-1.  With -C, only on those CPUs (both ends, as the ring path).
 */
static int prog_exit(struct syscalls *sc, struct bpfb *c, bool cpus, char *why, size_t len)
{
	int out = bpfb__label(c), ok = bpfb__label(c), err;

	b_ldx(c, 8, R9, R1, 8); /* ret */
	bpf_back__emit_running(sc->bpf, c, out);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_mov(c, R8, R0);
	emit_ids(c);
	if (cpus && (err = bpf_back__emit_target(sc->bpf, c, R7, R6, out, why, len)))
		return err;
	b_stx(c, 4, R10, SK_TID, R6);
	b_lookup(c, sc->start_map, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_ldx(c, 8, R1, R0, 0);
	b_jmpi(c, BPF_JEQ, R1, 0, out);
	b_st(c, 8, R0, 0, 0);
	b_alu(c, BPF_SUB, R8, R1);
	b_ldx(c, 8, R2, R0, 8);
	emit_row_key(sc, c, R2);
	b_movi(c, R7, 0);
	b_jmpi(c, BPF_JSGE, R9, 0, ok);
	b_jmpi(c, BPF_JSLT, R9, -4095, ok);
	b_movi(c, R7, 1);
	bpfb__here(c, ok);
	bpf_lat__emit_record(sc->lat, c, SK_ROW, R8, R7, SK_SCRATCH);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/*
 * sched_process_exit, in the exiting thread: a pending exit or exit_group
 * ends now (they never return), any other pending call is counted as
 * dropped; the thread's entry goes.
 */
static void prog_task_exit(struct syscalls *sc, struct bpfb *c)
{
	int out = bpfb__label(c), del = bpfb__label(c), rec = bpfb__label(c);

	bpf_back__emit_running(sc->bpf, c, out);
	emit_ids(c);
	b_stx(c, 4, R10, SK_TID, R6);
	b_lookup(c, sc->start_map, SK_TID);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_ldx(c, 8, R8, R0, 0);
	b_ldx(c, 8, R9, R0, 8);
	b_jmpi(c, BPF_JEQ, R8, 0, del);
	b_jmpi(c, BPF_JEQ, R9, (int32_t)syscall_nr("exit"), rec);
	b_jmpi(c, BPF_JEQ, R9, (int32_t)syscall_nr("exit_group"), rec);
	b_st(c, 4, R10, SK_ZERO, 0);
	b_lookup(c, sc->exited_map, SK_ZERO);
	b_jmpi(c, BPF_JEQ, R0, 0, del);
	b_ldx(c, 8, R1, R0, 0);
	b_alui(c, BPF_ADD, R1, 1);
	b_stx(c, 8, R0, 0, R1);
	b_ja(c, del);
	bpfb__here(c, rec);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_alu(c, BPF_SUB, R0, R8);
	b_mov(c, R8, R0);
	emit_row_key(sc, c, R9);
	b_movi(c, R7, 0);
	bpf_lat__emit_record(sc->lat, c, SK_ROW, R8, R7, SK_SCRATCH);
	bpfb__here(c, del);
	b_ldmap(c, R1, sc->start_map);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, SK_TID);
	b_call(c, BPF_FUNC_map_delete_elem);
	bpfb__here(c, out);
	b_ret(c, 0);
}

/* A row read from the maps into the table (bpf_lat__read's callback). */
static void sc_bpf_row(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked)
{
	struct syscalls *sc = arg;
	struct multipoint_row row = { .key = key[0] };
	char buf[32];

	snprintf(row.label, sizeof(row.label), "%s", syscall_label(key[0], buf, sizeof(buf)));
	multipoint__record_hist(sc->mt, 0, 1, key[1], &row, h, marked);
}

/* What the maps gained since the last read, into multipoint's table. */
static void sc_bpf_read(struct session *s, struct syscalls *sc, unsigned flags)
{
	u32 zero = 0;
	u64 exited = 0;
	int err = bpf_lat__read(sc->lat, flags, sc_bpf_row, sc);

	sc->forgot = 0;
	if (err)
		session__warn(s, "reading the BPF maps: %s", strerror(-err));
	if (!bpf_back__percpu_sum(sc->bpf, sc->exited_map, &zero, &exited, 1) &&
	    exited > sc->exited) {
		multipoint__add_exited(sc->mt, 0, exited - sc->exited);
		sc->exited = exited;
	}
}

static void sc_bpf_interval(struct session *s, void *priv)
{
	sc_bpf_read(s, priv, BPF_LAT_NEXT_INTERVAL);
}

static void sc_bpf_snapshot(struct session *s, void *priv)
{
	sc_bpf_read(s, priv, 0);
}

/* before multipoint's, which print the table */
static const struct session_ops sc_bpf_ops = {
	.interval = sc_bpf_interval,
	.snapshot = sc_bpf_snapshot,
};

/* The threads still in a syscall at the end (their start not taken). */
static u64 sc_bpf_open(struct syscalls *sc)
{
	u32 key, next, *prev = NULL;
	u64 v[2], n = 0;

	while (!bpf_map_get_next_key(sc->start_map, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(sc->start_map, &key, v) && v[0])
			n++;
	}
	return n;
}

/*
 * The BPF back end, if the host and the request allow it: 1 with the
 * programs loaded (attached at open), 0 for the ring path (said under -v),
 * or -errno (--bpf and it cannot: the usage error).
 */
static int sc_bpf(struct session *s, struct syscalls *sc, const struct opt_set *opts,
		  const struct event_opts *eo)
{
	const struct lat_opts *lo = opt_set__get(opts, &lat_group);
	const struct target_opts *t = session__conf(s)->target;
	bool self = !t->nr_pids && !t->nr_tids && !t->argv;
	struct bpfb code[3];
	char why[256] = "", err[256] = "";
	static const char *const tps[3] = { "sys_enter", "sys_exit", "sched_process_exit" };
	static const char *const names[3] = { "pp_sc_enter", "pp_sc_exit", "pp_sc_task_exit" };
	int ret, fd[3];

	if ((ret = bpf_back__get(s, opts, &sc->bpf)) <= 0)
		return ret;
	if (lo && lo->than)
		return bpf_back__fallback(s, opts,
					  "--than: each slow call's events are printed "
					  "from the ring buffer");
	if (lo && lo->heatmap)
		return bpf_back__fallback(s, opts,
					  "--heatmap: each call's time is written from "
					  "the ring buffer");
	/*
	 * -C: a call whose exit was on a CPU left out stays open, and the
	 * ring path pairs by the syscall's number, which the exit program
	 * does not read (yet).
	 */
	if (t->cpus_given)
		return bpf_back__fallback(s, opts,
					  "-C: calls that move to a CPU left out are paired "
					  "by their number on the ring path");
	for (int i = 0; eo && i < eo->nr_specs; i++) {
		const struct ev_spec *sp = &eo->specs[i];

		if (evspec__attr(sp, "untraced"))
			return bpf_back__fallback(s, opts,
						  "-e %s: untraced events are read from "
						  "the ring buffer",
						  sp->text);
		if (sp->filter)
			return bpf_back__fallback(s, opts,
						  "-e %s: tracepoint filters are not "
						  "compiled (--syscall is)",
						  sp->text);
	}
	sc->perins = lo && lo->perins;
	sc->start_map = bpf_back__map(sc->bpf, BPF_MAP_TYPE_HASH, "pp_sc_start", 4, 16,
				      bpf_back__entries(opts), 0);
	sc->exited_map = sc->start_map < 0 ? sc->start_map
					   : bpf_back__map(sc->bpf, BPF_MAP_TYPE_PERCPU_ARRAY,
							   "pp_sc_exited", 4, 8, 1, 0);
	if (sc->exited_map < 0)
		return bpf_back__fallback(s, opts, "syscalls' maps: %s", strerror(-sc->exited_map));
	sc->reap_every = bpf_back__entries(opts) / 64;
	sc->reap_every = !sc->reap_every ? 1 : sc->reap_every > SC_REAP ? SC_REAP : sc->reap_every;
	sc->lat = bpf_lat__new(sc->bpf, "pp_sc", bpf_back__entries(opts), err, sizeof(err));
	if (!sc->lat)
		return bpf_back__fallback(s, opts, "%s", err);
	for (int i = 0; i < 3; i++)
		bpfb__init(&code[i]);
	ret = prog_enter(s, sc, &code[0], self, why, sizeof(why));
	if (!ret)
		ret = prog_exit(sc, &code[1], t->cpus_given, why, sizeof(why));
	if (!ret)
		prog_task_exit(sc, &code[2]);
	for (int i = 0; i < 3 && !ret; i++) {
		fd[i] = bpf_back__load(sc->bpf, BPF_PROG_TYPE_RAW_TRACEPOINT, names[i], &code[i],
				       NULL, err, sizeof(err));
		if (fd[i] < 0) {
			snprintf(why, sizeof(why), "%s: %s", names[i], err);
			ret = fd[i];
		}
	}
	for (int i = 0; i < 3; i++)
		bpfb__free(&code[i]);
	if (ret && session__err_is_usage(s))
		return ret;
	if (ret)
		return bpf_back__fallback(s, opts, "%s", why);
	for (int i = 0; i < 3; i++)
		if ((ret = bpf_back__attach_raw(sc->bpf, tps[i], fd[i])))
			return session__set_err(s, ret, "out of memory");
	if ((ret = session__add_ops(s, &sc_bpf_ops, sc)))
		return ret;
	session__notice(s, "the BPF back end: syscalls paired and timed in the kernel (raw "
			   "tracepoints sys_enter, sys_exit, sched_process_exit)");
	return 1;
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
