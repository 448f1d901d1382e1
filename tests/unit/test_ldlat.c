// SPDX-License-Identifier: GPL-2.0
/*
 * ldlat-loads and ldlat-stores without a PMU: the data source decoded in
 * perf's words; the PEBS sampling event built on a fake sysfs (an Intel
 * cpu PMU with the ldlat format and the mem-loads/mem-stores aliases):
 * type, config, the ldlat threshold in config1, precise_ip, the period,
 * PERF_SAMPLE_ADDR|WEIGHT|DATA_SRC; refused, one line each, without a
 * PMU, on AMD, without the ldlat format; and the whole profiler on an
 * injected session of PEBS samples: rows per data source and per
 * instruction (samples, total, min, avg, max cycles, the --than column),
 * the latency buckets, --than's lines, --perins and --json.  Data symbols:
 * the variables of kallsyms (a fake one with jiffies, and this host's) and
 * of this binary's OBJECT symbols (data and .bss, through its mappings),
 * named by the symbol layer (stack__data_sym) and in --than's lines and
 * JSON as symbol+offset.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <unistd.h>

#include "fake_sysfs.h"
#include "synth_run.h"
#include "analysis/memory/memlat.h"
#include "sym/datasym.h"
#include "sym/ksyms.h"
#include "ut.h"

/* variables of this binary the data addresses lie in: data and bss */
long ldlat_ut_data[4] = { 1, 2, 3, 4 };
long ldlat_ut_bss[8];

/* prof/ldlat.c */
int ldlat__attr(bool stores, unsigned ldlat, u64 period, struct perf_event_attr *a, char *err,
		size_t len);

#define SRC(lvl, snoop, tlb, lock)                                                 \
	((u64)(lvl) << PERF_MEM_LVL_SHIFT | (u64)(snoop) << PERF_MEM_SNOOP_SHIFT | \
	 (u64)(tlb) << PERF_MEM_TLB_SHIFT | (u64)(lock) << PERF_MEM_LOCK_SHIFT |   \
	 (u64)PERF_MEM_OP_LOAD << PERF_MEM_OP_SHIFT)

#define L1_HIT                                                       \
	SRC(PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1, PERF_MEM_SNOOP_NONE, \
	    PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1 | PERF_MEM_TLB_L2, PERF_MEM_LOCK_NA)
#define L3_HIT                                                       \
	SRC(PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3, PERF_MEM_SNOOP_HITM, \
	    PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1 | PERF_MEM_TLB_L2, PERF_MEM_LOCK_NA)
#define RAM_HIT                                                           \
	SRC(PERF_MEM_LVL_HIT | PERF_MEM_LVL_LOC_RAM, PERF_MEM_SNOOP_MISS, \
	    PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2, PERF_MEM_LOCK_NA)

static void test_src(void)
{
	char buf[160];
	const char *b = buf;

	CHECK_STR(memlat__src_text(L1_HIT, buf, sizeof(buf)), "L1 hit|SNP None|TLB L1 or L2 hit");
	CHECK_STR(memlat__src_text(RAM_HIT, buf, sizeof(buf)),
		  "Local RAM hit|SNP Miss|TLB L2 miss");
	CHECK_STR(memlat__src_text(0, buf, sizeof(buf)), "N/A");
	/* a level number where the level bits say nothing; remote */
	memlat__src_text((u64)(PERF_MEM_LVL_NA | PERF_MEM_LVL_HIT) << PERF_MEM_LVL_SHIFT |
				 (u64)PERF_MEM_LVLNUM_RAM << PERF_MEM_LVLNUM_SHIFT |
				 1ULL << PERF_MEM_REMOTE_SHIFT,
			 buf, sizeof(buf));
	CHECK_STR(b, "Remote RAM hit");
	/* Intel's remote sources: the remote bit and a level whose name says Remote already */
	memlat__src_text((u64)(PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_HIT) << PERF_MEM_LVL_SHIFT |
				 1ULL << PERF_MEM_REMOTE_SHIFT,
			 buf, sizeof(buf));
	CHECK_STR(b, "Remote RAM (1 hop) hit");
	memlat__src_text(SRC(PERF_MEM_LVL_MISS | PERF_MEM_LVL_L3, PERF_MEM_SNOOP_HITM, 0,
			     PERF_MEM_LOCK_LOCKED) |
				 (u64)(PERF_MEM_BLK_DATA | PERF_MEM_BLK_ADDR)
					 << PERF_MEM_BLK_SHIFT |
				 (u64)PERF_MEM_SNOOPX_FWD << PERF_MEM_SNOOPX_SHIFT,
			 buf, sizeof(buf));
	CHECK_STR(b, "L3 miss|SNP HitM or Fwd|LCK Yes|BLK Data Addr");
	memlat__src_text(L1_HIT, buf, 8); /* cut short, terminated */
	CHECK_STR(b, "L1 hit|");
}

