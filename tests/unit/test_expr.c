// SPDX-License-Identifier: GPL-2.0
/*
 * Expressions evaluated on synthesized records of this host's formats:
 * every operator and precedence level, widths and signedness, strings and
 * globs, arrays (fixed and __data_loc), functions, division by zero and
 * reads outside the record, user-space filters in the kernel's syntax.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/comm.h"
#include "engine/session.h"
#include "engine/session_int.h"
#include "expr/expr.h"
#include "expr_formats.h"
#include "expr_run.h"
#include "sym/ksyms.h"
#include "ut.h"

/* the sign the result prints with */
#define CHECK_SIGNED(ev, text, want)                                                         \
	do {                                                                                 \
		struct expr_value v_;                                                        \
		int f_;                                                                      \
		CHECK(run(ev, text, &v_, &f_) && v_.is_signed == (want), "%s signed", text); \
	} while (0)

static void test_operators(void)
{
	int S = EV_SCHED_SWITCH;

	ctx.smp = &sw_smp;
	/* each level against the next */
	CHECK_I(S, "1+2*3", 7);
	CHECK_I(S, "(1+2)*3", 9);
	CHECK_I(S, "10-4-3", 3);
	CHECK_I(S, "100/10/5", 2);
	CHECK_I(S, "17%5", 2);
	CHECK_I(S, "7*3%4", 1);
	CHECK_I(S, "-7/2", -3);
	CHECK_I(S, "-7%2", -1);
	CHECK_I(S, "2+3<<1", 10);
	CHECK_I(S, "1<<4|1", 17);
	CHECK_I(S, "1<<(4|1)", 32);
	CHECK_I(S, "256>>2+2", 16);
	CHECK_I(S, "1<<2<3", 0);
	CHECK_I(S, "5>3==1", 1);
	CHECK_I(S, "1==1<2", 1);
	CHECK_I(S, "3<=3", 1);
	CHECK_I(S, "3>=4", 0);
	CHECK_I(S, "3!=4", 1);
	CHECK_I(S, "6&3==3", 0); /* 6 & (3==3) */
	CHECK_I(S, "6&3^1", 3);
	CHECK_I(S, "6^3&1", 7);
	CHECK_I(S, "1|2^3", 1);
	CHECK_I(S, "4|1^1", 4);
	CHECK_I(S, "1|0&&0", 0);
	CHECK_I(S, "1||0&&0", 1);
	CHECK_I(S, "0&&1||1", 1);
	CHECK_I(S, "1<2&&3<4", 1);
	CHECK_I(S, "!0+1", 2);
	CHECK_I(S, "!5", 0);
	CHECK_I(S, "!!5", 1);
	CHECK_I(S, "~0", -1);
	CHECK_I(S, "-~0", 1);
	CHECK_I(S, "~~5", 5);
	CHECK_I(S, "- -3", 3);
	CHECK_I(S, "+4", 4);
	CHECK_I(S, "1?2:3", 2);
	CHECK_I(S, "0?2:1?4:5", 4);
	CHECK_I(S, "1?0?7:8:9", 8);
	CHECK_I(S, "0?1:2+3", 5);
	CHECK_I(S, "1||2?10:20", 10);
	CHECK_I(S, "((((((1+1))))))", 2);

	/* on fields */
	CHECK_I(S, "prev_pid*2+next_prio", 2588);
	CHECK_I(S, "prev_pid > next_pid", 1);
	CHECK_I(S, "prev_state==2 && prev_prio==120", 1);
	CHECK_I(S, "prev_state & 2 ? prev_pid : next_pid", 1234);
	CHECK_I(S, "common_pid - prev_pid", 0);
	CHECK_I(S, "prev_prio<<1 | 1", 241);
	CHECK_I(S, "(prev_pid % 1000) / 10", 23);
	CHECK_I(S, "_cpu", 1);
	CHECK_I(S, "_pid", 1234);
	CHECK_I(S, "_tid", 1235);
	CHECK_I(S, "_time / 1000", 123456);
	CHECK_I(S, "_period", 1);
	CHECK_I(S, "_cpu == 1 && _tid != _pid", 1);

	/* short circuits skip the faulting side */
	CHECK_I(S, "0 && prev_pid / next_pid", 0);
	CHECK_I(S, "1 || prev_pid % next_pid", 1);
	CHECK_I(S, "next_pid ? prev_pid / next_pid : 7", 7);
}

