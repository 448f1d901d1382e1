// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF back end's targets (bpf.h's bpf_back__emit_target): the -p, -t
 * and workload processes in a map, followed at fork and exit by tp_btf
 * programs as the ring path follows them, and the -C CPUs in a bitmap.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/bpf_int.h"

/* ---- targets ---- */

/* -C names every online CPU (the session's list): no CPU test in the programs */
static bool all_cpus(struct session *s)
{
	const struct target_opts *tg = s->conf.target;
	int n = session__name_cpus(s);

	if (!tg->cpus_given)
		return true;
	for (int i = 0; i < n; i++) {
		bool in = false;

		for (int j = 0; j < tg->nr_cpus && !in; j++)
			in = tg->cpus[j] == s->perf.online[i];
		if (!in)
			return false;
	}
	return n > 0;
}

static bool has_pids(struct session *s)
{
	const struct target_opts *tg = s->conf.target;

	return tg->nr_pids || tg->nr_tids || (tg->argv && tg->argv[0]);
}

/* The fork follower: a new process of a followed one (or with --inherit, of a -t thread) joins. */
static int fork_program(struct bpf_back *b)
{
	const struct target_opts *tg = b->s->conf.target;
	int tgid_off = bpf_back__btf_member("task_struct", "tgid", NULL);
	int pid_off = bpf_back__btf_member("task_struct", "pid", NULL);
	struct bpfb c;
	char err[160] = "";
	int out, join, fd;

	if (tgid_off < 0 || pid_off < 0) {
		snprintf(b->target_why, sizeof(b->target_why),
			 "no task_struct in the kernel's BTF: the processes the targets create "
			 "cannot be followed in the kernel");
		return -EOPNOTSUPP;
	}
	bpfb__init(&c);
	out = bpfb__label(&c);
	join = bpfb__label(&c);
	/* args: struct task_struct *parent, struct task_struct *child */
	b_ldx(&c, 8, R6, R1, 0);
	b_ldx(&c, 8, R7, R1, 8);
	b_ldx(&c, 4, R8, R6, (short)tgid_off); /* the parent's process */
	b_stx(&c, 4, R10, -4, R8);
	b_lookup(&c, b->tgids, -4);
	if (tg->inherit && b->tids >= 0) {
		int thread = bpfb__label(&c);

		b_jmpi(&c, BPF_JEQ, R0, 0, thread);
		b_ja(&c, join);
		bpfb__here(&c, thread); /* --inherit: a -t thread's new process joins */
		b_ldx(&c, 4, R8, R6, (short)pid_off);
		b_stx(&c, 4, R10, -4, R8);
		b_lookup(&c, b->tids, -4);
		b_jmpi(&c, BPF_JEQ, R0, 0, out);
		/* ... and a new thread of a -t thread is a -t thread itself, not its process */
		b_ldx(&c, 4, R8, R7, (short)pid_off);
		b_ldx(&c, 4, R1, R7, (short)tgid_off);
		b_jmp(&c, BPF_JEQ, R8, R1, join);
		b_stx(&c, 4, R10, -4, R8);
		b_st(&c, 1, R10, -8, 1);
		b_update(&c, b->tids, -4, -8, BPF_NOEXIST);
		b_ja(&c, out);
	} else {
		b_jmpi(&c, BPF_JEQ, R0, 0, out);
		/* -p's processes (1) bring their children only with --inherit; followed ones (2) */
		if (!tg->inherit) {
			b_ldx(&c, 1, R1, R0, 0);
			b_jmpi(&c, BPF_JNE, R1, 2, out);
		}
	}
	bpfb__here(&c, join);
	b_ldx(&c, 4, R8, R7, (short)tgid_off); /* the child's process */
	b_stx(&c, 4, R10, -4, R8);
	b_st(&c, 1, R10, -8, 2);
	b_update(&c, b->tgids, -4, -8, BPF_NOEXIST);
	bpfb__here(&c, out);
	b_ret(&c, 0);
	fd = bpf_back__load(b, BPF_PROG_TYPE_TRACING, "pp_fork", &c, "sched_process_fork", err,
			    sizeof(err));
	bpfb__free(&c);
	if (fd < 0) {
		snprintf(b->target_why, sizeof(b->target_why),
			 "the fork follower does not load: %.100s", err);
		return -EOPNOTSUPP;
	}
	b->fork_prog = fd;
	return bpf_back__attach_raw(b, "sched_process_fork", fd);
}

