// SPDX-License-Identifier: GPL-2.0
/*
 * The C operators of the expression language: pointer casts and
 * dereferences (inside the record or a string only: anything else a
 * counted fault), sizeof, ++/--, assignment and the comma, comments;
 * printf() byte for byte, system() once per evaluation, exit_reason_str(),
 * globs with [^...] and [!...].
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/kvm_reasons.h"
#include "engine/session.h"
#include "expr/expr.h"
#include "expr_formats.h"
#include "expr_run.h"
#include "ut.h"

static void test_pointers(void)
{
	int S = EV_SCHED_SWITCH, R = EV_SYS_ENTER;
	static unsigned char rraw[64];
	struct sample rs = { .raw = rraw, .raw_size = sizeof(rraw) };
	const u64 args[6] = { 3, 0x100000002ULL, 100, 0, 0, ~0ULL };

	ctx.smp = &sw_smp;
	CHECK_I(S, "*(unsigned int *)&prev_pid == prev_pid", 1);
	CHECK_I(S, "*(unsigned int *)&common_pid", 1234);
	CHECK_I(S, "*(u8 *)&prev_pid", 1234 & 0xff);
	CHECK_I(S, "*((u8 *)&prev_pid + 1)", 1234 >> 8);
	CHECK_I(S, "*(&prev_pid + 1)", 120); /* prev_prio follows */
	CHECK_I(S, "&next_pid - &prev_pid", 8);
	CHECK_I(S, "*&prev_pid", 1234);
	CHECK_I(S, "*prev_comm", 'b');
	CHECK_I(S, "(&prev_comm)[1]", 'a');
	CHECK_I(S, "((char *)prev_comm)[3]", 'h');
	CHECK_I(S, "*(s8 *)&prev_state - 3", -1);
	CHECK_I(S, "\"hi\"[1]", 'i');
	CHECK_I(S, "\"hi\"[2]", 0); /* its NUL */
	CHECK_I(S, "*((char *)syscall_name(0) + 1)", 'e');
	CHECK_I(S, "p = &prev_pid, *p + 1", 1235);
	CHECK_I(S, "p = &prev_pid, p++, *p", 120);
	CHECK_I(S, "sizeof(*(long **)0)", 8);

	/* outside the record or the string: 0, counted, no crash */
	CHECK_IF(S, "*(u64 *)0", 0, 1);
	CHECK_IF(S, "*(int *)(&prev_pid + 100)", 0, 1);
	CHECK_IF(S, "*(u64 *)&next_prio", 0, 1); /* 4 of its 8 bytes past the end */
	CHECK_IF(S, "*(&prev_pid - 7)", 0, 1);	 /* before the record */
	CHECK_IF(S, "\"hi\"[3]", 0, 1);
	CHECK_IF(S, "\"hi\"[-1]", 0, 1);
	CHECK_IF(S, "*(char *)(long)&prev_pid + *(char *)123456", (signed char)0xd2, 1);
	CHECK_IF(S, "**(u64 **)&prev_state", 0, 1); /* 2 is no pointer here */

	memset(rraw, 0, sizeof(rraw));
	memcpy(rraw + 16, args, sizeof(args));
	ctx.smp = &rs;
	CHECK_I(R, "((u32 *)&args)[2]", 2);
	CHECK_I(R, "((u32 *)&args)[3]", 1);
	CHECK_I(R, "*(&args[1] + 1)", 100);
	CHECK_I(R, "*((u64 *)&args + 5) == args[5]", 1);
	CHECK_IF(R, "((u64 *)&args)[6]", 0, 1);
	ctx.smp = NULL;
	CHECK_IF(S, "*(u32 *)&prev_pid", 0, 2); /* no record: no address, no read */
}

static void test_types(void)
{
	int S = EV_SCHED_SWITCH;

	ctx.smp = &sw_smp;
	CHECK_I(S, "sizeof(char)", 1);
	CHECK_I(S, "sizeof(short)", 2);
	CHECK_I(S, "sizeof(int)", 4);
	CHECK_I(S, "sizeof(long)", 8);
	CHECK_I(S, "sizeof(unsigned)", 4);
	CHECK_I(S, "sizeof(unsigned char)", 1);
	CHECK_I(S, "sizeof(long long)", 8);
	CHECK_I(S, "sizeof(char *)", 8);
	CHECK_I(S, "sizeof(long **) == 8", 1);
	CHECK_I(S, "sizeof(u16)", 2);
	CHECK_I(S, "sizeof prev_pid", 4);
	CHECK_I(S, "sizeof(prev_comm)", 16);
	CHECK_I(S, "sizeof(prev_state) * 2", 16);
	CHECK_I(S, "(unsigned long)common_pid << 32", 1234ULL << 32);
	CHECK_I(S, "(unsigned int)-1", 0xffffffffULL);
	CHECK_I(S, "(unsigned long)-1 >> 60", 15);
	CHECK_I(S, "(long)-1 >> 60", -1);
	CHECK_I(S, "(unsigned short)prev_pid << 20 >> 20", 1234);
	CHECK_I(S, "(unsigned char)(prev_pid + 1)", 1235 & 0xff);
}

