// SPDX-License-Identifier: GPL-2.0
/*
 * rundelay --than and --heatmap on the BPF back end (rundelay_bpf_int.h):
 * the ring path prints a slow delay as its two trace records, a start's
 * (sched_wakeup, sched_wakeup_new, or sched_switch with prev_state R) and
 * the switch-in's sched_switch.  The programs are tp_btf ones, given the
 * tracepoints' arguments, not their records: the records are rebuilt from
 * the tasks' fields as the tracepoints write them (comm, pid, prio,
 * task_cpu as target_cpu; prev_state as __trace_sched_switch_state
 * encodes it), the start's kept with its entry, both copied out at a
 * switch-in over --than and printed by multipoint as the ring path's
 * samples.  The common fields are put back in user space: type, pid;
 * flags and preempt count are 0 (not rebuilt; not printed).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/latency/bpf_stack.h"
#include "analysis/latency/multipoint.h"
#include "analysis/latency/rundelay_bpf_int.h"

#include <event-parse.h>

/* task @task's comm, pid and prio (into R1) at @dst + @off + the fields @comm, @pid, @prio' offsets */
static void emit_task_rec(struct rd_bpf *r, struct bpfb *c, int dst, int off, int task,
			  const struct field *comm, const struct field *pid,
			  const struct field *prio)
{
	for (int w = 0; w < 16; w += 8) {
		b_ldx(c, 8, R1, task, (short)(r->off_comm + w));
		b_stx(c, 8, dst, (short)(off + comm->offset + w), R1);
	}
	b_ldx(c, 4, R1, task, (short)r->off_pid);
	b_stx(c, 4, dst, (short)(off + pid->offset), R1);
	b_ldx(c, 4, R1, task, (short)r->off_prio);
	b_stx(c, 4, dst, (short)(off + prio->offset), R1);
}

/* the record's room at @dst + @off zeroed (its common fields, a wakeup's end) */
static void emit_rec_zero(struct bpfb *c, int dst, int off)
{
	for (int w = 0; w < RD_BPF_REC; w += 8)
		b_st(c, 8, dst, (short)(off + w), 0);
}

/*
 * sched_switch's record at @dst + @off as the tracepoint writes it, from
 * its arguments (ctx at S_CTX): prev's and next's comm, pid and prio,
 * prev_state as __trace_sched_switch_state encodes it.  Uses R0-R5.
 */
static void emit_switch_rec(struct rd_bpf *r, struct bpfb *c, int dst, int off)
{
	emit_rec_zero(c, dst, off);
	b_ldx(c, 8, R5, R10, S_CTX);
	b_ldx(c, 8, R4, R5, 16);
	emit_task_rec(r, c, dst, off, R4, &r->f.ncomm, &r->f.npid, &r->f.nprio);
	b_ldx(c, 8, R4, R5, 8);
	emit_task_rec(r, c, dst, off, R4, &r->f.pcomm, &r->f.ppid, &r->f.pprio);
	if (r->sw_args >= 4) {
		b_ldx(c, 8, R2, R5, 24);
		b_alu32(c, BPF_MOV, R2, R2); /* unsigned int prev_state */
	} else {
		b_ldx(c, 4, R2, R4, (short)r->off_state);
	}
	b_ldx(c, 8, R1, R5, 0);
	b_alui(c, BPF_AND, R1, 0xff); /* bool preempt */
	b_ldx(c, 4, R3, R4, (short)r->off_exit);
	sched_bpf__emit_prev_state(c, R0, R1, R2, R3, R5);
	b_stx(c, 8, dst, (short)(off + r->f.pstate.offset), R0);
}

/* sched_wakeup's (or sched_wakeup_new's) record of task @task (R6-R9) at @dst + @off; uses R1 */
static void emit_wakeup_rec(struct rd_bpf *r, struct bpfb *c, int dst, int off, int task)
{
	emit_rec_zero(c, dst, off);
	emit_task_rec(r, c, dst, off, task, &r->f.comm, &r->f.pid, &r->f.prio);
	b_ldx(c, 4, R1, task, (short)r->off_cpu);
	b_stx(c, 4, dst, (short)(off + r->f.target_cpu.offset), R1);
}

/*
 * --than: what a start at @dst + @off (its value) keeps for its printing:
 * the thread and CPU of the event, its stacks (-g), the comm of the task
 * that raised it, the record (@rec: REC_WAKEUP of the task in R7).  Ctx at
 * S_CTX.  Keeps R6-R9, uses R0-R5.
 */