/*
 * The exit follower: a followed process (2) leaves the set with its last
 * thread, since its pid may be reused by anyone.  The last thread: the
 * signal struct's live count is 0 at sched_process_exit.
 */
static int exit_program(struct bpf_back *b)
{
	int tgid_off = bpf_back__btf_member("task_struct", "tgid", NULL);
	int sig_off = bpf_back__btf_member("task_struct", "signal", NULL);
	int live_off = bpf_back__btf_member("signal_struct", "live", NULL);
	struct bpfb c;
	char err[160] = "";
	int out, fd;

	if (tgid_off < 0 || sig_off < 0 || live_off < 0)
		return 0; /* (followed processes then stay in the set) */
	bpfb__init(&c);
	out = bpfb__label(&c);
	b_ldx(&c, 8, R6, R1, 0); /* struct task_struct *p */
	b_ldx(&c, 4, R7, R6, (short)tgid_off);
	b_stx(&c, 4, R10, -4, R7);
	b_lookup(&c, b->tgids, -4);
	b_jmpi(&c, BPF_JEQ, R0, 0, out);
	b_ldx(&c, 1, R1, R0, 0);
	b_jmpi(&c, BPF_JNE, R1, 2, out);
	b_ldx(&c, 8, R1, R6, (short)sig_off);
	b_ldx(&c, 4, R1, R1, (short)live_off);
	b_jmpi(&c, BPF_JNE, R1, 0, out);
	b_ldmap(&c, R1, b->tgids);
	b_mov(&c, R2, R10);
	b_alui(&c, BPF_ADD, R2, -4);
	b_call(&c, BPF_FUNC_map_delete_elem);
	bpfb__here(&c, out);
	b_ret(&c, 0);
	fd = bpf_back__load(b, BPF_PROG_TYPE_TRACING, "pp_exit", &c, "sched_process_exit", err,
			    sizeof(err));
	bpfb__free(&c);
	if (fd < 0) {
		session__notice(b->s,
				"BPF: the exit follower does not load (%s): processes "
				"followed stay targets after their exit",
				err);
		return 0;
	}
	return bpf_back__attach_raw(b, "sched_process_exit", fd);
}

/* The workload joins the targets at its exec (its pid is in the control map's second word). */
static int exec_program(struct bpf_back *b)
{
	int tgid_off = bpf_back__btf_member("task_struct", "tgid", NULL);
	struct bpfb c;
	char err[160] = "";
	int out, fd;

	if (tgid_off < 0) {
		snprintf(b->target_why, sizeof(b->target_why),
			 "no task_struct in the kernel's BTF: the workload's exec cannot be "
			 "followed in the kernel");
		return -EOPNOTSUPP;
	}
	bpfb__init(&c);
	out = bpfb__label(&c);
	b_ldx(&c, 8, R6, R1, 0); /* struct task_struct *p */
	b_ldx(&c, 4, R7, R6, (short)tgid_off);
	b_ldvalue(&c, R1, b->ctl, 4);
	b_ldx(&c, 4, R1, R1, 0);
	b_jmp(&c, BPF_JNE, R7, R1, out);
	b_stx(&c, 4, R10, -4, R7);
	b_st(&c, 1, R10, -8, 2);
	b_update(&c, b->tgids, -4, -8, BPF_NOEXIST);
	bpfb__here(&c, out);
	b_ret(&c, 0);
	fd = bpf_back__load(b, BPF_PROG_TYPE_TRACING, "pp_exec", &c, "sched_process_exec", err,
			    sizeof(err));
	bpfb__free(&c);
	if (fd < 0) {
		snprintf(b->target_why, sizeof(b->target_why),
			 "the exec follower does not load: %.100s", err);
		return -EOPNOTSUPP;
	}
	return bpf_back__attach_raw(b, "sched_process_exec", fd);
}

/* Create the target maps (in init, before any program is built). */
static int make_targets(struct bpf_back *b)
{
	struct session *s = b->s;
	const struct target_opts *tg = s->conf.target;
	unsigned n = 16384;

	if (b->targets_done)
		return 0;
	b->targets_done = true;
	b->targets_mark = bpf_back__mark(b);
	if (has_pids(s)) {
		b->tgids = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_tgids", 4, 1, n, 0);
		if (b->tgids < 0)
			return b->tgids;
		if (tg->nr_tids) {
			b->tids = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_tids", 4, 1, n, 0);
			if (b->tids < 0)
				return b->tids;
		}
		/*
		 * As the ring path: per-thread events follow what -p's processes
		 * create (perf's inherit); CPU-wide profilers' target set only
		 * with --inherit.
		 */
		b->follow_p = tg->nr_pids && (!s->cpu_wide || tg->inherit);
		if ((tg->argv && tg->argv[0]) || tg->inherit || b->follow_p) {
			int err = fork_program(b);

			if (!err)
				err = exit_program(b);
			if (!err && tg->argv && tg->argv[0])
				err = exec_program(b);
			if (err)
				return err;
		}
	}
	if (!all_cpus(s)) {
		b->cpus = bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_cpus", 4, CPU_BITS / 8, 1, 0);
		if (b->cpus < 0)
			return b->cpus;
	}
	return 0;
}