/* Evaluate @text @n times; the values, ' '-separated, in @buf. */
static const char *series(int ev, const char *text, int n, char *buf, size_t len)
{
	char err[256];
	struct expr *e = expr__compile(text, &evs[ev], err, sizeof(err));
	struct expr_value v;
	size_t o = 0;

	if (!e) {
		snprintf(buf, len, "%s", err);
		return buf;
	}
	buf[0] = 0;
	for (int i = 0; i < n; i++) {
		expr__eval(e, &ctx, &v);
		o += snprintf(buf + o, len - o, "%s%lld", i ? " " : "", (long long)v.u);
	}
	expr__free(e);
	return buf;
}

static void test_side_effects(void)
{
	int S = EV_SCHED_SWITCH;
	char b[256];

	ctx.smp = &sw_smp;
	/* a variable of the expression keeps its value from one event to the next */
	CHECK_STR(series(S, "n++", 3, b, sizeof(b)), "0 1 2");
	CHECK_STR(series(S, "++n", 3, b, sizeof(b)), "1 2 3");
	CHECK_STR(series(S, "n--", 3, b, sizeof(b)), "0 -1 -2");
	CHECK_STR(series(S, "--n", 3, b, sizeof(b)), "-1 -2 -3");
	CHECK_STR(series(S, "total = total + prev_prio", 3, b, sizeof(b)), "120 240 360");
	/* a field assigned: its new value for the rest of this evaluation only */
	CHECK_STR(series(S, "prev_pid++, prev_pid", 3, b, sizeof(b)), "1235 1235 1235");
	CHECK_STR(series(S, "prev_pid + (prev_pid = 1)", 2, b, sizeof(b)), "1235 1235");
	CHECK_I(S, "prev_pid = 7, prev_pid + 1", 8);
	CHECK_I(S, "common_flags = 0x1ff, common_flags", 0xff); /* as its u8 holds it */
	CHECK_I(S, "prev_pid = 0x100000001, prev_pid", 1);
	CHECK_I(S, "_cpu = 9, _cpu * 2", 18);
	CHECK_I(S, "x = 5, y = x++, y * 10 + x", 56);
	CHECK_I(S, "x = 5, y = --x, y * 10 + x", 44);
	CHECK_I(S, "a = b = 3, a + b", 6);
	CHECK_I(S, "(x = 2) + 1", 3);
	CHECK_I(S, "prev_pid++", 1234);
	CHECK_I(S, "++prev_pid", 1235);
	/* the comma */
	CHECK_I(S, "1, 2, 3", 3);
	CHECK_I(S, "(prev_pid, next_prio)", 120);
	CHECK_S(S, "1, prev_comm", "bash");
	CHECK_I(S, "\"str\", prev_comm, n++, 4", 4); /* strings on the left (fuzz) */
	CHECK_I(S, "prev_pid > 1 ? 1, 2 : 3", 2);
	/* comments */
	CHECK_I(S, "prev_pid # a comment", 1234);
	CHECK_I(S, "prev_pid // a comment", 1234);
	CHECK_I(S, "prev_pid // a comment\n + 1", 1235);
	CHECK_I(S, "# first a comment\nprev_pid", 1234);
	CHECK_S(S, "\"#not // a comment\" ", "#not // a comment");
}

/* printf()'s text and value, with ctx.out a memory stream. */
static void check_printf(const char *text, const char *want, int line)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct expr *e = expr__compile(text, &evs[EV_SCHED_SWITCH], err, sizeof(err));
	struct expr_value v = { 0 };

	if (!e)
		printf("# %s\n", err);
	ctx.out = f;
	if (e)
		expr__eval(e, &ctx, &v);
	ctx.out = NULL;
	fclose(f);
	CHECK(e && !strcmp(buf, want) && v.u == strlen(want),
	      "line %d: %s printed '%s' (%llu), want '%s'", line, text, buf,
	      (unsigned long long)v.u, want);
	free(buf);
	expr__free(e);
}

