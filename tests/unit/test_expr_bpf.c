// SPDX-License-Identifier: GPL-2.0
/*
 * expr__bpf against expr__eval, in the kernel: each expression is compiled
 * into a small classic tracepoint program (our thread only: it stores the
 * value and the record's bytes into an array map), attached to a perf fd
 * of a real tracepoint whose fields this test sets (write(2) with chosen
 * fd/buf/count, getppid(2) with six chosen registers for
 * raw_syscalls:sys_enter, prctl(PR_SET_NAME) for task:task_rename), then
 * the syscall is made and the value compared with expr__eval on the very
 * record the program saw.  Unsupported expressions must say why.  Last,
 * every string of the expression tests that compiles against a format
 * must either be refused or pass the verifier.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/bpf_insn.h"
#include "engine/kvm_reasons.h"
#include "engine/session.h"
#include "expr/expr.h"
#include "expr_formats.h"
#include "fmt_common.h"
#include "ut.h"

enum { TP_WRITE, TP_ENTER, TP_RENAME, NR_TP };
static const char *const tp_name[NR_TP][2] = {
	{ "syscalls", "sys_enter_write" },
	{ "raw_syscalls", "sys_enter" },
	{ "task", "task_rename" },
};
#define NSETS 4
#define NWORDS 64 /* the map value: [0] the result, [w] the record at 8*w, [NWORDS-1] runs */

struct tp {
	struct evsel ev;
	int id;
	unsigned rec_size;
};
static struct tp tps[NR_TP];
static struct tep_handle *tep;
static int map_fd = -1, cpu, anchors[NR_TP];
static pid_t pid, tid;
static char verifier_log[65536];
static int nr_diff, nr_refused, nr_runs;

/* what the test's syscalls carry, per value set */
static const u64 wr[NSETS][3] = {
	{ (u64)-5, 0x7fff12345678ULL, 1000 },
	{ 0x7ffffff0, 0, 0x8000000000000000ULL },
	{ (u64)-1, (u64)-1, (u64)-1 },
	{ 0xfffffff0ULL, 0x68736162, 7 }, /* buf's bytes: "bash" */
};
static const u64 ent[NSETS][6] = {
	{ 3, (u64)-1, 0x8000000000000000ULL, 5, 7, 2 },
	{ 0, 12345, (u64)-12345, 1, 99, 5 },
	{ 5, 0, 0, 0, 64, 6 },
	{ (u64)-1, 1, 2, 3, 4, 0 },
};
static const char *const names[NSETS] = { "bash", "", "0123456789abcde", "ba" };

static unsigned rec_size_of(const struct tep_event *e)
{
	unsigned size = 0;

	for (struct tep_format_field *f = e->format.fields; f; f = f->next)
		if ((unsigned)(f->offset + f->size) > size)
			size = (unsigned)(f->offset + f->size);
	return size;
}

static int load_tp(int i)
{
	char path[256], buf[8192];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/%s/format", tp_name[i][0],
		 tp_name[i][1]);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || tep_parse_event(tep, buf, (size_t)n, tp_name[i][0]) != TEP_ERRNO__SUCCESS)
		return -1;
	tps[i].ev.tp = tep_find_event_by_name(tep, tp_name[i][0], tp_name[i][1]);
	if (!tps[i].ev.tp)
		return -1;
	tps[i].id = tps[i].ev.tp->id;
	tps[i].rec_size = rec_size_of(tps[i].ev.tp);
	return 0;
}

/*
 * The test program: our thread only (and for raw_syscalls:sys_enter only
 * getppid), the expression, then map[0] = {value, record words, runs + 1}.
 */
