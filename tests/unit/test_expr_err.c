// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed expressions: each is refused at compile time with its message
 * and the exact column of the culprit, and the formatted error puts the
 * caret under it.
 */
#include <stdio.h>
#include <string.h>

#include "engine/session.h"
#include "expr/expr.h"
#include "expr_formats.h"
#include "ut.h"

static const struct bad {
	int ev;
	const char *text;
	int col;
	const char *msg; /* a part of the message */
} bad[] = {
	/* syntax */
	{ EV_SCHED_WAKEUP, "", 0, "empty expression" },
	{ EV_SCHED_WAKEUP, "   ", 0, "empty expression" },
	{ EV_SCHED_WAKEUP, "pid <", 5, "expected an operand, found the end" },
	{ EV_SCHED_WAKEUP, "1 +", 3, "expected an operand" },
	{ EV_SCHED_WAKEUP, "pid && ", 7, "expected an operand" },
	{ EV_SCHED_WAKEUP, "pid @ 1", 4, "unexpected character '@'" },
	{ EV_SCHED_WAKEUP, "pid $ 1", 4, "unexpected character '$'" },
	{ EV_SCHED_WAKEUP, "(pid + 1", 8, "expected ')' to close the '(' at column 0" },
	{ EV_SCHED_WAKEUP, "pid + 1)", 7, "')' without its '('" },
	{ EV_SCHED_WAKEUP, "pid 1", 4, "expected an operator, found '1'" },
	{ EV_SCHED_WAKEUP, "pid prio", 4, "expected an operator, found 'prio'" },
	{ EV_SCHED_WAKEUP, "pid <<< 1", 6, "expected an operand, found '<'" },
	{ EV_SCHED_WAKEUP, "pid ? 1", 7, "expected ':' of '?:'" },
	{ EV_SCHED_WAKEUP, "pid ? : 2", 6, "expected an operand, found ':'" },
	{ EV_SCHED_WAKEUP, "()", 1, "expected an operand, found ')'" },
	{ EV_SCHED_WAKEUP, "* pid", 0, "'*' needs a pointer: a cast gives one" },
	{ EV_SCHED_WAKEUP, "/ pid", 0, "expected an operand, found '/'" },
	/* C's operators on what they cannot take */
	{ EV_SCHED_WAKEUP, "1 = 2", 0, "'=' needs a name" },
	{ EV_SCHED_WAKEUP, "pid + 1 = 2", 0, "'=' needs a name" },
	{ EV_SCHED_WAKEUP, "comm++", 0, "'++' needs a name" },
	{ EV_SCHED_WAKEUP, "--(pid + 1)", 3, "'--' needs a name" },
	{ EV_SCHED_WAKEUP, "x = comm", 4, "a string cannot be assigned" },
	{ EV_SCHED_WAKEUP, "&1", 0, "'&' needs a field of the event" },
	{ EV_SCHED_WAKEUP, "&_cpu", 0, "'&' needs a field of the event" },
	{ EV_SCHED_WAKEUP, "1[0]", 1, "'[' needs an array, a pointer or a string" },
	{ EV_SCHED_WAKEUP, "&pid + &pid", 5, "adding two pointers" },
	{ EV_SCHED_WAKEUP, "1 - &pid", 4, "a number minus a pointer" },
	{ EV_SCHED_WAKEUP, "(u8 *********)pid", 12, "bad cast: too many '*'" },
	{ EV_SCHED_WAKEUP, "pid, ", 5, "expected an operand" },
	{ EV_SCHED_WAKEUP, "# only a comment", 0, "empty expression" },
	/* printf() and system() */
	{ EV_SCHED_WAKEUP, "printf(pid)", 7,
	  "the format of printf() must be a string in double quotes" },
	{ EV_SCHED_WAKEUP, "printf()", 7, "printf() needs a format" },
	{ EV_SCHED_WAKEUP, "printf(\"%d %d\", pid)", 11, "more conversions than values (1)" },
	{ EV_SCHED_WAKEUP, "printf(\"%d\", pid, 1)", 10, "2 values for 1 conversion" },
	{ EV_SCHED_WAKEUP, "printf(\"%f\", pid)", 8, "no floating point" },
	{ EV_SCHED_WAKEUP, "printf(\"%*d\", 2, pid)", 8, "'*' widths are not supported" },
	{ EV_SCHED_WAKEUP, "printf(\"%s\", pid)", 8, "%s of value 1, a number" },
	{ EV_SCHED_WAKEUP, "printf(\"%d\", comm)", 8, "%d of value 1, a string" },
	{ EV_SCHED_WAKEUP, "printf(\"%999d\", pid)", 8, "a width over 256" },
	{ EV_SCHED_WAKEUP, "printf(\"%\")", 8, "a '%' without its conversion" },
	{ EV_SCHED_WAKEUP, "system(\"%d%d%d%d%d%d%d\",1,2,3,4,5,6,7)", 36,
	  "a format and 6 values at most" },
	{ EV_SCHED_WAKEUP, "exit_reason_str(1)", 17, "exit_reason_str() takes 2 arguments" },
	/* literals */
	{ EV_SCHED_WAKEUP, "comm == \"abc", 8, "unterminated string" },
	{ EV_SCHED_WAKEUP, "comm == \"ab\\", 11, "unterminated escape" },
	{ EV_SCHED_WAKEUP, "pid == 'a", 7, "unterminated character constant" },
	{ EV_SCHED_WAKEUP, "pid == ''", 7, "empty character constant" },
	{ EV_SCHED_WAKEUP, "pid == 'ab'", 7, "unterminated character constant" },
	{ EV_SCHED_WAKEUP, "pid == '\\q'", 8, "unknown escape '\\q'" },
	{ EV_SCHED_WAKEUP, "comm == \"\\xg\"", 9, "\\x needs hex digits" },
	{ EV_SCHED_WAKEUP, "pid + 0x", 8, "hex number without digits" },
	{ EV_SCHED_WAKEUP, "pid + 08", 7, "bad digit '8' in an octal number" },
	{ EV_SCHED_WAKEUP, "pid + 12abc", 8, "bad character 'a' in a number" },
	{ EV_SCHED_WAKEUP, "pid + 18446744073709551616", 6, "number too large" },
	/* names */
	{ EV_SCHED_WAKEUP, "pid<prio2", 4, "unknown field 'prio2'" },
	{ EV_SCHED_WAKEUP, "_foo == 1", 0, "unknown field '_foo'" },
	{ EV_SCHED_WAKEUP, "CPU == 1", 0, "unknown field 'CPU'" }, /* filters only */
	{ EV_SCHED_WAKEUP, "pid + foo(1)", 6, "unknown function 'foo'" },
	{ EV_SCHED_WAKEUP, "pid[0]", 3, "'pid' is not an array" },
	{ EV_SYS_ENTER, "args", 0, "'args' is an array: give an index, args[0]" },
	{ EV_SYS_ENTER, "args + 1", 0, "'args' is an array" },
	{ EV_SYS_ENTER, "args[6]", 5, "index 6 is outside 'args' (6 elements)" },
	{ EV_SYS_ENTER, "args[1", 6, "expected ']'" },
	{ EV_SYS_ENTER, "args[\"x\"]", 5, "a string used as a number" },
	{ EV_DMA_UNMAP_SG, "addrs == 1", 0, "'addrs' is an array" },
	/* types */
	{ EV_SCHED_WAKEUP, "comm + 1", 0, "a string used as a number" },
	{ EV_SCHED_WAKEUP, "1 + comm", 4, "a string used as a number" },
	{ EV_SCHED_WAKEUP, "!comm", 1, "a string used as a number" },
	{ EV_SCHED_WAKEUP, "-\"abc\"", 1, "a string used as a number" },
	{ EV_SCHED_WAKEUP, "comm && pid", 0, "a string used as a number" },
	{ EV_SCHED_WAKEUP, "comm ? 1 : 2", 0, "a string used as a number" },
	{ EV_SCHED_WAKEUP, "comm == 1", 8, "comparing a string with a number" },
	{ EV_SCHED_WAKEUP, "pid != \"x\"", 7, "comparing a number with a string" },
	{ EV_SCHED_WAKEUP, "comm < \"a\"", 5, "strings compare with ==, != and ~ only" },
	{ EV_SCHED_WAKEUP, "pid ~ \"1*\"", 0, "'~' matches a string against a glob" },
	{ EV_SCHED_WAKEUP, "comm ~ 1", 7, "the glob after '~' must be a string" },
	{ EV_SCHED_WAKEUP, "pid ? 1 : comm", 10, "both sides of ':'" },
	{ EV_SCHED_WAKEUP, "pid / 0", 6, "division by zero" },
	{ EV_SCHED_WAKEUP, "pid % (2 - 2)", 7, "division by zero" },
	/* casts */
	{ EV_SCHED_WAKEUP, "(u32)comm", 0, "bad cast: a string cannot be cast" },
	{ EV_SCHED_WAKEUP, "(unsigned foo)pid", 10, "bad cast: 'foo' is not an integer type" },
	{ EV_SCHED_WAKEUP, "(signed unsigned)pid", 0, "bad cast: not a C integer type" },
	{ EV_SCHED_WAKEUP, "(long char)pid", 0, "bad cast: not a C integer type" },
	{ EV_SCHED_WAKEUP, "(short long)pid", 0, "bad cast: not a C integer type" },
	{ EV_SCHED_WAKEUP, "(u8 pid", 4, "bad cast: expected ')' after the type, found 'pid'" },
	{ EV_SCHED_WAKEUP, "(s8)", 4, "expected an operand, found the end" },
	/* functions */
	{ EV_SCHED_WAKEUP, "ksymbol()", 8, "ksymbol() takes 1 argument" },
	{ EV_SCHED_WAKEUP, "ksymbol(1, 2)", 11, "ksymbol() takes 1 argument" },
	{ EV_SCHED_WAKEUP, "ntohs(comm)", 6, "argument 1 of ntohs() must be a number" },
	{ EV_SCHED_WAKEUP, "strncmp(comm, 1, 2)", 14, "argument 2 of strncmp() must be a string" },
	{ EV_SCHED_WAKEUP, "strncmp(comm, \"a\")", 17, "strncmp() takes 3 arguments" },
	{ EV_SCHED_WAKEUP, "ksymbol(1", 9, "expected ',' or ')' in the call of ksymbol()" },
	{ EV_SCHED_WAKEUP, "syscall_name(1) + 1", 0, "a string used as a number" },
};

