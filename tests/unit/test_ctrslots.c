// SPDX-License-Identifier: GPL-2.0
/*
 * stat --period's slots (analysis/counting/ctrslots) on fake counters (the
 * pipes of fake_counter.h): each read's difference in the slot of its
 * period, an interval of N slots printed after the Nth read with the sum
 * as its total; a read late by k periods leaves k - 1 slots unread ("-",
 * JSON null) and its whole count in the last one, which may be the next
 * interval's; the end prints the last interval's slots so far; per
 * instance with --perins; a clock's slots in msec (JSON: ns).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counting/ctrslots.h"
#include "cli/options.h"
#include "fake_counter.h"
#include "profiler.h"
#include "ut.h"

struct run {
	struct session *s;
	struct opt_set opts;
	struct engine_conf conf;
	void *priv;
	const struct profiler *p;
	char *out;
	size_t len;
	FILE *fp;
};

/* A session as stat's (its options parsed, never run), its output in memory. */
static int start(struct run *r, bool json)
{
	char *argv[] = { "stat", json ? "--json" : "-q", NULL };

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < nr_profilers; i++)
		if (!strcmp(profilers[i]->name, "stat"))
			r->p = profilers[i];
	if (!r->p)
		return -1;
	r->priv = calloc(1, r->p->priv_size);
	if (!r->priv || options__parse(r->p, 2, argv, &r->opts, r->priv))
		return -1;
	options__engine_conf(&r->opts, &r->conf);
	r->fp = open_memstream(&r->out, &r->len);
	r->s = r->fp ? session__new(&r->conf, r->fp) : NULL;
	if (!r->s)
		return -1;
	session__set_out(r->s, r->fp, NULL);
	session__set_json(r->s, json);
	return 0;
}

static const char *finish(struct run *r)
{
	fflush(r->fp);
	return r->out ? r->out : "";
}

static void end(struct run *r)
{
	session__delete(r->s);
	if (r->fp)
		fclose(r->fp);
	free(r->out);
	options__free(&r->opts);
	free(r->priv);
}

/* One counter, 2 CPUs, 3 slots an interval, read late once by 2 periods. */
static void test_slots(bool json, bool perins)
{
	struct fake f[2];
	struct ctr_set cs;
	struct ctr_slots sl;
	struct run r;
	const char *out;

	CHECK(!start(&r, json), "session");
	fake_init(&f[0], "cs", 2, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	fake_init(&f[1], "task-clock", 1, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	cs = set_of(f, 2);
	cs.s = r.s;
	CHECK(!ctr_slots__start(&sl, &cs, r.s, 100000000ULL, 3, perins), "start");
	/* cumulative values: CPU0 10, 10, 40 (late: 2 periods), 45 at the end; CPU1 1, 2, 3, 4 */
	put(&f[0], 0, 10, 100, 100);
	put(&f[0], 1, 1, 100, 100);
	put(&f[1], 0, 2000000, 100, 100);
	ctr_slots__tick(&sl, r.s, 1);
	put(&f[0], 0, 10, 200, 200);
	put(&f[0], 1, 2, 200, 200);
	put(&f[1], 0, 4500000, 200, 200);
	ctr_slots__tick(&sl, r.s, 1);
	put(&f[0], 0, 40, 400, 400);
	put(&f[0], 1, 3, 400, 400);
	put(&f[1], 0, 9000000, 400, 400);
	ctr_slots__tick(&sl, r.s, 2);
	put(&f[0], 0, 45, 450, 450);
	put(&f[0], 1, 4, 450, 450);
	put(&f[1], 0, 9500000, 450, 450);
	ctr_slots__end(&sl, r.s);
	out = finish(&r);
	if (json && !perins) {
		CHECK(strstr(out, "\"event\":\"cs\",\"period_ns\":100000000,\"counts\":[11,1,null],"
				  "\"total\":12}\n") != NULL,
		      "JSON: the first interval's slots, the unread one null, the total: %s", out);
		CHECK(strstr(out, "\"event\":\"cs\",\"period_ns\":100000000,\"counts\":[31,6],"
				  "\"total\":37}\n") != NULL,
		      "JSON: the late read's count in the next interval's first slot, then the "
		      "end's: %s",
		      out);
		CHECK(strstr(out, "\"event\":\"task-clock\",\"period_ns\":100000000,"
				  "\"counts\":[2000000,2500000,null],\"total\":4500000,\"unit\":"
				  "\"ns\"}") != NULL,
		      "JSON: a clock's slots and total in ns: %s", out);
	} else if (json) {
		CHECK(strstr(out, "\"cpu\":1,\"event\":\"cs\",\"period_ns\":100000000,"
				  "\"counts\":[1,1,null],\"total\":2}") != NULL,
		      "JSON --perins: CPU 1's row: %s", out);
	} else if (!perins) {
		CHECK(strstr(out, " stat: ") && strstr(out, " 3 periods of 100ms\n") &&
			      strstr(out, " 2 periods of 100ms\n"),
		      "text: an interval of 3 periods, then the end's 2: %s", out);
		CHECK(strstr(out, "\ncs           11    1    -           12\n") != NULL,
		      "text: the slots in one width (the table's widest), '-' unread, the total: "
		      "%s",
		      out);
		CHECK(strstr(out, "\ncs           31    6           37\n") != NULL,
		      "text: the end's interval: %s", out);
		CHECK(strstr(out, "\ntask-clock 2.00 2.50    -         4.50 msec\n") != NULL,
		      "text: a clock in msec: %s", out);
	} else {
		CHECK(strstr(out, "\nCPU   EVENT      COUNTS                TOTAL\n") != NULL &&
			      strstr(out, "\nCPU0  cs           10    0    -           10\n") !=
				      NULL &&
			      strstr(out, "\nCPU1  cs            1    1    -            2\n") !=
				      NULL &&
			      strstr(out, "\nCPU0  cs           30    5           35\n") != NULL,
		      "text --perins: a row per CPU: %s", out);
	}
	ctr_slots__free(&sl);
	fake_close(&f[0]);
	fake_close(&f[1]);
	ctr_set__free(&cs);
	end(&r);
}

int main(void)
{
	test_slots(false, false);
	test_slots(true, false);
	test_slots(false, true);
	test_slots(true, true);
	return ut_done("ctrslots");
}
