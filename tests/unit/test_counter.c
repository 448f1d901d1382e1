// SPDX-License-Identifier: GPL-2.0
/*
 * Counting mode on synthesized reads: multiplex scaling (value * enabled /
 * running, the running share), interval differences each scaled on their
 * own, sums over CPUs, "<not counted>", and perf stat's number layout.  The
 * counters are pipes holding the {value, enabled, running} words a perf
 * event's read() returns.
 */
#include <stdlib.h>
#include <unistd.h>

#include "analysis/counters.h"
#include "ut.h"

/* prof/split_lock.c */
const char *split_lock__event(const char *vendor);

/* A fake counting event with @n counters (CPUs 0..n-1), each a pipe. */
struct fake {
	struct evsel ev;
	struct counter_fd cnt[4];
	int wr[4];
};

static void fake_init(struct fake *f, const char *name, int n)
{
	memset(f, 0, sizeof(*f));
	f->ev.name = (char *)name;
	f->ev.counting = true;
	f->ev.cnt = f->cnt;
	f->ev.nr_cnt = n;
	for (int i = 0; i < n; i++) {
		int p[2];

		if (pipe(p))
			abort();
		f->cnt[i] = (struct counter_fd){ .fd = p[0], .cpu = i, .tid = -1 };
		f->wr[i] = p[1];
	}
}

static void put(struct fake *f, int i, u64 val, u64 ena, u64 run)
{
	u64 w[3] = { val, ena, run };

	if (write(f->wr[i], w, sizeof(w)) != sizeof(w))
		abort();
}

static void fake_close(struct fake *f)
{
	for (int i = 0; i < f->ev.nr_cnt; i++) {
		close(f->cnt[i].fd);
		close(f->wr[i]);
	}
}

static struct ctr_set two_counters(struct fake *a, struct fake *b)
{
	struct ctr_set cs = { 0 };

	cs.c = calloc(2, sizeof(*cs.c));
	cs.nr = 2;
	cs.c[0] = (struct ctr){ .ev = &a->ev, .scale = 1.0, .name = "cycles" };
	cs.c[1] = (struct ctr){ .ev = &b->ev, .scale = 1e-6, .unit = "msec", .name = "cpu-clock" };
	return cs;
}