void rd_slow__emit_fill(struct rd_bpf *r, struct bpfb *c, int dst, int off, int rec)
{
	b_call(c, BPF_FUNC_get_current_pid_tgid);
	b_stx(c, 8, dst, (short)(off + V_IDS), R0);
	b_call(c, BPF_FUNC_get_smp_processor_id);
	b_stx(c, 8, dst, (short)(off + V_CPU), R0);
	if (r->stacks) /* under the thread at S_KEY */
		bpf_stacks__emit_keep(r->stacks, c, -1, S_CTX, S_KEY, S_STK, false);
	b_mov(c, R1, dst);
	b_alui(c, BPF_ADD, R1, off + V_COMM);
	b_movi(c, R2, 16);
	b_call(c, BPF_FUNC_get_current_comm);
	if (rec == REC_SWITCH)
		emit_switch_rec(r, c, dst, off + V_REC);
	else
		emit_wakeup_rec(r, c, dst, off + V_REC, R7);
}

/*
 * A delay of the thread R8 ends (its state in R7, its entry in R9: time,
 * start part), its latency at S_DELTA: --heatmap's line; over --than the
 * delay copied out with the switch-in's record (@end; else ended by no
 * switch: its switch-in was not traced).  Keeps R6-R9 (ctx in R6 and at
 * S_CTX), uses R0-R5.
 */
void rd_slow__emit(struct rd_bpf *r, struct bpfb *c, bool end)
{
	int fast = bpfb__label(c);
	int16_t ssize = r->stacks ? (int16_t)bpf_stacks__size(r->stacks, BPF_STACKS_KERNEL) : 0;

	if (r->conf.heatmap) {
		b_ldx(c, 8, R1, R9, 0);
		b_stx(c, 8, R10, S_HEAT, R1);
		b_ldx(c, 8, R1, R10, S_DELTA);
		b_stx(c, 8, R10, S_HEAT + 8, R1);
		b_mov(c, R1, R7);
		b_alui(c, BPF_SUB, R1, 1); /* from: the start point; to: the switch-in */
		b_alui(c, BPF_OR, R1, P_SWITCH_IN << 8);
		b_stx(c, 8, R10, S_HEAT + 16, R1);
		bpf_back__emit_output(r->b, c, r->heat_out, S_HEAT, 24);
	}
	if (!r->conf.than)
		return;
	b_ldx(c, 8, R1, R10, S_DELTA);
	b_ld64(c, R2, r->conf.than);
	b_jmp(c, BPF_JLE, R1, R2, fast);
	bpf_back__emit_reserve(r->b, c, r->out, O_SIZE + 2 * ssize, fast);
	b_stx(c, 8, R10, S_TID, R8);
	b_mov(c, R8, R0);
	b_ldx(c, 8, R1, R9, 0);
	b_stx(c, 8, R8, O_START, R1);
	b_ldx(c, 8, R1, R10, S_DELTA);
	b_stx(c, 8, R8, O_DELTA, R1);
	b_ldx(c, 8, R1, R10, S_TID);
	b_alui(c, BPF_LSH, R1, 32);
	b_alu(c, BPF_OR, R1, R7);
	if (!end)
		b_alui(c, BPF_OR, R1, O_NO_END);
	b_stx(c, 8, R8, O_WHICH, R1);
	for (int w = O_START_PART; w < V_SIZE; w += 8) {
		b_ldx(c, 8, R1, R9, (short)w);
		b_stx(c, 8, R8, (short)w, R1);
	}
	if (r->stacks) /* the start's, kept under the thread (at S_TID) */
		bpf_stacks__emit_copy(r->stacks, c, S_TID, R8, O_SIZE, BPF_STACKS_KERNEL, false);
	if (end) {
		b_call(c, BPF_FUNC_get_current_pid_tgid);
		b_stx(c, 8, R8, O_IDS1, R0);
		b_call(c, BPF_FUNC_get_smp_processor_id);
		b_stx(c, 8, R8, O_CPU1, R0);
		if (r->stacks)
			bpf_stacks__emit_take(r->stacks, c, -1, S_CTX, R8,
					      (int16_t)(O_SIZE + ssize), BPF_STACKS_KERNEL, false);
		emit_switch_rec(r, c, R8, O_REC1);
	} else if (r->stacks) {
		b_st(c, 8, R8, (int16_t)(O_SIZE + ssize), 0);
	}
	bpf_back__emit_submit(c, R8);
	b_ldx(c, 8, R8, R10, S_TID);
	bpfb__here(c, fast);
}