static int build(struct bpfb *b, struct expr *e, unsigned rec_size, bool gate, bool preload,
		 short stack_lo, char *why, size_t len)
{
	struct expr_bpf_env env = { .ctx_reg = R6,
				    .pid_tgid_reg = preload ? R7 : -1,
				    .stack_lo = stack_lo,
				    .stack_hi = -16,
				    .rec_size = rec_size };
	int out, rc;

	bpfb__init(b);
	out = bpfb__label(b);
	b_mov(b, R6, R1);
	b_call(b, BPF_FUNC_get_current_pid_tgid);
	b_mov(b, R7, R0);
	b_alu32(b, BPF_MOV, R0, R0);
	b_jmpi(b, BPF_JNE, R0, tid, out);
	if (gate) {
		b_ldx(b, 8, R1, R6, 8);
		b_jmpi(b, BPF_JNE, R1, SYS_getppid, out);
	}
	rc = expr__bpf(e, b, &env, why, len);
	if (rc)
		return rc;
	b_mov(b, R8, R0);
	b_st(b, 4, R10, -8, 0);
	b_lookup(b, map_fd, -8);
	b_jmpi(b, BPF_JEQ, R0, 0, out);
	b_stx(b, 8, R0, 0, R8);
	/* the kernel refuses to attach a program reading past the record: its last bytes narrower */
	for (unsigned o = 8, w; o < rec_size && o < 8 * (NWORDS - 1); o += w) {
		for (w = 8; o % w || o + w > rec_size; w /= 2)
			;
		b_ldx(b, (int)w, R1, R6, (int16_t)o);
		b_stx(b, (int)w, R0, (int16_t)o, R1);
	}
	b_ldx(b, 8, R1, R0, 8 * (NWORDS - 1));
	b_alui(b, BPF_ADD, R1, 1);
	b_stx(b, 8, R0, 8 * (NWORDS - 1), R1);
	bpfb__here(b, out);
	b_ret(b, 0);
	return bpfb__finish(b);
}

static int load(struct bpfb *b)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, "exprbpf", "GPL", b->insn, (size_t)b->n,
			       &opts);

	if (fd >= 0)
		return fd;
	opts.log_buf = verifier_log;
	opts.log_size = sizeof(verifier_log);
	opts.log_level = 1;
	verifier_log[0] = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, "exprbpf", "GPL", b->insn, (size_t)b->n,
			   &opts);
	if (fd >= 0)
		return fd;
	return -errno;
}

static void trigger(int t, int k)
{
	switch (t) {
	case TP_WRITE: /* a bad fd: EBADF before buf and count are looked at */
		syscall(SYS_write, wr[k][0], wr[k][1], wr[k][2]);
		break;
	case TP_ENTER:
		syscall(SYS_getppid, ent[k][0], ent[k][1], ent[k][2], ent[k][3], ent[k][4],
			ent[k][5]);
		break;
	default:
		prctl(PR_SET_NAME, names[k]);
		break;
	}
}

static int perf_open(int t)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof(a);
	a.config = (u64)tps[t].id;
	a.sample_period = 1;
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Compile @text on live tracepoint @t (a filter when it starts with "F:"). */
static struct expr *compile(int t, const char *text, const struct evsel *ev)
{
	char err[256];
	struct expr *e;

	if (!strncmp(text, "F:", 2))
		e = expr__compile_filter(text + 2, ev ? ev : &tps[t].ev, err, sizeof(err));
	else
		e = expr__compile(text, ev ? ev : &tps[t].ev, err, sizeof(err));
	if (!e)
		printf("# compile '%s': %s\n", text, err);
	return e;
}

/* kvm-exit's row and mark on an overlay: what kvm_reasons__label says too (NULL: no such check) */
struct kvm_want {
	int isa_off,
		rip_off; /* the overlay's isa (0: none, VMX) and guest_rip; exit_reason at 16 */
	bool mark;	 /* the mark (rip >> 63), else the row's label */
};
static const struct kvm_want *kvm_want;

static u64 kvm_wanted(const unsigned char *raw)
{
	u32 isa = KVM_ISA_VMX, reason;
	u64 rip;

	if (kvm_want->isa_off)
		memcpy(&isa, raw + kvm_want->isa_off, 4);
	memcpy(&reason, raw + 16, 4);
	memcpy(&rip, raw + kvm_want->rip_off, 8);
	return kvm_want->mark ? rip >> 63 : kvm_reasons__label(isa, reason);
}

