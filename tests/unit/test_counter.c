// SPDX-License-Identifier: GPL-2.0
/*
 * Counting mode on synthesized reads: multiplex scaling (value * enabled /
 * running, the running share), interval differences each scaled on their
 * own, sums over CPUs, "<not counted>", and perf stat's number layout.  The
 * counters are pipes holding the {value, enabled, running} words a perf
 * event's read() returns.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/counting/counters.h"
#include "cli/options.h"
#include "engine/features.h"
#include "engine/perf_source.h"
#include "fake_counter.h"
#include "fake_sysfs.h"
#include "profiler.h"
#include "ut.h"

/* prof/split_lock.c */
const char *split_lock__event(const char *vendor);

static struct ctr_set two_counters(struct fake *a, struct fake *b)
{
	struct ctr_set cs = { 0 };

	cs.c = calloc(2, sizeof(*cs.c));
	cs.nr = 2;
	cs.c[0] = (struct ctr){ .ev = &a->ev, .scale = 1.0, .name = "cycles" };
	cs.c[1] = (struct ctr){ .ev = &b->ev, .scale = 1e-6, .unit = "msec", .name = "cpu-clock" };
	return cs;
}

/* A set of @n one-CPU fakes, each with its attr's type and config (metrics go by them). */
static struct ctr_set fake_set(struct fake *f, int n, const u32 *type, const u64 *config,
			       const char *const *name)
{
	for (int k = 0; k < n; k++)
		fake_init(&f[k], name[k], 1, type[k], config[k]);
	return set_of(f, n);
}

/* perf stat's "#" column: CPUs utilized, GHz, IPC, branch misses, rates per task-clock second. */
static void test_metrics(void)
{
	static const u32 type[] = { PERF_TYPE_SOFTWARE,	 PERF_TYPE_HARDWARE, PERF_TYPE_HARDWARE,
				    PERF_TYPE_SOFTWARE,	 PERF_TYPE_HARDWARE, PERF_TYPE_HARDWARE,
				    PERF_TYPE_TRACEPOINT };
	static const u64 config[] = { PERF_COUNT_SW_TASK_CLOCK,
				      PERF_COUNT_HW_CPU_CYCLES,
				      PERF_COUNT_HW_INSTRUCTIONS,
				      PERF_COUNT_SW_CONTEXT_SWITCHES,
				      PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
				      PERF_COUNT_HW_BRANCH_MISSES,
				      7 };
	static const char *const name[] = { "task-clock",	 "cycles",
					    "instructions",	 "cs",
					    "branches",		 "branch-misses",
					    "sched:sched_wakeup" };
	struct fake f[7];
	struct ctr_set cs = fake_set(f, 7, type, config, name);
	char *text;
	size_t len;
	FILE *fp;

	/* 0.5 s of task-clock in 1 s: cycles multiplexed half of the time */
	put(&f[0], 0, 500000000, 1000, 1000);
	put(&f[1], 0, 500000000, 1000, 500);
	put(&f[2], 0, 2500000000ULL, 1000, 1000);
	put(&f[3], 0, 1000, 1000, 1000);
	put(&f[4], 0, 100000, 1000, 1000);
	put(&f[5], 0, 5000, 1000, 1000);
	put(&f[6], 0, 7, 1000, 1000);
	ctr_set__read(&cs);
	cs.t_first = cs.t_last = cs.t_now - 1000000000ULL;
	fp = open_memstream(&text, &len);
	ctr_set__report(&cs, fp, false, false, false, NULL);
	fclose(fp);
	CHECK(strstr(text, "              500.00 msec  task-clock                 #     0.500 CPUs "
			   "utilized\n") != NULL,
	      "%s", text);
	CHECK(strstr(text, "       1,000,000,000       cycles                     #     2.000 GHz  "
			   "(50.00%)\n") != NULL,
	      "cycles scaled, GHz of the clock: %s", text);
	CHECK(strstr(text, "       2,500,000,000       instructions               #      2.50 insn "
			   "per cycle\n") != NULL,
	      "%s", text);
	CHECK(strstr(text, "               1,000       cs                         #     2.000 "
			   "K/sec\n") != NULL,
	      "per second of task-clock: %s", text);
	CHECK(strstr(text, "             100,000       branches                   #   200.000 "
			   "K/sec\n") != NULL,
	      "%s", text);
	CHECK(strstr(text, "               5,000       branch-misses              #     5.00% of "
			   "all branches\n") != NULL,
	      "%s", text);
	CHECK(strstr(text, "                   7       sched:sched_wakeup         #    14.000 "
			   "/sec\n") != NULL,
	      "%s", text);
	free(text);
	ctr_set__advance(&cs);

	/* the next interval: the clock did not run; nothing to divide by */
	put(&f[0], 0, 500000000, 2000, 2000);
	put(&f[1], 0, 500000000, 2000, 1500);
	put(&f[2], 0, 2500000000ULL, 2000, 2000);
	put(&f[3], 0, 1003, 2000, 2000);
	put(&f[4], 0, 100000, 2000, 2000);
	put(&f[5], 0, 5000, 2000, 2000);
	put(&f[6], 0, 7, 2000, 2000);
	ctr_set__read(&cs);
	cs.t_last = cs.t_now - 500000000ULL;
	fp = open_memstream(&text, &len);
	ctr_set__report(&cs, fp, false, false, false, NULL);
	fclose(fp);
	CHECK(strstr(text, "                0.00 msec  task-clock                 #     0.000 CPUs "
			   "utilized\n") != NULL,
	      "%s", text);
	CHECK(strstr(text, "                   3       cs\n") != NULL,
	      "no rate without clock time: %s", text);
	CHECK(strstr(text, "                   0       instructions\n") != NULL,
	      "no IPC of 0 cycles: %s", text);
	free(text);
	for (int k = 0; k < 7; k++)
		fake_close(&f[k]);
	ctr_set__free(&cs);
}

