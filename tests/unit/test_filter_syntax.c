// SPDX-License-Identifier: GPL-2.0
/*
 * expr__check_filter: every -e filter parses in the expression language
 * before anything opens.  Every filter the kernel takes or the build
 * before the check ran (in user space: bare words, globs) passes; text
 * the kernel would take but that is no condition ("a > 1 &&") is refused
 * with the column.  The kernel's verdicts in the comments are those of
 * 6.18 (events/sched/sched_switch/filter of a tracefs instance).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "expr/expr.h"
#include "ut.h"

/* pass the check */
static const char *const good[] = {
	/* the kernel's own syntax */
	"prev_pid==1",
	"prev_state == 2",
	"prev_pid == 1 || (prev_state & 2)",
	"common_pid == 1 || (prev_state & 2)",
	"!(prev_pid == 0)",
	"!!(prev_pid==0)",
	"!prev_pid==0",
	"prev_prio < 100 && next_prio >= 120",
	"prev_prio<100&&next_prio>=120",
	"prev_pid  ==  1",
	"(prev_pid==1)&&(prev_pid==2)",
	"prev_pid == 0x1f",
	"prev_pid == 0X1F",
	"prev_pid == -1",
	"prev_pid == -0x1f",
	"prev_pid > -1",
	"prev_pid == 010",
	"prev_state&2",
	"ptr == 0xffffffff81000000",
	"function == 0xffffffff8141e2b0",
	"call_site == 0xffffffff8141e2b0 && ptr != 0",
	"arg1 == 0 && retval < 0",
	"common_cpu == 1",
	"CPU == 1 || cpu == 0",
	"comm != \"bash\"",
	"COMM == \"bash\"",
	"prev_comm ~ \"*sh\"",
	"prev_comm ~ \"b[a]sh\"",
	"prev_comm ~ \"[!a]*\"",
	"prev_comm == 'a b'",
	"prev_comm != \"x\" && next_pid > 0 || !(prev_pid == 0)",
	"prev_comm!=\"x\"&&prev_pid==1",
	"prev_comm == \"a\\q\"", /* the kernel has no escapes */
	"prev_comm == \"a\\\"",
	"filename ~ \"*bash\"", /* a __data_loc char[] */
	"filename == \"/bin/sh\"",
	/* NAME.function: a symbol, by name or address */
	"call_site.function == kfree",
	"call_site.function == kfree && ptr != 0",
	"call_site.function == 0xffffffff8141e2b0",
	"call_site.function == kfree.cold", /* the kernel judges the name */
	/* CPUS{}: the kernel's cpulist */
	"common_cpu & CPUS{0-3,5}",
	"target_cpu & CPUS{0-N}",
	"CPU & CPUS{0-7:2/4}",
	"cpumask & CPUS{all}",
	"common_cpu == CPUS{1}",
	"(CPU & CPUS{0})",
	"CPU&CPUS{0}&&prev_pid==1",
	/* bare words, read in user space before (the kernel wants quotes) */
	"prev_comm == bash",
	"prev_comm==bash",
	"comm != bash",
	"prev_comm ~ ksoft*",
	"prev_comm ~ *sh",
	"prev_comm ~ [!k]*",
	"prev_comm==kworker:0",
	"prev_comm ~ b[a]sh",
	"prev_comm == bash!",
	"prev_comm==ba=sh",
	"prev_comm ~ a?b",
	"prev_comm == kworker/u8:2 && prev_pid > 0",
	"COMM ~ kworker:*",
	"comm == bash!",
	"prev_comm == 1.5",
	"prev_comm == 12abc",
	"prev_comm == 09",
	"prev_comm == -x",
	"prev_comm == gmain.thread",
	"prev_comm == systemd-journal",
	"prev_comm == a,b",
	"(prev_comm == bash!) || prev_pid == 0",
	"prev_comm==bash!||prev_pid==0",
	"prev_comm ~ foo-bar* || prev_comm == 1.5",
	"prev_comm == 'a b' && prev_pid == 1",
	"syscall_name(id) == read",
	/* the language's own */
	"prev_pid < next_pid",
	"_cpu == 1 && (u32)prev_pid > 10",
	"syscall_name(id) == \"read\"",
	"data[3] == 1",
	"prev_pid / next_pid > 0",
	"prev_pid == next_pid + 1",
	"x == y [0]",
	"prev_pid ? prev_comm == a : 0",
	"prev_pid == 1 ? 2 : 3",
	"(prev_pid ? prev_comm : next_comm) == \"x\"",
	"strncmp(prev_comm, next_comm, 3) == 0",
	"data[prev_pid == 1] == 2",
	/* C's operators of the language: names of any type, no refusal before the fields are known */
	"*(unsigned int *)&prev_pid == prev_pid",
	"(unsigned long)common_pid << 32 != 0",
	"sizeof(long **) == 8 && sizeof(unsigned) == 4",
	"n++ < 10",
	"++n < 10 && --m > 0",
	"(x = prev_pid, x > 1)",
	"prev_comm[0] == 'b' && *prev_comm == 'b'",
	"((u32 *)&args)[1] > 0",
	"printf(\"%d\\n\", prev_pid) > 0",
	"system(\"true %d\", prev_pid) == 0",
	"exit_reason_str(isa, exit_reason) ~ \"EPT*\"",
	"prev_comm ~ \"[^k]*\" && prev_comm ~ \"[!s]*\"",
	"prev_pid > 1 # a comment",
	"prev_pid > 1 // a comment",
	/* ... with a compare inside: the comma, an index, a call's arguments */
	"(x = prev_comm == \"bash\", x > 0)",
	"(prev_pid == x, prev_comm == bash!)",
	"*(u32 *)&data[prev_comm == a] == 1",
	"printf(\"%d\\n\", prev_comm == bash) > 0",
	"strncmp(prev_comm, next_comm, prev_comm == b ? 1 : 2) == 0",
	"prev_pid == 1 &&& prev_pid == 2", /* && &prev_pid: C's address-of */
};