/*
 * One end of a slow delay as the ring path's sample of @ev: its thread,
 * CPU, time, record (bpf_back__tp_sample: the common fields put back;
 * the record as long as the tracepoint's format) and stacks; the task that raised it named
 * @comm from then on (the ring path learns its name from the task records).
 */
static void slow_sample(struct rd_bpf *r, struct evsel *ev, struct sample *smp, u64 ids, u64 cpu,
			u64 time, const char *comm, const void *rec, const void *kslot, u64 *chain,
			u64 *raw)
{
	unsigned size = 0;

	for (struct tep_format_field *f = ev->tp ? ev->tp->format.fields : NULL; f; f = f->next)
		if ((unsigned)(f->offset + f->size) > size)
			size = (unsigned)(f->offset + f->size);
	bpf_back__tp_sample(ev, smp, ids, (u32)cpu, time, rec, RD_BPF_REC,
			    size < RD_BPF_REC ? size : RD_BPF_REC, raw);
	session__saw_comm(r->conf.s, (u32)ids, comm, 16, time);
	bpf_stacks__sample(r->stacks, session__stack(r->conf.s), kslot, NULL, chain, smp);
}

/* A slow delay copied out of the kernel (bpf_back__out's callback): printed as the ring path does. */
static int on_slow(void *arg, void *data, size_t size)
{
	static const u64 none[MULTIPOINT_DATA];
	struct rd_bpf *r = arg;
	const u64 *w = data;
	const char *d = data;
	u64 chain[2][BPF_STACK_CHAIN], raw[2][RD_BPF_REC / 8], which;
	struct sample smp[2];
	unsigned kind;
	bool end;

	unsigned ssize = r->stacks ? bpf_stacks__size(r->stacks, BPF_STACKS_KERNEL) : 0;
	const void *k0 = ssize ? d + O_SIZE : NULL, *k1 = ssize ? d + O_SIZE + ssize : NULL;

	if (size < O_SIZE + 2 * ssize || !r->mt)
		return 0;
	which = w[O_WHICH / 8];
	kind = (unsigned)(which & 0xff);
	end = !(which & O_NO_END);
	if (kind < ST_WAKEUP || kind > ST_PREEMPT)
		return 0;
	slow_sample(r, r->evs[kind - 1], &smp[0], w[V_IDS / 8], w[V_CPU / 8], w[O_START / 8],
		    d + V_COMM, d + V_REC, k0, chain[0], raw[0]);
	if (end) /* the task switching out is prev: its comm is the record's */
		slow_sample(r, r->evs[2], &smp[1], w[O_IDS1 / 8], w[O_CPU1 / 8],
			    w[O_START / 8] + w[O_DELTA / 8], d + O_REC1 + r->f.pcomm.offset,
			    d + O_REC1, k1, chain[1], raw[1]);
	multipoint__print_pair(r->mt, r->conf.s,
			       &(struct multipoint_pair){
				       .from = (int)kind - 1,
				       .to = P_SWITCH_IN,
				       .key = which >> 32,
				       .start = w[O_START / 8],
				       .delta = w[O_DELTA / 8],
				       .data = none,
				       .start_ev = r->evs[kind - 1],
				       .end_ev = end ? r->evs[2] : NULL,
				       .start_smp = &smp[0],
				       .end_smp = end ? &smp[1] : NULL,
			       });
	return 0;
}

/* A delay's start and latency copied out (--heatmap): a line of its heat map. */
static int on_heat(void *arg, void *data, size_t size)
{
	struct rd_bpf *r = arg;
	const u64 *w = data;

	if (size >= 24 && r->mt)
		multipoint__heat_pair(r->mt, r->conf.s, (int)(w[2] & 0xff), (int)(w[2] >> 8 & 0xff),
				      w[0], w[1]);
	return 0;
}

/* a field of @ev (@name) of @size bytes, within the record rebuilt: true if so */
static bool rec_field(struct evsel *ev, const char *name, unsigned size, struct field *f)
{
	return ev && !evsel__field(ev, name, f) && !f->is_dynamic && f->size == size &&
	       f->offset >= 8 && f->offset + size <= RD_BPF_REC;
}

/* an out not made (@err): -EOPNOTSUPP with the back end's reason, or @err, @why saying it */
static int out_err(struct rd_bpf *r, const char *what, int err, char *why, size_t len)
{
	if (err == -EOPNOTSUPP) {
		snprintf(why, len, "%s: %s", what, bpf_back__out_why(r->b));
		return err;
	}
	snprintf(why, len, "%s: its ring buffer: %s", what, strerror(-err));
	return err;
}

