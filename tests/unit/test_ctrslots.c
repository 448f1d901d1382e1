// SPDX-License-Identifier: GPL-2.0
/*
 * stat --period's slots (analysis/counting/ctrslots) on fake counters (the
 * pipes of fake_counter.h): each read's difference in the slot of its
 * period, an interval of N slots printed after the Nth read with the sum
 * as its total; a read late by k periods leaves k - 1 slots unread ("-",
 * JSON null) and its whole count in the last one, which may be the next
 * interval's; the end prints the last interval's slots so far; per
 * instance with --perins; a clock's slots in msec (JSON: ns).  An
 * interval is stamped at its start plus its periods, not at the (late)
 * read that ends it; whole intervals missed are skipped at once with a
 * line saying so (an hour of 1ms periods in one step); at the end, a
 * period or more since the last read is a late read's too.
 */
#include <unistd.h>

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
		CHECK(strstr(out, "\"scope\":\"interval\",") &&
			      strstr(out, "\"interval_ns\":300000000,\"event\":\"cs\"") != NULL,
		      "JSON: the first interval is its 3 periods long, though read early: %s", out);
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

/* @s with each run of spaces made one (malloc'ed). */
static const char *squeeze(const char *s)
{
	char *d = malloc(strlen(s) + 1), *o = d;

	for (; d && *s; s++)
		if (*s != ' ' || o == d || o[-1] != ' ')
			*o++ = *s;
	if (d)
		*o = 0;
	return d ? d : "";
}

/* One counter on one CPU, 3 slots of 100ms; a read @late periods late, then the end. */
static void test_skip(u64 late)
{
	struct fake f;
	struct ctr_set cs;
	struct ctr_slots sl;
	struct run r;
	const char *out, *p;
	int n = 0;
	char want[160];
	u64 rem;

	CHECK(!start(&r, false), "session");
	fake_init(&f, "cs", 1, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	cs = set_of(&f, 1);
	cs.s = r.s;
	CHECK(!ctr_slots__start(&sl, &cs, r.s, 100000000ULL, 3, false), "start");
	put(&f, 0, 10, 100, 100);
	ctr_slots__tick(&sl, r.s, 1);
	put(&f, 0, 17, 200, 200);
	ctr_slots__tick(&sl, r.s, late); /* slots 1 and 2 missed, whole intervals, one slot */
	put(&f, 0, 20, 300, 300);
	ctr_slots__end(&sl, r.s);
	out = squeeze(finish(&r));
	rem = late - 3; /* after the first interval's end */
	for (p = out; (p = strstr(p, " stat: ")); p++)
		n++;
	CHECK(n == 2 + (rem % 3 == 2), "late %llu: the intervals read, the end's: %s",
	      (unsigned long long)late, out);
	CHECK(strstr(out, "\ncs 10 - - 10\n") != NULL, "late %llu: the first interval: %s",
	      (unsigned long long)late, out);
	snprintf(want, sizeof(want),
		 "\nstat: %llu periods of 100ms not read (the reads came late): %llu whole "
		 "intervals not printed\n",
		 (unsigned long long)(late - 1), (unsigned long long)(rem / 3));
	CHECK(rem / 3 ? strstr(out, want) != NULL : strstr(out, "not read") == NULL,
	      "late %llu: a line says so when whole intervals were missed: %s",
	      (unsigned long long)late, out);
	/* the late read's count in its slot, the periods it missed of its interval before it */
	snprintf(want, sizeof(want), "%s",
		 rem % 3 == 0	? "\ncs 7 3 10\n"
		 : rem % 3 == 1 ? "\ncs - 7 3 10\n"
				: "\ncs - - 7 7\n");
	CHECK(strstr(out, want) != NULL && (rem % 3 != 2 || strstr(out, "\ncs 3 3\n")),
	      "late %llu: the late read's slot: %s", (unsigned long long)late, out);
	free((void *)out);
	CHECK(sl.nr_late == 1, "late %llu: one late read", (unsigned long long)late);
	ctr_slots__free(&sl);
	fake_close(&f);
	ctr_set__free(&cs);
	end(&r);
}

/* The end a period or more after the last read: the timer's expirations not read. */
static void test_end_late(void)
{
	struct fake f;
	struct ctr_set cs;
	struct ctr_slots sl;
	struct run r;
	const char *out;

	CHECK(!start(&r, true), "session");
	fake_init(&f, "cs", 1, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	cs = set_of(&f, 1);
	cs.s = r.s;
	CHECK(!ctr_slots__start(&sl, &cs, r.s, 1000000ULL, 1000, false), "start"); /* 1ms */
	put(&f, 0, 10, 100, 100);
	ctr_slots__tick(&sl, r.s, 1);
	usleep(3000); /* 3 periods and more: the session stopping ran no timer */
	put(&f, 0, 15, 200, 200);
	ctr_slots__end(&sl, r.s);
	out = finish(&r);
	CHECK(sl.nr_late == 1, "the end's read is late: %s", out);
	CHECK(strstr(out, "\"counts\":[10,null,null,") != NULL &&
		      strstr(out, "null,5],\"total\":15}") != NULL,
	      "the end's count in its own slot, after the periods not read: %.200s", out);
	ctr_slots__free(&sl);
	fake_close(&f);
	ctr_set__free(&cs);
	end(&r);
}

int main(void)
{
	test_skip(3);
	test_skip(4);
	test_skip(8);
	test_skip(3600ULL * 1000 * 1000 + 2); /* an hour of 1µs periods, one step */
	test_end_late();
	test_slots(false, false);
	test_slots(true, false);
	test_slots(false, true);
	test_slots(true, true);
	return ut_done("ctrslots");
}
