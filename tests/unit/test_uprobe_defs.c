// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_events lines as the kernel prints them, read back (usdt del and
 * list find their events by them), and a USDT operand as uprobe_events
 * fetches it (usdt add's arguments, -e usdt:'s tracefs events).
 */
#include <asm/perf_regs.h>
#include <errno.h>
#include <string.h>

#include "engine/probe.h"
#include "engine/uprobe_defs.h"
#include "ut.h"

static void parse_ok(void)
{
	struct uprobe_def d;

	CHECK_INT(uprobe_def__parse("p:ppwork/tick /w/probe_calls:0x0000000000001200 "
				    "arg1=%r14:s64 arg2=%ax:s64\n",
				    &d),
		  0);
	CHECK_STR(d.group, "ppwork");
	CHECK_STR(d.event, "tick");
	CHECK_STR(d.path, "/w/probe_calls");
	CHECK_INT(d.offset, 0x1200);
	CHECK_INT(d.ref_ctr, 0);
	CHECK(!d.ret, "a probe, not a return");
	CHECK_STR(d.args, " arg1=%r14:s64 arg2=%ax:s64");
	uprobe_def__clear(&d);

	/* a semaphore, no arguments, a path with ':' in it */
	CHECK_INT(uprobe_def__parse("p:ppwork/sematick /a:b/x:0x000000000000138c(0x3050)", &d), 0);
	CHECK_STR(d.path, "/a:b/x");
	CHECK_INT(d.offset, 0x138c);
	CHECK_INT(d.ref_ctr, 0x3050);
	CHECK_STR(d.args, "");
	uprobe_def__clear(&d);

	CHECK_INT(uprobe_def__parse("r:perf_prof_12/pp_add_0 /x:0x10 retval=$retval:u64", &d), 0);
	CHECK(d.ret, "a return probe");
	CHECK_STR(d.group, "perf_prof_12");
	uprobe_def__clear(&d);
	uprobe_def__clear(NULL);
}

static void parse_bad(void)
{
	static const char *const bad[] = {
		"",
		"q:g/e /x:0x10",
		"p:g/e",
		"p:ge /x:0x10",
		"p:/e /x:0x10",
		"p:g/ /x:0x10",
		"p:g/e /x",
		"p:g/e :0x10",
		"p:g/e /x:10",
		"p:g/e /x:0x",
		"p:g/e /x:0x10(0x3050",
		"p:g/e /x:0x10(3050)",
		"p:g/e /x:0x10zz",
		"p:g/e /x:0xffffffffffffffffff",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct uprobe_def d;

		CHECK(uprobe_def__parse(bad[i], &d) == -EINVAL, "'%s' refused", bad[i]);
	}
}

static void fetch(void)
{
	struct probe_arg a = { .kind = PROBE_ARG_REG,
			       .size = 4,
			       .is_signed = true,
			       .reg = PERF_REG_X86_DI,
			       .index = -1 };
	char b[64], *buf = b;

	CHECK_INT(probe_arg__fetch(&a, buf, sizeof(b)), 0);
	CHECK_STR(buf, "%di:s32");
	a = (struct probe_arg){ .kind = PROBE_ARG_MEM,
				.size = 8,
				.is_signed = true,
				.reg = PERF_REG_X86_BP,
				.index = -1,
				.value = -16 };
	CHECK_INT(probe_arg__fetch(&a, buf, sizeof(b)), 0);
	CHECK_STR(buf, "-16(%bp):s64");
	a.value = 8;
	CHECK_INT(probe_arg__fetch(&a, buf, sizeof(b)), 0);
	CHECK_STR(buf, "+8(%bp):s64");
	a = (struct probe_arg){ .kind = PROBE_ARG_IMM,
				.size = 4,
				.is_signed = false,
				.reg = -1,
				.index = -1,
				.value = 5 };
	CHECK_INT(probe_arg__fetch(&a, buf, sizeof(b)), 0);
	CHECK_STR(buf, "\\5:u32");
	a = (struct probe_arg){ .kind = PROBE_ARG_MEM,
				.size = 2,
				.reg = -1,
				.index = -1,
				.file_rel = true,
				.value = 0x4010 };
	CHECK_INT(probe_arg__fetch(&a, buf, sizeof(b)), 0);
	CHECK_STR(buf, "@+0x4010:u16");
	/* an index register: the kernel has no such fetch */
	a = (struct probe_arg){ .kind = PROBE_ARG_MEM,
				.size = 4,
				.reg = PERF_REG_X86_AX,
				.index = PERF_REG_X86_BX,
				.scale = 4,
				.value = 8 };
	CHECK_INT(probe_arg__fetch(&a, buf, sizeof(b)), -EOPNOTSUPP);
	a = (struct probe_arg){
		.kind = PROBE_ARG_REG, .size = 1, .reg = PERF_REG_X86_AX, .index = -1
	};
	CHECK_INT(probe_arg__fetch(&a, buf, 4), -E2BIG);
}

int main(void)
{
	parse_ok();
	parse_bad();
	fetch();
	return ut_done("test_uprobe_defs");
}