static void test_widths(void)
{
	int P = EV_KVM_PVCLOCK_UPDATE, O = EV_OOM_SCORE_ADJ_UPDATE, S = EV_SCHED_SWITCH;
	static unsigned char raw[40], oraw[32];
	struct sample smp = { .raw = raw, .raw_size = sizeof(raw) };
	struct sample osmp = { .raw = oraw, .raw_size = sizeof(oraw) };

	PUT(raw, 8, uint32_t, 7);	     /* vcpu_id */
	PUT(raw, 12, uint32_t, 0xffffffffu); /* version */
	PUT(raw, 16, uint64_t, ~0ULL);	     /* tsc_timestamp */
	PUT(raw, 24, uint64_t, 1ULL << 63);  /* system_time */
	PUT(raw, 32, uint32_t, 0x80000000u); /* tsc_to_system_mul */
	PUT(raw, 36, int8_t, -3);	     /* tsc_shift (__s8) */
	PUT(raw, 37, uint8_t, 0xff);	     /* flags (__u8) */
	ctx.smp = &smp;
	CHECK_I(P, "tsc_shift", -3);
	CHECK_SIGNED(P, "tsc_shift", true);
	CHECK_I(P, "tsc_shift < 0", 1);
	CHECK_I(P, "tsc_shift * 2", -6);
	CHECK_I(P, "(u8)tsc_shift", 253);
	CHECK_I(P, "flags", 255);
	CHECK_I(P, "(s8)flags", -1);
	CHECK_I(P, "(char)flags", -1);
	CHECK_I(P, "(unsigned char)tsc_shift", 253);
	CHECK_I(P, "version", 0xffffffffu);
	CHECK_I(P, "version + 1", 0x100000000ULL);
	CHECK_I(P, "(u32)(version + 1)", 0);
	CHECK_I(P, "(s32)version", -1);
	CHECK_I(P, "(int)tsc_to_system_mul", INT32_MIN);
	CHECK_I(P, "tsc_to_system_mul", 0x80000000u);
	CHECK_I(P, "tsc_timestamp", ~0ULL);
	CHECK_SIGNED(P, "tsc_timestamp", false);
	CHECK_SIGNED(P, "version", true); /* a u32 keeps its value as an s64 */
	CHECK_I(P, "tsc_timestamp + 1", 0);
	CHECK_I(P, "tsc_timestamp > 0", 1);
	CHECK_I(P, "tsc_timestamp / 2", INT64_MAX);
	CHECK_I(P, "tsc_timestamp >> 60", 15);
	CHECK_I(P, "(s64)tsc_timestamp < 0", 1);
	CHECK_I(P, "(s64)tsc_timestamp >> 60", -1);
	CHECK_I(P, "-1 < tsc_timestamp", 0); /* -1 becomes unsigned, as in C */
	CHECK_I(P, "-1 < (s64)tsc_timestamp + 1", 1);
	CHECK_I(P, "system_time * 2", 0);
	CHECK_I(P, "system_time - 1", INT64_MAX);
	CHECK_I(P, "(s16)vcpu_id", 7);
	CHECK_I(P, "(bool)vcpu_id + (bool)0", 1);

	PUT(oraw, 8, int32_t, 77);
	put(oraw, 12, "oom_victim", 11);
	PUT(oraw, 28, int16_t, -1000); /* short oom_score_adj */
	ctx.smp = &osmp;
	CHECK_I(O, "oom_score_adj", -1000);
	CHECK_I(O, "oom_score_adj * 2", -2000);
	CHECK_I(O, "(u16)oom_score_adj", 64536);
	CHECK_I(O, "oom_score_adj < -999", 1);

	ctx.smp = &sw_smp;
	CHECK_I(S, "(s16)0x18000", -32768);
	CHECK_I(S, "(u16)-1", 65535);
	CHECK_I(S, "(unsigned long)-1", ~0ULL);
	CHECK_SIGNED(S, "(unsigned long)-1", false);
	CHECK_SIGNED(S, "(unsigned long long)-1 + 1", false);
	CHECK_I(S, "(long)-1", -1);
	CHECK_I(S, "(unsigned char)300", 44);
	CHECK_I(S, "(signed char)200", -56);
	CHECK_I(S, "(short)65535", -1);
	CHECK_I(S, "(unsigned short)65537", 1);
	CHECK_I(S, "(unsigned)-1", 0xffffffffu);
	CHECK_I(S, "(unsigned int)-1", 0xffffffffu);
	CHECK_I(S, "(long long)(int)0x80000000", INT32_MIN);
	CHECK_I(S, "(uint8_t)0x1ff + (__s8)0x80 + (int16_t)1", 255 - 128 + 1);
	CHECK_I(S, "(size_t)-1 > 0", 1);
	CHECK_I(S, "(pid_t)0xffffffff", -1);

	/* literals */
	CHECK_I(S, "0x1F", 31);
	CHECK_I(S, "0X10", 16);
	CHECK_I(S, "017", 15);
	CHECK_I(S, "0", 0);
	CHECK_I(S, "'a'", 97);
	CHECK_I(S, "'\\n'", 10);
	CHECK_I(S, "'\\x41'", 65);
	CHECK_I(S, "'\\101'", 65);
	CHECK_I(S, "'\\0'", 0);
	CHECK_I(S, "'\\''", 39);
	CHECK_I(S, "'\\\\'", 92);
	CHECK_I(S, "9223372036854775807", INT64_MAX);
	CHECK_SIGNED(S, "9223372036854775807", true);
	CHECK_I(S, "18446744073709551615", ~0ULL);
	CHECK_SIGNED(S, "9223372036854775808", false);
	CHECK_SIGNED(S, "1U", false);
	CHECK_I(S, "10UL + 5l", 15);

	/* wrap-around and the edges of C's undefined cases */
	CHECK_I(S, "9223372036854775807 + 1", INT64_MIN);
	CHECK_I(S, "(-9223372036854775807 - 1) / -1", INT64_MIN);
	CHECK_I(S, "(-9223372036854775807 - 1) % -1", 0);
	CHECK_I(S, "1 << 63", INT64_MIN);
	CHECK_I(S, "1 << 64", 0);
	CHECK_I(S, "1 << -1", 0);
	CHECK_I(S, "-8 >> 1", -4);
	CHECK_I(S, "-1 >> 64", -1);
	CHECK_I(S, "18446744073709551615 >> 63", 1);
	CHECK_I(S, "-5 / 2U", (~0ULL - 4) / 2);
}

