// SPDX-License-Identifier: GPL-2.0
/*
 * analysis/latency/sched_bpf: the state index the BPF programs compute
 * from a task's __state and exit_state is the kernel's __task_state_index
 * (what the sched_switch record carries, read by the ring path), for every
 * 16-bit __state with each exit_state: TASK_IDLE with or without
 * TASK_FREEZABLE is I, TASK_FROZEN and TASK_RTLOCK_WAIT are D.  And the
 * --filter globs compiled for the comm test match as fnmatch(3) does (the
 * ring path's test), or are refused.  sched_switch's prev_state as the
 * record encodes it (__trace_sched_switch_state: preempted 0x100, else
 * bit index - 1, R 0).  The emitted instructions run here by a small
 * interpreter.  The task prologue (sched_bpf__emit_task) is the
 * instructions the programs wrote each by hand before.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <string.h>

#include "analysis/latency/sched_bpf.h"
#include "bpf_run.h"
#include "ut.h"

/* The kernel's __task_state_index (include/linux/sched.h), for the reference. */
static unsigned kernel_index(uint32_t st, uint32_t ex)
{
	uint32_t s = (st | ex) & 0x7f; /* TASK_REPORT */

	if ((st & 0x402) == 0x402)  /* TASK_IDLE */
		s = 0x80;	    /* TASK_REPORT_IDLE */
	if (st & (0x1000 | 0x8000)) /* TASK_RTLOCK_WAIT, TASK_FROZEN */
		s = 2;		    /* TASK_UNINTERRUPTIBLE */
	return s ? 32 - __builtin_clz(s) : 0;
}

/* The comm test's verdict on @comm: 1 match, 0 not, -1 the program did not run. */
static int comm_match(const struct sched_globs *gl, const char *comm)
{
	struct bpfb c;
	char buf[16] = { 0 };
	uint64_t w[2], r;
	int fail;

	strncpy(buf, comm, 15);
	memcpy(w, buf, 16);
	bpfb__init(&c);
	fail = bpfb__label(&c);
	sched_bpf__emit_comm_test(gl, &c, R1, R2, R3, R4, fail);
	b_movi(&c, R0, 1);
	b_exit(&c);
	bpfb__here(&c, fail);
	b_movi(&c, R0, 0);
	b_exit(&c);
	r = bpfb__finish(&c) ? ~0ull : bpf_run(&c, w[0], w[1]);
	bpfb__free(&c);
	return r > 1 ? -1 : (int)r;
}

static void test_globs(void)
{
	static const char *const globs[] = {
		"sh",
		"bash,sh",
		"kworker/0*",
		"systemd-journal",
		"systemd-journald",
		"a*",
		"*",
		"s*,bash",
		"abcdefghijklmnop*",
		"abcdefghijklmno*",
		"x,abcdefghijklmnopq",
	};
	static const char *const comms[] = {
		"sh",
		"bash",
		"shx",
		"s",
		"kworker/0:1",
		"kworker/1:0",
		"kworker/0",
		"systemd-journal",
		"systemd-journa",
		"a",
		"abcdefghijklmno",
		"x",
		"",
	};
	static const char *const refused[] = { "a?c", "[ab]c", "a\\b", "*a", "a*b" };
	char why[160];

	for (unsigned g = 0; g < sizeof(globs) / sizeof(globs[0]); g++) {
		struct sched_globs gl;
		char list[64];

		CHECK_INT(sched_bpf__compile_globs(&gl, globs[g], why, sizeof(why)), 0);
		snprintf(list, sizeof(list), "%s", globs[g]);
		for (unsigned i = 0; i < sizeof(comms) / sizeof(comms[0]); i++) {
			int want = 0, got = comm_match(&gl, comms[i]);

			/* the ring path: a comm (15 bytes at most) against each glob */
			for (char *save, *one = strtok_r(list, ",", &save); one;
			     one = strtok_r(NULL, ",", &save))
				want |= !fnmatch(one, comms[i], 0);
			snprintf(list, sizeof(list), "%s", globs[g]);
			CHECK(got == want, "--filter '%s', comm '%s': %d, fnmatch's %d", globs[g],
			      comms[i], got, want);
		}
	}
	for (unsigned g = 0; g < sizeof(refused) / sizeof(refused[0]); g++) {
		struct sched_globs gl;

		why[0] = 0;
		CHECK_INT(sched_bpf__compile_globs(&gl, refused[g], why, sizeof(why)), -EOPNOTSUPP);
		CHECK(strstr(why, "only NAME and PREFIX* globs") != NULL, "'%s': %s", refused[g],
		      why);
	}
}