static void differ(int t, const char *text, int idx, const struct evsel *ev)
{
	struct expr *e = compile(t, text, ev);
	char why[128];
	struct bpfb b;
	int prog, pfd, rc;

	CHECK(e != NULL, "%s compiles", text);
	if (!e)
		return;
	rc = build(&b, e, tps[t].rec_size, t == TP_ENTER, idx & 1, -256, why, sizeof(why));
	CHECK(rc == 0, "%s: %d (%s; %s)", text, rc, why, b.what);
	prog = rc ? -1 : load(&b);
	CHECK(rc || prog >= 0, "%s loads: %s\n%s", text, strerror(-prog), verifier_log);
	pfd = prog >= 0 ? perf_open(t) : -1;
	if (prog >= 0)
		CHECK(pfd >= 0 && ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog) == 0, "%s attach: %s",
		      text, strerror(errno));
	for (int k = 0; pfd >= 0 && k < NSETS; k++) {
		u64 val[NWORDS], zero[NWORDS];
		unsigned char raw[NWORDS * 8];
		struct sample smp = { 0 };
		struct expr_ctx ctx = { .smp = &smp };
		struct expr_value v;
		u32 key = 0;
		uint16_t type = (uint16_t)tps[t].id;
		int32_t ctid = tid;

		memset(zero, 0, sizeof(zero));
		bpf_map_update_elem(map_fd, &key, zero, BPF_ANY);
		trigger(t, k);
		memset(val, 0, sizeof(val));
		bpf_map_lookup_elem(map_fd, &key, val);
		nr_runs++;
		CHECK(val[NWORDS - 1] == 1, "%s set %d: the program ran %llu times", text, k,
		      (unsigned long long)val[NWORDS - 1]);
		/* the record the program saw, its common fields as perf would give them */
		memset(raw, 0, sizeof(raw));
		memcpy(raw + 8, &val[1], (NWORDS - 2) * 8);
		memcpy(raw, &type, 2);
		memcpy(raw + 4, &ctid, 4);
		smp.raw = raw;
		smp.raw_size = tps[t].rec_size;
		smp.cpu = (u32)cpu;
		smp.pid = (u32)pid;
		smp.tid = (u32)tid;
		smp.period = 1;
		expr__eval(e, &ctx, &v);
		CHECK(v.kind == EXPR_INT && v.u == val[0],
		      "%s set %d: bpf %lld (0x%llx), eval %lld (0x%llx)", text, k,
		      (long long)val[0], (unsigned long long)val[0], (long long)v.u,
		      (unsigned long long)v.u);
		if (kvm_want)
			CHECK(v.u == kvm_wanted(raw),
			      "%s set %d: 0x%llx, kvm_reasons__label 0x%llx", text, k,
			      (unsigned long long)v.u, (unsigned long long)kvm_wanted(raw));
	}
	nr_diff++;
	if (pfd >= 0)
		close(pfd);
	if (prog >= 0)
		close(prog);
	bpfb__free(&b);
	expr__free(e);
}

static void refused(int t, const char *text, const struct evsel *ev)
{
	struct expr *e = compile(t, text, ev);
	char why[128] = "";
	struct bpfb b;
	int rc;

	CHECK(e != NULL, "%s compiles", text);
	if (!e)
		return;
	rc = build(&b, e, ev ? 0 : tps[t].rec_size, false, false, -256, why, sizeof(why));
	CHECK(rc == -EOPNOTSUPP && why[0], "%s: %d, '%s'", text, rc, why);
	printf("# refused %s: %s\n", text, why);
	nr_refused++;
	bpfb__free(&b);
	expr__free(e);
}

