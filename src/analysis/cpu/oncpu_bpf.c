// SPDX-License-Identifier: GPL-2.0
/* oncpu's in-kernel programs: see oncpu_bpf.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uthash.h>

#include "analysis/cpu/oncpu_bpf.h"
#include "analysis/cpu/prio.h"
#include "engine/session.h"

/* a thread's sum on one CPU (the sums map's key and value) */
struct oc_key {
	u32 cpu, tid;
};
struct oc_val {
	u64 ns;
	u64 at; /* its latest slice's end there */
	u32 tgid, pad;
	char comm[16]; /* then */
};
enum { V_NS = 0, V_AT = 8, V_TGID = 16, V_PAD = 20, V_COMM = 24 };
_Static_assert(sizeof(struct oc_val) == 40, "oc_val");

/* a CPU's state: its slice's start, its task and whether that is a target */
enum { S_LAST = 0, S_TID = 8, S_TARGET = 12, S_SIZE = 16 };

/* the programs' stack (below the back end's scratch) */
enum {
	SK_ZERO = -16,	/* u32 0: the state map's key */
	SK_KEY = -24,	/* the sums map's key (8) */
	SK_NOW = -32,	/* now */
	SK_SLICE = -40, /* the slice's length */
	SK_VAL = -80,	/* a new value (40) */
	SK_TID0 = -88,	/* the CPU's task as the slice started */
	SK_FLAG = -96,	/* ... whether a target */
};

/* a (CPU, thread)'s sum as last read */
struct seen {
	struct oc_key key;
	u64 ns;
	UT_hash_handle hh;
};

/* a thread's gains in a read, per CPU */
struct stage {
	u32 tid, tgid;
	u64 at; /* the latest slice's end: its comm is the latest */
	char comm[16];
	UT_hash_handle hh;
	u64 delta[]; /* per CPU */
};

struct oc_bpf {
	struct bpf_back *b;
	struct oc_bpf_conf conf;
	struct sfilter_opts sf;
	struct sf_layout l;
	int off_pid, off_tgid, off_comm, off_state;
	int sw_args;
	int state, sums; /* maps */
	int cut;	 /* the cut program */
	int drop;
	int ncpu;
	struct seen *seen;
	struct stage *stage;
	u64 stop_at; /* the last cut's time (the session's clock) */
};

/* --tif-need-resched at a switch: whether prev (R7) left runnable (ctx R6); go to @drop if not kept */
static void emit_runnable(struct oc_bpf *o, struct bpfb *c, int drop)
{
	int runnable = bpfb__label(c), done = bpfb__label(c);

	b_ldx(c, 8, R0, R6, 0);
	b_alui(c, BPF_AND, R0, 0xff); /* bool preempt */
	b_jmpi(c, BPF_JNE, R0, 0, runnable);
	if (o->sw_args >= 4) {
		b_ldx(c, 8, R0, R6, 24);
		b_alu32(c, BPF_MOV, R0, R0); /* unsigned int prev_state */
	} else {
		b_ldx(c, 4, R0, R7, (short)o->off_state);
	}
	b_jmpi(c, BPF_JEQ, R0, 0, runnable);
	/* blocked: =0 keeps it; runnable: =1 */
	b_ja(c, o->sf.tif_need_resched ? drop : done);
	bpfb__here(c, runnable);
	if (!o->sf.tif_need_resched)
		b_ja(c, drop);
	bpfb__here(c, done);
}

