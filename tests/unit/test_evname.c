// SPDX-License-Identifier: GPL-2.0
/*
 * Event names for counting mode: generic, cache, raw, PMU (against a fake
 * sysfs with an uncore_imc_0 like seed 002's, and the real msr PMU),
 * tracepoints, modifiers, groups, and every error's message.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/evname.h"
#include "engine/features.h"
#include "fake_sysfs.h"
#include "ut.h"

/* The seed's iMC PMU, and one with every kind of format. */
static void make_fake_sysfs(void)
{
	if (fake_sysfs__make("evname")) {
		perror("mkdtemp");
		exit(1);
	}
	fake_sysfs__put("uncore_imc_0/type", "17\n");
	fake_sysfs__put("uncore_imc_0/format/event", "config:0-7\n");
	fake_sysfs__put("uncore_imc_0/format/umask", "config:8-15\n");
	fake_sysfs__put("uncore_imc_0/events/cas_count_read", "event=0x04,umask=0x03\n");
	fake_sysfs__put("uncore_imc_0/events/cas_count_read.scale", "6.103515625e-5\n");
	fake_sysfs__put("uncore_imc_0/events/cas_count_read.unit", "MiB\n");
	fake_sysfs__put("uncore_imc_0/events/clockticks", "event=0x00,umask=0x00\n");
	fake_sysfs__put("uncore_imc_0/cpumask", "0,18\n"); /* one CPU per package */

	fake_sysfs__put("fakepmu/type", "42\n");
	fake_sysfs__put("fakepmu/format/split", "config:0-3,32-35\n");
	fake_sysfs__put("fakepmu/format/bit", "config:21\n");
	fake_sysfs__put("fakepmu/format/thresh", "config:24-31\n");
	fake_sysfs__put("fakepmu/format/ext", "config1:0-15\n");
	fake_sysfs__put("fakepmu/format/wide", "config2:0-63\n");
	fake_sysfs__put("fakepmu/format/odd", "config3:0-7\n");
	fake_sysfs__put("fakepmu/events/needs", "bit=1,thresh=?\n");
	fake_sysfs__put("fakepmu/events/withperiod", "split=0x5,period=1000\n");
	fake_sysfs__put("fakepmu/events/bad", "nosuch=1\n");
	fake_sysfs__put("fakepmu/events/empty", "");
	fake_sysfs__put("fakepmu/events/longunit", "bit\n");
	fake_sysfs__put("fakepmu/events/longunit.unit", "Joules-per-fortnight-squared\n");
	fake_sysfs__put("fakepmu/events/longunit.scale", "not a number\n");
}

static struct evname ev;
static char err[256];

/* CHECK_STR on an array (its address is never NULL: -Waddress). */
#define CHECK_BUF(buf, want)              \
	do {                              \
		const char *got_ = (buf); \
		CHECK_STR(got_, want);    \
	} while (0)

/* Parse one event that must be good; its name must be @text unless @name is given. */
static int good(const char *text)
{
	int ret;

	evname__clear(&ev);
	err[0] = '\0';
	ret = evname__parse(text, &ev, err, sizeof(err));
	CHECK(ret == 0, "'%s': %d: %s", text, ret, err);
	if (ret)
		memset(&ev, 0, sizeof(ev));
	CHECK_INT(ev.attr.size, sizeof(struct perf_event_attr));
	if (!ret)
		CHECK_INT(ev.leader, -1);
	return ret;
}

static void bad(const char *text, const char *msg)
{
	struct evname e;
	int ret;

	memset(&e, 0x5a, sizeof(e));
	err[0] = '\0';
	ret = evname__parse(text, &e, err, sizeof(err));
	CHECK(ret == -EINVAL, "'%s' returned %d", text, ret);
	CHECK_BUF(err, msg);
	CHECK(!e.sys && !e.tp, "'%s': strings left", text);
}

static void check_attr(const char *what, int type, unsigned long long config)
{
	CHECK(ev.attr.type == (unsigned)type, "%s: type %u, want %d", what, ev.attr.type, type);
	CHECK(ev.attr.config == config, "%s: config %#llx, want %#llx", what,
	      (unsigned long long)ev.attr.config, config);
}