static const char *const write_exprs[] = {
	"fd",
	"buf",
	"count",
	"__syscall_nr",
	"common_pid",
	"_pid",
	"_tid",
	"_cpu",
	"common_pid == _tid",
	"42",
	"-1",
	"0x8000000000000000",
	"18446744073709551615",
	/* arithmetic */
	"fd + count",
	"fd - count",
	"count * 3",
	"fd * count",
	"count - fd * 7 + buf",
	"-fd",
	"~count",
	"!fd",
	"!!count",
	"!(fd - fd)",
	"count * -1234567890123",
	"count + 0x7fffffff",
	"count + 0x80000000",
	"count & 0xffffffff00000000",
	/* division and modulo: signed, unsigned, by zero, by negatives, INT64_MIN / -1 */
	"count / 7",
	"count % 7",
	"(long)count / 7",
	"(long)count % 7",
	"(long)count / -7",
	"(long)count % -7",
	"(long)fd / (long)count",
	"(long)fd % (long)count",
	"count / (fd - fd)",
	"count % (fd - fd)",
	"(long)count / (long)(fd - fd)",
	"(long)count % (long)(buf - buf)",
	"(long)count / -1",
	"(long)count % -1",
	"(long)count / ((long)fd - (long)fd - 1)",
	"(long)count % ((long)fd - (long)fd - 1)",
	"(long)fd / (int)buf",
	"(int)fd % (int)count",
	"__syscall_nr / (long)fd",
	"-9223372036854775807 - 1 + (long)(fd - fd)",
	"(-9223372036854775807 - 1) / (long)count",
	"(-9223372036854775807 - 1) % (long)count",
	"count / fd",
	"fd % count",
	"(long)count / (long)count",
	"(long)fd / (long)fd",
	/* shifts, by large amounts too */
	"count << 3",
	"count >> 3",
	"(long)count >> 3",
	"(long)fd >> 63",
	"1 << fd",
	"(long)count >> fd",
	"count >> (fd & 127)",
	"-8 >> (fd & 127)",
	"1 << (count & 63)",
	"(long)count >> 64",
	"count >> 64",
	"count << 70",
	"(long)fd >> 100",
	"fd << 63",
	"(long)fd >> (count & 0xff)",
	"fd >> (count & 0xff)",
	"(int)fd >> 1",
	"(u32)fd >> 1",
	/* compares, signed and unsigned */
	"fd < count",
	"(long)fd < (long)count",
	"(long)fd < 0",
	"fd > 5",
	"(long)fd > -2",
	"fd >= -1",
	"__syscall_nr < (long)fd",
	"count == 1000",
	"count != 1000",
	"(int)fd == -5",
	"(int)fd <= -5",
	"fd <= count",
	"(long)fd >= (long)count",
	"count > 0x80000000",
	"(long)count < -2147483649",
	"fd == 0xfffffffffffffffb",
	/* bits */
	"fd & count",
	"fd | 0xff00",
	"fd ^ count",
	"fd ^ -1",
	"buf | count",
	/* casts */
	"(char)count",
	"(unsigned char)count",
	"(short)fd",
	"(unsigned short)fd",
	"(int)count",
	"(unsigned int)count",
	"(long)fd",
	"(bool)count",
	"(bool)(fd - fd)",
	"(s8)buf",
	"(long long)(int)fd",
	"(unsigned long)(char)fd",
	/* ?:, && ||, short-circuit */
	"fd > count ? fd : count",
	"(long)fd < 0 ? (count > 100 ? 1 : 2) : (count ? 3 : 4)",
	"fd ? count ? buf ? 1 : 2 : 3 : 4",
	"fd && count",
	"fd || count",
	"(fd - fd) && count",
	"(fd - fd) || (count - count)",
	"count > 5 && (long)fd < 0 || buf == 0",
	"(fd - fd) && count / (fd - fd)",
	"buf || count / (fd - fd)",
	"ntohs(count)",
	"ntohl(fd)",
	"ntohl(buf) + ntohs(buf)",
	/* deep: operands spilled to the stack */
	"fd + (count + (buf + (fd * (count - (buf ^ (fd | (count & (buf + 1))))))))",
	"(long)count / ((long)fd / ((long)buf / ((long)count % ((long)fd + 3) + 1) + 1) + 1)",
	"fd < (count < (buf < (fd < (count < (buf < (fd < count))))))",
	"_cpu + (_pid + (_tid + (common_pid + (fd + (count + (buf + __syscall_nr))))))",
	"fd ? (count ? (buf << (fd >> (count & (buf | 3)))) : 1) : (_cpu - (_tid ^ (count % 9)))",
	/* filters */
	"F:fd == -5",
	"F:count > 100 && fd != 3",
	"F:_cpu == 0 || count < 10",
	"F:(fd & 0xff) == 0xfb",
	"F:common_pid != 0 && count",
};

