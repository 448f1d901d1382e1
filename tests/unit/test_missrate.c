// SPDX-License-Identifier: GPL-2.0
/*
 * llcstat's and tlbstat's tables (analysis/counting/missrate) on
 * synthesized reads: accesses, misses and the miss ratio per CPU and for
 * all, each value scaled by its own enabled/running times (a multiplexed
 * CPU's estimate), RUN%, "<not counted>" and "-" where there is nothing to
 * divide, the interval's differences, the text table and its JSON records;
 * and which events each profiler picks for a CPU.  The counters are pipes
 * holding the {value, enabled, running} words a perf event's read()
 * returns (fake_counter.h).
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/counting/missrate.h"
#include "fake_counter.h"
#include "ut.h"

/* prof/llcstat.c, prof/tlbstat.c */
const char *llcstat__events(const char *vendor, bool generic, bool amd_l3);
const char *tlbstat__events(const char *vendor, bool loads, bool stores, int *pairs);

static const struct missrate_pair llc = { 0, 1, "ACCESSES", "accesses", "misses", "miss_pct" };
static const struct missrate_pair tlb[] = {
	{ 0, 1, "LOADS", "loads", "load_misses", "load_miss_pct" },
	{ 2, 3, "STORES", "stores", "store_misses", "store_miss_pct" },
};

static char *report(const struct ctr_set *cs, const struct missrate_pair *p, int np, bool json,
		    bool perins, bool since_start)
{
	char *text = NULL;
	size_t len;
	FILE *fp = open_memstream(&text, &len);

	missrate__report(cs, fp, json, p, np, perins, since_start,
			 since_start ? "total" : "interval");
	fclose(fp);
	return text;
}

/* llcstat on 2 CPUs: CPU1 multiplexed half of the time, then an interval where it idles. */
static void test_llc(void)
{
	struct fake f[2];
	struct ctr_set cs;
	char *t;

	fake_init(&f[0], "LLC-loads", 2, PERF_TYPE_HW_CACHE, 0x2);
	fake_init(&f[1], "LLC-load-misses", 2, PERF_TYPE_HW_CACHE, 0x10002);
	cs = set_of(f, 2);
	put(&f[0], 0, 1000000, 1000, 1000);
	put(&f[0], 1, 500000, 1000, 500);
	put(&f[1], 0, 12345, 1000, 1000);
	put(&f[1], 1, 250000, 1000, 500);
	ctr_set__read(&cs);

	/* CPU1 x2: 1,000,000 and 500,000, 50%; all: 1,500,000 and 262,345 x 2000/1500 */
	CHECK(fabs(missrate__pct(&cs, &llc, 0, false) - 1.2345) < 1e-9, "CPU0 %f",
	      missrate__pct(&cs, &llc, 0, false));
	CHECK(fabs(missrate__pct(&cs, &llc, 1, false) - 50.0) < 1e-9, "CPU1");
	CHECK(fabs(missrate__pct(&cs, &llc, -1, false) - 262345.0 * 100 / 1500000) < 1e-9, "all %f",
	      missrate__pct(&cs, &llc, -1, false));

	t = report(&cs, &llc, 1, false, true, false);
	CHECK_STR(t, "WHO             ACCESSES          MISSES   MISS%     RUN%\n"
		     "CPU0           1,000,000          12,345   1.23%  100.00%\n"
		     "CPU1           1,000,000         500,000  50.00%   50.00%\n"
		     "all            2,000,000         349,793  17.49%   75.00%\n");
	free(t);
	t = report(&cs, &llc, 1, false, false, false);
	CHECK_STR(t, "WHO             ACCESSES          MISSES   MISS%     RUN%\n"
		     "all            2,000,000         349,793  17.49%   75.00%\n");
	free(t);
	t = report(&cs, &llc, 1, true, true, false);
	CHECK(t && strstr(t, "{\"type\":\"missrate\",\"scope\":\"interval\",") &&
		      strstr(t,
			     ",\"cpu\":0,\"accesses\":1000000,\"misses\":12345,\"miss_pct\":1.2345,"
			     "\"running_pct\":100}\n") &&
		      strstr(t, ",\"cpu\":1,\"accesses\":1000000,\"misses\":500000,\"miss_pct\":50,"
				"\"running_pct\":50}\n") &&
		      strstr(t, ",\"accesses\":2000000,\"misses\":349793,\"miss_pct\":17.4896"),
	      "%s", t ? t : "");
	CHECK(t && strstr(t, ",\"running_pct\":75}\n") && !strstr(t, "\"cpu\":null"), "%s",
	      t ? t : "");
	free(t);
	ctr_set__advance(&cs);

	/* the next interval: CPU0 counts 1000 more accesses, no miss; CPU1 not scheduled */
	put(&f[0], 0, 1001000, 2000, 2000);
	put(&f[0], 1, 500000, 2000, 500);
	put(&f[1], 0, 12345, 2000, 2000);
	put(&f[1], 1, 250000, 2000, 500);
	ctr_set__read(&cs);
	t = report(&cs, &llc, 1, false, true, false);
	CHECK_STR(t, "WHO             ACCESSES          MISSES   MISS%     RUN%\n"
		     "CPU0               1,000               0   0.00%  100.00%\n"
		     "CPU1       <not counted>   <not counted>       -        -\n"
		     "all                2,000               0   0.00%   50.00%\n");
	free(t);
	t = report(&cs, &llc, 1, true, true, false);
	CHECK(t && strstr(t, ",\"cpu\":1,\"accesses\":null,\"misses\":null,\"miss_pct\":null,"
			     "\"running_pct\":null}\n"),
	      "not counted: null: %s", t ? t : "");
	free(t);
	/* the run: 1,501,000 and 262,345 in 2500 of 4000 ns running, x 1.6 */
	t = report(&cs, &llc, 1, false, false, true);
	CHECK_STR(t, "WHO             ACCESSES          MISSES   MISS%     RUN%\n"
		     "all            2,401,600         419,752  17.48%   62.50%\n");
	free(t);
	t = report(&cs, &llc, 1, true, false, true);
	CHECK(t && strstr(t, "\"scope\":\"run\","), "%s", t ? t : "");
	free(t);
	for (int k = 0; k < 2; k++)
		fake_close(&f[k]);
	ctr_set__free(&cs);
}