static void test_strings(void)
{
	int S = EV_SCHED_SWITCH, W = EV_SCHED_WAKEUP, X = EV_SCHED_PROCESS_EXEC;
	static unsigned char xraw[48], wraw[40];
	struct sample xs = { .raw = xraw, .raw_size = sizeof(xraw), .pid = 9, .tid = 9 };
	struct sample ws = { .raw = wraw, .raw_size = sizeof(wraw) };
	u32 loc = 20 | 12u << 16;

	ctx.smp = &sw_smp;
	CHECK_S(S, "prev_comm", "bash");
	CHECK_S(S, "next_comm", "swapper/1");
	CHECK_S(S, "prev_state == 2 ? prev_comm : next_comm", "bash");
	CHECK_S(S, "prev_state == 1 ? prev_comm : \"idle\"", "idle");
	CHECK_S(S, "\"a\\tb\\\"c\\x41\"", "a\tb\"cA");
	CHECK_I(S, "prev_comm == \"bash\"", 1);
	CHECK_I(S, "prev_comm == \"bas\"", 0);
	CHECK_I(S, "prev_comm == \"bash \"", 0);
	CHECK_I(S, "prev_comm != next_comm", 1);
	CHECK_I(S, "prev_comm == prev_comm", 1);
	CHECK_I(S, "\"\" == \"\"", 1);
	/* globs */
	CHECK_I(S, "prev_comm ~ \"ba*\"", 1);
	CHECK_I(S, "prev_comm ~ \"*sh\"", 1);
	CHECK_I(S, "prev_comm ~ \"*as*\"", 1);
	CHECK_I(S, "prev_comm ~ \"bas\"", 0);
	CHECK_I(S, "prev_comm ~ \"b?sh\"", 1);
	CHECK_I(S, "prev_comm ~ \"b??sh\"", 0);
	CHECK_I(S, "prev_comm ~ \"[a-c]ash\"", 1);
	CHECK_I(S, "prev_comm ~ \"[!b]ash\"", 0);
	CHECK_I(S, "prev_comm ~ \"[^x]ash\"", 1);
	CHECK_I(S, "prev_comm ~ \"*\"", 1);
	CHECK_I(S, "prev_comm ~ \"**h\"", 1);
	CHECK_I(S, "next_comm ~ \"swapper/[0-9]\"", 1);
	CHECK_I(S, "next_comm ~ \"swapper/[!0]\"", 1);
	CHECK_I(S, "next_comm ~ \"swapper/[!1]\"", 0);
	CHECK_I(S, "next_comm ~ \"s*/*1\"", 1);
	CHECK_I(S, "next_comm ~ \"s*/*2\"", 0);
	CHECK_I(S, "\"a*b\" ~ \"a\\\\*b\"", 1);
	CHECK_I(S, "\"axb\" ~ \"a\\\\*b\"", 0);
	CHECK_I(S, "\"[x\" ~ \"[x\"", 1);
	CHECK_I(S, "\"]\" ~ \"[]]\"", 1);
	CHECK_I(S, "\"\" ~ \"*\"", 1);
	CHECK_I(S, "\"\" ~ \"?\"", 0);
	CHECK_I(S, "prev_comm ~ (prev_pid > 0 ? \"b*\" : \"x*\")", 1);
	CHECK_I(S, "(prev_comm ~ \"b*\") + (next_comm ~ \"s*\")", 2);
	/* a char[] is also an array of its bytes */
	CHECK_I(S, "prev_comm[0]", 'b');
	CHECK_I(S, "prev_comm[4]", 0);
	CHECK_I(S, "next_comm[prev_prio - 112]", '1');

	/* strings of the wakeup (comm) and __data_loc ones (exec) */
	put(wraw, 8, "kworker/0:1H", 13);
	PUT(wraw, 24, int32_t, 42);
	PUT(wraw, 28, int32_t, 100);
	ctx.smp = &ws;
	CHECK_I(W, "comm ~ \"kworker/*\" && pid < prio", 1);
	CHECK_I(W, "comm ~ \"kworker/?:[0-9]H\"", 1);

	put(xraw, 8, &loc, 4);
	PUT(xraw, 12, int32_t, 9);
	PUT(xraw, 16, int32_t, 9);
	put(xraw, 20, "/usr/bin/ls", 12);
	ctx.smp = &xs;
	CHECK_S(X, "filename", "/usr/bin/ls");
	CHECK_I(X, "filename ~ \"*/ls\"", 1);
	CHECK_I(X, "filename == \"/usr/bin/ls\"", 1);
	CHECK_I(X, "filename[0]", '/');
	CHECK_I(X, "filename[11]", 0);
	CHECK_IF(X, "filename[12]", 0, 1); /* past its 12 bytes */
}

