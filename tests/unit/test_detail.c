// SPDX-License-Identifier: GPL-2.0
/*
 * --detail's timelines on an injected session: multi-trace pairs t:begin
 * and t:finish of one thread, with untraced t:noise events between them.
 * A pair slower than --than prints the events from its start to its end;
 * hide<TIME folds each run of events closer than TIME to the one before
 * into "... N events, each closer than hide<" and the run's last event (the
 * start and end of the pair are never folded); --json gives the same
 * timeline with "hidden": N on the event that closes a run (with --dump
 * DIR that output in DIR/detail.json).
 */
#include <stdlib.h>
#include <string.h>

#include "fmt_common.h"
#include "synth_run.h"
#include "ut.h"

#define US 1000ULL
#define MS 1000000ULL
#define T0 (5000 * MS)

#define FMT(name, id)                                                                             \
	"name: " name "\n"                                                                        \
	"ID: " id "\n"                                                                            \
	"format:\n" FMT_COMMON_FIELDS "\tfield:unsigned long n;\toffset:8;\tsize:8;\tsigned:0;\n" \
	"\n"                                                                                      \
	"print fmt: \"n=%lu\", REC->n\n"

static const struct synth_fmt fmts[] = { { "t", FMT("begin", "9001") },
					 { "t", FMT("finish", "9002") },
					 { "t", FMT("noise", "9003") },
					 { NULL, NULL } };

static void ev_at(struct synth_run *r, const char *name, u64 t, u64 n)
{
	struct evsel *ev = synth_run__evsel(r, name);
	unsigned char raw[20] = { 0 };

	if (!ev)
		return;
	synth__field_u64(ev, raw, "common_pid", 100);
	synth__field_u64(ev, raw, "n", n);
	synth_run__tp(r, ev, 100, 100, 0, t, raw, sizeof(raw));
}

/*
 * The pair: begin at T0, finish at +10 ms.  Between: noise n=1 at +1 ms,
 * a burst n=2..11 every 10 us from +2 ms, n=12 at +4 ms, and n=13..15 every
 * 10 us from +9.95 ms, the last 30 us before the finish.
 */
static void records(struct synth_run *r)
{
	ev_at(r, "begin", T0, 0);
	ev_at(r, "noise", T0 + 1 * MS, 1);
	for (u64 i = 0; i < 10; i++)
		ev_at(r, "noise", T0 + 2 * MS + i * 10 * US, 2 + i);
	ev_at(r, "noise", T0 + 4 * MS, 12);
	for (u64 i = 0; i < 3; i++)
		ev_at(r, "noise", T0 + 9950 * US + i * 10 * US, 13 + i);
	ev_at(r, "finish", T0 + 10 * MS, 0);
	/* a fast pair after it, and events past the window */
	ev_at(r, "begin", T0 + 20 * MS, 0);
	ev_at(r, "noise", T0 + 20 * MS + 5 * US, 16);
	ev_at(r, "finish", T0 + 21 * MS, 0);
}

/* The lines of @out that hold @part, in order, joined by '|' into @buf. */
static const char *grep(const char *out, const char *part, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const char *p = out; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (memmem(p, l, part, strlen(part)) && n + l + 2 < len) {
			if (n)
				buf[n++] = '|';
			memcpy(buf + n, p, l);
			n += l;
			buf[n] = '\0';
		}
		p = e ? e + 1 : NULL;
	}
	return buf;
}

/* The line after the first that holds @part holds @next. */
static bool next_line_has(const char *out, const char *part, const char *next)
{
	const char *p = strstr(out, part), *nl = p ? strchr(p, '\n') : NULL;
	const char *end = nl ? strchr(nl + 1, '\n') : NULL;
	const char *hit = nl ? strstr(nl + 1, next) : NULL;

	return hit && (!end || hit < end);
}

static int count(const char *out, const char *part)
{
	int n = 0;

	for (const char *p = out; (p = strstr(p, part)); p += strlen(part))
		n++;
	return n;
}

static const char *const args_hide = "-e t:begin -e t:finish -e t:noise//untraced/ --than 5ms "
				     "--detail=hide<100us";