static void test_printf(void)
{
	ctx.smp = &sw_smp;
	check_printf("printf(\"%d|%5s|%-3d|%x|%c|%%|%lu\\n\", prev_pid, prev_comm, 7, 255, 'A', "
		     "(unsigned long)-1)",
		     "1234| bash|7  |ff|A|%|18446744073709551615\n", __LINE__);
	check_printf("printf(\"%hhd %hd %d %ld\", 0x1ff, 0x1ffff, 0x1ffffffff, -1)", "-1 -1 -1 -1",
		     __LINE__);
	check_printf("printf(\"%u %hhu %o %#x %08X\", -1, 257, 8, 255, 0xbeef)",
		     "4294967295 1 10 0xff 0000BEEF", __LINE__);
	check_printf("printf(\"%s=%.2s|%-6s|\", \"pid\", prev_comm, next_comm)",
		     "pid=ba|swapper/1|", __LINE__);
	check_printf("printf(\"%s %s\", &prev_comm, syscall_name(0))", "bash read", __LINE__);
	check_printf("printf(\"no values\")", "no values", __LINE__);
	check_printf("printf(\"%d %d %d %d %d %d\", 1, 2, 3, 4, 5, 6)", "1 2 3 4 5 6", __LINE__);
	check_printf("printf(\"%5.3d|%+d|% d\", 7, 7, 7)", "  007|+7| 7", __LINE__);
	check_printf("printf(\"%s\", (char *)0)", "", __LINE__); /* a fault, nothing printed */
	check_printf("printf(\"\")", "", __LINE__);
	check_printf("printf(\"%d\", n++) + printf(\"%d\", n++)", "01", __LINE__);
}

static void test_system(void)
{
	char path[] = "/tmp/test_expr_system_XXXXXX", text[256], line[64], err[256];
	struct expr_value v;
	struct expr *e;
	int fd = mkstemp(path), lines = 0;
	FILE *f;

	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	close(fd);
	ctx.smp = &sw_smp;
	snprintf(text, sizeof(text), "system(\"echo %%d %%s >> %s\", prev_pid, prev_comm)", path);
	e = expr__compile(text, &evs[EV_SCHED_SWITCH], err, sizeof(err));
	CHECK(e, "%s", err);
	for (int i = 0; e && i < 3; i++) {
		expr__eval(e, &ctx, &v);
		CHECK(v.u == 0, "status %llu", (unsigned long long)v.u);
	}
	expr__free(e);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		lines++;
		CHECK(!strcmp(line, "1234 bash\n"), "%s", line);
	}
	CHECK_INT(lines, 3); /* once per evaluation */
	if (f)
		fclose(f);
	unlink(path);
	/* its status as C's system() gives it */
	CHECK_I(EV_SCHED_SWITCH, "system(\"exit 3\")", 3 << 8);
	CHECK_I(EV_SCHED_SWITCH, "system(\"true\") == 0", 1);
	/* a short circuit runs nothing */
	CHECK_I(EV_SCHED_SWITCH, "0 && system(\"exit 1\")", 0);
}

static void test_functions(void)
{
	int S = EV_SCHED_SWITCH;
	const struct kvm_reasons *kr = kvm_reasons__host();

	ctx.smp = &sw_smp;
	CHECK_I(S, "prev_comm ~ \"[^x]ash\"", 1);
	CHECK_I(S, "prev_comm ~ \"[^b]ash\"", 0);
	CHECK_I(S, "prev_comm ~ \"[!b]ash\"", 0);
	CHECK_I(S, "prev_comm ~ \"[!a-c]ash\"", 0);
	CHECK_I(S, "next_comm ~ \"*[^0-9]/[0-9]\"", 1);
	CHECK_I(S, "strncmp(prev_comm, \"bad\", 2)", 0);
	CHECK_I(S, "strncmp(prev_comm, \"bad\", 3) > 0", 1);
	CHECK_I(S, "ntohl(0x01020304)", 0x04030201);
	CHECK_I(S, "ntohs(0x0102)", 0x0201);
	CHECK_S(S, "syscall_name(0)", "read");
	CHECK_S(S, "exit_reason_str(1, 0x7fff0000 | 99)", "VMX_0x63");
	CHECK_S(S, "exit_reason_str(3, 1)", "REASON_0x1");
	if (kvm_reasons__name(kr, KVM_ISA_VMX, 12)) {
		/* the names kvm-exit prints, from this host's kvm:kvm_exit */
		CHECK_S(S, "exit_reason_str(1, 12)", "HLT");
		CHECK_S(S, "exit_reason_str(1, 48)", "EPT_VIOLATION");
		CHECK_S(S, "exit_reason_str(2, 0x78)", "hlt");
		CHECK_I(S, "exit_reason_str(1, 30) ~ \"IO_*\"", 1);
	} else {
		CHECK_S(S, "exit_reason_str(1, 12)", "VMX_0xc");
	}
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();

	CHECK(tep && expr_formats__load(tep, evs) == 0, "formats");
	if (ut_fail)
		return ut_done("test_expr_c");
	build_switch();
	test_pointers();
	test_types();
	test_side_effects();
	test_printf();
	test_system();
	test_functions();
	tep_free(tep);
	return ut_done("test_expr_c");
}
