// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic probes without a kernel: the -e syntax, a kprobe's registers
 * (PERF_SAMPLE_REGS_INTR, which this host cannot produce: no kprobes)
 * decoded from a synthesized record, and the argument fields and printing
 * of each kind of probe on synthesized samples.
 */
#include <asm/perf_regs.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/evspec.h"
#include "engine/probe.h"
#include "engine/session.h"
#include "ut.h"

static struct ev_spec *parse1(const char *s, int want_nr)
{
	struct ev_spec *sp = NULL;
	struct ev_spec_err err;
	int nr = 0, ret = evspec__parse(s, &sp, &nr, &err);

	CHECK(ret == 0 && nr == want_nr, "parse '%s': %d (%s at %d)", s, ret, err.msg, err.pos);
	return ret ? NULL : sp;
}

static void bad(const char *s, const char *word)
{
	struct ev_spec *sp = NULL;
	struct ev_spec_err err;
	int nr = 0, ret = evspec__parse(s, &sp, &nr, &err);

	CHECK(ret == -EINVAL && strstr(err.msg, word), "'%s': %d '%s' lacks '%s'", s, ret, err.msg,
	      word);
	evspec__free(sp, nr);
}

static void bad_attr(const char *s, const char *word)
{
	static const char *const none[] = { NULL };
	struct ev_spec *sp = parse1(s, 1);
	struct ev_spec_err err;

	if (!sp)
		return;
	CHECK(evspec__check_attrs(sp, none, &err) == -EINVAL && strstr(err.msg, word),
	      "'%s': attrs '%s' lacks '%s'", s, err.msg, word);
	evspec__free(sp, 1);
}

static void test_syntax(void)
{
	static const char *const none[] = { NULL };
	struct ev_spec_err err;
	struct ev_spec *sp;

	sp = parse1("kprobe:do_sys_openat2+0x10", 1);
	if (sp) {
		CHECK_INT(sp->probe, EV_KPROBE);
		CHECK_STR(sp->name, "do_sys_openat2");
		CHECK_INT(sp->offset, 16);
		CHECK(!sp->file && !sp->filter, "no file, no filter");
		evspec__free(sp, 1);
	}
	sp = parse1("uretprobe:malloc@\"/lib/x86_64-linux-gnu/libc.so.6\"/retval>0/retval=u32/", 1);
	if (sp) {
		CHECK_INT(sp->probe, EV_URETPROBE);
		CHECK_STR(sp->file, "/lib/x86_64-linux-gnu/libc.so.6");
		CHECK_STR(sp->filter, "retval>0");
		CHECK_STR(evspec__attr(sp, "retval"), "u32");
		CHECK(!evspec__check_attrs(sp, none, &err),
		      "a typed fetch needs no profiler's leave");
		evspec__free(sp, 1);
	}
	sp = parse1("usdt:ppwork:tick@libfoo.so//alias=t/", 1);
	if (sp) {
		CHECK_INT(sp->probe, EV_USDT);
		CHECK_STR(sp->provider, "ppwork");
		CHECK_STR(sp->name, "tick");
		CHECK_STR(sp->file, "libfoo.so");
		CHECK_STR(sp->alias, "t");
		evspec__free(sp, 1);
	}
	sp = parse1("uprobe:f@'/a/b c,d',sched:sched_switch", 2);
	if (sp) {
		CHECK_STR(sp[0].file, "/a/b c,d");
		CHECK_INT(sp[1].probe, EV_TP);
		CHECK_STR(sp[1].name, "sched_switch");
		evspec__free(sp, 2);
	}
	sp = parse1("uprobe:0x1139", 1);
	if (sp) {
		CHECK_STR(sp->name, "0x1139");
		CHECK(!sp->file, "no file: the target's executable");
		evspec__free(sp, 1);
	}
	sp = parse1("uprobe:foo.isra.0+4@bin", 1);
	if (sp) {
		CHECK_STR(sp->name, "foo.isra.0");
		CHECK_INT(sp->offset, 4);
		evspec__free(sp, 1);
	}
	CHECK_STR(ev_probe__name(EV_URETPROBE), "uretprobe");
	bad("kretprobe:f+4", "no +OFFSET");
	bad("kprobe:f@\"x\"", "no @FILE");
	bad("usdt:prov", "missing ':'");
	bad("uprobe:f@\"unterminated", "unterminated");
	bad("uprobe:f+", "byte offset");
	bad("uprobe:f+-3", "byte offset");
	bad("uprobe:f@", "empty file");
	bad("uprobe:", "empty function");
	bad("uprobe:f#", "invalid character");
	bad_attr("uprobe:f//arg1=string9/", "u8..u64");
	bad_attr("uprobe:f//retval=u8/", "return probe");
	bad_attr("uretprobe:f//arg2=u8/", "no arguments");
	bad_attr("usdt:p:n//arg1=u8/", "note");
	bad_attr("uprobe:f//arg7=u8/", "unknown attribute");
}

