// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU running task and its slices (analysis/cpu/runslice.h).
 *
 * On a switch X -> Y the kernel writes, in this order and into the CPU's
 * own ring: the sched_switch sample (from X's context), X's switch-out
 * record (naming Y), Y's switch-in record (naming X, from Y's context).
 * The first of them that arrives moves the CPU to Y; the others find Y
 * running and only fill in what they know better (Y's process).
 */
#include <errno.h>
#include <stdlib.h>

#include "analysis/cpu/runslice.h"
#include "engine/session.h"

struct rs_cpu {
	u32 tid, pid; /* running now (tid 0: idle) */
	u64 since;
	bool seen;		  /* an event of this CPU came */
	bool known;		  /* who runs is known */
	bool from_start;	  /* its first task was taken to run since the start ... */
	u32 first_pid, first_tid; /* ... this one */
};

struct runslice {
	int nr;
	struct rs_cpu *cpu;
	u64 start, edge;
	runslice_fn credit;
	void *arg;
	struct runslice_stats st;
};

struct runslice *runslice__new(int nr_cpus, runslice_fn credit, void *arg)
{
	struct runslice *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->nr = nr_cpus > 0 ? nr_cpus : 1;
	r->cpu = calloc(r->nr, sizeof(*r->cpu));
	if (!r->cpu) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->credit = credit;
	r->arg = arg;
	return r;
}

void runslice__delete(struct runslice *r)
{
	if (!r)
		return;
	free(r->cpu);
	free(r);
}

bool runslice__start(struct runslice *r, u64 time)
{
	u64 d = r->start - time;

	if (r->start && (time >= r->start || r->edge != r->start))
		return false;
	/* an earlier start: the first tasks of the CPUs seen ran since then */
	for (int i = 0; r->start && i < r->nr; i++) {
		struct rs_cpu *c = &r->cpu[i];

		if (!c->from_start || !c->first_tid)
			continue;
		if (c->known && c->tid == c->first_tid && c->since == r->start)
			c->since = time; /* still running */
		else
			r->credit(r->arg, (u32)i, c->first_pid, c->first_tid, d);
	}
	r->start = r->edge = time;
	return true;
}

static struct rs_cpu *get_cpu(struct runslice *r, u32 cpu)
{
	return cpu < (u32)r->nr ? &r->cpu[cpu] : NULL;
}

/* Credit the running task up to @to (not before the last edge). */
static void account(struct runslice *r, u32 cpu, struct rs_cpu *c, u64 to)
{
	u64 from = c->since > r->edge ? c->since : r->edge;

	if (c->known && c->tid && to > from)
		r->credit(r->arg, cpu, c->pid, c->tid, to - from);
}

/* From @time on, @tid (of @pid) runs on the CPU. */
static void run(struct rs_cpu *c, u64 time, u32 pid, u32 tid)
{
	c->tid = tid;
	c->pid = tid ? pid : 0;
	c->since = time;
	c->known = true;
}

/*
 * The first event of a CPU: the task it shows running before @time had run
 * since the start (it would have switched in otherwise).
 */
static void first(struct runslice *r, struct rs_cpu *c, u64 time, u32 pid, u32 tid)
{
	c->seen = true;
	c->from_start = r->start && r->start <= time;
	c->first_pid = pid;
	c->first_tid = tid;
	run(c, c->from_start ? r->start : time, pid, tid);
}

/* @tid (of @pid) is the one running at @time: the known task if it is it. */
static void check(struct runslice *r, u32 cpu, struct rs_cpu *c, u64 time, u32 pid, u32 tid)
{
	if (!c->seen) {
		first(r, c, time, pid, tid);
	} else if (c->known && c->tid != tid) {
		/* a switch was missed: the one known is taken to run until now */
		r->st.mismatches++;
		account(r, cpu, c, time);
		run(c, time, pid, tid);
	} else if (c->known && c->pid == RUNSLICE_NO_PID) {
		c->pid = pid;
	}
}

void runslice__switch(struct runslice *r, u32 cpu, u64 time, u32 prev_pid, u32 prev_tid,
		      u32 next_tid)
{
	struct rs_cpu *c = get_cpu(r, cpu);

	if (!c)
		return;
	check(r, cpu, c, time, prev_pid, prev_tid);
	account(r, cpu, c, time);
	run(c, time, RUNSLICE_NO_PID, next_tid);
}

void runslice__record(struct runslice *r, const struct rec_switch *sw)
{
	struct rs_cpu *c = get_cpu(r, sw->cpu);
	u32 in_pid = sw->out ? sw->other_pid : sw->pid, in_tid = sw->out ? sw->other_tid : sw->tid;
	u32 out_pid = sw->out ? sw->pid : sw->other_pid,
	    out_tid = sw->out ? sw->tid : sw->other_tid;

	if (!c)
		return;
	if (!c->seen && out_tid == RUNSLICE_DEAD)
		c->seen = true; /* who ran before is not known */
	else if (!c->seen)
		first(r, c, sw->time, out_pid, out_tid);
	if (in_tid == RUNSLICE_DEAD) {
		/*
		 * An exiting thread comes in (its tid is gone from the record):
		 * the sched_switch that names it came first, or who runs now
		 * is not known.
		 */
		if (c->known && c->tid == out_tid) {
			account(r, sw->cpu, c, sw->time);
			c->known = false;
		}
		return;
	}
	if (c->known && c->tid == in_tid) {
		/* the sched_switch (or the switch-out record) came first */
		if (c->pid == RUNSLICE_NO_PID)
			c->pid = in_tid ? in_pid : 0;
		return;
	}
	if (c->known && c->tid != out_tid && c->tid != in_tid && out_tid != RUNSLICE_DEAD)
		r->st.mismatches++;
	account(r, sw->cpu, c, sw->time);
	run(c, sw->time, in_pid, in_tid);
	r->st.by_record++;
}

void runslice__running(struct runslice *r, u32 cpu, u64 time, u32 pid, u32 tid)
{
	struct rs_cpu *c = get_cpu(r, cpu);

	/* a task that has exited: its sample tells who no more */
	if (!c || tid == RUNSLICE_DEAD)
		return;
	if (c->seen && !c->known) {
		run(c, time, pid, tid);
		r->st.by_sample++;
		return;
	}
	check(r, cpu, c, time, pid, tid);
}

void runslice__lost(struct runslice *r, int cpu)
{
	for (int i = 0; i < r->nr; i++)
		if (cpu < 0 || i == cpu)
			r->cpu[i].known = r->cpu[i].from_start = false;
}

void runslice__edge(struct runslice *r, u64 time)
{
	for (int i = 0; i < r->nr; i++) {
		struct rs_cpu *c = &r->cpu[i];

		account(r, i, c, time);
		if (c->since < time)
			c->since = time;
	}
	if (time > r->edge)
		r->edge = time;
}

bool runslice__runs(const struct runslice *r, u32 cpu, u32 tid)
{
	return cpu < (u32)r->nr && r->cpu[cpu].known && r->cpu[cpu].tid == tid;
}

void runslice__stats(const struct runslice *r, struct runslice_stats *st)
{
	*st = r->st;
}

static void on_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	(void)s, (void)nr;
	runslice__lost(priv, cpu);
}

static const struct session_ops runslice_ops = { .lost = on_lost };

int runslice__add_hooks(struct runslice *r, struct session *s)
{
	return session__add_ops(s, &runslice_ops, r);
}
