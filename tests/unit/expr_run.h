/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The expression tests' harness (test_expr.c, test_expr_c.c): this host's
 * formats in evs[] (the test's main loads them with expr_formats__load), the
 * context ctx the expressions run in, run() to compile and evaluate one,
 * CHECK_I/CHECK_IF/CHECK_S on its integer or string result, and a
 * sched_switch record sw_smp (build_switch) to point ctx.smp at:
 *
 *	ctx.smp = &sw_smp;
 *	CHECK_I(EV_SCHED_SWITCH, "prev_pid + 1", 1235);
 */
#ifndef PP_EXPR_RUN_H
#define PP_EXPR_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/session.h"
#include "expr/expr.h"
#include "expr_formats.h"
#include "ut.h"

static struct evsel evs[NR_EV_FORMATS];
static struct expr_ctx ctx;
static char sbuf[256];

/* Compile @text on event @ev, evaluate it on ctx; a string result is copied to sbuf. */
static inline bool run(int ev, const char *text, struct expr_value *v, int *faults)
{
	char err[256];
	struct expr *e = expr__compile(text, &evs[ev], err, sizeof(err));

	memset(v, 0, sizeof(*v));
	*faults = -1;
	if (!e) {
		printf("# compile '%s': %s\n", text, err);
		return false;
	}
	*faults = expr__eval(e, &ctx, v);
	if (v->kind == EXPR_STR) {
		int n = v->len < (int)sizeof(sbuf) - 1 ? v->len : (int)sizeof(sbuf) - 1;

		memcpy(sbuf, v->str, n);
		sbuf[n] = '\0';
		v->str = sbuf;
	}
	expr__free(e);
	return true;
}

#define CHECK_IF(ev, text, want, nf)                                                           \
	do {                                                                                   \
		struct expr_value v_;                                                          \
		int f_;                                                                        \
		bool ok_ = run(ev, text, &v_, &f_);                                            \
		CHECK(ok_ &&v_.kind == EXPR_INT && v_.u == (u64)(want) && f_ == (nf),          \
		      "%s = %lld (0x%llx), %d faults; want %lld, %d faults", text,             \
		      (long long)v_.u, (unsigned long long)v_.u, f_, (long long)(want), (nf)); \
	} while (0)
#define CHECK_I(ev, text, want) CHECK_IF(ev, text, want, 0)

#define CHECK_S(ev, text, want)                                                               \
	do {                                                                                  \
		struct expr_value v_;                                                         \
		int f_;                                                                       \
		bool ok_ = run(ev, text, &v_, &f_);                                           \
		CHECK(ok_ &&v_.kind == EXPR_STR && !strcmp(v_.str, want) && !f_,              \
		      "%s = '%s' (%d faults), want '%s'", text, ok_ ? v_.str : "", f_, want); \
	} while (0)

static inline void put(unsigned char *raw, int off, const void *p, size_t n)
{
	memcpy(raw + off, p, n);
}
#define PUT(raw, off, type, val)                  \
	do {                                      \
		type v__ = (type)(val);           \
		put(raw, off, &v__, sizeof(v__)); \
	} while (0)

/* sched_switch: bash (1234, prio 120, D) -> swapper/1 (0) */
static unsigned char sw_raw[64];
static struct sample sw_smp = { .raw = sw_raw,
				.raw_size = sizeof(sw_raw),
				.cpu = 1,
				.pid = 1234,
				.tid = 1235,
				.time = 123456789,
				.period = 1 };

static inline void build_switch(void)
{
	PUT(sw_raw, 0, uint16_t, 372);
	PUT(sw_raw, 4, int32_t, 1234);
	put(sw_raw, 8, "bash", 5);
	PUT(sw_raw, 24, int32_t, 1234);
	PUT(sw_raw, 28, int32_t, 120);
	PUT(sw_raw, 32, int64_t, 2);
	put(sw_raw, 40, "swapper/1", 10);
	PUT(sw_raw, 56, int32_t, 0);
	PUT(sw_raw, 60, int32_t, 120);
}

#endif