/* tlbstat: two pairs in one row; no accesses: no ratio. */
static void test_tlb(void)
{
	struct fake f[4];
	struct ctr_set cs;
	char *t;

	fake_init(&f[0], "dTLB-loads", 1, PERF_TYPE_HW_CACHE, 0x3);
	fake_init(&f[1], "dTLB-load-misses", 1, PERF_TYPE_HW_CACHE, 0x10003);
	fake_init(&f[2], "dTLB-stores", 1, PERF_TYPE_HW_CACHE, 0x103);
	fake_init(&f[3], "dTLB-store-misses", 1, PERF_TYPE_HW_CACHE, 0x10103);
	cs = set_of(f, 4);
	put(&f[0], 0, 4000000, 100, 100);
	put(&f[1], 0, 1000, 100, 100);
	put(&f[2], 0, 0, 100, 100);
	put(&f[3], 0, 0, 100, 100);
	ctr_set__read(&cs);
	t = report(&cs, tlb, 2, false, true, false);
	CHECK_STR(t,
		  "WHO                LOADS          MISSES   MISS%           STORES          "
		  "MISSES   MISS%     RUN%\n"
		  "CPU0           4,000,000           1,000   0.03%                0             "
		  "  0       -  100.00%\n"
		  "all            4,000,000           1,000   0.03%                0             "
		  "  0       -  100.00%\n");
	free(t);
	t = report(&cs, tlb, 2, true, false, false);
	CHECK(t && strstr(t, ",\"loads\":4000000,\"load_misses\":1000,\"load_miss_pct\":0.025,"
			     "\"stores\":0,\"store_misses\":0,\"store_miss_pct\":null,"
			     "\"running_pct\":100}\n"),
	      "%s", t ? t : "");
	free(t);
	/* one pair only (AMD: no stores) */
	t = report(&cs, tlb, 1, false, false, false);
	CHECK_STR(t, "WHO                LOADS          MISSES   MISS%     RUN%\n"
		     "all            4,000,000           1,000   0.03%  100.00%\n");
	free(t);
	for (int k = 0; k < 4; k++)
		fake_close(&f[k]);
	ctr_set__free(&cs);
}

static void test_events(void)
{
	int pairs = 0;

	CHECK_STR(llcstat__events("GenuineIntel", true, false), "{LLC-loads,LLC-load-misses}");
	CHECK_STR(llcstat__events("GenuineIntel", false, false),
		  "{cpu/event=0x2e,umask=0x4f,name=LLC-references/,"
		  "cpu/event=0x2e,umask=0x41,name=LLC-misses/}");
	CHECK_STR(llcstat__events("AuthenticAMD", false, true),
		  "{amd_l3/event=0x04,umask=0xff,name=L3-accesses/,"
		  "amd_l3/event=0x04,umask=0x01,name=L3-misses/}");
	CHECK(llcstat__events("AuthenticAMD", false, false) == NULL, "AMD without amd_l3");
	CHECK(llcstat__events("CentaurHauls", false, true) == NULL, "other vendors");

	CHECK_STR(tlbstat__events("GenuineIntel", true, true, &pairs),
		  "{dTLB-loads,dTLB-load-misses,dTLB-stores,dTLB-store-misses}");
	CHECK_INT(pairs, 2);
	CHECK_STR(tlbstat__events("AuthenticAMD", true, false, &pairs),
		  "{dTLB-loads,dTLB-load-misses}");
	CHECK_INT(pairs, 1);
	CHECK_STR(tlbstat__events("GenuineIntel", false, false, &pairs),
		  "{cpu/event=0xd0,umask=0x81,name=dTLB-loads/,"
		  "cpu/event=0x08,umask=0x0e,name=dTLB-load-misses/}");
	CHECK_INT(pairs, 1);
	CHECK(tlbstat__events("AuthenticAMD", false, false, &pairs) == NULL, "none");
}

int main(void)
{
	test_llc();
	test_tlb();
	test_events();
	return ut_done("test_missrate");
}
