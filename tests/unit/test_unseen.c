// SPDX-License-Identifier: GPL-2.0
/*
 * analysis/counting/unseen on samples made by hand: the counter's value of
 * each (PERF_SAMPLE_READ) against its last one: the first sample's count
 * from 0, a jump of N periods more than one is N samples missing, a period
 * of 2 divides (a fraction rounded), a lower count is a new counter from 0,
 * CPUs and (per thread) threads each their own counter, a sample without
 * a count none.
 */
#include <linux/perf_event.h>

#include "analysis/counting/unseen.h"
#include "ut.h"

static u64 smp(struct unseen *u, u64 id, u32 cpu, u32 tid, u64 val, u64 period)
{
	struct sample s = { .sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD,
			    .id = id,
			    .cpu = cpu,
			    .tid = tid,
			    .period = period,
			    .read_nr = 1,
			    .read_values = &val };

	return unseen__sample(u, &s);
}

int main(void)
{
	struct unseen *u = unseen__new(false);
	struct sample none = { .sample_type = PERF_SAMPLE_PERIOD, .id = 1, .period = 1 };

	CHECK(u != NULL, "new");
	CHECK_INT(smp(u, 1, 0, 5, 1, 1), 0);	/* the first: 1 counted, none missing */
	CHECK_INT(smp(u, 1, 0, 5, 2, 1), 0);	/* one more */
	CHECK_INT(smp(u, 1, 0, 5, 9, 1), 6);	/* 3..8 missing */
	CHECK_INT(smp(u, 1, 0, 7, 10, 1), 0);	/* per CPU: another thread, the same counter */
	CHECK_INT(smp(u, 1, 1, 5, 4, 1), 3);	/* CPU 1's first: 1..3 missing */
	CHECK_INT(smp(u, 2, 0, 5, 1, 1), 0);	/* another id: its own */
	CHECK_INT(smp(u, 1, 0, 5, 3, 1), 2);	/* lower: a new counter, 1 and 2 missing */
	CHECK_INT(unseen__sample(u, &none), 0); /* no count: nothing said */
	CHECK_INT(smp(u, 3, 0, 5, 2, 2), 0);	/* period 2: the first, no miss */
	CHECK_INT(smp(u, 3, 0, 5, 10, 2), 3);	/* grew 8: 3 samples missing */
	CHECK_INT(smp(u, 3, 0, 5, 15, 2), 2);	/* grew 5: 1.5 more periods, rounded */
	unseen__free(u);

	u = unseen__new(true); /* per thread: each thread its counter */
	CHECK_INT(smp(u, 1, 0, 5, 1, 1), 0);
	CHECK_INT(smp(u, 1, 0, 6, 3, 1), 2); /* thread 6's first (inherited: from 0) */
	CHECK_INT(smp(u, 1, 0, 5, 2, 1), 0); /* thread 5's own, not 6's */
	CHECK_INT(smp(u, 1, 0, 6, 4, 1), 0);
	unseen__free(u);
	unseen__free(NULL);
	return ut_done("unseen");
}
