// SPDX-License-Identifier: GPL-2.0
/*
 * The options hrcount and hrtimer share (analysis/counting/hrgroup.h):
 * HRG_POPTS binds -e, --period and -F to a struct hrg_opts at the start of
 * the profiler's struct; -e takes at most HRG_MAX_TEXTS lists.
 */
#include <stdbool.h>
#include <string.h>

#include "analysis/counting/hrgroup.h"
#include "util/opt.h"
#include "ut.h"

struct prof {
	struct hrg_opts o;
	bool flag;
};

static const struct popt opts[] = {
	HRG_POPTS(struct prof, o, "E", "PERIOD", "FREQ"),
	{ 0 },
};

static void test_table(void)
{
	CHECK_STR(opts[0].lname, "event");
	CHECK_INT(opts[0].sname, 'e');
	CHECK_STR(opts[0].help, "E");
	CHECK_STR(opts[1].lname, "period");
	CHECK_STR(opts[1].help, "PERIOD");
	CHECK_STR(opts[2].lname, "freq");
	CHECK_INT(opts[2].sname, 'F');
	CHECK_STR(opts[2].help, "FREQ");
	CHECK(opts[3].lname == NULL, "three options");
}

static void test_set(void)
{
	struct prof p = { 0 };
	char err[128] = "";
	int i;

	for (i = 0; i < HRG_MAX_TEXTS; i++) {
		if (popt__set(&opts[0], &p, i ? "cs" : "sched:sched_switch", err, sizeof(err)))
			break;
	}
	CHECK_INT(i, HRG_MAX_TEXTS);
	CHECK_INT(p.o.nr_texts, HRG_MAX_TEXTS);
	CHECK_STR(p.o.texts[0], "sched:sched_switch");
	CHECK_STR(p.o.texts[HRG_MAX_TEXTS - 1], "cs");
	CHECK_INT(popt__set(&opts[0], &p, "cs", err, sizeof(err)), -1);
	CHECK(strcmp(err, "too many -e (at most 16; put several events in one)") == 0, "%s", err);
	CHECK_INT(p.o.nr_texts, HRG_MAX_TEXTS);

	CHECK_INT(popt__set(&opts[1], &p, "10ms", err, sizeof(err)), 0);
	CHECK_INT(p.o.period, 10000000ULL);
	CHECK_INT(popt__set(&opts[1], &p, "3", err, sizeof(err)), 0); /* a bare number is ms */
	CHECK_INT(p.o.period, 3000000ULL);
	CHECK_INT(popt__set(&opts[2], &p, "250", err, sizeof(err)), 0);
	CHECK_INT(p.o.freq, 250);
	CHECK_INT(popt__set(&opts[2], &p, "0", err, sizeof(err)), -1);
	CHECK(!p.flag, "nothing written past the struct hrg_opts");
}

int main(void)
{
	test_table();
	test_set();
	return ut_done("hrg_opts");
}