static void fake_intel(bool alias, bool ldlat_format, const char *vendor)
{
	char cpuinfo[128];

	fake_sysfs__put("cpu/type", "4\n");
	fake_sysfs__put("cpu/format/event", "config:0-7\n");
	fake_sysfs__put("cpu/format/umask", "config:8-15\n");
	if (ldlat_format)
		fake_sysfs__put("cpu/format/ldlat", "config1:0-15\n");
	if (alias) {
		fake_sysfs__put("cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n");
		fake_sysfs__put("cpu/events/mem-stores", "event=0xd0,umask=0x82\n");
	}
	snprintf(cpuinfo, sizeof(cpuinfo), "processor\t: 0\nvendor_id\t: %s\n\n", vendor);
	tmp_tree__put("proc/cpuinfo", cpuinfo);
	{
		char sys[PATH_MAX + 8], proc[PATH_MAX + 8];

		snprintf(sys, sizeof(sys), "%s/sys", tmp_root);
		snprintf(proc, sizeof(proc), "%s/proc", tmp_root);
		features__set_roots(sys, proc);
	}
}

static void test_attr(void)
{
	struct perf_event_attr a;
	char err[512];
	const char *e = err;

	/* the real host here: no cpu PMU */
	if (!features__cpu_pmu()) {
		CHECK_INT(ldlat__attr(false, 30, 1000, &a, err, sizeof(err)), -ENODEV);
		CHECK(!strncmp(err,
			       "needs a hardware PMU with PEBS (Intel's load latency facility), "
			       "and this host has none",
			       80),
		      "%s", err);
	}
	if (fake_sysfs__make("ldlat")) {
		CHECK(0, "mkdtemp");
		return;
	}
	fake_intel(true, true, "GenuineIntel");
	CHECK_INT(ldlat__attr(false, 30, 1000, &a, err, sizeof(err)), 0);
	CHECK_INT(a.type, 4);
	CHECK(a.config == 0x1cd, "mem-loads: event 0xcd umask 0x1: 0x%llx",
	      (unsigned long long)a.config);
	CHECK(a.config1 == 30, "--ldlat 30 in config1 (the alias's 3 replaced): %llu",
	      (unsigned long long)a.config1);
	CHECK_INT(a.precise_ip, 2);
	CHECK_INT(a.sample_period, 1000);
	CHECK((a.sample_type &
	       (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)) ==
		      (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT |
		       PERF_SAMPLE_DATA_SRC),
	      "sample_type 0x%llx", (unsigned long long)a.sample_type);
	CHECK_INT(ldlat__attr(true, 3, 100, &a, err, sizeof(err)), 0);
	CHECK(a.config == 0x82d0 && a.config1 == 0 && a.sample_period == 100 && a.precise_ip == 2,
	      "mem-stores: 0x%llx %llu", (unsigned long long)a.config,
	      (unsigned long long)a.config1);
	fake_sysfs__remove();

	/* no alias: the event by its codes */
	fake_sysfs__make("ldlat");
	fake_intel(false, true, "GenuineIntel");
	CHECK_INT(ldlat__attr(false, 7, 1000, &a, err, sizeof(err)), 0);
	CHECK(a.config == 0x1cd && a.config1 == 7, "0x%llx %llu", (unsigned long long)a.config,
	      (unsigned long long)a.config1);
	fake_sysfs__remove();

	/* no ldlat format: refused; stores need none */
	fake_sysfs__make("ldlat");
	fake_intel(true, false, "GenuineIntel");
	CHECK_INT(ldlat__attr(false, 3, 1000, &a, err, sizeof(err)), -EOPNOTSUPP);
	CHECK_STR(e, "the cpu PMU has no ldlat format (/sys/bus/event_source/devices/cpu/format/"
		     "ldlat): no load latency facility on this CPU");
	CHECK_INT(ldlat__attr(true, 3, 1000, &a, err, sizeof(err)), 0);
	fake_sysfs__remove();

	/* AMD: refused, naming the vendor */
	fake_sysfs__make("ldlat");
	fake_intel(true, true, "AuthenticAMD");
	CHECK_INT(ldlat__attr(false, 3, 1000, &a, err, sizeof(err)), -EOPNOTSUPP);
	CHECK_STR(e, "needs Intel's PEBS load latency facility, and this CPU is 'AuthenticAMD' "
		     "(AMD's IBS is another facility)");
	fake_sysfs__remove();
	features__set_roots(NULL, NULL);
}

