// SPDX-License-Identifier: GPL-2.0
/*
 * The event line (report/evline) on injected sessions: trace's text and
 * JSON lines, with and without a stack, the events inside nested-trace's
 * --than records and multi-trace's slow pairs, and expr's records (the
 * event line with a value after it), compared whole with what
 * they printed before the event line was declared once (the golden
 * strings below).  The events' times are the wall clock's (UTC, no offset);
 * the stamp of a table's rows (the time of the report) reads 0.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/session_int.h"
#include "fmt_common.h"
#include "synth_run.h"
#include "ut.h"

#define US 1000ULL
#define T0 1000000000ULL

static const char fmt_entry[] =
	"name: local_timer_entry\n"
	"ID: 165\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"vector=%d\", REC->vector\n";

static const char fmt_exit[] =
	"name: local_timer_exit\n"
	"ID: 164\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"vector=%d\", REC->vector\n";

static const struct synth_fmt fmts[] = { { "irq_vectors", fmt_entry },
					 { "irq_vectors", fmt_exit },
					 { NULL, NULL } };

static const u64 ips[] = { PERF_CONTEXT_USER, 0x1000, 0x2000 };

/* one local_timer event of @ev by @tid on @cpu at @t, vector @vec (with a stack: @stack) */
static void rec(struct synth_run *r, struct evsel *ev, u32 tid, u32 cpu, u64 t, int vec, bool stack)
{
	unsigned char raw[12] = { 0 };

	if (!ev)
		return;
	synth__field_u64(ev, raw, "common_pid", tid);
	synth__field_u64(ev, raw, "vector", (u64)vec);
	session__inject(r->s,
			synth__sample(&r->b, ev,
				      &(struct synth_sample){ .pid = tid,
							      .tid = tid,
							      .cpu = cpu,
							      .time = t,
							      .ips = stack ? ips : NULL,
							      .nr_ips = stack ? 3 : 0,
							      .raw = raw,
							      .raw_size = sizeof(raw) }),
			(int)cpu);
}

/* @prof @args over entry/exit pairs on two CPUs: what it printed (into @buf) */
static const char *run(const char *prof, const char *args, bool stack, char *buf, size_t len)
{
	struct synth_run r;
	struct evsel *in, *out;
	const char *o;

	buf[0] = 0;
	if (synth_run__start(&r, prof, args, &(struct synth_run_opts){ .fmts = fmts })) {
		printf("# start %s %s: %s\n", prof, args, synth_run__err(&r));
		synth_run__cleanup(&r);
		return buf;
	}
	r.s->wall_offset = 0;
	in = synth_run__evsel(&r, "local_timer_entry");
	out = synth_run__evsel(&r, "local_timer_exit");
	for (u64 i = 0; i < 3; i++) {
		u64 t = T0 + i * 1000 * US;

		rec(&r, in, 100 + (u32)i, (u32)i % 2, t, 236, stack);
		rec(&r, out, 100 + (u32)i, (u32)i % 2, t + (5 + 10 * i) * US, 236 + (int)i, stack);
	}
	o = synth_run__finish(&r);
	snprintf(buf, len, "%s", o);
	/* the report's stamp: "scope":"run","time_ns":0 */
	for (char *p = buf; (p = strstr(p, "\"scope\":\"run\",\"time_ns\":"));) {
		char *d = p += 24, *e = d;

		while (*e >= '0' && *e <= '9')
			e++;
		*d = '0';
		memmove(d + 1, e, strlen(e) + 1);
	}
	synth_run__cleanup(&r);
	if (getenv("EVLINE_DUMP"))
		printf("=== %s %s\n%s", prof, args, buf);
	return buf;
}

#define EV "-e irq_vectors:local_timer_entry,irq_vectors:local_timer_exit"

static void check(const char *prof, const char *args, bool stack, const char *want)
{
	char buf[16384];
	const char *got = run(prof, args, stack, buf, sizeof(buf));

	CHECK(!strcmp(got, want), "%s %s:\n%s\nwant:\n%s", prof, args, got, want);
}

static const struct {
	const char *prof, *args;
	bool stack;
	const char *want;
} cases[] = {
#include "evline_golden.h"
};

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(cases[i].prof, cases[i].args, cases[i].stack, cases[i].want);
	return ut_done("test_evline");
}