static void test_arrays(void)
{
	int R = EV_SYS_ENTER, K = EV_INET_SOCK_SET_STATE, D = EV_DMA_UNMAP_SG;
	static unsigned char rraw[64], kraw[72], draw[64];
	struct sample rs = { .raw = rraw, .raw_size = sizeof(rraw) };
	struct sample ks = { .raw = kraw, .raw_size = sizeof(kraw) };
	struct sample ds = { .raw = draw, .raw_size = sizeof(draw) };
	const u64 args[6] = { 3, 0x1000, 100, 0, 0, ~0ULL };
	const unsigned char sport[2] = { 0x1f, 0x90 }, saddr[4] = { 192, 168, 1, 10 };
	const u64 addrs[3] = { 0x1000, 0x2000, 0x3000 };
	u32 loc;

	PUT(rraw, 8, int64_t, 1); /* id: write */
	put(rraw, 16, args, sizeof(args));
	ctx.smp = &rs;
	CHECK_I(R, "args[0]", 3);
	CHECK_I(R, "args[2] * 2", 200);
	CHECK_I(R, "args[id]", 0x1000);
	CHECK_I(R, "args[id + 1]", 100);
	CHECK_I(R, "args[-1 + id]", 3);
	CHECK_I(R, "args[5]", ~0ULL);
	CHECK_SIGNED(R, "args[5]", false);
	CHECK_I(R, "args[5] > 0", 1);
	CHECK_I(R, "args[args[0] + 2]", ~0ULL);
	CHECK_IF(R, "args[id + 10]", 0, 1);
	CHECK_IF(R, "args[id - 2]", 0, 1); /* -1: far past the end */
	CHECK_I(R, "args[(u8)1]", 0x1000);

	put(kraw, 24, sport, 2);
	put(kraw, 32, saddr, 4);
	PUT(kraw, 28, uint16_t, 2);
	ctx.smp = &ks;
	CHECK_I(K, "saddr[0]", 192);
	CHECK_I(K, "saddr[0] << 24 | saddr[1] << 16 | saddr[2] << 8 | saddr[3]", 0xc0a8010a);
	CHECK_I(K, "ntohs(sport)", 8080);
	CHECK_I(K, "htons(ntohs(sport)) == sport", 1);
	CHECK_I(K, "family == 2 && ntohs(sport) == 8080", 1);
	CHECK_I(K, "ntohl(0x0a01a8c0)", 0xc0a8010a);
	CHECK_I(K, "htonl(0x01020304)", 0x04030201);
	CHECK_I(K, "ntohs(0x12345678)", 0x7856);

	loc = 24 | 7u << 16; /* device */
	put(draw, 8, &loc, 4);
	loc = 32 | 24u << 16; /* addrs: 3 u64 */
	put(draw, 12, &loc, 4);
	put(draw, 24, "dmadev", 7);
	put(draw, 32, addrs, sizeof(addrs));
	ctx.smp = &ds;
	CHECK_S(D, "device", "dmadev");
	CHECK_I(D, "device ~ \"dma*\"", 1);
	CHECK_I(D, "addrs[0]", 0x1000);
	CHECK_I(D, "addrs[2] - addrs[1]", 0x1000);
	CHECK_IF(D, "addrs[3]", 0, 1);
}