static void pebs(struct synth_run *r, struct evsel *ev, u32 cpu, u64 ip, u64 addr, u64 w, u64 src)
{
	static u64 t = 1000000;

	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = 4242,
							      .tid = 4243,
							      .cpu = cpu,
							      .time = t += 1000,
							      .ip = ip,
							      .period = 1000,
							      .addr = addr,
							      .weight = w,
							      .data_src = src }),
			(int)cpu);
}

/* The samples: L1 10 and 20 cycles, L3 50, RAM 300 (the one over --than 100). */
static void samples(struct synth_run *r, struct evsel *ev)
{
	pebs(r, ev, 0, 0x401000, 0x7f0000001000, 10, L1_HIT);
	pebs(r, ev, 1, 0x401000, 0x7f0000001040, 20, L1_HIT);
	pebs(r, ev, 0, 0x401010, 0x7f0000002000, 50, L3_HIT);
	pebs(r, ev, 1, 0x401020, 0x7f0000800000, 300, RAM_HIT);
}

static struct evsel *start(struct synth_run *r, const char *name, const char *args, bool json)
{
	struct evsel *ev;

	if (synth_run__start(r, name, args,
			     &(struct synth_run_opts){ .json = json, .init_may_fail = true }) ||
	    r->init_err) {
		CHECK(0, "start %s %s (%d): %s", name, args, r->init_err, synth_run__err(r));
		return NULL;
	}
	ev = session__evsels(r->s);
	CHECK(ev && ev->attr.precise_ip == 2 &&
		      ev->attr.config1 == (strstr(args, "--ldlat 30") ? 30u
					   : strstr(name, "stores")   ? 0u
								      : 3u),
	      "the PEBS event: precise_ip %d config1 %llu", ev ? ev->attr.precise_ip : -1,
	      ev ? (unsigned long long)ev->attr.config1 : 0ULL);
	return ev;
}