/*
 * --than, --heatmap: the task fields and the tracepoints' formats the
 * records are rebuilt with, the stacks (-g), the outs: 0, or -EOPNOTSUPP
 * with @why (or another -errno).
 */
int rd_slow__setup(struct rd_bpf *r, char *why, size_t len)
{
	struct rd_recf *f = &r->f;
	static const char *const names[] = { "sched_wakeup", "sched_wakeup_new", "sched_switch" };
	int ti, cpu;
	unsigned size = 0;

	if (r->conf.heatmap) {
		r->heat_out = bpf_back__out(r->b, "pairs not written to the heat map", on_heat, r);
		if (r->heat_out < 0)
			return out_err(r, "--heatmap", r->heat_out, why, len);
	}
	if (!r->conf.than)
		return 0;
	r->off_prio = bpf_back__btf_member("task_struct", "prio", &size);
	if (r->off_prio < 0 || size != 4) {
		snprintf(why, len, "--than: no task_struct.prio in the kernel's BTF");
		return -EOPNOTSUPP;
	}
	/* task_cpu(): thread_info's cpu where thread_info is in the task, else task_struct.cpu */
	ti = bpf_back__btf_member("task_struct", "thread_info", NULL);
	cpu = bpf_back__btf_member("thread_info", "cpu", &size);
	r->off_cpu = ti >= 0 && cpu >= 0 ? ti + cpu : -1;
	if (r->off_cpu < 0)
		r->off_cpu = bpf_back__btf_member("task_struct", "cpu", &size);
	if (r->off_cpu < 0 || size != 4) {
		snprintf(why, len, "--than: no task CPU (thread_info.cpu) in the kernel's BTF");
		return -EOPNOTSUPP;
	}
	for (int i = 0; i < 3; i++)
		if (!(r->evs[i] = bpf_back__tp_evsel(r->b, "sched", names[i]))) {
			snprintf(why, len, "--than: no format of sched:%s", names[i]);
			return -EOPNOTSUPP;
		}
	if (!rec_field(r->evs[0], "comm", 16, &f->comm) ||
	    !rec_field(r->evs[0], "pid", 4, &f->pid) ||
	    !rec_field(r->evs[0], "prio", 4, &f->prio) ||
	    !rec_field(r->evs[0], "target_cpu", 4, &f->target_cpu) ||
	    !rec_field(r->evs[2], "prev_comm", 16, &f->pcomm) ||
	    !rec_field(r->evs[2], "prev_pid", 4, &f->ppid) ||
	    !rec_field(r->evs[2], "prev_prio", 4, &f->pprio) ||
	    !rec_field(r->evs[2], "prev_state", 8, &f->pstate) ||
	    !rec_field(r->evs[2], "next_comm", 16, &f->ncomm) ||
	    !rec_field(r->evs[2], "next_pid", 4, &f->npid) ||
	    !rec_field(r->evs[2], "next_prio", 4, &f->nprio)) {
		snprintf(why, len,
			 "--than: sched_switch's or sched_wakeup's format is not the one "
			 "rebuilt (comm, pid, prio, target_cpu; prev_* and next_*)");
		return -EOPNOTSUPP;
	}
	/* sched_wakeup_new's record: sched_wakeup's fields at the same places */
	{
		struct field g[4];

		if (!rec_field(r->evs[1], "comm", 16, &g[0]) ||
		    !rec_field(r->evs[1], "pid", 4, &g[1]) ||
		    !rec_field(r->evs[1], "prio", 4, &g[2]) ||
		    !rec_field(r->evs[1], "target_cpu", 4, &g[3]) ||
		    g[0].offset != f->comm.offset || g[1].offset != f->pid.offset ||
		    g[2].offset != f->prio.offset || g[3].offset != f->target_cpu.offset) {
			snprintf(why, len,
				 "--than: sched_wakeup_new's format is not sched_wakeup's");
			return -EOPNOTSUPP;
		}
	}
	if (session__stacks_for_all(r->conf.s)) {
		char w[160];

		/* (kept under threads; wakeups run with interrupts off: preallocated) */
		r->stacks = bpf_stacks__new(r->conf.s, r->b, r->conf.entries, 4, BPF_STACKS_KERNEL,
					    true, w, sizeof(w));
		if (!r->stacks) {
			snprintf(why, len, "-g: %s", w);
			return -EOPNOTSUPP;
		}
	}
	r->out = bpf_back__out(r->b, "slow cases counted but not printed", on_slow, r);
	return r->out < 0 ? out_err(r, "--than", r->out, why, len) : 0;
}