static void test_text(void)
{
	struct synth_run r;
	const char *out;
	char b[4096];

	CHECK(synth_run__start(&r, "multi-trace", args_hide,
			       &(struct synth_run_opts){ .fmts = fmts }) == 0,
	      "start: %s", synth_run__err(&r));
	records(&r);
	out = synth_run__finish(&r);
	CHECK_INT(count(out, "t:begin => t:finish: "), 1);
	/*
	 * S, n=1, n=2 (1 ms after n=1), n=3..10 folded, n=11 (the run's last),
	 * n=12, n=13, n=14 folded, n=15, E
	 */
	grep(out, "n=", b, sizeof(b));
	CHECK(count(b, "|") == 7, "8 event lines in the timeline: %s\n%s", b, out);
	CHECK(strstr(b, "S +") == b && strstr(b, "t:begin: n=0"), "starts with S: %s", b);
	CHECK(strstr(b, "t:noise: n=1|") && strstr(b, "t:noise: n=2|") &&
		      strstr(b, "t:noise: n=11|") && strstr(b, "t:noise: n=12|") &&
		      strstr(b, "t:noise: n=13|") && strstr(b, "t:noise: n=15|"),
	      "n=1, 2, 11, 12, 13, 15 shown: %s", b);
	for (int n = 3; n <= 10; n++) {
		char w[32];

		snprintf(w, sizeof(w), "n=%d|", n);
		CHECK(!strstr(b, w), "n=%d hidden: %s", n, b);
	}
	CHECK(!strstr(b, "n=14|"), "n=14 hidden: %s", b);
	CHECK(strstr(b, "E +") && strstr(b, "t:finish: n=0") && !strstr(b, "n=16"),
	      "ends with E, nothing of the fast pair: %s", b);
	grep(out, "closer than hide<", b, sizeof(b));
	CHECK(count(b, "|") == 1 && strstr(b, "... 8 events, each closer than hide<|") &&
		      strstr(b, "... 1 event closer than hide<"),
	      "two folded runs, 8 then 1: %s\n%s", b, out);
	/* each "..." line is followed by its run's last event */
	CHECK(next_line_has(out, "... 8 events", "t:noise: n=11") &&
		      next_line_has(out, "... 1 event ", "t:noise: n=15"),
	      "the run's last event after its '...' line\n%s", out);
	synth_run__cleanup(&r);

	/* without hide<: every event */
	CHECK(synth_run__start(&r, "multi-trace",
			       "-e t:begin -e t:finish -e t:noise//untraced/ --than 5ms --detail",
			       &(struct synth_run_opts){ .fmts = fmts }) == 0,
	      "start: %s", synth_run__err(&r));
	records(&r);
	out = synth_run__finish(&r);
	grep(out, "n=", b, sizeof(b));
	CHECK(count(b, "|") == 16, "without hide<: 17 event lines: %s", b);
	CHECK(!strstr(out, "closer than hide<"), "no folded run\n%s", out);
	synth_run__cleanup(&r);

	/* hide< wider than every gap but the first: all noise after n=1 folds into one run */
	CHECK(synth_run__start(&r, "multi-trace",
			       "-e t:begin -e t:finish -e t:noise//untraced/ --than 5ms "
			       "--detail=hide<6ms",
			       &(struct synth_run_opts){ .fmts = fmts }) == 0,
	      "start: %s", synth_run__err(&r));
	records(&r);
	out = synth_run__finish(&r);
	grep(out, "n=", b, sizeof(b));
	CHECK(count(b, "|") == 2 && strstr(b, "n=15|"), "hide<6ms: S, the run's last (n=15), E: %s",
	      b);
	CHECK(strstr(out, "... 14 events, each closer than hide<"), "one run of 15, 14 folded\n%s",
	      out);
	synth_run__cleanup(&r);
}

/* --dump DIR: test_json's output in DIR/detail.json (to compare builds) */
static const char *dump_dir;

static void test_json(void)
{
	struct synth_run r;
	const char *out;
	char b[8192];

	CHECK(synth_run__start(&r, "multi-trace", args_hide,
			       &(struct synth_run_opts){ .fmts = fmts, .json = true }) == 0,
	      "start: %s", synth_run__err(&r));
	records(&r);
	out = synth_run__finish(&r);
	if (dump_dir) {
		FILE *fp;

		snprintf(b, sizeof(b), "%s/detail.json", dump_dir);
		fp = fopen(b, "w");
		CHECK(fp != NULL, "%s", b);
		if (fp) {
			fputs(out, fp);
			fclose(fp);
		}
	}
	grep(out, "\"type\":\"slow\"", b, sizeof(b));
	CHECK(b[0] && !strchr(b, '|'), "one slow record: %s\n%s", b, out);
	CHECK_INT(count(b, "\"offset_ns\":"), 8);
	CHECK(strstr(b, "{\"mark\":\"S\",\"offset_ns\":0,"), "S at 0: %s", b);
	CHECK(strstr(b, "{\"hidden\":8,\"offset_ns\":2090000,"), "n=11 closes a run of 9: %s", b);
	CHECK(strstr(b, "{\"hidden\":1,\"offset_ns\":9970000,"), "n=15 closes a run of 2: %s", b);
	CHECK(strstr(b, "{\"mark\":\"E\",\"offset_ns\":10000000,"), "E at 10 ms: %s", b);
	CHECK_INT(count(b, "\"hidden\":"), 2);
	synth_run__cleanup(&r);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--dump"))
		dump_dir = argv[2];
	test_text();
	test_json();
	return ut_done("test_detail");
}