static void test_report(void)
{
	struct synth_run r;
	struct evsel *ev;
	const char *out;

	if (fake_sysfs__make("ldlat")) {
		CHECK(0, "mkdtemp");
		return;
	}
	fake_intel(true, true, "GenuineIntel");

	ev = start(&r, "ldlat-loads", "--ldlat 30 --than 100 -C 0,1", false);
	if (ev) {
		samples(&r, ev);
		out = synth_run__finish(&r);
		/* --than: the one sample over 100 cycles, as it came */
		CHECK(strstr(out, " 4243 [001] ldlat-loads: latency 300 cycles, Local RAM hit|SNP "
				  "Miss|TLB L2 miss, data 0x7f0000800000, ip 0x401020 [unknown]\n"),
		      "%s", out);
		/* by data source, largest total first: samples, total, min, avg, ..., max, >100 */
		CHECK(strstr(out,
			     "DATA SOURCE                                   calls       total"
			     "         min         avg         p50         p95         p99         "
			     "max             >100\n"
			     "Local RAM hit|SNP Miss|TLB L2 miss                1         300      "
			     " "
			     "  300      300.00         300         300         300         300    "
			     "   "
			     "1 (100.0%)\n"
			     "L3 hit|SNP HitM|TLB L1 or L2 hit                  1          50      "
			     " "
			     "   50       50.00          50          50          50          50    "
			     "   "
			     "  0 (0.0%)\n"
			     "L1 hit|SNP None|TLB L1 or L2 hit                  2          30      "
			     " "
			     "   10       15.00          10          20          20          20    "
			     "   "
			     "  0 (0.0%)\n"),
		      "%s", out);
		/* the buckets of each data source */
		CHECK(strstr(out, "\nL1 hit|SNP None|TLB L1 or L2 hit (DATA SOURCE)\n"
				  "        cycles : count     distribution\n"
				  "    8 -> 15    : 1        "
				  "|****************************************|\n"
				  "   16 -> 31    : 1        "
				  "|****************************************|\n"),
		      "%s", out);
		/* by instruction */
		CHECK(strstr(out,
			     "          0x401000 [unknown]                                 2    "
			     "      30          10       15.00          10          20          20 "
			     " "
			     "        20         0 (0.0%)\n"),
		      "%s", out);
	}
	synth_run__cleanup(&r);

	ev = start(&r, "ldlat-loads", "--json --than 100 -C 0,1", true);
	if (ev) {
		samples(&r, ev);
		out = synth_run__finish(&r);
		CHECK(strstr(out,
			     "\"pid\":4242,\"tid\":4243,\"cpu\":1,\"event\":\"ldlat-loads\","
			     "\"latency_cycles\":300,\"data_source\":\"Local RAM hit|SNP Miss|TLB "
			     "L2 miss\",\"addr\":\"0x7f0000800000\",\"ip\":\"0x401020\",\"symbol\":"
			     "\"[unknown]\"}\n"),
		      "--than's event: %s", out);
		CHECK(strstr(out,
			     "\"data_source\":\"Local RAM hit|SNP Miss|TLB L2 miss\",\"count\":1,"
			     "\"total\":300,") &&
			      strstr(out, "\"than\":100,\"slow\":1"),
		      "the threshold as a number of cycles: %s", out);
	}
	synth_run__cleanup(&r);

	ev = start(&r, "ldlat-loads", "--perins --json -C 0,1", true);
	if (ev) {
		samples(&r, ev);
		out = synth_run__finish(&r);
		CHECK(strstr(out, "{\"type\":\"row\",\"scope\":\"run\",") &&
			      strstr(out,
				     "\"cpu\":1,\"data_source\":\"L1 hit|SNP None|TLB L1 or L2 "
				     "hit\",\"count\":1,\"total\":20,\"min\":20,"),
		      "%s", out);
		CHECK(strstr(out,
			     "\"cpu\":0,\"ip\":\"0x401010\",\"symbol\":\"[unknown]\",\"count\":1,"
			     "\"total\":50,"),
		      "%s", out);
	}
	synth_run__cleanup(&r);

	ev = start(&r, "ldlat-stores", "-T 100 -C 0,1", false);
	if (ev) {
		CHECK(ev->attr.config == 0x82d0 && ev->attr.sample_period == 100, "0x%llx %llu",
		      (unsigned long long)ev->attr.config,
		      (unsigned long long)ev->attr.sample_period);
		pebs(&r, ev, 0, 0x401000, 0x7f0000001000, 0, L1_HIT);
		out = synth_run__finish(&r);
		CHECK(strstr(out,
			     "L1 hit|SNP None|TLB L1 or L2 hit                  1           0 "),
		      "%s", out);
	}
	synth_run__cleanup(&r);
	fake_sysfs__remove();
	features__set_roots(NULL, NULL);
}

