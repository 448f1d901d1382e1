// SPDX-License-Identifier: GPL-2.0
/*
 * expr__check_filter: every -e filter parses in the expression language
 * before anything opens.  The kernel's filter syntax users rely on passes
 * (names are not looked up yet); text the kernel would take but that is
 * no condition ("a > 1 &&") is refused with the column.
 */
#include <errno.h>
#include <stdio.h>

#include "expr/expr.h"
#include "ut.h"

static void ok(const char *f)
{
	struct expr_error e;
	int r = expr__check_filter(f, &e);

	CHECK(r == 0, "'%s' refused: col %d: %s", f, e.col, e.msg);
}

static void bad(const char *f, int col, const char *msg)
{
	struct expr_error e;
	int r = expr__check_filter(f, &e);

	CHECK(r == -EINVAL, "'%s' accepted", f);
	if (r == -EINVAL) {
		CHECK_INT(e.col, col);
		CHECK_STR(e.msg, msg);
	}
}

int main(void)
{
	/* the kernel's filter syntax */
	ok("prev_pid==1");
	ok("prev_state == 2");
	ok("comm ~ \"bash*\"");
	ok("prev_comm ~ ksoft*");
	ok("prev_comm == bash");
	ok("prev_comm == 'a b'");
	ok("prev_comm != \"x\" && next_pid > 0 || !(prev_pid == 0)");
	ok("(prev_pid == 1 || prev_pid == 2) && prev_state & 2");
	ok("common_pid != 0");
	ok("ptr == 0xffffffff81000000");
	ok("prev_pid > -1");
	ok("common_cpu & CPUS{0-3,5}");
	ok("call_site.function == kfree");
	ok("arg1 == 0 && retval < 0");
	/* the language's own */
	ok("prev_pid < next_pid");
	ok("_cpu == 1 && (u32)prev_pid > 10");
	ok("syscall_name(id) == \"read\"");
	ok("data[3] == 1");
	ok("prev_pid / next_pid > 0");
	ok("prev_pid == next_pid + 1");
	ok("x == y [0]");
	ok("prev_comm ~ foo-bar* || prev_comm == 1.5");
	ok("prev_comm == 'a b' && prev_pid == 1");
	/* C's operators of the language: names of any type, no refusal before the fields are known */
	ok("*(unsigned int *)&prev_pid == prev_pid");
	ok("(unsigned long)common_pid << 32 != 0");
	ok("sizeof(long **) == 8 && sizeof(unsigned) == 4");
	ok("n++ < 10");
	ok("++n < 10 && --m > 0");
	ok("(x = prev_pid, x > 1)");
	ok("prev_comm[0] == 'b' && *prev_comm == 'b'");
	ok("((u32 *)&args)[1] > 0");
	ok("printf(\"%d\\n\", prev_pid) > 0");
	ok("system(\"true %d\", prev_pid) == 0");
	ok("exit_reason_str(isa, exit_reason) ~ \"EPT*\"");
	ok("prev_comm ~ \"[^k]*\" && prev_comm ~ \"[!s]*\"");
	ok("prev_pid > 1 # a comment");
	ok("prev_pid > 1 // a comment");
	bad("prev_comm == \"a\" = 1", 0,
	    "'=' needs a name: a field, a _variable or a variable of the expression");
	/* refused */
	bad("prev_pid > 1 &&", 15, "expected an operand, found the end");
	bad("prev_pid ||", 11, "expected an operand, found the end");
	bad("prev_pid = 1", 9, "'=' is not an operator in a filter: compare with '=='");
	bad("prev_pid 1", 9, "expected an operator, found '1'");
	bad("(prev_pid == 1", 14, "expected ')' to close the '(' at column 0, found the end");
	bad("prev_pid == 1)", 13, "')' without its '('");
	bad("", 0, "empty expression");
	bad("comm", 0, "a filter must be a condition, not a string");
	bad("nosuchfunc(1) == 1", 0, "unknown function 'nosuchfunc'");
	bad("common_cpu & CPUS{0-3", 17, "'{' of CPUS{...} without its '}'");
	bad("common_cpu & CPUS{a}", 18, "bad CPU list in CPUS{...}");
	bad("prev_pid == 1 $", 14, "unexpected character '$'");
	bad("prev_pid == \"x", 12, "unterminated string");
	bad("prev_pid >> ", 12, "expected an operand, found the end");
	/* an expression (-k, key=) */
	{
		struct expr_error e;

		CHECK_INT(expr__check_syntax("prev_comm", &e), 0);
		CHECK_INT(expr__check_syntax("nosuch * 2 + x[1]", &e), 0);
		CHECK_INT(expr__check_syntax("prev_pid +", &e), -EINVAL);
		CHECK_INT(e.col, 10);
	}
	return ut_done("test_filter_syntax");
}
