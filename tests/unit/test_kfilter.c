// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel filter clauses: comm globs quoted and joined, values that could
 * leave the quotes refused, && / || joins that drop empty sides, and the
 * split into top-level clauses that names the one the kernel rejects.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/kfilter.h"
#include "ut.h"

static void check_str(char *got, const char *want)
{
	CHECK_STR(got, want);
	free(got);
}

int main(void)
{
	int pids[3] = { 1, 22, 333 };
	char **l;

	check_str(kfilter__comm_globs("prev_comm", "nginx*"), "(prev_comm ~ \"nginx*\")");
	check_str(kfilter__comm_globs("comm", "a*,b,c?d"),
		  "(comm ~ \"a*\" || comm ~ \"b\" || comm ~ \"c?d\")");
	check_str(kfilter__comm_globs("comm", NULL), "");
	errno = 0;
	CHECK(!kfilter__comm_globs("comm", "a\"b") && errno == EINVAL, "quote refused");
	CHECK(!kfilter__globs_ok("a) || (1"), "parenthesis");
	CHECK(!kfilter__globs_ok("a\\"), "backslash");
	CHECK(!kfilter__globs_ok("a&&b") && !kfilter__globs_ok("a|b"), "operators");
	CHECK(!kfilter__globs_ok("") && !kfilter__globs_ok(",a") && !kfilter__globs_ok("a,,b") &&
		      !kfilter__globs_ok("a,"),
	      "empty globs");
	CHECK(kfilter__globs_ok("kworker/[0-9]*:*,ts_?x"), "classes and ? pass");

	CHECK(kfilter__comm_match("a*,bc", "abc"), "a*");
	CHECK(kfilter__comm_match("a*,bc", "bc"), "bc");
	CHECK(!kfilter__comm_match("a*,bc", "bcd"), "bcd");
	CHECK(kfilter__comm_match("ts_rq_*", "ts_rq_a"), "ts_rq_*");
	CHECK(kfilter__comm_match("[!a]b", "xb") && !kfilter__comm_match("[!a]b", "ab"), "[!a]");

	/* 63 characters pass; 64 are refused (comm_match could not match them) */
	{
		char g[80];

		memset(g, '*', 63);
		g[63] = '\0';
		CHECK(kfilter__globs_ok(g) && kfilter__comm_match(g, "abc"), "63 chars");
		strcpy(g + 63, "*");
		CHECK(!kfilter__globs_ok(g), "64 chars refused");
		errno = 0;
		CHECK(!kfilter__comm_globs("comm", g) && errno == EINVAL, "64 chars: EINVAL");
		CHECK(!kfilter__comm_match(g, "abc"), "64 chars match nothing");
		g[0] = 'a';
		g[1] = ',';
		CHECK(kfilter__globs_ok(g), "62 + 1 chars in two globs");
	}
	/* the kernel's glob negates with [! only: [^ would match differently */
	CHECK(!kfilter__globs_ok("[^a]b") && !kfilter__globs_ok("x,a[^b]"), "[^ refused");
	CHECK(!kfilter__comm_match("[^a]b", "xb"), "[^ matches nothing");

	check_str(kfilter__ints("common_pid", pids, 3),
		  "(common_pid == 1 || common_pid == 22 || common_pid == 333)");
	check_str(kfilter__ints("common_pid", pids, 0), "");

	check_str(kfilter__and("prev_state == 1", "(prev_comm ~ \"x\")"),
		  "prev_state == 1 && (prev_comm ~ \"x\")");
	check_str(kfilter__and("", "b"), "b");
	check_str(kfilter__and("a", ""), "a");
	check_str(kfilter__and("", ""), "");
	check_str(kfilter__or("a && b", "c"), "(a && b) || (c)");
	/* one side without a condition passes everything */
	check_str(kfilter__or("", "c"), "");

	l = kfilter__clauses("prev_state == 1 && (prev_comm ~ \"a&&b\" || x == 2) && nosuch==3");
	CHECK(l && l[0] && l[1] && l[2] && !l[3], "three clauses");
	if (l && l[0] && l[1] && l[2]) {
		CHECK_STR(l[0], "prev_state == 1");
		CHECK_STR(l[1], "(prev_comm ~ \"a&&b\" || x == 2)");
		CHECK_STR(l[2], "nosuch==3");
	}
	kfilter__free_list(l);
	/* '' quotes too, and no escapes in either: as the kernel reads them */
	l = kfilter__clauses("prev_comm ~ 'a&&b' && x == 1 && c == 'a\"&&' && d ~ \"b'&&\" && "
			     "e == 'z\\' && f ~ \"y\\\" && g == 2");
	CHECK(l && l[0] && l[1] && l[2] && l[3] && l[4] && l[5] && l[6] && !l[7], "quoted clauses");
	if (l && l[0] && l[1] && l[2] && l[3] && l[4] && l[5] && l[6]) {
		CHECK_STR(l[0], "prev_comm ~ 'a&&b'");
		CHECK_STR(l[1], "x == 1");
		CHECK_STR(l[2], "c == 'a\"&&'");
		CHECK_STR(l[3], "d ~ \"b'&&\"");
		CHECK_STR(l[4], "e == 'z\\'");
		CHECK_STR(l[5], "f ~ \"y\\\"");
		CHECK_STR(l[6], "g == 2");
	}
	kfilter__free_list(l);
	/* a top-level || keeps the filter whole: a || b && c is a || (b && c) */
	l = kfilter__clauses("a == 1 || b == 2 && c == 3");
	CHECK(l && l[0] && !l[1], "top-level ||: one clause");
	if (l && l[0])
		CHECK_STR(l[0], "a == 1 || b == 2 && c == 3");
	kfilter__free_list(l);
	l = kfilter__clauses("(a == 1 || b == 2) && c ~ '||'");
	CHECK(l && l[0] && l[1] && !l[2], "|| in parentheses or quotes: still split");
	kfilter__free_list(l);
	l = kfilter__clauses("pid > 1");
	CHECK(l && l[0] && !l[1], "one clause");
	if (l && l[0])
		CHECK_STR(l[0], "pid > 1");
	kfilter__free_list(l);
	return ut_done("test_kfilter");
}