/* The slice (SK_SLICE) to thread R8's (tgid R9, task R7) sum on this CPU; then to @done. */
static void emit_sum(struct oc_bpf *o, struct bpfb *c, int done)
{
	int drop = bpfb__label(c), have = bpfb__label(c);

	b_call(c, BPF_FUNC_get_smp_processor_id);
	b_stx(c, 4, R10, SK_KEY, R0);
	b_stx(c, 4, R10, SK_KEY + 4, R8);
	b_lookup(c, o->sums, SK_KEY);
	b_jmpi(c, BPF_JNE, R0, 0, have);
	b_ldx(c, 8, R1, R10, SK_SLICE);
	b_stx(c, 8, R10, SK_VAL + V_NS, R1);
	b_ldx(c, 8, R1, R10, SK_NOW);
	b_stx(c, 8, R10, SK_VAL + V_AT, R1);
	b_stx(c, 4, R10, SK_VAL + V_TGID, R9);
	b_st(c, 4, R10, SK_VAL + V_PAD, 0);
	b_ldx(c, 8, R1, R7, (short)o->off_comm);
	b_stx(c, 8, R10, SK_VAL + V_COMM, R1);
	b_ldx(c, 8, R1, R7, (short)(o->off_comm + 8));
	b_stx(c, 8, R10, SK_VAL + V_COMM + 8, R1);
	b_update(c, o->sums, SK_KEY, SK_VAL, BPF_NOEXIST);
	b_jmpi(c, BPF_JEQ, R0, 0, done);
	b_jmpi(c, BPF_JNE, R0, -EEXIST, drop);
	b_lookup(c, o->sums, SK_KEY);
	b_jmpi(c, BPF_JEQ, R0, 0, drop);
	bpfb__here(c, have);
	/* its tgid and comm as they are now (a first slice here, an exec, a rename) */
	b_ldx(c, 8, R1, R10, SK_NOW);
	b_stx(c, 8, R0, V_AT, R1);
	b_stx(c, 4, R0, V_TGID, R9);
	b_ldx(c, 8, R2, R7, (short)o->off_comm);
	b_stx(c, 8, R0, V_COMM, R2);
	b_ldx(c, 8, R2, R7, (short)(o->off_comm + 8));
	b_stx(c, 8, R0, V_COMM + 8, R2);
	b_ldx(c, 8, R1, R0, V_NS);
	b_ldx(c, 8, R2, R10, SK_SLICE);
	b_alu(c, BPF_ADD, R1, R2);
	b_stx(c, 8, R0, V_NS, R1);
	b_ja(c, done);
	bpfb__here(c, drop);
	bpf_back__emit_drop(o->b, c, o->drop);
}

/*
 * next (ctx R6) switches in: its slice starts now (SK_NOW); whether it is
 * a target is kept with it (a process that exits leaves the targets before
 * its last switch-out).  Uses R0-R5, R7-R9.
 */
static int emit_switch_in(struct oc_bpf *o, struct bpfb *c, int out, char *why, size_t len)
{
	int nt = bpfb__label(c), store = bpfb__label(c), err;

	b_ldx(c, 8, R7, R6, 16);
	b_ldx(c, 4, R8, R7, (short)o->off_pid);
	b_ldx(c, 4, R9, R7, (short)o->off_tgid);
	b_jmpi(c, BPF_JEQ, R8, 0, nt);
	if ((err = bpf_back__emit_target(o->b, c, R9, R8, nt, why, len)))
		return err;
	b_st(c, 8, R10, SK_FLAG, 1);
	b_ja(c, store);
	bpfb__here(c, nt);
	b_st(c, 8, R10, SK_FLAG, 0);
	bpfb__here(c, store);
	b_lookup(c, o->state, SK_ZERO);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_stx(c, 4, R0, S_TID, R8);
	b_ldx(c, 8, R1, R10, SK_FLAG);
	b_stx(c, 4, R0, S_TARGET, R1);
	return 0;
}

/*
 * sched_process_exec(p, ...): a command becomes a target at its exec (the
 * targets' own program, attached before, has just made it one); the slice
 * it runs in now is a target's, though it began before and its process may
 * leave the targets (exit) before the slice ends (true: one slice).
 */