static void test_functions(void)
{
	int S = EV_SCHED_SWITCH, R = EV_SYS_ENTER, M = EV_KMALLOC;
	static unsigned char rraw[64], mraw[56];
	struct sample rs = { .raw = rraw, .raw_size = sizeof(rraw) };
	struct sample ms = { .raw = mraw, .raw_size = sizeof(mraw), .pid = (u32)getpid() };
	char path[] = "/tmp/test_expr_kallsyms_XXXXXX";
	struct ksyms *ksyms = NULL;
	struct engine_conf env = { 0 };
	struct session *sess;
	struct expr *e;
	char err[256];
	int fd;

	ctx.smp = &sw_smp;
	CHECK_S(S, "syscall_name(0)", "read");
	CHECK_S(S, "syscall_name(1)", "write");
	CHECK_S(S, "syscall_name(59)", "execve");
	CHECK_S(S, "syscall_name(100000)", "100000");
	CHECK_S(S, "syscall_name(-1)", "-1");
	CHECK_I(S, "strncmp(prev_comm, \"bas\", 3)", 0);
	CHECK_I(S, "strncmp(prev_comm, \"bat\", 3)", -1);
	CHECK_I(S, "strncmp(prev_comm, \"bas\", 4)", 1);
	CHECK_I(S, "strncmp(prev_comm, \"bash\", 100)", 0);
	CHECK_I(S, "strncmp(prev_comm, next_comm, 0)", 0);
	CHECK_I(S, "strncmp(prev_comm, next_comm, -5)", 0);
	CHECK_I(S, "strncmp(next_comm, \"swapper\", 7) == 0", 1);
	CHECK_S(S, "comm_get(prev_pid)", "<...>"); /* no session */

	PUT(rraw, 8, int64_t, 1);
	ctx.smp = &rs;
	CHECK_S(R, "syscall_name(id)", "write");
	CHECK_I(R, "syscall_name(id) == \"write\"", 1);
	CHECK_I(R, "syscall_name(id) ~ \"wr*\"", 1);

	/* ksymbol: none loaded, then a kallsyms of our own */
	PUT(mraw, 8, uint64_t, 0xffffffff81001010ULL);
	PUT(mraw, 24, uint64_t, 64);
	ctx.smp = &ms;
	CHECK_S(M, "ksymbol(call_site)", "[unknown]");
	fd = mkstemp(path);
	if (fd >= 0) {
		static const char ks[] = "ffffffff81000000 T _stext\n"
					 "ffffffff81001000 T kmalloc_caller\n"
					 "ffffffff81002000 T other_fn\n";

		CHECK(write(fd, ks, sizeof(ks) - 1) == (ssize_t)sizeof(ks) - 1, "write");
		close(fd);
		CHECK_INT(ksyms__load(path, &ksyms), 0);
		unlink(path);
	}
	ctx.ksyms = ksyms;
	CHECK_S(M, "ksymbol(call_site)", "kmalloc_caller");
	CHECK_S(M, "ksymbol(call_site + 0x1000)", "other_fn");
	CHECK_I(M, "ksymbol(call_site) ~ \"kmalloc_*\" && bytes_req >= 64", 1);
	ctx.ksyms = NULL;
	ksyms__delete(ksyms);
	e = expr__compile("ksymbol(call_site)", &evs[M], err, sizeof(err));
	CHECK(e && expr__uses(e) == EXPR_USES_KSYMS && expr__is_string(e), "uses ksyms");
	expr__free(e);
	e = expr__compile("comm_get(common_pid)", &evs[M], err, sizeof(err));
	CHECK(e && expr__uses(e) == EXPR_USES_COMM, "uses comm");
	expr__free(e);
	e = expr__compile("bytes_req", &evs[M], err, sizeof(err));
	CHECK(e && expr__uses(e) == 0 && !expr__is_string(e), "uses nothing");
	CHECK(e && !strcmp(expr__text(e), "bytes_req"), "text");
	expr__free(e);

	/* comm_get through a session's comm cache (this process, from /proc) */
	sess = session__new(&env, stdout);
	if (sess) {
		char want[32] = "";
		FILE *fp = fopen("/proc/self/comm", "r");

		if (fp) {
			if (fgets(want, sizeof(want), fp))
				want[strcspn(want, "\n")] = '\0';
			fclose(fp);
		}
		ctx.session = sess;
		PUT(mraw, 4, int32_t, getpid());
		CHECK_S(M, "comm_get(common_pid)", want);
		CHECK_S(M, "comm_get(_pid)", want);
		ctx.session = NULL;
		session__delete(sess);
	}
}