/* refused, with the column and the words */
static const struct {
	const char *f;
	int col;
	const char *msg;
} bad[] = {
	{ "prev_pid > 1 &&", 15, "expected an operand, found the end" },
	{ "prev_pid ||", 11, "expected an operand, found the end" },
	{ "prev_pid = 1", 9, "'=' is not an operator in a filter: compare with '=='" },
	{ "prev_comm == \"a\" = 1", 0,
	  "'=' needs a name: a field, a _variable or a variable of the expression" },
	{ "prev_pid == 1 = 2", 0,
	  "'=' needs a name: a field, a _variable or a variable of the expression" },
	{ "prev_pid 1", 9, "expected an operator, found '1'" },
	{ "(prev_pid == 1", 14, "expected ')' to close the '(' at column 0, found the end" },
	{ "prev_pid == 1)", 13, "')' without its '('" },
	{ "prev_pid == ((1)", 16, "expected ')' to close the '(' at column 12, found the end" },
	{ "", 0, "empty expression" },
	{ "  ", 0, "empty expression" },
	{ "()", 1, "expected an operand, found ')'" },
	{ "&& prev_pid == 1", 0, "expected an operand, found '&&'" },
	{ "prev_pid == 1 ||| prev_pid == 2", 16, "expected an operand, found '|'" },
	{ "comm", 0, "a filter must be a condition, not a string" },
	{ "nosuchfunc(1) == 1", 0, "unknown function 'nosuchfunc'" },
	{ "prev_pid == 1 $", 14, "unexpected character '$'" },
	{ "prev_pid == \"x", 12, "unterminated string" },
	{ "prev_comm == 'x", 13, "unterminated string" },
	{ "prev_pid >> ", 12, "expected an operand, found the end" },
	{ "prev_comm == a b", 15, "expected an operator, found 'b'" },
	{ "prev_comm == (a", 15, "expected ')' to close the '(' at column 13, found the end" },
	{ "prev_comm ==", 12, "expected an operand, found the end" },
	{ "prev_comm == bash)", 17, "')' without its '('" },
	{ "common_cpu & CPUS{0-3", 17, "'{' of CPUS{...} without its '}'" },
	{ "common_cpu & CPUS{a}", 18, "bad CPU list in CPUS{...}" },
	{ "common_cpu & CPUS{}", 18, "bad CPU list in CPUS{...}" },
};

