// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-exit on an injected session: kvm_exit / kvm_entry samples of two
 * vCPU threads with known latencies, VMX and SVM exit reasons named from
 * the tracepoint's own print format, guest-kernel exits (rip in the upper
 * half) counted, an entry without its exit ignored, a lost record that
 * drops the open exit, --perins rows per thread, and --than/--threshold
 * printing slow exits but not HLT ones (the guest idling).  (Machines without
 * hardware virtualization never fire kvm_exit: this is where kvm-exit's
 * logic is tested there.)
 */
#include <stdlib.h>
#include <string.h>

#include "expr/expr.h"
#include "fmt_common.h"
#include "synth_run.h"
#include "ut.h"

#define US 1000ULL

/* this kernel's layout; the print format keeps a few of each table */
static const char fmt_kvm_exit[] =
	"name: kvm_exit\n"
	"ID: 1801\n"
	"format:\n" FMT_COMMON_FIELDS
	"\tfield:unsigned int exit_reason;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long guest_rip;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 isa;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 info1;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 info2;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 intr_info;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 error_code;\toffset:52;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int vcpu_id;\toffset:56;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 requests;\toffset:64;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"vcpu %u reason %s rip 0x%lx\", REC->vcpu_id, (REC->isa == 1) ? "
	"__print_symbolic(REC->exit_reason & 0xffff, { 1, \"EXTERNAL_INTERRUPT\" }, { 12, "
	"\"HLT\" }, { 30, \"IO_INSTRUCTION\" }, { 32, \"MSR_WRITE\" }) : "
	"__print_symbolic(REC->exit_reason, { 0x060, \"intr\" }, { 0x078, \"hlt\" }, { 0x07b, "
	"\"io\" }, { 0x400, \"npf\" }), REC->guest_rip\n";

static const char fmt_kvm_entry[] = "name: kvm_entry\n"
				    "ID: 1802\n"
				    "format:\n" FMT_COMMON_FIELDS
				    "\tfield:unsigned int vcpu_id;\toffset:8;\tsize:4;\tsigned:0;\n"
				    "\tfield:unsigned long rip;\toffset:16;\tsize:8;\tsigned:0;\n"
				    "\tfield:bool immediate_exit;\toffset:24;\tsize:1;\tsigned:0;\n"
				    "\tfield:u32 intr_info;\toffset:28;\tsize:4;\tsigned:0;\n"
				    "\tfield:u32 error_code;\toffset:32;\tsize:4;\tsigned:0;\n"
				    "\n"
				    "print fmt: \"vcpu %u, rip 0x%lx\", REC->vcpu_id, REC->rip\n";

struct run {
	struct synth_run h;
	struct evsel *ex, *en;
};

static int start(struct run *r, const char *args)
{
	static const struct synth_fmt fmts[] = { { "kvm", fmt_kvm_exit },
						 { "kvm", fmt_kvm_entry },
						 { NULL, NULL } };

	memset(r, 0, sizeof(*r));
	if (synth_run__start(&r->h, "kvm-exit", args, &(struct synth_run_opts){ .fmts = fmts }))
		return -1;
	r->ex = synth_run__evsel(&r->h, "kvm_exit");
	r->en = synth_run__evsel(&r->h, "kvm_entry");
	return 0;
}

/* kvm_exit of thread @tid at @t: @isa 1 VMX, 2 SVM */
static void vm_exit(struct run *r, u64 t, u32 tid, u32 isa, u32 reason, u64 rip)
{
	unsigned char raw[72] = { 0 };

	synth__field_u64(r->ex, raw, "common_pid", tid);
	synth__field_u64(r->ex, raw, "exit_reason", reason);
	synth__field_u64(r->ex, raw, "guest_rip", rip);
	synth__field_u64(r->ex, raw, "isa", isa);
	session__inject(r->h.s,
			synth__sample(&r->h.b, r->ex,
				      &(struct synth_sample){ .pid = 100,
							      .tid = tid,
							      .cpu = 0,
							      .time = t,
							      .raw = raw,
							      .raw_size = 72 }),
			0);
}

static void vm_entry(struct run *r, u64 t, u32 tid)
{
	unsigned char raw[40] = { 0 };

	synth__field_u64(r->en, raw, "common_pid", tid);
	session__inject(r->h.s,
			synth__sample(&r->h.b, r->en,
				      &(struct synth_sample){ .pid = 100,
							      .tid = tid,
							      .cpu = 0,
							      .time = t,
							      .raw = raw,
							      .raw_size = 36 }),
			0);
}