/* kallsyms' variables: d, D, b, B, r, R; not code, not the linker's __start_/__stop_ bounds */
static void test_ksyms_data(void)
{
	static const char text[] = "ffffffff81000000 T _stext\n"
				   "ffffffff81000100 t helper\n"
				   "ffffffff82000000 D jiffies\n"
				   "ffffffff82000040 d local_var\n"
				   "ffffffff82000080 D __start_foo\n"
				   "ffffffff82001000 B bss_var\n"
				   "ffffffff82002000 R ro_table\n"
				   "ffffffffc0000000 d mod_var\t[ext4]\n";
	char path[] = "/tmp/pp-kallsyms.XXXXXX";
	int fd = mkstemp(path);
	struct ksyms *ks = NULL;
	struct data_sym ds = { 0 };
	bool ok;

	/* only those: a kallsyms without CONFIG_KALLSYMS_ALL's variables names nothing */
	ok = fd >= 0 && write(fd, text, sizeof(text) - 1) == (ssize_t)sizeof(text) - 1;
	CHECK(ok, "temp");
	CHECK(!ksyms__load(path, &ks) && ks, "load (7 variables)");
	CHECK(datasym__kernel(ks, 0xffffffff82000008ULL, &ds) == -ENOENT,
	      "7 variables (no CONFIG_KALLSYMS_ALL): none named");
	ksyms__delete(ks);
	ks = NULL;
	/* with the variables of a kernel that has them (1000 more, after these) */
	for (int i = 0; ok && i < 1000; i++) {
		char l[64];
		int n = snprintf(l, sizeof(l), "%llx D filler_%d\n",
				 0xffffffff83000000ULL + 0x40ULL * (unsigned)i, i);

		ok = write(fd, l, (size_t)n) == n;
	}
	CHECK(ok, "temp, 1007 variables");
	if (fd >= 0)
		close(fd);
	CHECK(!ksyms__load(path, &ks) && ks, "load");
	CHECK(!datasym__kernel(ks, 0xffffffff82000008ULL, &ds) && !strcmp(ds.sym, "jiffies") &&
		      ds.off == 8 && ds.kernel && !strcmp(ds.dso, "[kernel.kallsyms]"),
	      "jiffies+0x8: %s+0x%llx", ds.sym, (unsigned long long)ds.off);
	CHECK(!datasym__kernel(ks, 0xffffffff82000090ULL, &ds) && !strcmp(ds.sym, "local_var") &&
		      ds.off == 0x50,
	      "past __start_foo: still local_var: %s+0x%llx", ds.sym, (unsigned long long)ds.off);
	CHECK(!datasym__kernel(ks, 0xffffffff82001010ULL, &ds) && !strcmp(ds.sym, "bss_var"),
	      "bss: %s", ds.sym);
	CHECK(!datasym__kernel(ks, 0xffffffff82002004ULL, &ds) && !strcmp(ds.sym, "ro_table"),
	      "read-only: %s", ds.sym);
	CHECK(!datasym__kernel(ks, 0xffffffffc0000010ULL, &ds) && !strcmp(ds.sym, "mod_var") &&
		      !strcmp(ds.dso, "[ext4]"),
	      "a module's: %s %s", ds.sym, ds.dso);
	CHECK(datasym__kernel(ks, 0xffffffff81000008ULL, &ds) == -ENOENT, "code is no variable");
	CHECK(ksyms__find(ks, 0xffffffff82000008ULL, NULL) == NULL, "a variable is no function");
	ksyms__delete(ks);
	unlink(path);
	CHECK(datasym__kernel(NULL, 0xffffffff82000008ULL, &ds) == -ENOENT, "no kallsyms");
}

/* This binary's variables, as this process has them mapped. */
static void test_user_data(void)
{
	struct stack_ctx *ctx = stack_ctx__new(0);
	struct data_sym ds = { 0 };
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[n > 0 ? n : 0] = '\0';
	CHECK(ctx && !stack__data_sym(ctx, (u32)getpid(), (u64)&ldlat_ut_data[2], &ds) &&
		      !strcmp(ds.sym, "ldlat_ut_data") && ds.off == 16 && !ds.kernel &&
		      !strcmp(ds.dso, self),
	      "data: %s+0x%llx (%s)", ds.sym ?: "-", (unsigned long long)ds.off, ds.dso ?: "-");
	CHECK(ctx && !stack__data_sym(ctx, (u32)getpid(), (u64)&ldlat_ut_bss[7], &ds) &&
		      !strcmp(ds.sym, "ldlat_ut_bss") && ds.off == 56,
	      "bss: %s+0x%llx", ds.sym ?: "-", (unsigned long long)ds.off);
	CHECK(ctx && stack__data_sym(ctx, (u32)getpid(), (u64)(uintptr_t)&n, &ds) == -ENOENT,
	      "the stack: no variable");
	stack_ctx__delete(ctx);
}

/*
 * A data symbol of this host's kallsyms, alone at its address, 8 bytes
 * clear: its name, or NULL; *@nr the kallsyms' variables (under 1000: no
 * CONFIG_KALLSYMS_ALL, none is named).
 */
static const char *host_kernel_var(char *name, size_t len, u64 *addr, int *nr)
{
	FILE *fp = fopen("/proc/kallsyms", "re");
	char line[512], prev_name[256] = "";
	u64 prev = 0, a;
	char t, nm[256];
	bool prev_alone = false, found = false;

	*nr = 0;
	while (fp && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx %c %255s", (unsigned long long *)&a, &t, nm) != 3 ||
		    !strchr("dDbBrR", t))
			continue;
		if (!strchr(line, '\t'))
			(*nr)++;
		if (found || strchr(line, '\t') || !strncmp(nm, "__start_", 8) ||
		    !strncmp(nm, "__stop_", 7) || !a)
			continue;
		/* the previous one ends here: alone at its address, 8 bytes before this */
		if (prev_alone && a > prev + 8)
			found = true;
		else {
			prev_alone = a != prev;
			prev = a;
			snprintf(prev_name, sizeof(prev_name), "%s", nm);
		}
	}
	if (fp)
		fclose(fp);
	/* (the last: a page is its own) */
	if (!found && !(prev_alone && prev))
		return NULL;
	snprintf(name, len, "%s", prev_name);
	*addr = prev;
	return name;
}