static void read_comm(pid_t pid, char *buf, size_t size)
{
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	buf[0] = '\0';
	fp = fopen(path, "r");
	if (fp) {
		if (fgets(buf, size, fp))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(fp);
	}
}

/*
 * Two comm_get of pids the map does not know in one evaluation: the second
 * reads /proc and inserts, and with the map just below its load limit the
 * insert rehashes, freeing the slots the first name was read from.
 */
static void test_comm_get_twice(void)
{
	int M = EV_KMALLOC;
	static unsigned char mraw[56];
	struct sample ms = { .raw = mraw, .raw_size = sizeof(mraw), .pid = (u32)getpid() };
	const char *texts[] = { "comm_get(common_pid) == comm_get(common_pid + %d)",
				"strncmp(comm_get(common_pid), comm_get(common_pid + %d), 16)" };
	char self[32], parent[32], text[128];
	int d = (int)getppid() - (int)getpid();
	struct engine_conf env = { 0 };

	read_comm(getpid(), self, sizeof(self));
	read_comm(getppid(), parent, sizeof(parent));
	PUT(mraw, 4, int32_t, getpid());
	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		struct session *sess = session__new(&env, stdout);
		int c = strcmp(self, parent);

		if (!sess)
			continue;
		/* 511 pids no task has: the next insert makes 512, the one after rehashes */
		for (u32 i = 0; i < 511; i++)
			comm_map__set(sess->comms, 0x40000000u + i, "fake");
		ctx.session = sess;
		ctx.smp = &ms;
		snprintf(text, sizeof(text), texts[t], d);
		if (t == 0)
			CHECK_I(M, text, !c);
		else
			CHECK_I(M, text, c < 0 ? -1 : c > 0);
		ctx.session = NULL;
		session__delete(sess);
	}
}