static const char *const enter_exprs[] = {
	"id",
	"args[0]",
	"args[5]",
	"args[1] + args[2]",
	"args[id & 7]",
	"args[args[5] & 7]",
	"args[id - 108]",
	"args[args[0]]",
	"args[args[5]]",
	"args[args[5]] / (long)args[1]",
	"(long)args[1] / (long)args[2]",
	"(long)args[2] / (long)args[1]",
	"(long)args[2] % (long)args[1]",
	"args[2] >> args[4]",
	"(long)args[2] >> args[4]",
	"args[0] << args[4]",
	"args[6 - args[5]]",
	"(long)args[1] < (long)args[3]",
	"args[1] < args[3]",
	"args[(args[0] + args[3]) % 6] * args[args[5]]",
	"args[args[args[args[args[args[0] & 7] & 7] & 7] & 7] & 7]",
	"args[id & 7] + args[args[0] & 7] * args[args[1] & 7] - args[args[2] & 7] / "
	"(long)args[args[3] & 7] + args[args[4] & 7] % args[args[5] & 7] + (args[5] ? "
	"args[args[3] & 3] : args[args[4] & 3]) + (args[args[0] % 6] && args[args[1] % 6])",
	"F:args[0] == 3 || args[1] == 1",
	"F:id == 110 && args[4] > 50",
};

static const char *const rename_exprs[] = {
	"pid",
	"pid == _tid",
	"oom_score_adj",
	"oom_score_adj < 0",
	"(unsigned short)oom_score_adj",
	"oom_score_adj * 1000000000000",
	"oom_score_adj >> 3",
	"oom_score_adj / -7",
	"newcomm[0]",
	"newcomm[pid & 15]",
	"oldcomm[3] + newcomm[1]",
	"(char)newcomm[2]",
	"newcomm == \"bash\"",
	"newcomm != \"bash\"",
	"newcomm == \"bas\"",
	"newcomm == \"bash1\"",
	"newcomm == \"\"",
	"newcomm == \"0123456789abcde\"",
	"\"bash\" == newcomm",
	"oldcomm == \"bash\"",
	"newcomm == \"0123456789abcdef\"",
	"newcomm == \"0123456789abcdefg\"",
	"newcomm == \"ba\" ? 7 : oom_score_adj",
	"F:newcomm == bash",
	"F:newcomm != bash && pid > 0",
	"F:oldcomm == bash || oom_score_adj < 0",
	"F:newcomm == \"0123456789abcde\"",
};

/*
 * sys_enter_write's record seen through other fields: unaligned, narrow
 * and signed ones, arrays and strings over fd (16..23), buf (24..31) and
 * count (32..39), whose bytes the test chooses.
 */
static const char overlay_fmt[] =
	"name: write_overlay\n"
	"ID: 99999\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char b17;\toffset:17;\tsize:1;\tsigned:1;\n"
	"\tfield:unsigned char ub23;\toffset:23;\tsize:1;\tsigned:0;\n"
	"\tfield:short h17;\toffset:17;\tsize:2;\tsigned:1;\n"
	"\tfield:unsigned short uh20;\toffset:20;\tsize:2;\tsigned:0;\n"
	"\tfield:int i19;\toffset:19;\tsize:4;\tsigned:1;\n"
	"\tfield:int i20;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int u26;\toffset:26;\tsize:4;\tsigned:0;\n"
	"\tfield:long l18;\toffset:18;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long q21;\toffset:21;\tsize:8;\tsigned:0;\n"
	"\tfield:short ha[5];\toffset:17;\tsize:10;\tsigned:1;\n"
	"\tfield:int ia[4];\toffset:16;\tsize:16;\tsigned:1;\n"
	"\tfield:unsigned char ca[8];\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:char s8[8];\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:char s13[13];\toffset:21;\tsize:13;\tsigned:0;\n"
	"\n"
	"print fmt: \"%d\", REC->__syscall_nr\n";
static struct evsel overlay;