static int build_exec(struct oc_bpf *o, struct bpfb *c, char *why, size_t len)
{
	int out = bpfb__label(c), err;

	b_mov(c, R6, R1);
	bpf_back__emit_running(o->b, c, out);
	b_ldx(c, 8, R7, R6, 0);
	b_ldx(c, 4, R8, R7, (short)o->off_pid);
	b_ldx(c, 4, R9, R7, (short)o->off_tgid);
	if ((err = bpf_back__emit_target(o->b, c, R9, R8, out, why, len)))
		return err;
	b_st(c, 4, R10, SK_ZERO, 0);
	b_lookup(c, o->state, SK_ZERO);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_ldx(c, 4, R1, R0, S_TID);
	b_jmp(c, BPF_JNE, R1, R8, out);
	b_st(c, 4, R0, S_TARGET, 1);
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

/*
 * @cut 0: sched_switch(preempt, prev, next[, prev_state]), prev's slice
 * ends and next's starts; 1: the cut (a raw_tp ctx: arg 0 nonzero for
 * "begin"), the current task's slice ends and a new one starts.  R6 ctx,
 * R7 the task, R8 tid, R9 tgid.
 */
static int build(struct oc_bpf *o, struct bpfb *c, bool cut, char *why, size_t len)
{
	int out = bpfb__label(c), done = bpfb__label(c), test = bpfb__label(c);
	int target = bpfb__label(c), err;

	b_mov(c, R6, R1);
	/* (a cut after the disable: nothing; the last one is made at it, stop_cut) */
	bpf_back__emit_running(o->b, c, out);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R10, SK_NOW, R0);
	b_st(c, 4, R10, SK_ZERO, 0);
	b_lookup(c, o->state, SK_ZERO);
	b_jmpi(c, BPF_JEQ, R0, 0, out);
	b_ldx(c, 8, R1, R0, S_LAST);  /* the slice's start */
	b_ldx(c, 8, R2, R10, SK_NOW); /* its end, the next one's start */
	b_ldx(c, 4, R3, R0, S_TID);
	b_stx(c, 8, R10, SK_TID0, R3);
	b_ldx(c, 4, R3, R0, S_TARGET);
	b_stx(c, 8, R10, SK_FLAG, R3);
	if (cut) {
		int account = bpfb__label(c);

		/* begin: the CPUs with no switch since the start (the others began at it) */
		b_ldx(c, 8, R3, R6, 0);
		b_jmpi(c, BPF_JEQ, R3, 0, account);
		b_jmpi(c, BPF_JNE, R1, 0, out);
		b_stx(c, 8, R0, S_LAST, R2);
		b_st(c, 4, R0, S_TID, 0);
		b_ja(c, out);
		bpfb__here(c, account);
	}
	b_stx(c, 8, R0, S_LAST, R2);
	b_jmpi(c, BPF_JEQ, R1, 0, done); /* the first slice here starts now */
	b_alu(c, BPF_SUB, R2, R1);
	b_jmpi(c, BPF_JSLE, R2, 0, done);
	b_stx(c, 8, R10, SK_SLICE, R2);
	if (cut) {
		b_call(c, BPF_FUNC_get_current_task_btf);
		b_mov(c, R7, R0);
	} else {
		b_ldx(c, 8, R7, R6, 8);
	}
	b_ldx(c, 4, R8, R7, (short)o->off_pid);
	b_jmpi(c, BPF_JEQ, R8, 0, done); /* the idle task: not busy */
	b_ldx(c, 4, R9, R7, (short)o->off_tgid);
	/* a target when it switched in, or now (a workload's exec) */
	b_ldx(c, 8, R1, R10, SK_TID0);
	b_jmp(c, BPF_JNE, R1, R8, test);
	b_ldx(c, 8, R1, R10, SK_FLAG);
	b_jmpi(c, BPF_JNE, R1, 0, target);
	bpfb__here(c, test);
	if ((err = bpf_back__emit_target(o->b, c, R9, R8, done, why, len)))
		return err;
	bpfb__here(c, target);
	if (o->sf.pid_given)
		b_jmpi(c, BPF_JEQ, R9, (int32_t)o->sf.exclude_pid, done);
	sfilter__emit_task(c, &o->sf, o->conf.prio, &o->l, R7, done);
	/* --tif-need-resched: at a switch, whether it left runnable; at a cut it is (=1) */
	if (o->sf.tif_given && !cut)
		emit_runnable(o, c, done);

	/* (=0 at a cut: nothing of the running slice is kept) */
	if (!(o->sf.tif_given && cut && !o->sf.tif_need_resched))
		emit_sum(o, c, done);
	bpfb__here(c, done);
	if (!cut && (err = emit_switch_in(o, c, out, why, len)))
		return err;
	bpfb__here(c, out);
	b_ret(c, 0);
	return 0;
}