/* At open: the -p, -t and workload pids, the -C CPUs, into the maps. */
int bpf_back__fill_targets(struct bpf_back *b)
{
	struct session *s = b->s;
	const struct target_opts *tg = s->conf.target;
	unsigned char one = 1, followed = 2;

	if (!b->targets_done)
		return 0;
	for (int i = 0; b->tgids >= 0 && i < tg->nr_pids; i++) {
		u32 k = (u32)tg->pids[i];

		/* (2: followed, its children join at fork and it leaves at its exit) */
		if (bpf_map_update_elem(b->tgids, &k, b->follow_p ? &followed : &one, BPF_ANY))
			return session__set_err(s, -errno, "BPF: target map: %s", strerror(errno));
	}
	for (int i = 0; b->tids >= 0 && i < tg->nr_tids; i++) {
		u32 k = (u32)tg->tids[i];

		if (bpf_map_update_elem(b->tids, &k, &one, BPF_ANY))
			return session__set_err(s, -errno, "BPF: target map: %s", strerror(errno));
	}
	/* the workload is a target from its exec on (exec_program), as perf's enable_on_exec */
	if (b->tgids >= 0 && s->wl.forked) {
		u32 key = 0;

		b->ctl_val[1] = (u32)s->wl.proc.pid;
		if (bpf_map_update_elem(b->ctl, &key, b->ctl_val, BPF_ANY))
			return session__set_err(s, -errno, "BPF: control map: %s", strerror(errno));
	}
	if (b->cpus >= 0) {
		unsigned char bits[CPU_BITS / 8] = { 0 };
		u32 key = 0;

		for (int i = 0; i < tg->nr_cpus; i++)
			if (tg->cpus[i] >= 0 && tg->cpus[i] < CPU_BITS)
				bits[tg->cpus[i] / 8] |= (unsigned char)(1u << (tg->cpus[i] % 8));
		if (bpf_map_update_elem(b->cpus, &key, bits, BPF_ANY))
			return session__set_err(s, -errno, "BPF: CPU map: %s", strerror(errno));
	}
	return 0;
}

int bpf_back__emit_target(struct bpf_back *b, struct bpfb *code, int tgid_reg, int tid_reg, int out,
			  char *why, size_t len)
{
	const struct target_opts *tg = b->s->conf.target;
	int err;

	if (tg->cgroups) {
		snprintf(why, len, "--cgroups is not tested in the kernel yet");
		return -EOPNOTSUPP;
	}
	err = b->targets_err ? b->targets_err : make_targets(b);
	if (err) {
		b->targets_err = err;
		snprintf(why, len, "%s",
			 err == -EOPNOTSUPP ? b->target_why : session__strerror(b->s));
		return err;
	}
	if (b->cpus >= 0) {
		b_call(code, BPF_FUNC_get_smp_processor_id);
		b_jmpi(code, BPF_JGE, R0, CPU_BITS, out);
		b_mov(code, R1, R0);
		b_alui(code, BPF_RSH, R1, 3);
		b_ldvalue(code, R2, b->cpus, 0);
		b_alu(code, BPF_ADD, R2, R1);
		b_ldx(code, 1, R1, R2, 0);
		b_alui(code, BPF_AND, R0, 7);
		b_alu(code, BPF_RSH, R1, R0);
		b_alui(code, BPF_AND, R1, 1);
		b_jmpi(code, BPF_JEQ, R1, 0, out);
	}
	if (b->tgids >= 0) {
		int ok = bpfb__label(code);

		b_stx(code, 4, R10, -4, tgid_reg);
		b_lookup(code, b->tgids, -4);
		if (b->tids >= 0) {
			b_jmpi(code, BPF_JNE, R0, 0, ok);
			b_stx(code, 4, R10, -4, tid_reg);
			b_lookup(code, b->tids, -4);
		}
		b_jmpi(code, BPF_JEQ, R0, 0, out);
		bpfb__here(code, ok);
	}
	return 0;
}