static const char *const overlay_exprs[] = {
	"b17",
	"ub23",
	"h17",
	"uh20",
	"i19",
	"i20",
	"u26",
	"l18",
	"q21",
	"b17 < 0",
	"h17 >> 3",
	"(unsigned)i19 >> 3",
	"l18 / -3",
	"q21 % 1000",
	"ha[0]",
	"ha[4]",
	"ha[b17 & 7]",
	"ha[uh20 % 5]",
	"ia[0] + ia[3]",
	"ia[ub23 & 3]",
	"ia[i20 & 3]",
	"ca[0]",
	"ca[ub23 & 7]",
	"s8 == \"bash\"",
	"s8 != \"bash\"",
	"s8 == \"bas\"",
	"s8 == \"\"",
	"s8 == \"\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\"",
	"s13 == \"bash\"",
	"F:s8 == bash && h17 < 0",
	"s13 == \"\\xff\\xff\\xff\"",
};

/*
 * raw_syscalls:sys_enter's record seen as kvm:kvm_exit's (args[0..2] at
 * 16, 24, 32, which the test chooses): exit_reason in args[0] (0xffffffff
 * in set 3: VMX's flags above bit 15), the isa in args[1] (1, VMX, in set
 * 3) or args[2] (2, SVM, in set 3), guest_rip in the other (bit 63 set in
 * set 0).  kvm-exit's row and mark (engine/kvm_reasons.h) in the kernel
 * are what eval and kvm_reasons__label give.
 */
#define KVM_OVERLAY(NAME, ISA, RIP)                                               \
	"name: " NAME "\n"                                                        \
	"ID: 99998\n"                                                             \
	"format:\n" FMT_COMMON_FIELDS                                             \
	"\tfield:unsigned int exit_reason;\toffset:16;\tsize:4;\tsigned:0;\n"     \
	"\tfield:unsigned long guest_rip;\toffset:" RIP ";\tsize:8;\tsigned:0;\n" \
	"\tfield:u32 isa;\toffset:" ISA ";\tsize:4;\tsigned:0;\n"                 \
	"\n"                                                                      \
	"print fmt: \"%u\", REC->exit_reason\n"
static const char *const kvm_fmt[2] = { KVM_OVERLAY("kvm_vmx", "24", "32"),
					KVM_OVERLAY("kvm_svm", "32", "24") };
/* per overlay: the row, the row without isa (older kernels: VMX), the mark */
static const struct kvm_want kvm_wants[2][3] = {
	{ { 24, 32, false }, { 0, 32, false }, { 24, 32, true } },
	{ { 32, 24, false }, { 0, 24, false }, { 32, 24, true } },
};
static struct evsel kvm_ev[2];

static const char *const write_refused[] = {
	"_time",
	"_period",
	"common_flags",
	"common_type",
	"common_preempt_count",
	"ksymbol(buf)",
	"syscall_name(__syscall_nr)",
	"printf(\"%d\\n\", fd)",
	"system(\"true\")",
	"comm_get(_tid)",
	"F:comm == bash",
	"fd > 3 ? _time : 0",
	"F:comm ~ \"ba*\"",
};
static const char *const rename_refused[] = {
	"newcomm",
	"newcomm ~ \"ba*\"",
	"strncmp(newcomm, \"ba\", 2)",
	"newcomm == oldcomm",
	"pid ? newcomm : oldcomm",
};

/* ---- every string of the expression tests, against every format ---- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (s = calloc(1, (size_t)n + 1)) && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

/* The C string literals of @src, unescaped (\" \\ \n \t), each given to @fn. */
static void literals(const char *src, void (*fn)(const char *))
{
	char buf[1024];

	for (const char *p = src; (p = strchr(p, '"'));) {
		size_t n = 0;

		if (p > src && p[-1] == '\'') { /* '"' */
			p++;
			continue;
		}
		for (p++; *p && *p != '"' && *p != '\n'; p++) {
			char c = *p;

			if (c == '\\' && p[1]) {
				c = *++p;
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			}
			if (n < sizeof(buf) - 1)
				buf[n++] = c;
		}
		buf[n] = 0;
		if (*p == '"')
			fn(buf);
		if (*p)
			p++;
	}
}

static struct evsel fevs[NR_EV_FORMATS];
static int fz_tried, fz_compiled, fz_refused, fz_loaded;