int oc_bpf__new(struct bpf_back *b, const struct oc_bpf_conf *conf, struct oc_bpf **out, char *why,
		size_t len)
{
	struct oc_bpf *o = calloc(1, sizeof(*o));
	char err[200] = "";
	int ret = -ENOMEM, fd[3];

	*out = NULL;
	if (!o)
		return -ENOMEM;
	o->b = b;
	o->conf = *conf;
	o->cut = o->state = o->sums = -1;
	if (conf->sf)
		o->sf = *conf->sf;
	if (conf->layout)
		o->l = *conf->layout;
	o->ncpu = bpf_back__nr_cpus();
	o->off_pid = bpf_back__btf_member("task_struct", "pid", NULL);
	o->off_tgid = bpf_back__btf_member("task_struct", "tgid", NULL);
	o->off_comm = bpf_back__btf_member("task_struct", "comm", NULL);
	o->off_state = bpf_back__btf_member("task_struct", "__state", NULL);
	o->sw_args = bpf_back__btf_tp_args("sched_switch");
	ret = -EOPNOTSUPP;
	if (o->ncpu <= 0 || o->off_pid < 0 || o->off_tgid < 0 || o->off_comm < 0 ||
	    o->sw_args < 3 || bpf_back__btf_tp_args("sched_process_exec") < 1) {
		snprintf(why, len,
			 "no task_struct, sched_switch or sched_process_exec in the "
			 "kernel's BTF");
		goto fail;
	}
	if (o->sf.tif_given && o->sw_args < 4 && o->off_state < 0) {
		snprintf(why, len,
			 "--tif-need-resched: sched_switch without prev_state and no "
			 "task_struct.__state");
		goto fail;
	}
	o->drop = bpf_back__drop_slot(b, "slices not counted: thread map full (--bpf-entries)");
	/*
	 * Preallocated: written at sched_switch, with interrupts off.  The
	 * sums by (CPU, thread) in one shared map, not per CPU: its memory
	 * does not grow with the possible CPUs, and each key is written on
	 * its CPU only (no atomics).
	 */
	o->state = bpf_back__map(b, BPF_MAP_TYPE_PERCPU_ARRAY, "pp_oc_state", 4, S_SIZE, 1, 0);
	o->sums = o->state < 0
			  ? o->state
			  : bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_oc_sums", sizeof(struct oc_key),
					  sizeof(struct oc_val), conf->entries, 0);
	if (o->sums < 0) {
		snprintf(why, len, "its maps: %s", strerror(-o->sums));
		goto fail;
	}
	/* the switch's, the cut's, the exec's */
	for (int i = 0; i < 3; i++) {
		static const char *const names[] = { "pp_oc_switch", "pp_oc_cut", "pp_oc_exec" };
		static const char *const tps[] = { "sched_switch", NULL, "sched_process_exec" };
		struct bpfb c;

		bpfb__init(&c);
		ret = i == 2 ? build_exec(o, &c, why, len) : build(o, &c, i, why, len);
		fd[i] = ret ? ret
			    : bpf_back__load(b,
					     tps[i] ? BPF_PROG_TYPE_TRACING
						    : BPF_PROG_TYPE_RAW_TRACEPOINT,
					     names[i], &c, tps[i], err, sizeof(err));
		bpfb__free(&c);
		if (ret)
			goto fail;
		if (fd[i] < 0) {
			snprintf(why, len, "the %s program does not load: %s",
				 tps[i] ? tps[i] : "cut (raw_tp)", err);
			ret = -EOPNOTSUPP;
			goto fail;
		}
	}
	o->cut = fd[1];
	if ((ret = bpf_back__attach_raw(b, "sched_switch", fd[0])) ||
	    (ret = bpf_back__attach_raw(b, "sched_process_exec", fd[2])))
		goto fail;
	*out = o;
	return 0;
