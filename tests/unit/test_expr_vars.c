// SPDX-License-Identifier: GPL-2.0
/*
 * Expressions over plain named numbers (expr__compile_vars, hrtimer's
 * counts): names read ctx->vars by position, signed; sample variables and
 * functions still work; a bound name hides a sample variable; any other
 * name is refused with the list of names and a caret; a context without
 * the values reads 0 and counts a fault.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr.h"
#include "ut.h"

static const char *const names[] = { "sched_switch", "cs", "_periods", "_cpu" };

static long long eval(const char *text, const u64 *vals, int nr, const struct sample *smp)
{
	char err[256];
	struct expr *e = expr__compile_vars(text, names, 4, err, sizeof(err));
	struct expr_ctx ctx = { .smp = smp, .vars = vals, .nr_vars = nr };
	struct expr_value v;

	if (!e) {
		printf("# %s\n", err);
		return -999999;
	}
	expr__eval(e, &ctx, &v);
	expr__free(e);
	return (long long)v.u;
}

int main(void)
{
	u64 vals[4] = { 12, 3, 2, 7 };
	struct sample smp = { .cpu = 1, .tid = 42 };
	struct expr_faults f;
	struct expr_value v;
	struct expr *e;
	char err[512];

	CHECK_INT(eval("sched_switch > 10", vals, 4, &smp), 1);
	CHECK_INT(eval("sched_switch + cs * 2", vals, 4, &smp), 18);
	CHECK_INT(eval("sched_switch / _periods", vals, 4, &smp), 6);
	CHECK_INT(eval("cs - sched_switch", vals, 4, &smp), -9); /* signed */
	CHECK_INT(eval("cs - sched_switch < 0", vals, 4, &smp), 1);
	CHECK_INT(eval("_tid == 42 && cs == 3", vals, 4, &smp), 1);
	CHECK_INT(eval("_cpu", vals, 4, &smp), 7); /* the bound name hides the sample's */
	CHECK_INT(eval("cs > 2 ? sched_switch : 0", vals, 4, &smp), 12);

	e = expr__compile_vars("cs + nope", names, 4, err, sizeof(err));
	CHECK(!e && errno == EINVAL, "an unknown name is refused");
	CHECK(strstr(err, "unknown name 'nope' (names: sched_switch, cs, _periods, _cpu)") != NULL,
	      "%s", err);
	CHECK(strstr(err, "\n  cs + nope\n       ^") != NULL, "caret: %s", err);
	e = expr__compile_vars("x > 1", NULL, 0, err, sizeof(err));
	CHECK(!e && strstr(err, "unknown name 'x' (names: none)"), "no names: %s", err);
	e = expr__compile_vars("prev_pid > 1", names, 4, err, sizeof(err));
	CHECK(!e && strstr(err, "unknown name 'prev_pid'"), "no event format: %s", err);
	e = expr__compile_vars("cs >", names, 4, err, sizeof(err));
	CHECK(!e && strstr(err, "expected an operand"), "syntax: %s", err);

	/* no values in the context: 0 and a fault, never a read past them */
	e = expr__compile_vars("cs + _periods", names, 4, err, sizeof(err));
	CHECK(e != NULL, "%s", err);
	if (e) {
		struct expr_ctx ctx = { .smp = &smp, .vars = vals, .nr_vars = 2 };

		CHECK_INT(expr__eval(e, &ctx, &v), 1);
		CHECK_INT(v.u, 3);
		ctx.vars = NULL;
		CHECK_INT(expr__eval(e, &ctx, &v), 2);
		expr__faults(e, &f);
		CHECK_INT(f.bad_reads, 3);
		expr__free(e);
	}
	/* the event-format compilers are unchanged: a name is a field there */
	e = expr__compile("cs", NULL, err, sizeof(err));
	CHECK(!e && strstr(err, "unknown field 'cs'"), "%s", err);
	return ut_done("test_expr_vars");
}