struct run {
	struct session *s;
	struct opt_set opts;
	struct engine_conf conf;
	void *priv;
	const struct profiler *p;
	int init;
};

/* stat's init with @args (space-separated) on the fake sysfs: its return in r->init. */
static void stat_start(struct run *r, const char *args)
{
	char *argv[16], copy[256], *save = NULL;
	int argc = 0;

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < nr_profilers; i++)
		if (!strcmp(profilers[i]->name, "stat"))
			r->p = profilers[i];
	snprintf(copy, sizeof(copy), "%s", args);
	argv[argc++] = "stat";
	for (char *t = strtok_r(copy, " ", &save); t && argc < 15; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	r->priv = calloc(1, r->p->priv_size);
	r->init = -1;
	if (options__parse(r->p, argc, argv, &r->opts, r->priv))
		return;
	options__engine_conf(&r->opts, &r->conf);
	r->s = session__new(&r->conf, stdout);
	if (r->s)
		r->init = r->p->init(r->s, r->priv, &r->opts);
}

static void stat_end(struct run *r)
{
	if (r->s)
		r->p->deinit(r->s, r->priv);
	session__delete(r->s);
	options__free(&r->opts);
	free(r->priv);
}

static struct evsel *first_counter(struct session *s)
{
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
		if (ev->counting)
			return ev;
	return NULL;
}

/*
 * An uncore PMU counts its package whatever CPU reads it: stat opens it on
 * the monitored CPUs of its cpumask only (else the sum counts the package
 * once per CPU), says so when -C leaves none of them, and refuses threads.
 */
static void test_uncore(void)
{
	char args[128];
	const char *msg;
	struct evsel *ev;
	struct run r;

	/* a fake sysfs with an uncore PMU whose cpumask is CPU 1 (of this host's 2) */
	if (fake_sysfs__make("counter")) {
		CHECK(0, "mkdtemp");
		return;
	}
	fake_sysfs__put("uncore_imc_0/type", "17\n");
	fake_sysfs__put("uncore_imc_0/format/event", "config:0-7\n");
	fake_sysfs__put("uncore_imc_0/format/umask", "config:8-15\n");
	fake_sysfs__put("uncore_imc_0/events/cas_count_read", "event=0x04,umask=0x03\n");
	fake_sysfs__put("uncore_imc_0/cpumask", "1\n");

	stat_start(&r, "-e uncore_imc_0/cas_count_read/,cs");
	CHECK_INT(r.init, 0);
	ev = r.s ? first_counter(r.s) : NULL;
	CHECK(ev && ev->nr_cpus == 1 && ev->cpus && ev->cpus[0] == 1, "uncore on CPU 1 only");
	CHECK(ev && ev->next && !ev->next->cpus, "cs on every CPU");
	stat_end(&r);

	stat_start(&r, "-C 0 -e uncore_imc_0/cas_count_read/");
	CHECK_INT(r.init, -EINVAL);
	msg = r.s ? session__strerror(r.s) : NULL;
	CHECK_STR(msg, "uncore_imc_0/cas_count_read/ counts on CPU 1 only (its PMU's cpumask): "
		       "none of them is monitored (-C)");
	CHECK(r.s && session__err_is_usage(r.s), "a usage error");
	stat_end(&r);

	snprintf(args, sizeof(args), "-p %d -e uncore_imc_0/cas_count_read/", (int)getpid());
	stat_start(&r, args);
	CHECK_INT(r.init, 0);
	CHECK_INT(r.s ? session__open(r.s) : 0, -EINVAL);
	msg = r.s ? session__strerror(r.s) : NULL;
	CHECK_STR(msg, "uncore_imc_0/cas_count_read/ counts on CPU 1 only (its PMU's cpumask), not "
		       "per thread: count it with -C CPUS (with a command too), not -p/-t");
	CHECK(r.s && session__err_is_usage(r.s), "a usage error");
	stat_end(&r);

	fake_sysfs__remove();
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
	fake_init(&a, "cycles", 2, 0, 0);
	fake_init(&b, "cpu-clock", 2, 0, 0);
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
	ctr_set__report(&cs, fp, false, false, false, NULL);
	fclose(fp);
	CHECK(strstr(text, "               5,333       cycles  (75.00%)\n") != NULL, "%s", text);
	CHECK(strstr(text, "              150.00 msec  cpu-clock\n") != NULL, "%s", text);
	free(text);
	fp = open_memstream(&text, &len);
	ctr_set__report(&cs, fp, false, true, false, NULL);
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
	ctr_set__report(&cs, fp, false, true, false, NULL);
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
	fake_init(&a, "cycles", 2, 0, 0);
	fake_init(&b, "instructions", 2, 0, 0);
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
	ctr_set__report_ratio(&cs, fp, false, 1, 0, "IPC", false, true, NULL);
	ctr_set__report_ratio(&cs, fp, false, 1, 0, "IPC", true, true, NULL);
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

	test_metrics();
	test_uncore();
	return ut_done("test_counter");
}