static void test_faults(void)
{
	int S = EV_SCHED_SWITCH, X = EV_SCHED_PROCESS_EXEC;
	struct sample cut = sw_smp;
	static unsigned char xraw[24];
	struct sample xs = { .raw = xraw, .raw_size = sizeof(xraw) };
	u32 loc = 20 | 40u << 16; /* 40 bytes from 20: past the record */
	struct expr_faults f;
	struct expr_value v;
	struct expr *e;
	char err[256];
	int n;

	ctx.smp = &sw_smp;
	CHECK_IF(S, "prev_pid / next_pid", 0, 1);
	CHECK_IF(S, "prev_pid % next_pid", 0, 1);
	CHECK_IF(S, "prev_pid / next_pid + prev_pid % next_pid + 5", 5, 2);

	cut.raw_size = 20; /* a record cut short: prev_comm (8..24) and beyond are gone */
	ctx.smp = &cut;
	CHECK_IF(S, "prev_pid", 0, 1);
	CHECK_IF(S, "prev_pid + 1", 1, 1);
	CHECK_IF(S, "common_pid", 1234, 0);
	CHECK_IF(S, "prev_comm == \"\"", 1, 1);
	CHECK_IF(S, "prev_comm[0]", 0, 1);
	cut.raw = NULL;
	CHECK_IF(S, "prev_pid + common_pid", 0, 2);
	CHECK_IF(S, "_cpu", 1, 0);

	put(xraw, 8, &loc, 4);
	ctx.smp = &xs;
	CHECK_IF(X, "filename == \"\"", 1, 1);

	/* the counters add up over evaluations */
	e = expr__compile("prev_pid / next_pid + prev_state", &evs[S], err, sizeof(err));
	ctx.smp = &sw_smp;
	for (int i = 0; i < 3; i++)
		expr__eval(e, &ctx, &v);
	ctx.smp = &cut;
	expr__eval(e, &ctx, &v);
	ctx.smp = NULL;		     /* no sample at all: reads fail, nothing crashes */
	n = expr__eval(e, &ctx, &v); /* 3 reads, 1 division */
	CHECK_INT(n, 4);
	expr__faults(e, &f);
	CHECK(f.div_zero == 5 && f.bad_reads == 6, "faults %llu div, %llu reads",
	      (unsigned long long)f.div_zero, (unsigned long long)f.bad_reads);
	expr__free(e);
}

static bool filt(int ev, const char *text)
{
	char err[256];
	struct expr *e = expr__compile_filter(text, &evs[ev], err, sizeof(err));
	bool m;

	if (!e) {
		printf("# filter '%s': %s\n", text, err);
		return false;
	}
	m = expr__match(e, &ctx);
	expr__free(e);
	return m;
}