int main(void)
{
	struct counter_val v = { 1000, 200, 100 }, d, now = { 3000, 400, 300 },
			   before = { 1000, 200, 100 };
	struct fake a, b;
	struct ctr_set cs;
	double share, x;
	char buf[64], *text;
	size_t len;
	FILE *fp;

	/* scaling */
	x = counter__scaled(&v, &share);
	CHECK(x == 2000.0, "%f", x);
	CHECK(share == 0.5, "%f", share);
	v = (struct counter_val){ 1000, 200, 200 };
	CHECK(counter__scaled(&v, &share) == 1000.0 && share == 1.0, "not multiplexed");
	v = (struct counter_val){ 0, 200, 0 };
	CHECK(counter__scaled(&v, &share) == 0.0 && share == 0.0, "never ran: 0, share 0");
	v = (struct counter_val){ 7, 0, 0 };
	CHECK(counter__scaled(&v, &share) == 7.0 && share == 1.0, "not enabled yet: as read");
	d = counter__delta(&now, &before);
	CHECK(d.val == 2000 && d.ena == 200 && d.run == 200, "delta");
	d = counter__delta(&before, &now);
	CHECK(d.val == 0 && d.ena == 0 && d.run == 0, "no going back");

	/* number layout */
	CHECK_STR(ctr__fmt(0, false, buf, sizeof(buf)), "0");
	CHECK_STR(ctr__fmt(999, false, buf, sizeof(buf)), "999");
	CHECK_STR(ctr__fmt(1000, false, buf, sizeof(buf)), "1,000");
	CHECK_STR(ctr__fmt(1234567, false, buf, sizeof(buf)), "1,234,567");
	CHECK_STR(ctr__fmt(1234.567, true, buf, sizeof(buf)), "1,234.57");
	CHECK_STR(ctr__fmt(0.999, true, buf, sizeof(buf)), "1.00");
	CHECK_STR(ctr__fmt(2000.4, false, buf, sizeof(buf)), "2,000");

	/* a set: cycles on 2 CPUs multiplexed differently, cpu-clock in ns shown in ms */
	fake_init(&a, "cycles", 2);
	fake_init(&b, "cpu-clock", 2);
	cs = two_counters(&a, &b);
	/* interval 1: CPU0 ran half the time, CPU1 all of it */
	put(&a, 0, 1000, 100, 50);
	put(&a, 1, 3000, 100, 100);
	put(&b, 0, 100000000, 100000000, 100000000);
	put(&b, 1, 50000000, 100000000, 100000000);
	ctr_set__read(&cs);
	CHECK_INT(cs.nr_inst, 2);
	x = ctr_set__value(&cs, 0, 0, false, &share);
	CHECK(x == 2000.0 && share == 0.5, "CPU0 scaled %f share %f", x, share);
	x = ctr_set__value(&cs, 0, 1, false, &share);
	CHECK(x == 3000.0 && share == 1.0, "CPU1 %f", x);
	/* the sum is scaled as a whole: 4000 read in 150 of 200 ns running */
	x = ctr_set__value(&cs, 0, -1, false, &share);
	CHECK(x > 5333.3 && x < 5333.4 && share == 0.75, "sum %f share %f", x, share);
	x = ctr_set__value(&cs, 1, -1, false, &share);
	CHECK(x == 150.0, "cpu-clock in ms: %f", x);
	fp = open_memstream(&text, &len);
	ctr_set__print(&cs, fp, false, false);
	fclose(fp);
	CHECK(strstr(text, "               5,333       cycles  (75.00%)\n") != NULL, "%s", text);
	CHECK(strstr(text, "              150.00 msec  cpu-clock\n") != NULL, "%s", text);
	free(text);
	fp = open_memstream(&text, &len);
	ctr_set__print(&cs, fp, true, false);
	fclose(fp);
	CHECK(strstr(text, "CPU0                            2,000       cycles  (50.00%)\n") !=
		      NULL,
	      "%s", text);
	CHECK(strstr(text, "CPU1                            3,000       cycles\n") != NULL, "%s",
	      text);
	free(text);
	ctr_set__advance(&cs);

	/* interval 2: CPU0 counted all of it this time: its own scale, not the run's */
	put(&a, 0, 2000, 200, 150);
	put(&a, 1, 3000, 200, 100); /* CPU1 not running at all in interval 2 */
	put(&b, 0, 200000000, 200000000, 200000000);
	put(&b, 1, 50000000, 200000000, 200000000);
	ctr_set__read(&cs);
	x = ctr_set__value(&cs, 0, 0, false, &share);
	CHECK(x == 1000.0 && share == 1.0, "interval 2 CPU0 %f %f", x, share);
	x = ctr_set__value(&cs, 0, 1, false, &share);
	CHECK(x == 0.0 && share == 0.0, "interval 2 CPU1 not counted %f %f", x, share);
	fp = open_memstream(&text, &len);
	ctr_set__print(&cs, fp, true, false);
	fclose(fp);
	CHECK(strstr(text, "CPU1                    <not counted>       cycles\n") != NULL, "%s",
	      text);
	free(text);
	/* the whole run: 5000 in 250 of 400 running */
	x = ctr_set__value(&cs, 0, -1, true, &share);
	CHECK(x == 8000.0 && share == 0.625, "run %f %f", x, share);
	x = ctr_set__value(&cs, 1, 1, true, &share);
	CHECK(x == 50.0, "CPU1 cpu-clock over the run %f", x);

	fake_close(&a);
	fake_close(&b);
	ctr_set__free(&cs);

	/* hwstat's IPC on synthesized counts: instructions / cycles, per CPU and in total */
	fake_init(&a, "cycles", 2);
	fake_init(&b, "instructions", 2);
	cs = two_counters(&a, &b);
	cs.c[1].scale = 1.0;
	cs.c[1].unit[0] = 0;
	snprintf(cs.c[1].name, sizeof(cs.c[1].name), "instructions");
	put(&a, 0, 1000000, 100, 100);
	put(&a, 1, 0, 100, 100);
	put(&b, 0, 2500000, 100, 100);
	put(&b, 1, 0, 100, 100);
	ctr_set__read(&cs);
	fp = open_memstream(&text, &len);
	ctr_set__print_ratio(&cs, fp, 1, 0, "IPC", false, true);
	ctr_set__print_ratio(&cs, fp, 1, 0, "IPC", true, true);
	fclose(fp);
	CHECK(!strncmp(text, "                2.50       IPC (instructions / cycles)\nCPU0", 59),
	      "%s", text);
	CHECK(strstr(text,
		     "CPU0                             2.50       IPC (instructions / cycles)\n") !=
		      NULL,
	      "%s", text);
	CHECK(strstr(text,
		     "CPU1                                -       IPC (instructions / cycles)\n") !=
		      NULL,
	      "idle CPU: no ratio: %s", text);
	free(text);
	fake_close(&a);
	fake_close(&b);
	ctr_set__free(&cs);

	/* split-lock's event per vendor */
	CHECK_STR(split_lock__event("GenuineIntel"), "cpu/event=0xf4,umask=0x10,name=split-lock/");
	CHECK_STR(split_lock__event("AuthenticAMD"), "cpu/event=0x25,umask=0x01,name=split-lock/");
	CHECK(split_lock__event("CentaurHauls") == NULL, "unknown vendor");
	return ut_done("test_counter");
}