fail:
	oc_bpf__delete(o);
	return ret;
}

void oc_bpf__delete(struct oc_bpf *o)
{
	struct seen *s, *st;
	struct stage *g, *gt;

	if (!o)
		return;
	HASH_ITER(hh, o->seen, s, st)
	{
		HASH_DEL(o->seen, s);
		free(s);
	}
	HASH_ITER(hh, o->stage, g, gt)
	{
		HASH_DEL(o->stage, g);
		free(g);
	}
	free(o); /* the maps and programs are the session's */
}

int oc_bpf__cut(struct oc_bpf *o, bool begin)
{
	u64 arg = begin;

	for (int i = 0; i < o->conf.nr_cpus; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, t, .ctx_in = &arg, .ctx_size_in = sizeof(arg),
			    .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = (u32)o->conf.cpus[i]);

		/* (a CPU gone offline: nothing runs there) */
		if (bpf_prog_test_run_opts(o->cut, &t) && errno != ENXIO)
			return -errno;
	}
	return 0;
}

/*
 * At the disable, while the programs still count: the running slices end
 * there, as the events stop there (a cut after it does nothing: the task
 * current then may not be the one that ran, and the time is not the run's).
 */
static void stop_cut(struct session *s, void *arg)
{
	struct oc_bpf *o = arg;
	int err = oc_bpf__cut(o, false);

	o->stop_at = session__now(s);
	if (err)
		session__warn(s, "oncpu: the last BPF cut: %s", strerror(-err));
}

u64 oc_bpf__stopped(const struct oc_bpf *o)
{
	return o->stop_at;
}

/* The gain of (CPU, thread) @k, now at @v, into its thread's stage. */
static int stage(struct oc_bpf *o, const struct oc_key *k, const struct oc_val *v)
{
	struct seen *s;
	struct stage *g;

	if (k->cpu >= (u32)o->ncpu)
		return 0;
	HASH_FIND(hh, o->seen, k, sizeof(*k), s);
	if (!s) {
		if (!(s = calloc(1, sizeof(*s))))
			return -ENOMEM;
		s->key = *k;
		HASH_ADD(hh, o->seen, key, sizeof(s->key), s);
	}
	HASH_FIND(hh, o->stage, &k->tid, sizeof(k->tid), g);
	if (!g) {
		if (!(g = calloc(1, sizeof(*g) + (size_t)o->ncpu * sizeof(u64))))
			return -ENOMEM;
		g->tid = k->tid;
		HASH_ADD(hh, o->stage, tid, sizeof(g->tid), g);
	}
	g->delta[k->cpu] = v->ns >= s->ns ? v->ns - s->ns : v->ns;
	s->ns = v->ns;
	if (v->at >= g->at) {
		g->at = v->at;
		g->tgid = v->tgid;
		memcpy(g->comm, v->comm, 15);
	}
	return 0;
}

int oc_bpf__read(struct oc_bpf *o, bool gone, oc_bpf_fn fn, void *arg)
{
	struct oc_key key, next, *prev = NULL;
	struct stage *g, *gt;
	int err = oc_bpf__cut(o, false);

	while (!err && !bpf_map_get_next_key(o->sums, prev, &next)) {
		struct oc_val v;

		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(o->sums, &key, &v)) /* (else forgotten meanwhile) */
			err = stage(o, &key, &v);
	}
	HASH_ITER(hh, o->stage, g, gt)
	{
		char path[32];

		snprintf(path, sizeof(path), "/proc/%u", g->tid);
		if (!err)
			fn(arg, g->tid, g->tgid, g->comm, g->delta, o->ncpu,
			   gone && access(path, F_OK) && errno == ENOENT);
		HASH_DEL(o->stage, g);
		free(g);
	}
	return err;
}