static void test_filters(void)
{
	int S = EV_SCHED_SWITCH, W = EV_SCHED_WAKEUP;
	char err[256];
	struct expr *e;

	ctx.smp = &sw_smp;
	/* the kernel's syntax: bare words for strings, & as a test */
	CHECK(filt(S, "prev_comm == bash && prev_state == 2"), "bare word");
	CHECK(!filt(S, "prev_comm != bash"), "bare !=");
	CHECK(filt(S, "prev_comm ~ ba*"), "bare glob");
	CHECK(filt(S, "prev_comm ~ \"ba*\" || next_pid == 1"), "quoted glob");
	CHECK(filt(S, "next_comm == swapper/1"), "bare word with /");
	CHECK(filt(S, "(next_comm == swapper/1)"), "bare word before ')'");
	CHECK(filt(S, "prev_comm == bash&&prev_pid==1234"), "bare word before &&");
	CHECK(filt(S, "prev_comm == 'bash' && next_comm != 'a b'"), "single quotes");
	CHECK(filt(S, "prev_comm != 1abc"), "a bare word that starts like a number");
	CHECK(filt(S, "prev_comm ~ *sh"), "a bare glob that starts with *");
	CHECK(filt(S, "prev_comm ~ b[a-z]sh || prev_comm ~ [!x]ash"), "bare classes");
	CHECK(filt(S, "prev_comm != _cpu_name || 1") == false, "_names stay the language's");
	CHECK(filt(S, "prev_comm != next_comm"), "field against field");
	CHECK(filt(S, "prev_state & 2"), "&");
	CHECK(!filt(S, "prev_state & 1"), "& miss");
	CHECK(filt(S, "!(prev_pid == 1)"), "!");
	CHECK(filt(S, "prev_pid == 1234 && (next_pid == 0 || next_pid == 1)"), "parens");
	CHECK(filt(S, "prev_state == 0x2 && prev_prio >= 0120"), "hex and octal");
	CHECK(filt(S, "common_pid == 1234"), "common field");
	/* what the kernel rejects and the language runs */
	CHECK(filt(S, "prev_pid > next_prio"), "field < field");
	CHECK(filt(S, "_cpu == 1"), "_cpu");
	CHECK(filt(S, "CPU == 1 && common_cpu == 1 && cpu == 1"), "the kernel's CPU");
	CHECK(!filt(S, "comm == bash"), "COMM of a thread not in a session is <...>");
	CHECK(filt(S, "COMM ~ \"<*>\""), "COMM");
	CHECK(filt(S, "strncmp(prev_comm, \"ba\", 2) == 0"), "function");
	CHECK(filt(S, "prev_pid * 2 - 1 == 2467"), "arithmetic");
	/* a bare word that is a field, or a function, stays one */
	ctx.smp = &sw_smp;
	CHECK(!filt(S, "prev_comm == next_comm"), "field");
	CHECK(filt(S, "prev_comm == comm_get(0) || 1"), "function call");
	/* a filter must be a condition */
	e = expr__compile_filter("prev_comm", &evs[S], err, sizeof(err));
	CHECK(!e && strstr(err, "a filter must be a condition"), "%s", err);
	/* expressions outside filters take no bare words */
	e = expr__compile("prev_comm == bash", &evs[S], err, sizeof(err));
	CHECK(!e && strstr(err, "unknown field 'bash'"), "%s", err);
	/* string results of expressions match when non-empty */
	e = expr__compile("prev_comm", &evs[S], err, sizeof(err));
	CHECK(e && expr__match(e, &ctx), "string match");
	expr__free(e);
	(void)W;
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();

	CHECK(tep && expr_formats__load(tep, evs) == 0, "formats");
	if (ut_fail)
		return ut_done("test_expr");
	build_switch();
	test_operators();
	test_widths();
	test_strings();
	test_arrays();
	test_functions();
	test_comm_get_twice();
	test_faults();
	test_filters();
	tep_free(tep);
	return ut_done("test_expr");
}