/* the row starting with @key (and @key2 as its second field when given), or NULL */
static const char *row(const char *out, const char *key, const char *key2, char *buf, size_t len)
{
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char k[64], k2[64];

		if (sscanf(p, "%63s %63s", k, k2) == 2 && !strcmp(k, key) &&
		    (!key2 || !strcmp(k2, key2))) {
			const char *e = strchr(p, '\n');

			snprintf(buf, len, "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
			return buf;
		}
	}
	return NULL;
}

int main(void)
{
	struct run r;
	const char *out;
	char buf[512];
	u64 t = 1000000000ULL;

	/* VMX: 3 HLT of 100us (one from the guest kernel), 2 IO of 10us; SVM: 1 npf of 50us */
	CHECK(start(&r, "") == 0, "start: %s", session__strerror(r.h.s) ?: "");
	vm_exit(&r, t, 11, 1, 12, 0xffffffff81000000ULL);
	vm_entry(&r, t + 100 * US, 11);
	vm_exit(&r, t + 200 * US, 11, 1, 12, 0x1000);
	vm_entry(&r, t + 300 * US, 11);
	vm_exit(&r, t + 400 * US, 12, 1, 12 | 0x80000000u, 0x1000); /* flags above bit 15 */
	vm_entry(&r, t + 500 * US, 12);
	vm_exit(&r, t + 600 * US, 11, 1, 30, 0x1000);
	vm_entry(&r, t + 610 * US, 11);
	vm_exit(&r, t + 700 * US, 12, 1, 30, 0xffffffff81000000ULL);
	vm_entry(&r, t + 710 * US, 12);
	vm_exit(&r, t + 800 * US, 13, 2, 0x400, 0x1000);
	vm_entry(&r, t + 850 * US, 13);
	vm_entry(&r, t + 900 * US, 13);		       /* no exit before it: nothing */
	vm_exit(&r, t + 1000 * US, 14, 1, 99, 0x1000); /* a reason the format does not name */
	vm_entry(&r, t + 1001 * US, 14);
	out = synth_run__finish(&r.h);
	CHECK(strstr(out, "EXIT REASON ") && strstr(out, "guest-kernel\n"), "title: %s", out);
	CHECK(row(out, "HLT", "3", buf, sizeof(buf)) && strstr(buf, " 300.000us ") &&
		      strstr(buf, " 100.000us ") && strstr(buf, "1 (33.3%)"),
	      "HLT: 3 of 100us, 1 from the guest kernel: %s", out);
	CHECK(row(out, "IO_INSTRUCTION", "2", buf, sizeof(buf)) && strstr(buf, " 20.000us ") &&
		      strstr(buf, "1 (50.0%)"),
	      "IO_INSTRUCTION: 2 of 10us: %s", out);
	CHECK(row(out, "npf", "1", buf, sizeof(buf)) && strstr(buf, " 50.000us "),
	      "SVM's npf named from the second table: %s", out);
	CHECK(row(out, "VMX_0x63", "1", buf, sizeof(buf)), "an unnamed reason by number: %s", out);
	CHECK(!row(out, "npf", "2", buf, sizeof(buf)), "an entry without an exit adds nothing");
	synth_run__cleanup(&r.h);

	/* a lost record drops the open exit; --perins rows per vCPU thread */
	CHECK(start(&r, "--perins") == 0, "start --perins");
	vm_exit(&r, t, 11, 1, 12, 0x1000);
	vm_entry(&r, t + 100 * US, 11);
	vm_exit(&r, t + 200 * US, 12, 1, 12, 0x1000);
	vm_entry(&r, t + 250 * US, 12);
	vm_exit(&r, t + 300 * US, 11, 1, 30, 0x1000);
	{
		struct synth *b = &r.h.b;

		b->len = sizeof(struct perf_event_header);
		synth__u64(b, 1);  /* id */
		synth__u64(b, 10); /* lost */
		synth__trailer(b, 0, 0, t + 350 * US, 0, 0);
		session__inject(r.h.s, synth__finish(b, PERF_RECORD_LOST, 0), 0);
	}
	vm_entry(&r, t + 400 * US, 11);
	out = synth_run__finish(&r.h);
	CHECK(strstr(out, " TID ") != NULL, "--perins: TID column: %s", out);
	CHECK(row(out, "HLT", "11", buf, sizeof(buf)) && strstr(buf, " 100.000us "),
	      "thread 11's HLT: %s", out);
	CHECK(row(out, "HLT", "12", buf, sizeof(buf)) && strstr(buf, " 50.000us "),
	      "thread 12's HLT: %s", out);
	CHECK(!strstr(out, "IO_INSTRUCTION"), "the exit open across the loss is no latency: %s",
	      out);
	CHECK(strstr(out, "kvm-exit: 1 pending pairs dropped after lost events"),
	      "the drop is reported: %s", out);
	synth_run__cleanup(&r.h);

	/*
	 * --than (and --threshold, its other name): a slow IO exit printed, a
	 * slower HLT (VMX and SVM: the guest idling) only counted in its row
	 */
	for (int i = 0; i < 2; i++) {
		if (start(&r, i ? "--threshold 20us" : "--than 20")) {
			CHECK(0, "start %d (the error on stderr)", i);
			continue;
		}
		vm_exit(&r, t, 11, 1, 12, 0x1000);
		vm_entry(&r, t + 100 * US, 11);
		vm_exit(&r, t + 200 * US, 11, 1, 30, 0x1000);
		vm_entry(&r, t + 250 * US, 11);
		vm_exit(&r, t + 300 * US, 11, 1, 30, 0x1000);
		vm_entry(&r, t + 310 * US, 11);
		vm_exit(&r, t + 400 * US, 13, 2, 0x78, 0x1000);
		vm_entry(&r, t + 500 * US, 13);
		out = synth_run__finish(&r.h);
		CHECK(strstr(out, "IO_INSTRUCTION: 50.000us key 11") != NULL,
		      "%d: the slow IO exit printed: %s", i, out);
		CHECK(!strstr(out, "HLT:") && !strstr(out, "hlt:"),
		      "%d: HLT exits over the time not printed: %s", i, out);
		CHECK(row(out, "HLT", "1", buf, sizeof(buf)) &&
			      row(out, "hlt", "1", buf, sizeof(buf)) &&
			      row(out, "IO_INSTRUCTION", "2", buf, sizeof(buf)),
		      "%d: every exit in its row: %s", i, out);
		synth_run__cleanup(&r.h);
	}

	/*
	 * --filter: on kvm_exit only; the exits it drops (dropped here as the
	 * engine drops them when the kernel refuses a filter: in user space)
	 * open no pair, and the entries after them close none
	 */
	CHECK(start(&r, "--filter exit_reason==30") == 0, "start --filter");
	CHECK(r.ex && r.ex->filter && !strcmp(r.ex->filter, "exit_reason==30"),
	      "the filter is kvm_exit's: %s", r.ex && r.ex->filter ? r.ex->filter : "(none)");
	CHECK(r.en && !r.en->filter, "kvm_entry has none");
	if (r.ex && r.ex->filter) {
		char err[256];

		session__set_user_filters(r.h.s, &expr_user_filters);
		r.ex->ufilter =
			expr_user_filters.compile(r.h.s, r.ex, r.ex->filter, err, sizeof(err));
		CHECK(r.ex->ufilter != NULL, "the filter compiles: %s", err);
	}
	vm_exit(&r, t, 11, 1, 12, 0x1000);
	vm_entry(&r, t + 100 * US, 11);
	vm_exit(&r, t + 200 * US, 11, 1, 30, 0x1000);
	vm_entry(&r, t + 210 * US, 11);
	vm_exit(&r, t + 300 * US, 12, 1, 12, 0x1000);
	vm_entry(&r, t + 400 * US, 12);
	vm_exit(&r, t + 500 * US, 12, 1, 30, 0xffffffff81000000ULL);
	vm_entry(&r, t + 520 * US, 12);
	vm_exit(&r, t + 600 * US, 11, 1, 32, 0x1000);
	vm_entry(&r, t + 700 * US, 11);
	out = synth_run__finish(&r.h);
	CHECK(row(out, "IO_INSTRUCTION", "2", buf, sizeof(buf)) && strstr(buf, " 30.000us ") &&
		      strstr(buf, " 20.000us ") && strstr(buf, "1 (50.0%)"),
	      "--filter: the 2 IO exits of 10us and 20us paired and counted: %s", out);
	CHECK(!strstr(out, "HLT") && !strstr(out, "MSR_WRITE"),
	      "--filter: no other reason, no pair from their entries: %s", out);
	synth_run__cleanup(&r.h);
	return ut_done("test_kvm_exit_sm");
}