/* u k h G H: which modes are excluded. */
static void check_excl(const char *what, int u, int k, int h, int g, int H)
{
	const struct perf_event_attr *a = &ev.attr;

	CHECK(a->exclude_user == (unsigned)u && a->exclude_kernel == (unsigned)k &&
		      a->exclude_hv == (unsigned)h && a->exclude_guest == (unsigned)g &&
		      a->exclude_host == (unsigned)H,
	      "%s: exclude user %d kernel %d hv %d guest %d host %d", what, a->exclude_user,
	      a->exclude_kernel, a->exclude_hv, a->exclude_guest, a->exclude_host);
}

static void test_generic(void)
{
	for (int i = 0; i < evname__nr_sw; i++) {
		good(evname__sw[i].name);
		check_attr(evname__sw[i].name, PERF_TYPE_SOFTWARE, i);
		CHECK_STR(ev.name, evname__sw[i].name);
		if (evname__sw[i].alt) {
			good(evname__sw[i].alt);
			check_attr(evname__sw[i].alt, PERF_TYPE_SOFTWARE, i);
			CHECK_STR(ev.name, evname__sw[i].alt);
		}
	}
	for (int i = 0; i < evname__nr_hw; i++) {
		good(evname__hw[i].name);
		check_attr(evname__hw[i].name, PERF_TYPE_HARDWARE, i);
		if (evname__hw[i].alt) {
			good(evname__hw[i].alt);
			check_attr(evname__hw[i].alt, PERF_TYPE_HARDWARE, i);
		}
	}
	CHECK_INT(evname__nr_sw, 12);
	CHECK_INT(evname__nr_hw, 10);

	good("cpu-clock");
	check_attr("cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	CHECK(ev.scale == 1e-6, "cpu-clock scale %g", ev.scale);
	CHECK_STR(ev.unit, "msec");
	CHECK(!ev.sys && !ev.tp, "sw event with tracepoint strings");
	check_excl("cpu-clock", 0, 0, 0, 0, 0);
	CHECK(!ev.attr.config1 && !ev.attr.config2 && !ev.attr.sample_period && !ev.attr.disabled,
	      "other attr fields set");
	good("task-clock");
	check_attr("task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	CHECK(ev.scale == 1e-6, "task-clock scale %g", ev.scale);
	CHECK_STR(ev.unit, "msec");
	good("cs");
	check_attr("cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	CHECK(ev.scale == 1.0, "cs scale %g", ev.scale);
	CHECK_STR(ev.unit, "");
	good("faults");
	check_attr("faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	good("migrations");
	check_attr("migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS);
	good("cgroup-switches");
	check_attr("cgroup-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES);
	good("cycles");
	check_attr("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	CHECK_STR(ev.name, "cycles");
	good("ref-cycles");
	check_attr("ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES);
	good("idle-cycles-backend");
	check_attr("idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND);
	good("branches");
	check_attr("branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	good("  cs\t");
	CHECK_STR(ev.name, "cs");

	bad("foo", "unknown event 'foo': see perf-prof list");
	bad("Cycles", "unknown event 'Cycles': see perf-prof list");
	bad("cs cycles", "unknown event 'cs cycles': see perf-prof list");
	bad("", "empty event: name one (see perf-prof list)");
	bad("   ", "empty event: name one (see perf-prof list)");
	bad("cycles,cs", "'cycles,cs' is a list: one event expected");
	bad("{cycles,cs}", "unexpected '{' in '{cycles,cs}': a group is {EVENT,EVENT...}[:MODS] "
			   "in an event list, and groups do not nest");
}

static void test_cache(void)
{
	static const struct {
		const char *name;
		unsigned long long config;
	} c[] = {
		{ "L1-dcache-load-misses", 0x10000 },
		{ "L1-dcache-loads", 0x0 },
		{ "L1-dcache-stores", 0x100 },
		{ "L1-dcache-prefetch-misses", 0x10200 },
		{ "L1-icache-load-misses", 0x10001 },
		{ "L1-icache-prefetches", 0x201 },
		{ "LLC-loads", 0x2 },
		{ "LLC-store-misses", 0x10102 },
		{ "L2", 0x2 },
		{ "dTLB-store-misses", 0x10103 },
		{ "iTLB-load-misses", 0x10004 },
		{ "branch-load-misses", 0x10005 },
		{ "branch-loads", 0x5 },
		{ "node-loads", 0x6 },
		{ "node-misses-stores", 0x10106 },
		{ "l1d-misses", 0x10000 },
		{ "L1-ICACHE-LOADS", 0x1 },
		{ "Data-TLB-speculative-read-access", 0x203 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		good(c[i].name);
		check_attr(c[i].name, PERF_TYPE_HW_CACHE, c[i].config);
		CHECK_STR(ev.name, c[i].name);
	}
	good("LLC-load-misses:k");
	check_attr("LLC-load-misses:k", PERF_TYPE_HW_CACHE, 0x10002);
	check_excl("LLC-load-misses:k", 1, 0, 1, 0, 0);

	bad("L1-icache-stores", "'L1-icache-stores': L1-icache caches do not count stores: "
				"see perf-prof list");
	bad("iTLB-prefetches", "'iTLB-prefetches': iTLB caches do not count prefetches: "
			       "see perf-prof list");
	bad("L1-dcache-foo", "unknown event 'L1-dcache-foo': see perf-prof list");
	bad("L1-dcache-loads-stores", "unknown event 'L1-dcache-loads-stores': see perf-prof list");
	bad("L1-dcache-", "unknown event 'L1-dcache-': see perf-prof list");
	bad("L1-dcache-misses-misses",
	    "unknown event 'L1-dcache-misses-misses': see perf-prof list");
}

static void test_raw(void)
{
	good("r1a8");
	check_attr("r1a8", PERF_TYPE_RAW, 0x1a8);
	CHECK_STR(ev.name, "r1a8");
	good("r0");
	check_attr("r0", PERF_TYPE_RAW, 0);
	good("rffffffffffffffff");
	check_attr("rffffffffffffffff", PERF_TYPE_RAW, ~0ULL);
	good("r0000000000000000001");
	check_attr("r0000000000000000001", PERF_TYPE_RAW, 1);
	good("r1a8:u");
	check_attr("r1a8:u", PERF_TYPE_RAW, 0x1a8);
	check_excl("r1a8:u", 0, 1, 1, 0, 0);
	CHECK_STR(ev.name, "r1a8:u");
	bad("r10000000000000000", "raw event 'r10000000000000000' is more than 64 bits");
	bad("r", "unknown event 'r': see perf-prof list");
	bad("r1g", "unknown event 'r1g': see perf-prof list");
}

static void test_mods(void)
{
	good("cycles:u");
	check_excl(":u", 0, 1, 1, 0, 0);
	CHECK_STR(ev.name, "cycles:u");
	check_attr("cycles:u", PERF_TYPE_HARDWARE, 0);
	good("cycles:k");
	check_excl(":k", 1, 0, 1, 0, 0);
	good("cycles:h");
	check_excl(":h", 1, 1, 0, 0, 0);
	good("cycles:uk");
	check_excl(":uk", 0, 0, 1, 0, 0);
	good("cycles:ku");
	check_excl(":ku", 0, 0, 1, 0, 0);
	good("cycles:ukh");
	check_excl(":ukh", 0, 0, 0, 0, 0);
	good("cycles:G");
	check_excl(":G", 0, 0, 0, 0, 1);
	good("cycles:H");
	check_excl(":H", 0, 0, 0, 1, 0);
	good("cycles:GH");
	check_excl(":GH", 0, 0, 0, 0, 0);
	good("cs:uG");
	check_excl(":uG", 0, 1, 1, 0, 1);
	CHECK_STR(ev.name, "cs:uG");
	good("cpu-clock:kk");
	check_excl(":kk", 1, 0, 1, 0, 0);
	CHECK_STR(ev.unit, "msec");

	bad("cycles:x", "bad modifier 'x' in 'cycles:x': use u (user), k (kernel), h (hypervisor), "
			"G (guest) or H (host)");
	bad("cycles:pp", "bad modifier 'p' in 'cycles:pp': use u (user), k (kernel), "
			 "h (hypervisor), G (guest) or H (host)");
	bad("cycles:u:k", "bad modifier ':' in 'cycles:u:k': use u (user), k (kernel), "
			  "h (hypervisor), G (guest) or H (host)");
	bad("cycles:", "empty modifier after ':' in 'cycles:': use u, k, h, G or H");
	bad(":u", "no event name before ':' in ':u': see perf-prof list");
}

static void test_tracepoint(void)
{
	good("sched:sched_switch");
	check_attr("sched:sched_switch", PERF_TYPE_TRACEPOINT, 0);
	CHECK_STR(ev.sys, "sched");
	CHECK_STR(ev.tp, "sched_switch");
	CHECK_STR(ev.name, "sched:sched_switch");
	check_excl("tp", 0, 0, 0, 0, 0);
	CHECK(ev.scale == 1.0 && !ev.unit[0], "tracepoint scale/unit");
	/* A tracepoint system named like a PMU: the '/' decides. */
	good("msr:read_msr");
	CHECK_STR(ev.sys, "msr");
	CHECK_STR(ev.tp, "read_msr");
	good("sched:sched_switch:k");
	CHECK_STR(ev.sys, "sched");
	CHECK_STR(ev.tp, "sched_switch");
	CHECK_STR(ev.name, "sched:sched_switch:k");
	check_excl("tp:k", 1, 0, 1, 0, 0);
	good("xhci-hcd:xhci_dbg.init");
	CHECK_STR(ev.sys, "xhci-hcd");
	CHECK_STR(ev.tp, "xhci_dbg.init");

	bad("sched:*", "'sched:*': tracepoint globs are not counted: name each one "
		       "(perf-prof list 'sched:*' shows them)");
	bad("sched:sched_wak?ng", "'sched:sched_wak?ng': tracepoint globs are not counted: "
				  "name each one (perf-prof list 'sched:sched_wak?ng' shows them)");
	bad("sched:", "bad tracepoint name 'sched:': SYS:NAME[:MODS] with letters, digits, "
		      "'_', '-' and '.'");
	bad("sched:..", "bad tracepoint name 'sched:..': SYS:NAME[:MODS] with letters, digits, "
			"'_', '-' and '.'");
	bad("sched:sched_switch:", "empty modifier after ':' in 'sched:sched_switch:': "
				   "use u, k, h, G or H");
	bad("sched:sched_switch:x", "bad modifier 'x' in 'sched:sched_switch:x': use u (user), "
				    "k (kernel), h (hypervisor), G (guest) or H (host)");
}

static void test_pmu_fake(void)
{
	good("uncore_imc_0/cas_count_read/");
	check_attr("cas_count_read", 17, 0x0304);
	CHECK(ev.attr.config1 == 0 && ev.attr.config2 == 0, "config1/2 set");
	CHECK(ev.scale == 6.103515625e-5, "scale %.12g", ev.scale);
	CHECK_STR(ev.unit, "MiB");
	CHECK_STR(ev.name, "uncore_imc_0/cas_count_read/");
	CHECK(!ev.sys && !ev.tp, "PMU event with tracepoint strings");
	check_excl("imc", 0, 0, 0, 0, 0);
	CHECK_BUF(ev.cpumask, "0,18"); /* an uncore PMU: opened on these CPUs only */

	good("uncore_imc_0/clockticks/");
	check_attr("clockticks", 17, 0);
	CHECK(ev.scale == 1.0 && !ev.unit[0], "clockticks has no scale/unit");
	good("uncore_imc_0/event=0x04,umask=0x0c/");
	check_attr("event,umask", 17, 0x0c04);
	CHECK(ev.scale == 1.0 && !ev.unit[0], "terms have no scale/unit");
	good("uncore_imc_0/event=4,umask=12/");
	check_attr("decimal", 17, 0x0c04);
	good("uncore_imc_0/cas_count_read,umask=0x0c/");
	check_attr("alias then umask", 17, 0x0c04);
	CHECK_STR(ev.unit, "MiB");
	good("uncore_imc_0/umask=0x0c,cas_count_read/");
	check_attr("umask then alias", 17, 0x0c04);
	good("uncore_imc_0/event=0xff,umask=0xff/");
	check_attr("max", 17, 0xffff);
	good("uncore_imc_0/cas_count_read/u");
	check_excl("pmu/u", 0, 1, 1, 0, 0);
	CHECK_STR(ev.name, "uncore_imc_0/cas_count_read/u");
	good("uncore_imc_0/cas_count_read/:k");
	check_excl("pmu/:k", 1, 0, 1, 0, 0);
	CHECK_STR(ev.name, "uncore_imc_0/cas_count_read/:k");
	good("uncore_imc_0/config=0x1234,config1=5,config2=0xffffffffffffffff/");
	check_attr("config=", 17, 0x1234);
	CHECK(ev.attr.config1 == 5 && ev.attr.config2 == ~0ULL, "config1 %#llx config2 %#llx",
	      (unsigned long long)ev.attr.config1, (unsigned long long)ev.attr.config2);
	good("uncore_imc_0/cas_count_read,name=rd/");
	check_attr("name=", 17, 0x0304);
	CHECK_STR(ev.name, "rd");
	CHECK_STR(ev.unit, "MiB");

	bad("uncore_imc_0/event=0x100/", "value 0x100 of 'event' in 'uncore_imc_0/event=0x100/' "
					 "does not fit its 8 bits (config:0-7): at most 0xff");
	bad("uncore_imc_0/foo=1/",
	    "unknown term 'foo' in 'uncore_imc_0/foo=1/': uncore_imc_0 "
	    "takes event, umask, config, config1, config2, name (its events: "
	    "see perf-prof list)");
	bad("uncore_imc_0/cas_count_write/",
	    "unknown term 'cas_count_write' in 'uncore_imc_0/cas_count_write/': uncore_imc_0 "
	    "takes event, umask, config, config1, config2, name (its events: see perf-prof list)");
	bad("uncore_imc_0/cas_count_read.scale/",
	    "unknown term 'cas_count_read.scale' in 'uncore_imc_0/cas_count_read.scale/': "
	    "uncore_imc_0 takes event, umask, config, config1, config2, name (its events: see "
	    "perf-prof list)");
	bad("uncore_imc_0/period=1000/",
	    "'period=' in 'uncore_imc_0/period=1000/': counting mode does not sample: drop it");
	bad("uncore_imc_0//", "no terms in 'uncore_imc_0//': name an event (uncore_imc_0/EVENT/) "
			      "or terms (uncore_imc_0/config=N/)");
	bad("uncore_imc_0/event=/", "no value after 'event=' in 'uncore_imc_0/event=/'");
	bad("uncore_imc_0/event=x/", "bad value 'x' for 'event' in 'uncore_imc_0/event=x/': "
				     "a number, decimal or 0x hex");
	bad("uncore_imc_0/event=-1/", "bad value '-1' for 'event' in 'uncore_imc_0/event=-1/': "
				      "a number, decimal or 0x hex");
	bad("uncore_imc_0/event=0x/", "bad value '0x' for 'event' in 'uncore_imc_0/event=0x/': "
				      "a number, decimal or 0x hex");
	bad("uncore_imc_0/,event=1/",
	    "empty term in 'uncore_imc_0/,event=1/': remove the extra ','");
	bad("uncore_imc_0/=1/", "no term name before '=' in 'uncore_imc_0/=1/'");
	bad("uncore_imc_0/config/", "'config' needs a value in 'uncore_imc_0/config/': config=N");
	bad("uncore_imc_0/name=/", "name= needs a name in 'uncore_imc_0/name=/'");
	bad("uncore_imc_0/cas_count_read,clockticks/",
	    "two events in 'uncore_imc_0/cas_count_read,clockticks/': 'cas_count_read' and "
	    "'clockticks': one per event");
	bad("uncore_imc_0/cas_count_read/x", "bad modifier 'x' in 'uncore_imc_0/cas_count_read/x': "
					     "use u (user), k (kernel), h (hypervisor), G (guest) "
					     "or H (host)");
	bad("uncore_imc_0/cas_count_read/:",
	    "empty modifier after ':' in "
	    "'uncore_imc_0/cas_count_read/:': use u, k, h, G or H");
	bad("uncore_imc_0/event=1", "missing '/' in 'uncore_imc_0/event=1': a PMU event is "
				    "PMU/TERMS/");
	bad("nosuch/event=1/", "unknown PMU 'nosuch' in 'nosuch/event=1/': see perf-prof list");
	bad(".x/event=1/", "bad PMU name '.x' in '.x/event=1/': PMU/TERMS/, see perf-prof list");
	bad("/event=1/", "bad PMU name '' in '/event=1/': PMU/TERMS/, see perf-prof list");

	good("fakepmu/split=0xab/");
	CHECK_BUF(ev.cpumask, ""); /* no cpumask: on every CPU, or a thread */
	check_attr("split", 42, 0xa0000000bULL);
	good("fakepmu/split=0xff,split=0x01/");
	check_attr("split twice", 42, 0x1);
	good("fakepmu/bit/");
	check_attr("bit", 42, 1ULL << 21);
	good("fakepmu/bit=1,thresh=0xff/");
	check_attr("bit+thresh", 42, 0xff200000ULL);
	good("fakepmu/ext=0xffff/");
	check_attr("ext", 42, 0);
	CHECK(ev.attr.config1 == 0xffff, "config1 %#llx", (unsigned long long)ev.attr.config1);
	good("fakepmu/wide=18446744073709551615/");
	CHECK(ev.attr.config2 == ~0ULL, "config2 %#llx", (unsigned long long)ev.attr.config2);
	good("fakepmu/needs,thresh=3/");
	check_attr("needs", 42, (1ULL << 21) | (3ULL << 24));
	good("fakepmu/withperiod/");
	check_attr("withperiod", 42, 5);
	good("fakepmu/longunit/");
	CHECK_STR(ev.unit, "Joules-per-fort"); /* 15 characters: truncated */
	CHECK(ev.scale == 1.0, "bad scale file used: %g", ev.scale);

	bad("fakepmu/split=0x100/", "value 0x100 of 'split' in 'fakepmu/split=0x100/' does not fit "
				    "its 8 bits (config:0-3,32-35): at most 0xff");
	bad("fakepmu/bit=2/", "value 0x2 of 'bit' in 'fakepmu/bit=2/' does not fit its 1 bits "
			      "(config:21): at most 0x1");
	bad("fakepmu/wide=18446744073709551616/",
	    "bad value '18446744073709551616' for 'wide' in 'fakepmu/wide=18446744073709551616/': "
	    "a number, decimal or 0x hex");
	bad("fakepmu/odd=1/", "'odd' in 'fakepmu/odd=1/': cannot use fakepmu's format 'odd' "
			      "(config3:0-7)");
	bad("fakepmu/needs/",
	    "'fakepmu/needs/': fakepmu/needs/ needs a value for 'thresh': fakepmu/needs,thresh=N/");
	bad("fakepmu/bad/",
	    "'fakepmu/bad/': the definition of fakepmu/bad/ has term 'nosuch', unknown to fakepmu");
	bad("fakepmu/empty/", "'fakepmu/empty/': fakepmu/empty/ has no definition in sysfs");
}

static void test_pmu_real(void)
{
	int type = features__pmu_type("msr");

	if (type < 0) {
		printf("skip: no msr PMU on this host\n");
		return;
	}
	good("msr/tsc/");
	check_attr("msr/tsc/", type, 0);
	CHECK_BUF(ev.cpumask, "");
	CHECK(type > PERF_TYPE_BREAKPOINT, "msr type %d", type);
	good("msr/event=5/");
	check_attr("msr/event=5/", type, 5);
	bad("msr/nosuch/", "unknown term 'nosuch' in 'msr/nosuch/': msr takes event, config, "
			   "config1, config2, name (its events: see perf-prof list)");
	if (features__pmu_type("uprobe") >= 0) {
		good("uprobe/retprobe/");
		check_attr("uprobe/retprobe/", features__pmu_type("uprobe"), 1);
	}
	good("software/config=3/");
	check_attr("software/config=3/", PERF_TYPE_SOFTWARE, 3);
}

static struct evname *evs;
static int nr;

static int list_good(const char *text, int want_nr)
{
	int ret;

	err[0] = '\0';
	ret = evname__parse_list(text, &evs, &nr, err, sizeof(err));
	CHECK(ret == 0, "'%s': %d: %s", text, ret, err);
	CHECK(nr == want_nr, "'%s': %d events, want %d", text, nr, want_nr);
	return ret || nr != want_nr;
}

static void list_bad(const char *text, const char *msg)
{
	int before = nr, ret;

	err[0] = '\0';
	ret = evname__parse_list(text, &evs, &nr, err, sizeof(err));
	CHECK(ret == -EINVAL, "'%s' returned %d", text, ret);
	CHECK_BUF(err, msg);
	CHECK(nr == before, "'%s': nr %d, was %d", text, nr, before);
}

static void list_reset(void)
{
	evname__free(evs, nr);
	evs = NULL;
	nr = 0;
}

static void test_list(void)
{
	static const char *const names[] = { "cpu-clock",	  "cs",		  "cycles",
					     "instructions",	  "task-clock:u", "page-faults:u",
					     "sched:sched_switch" };
	static const int leaders[] = { -1, -1, 2, 2, 4, 4, -1 };

	if (!list_good("cpu-clock,cs,{cycles,instructions},{task-clock,page-faults}:u,"
		       "sched:sched_switch",
		       7)) {
		for (int i = 0; i < 7; i++) {
			CHECK_STR(evs[i].name, names[i]);
			CHECK(evs[i].leader == leaders[i], "event %d leader %d, want %d", i,
			      evs[i].leader, leaders[i]);
		}
		CHECK(evs[4].attr.exclude_kernel && !evs[4].attr.exclude_user &&
			      evs[5].attr.exclude_kernel && evs[5].attr.exclude_hv,
		      "group :u not applied");
		CHECK(!evs[2].attr.exclude_kernel && !evs[0].attr.exclude_kernel,
		      "modifiers leaked");
		CHECK(evs[4].scale == 1e-6 && !strcmp(evs[4].unit, "msec"), "task-clock unit");
		CHECK_STR(evs[6].sys, "sched");
		CHECK_STR(evs[6].tp, "sched_switch");
		CHECK(evs[6].attr.type == PERF_TYPE_TRACEPOINT, "tp type");
	}

	/* Appending: leaders are indexes into the whole array. */
	if (!list_good("cycles:u,{cs,migrations}", 10)) {
		CHECK_STR(evs[7].name, "cycles:u");
		CHECK_INT(evs[7].leader, -1);
		CHECK_INT(evs[8].leader, 8);
		CHECK_INT(evs[9].leader, 8);
		CHECK_STR(evs[6].tp, "sched_switch");
	}
	/* A failed list adds nothing and keeps what was there. */
	list_bad("cs,{cycles,foo}", "unknown event 'foo': see perf-prof list");
	CHECK_STR(evs[9].name, "migrations");
	list_reset();

	if (!list_good("{cycles:k,cs}:u", 2)) {
		CHECK_STR(evs[0].name, "cycles:ku");
		CHECK(!evs[0].attr.exclude_user && !evs[0].attr.exclude_kernel &&
			      evs[0].attr.exclude_hv,
		      "{cycles:k}:u should count user and kernel");
		CHECK_STR(evs[1].name, "cs:u");
		CHECK(!evs[1].attr.exclude_user && evs[1].attr.exclude_kernel, "cs:u");
	}
	list_reset();

	if (!list_good("{cs}", 1))
		CHECK_INT(evs[0].leader, 0);
	list_reset();

	/* Commas inside a PMU's slashes do not split. */
	if (!list_good("uncore_imc_0/event=4,umask=3/,cs,{uncore_imc_0/cas_count_read,umask=1/:u,"
		       "sched:sched_switch}:k",
		       4)) {
		CHECK(evs[0].attr.type == 17 && evs[0].attr.config == 0x304, "imc terms");
		CHECK_STR(evs[0].name, "uncore_imc_0/event=4,umask=3/");
		CHECK_INT(evs[0].leader, -1);
		CHECK(evs[1].attr.type == PERF_TYPE_SOFTWARE, "cs type");
		CHECK(evs[2].attr.config == 0x104 && evs[2].scale == 6.103515625e-5 &&
			      !strcmp(evs[2].unit, "MiB"),
		      "imc alias in group");
		CHECK_STR(evs[2].name, "uncore_imc_0/cas_count_read,umask=1/:uk");
		CHECK_INT(evs[2].leader, 2);
		CHECK_STR(evs[3].name, "sched:sched_switch:k");
		CHECK_INT(evs[3].leader, 2);
		CHECK(evs[3].attr.exclude_user && !evs[3].attr.exclude_kernel, "tp:k in group");
	}
	list_reset();

	if (!list_good(" cs , {cycles, instructions}:u ,faults ", 4)) {
		CHECK_STR(evs[0].name, "cs");
		CHECK_STR(evs[1].name, "cycles:u");
		CHECK_STR(evs[2].name, "instructions:u");
		CHECK_STR(evs[3].name, "faults");
	}
	list_reset();

	list_bad("", "empty event list: name events, e.g. cpu-clock,page-faults");
	list_bad("  ", "empty event list: name events, e.g. cpu-clock,page-faults");
	list_bad("cs,,cycles", "empty event in 'cs,,cycles': remove the extra ','");
	list_bad(",cs", "empty event in ',cs': remove the extra ','");
	list_bad("cs,", "empty event at the end of 'cs,': remove the last ','");
	list_bad("{cs,cycles", "unbalanced braces in '{cs,cycles': missing '}'");
	list_bad("cs}", "unbalanced braces in 'cs}': '}' without '{'");
	list_bad("{cs},cycles}", "unbalanced braces in '{cs},cycles}': '}' without '{'");
	list_bad("{cs,{cycles}}", "nested group in '{cs,{cycles}}': groups do not nest");
	list_bad("{}", "empty event in group '{}'");
	list_bad("{cs,}", "empty event in group '{cs,}'");
	list_bad("{cs}x", "unexpected 'x' after '}' in '{cs}x': {...}:MODS or ','");
	list_bad("{cs}{cycles}", "unexpected '{' after '}' in '{cs}{cycles}': {...}:MODS or ','");
	list_bad("{cs}:x", "bad modifier 'x' in '{cs}:x': use u (user), k (kernel), "
			   "h (hypervisor), G (guest) or H (host)");
	list_bad("{cs}:", "empty modifier after ':' in '{cs}:': use u, k, h, G or H");
	list_bad("cs{cycles}",
		 "unexpected '{' in 'cs{cycles}': a group starts an item, after a ','");
	list_bad("{cs} cycles", "unexpected 'c' in '{cs} cycles': events are separated by ','");
	list_bad("uncore_imc_0/event=4,cs", "missing '/' in 'uncore_imc_0/event=4,cs': a PMU event "
					    "is PMU/TERMS/");
	list_bad("{uncore_imc_0/event=4}",
		 "missing '/' in '{uncore_imc_0/event=4}': a PMU event is "
		 "PMU/TERMS/");
	list_bad("cs,nosuch/x/", "unknown PMU 'nosuch' in 'nosuch/x/': see perf-prof list");
	CHECK(nr == 0 && (evs == NULL || 1), "list left events");
	list_reset();

	/* Errors fit in a small buffer: truncated, still terminated. */
	{
		char small[8];

		memset(small, 'x', sizeof(small));
		CHECK_INT(evname__parse_list("foo", &evs, &nr, small, sizeof(small)), -EINVAL);
		CHECK_BUF(small, "unknown");
		CHECK_INT(evname__parse_list("bar", &evs, &nr, NULL, 0), -EINVAL);
		list_reset();
	}
}

/* the named Intel events on a hybrid host's core PMU (cpu_core) */
static void test_on_pmu(void)
{
	const char *l = "{cpu/event=0x2e,umask=0x4f,name=LLC-references/,"
			"cpu/event=0x2e,umask=0x41,name=LLC-misses/}";
	char buf[256], tiny[24];

	CHECK_STR(evname__on_pmu(l, "cpu_core", buf, sizeof(buf)),
		  "{cpu_core/event=0x2e,umask=0x4f,name=LLC-references/,"
		  "cpu_core/event=0x2e,umask=0x41,name=LLC-misses/}");
	CHECK(evname__on_pmu(l, "cpu", buf, sizeof(buf)) == l, "cpu: the list itself");
	CHECK(evname__on_pmu(l, NULL, buf, sizeof(buf)) == l, "no PMU: the list itself");
	CHECK_STR(evname__on_pmu("cpu/event=0xf4,umask=0x10,name=split-lock/", "cpu_core", buf,
				 sizeof(buf)),
		  "cpu_core/event=0xf4,umask=0x10,name=split-lock/");
	/* only where an event starts: not amd_l3's, not a name ending in cpu */
	CHECK_STR(evname__on_pmu("{amd_l3/event=0x04/,mycpu/x/}", "cpu_core", buf, sizeof(buf)),
		  "{amd_l3/event=0x04/,mycpu/x/}");
	CHECK(evname__on_pmu(l, "cpu_core", tiny, sizeof(tiny)) == NULL, "too small: NULL");
}

int main(void)
{
	char made[PATH_MAX];

	test_generic();
	test_cache();
	test_raw();
	test_mods();
	test_tracepoint();
	test_on_pmu();
	make_fake_sysfs();
	snprintf(made, sizeof(made), "%s", tmp_root);
	test_pmu_fake();
	test_list();
	fake_sysfs__remove();
	test_pmu_real();
	evname__clear(&ev);
	CHECK(made[0] && access(made, F_OK) != 0, "fake sysfs left behind");
	return ut_done("test_evname");
}