static void fuzz_one(const struct evsel *ev, unsigned rec, const char *text, bool filter)
{
	char err[256], why[128];
	struct expr *e;
	struct bpfb b;
	int rc, fd;

	fz_tried++;
	e = filter ? expr__compile_filter(text, ev, err, sizeof(err))
		   : expr__compile(text, ev, err, sizeof(err));
	if (!e)
		return;
	fz_compiled++;
	rc = build(&b, e, rec, false, fz_compiled & 1, -256, why, sizeof(why));
	if (rc == -EOPNOTSUPP) {
		fz_refused++;
	} else {
		CHECK(rc == 0, "'%s' on %s: %d (%s)", text, ev->tp->name, rc, b.what);
		fd = rc ? -1 : load(&b);
		CHECK(rc || fd >= 0, "'%s' on %s loads: %s\n%s", text, ev->tp->name, strerror(-fd),
		      verifier_log);
		if (fd >= 0) {
			fz_loaded++;
			close(fd);
		}
	}
	bpfb__free(&b);
	expr__free(e);
}

static void fuzz_text(const char *text)
{
	if (!*text || strlen(text) > 300)
		return;
	for (int i = 0; i < NR_EV_FORMATS; i++) {
		fuzz_one(&fevs[i], rec_size_of(fevs[i].tp), text, false);
		fuzz_one(&fevs[i], rec_size_of(fevs[i].tp), text, true);
	}
	for (int i = 0; i < NR_TP; i++)
		fuzz_one(&tps[i].ev, tps[i].rec_size, text, false);
}

static void fuzz(const char *self)
{
	static const char *const files[] = { "test_expr.c", "test_expr_c.c", "test_expr_err.c",
					     "test_expr_key.c", "test_expr_vars.c" };
	char dir[512], path[700];
	const char *slash;
	int nfiles = 0;

	/* the sources: tests/unit from the top (cwd), or beside build/tests/ */
	snprintf(dir, sizeof(dir), "tests/unit");
	if (access("tests/unit/test_expr.c", R_OK) && (slash = strrchr(self, '/'))) {
		snprintf(dir, sizeof(dir), "%.*s/../../tests/unit", (int)(slash - self), self);
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *src;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		src = slurp(path);
		if (!src)
			continue;
		nfiles++;
		literals(src, fuzz_text);
		free(src);
	}
	CHECK(nfiles == 5, "the expression tests' sources read from %s", dir);
	CHECK(fz_loaded > 100, "%d loaded", fz_loaded);
	printf("# fuzz: %d files, %d tries, %d compiled, %d refused, %d loaded\n", nfiles, fz_tried,
	       fz_compiled, fz_refused, fz_loaded);
}