/* --than's line and JSON name the variables: this binary's, the kernel's */
static void test_than_data(void)
{
	struct synth_run r;
	struct evsel *ev;
	const char *out;
	char want[512], kname[256];
	u64 kaddr = 0;
	int nr_kvars = 0;
	bool kernel = host_kernel_var(kname, sizeof(kname), &kaddr, &nr_kvars) != NULL;
	/* (under 1000 variables: its address printed without a name) */
	bool named = nr_kvars >= 1000;

	if (fake_sysfs__make("ldlat")) {
		CHECK(0, "mkdtemp");
		return;
	}
	fake_intel(true, true, "GenuineIntel");
	for (int json = 0; json < 2; json++) {
		ev = start(&r, "ldlat-loads", json ? "--json --than 100 -C 0" : "--than 100 -C 0",
			   json);
		if (!ev) {
			synth_run__cleanup(&r);
			continue;
		}
		session__inject(
			r.s,
			synth__sample(&r.b, ev,
				      &(struct synth_sample){ .pid = (u32)getpid(),
							      .tid = (u32)getpid(),
							      .time = 5000000,
							      .ip = 0x401000,
							      .addr = (u64)&ldlat_ut_data[1],
							      .weight = 200,
							      .data_src = RAM_HIT }),
			0);
		if (kernel)
			session__inject(
				r.s,
				synth__sample(&r.b, ev,
					      &(struct synth_sample){ .pid = (u32)getpid(),
								      .tid = (u32)getpid(),
								      .time = 5001000,
								      .ip = 0x401000,
								      .addr = kaddr + 8,
								      .weight = 200,
								      .data_src = RAM_HIT }),
				0);
		out = synth_run__finish(&r);
		if (json) {
			snprintf(want, sizeof(want),
				 "\"addr\":\"0x%llx\",\"data_symbol\":\"ldlat_ut_data+0x8\","
				 "\"data_dso\":\"",
				 (unsigned long long)(u64)&ldlat_ut_data[1]);
			CHECK(strstr(out, want), "JSON: the user variable: %s", out);
			snprintf(want, sizeof(want),
				 named ? "\"addr\":\"0x%llx\",\"data_symbol\":\"%s+0x8\","
					 "\"data_dso\":\"[kernel.kallsyms]\""
				       : "\"addr\":\"0x%llx\",\"ip\"",
				 (unsigned long long)kaddr + 8, kname);
			CHECK(!kernel || strstr(out, want), "JSON: the kernel variable: %s", out);
		} else {
			snprintf(want, sizeof(want),
				 ", data 0x%llx (ldlat_ut_data+0x8), ip 0x401000",
				 (unsigned long long)(u64)&ldlat_ut_data[1]);
			CHECK(strstr(out, want), "the user variable: %s", out);
			if (named)
				snprintf(want, sizeof(want), ", data 0x%llx (%s+0x8), ip 0x401000",
					 (unsigned long long)kaddr + 8, kname);
			else
				snprintf(want, sizeof(want), ", data 0x%llx, ip 0x401000",
					 (unsigned long long)kaddr + 8);
			CHECK(!kernel || strstr(out, want), "the kernel variable %s: %s", kname,
			      out);
		}
		synth_run__cleanup(&r);
	}
	if (!kernel)
		printf("# skip: no kernel variable alone in /proc/kallsyms (hidden addresses?)\n");
	else if (!named)
		printf("# this kernel's kallsyms has %d variables (no CONFIG_KALLSYMS_ALL): its "
		       "address is checked unnamed\n",
		       nr_kvars);
	fake_sysfs__remove();
	features__set_roots(NULL, NULL);
}

int main(void)
{
	test_src();
	test_attr();
	test_report();
	test_ksyms_data();
	test_user_data();
	test_than_data();
	return ut_done("test_ldlat");
}
