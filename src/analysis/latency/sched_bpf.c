// SPDX-License-Identifier: GPL-2.0
/* The scheduler tracepoints' shared pieces for BPF programs: see sched_bpf.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/latency/sched_bpf.h"

/* the kernel's task states (include/linux/sched.h) */
#define K_TASK_REPORT 0x7f	  /* R S D T t X Z P: one bit each (R none) */
#define K_TASK_IDLE 0x402	  /* TASK_UNINTERRUPTIBLE | TASK_NOLOAD */
#define K_TASK_RTLOCK_WAIT 0x1000 /* reported as D */
#define K_TASK_FROZEN 0x8000	  /* reported as D */

/* R@dst = @val[the state index] (see sched_bpf__emit_state) */
static void emit_state_as(struct bpfb *c, int dst, int st, int ex, int tmp,
			  const int val[SCHED_I + 1])
{
	static const int bit[] = { 0x40, 0x20, 0x10, 8, 4, 2, 1 };
	int done = bpfb__label(c);

	/* the kernel's order: IDLE is I, then RTLOCK_WAIT or FROZEN override it with D */
	b_movi(c, dst, val[SCHED_D]);
	b_mov(c, tmp, st);
	b_alui(c, BPF_AND, tmp, K_TASK_RTLOCK_WAIT | K_TASK_FROZEN);
	b_jmpi(c, BPF_JNE, tmp, 0, done);
	b_movi(c, dst, val[SCHED_I]);
	b_mov(c, tmp, st);
	b_alui(c, BPF_AND, tmp, K_TASK_IDLE);
	b_jmpi(c, BPF_JEQ, tmp, K_TASK_IDLE, done);
	b_alu(c, BPF_OR, st, ex);
	b_alui(c, BPF_AND, st, K_TASK_REPORT);
	/* the highest bit's index (fls): 0x40 P ... 1 S, none R */
	for (int i = 0; i < 7; i++) {
		b_movi(c, dst, val[SCHED_P - i]);
		b_jmpi(c, BPF_JGE, st, bit[i], done);
	}
	b_movi(c, dst, val[SCHED_R]);
	bpfb__here(c, done);
}

void sched_bpf__emit_state(struct bpfb *c, int dst, int st, int ex, int tmp)
{
	static const int index[SCHED_I + 1] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };

	emit_state_as(c, dst, st, ex, tmp, index);
}

void sched_bpf__emit_prev_state(struct bpfb *c, int dst, int preempt, int st, int ex, int tmp)
{
	/* index i > 0: bit i - 1 (S 0x1 ... I 0x80); R: 0 */
	static const int rec[SCHED_I + 1] = { 0, 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80 };
	int done = bpfb__label(c), asleep = bpfb__label(c);

	b_jmpi(c, BPF_JEQ, preempt, 0, asleep);
	b_movi(c, dst, SCHED_PREV_STATE_PREEMPT);
	b_ja(c, done);
	bpfb__here(c, asleep);
	emit_state_as(c, dst, st, ex, tmp, rec);
	bpfb__here(c, done);
}

void sched_bpf__emit_task(struct bpfb *c, int ctx, int16_t off, int off_pid,
			  const struct sched_bpf_load *load, int16_t key, int skip)
{
	b_ldx(c, 8, R7, ctx, off);
	if (load && load->fn)
		load->fn(load->arg, c, R8, R7, off_pid, 4);
	else
		b_ldx(c, 4, R8, R7, (int16_t)off_pid);
	b_jmpi(c, BPF_JEQ, R8, 0, skip);
	if (key)
		b_stx(c, 4, R10, key, R8);
}

int sched_bpf__compile_globs(struct sched_globs *gl, const char *globs, char *why, size_t len)
{
	const char *p = globs, *e;

	gl->n = 0;
	if (!globs)
		return 0;
	for (; *p; p = *e ? e + 1 : e) {
		size_t n, full;
		bool prefix;

		e = strchrnul(p, ',');
		n = (size_t)(e - p);
		prefix = n && p[n - 1] == '*';
		full = prefix ? n - 1 : n;
		if (strcspn(p, "*?[\\") < full) {
			snprintf(why, len,
				 "--filter '%.*s': only NAME and PREFIX* globs are compiled",
				 (int)n, p);
			return -EOPNOTSUPP;
		}
		if (prefix && !full) { /* "*": every comm */
			gl->n = 0;
			return 0;
		}
		if (full > 15)
			continue; /* a comm has 15 bytes: never matches */
		if (gl->n == SCHED_BPF_MAX_GLOBS) {
			snprintf(why, len, "--filter: more than %d globs", SCHED_BPF_MAX_GLOBS);
			return -EOPNOTSUPP;
		}
		memset(&gl->g[gl->n], 0, sizeof(gl->g[0]));
		for (size_t i = 0; i < 16; i++) {
			if (i < full)
				gl->g[gl->n].val[i / 8] |= (uint64_t)(unsigned char)p[i]
							   << (8 * (i % 8));
			if (i < full || !prefix)
				gl->g[gl->n].mask[i / 8] |= 0xffULL << (8 * (i % 8));
		}
		gl->n++;
	}
	if (!gl->n) { /* only globs longer than a comm: nothing matches */
		/* a comm's first byte is never 1 (the whole byte: mask 0xff) */
		memset(&gl->g[0], 0, sizeof(gl->g[0]));
		gl->g[0].val[0] = 1;
		gl->g[0].mask[0] = 0xff;
		gl->n = 1;
	}
	return 0;
}

void sched_bpf__emit_comm_test(const struct sched_globs *gl, struct bpfb *c, int lo, int hi, int t1,
			       int t2, int fail)
{
	int ok = bpfb__label(c);

	if (!gl->n)
		return;
	for (int i = 0; i < gl->n; i++) {
		int next = bpfb__label(c);

		for (int w = 0; w < 2; w++) {
			if (!gl->g[i].mask[w])
				continue;
			b_mov(c, t1, w ? hi : lo);
			if (gl->g[i].mask[w] != ~0ULL) {
				b_ld64(c, t2, gl->g[i].mask[w]);
				b_alu(c, BPF_AND, t1, t2);
			}
			b_ld64(c, t2, gl->g[i].val[w]);
			b_jmp(c, BPF_JNE, t1, t2, next);
		}
		b_ja(c, ok);
		bpfb__here(c, next);
	}
	b_ja(c, fail);
	bpfb__here(c, ok);
}