/* A sample record: IDENTIFIER TID TIME CPU [RAW] [REGS_USER] [REGS_INTR], built in @buf. */
static size_t record(u64 *buf, u64 st, const u64 *uregs, int nu, const u64 *iregs, int ni,
		     const void *raw, u32 raw_size)
{
	struct perf_event_header *h = (void *)buf;
	u64 *p = buf + 1;

	*p++ = 42;	       /* id */
	*p++ = 7ULL << 32 | 7; /* pid, tid */
	*p++ = 1000;	       /* time */
	*p++ = 1;	       /* cpu */
	if (st & PERF_SAMPLE_RAW) {
		u32 *q = (u32 *)p;
		size_t padded = (4 + raw_size + 7) / 8 * 8;

		q[0] = raw_size;
		memcpy(q + 1, raw, raw_size);
		p += padded / 8;
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		*p++ = PERF_SAMPLE_REGS_ABI_64;
		for (int i = 0; i < nu; i++)
			*p++ = uregs[i];
	}
	if (st & PERF_SAMPLE_REGS_INTR) {
		*p++ = PERF_SAMPLE_REGS_ABI_64;
		for (int i = 0; i < ni; i++)
			*p++ = iregs[i];
	}
	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = (uint16_t)((char *)p - (char *)buf);
	return h->size;
}

#define BASE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

static u64 field(const struct evsel *ev, const struct sample *smp, const char *name, int *ret)
{
	struct field f;
	u64 v = 0;

	*ret = probe__field(ev, name, &f, NULL);
	if (!*ret)
		*ret = field__u64(&f, smp, &v);
	return v;
}

static void test_kprobe_regs(void)
{
	/* di, si, dx, cx, r8, r9, ip: the mask's bit order is the regs' order */
	u64 mask = 1ULL << PERF_REG_X86_CX | 1ULL << PERF_REG_X86_DX | 1ULL << PERF_REG_X86_SI |
		   1ULL << PERF_REG_X86_DI | 1ULL << PERF_REG_X86_IP | 1ULL << PERF_REG_X86_R8 |
		   1ULL << PERF_REG_X86_R9;
	u64 iregs[] = { 4, 3, 2, 1, 0xffffffff81000000ULL, 5, 6 }; /* cx dx si di ip r8 r9 */
	struct probe_site site = { .symbol = "do_sys_openat2", .nr_args = -1 };
	struct evsel ev = { .name = "kprobe:do_sys_openat2" };
	u64 buf[64];
	struct sample smp;
	int ret;

	record(buf, BASE | PERF_SAMPLE_REGS_INTR, NULL, 0, iregs, 7, NULL, 0);
	CHECK(!sample__parse_intr((void *)buf, BASE | PERF_SAMPLE_REGS_INTR, 0, 0, mask, &smp),
	      "a REGS_INTR record parses");
	CHECK_INT(smp.nr_intr, 7);
	CHECK_INT(smp.intr_mask, mask);
	CHECK(smp.intr_regs && smp.intr_regs[3] == 1, "the registers point into the record");
	ev.probe = probe__new(EV_KPROBE, &site);
	CHECK_INT(field(&ev, &smp, "arg1", &ret), 1);
	CHECK_INT(ret, 0);
	CHECK_INT(field(&ev, &smp, "arg4", &ret), 4);
	CHECK_INT(field(&ev, &smp, "arg6", &ret), 6);
	field(&ev, &smp, "retval", &ret);
	CHECK(ret, "no retval on an entry probe");
	field(&ev, &smp, "arg7", &ret);
	CHECK(ret, "no arg7");
	/* a record without the register: a failed read, not a wrong value */
	smp.intr_mask &= ~(1ULL << PERF_REG_X86_R9);
	field(&ev, &smp, "arg6", &ret);
	CHECK(ret, "a register the record lacks is not read");
	probe__free(&ev);
}