int main(int argc, char **argv)
{
	char oldname[32] = "";
	cpu_set_t set;
	char why[128];
	struct bpfb b;

	(void)argc;
	tep = tep_alloc();
	if (!tep || expr_formats__load(tep, fevs)) {
		CHECK(0, "formats");
		return ut_done("test_expr_bpf");
	}
	map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "exprbpf", 4, NWORDS * 8, 1, NULL);
	if (map_fd < 0) {
		printf("skip - bpf(2): %s (needs root or CAP_BPF and CAP_PERFMON)\n",
		       strerror(errno));
		return ut_done("test_expr_bpf");
	}
	for (int i = 0; i < NR_TP; i++) {
		if (load_tp(i)) {
			printf("skip - no readable format of %s:%s in /sys/kernel/tracing\n",
			       tp_name[i][0], tp_name[i][1]);
			return ut_done("test_expr_bpf");
		}
	}
	if (tep_parse_event(tep, overlay_fmt, strlen(overlay_fmt), "test") != TEP_ERRNO__SUCCESS ||
	    !(overlay.tp = tep_find_event_by_name(tep, "test", "write_overlay"))) {
		CHECK(0, "the overlay format parses");
		return ut_done("test_expr_bpf");
	}
	/* our thread on one CPU, so that _cpu is known */
	cpu = sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	CHECK(sched_setaffinity(0, sizeof(set), &set) == 0, "pinned to CPU %d", cpu);
	pid = getpid();
	tid = (pid_t)syscall(SYS_gettid);
	prctl(PR_GET_NAME, oldname);
	/* one fd more on each tracepoint: closing a test's does not unregister it (slow) */
	for (int i = 0; i < NR_TP; i++)
		anchors[i] = perf_open(i);
	fflush(stdout); /* nothing of ours written while a program watches write(2) */

	for (size_t i = 0; i < sizeof(write_exprs) / sizeof(write_exprs[0]); i++)
		differ(TP_WRITE, write_exprs[i], (int)i, NULL);
	for (size_t i = 0; i < sizeof(enter_exprs) / sizeof(enter_exprs[0]); i++)
		differ(TP_ENTER, enter_exprs[i], (int)i, NULL);
	for (size_t i = 0; i < sizeof(rename_exprs) / sizeof(rename_exprs[0]); i++)
		differ(TP_RENAME, rename_exprs[i], (int)i, NULL);
	prctl(PR_SET_NAME, oldname);
	for (size_t i = 0; i < sizeof(overlay_exprs) / sizeof(overlay_exprs[0]); i++)
		differ(TP_WRITE, overlay_exprs[i], (int)i, &overlay);
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "kvm_svm" : "kvm_vmx";

		if (tep_parse_event(tep, kvm_fmt[i], strlen(kvm_fmt[i]), "test") !=
			    TEP_ERRNO__SUCCESS ||
		    !(kvm_ev[i].tp = tep_find_event_by_name(tep, "test", name))) {
			CHECK(0, "the %s overlay parses", name);
			continue;
		}
		kvm_want = &kvm_wants[i][0];
		differ(TP_ENTER, KVM_LABEL_EXPR, 0, &kvm_ev[i]);
		kvm_want = &kvm_wants[i][1];
		differ(TP_ENTER, KVM_LABEL_EXPR_VMX, 1, &kvm_ev[i]);
		kvm_want = &kvm_wants[i][2];
		differ(TP_ENTER, KVM_MARK_EXPR, 0, &kvm_ev[i]);
		kvm_want = NULL;
	}
	for (int i = 0; i < NR_TP; i++)
		if (anchors[i] >= 0)
			close(anchors[i]);
	printf("# differential: %d expressions, %d runs compared\n", nr_diff, nr_runs);

	for (size_t i = 0; i < sizeof(write_refused) / sizeof(write_refused[0]); i++)
		refused(TP_WRITE, write_refused[i], NULL);
	for (size_t i = 0; i < sizeof(rename_refused) / sizeof(rename_refused[0]); i++)
		refused(TP_RENAME, rename_refused[i], NULL);
	refused(0, "filename == \"/bin/sh\"", &fevs[EV_SCHED_PROCESS_EXEC]);
	refused(0, "common_preempt_count > 1", &fevs[EV_SCHED_SWITCH]);

	/* a tree deeper than the stack area given */
	{
		struct expr *e = compile(TP_WRITE,
					 "fd + (count + (buf + (fd * (count - (buf ^ (fd | "
					 "(count & (buf + 1))))))))",
					 NULL);
		int rc =
			e ? build(&b, e, tps[TP_WRITE].rec_size, false, true, -24, why, sizeof(why))
			  : 0;

		CHECK(rc == -EOPNOTSUPP && strstr(why, "stack"), "too deep: %d %s", rc, why);
		bpfb__free(&b);
		expr__free(e);
	}
	/* a bad environment */
	{
		struct expr *e = compile(TP_WRITE, "fd", NULL);
		struct expr_bpf_env env = { .ctx_reg = R1, .pid_tgid_reg = -1, .stack_lo = -64 };

		bpfb__init(&b);
		CHECK(e && expr__bpf(e, &b, &env, why, sizeof(why)) == -EINVAL, "ctx in R1");
		CHECK(e && !expr__bpf_uses_pid(e), "fd uses no pid");
		expr__free(e);
		e = compile(TP_WRITE, "fd + common_pid", NULL);
		CHECK(e && expr__bpf_uses_pid(e), "common_pid uses the pid");
		expr__free(e);
		bpfb__free(&b);
	}
	printf("# refused: %d expressions\n", nr_refused);

	fuzz(argv[0]);
	close(map_fd);
	return ut_done("test_expr_bpf");
}