/* CPUS{LIST}: the kernel's cpulist syntax (6.18's verdicts; ranges are its to judge) */
static const char *const cpus_good[] = {
	"0",   "0,1",	  "0-1",     "0,,1", ",0",	  "0,",	     "N",
	"0-N", "0-N:1/2", "0-1:1/2", "0 1",  " ",	  " 0 , 1 ", "all",
	"ALL", "all,0",	  "all:1/2", "00",   "0-1:1/2,N", "1-0",     "0-1:1/0",
};
static const char *const cpus_bad[] = {
	"0x1", "allx",	"0-",	 "-1", "0-1:1",	   "0-1:/2",	"0 - 1",
	"al",  "0:1/2", "N:1/2", "1a", "0-1:1/2x", "0-1:1/2:3", "a",
};

static int check(const char *f, struct expr_error *e)
{
	return expr__check_filter(f, e);
}

int main(void)
{
	struct expr_error e;
	char f[128];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int r = check(good[i], &e);

		CHECK(r == 0, "'%s' refused: col %d: %s", good[i], e.col, e.msg);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = check(bad[i].f, &e);

		CHECK(r == -EINVAL, "'%s' accepted", bad[i].f);
		if (r == -EINVAL) {
			CHECK(e.col == bad[i].col, "'%s': col %d, not %d", bad[i].f, e.col,
			      bad[i].col);
			CHECK_STR(e.msg, bad[i].msg);
		}
	}
	for (size_t i = 0; i < sizeof(cpus_good) / sizeof(cpus_good[0]); i++) {
		snprintf(f, sizeof(f), "CPU & CPUS{%s}", cpus_good[i]);
		CHECK(check(f, &e) == 0, "'%s' refused: col %d: %s", f, e.col, e.msg);
	}
	for (size_t i = 0; i < sizeof(cpus_bad) / sizeof(cpus_bad[0]); i++) {
		snprintf(f, sizeof(f), "CPU & CPUS{%s}", cpus_bad[i]);
		CHECK(check(f, &e) == -EINVAL, "'%s' accepted", f);
		CHECK_STR(e.msg, "bad CPU list in CPUS{...}");
	}
	/* the column of a bad CPU list is the bad byte's */
	CHECK_INT(check("CPU & CPUS{0-1:1/2x}", &e), -EINVAL);
	CHECK_INT(e.col, 18);

	/*
	 * Second tries (a bare word after an operand that failed) are bounded:
	 * 100 nested ones would take 2^100 parses; the verdict is the language's.
	 */
	{
		char deep[1024] = "a == ";

		for (int i = 0; i < 100; i++)
			strcat(deep, "x[b == ");
		strcat(deep, "1 +");
		CHECK_INT(check(deep, &e), -EINVAL);
	}
	/* ... and a long filter of bare words still passes */
	{
		char many[4096] = "";

		for (int i = 0; i < 60; i++)
			snprintf(many + strlen(many), sizeof(many) - strlen(many),
				 "%s(comm == b%d! && prev_pid == %d)", i ? " || " : "", i, i);
		CHECK(check(many, &e) == 0, "60 bare words: col %d: %s", e.col, e.msg);
	}

	/* an expression (-k, key=): its syntax, any name a field of any type */
	CHECK_INT(expr__check_syntax("prev_comm", &e), 0);
	CHECK_INT(expr__check_syntax("nosuch * 2 + x[1]", &e), 0);
	CHECK_INT(expr__check_syntax("prev_pid ? prev_comm : \"x\"", &e), 0);
	CHECK_INT(expr__check_syntax("prev_pid ? \"x\" : prev_comm", &e), 0);
	CHECK_INT(expr__check_syntax("(prev_pid ? a : b) == \"x\"", &e), 0);
	CHECK_INT(expr__check_syntax("-prev_pid", &e), 0);
	CHECK_INT(expr__check_syntax("prev_pid +", &e), -EINVAL);
	CHECK_INT(e.col, 10);
	CHECK_INT(expr__check_syntax("prev_pid ? 1 : \"x\"", &e), -EINVAL);
	CHECK_STR(e.msg, "both sides of ':' must be numbers or both strings");
	/* a bare word is a filter's: an expression has none */
	CHECK_INT(expr__check_syntax("prev_comm == bash!", &e), -EINVAL);
	return ut_done("test_filter_syntax");
}