void oc_bpf__forget(struct oc_bpf *o, u32 tid)
{
	for (int c = 0; c < o->ncpu; c++) {
		struct oc_key k = { (u32)c, tid };
		struct seen *s;

		HASH_FIND(hh, o->seen, &k, sizeof(k), s);
		if (!s)
			continue;
		bpf_map_delete_elem(o->sums, &k);
		HASH_DEL(o->seen, s);
		free(s);
	}
}

/* Whether the options ask for a filter of the slices (--prio aside: the ring path has it). */
static bool filters(const struct sfilter_opts *sf)
{
	return sf && (sf->tif_given || sf->pid_given || sf->min_given || sf->max_given ||
		      sf->policy_given);
}

/* A request that goes the ring path (@why said under -v): an error if it has filters. */
static int ring_path(struct session *s, const struct opt_set *opts, const struct sfilter_opts *sf,
		     const char *why)
{
	const char *name = sfilter__first(sf);
	const char *host = bpf_back__host_why_not();

	if (!filters(sf))
		return why ? bpf_back__fallback(s, opts, "oncpu: %s", why) : 0;
	if (why && bpf_back__fallback(s, opts, "oncpu: %s", why))
		return -EINVAL; /* (--bpf: the usage error is set) */
	if (*host)
		return session__set_err(s, -EOPNOTSUPP, "%s needs BPF: %s", name, host);
	return session__usage_err(s, "%s filters oncpu's slices in the kernel: %s", name,
				  why ? why : "this request goes the ring path (-v says why)");
}

int oc_bpf__try(struct session *s, const struct opt_set *opts, const struct prio_opts *prio,
		struct oc_bpf **out)
{
	const struct sfilter_opts *sf = opt_set__get(opts, &sfilter_group);
	const struct bpf_opts *bo = opt_set__get(opts, &bpf_group);
	const struct target_opts *tg = session__conf(s)->target;
	struct sfilter_opts none = { 0 };
	struct bpf_back *b;
	struct sf_layout l;
	char why[256] = "";
	int err, mark;

	*out = NULL;
	if (sf && sf->irqs_given)
		return session__usage_err(s, "oncpu --irqs-disabled: a slice ends in sched_switch, "
					     "where interrupts are always disabled (no meaning)");
	if (filters(sf) && bo && bo->off)
		return session__usage_err(s,
					  "%s filters oncpu's slices in the kernel: not with "
					  "--no-bpf",
					  sfilter__first(sf));
	if (tg->ptrace) /* (the kernel's followers take -p's children with --inherit only) */
		return ring_path(s, opts, sf,
				 "--ptrace: the tasks it holds at birth are followed "
				 "in user space");
	err = bpf_back__get(s, opts, &b);
	if (err <= 0)
		return err < 0 ? err : ring_path(s, opts, sf, NULL);
	if (sf)
		none = *sf;
	none.tif_given = false; /* (the flag is not read: see oncpu_bpf.h) */
	err = sfilter__layout(s, &none, prio != NULL, &l);
	if (err)
		return err;
	mark = bpf_back__mark(b);
	err = oc_bpf__new(b,
			  &(struct oc_bpf_conf){ .sf = sf,
						 .prio = prio,
						 .layout = &l,
						 .cpus = tg->cpus,
						 .nr_cpus = tg->nr_cpus,
						 .entries = bpf_back__entries(opts) },
			  out, why, sizeof(why));
	if (err)
		bpf_back__rollback(b, mark);
	if (err == -EOPNOTSUPP)
		return ring_path(s, opts, sf, why);
	if (err)
		return session__strerror(s) ? err : session__set_err(s, err, "out of memory");
	session__notice(s, "the BPF back end (tp_btf sched_switch: slices summed in the kernel%s)",
			filters(sf) || prio ? ", filtered there" : "");
	err = bpf_back__on_stop(b, stop_cut, *out);
	return err ? err : 1;
}