/* prev_state as the record carries it, for every 16-bit __state, each exit_state, preempted or not */
static void test_prev_state(void)
{
	static const uint32_t exits[] = { 0, 0x10, 0x20 };
	struct bpfb c;
	int bad = 0;

	bpfb__init(&c);
	sched_bpf__emit_prev_state(&c, R0, R1, R2, R3, R4);
	b_exit(&c);
	CHECK_INT(bpfb__finish(&c), 0);
	for (unsigned e = 0; e < 3; e++)
		for (uint32_t st = 0; st < 0x10000 && bad < 5; st++)
			for (int pre = 0; pre < 2; pre++) {
				unsigned idx = kernel_index(st, exits[e]);
				uint64_t want = pre ? 0x100 : idx ? 1u << (idx - 1) : 0;
				uint64_t got = bpf_run3(&c, (uint64_t)pre, st, exits[e]);

				if (got != want) {
					bad++;
					CHECK(0,
					      "preempt %d __state %#x exit_state %#x: %#llx, want "
					      "%#llx",
					      pre, st, exits[e], (unsigned long long)got,
					      (unsigned long long)want);
				}
			}
	CHECK(bpf_run3(&c, 1, 1, 0) == SCHED_PREV_STATE_PREEMPT, "preempted: R+");
	CHECK(bpf_run3(&c, 0, 0x402, 0) == 0x80, "TASK_IDLE: I (0x80)");
	bpfb__free(&c);
}

/* a raw tracepoint's way: a helper reads the field (rundelay_bpf's ld_field, in short) */
static void probe_load(void *arg, struct bpfb *c, int dst, int src, int off, int size)
{
	(void)arg;
	b_mov(c, R1, R10);
	b_alui(c, BPF_ADD, R1, -8);
	b_movi(c, R2, size);
	b_mov(c, R3, src);
	b_alui(c, BPF_ADD, R3, off);
	b_call(c, BPF_FUNC_probe_read_kernel);
	b_ldx(c, size, dst, R10, -8);
}

/* whether @a and @b hold the same instructions */
static bool same(struct bpfb *a, struct bpfb *b)
{
	return !bpfb__finish(a) && !bpfb__finish(b) && a->n == b->n &&
	       !memcmp(a->insn, b->insn, (size_t)a->n * sizeof(a->insn[0]));
}

/* sched_bpf__emit_task: the hand-written prologues it replaced, instruction for instruction */
static void test_task(void)
{
	const struct sched_bpf_load raw = { .fn = probe_load };

	for (int v = 0; v < 3; v++) {
		struct bpfb a, b;
		int la, lb;

		bpfb__init(&a);
		bpfb__init(&b);
		la = bpfb__label(&a);
		lb = bpfb__label(&b);
		/* v 0: ts_bpf (a load, the tid kept); 1: rundelay raw (a helper, kept); 2: not kept */
		sched_bpf__emit_task(&a, R6, 16, 1234, v ? &raw : NULL, v == 2 ? 0 : -104, la);
		b_ldx(&b, 8, R7, R6, 16);
		if (v)
			probe_load(NULL, &b, R8, R7, 1234, 4);
		else
			b_ldx(&b, 4, R8, R7, 1234);
		b_jmpi(&b, BPF_JEQ, R8, 0, lb);
		if (v != 2)
			b_stx(&b, 4, R10, -104, R8);
		bpfb__here(&a, la);
		b_exit(&a);
		bpfb__here(&b, lb);
		b_exit(&b);
		CHECK(same(&a, &b), "task prologue %d: not the hand-written instructions", v);
		bpfb__free(&a);
		bpfb__free(&b);
	}
}

int main(void)
{
	static const uint32_t exits[] = { 0, 0x10, 0x20 };
	static const struct {
		uint32_t st;
		unsigned want;
	} named[] = {
		{ 0, SCHED_R },	     { 1, SCHED_S },	  { 2, SCHED_D },      { 0x402, SCHED_I },
		{ 0x2402, SCHED_I }, { 0x2001, SCHED_S }, { 0x2002, SCHED_D }, { 0x8000, SCHED_D },
		{ 0x1000, SCHED_D }, { 0x104, SCHED_T },  { 8, SCHED_t },      { 0x40, SCHED_P },
		{ 0x102, SCHED_D },
	};
	struct bpfb c;
	int bad = 0;

	bpfb__init(&c);
	sched_bpf__emit_state(&c, R0, R1, R2, R3);
	b_exit(&c);
	CHECK_INT(bpfb__finish(&c), 0);
	for (unsigned i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		uint64_t got = bpf_run(&c, named[i].st, 0);

		CHECK(got == named[i].want, "__state %#x: index %llu, want %u", named[i].st,
		      (unsigned long long)got, named[i].want);
		CHECK(kernel_index(named[i].st, 0) == named[i].want, "reference: %#x", named[i].st);
	}
	for (unsigned e = 0; e < 3; e++)
		for (uint32_t st = 0; st < 0x10000 && bad < 5; st++) {
			uint64_t got = bpf_run(&c, st, exits[e]);

			if (got != kernel_index(st, exits[e])) {
				bad++;
				CHECK(0, "__state %#x exit_state %#x: index %llu, the kernel's %u",
				      st, exits[e], (unsigned long long)got,
				      kernel_index(st, exits[e]));
			}
		}
	bpfb__free(&c);
	test_globs();
	test_prev_state();
	test_task();
	return ut_done("sched_bpf");
}