static void test_uretprobe(void)
{
	u64 mask = 1ULL << PERF_REG_X86_AX | 1ULL << PERF_REG_X86_IP;
	u64 uregs[] = { 0x3e8, 0x401136 };
	u64 raw[3] = { 0, 0x401120, 0x4011bf }; /* common header, func, return address */
	struct probe_site site = { .path = "/bin/x", .symbol = "pp_add", .nr_args = -1 };
	struct evsel ev = { .name = "uretprobe:pp_add" };
	u64 st = BASE | PERF_SAMPLE_RAW | PERF_SAMPLE_REGS_USER, buf[64];
	struct sample smp;
	char *out = NULL;
	size_t len = 0;
	FILE *fp;
	int ret;

	record(buf, st, uregs, 2, NULL, 0, raw, sizeof(raw));
	CHECK(!sample__parse((void *)buf, st, 0, mask, &smp), "a uretprobe record parses");
	ev.probe = probe__new(EV_URETPROBE, &site);
	CHECK_INT(field(&ev, &smp, "retval", &ret), 0x3e8);
	field(&ev, &smp, "arg1", &ret);
	CHECK(ret, "no arguments on a return probe");
	fp = open_memstream(&out, &len);
	probe__print(&ev, &smp, fp);
	fclose(fp);
	CHECK_STR(out, "(0x401120 <- 0x4011bf) retval=0x3e8");
	free(out);
	probe__free(&ev);
}

static void test_usdt(void)
{
	u64 mask = 1ULL << PERF_REG_X86_DI | 1ULL << PERF_REG_X86_IP | 1ULL << PERF_REG_X86_R14;
	u64 uregs[] = { 0xffffffffULL, 0x401000, 0x123456789ULL }; /* di ip r14 */
	u64 raw[2] = { 0, 0x401000 };
	struct probe_site site = { .path = "/bin/x", .symbol = "ppwork:tick", .nr_args = 4 };
	struct evsel ev = { .name = "usdt:ppwork:tick" };
	u64 st = BASE | PERF_SAMPLE_RAW | PERF_SAMPLE_REGS_USER, buf[64];
	struct sample smp;
	char *out = NULL;
	size_t len = 0;
	FILE *fp;
	int ret;

	/* -4@%edi, 8@%r14, -4@$-5, 8@-16(%rbp) */
	site.args[0] =
		(struct probe_arg){ PROBE_ARG_REG, 4, true, PERF_REG_X86_DI, -1, 0, false, 0 };
	site.args[1] =
		(struct probe_arg){ PROBE_ARG_REG, 8, false, PERF_REG_X86_R14, -1, 0, false, 0 };
	site.args[2] = (struct probe_arg){ PROBE_ARG_IMM, 4, true, -1, -1, 0, false, -5 };
	site.args[3] =
		(struct probe_arg){ PROBE_ARG_MEM, 8, false, PERF_REG_X86_BP, -1, 0, false, -16 };
	record(buf, st, uregs, 3, NULL, 0, raw, sizeof(raw));
	CHECK(!sample__parse((void *)buf, st, 0, mask, &smp), "a usdt record parses");
	ev.probe = probe__new(EV_USDT, &site);
	CHECK_INT((s64)field(&ev, &smp, "arg1", &ret), -1);
	CHECK_INT(field(&ev, &smp, "arg2", &ret), 0x123456789LL);
	CHECK_INT((s64)field(&ev, &smp, "arg3", &ret), -5);
	field(&ev, &smp, "arg4", &ret);
	CHECK(ret, "a memory operand is not in the registers (a tracefs event fetches it)");
	field(&ev, &smp, "arg5", &ret);
	CHECK(ret, "no fifth operand");
	fp = open_memstream(&out, &len);
	probe__print(&ev, &smp, fp);
	fclose(fp);
	CHECK_STR(out, "(0x401000) arg1=-1 arg2=4886718345 arg3=-5");
	free(out);
	probe__free(&ev);
}

static void test_regs(void)
{
	CHECK_INT(probe__reg_by_name("di"), PERF_REG_X86_DI);
	CHECK_INT(probe__reg_by_name("r15"), PERF_REG_X86_R15);
	CHECK_INT(probe__reg_by_name("xmm0"), -1);
	CHECK_STR(probe__reg_name(PERF_REG_X86_BP), "bp");
	CHECK(probe__reg_name(99) == NULL, "no register 99");
}

int main(void)
{
	test_syntax();
	test_kprobe_regs();
	test_uretprobe();
	test_usdt();
	test_regs();
	return ut_done("test_probe");
}