#define CHECK_MSG(got, want) CHECK(!strcmp(got, want), "'%s' != '%s'", got, want)

static void check_bad(struct evsel *evs)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct bad *b = &bad[i];
		struct expr_error err;
		struct expr *e = expr__compile_ex(b->text, &evs[b->ev], 0, &err);

		CHECK(!e && err.col == b->col && strstr(err.msg, b->msg),
		      "'%s': col %d '%s', want col %d '%s'", b->text, e ? -2 : err.col,
		      e ? "(compiled)" : err.msg, b->col, b->msg);
		expr__free(e);
	}
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct evsel evs[NR_EV_FORMATS];
	struct expr_error err;
	char buf[512], deep[1024];
	struct expr *e;

	CHECK(tep && expr_formats__load(tep, evs) == 0, "formats");
	if (ut_fail)
		return ut_done("test_expr_err");
	check_bad(evs);

	/* the message the CLI prints: expression, caret under the column */
	e = expr__compile("pid<prio2", &evs[EV_SCHED_WAKEUP], buf, sizeof(buf));
	CHECK(!e, "compiled");
	CHECK_MSG(buf, "expr: unknown field 'prio2'\n  pid<prio2\n      ^");
	e = expr__compile("pid <", &evs[EV_SCHED_WAKEUP], buf, sizeof(buf));
	CHECK_MSG(buf, "expr: expected an operand, found the end\n  pid <\n       ^");
	/* control characters echo as blanks so that the caret stays aligned */
	e = expr__compile("pid\t+\n@", &evs[EV_SCHED_WAKEUP], buf, sizeof(buf));
	CHECK_MSG(buf, "expr: unexpected character '@'\n  pid + @\n        ^");
	/* a short buffer truncates, never overflows */
	e = expr__compile("pid<prio2", &evs[EV_SCHED_WAKEUP], buf, 10);
	CHECK_MSG(buf, "expr: unk");
	e = expr__compile("pid<prio2", &evs[EV_SCHED_WAKEUP], NULL, 0);
	CHECK(!e, "NULL buffer");

	/* nesting: parentheses, unary chains and long operator chains are bounded */
	memset(deep, '(', 300);
	strcpy(deep + 300, "1");
	CHECK(!expr__compile_ex(deep, &evs[0], 0, &err) && strstr(err.msg, "nested too deeply"),
	      "%s", err.msg);
	memset(deep, '-', 300);
	strcpy(deep + 300, "pid");
	CHECK(!expr__compile_ex(deep, &evs[EV_SCHED_WAKEUP], 0, &err) &&
		      strstr(err.msg, "nested too deeply"),
	      "%s", err.msg);
	deep[0] = '\0';
	for (int i = 0; i < 140; i++)
		strcat(deep, "pid+");
	strcat(deep, "1");
	CHECK(!expr__compile_ex(deep, &evs[EV_SCHED_WAKEUP], 0, &err) &&
		      strstr(err.msg, "nested too deeply"),
	      "%s", err.msg);
	/* ... but a hundred levels are fine */
	deep[0] = '\0';
	for (int i = 0; i < 100; i++)
		strcat(deep, "pid+");
	strcat(deep, "1");
	e = expr__compile_ex(deep, &evs[EV_SCHED_WAKEUP], 0, &err);
	CHECK(e != NULL, "100 levels: %s", err.msg);
	expr__free(e);

	/* casts nest like the unary operators, folded or not */
	deep[0] = '\0';
	for (int i = 0; i < 200; i++)
		strcat(deep, "(u8)");
	strcat(deep, "1");
	CHECK(!expr__compile_ex(deep, &evs[EV_SCHED_WAKEUP], 0, &err) &&
		      strstr(err.msg, "nested too deeply"),
	      "200 casts: %s", err.msg);
	deep[0] = '\0';
	for (int i = 0; i < 100; i++)
		strcat(deep, "(u8)");
	strcat(deep, "pid");
	e = expr__compile_ex(deep, &evs[EV_SCHED_WAKEUP], 0, &err);
	CHECK(e != NULL, "100 casts: %s", err.msg);
	expr__free(e);
	deep[0] = '\0';
	for (int i = 0; i < 100; i++)
		strcat(deep, "(u8)");
	strcat(deep, "1");
	e = expr__compile_ex(deep, &evs[EV_SCHED_WAKEUP], 0, &err);
	CHECK(e != NULL, "100 folded casts: %s", err.msg);
	expr__free(e);

	/* no event: only the sample's values, literals and functions */
	e = expr__compile_ex("_cpu + 1", NULL, 0, &err);
	CHECK(e != NULL, "no event");
	expr__free(e);
	CHECK(!expr__compile_ex("pid", NULL, 0, &err) && err.col == 0 &&
		      strstr(err.msg, "unknown field 'pid'"),
	      "no event: %s", err.msg);

	tep_free(tep);
	return ut_done("test_expr_err");
}
