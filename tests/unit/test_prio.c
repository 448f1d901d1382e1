// SPDX-License-Identifier: GPL-2.0
/* --prio LIST: parsing, membership, the kernel filter it becomes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/cpu/prio.h"
#include "ut.h"

static int parse(struct prio_opts *p, const char *arg)
{
	char err[256];

	memset(p, 0, sizeof(*p));
	return prio__parse(p, arg, err, sizeof(err));
}

int main(void)
{
	struct prio_opts p;
	char err[256], *f, *e = err;

	CHECK_INT(parse(&p, "1-99,120"), 0);
	CHECK(prio__has(&p, 49) && prio__has(&p, 1) && prio__has(&p, 99) && prio__has(&p, 120),
	      "kept");
	CHECK(!prio__has(&p, 0) && !prio__has(&p, 100) && !prio__has(&p, 139) &&
		      !prio__has(&p, -1) && !prio__has(&p, 140),
	      "not kept");
	CHECK(prio__has(NULL, 7), "no --prio keeps all");
	f = prio__filter(&p, "prev_prio");
	CHECK_STR(f, "(prev_prio >= 1 && prev_prio <= 99 || prev_prio == 120)");
	free(f);
	CHECK_INT(parse(&p, "0,2,3,4,139"), 0);
	f = prio__filter(&p, "prio");
	CHECK_STR(f, "(prio == 0 || prio >= 2 && prio <= 4 || prio == 139)");
	free(f);
	memset(&p, 0, sizeof(p));
	f = prio__filter(&p, "prio");
	CHECK_STR(f, "");
	free(f);
	CHECK_INT(parse(&p, "0-139"), 0);
	f = prio__filter(&p, "prio");
	CHECK_STR(f, "(prio >= 0 && prio <= 139)");
	free(f);
	/* refused: out of range, reversed, empty ends, words, empty items */
	static const char *const bad[] = { "140", "5-3", "1-", "-5", "x", "1,,2", "", "1-200" };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(parse(&p, bad[i]) == -1, "'%s' accepted", bad[i]);
	memset(&p, 0, sizeof(p));
	prio__parse(&p, "140", err, sizeof(err));
	CHECK_STR(e, "bad --prio '140' in '140' (kernel priorities 0-139: 0-99 real-time, "
		     "100-139 normal, e.g. 1-99 or 120)");
	CHECK(prio__of_task(getpid()) >= 100, "our own priority %d", prio__of_task(getpid()));
	CHECK_INT(prio__of_task(0), -1);
	return ut_done("prio");
}
