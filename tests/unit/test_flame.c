// SPDX-License-Identifier: GPL-2.0
/* Folded stacks and SVG flame graphs (src/out/flame.c, ftrie.c, flame_svg.c). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ut.h"
#include "report/flame.h"
#include "report/ftrie.h"

static char dir[] = "/tmp/test_flame.XXXXXX";

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!fp)
		return NULL;
	if (getdelim(&buf, &len, '\0', fp) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(fp);
	return buf;
}

static char *path_of(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

#define U(s)                                                                        \
	{                                                                           \
		.addr = 0x1000, .sym = (s), .dso = "/usr/bin/prog", .kernel = false \
	}
#define K(s)                                                                           \
	{                                                                              \
		.addr = 0xffffffff81000000ULL, .sym = (s), .dso = "[kernel.kallsyms]", \
		.kernel = true                                                         \
	}

/* Write @f as NAME.folded and return its text. */
static char *folded_of(struct flame *f, const char *name)
{
	char *p;

	CHECK_INT(flame__write(f), 0);
	p = slurp(path_of(name));
	CHECK(p != NULL, "no %s", name);
	return p;
}

static void test_shapes(void)
{
	/* innermost first, kernel frames before user frames */
	struct frame both[] = { K("do_sys_openat2"), K("entry_SYSCALL_64"), U("open64"),
				U("load_config"), U("main") };
	struct frame user[] = { U("leaf"), U("main") };
	struct frame kern[] = { K("worker_thread"), K("ret_from_fork") };
	struct frame unk[] = { { .sym = "[unknown]", .dso = "[kernel.kallsyms]", .kernel = true },
			       { .sym = "[unknown]",
				 .dso = "/usr/lib/x86_64-linux-gnu/libfoo.so.1" },
			       { .sym = "[unknown]", .dso = "[vdso]" },
			       { .sym = "[unknown]", .dso = NULL },
			       { .sym = NULL, .dso = NULL } };
	struct flame *f = flame__new(path_of("shapes"), "t", "samples");
	char *out;

	CHECK(f != NULL, "flame__new");
	if (!f)
		return;
	flame__add(f, "prog", both, 5, NULL, 1);
	flame__add(f, "prog", both, 5, NULL, 2);
	flame__add(f, "prog", user, 2, NULL, 5);
	flame__add(f, "kworker/0:1", kern, 2, NULL, 7);
	flame__add(f, "prog", both + 2, 3, "R", 4);
	flame__add(f, "prog", both, 2, "D", 6);
	flame__add(f, "prog", unk, 5, NULL, 1);
	flame__add(f, "prog", NULL, 0, NULL, 9);
	flame__add(f, "prog", user, 2, NULL, 0); /* no weight: no line */
	flame__add(f, "a;b\nc\r", user, 1, NULL, 1);
	struct frame odd[] = { U("ns::f<a;b>(int)\n") };
	flame__add(f, NULL, odd, 1, NULL, 2);
	/* a comm may hold any byte: control characters become '?', a tab and 0xff stay */
	flame__add(f, "e\x1b\x01\x7f\tf\xff", user, 1, NULL, 3);
	out = folded_of(f, "shapes.folded");
	CHECK_STR(out, "a:b c ;leaf 1\n"
		       "e???\tf\xff;leaf 3\n"
		       "kworker/0:1;ret_from_fork_[k];worker_thread_[k] 7\n"
		       "ns::f<a:b>(int)  2\n"
		       "prog 9\n"
		       "prog;[unknown];[unknown];[vdso];[libfoo.so.1];-;[kernel.kallsyms]_[k] 1\n"
		       "prog;entry_SYSCALL_64_[k];do_sys_openat2_[k];D 6\n"
		       "prog;main;leaf 5\n"
		       "prog;main;load_config;open64;-;entry_SYSCALL_64_[k];do_sys_openat2_[k] 3\n"
		       "prog;main;load_config;open64;R 4\n");
	free(out);
	flame__delete(f);
}

static void test_names(void)
{
	struct flame *f;

	f = flame__new(path_of("x.svg"), NULL, NULL);
	CHECK(f != NULL, "svg name");
	flame__delete(f);
	f = flame__new(path_of("y.folded"), NULL, NULL);
	CHECK(f != NULL, "folded name");
	flame__add(f, "c", NULL, 0, NULL, 1);
	CHECK_INT(flame__write(f), 0);
	CHECK(access(path_of("y.folded"), F_OK) == 0, "y.folded written as named");
	CHECK(access(path_of("y.folded.folded"), F_OK) != 0, "no double suffix");
	flame__delete(f);
	errno = 0;
	CHECK(flame__new(NULL, NULL, NULL) == NULL && errno == EINVAL, "NULL name");
	CHECK(flame__new("", NULL, NULL) == NULL, "empty name");
	/* NULL-safe for profilers without --flame-graph */
	flame__add(NULL, "c", NULL, 0, NULL, 1);
	flame__interval(NULL, "x");
	flame__delete(NULL);
	CHECK_INT(flame__write(NULL), -EINVAL);
	errno = 0;
	CHECK(flame__new("/nonexistent-dir/z", NULL, NULL) == NULL && errno == ENOENT,
	      "unwritable output fails early: %d", errno);
	CHECK(flame__new("/nonexistent-dir/z.svg", NULL, NULL) == NULL, "unwritable svg");
	/* Empty comm and leaf add no frame. */
	f = flame__new(path_of("e"), NULL, NULL);
	struct frame one[] = { U("main") };
	flame__add(f, "", one, 1, "", 2);
	char *out = folded_of(f, "e.folded");
	CHECK_STR(out, "main 2\n");
	free(out);
	flame__delete(f);
	/* A caller reusing one buffer for different names still gets each name. */
	f = flame__new(path_of("reuse"), NULL, NULL);
	char buf[32], dso[32];
	struct frame r[] = { { .sym = buf, .dso = dso } };
	static const char unknown[] = "[unknown]";
	for (int i = 0; i < 3; i++) {
		snprintf(buf, sizeof(buf), "fn%d", i % 2);
		snprintf(dso, sizeof(dso), "/lib/a.so");
		flame__add(f, "c", r, 1, NULL, 1);
		r[0].sym = unknown;
		snprintf(dso, sizeof(dso), "/lib/lib%d.so", i % 2);
		flame__add(f, "c", r, 1, NULL, 10);
		r[0].sym = buf;
	}
	out = folded_of(f, "reuse.folded");
	CHECK_STR(out, "c;[lib0.so] 20\nc;[lib1.so] 10\nc;fn0 2\nc;fn1 1\n");
	free(out);
	flame__delete(f);
	/* Nothing added: an empty file, no error. */
	f = flame__new(path_of("none"), NULL, NULL);
	out = folded_of(f, "none.folded");
	CHECK_STR(out, "");
	free(out);
	flame__delete(f);
}

static void test_intervals(void)
{
	struct frame st[] = { K("schedule"), U("main") };
	struct flame *f = flame__new(path_of("iv"), "t", "ms");
	char *out;

	flame__add(f, "p", st, 2, NULL, 1); /* before the first interval: no timestamp */
	flame__interval(f, "2026-11-21 10:00:00");
	flame__add(f, "p", st, 2, NULL, 2);
	flame__add(f, "q", st, 1, NULL, 3);
	flame__add(f, "p", st, 2, NULL, 4);
	flame__interval(f, "2026-11-21 10:00:01");
	flame__interval(f, "2026-11-21 10:00:02"); /* empty interval: no lines */
	flame__add(f, "p", st, 2, NULL, 5);
	out = folded_of(f, "iv.folded");
	CHECK_STR(out, "p;main;-;schedule_[k] 1\n"
		       "2026-11-21 10:00:00;p;main;-;schedule_[k] 6\n"
		       "2026-11-21 10:00:00;q;schedule_[k] 3\n"
		       "2026-11-21 10:00:02;p;main;-;schedule_[k] 5\n");
	free(out);
	flame__delete(f);

	/* The SVG keeps every interval, each under its timestamp frame. */
	f = flame__new(path_of("iv.svg"), "Intervals", "ms");
	flame__interval(f, "2026-11-21 10:00:00");
	flame__add(f, "p", st, 2, NULL, 2);
	flame__interval(f, "2026-11-21 10:00:01");
	flame__add(f, "p", st, 2, NULL, 3);
	CHECK_INT(flame__write(f), 0);
	out = slurp(path_of("iv.svg"));
	CHECK(out && strstr(out, "<title>2026-11-21 10:00:00 (2 ms, 40.00%)</title>"), "ts 0");
	CHECK(out && strstr(out, "<title>2026-11-21 10:00:01 (3 ms, 60.00%)</title>"), "ts 1");
	CHECK(out && strstr(out, "<title>all (5 ms, 100.00%)</title>"), "all");
	free(out);
	flame__delete(f);
}

/* Weights add up, and many distinct stacks come out sorted and complete. */
static void test_weights(void)
{
	static const char *const syms[] = { "alpha", "beta", "gamma", "delta" };
	struct flame *f = flame__new(path_of("w"), NULL, NULL);
	unsigned long long sum = 0, expect = 0, lines = 0;
	char *out, *line, *save, *prev = NULL;

	for (int i = 0; i < 4096; i++) {
		struct frame st[6];

		for (int d = 0; d < 6; d++)
			st[d] = (struct frame)U(syms[(i >> (2 * d)) & 3]);
		flame__add(f, "w", st, 6, NULL, i + 1);
		flame__add(f, "w", st, 6, NULL, 1);
		expect += i + 2;
	}
	out = folded_of(f, "w.folded");
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		sum += strtoull(strrchr(line, ' ') + 1, NULL, 10);
		if (prev && strcmp(prev, line) >= 0)
			CHECK(0, "not sorted: '%s' then '%s'", prev, line);
		prev = line;
		lines++;
	}
	CHECK_INT(lines, 4096);
	CHECK_INT(sum, expect);
	free(out);
	flame__delete(f);
}

static void test_svg(void)
{
	char in[256], svg[256], *out;
	FILE *fp;

	snprintf(in, sizeof(in), "%s", path_of("in.folded"));
	fp = fopen(in, "w");

	fprintf(fp, "prog;main;work;-;sys_write_[k] 30\n"
		    "prog;main;work 60\r\n"
		    "\n"
		    "prog;main;idle 9\n"
		    "prog;main;tiny 1\n"
		    "prog;a<b>&\"c'\xff 10\n"
		    "garbage line\n");
	fclose(fp);
	snprintf(svg, sizeof(svg), "%s", path_of("out.svg"));
	CHECK_INT(flame__folded_to_svg(in, svg, "My <Title>", "bytes", NULL), 0);
	out = slurp(svg);
	CHECK(out != NULL, "svg written");
	if (!out)
		return;
	CHECK(strstr(out, "<title>all (110 bytes, 100.00%)</title>"), "total");
	CHECK(strstr(out, "<title>work (90 bytes, 81.82%)</title>"), "work");
	CHECK(strstr(out, "<title>sys_write_[k] (30 bytes, 27.27%)</title>"), "kernel frame");
	CHECK(strstr(out, "<title>a&lt;b&gt;&amp;&quot;c&apos;? (10 bytes, 9.09%)</title>"),
	      "escaped");
	CHECK(strstr(out, ">My &lt;Title&gt;</text>"), "title");
	CHECK(strstr(out, "<title>tiny (1 bytes, 0.91%)</title>"), "narrow but above 0.1%%");
	CHECK(strstr(out, "garbage") == NULL, "bad line skipped");
	free(out);

	/* Not a folded file at all. */
	fp = fopen(in, "w");
	fprintf(fp, "hello\nworld\n");
	fclose(fp);
	CHECK_INT(flame__folded_to_svg(in, svg, NULL, NULL, NULL), -EINVAL);
	CHECK_INT(flame__folded_to_svg(path_of("missing"), svg, NULL, NULL, NULL), -ENOENT);
	/* Empty input: an error, not an empty graph, and no output file. */
	fp = fopen(in, "w");
	fclose(fp);
	unlink(svg);
	CHECK_INT(flame__folded_to_svg(in, svg, NULL, NULL, NULL), -ENODATA);
	CHECK(access(svg, F_OK) != 0, "no SVG written for empty input");
	/* A directory says so (getline's EISDIR, not EIO). */
	CHECK_INT(flame__folded_to_svg("/", svg, NULL, NULL, NULL), -EISDIR);
	/* Weights beyond 64 bits, alone or summed, are refused with their line. */
	{
		static const char *const over[] = {
			"a;b 1\n\na;c 18446744073709551616\n",	/* 2^64: line 3 */
			"a 18446744073709551615\nb 0\nc 1\n",	/* the sum: line 3 */
			"a 1\nb 1.5\nc 20000000000000000000\n", /* a decimal skipped: line 3 */
			"a 99999999999999999999999999999999999999999\n", /* line 1 */
		};
		static const unsigned long at[] = { 3, 3, 3, 1 };
		struct folded_stats st;

		for (int i = 0; i < 4; i++) {
			fp = fopen(in, "w");
			fputs(over[i], fp);
			fclose(fp);
			st.err_line = 0;
			CHECK_INT(flame__folded_to_svg(in, svg, NULL, NULL, &st), -EOVERFLOW);
			CHECK(st.err_line == at[i], "overflow %d: line %lu, want %lu", i,
			      st.err_line, at[i]);
		}
		fp = fopen(in, "w");
		fputs("a 18446744073709551614\nb 1\n", fp); /* 2^64 - 1 in all: fits */
		fclose(fp);
		CHECK_INT(flame__folded_to_svg(in, svg, NULL, NULL, &st), 0);
		CHECK(st.total == UINT64_MAX && !st.bad, "total %llu",
		      (unsigned long long)st.total);
	}
	/* Skipped lines are counted, with the first one's number; all-zero is nothing to draw. */
	{
		struct folded_stats st;

		fp = fopen(in, "w");
		fputs("a;b 3\n\nx 1.5\nx 1e308\nx nan\nx inf\nx -3\na;c 4\nx +1\n", fp);
		fclose(fp);
		CHECK_INT(flame__folded_to_svg(in, svg, NULL, NULL, &st), 0);
		CHECK(st.lines == 8 && st.bad == 6 && st.first_bad == 3 && st.total == 7,
		      "lines %lu bad %lu first %lu total %llu", st.lines, st.bad, st.first_bad,
		      (unsigned long long)st.total);
		out = slurp(svg);
		CHECK(out && strstr(out, "<title>all (7 samples, 100.00%)</title>"), "total 7");
		free(out);
		fp = fopen(in, "w");
		fputs("a 0\nb;c 0\n", fp);
		fclose(fp);
		CHECK_INT(flame__folded_to_svg(in, svg, NULL, NULL, &st), -ENODATA);
		CHECK(st.lines == 2 && !st.bad, "all zero: %lu lines, %lu bad", st.lines, st.bad);
	}
}

/* Reading folded text: consecutive lines share frames (the reader reuses them), duplicates merge. */
static void test_read_folded(void)
{
	static const char in[] = "a;b 1\n"
				 "a;bc 2\n"
				 "a;b;c 3\n"
				 "a;b;c 30\n"
				 "a 4\n"
				 "ab;x 5\n"
				 "a;b;c;d\t6\n"
				 "a;b;cd 7\n"
				 "a;b 10\n"
				 "a;;b 8\n"
				 "no-weight\n"
				 "w -1\n"
				 "x 2.5\n"
				 "y 0\n";
	struct folded_stats st;
	struct ftrie t;
	char *out = NULL;
	size_t len = 0;
	FILE *fp = fmemopen((void *)in, sizeof(in) - 1, "r"), *o = open_memstream(&out, &len);

	CHECK_INT(ftrie__init(&t), 0);
	CHECK_INT(ftrie__read_folded(&t, fp, &st), 0);
	CHECK_INT(st.lines, 14);
	CHECK_INT(st.bad, 3);
	CHECK_INT(st.first_bad, 11);
	CHECK_INT(st.total, 76);
	CHECK_INT(ftrie__write_folded(&t, o), 0);
	fclose(o);
	CHECK_STR(out, "a 4\na;;b 8\na;b 11\na;b;c 33\na;b;c;d 6\na;b;cd 7\na;bc 2\nab;x 5\n");
	free(out);
	fclose(fp);
	ftrie__exit(&t);
}

/* The line parser: "STACK COUNT" with a whole COUNT that fits; anything else is not one. */
static void test_parse_folded_line(void)
{
	static const struct {
		const char *line;
		int ret;
		size_t stack;
		uint64_t w;
	} cases[] = {
		{ "a;b 1", 1, 3, 1 },
		{ "a;b\t\t 42", 1, 3, 42 },
		{ "a b;c d 7", 1, 7, 7 }, /* blanks inside frames */
		{ "a 0", 1, 1, 0 },	  /* zero is a count */
		{ "a 007", 1, 1, 7 },
		{ "a 18446744073709551615", 1, 1, UINT64_MAX },
		{ "a 18446744073709551616", -EOVERFLOW, 0, 0 },
		{ "a 99999999999999999999999", -EOVERFLOW, 0, 0 },
		{ "a;;b 2", 1, 4, 2 },		       /* an empty frame */
		{ "a\tb 2", 1, 3, 2 },		       /* a tab in a frame */
		{ "caf\xc3\xa9;\xff\xfe 3", 1, 8, 3 }, /* UTF-8 or not: kept */
		{ "a 1.5", 0, 0, 0 },
		{ "a 1e308", 0, 0, 0 },
		{ "a nan", 0, 0, 0 },
		{ "a inf", 0, 0, 0 },
		{ "a -3", 0, 0, 0 },
		{ "a +3", 0, 0, 0 },
		{ "a 0x10", 0, 0, 0 },
		{ "a 1 2x", 0, 0, 0 },
		{ "a", 0, 0, 0 },
		{ "42", 0, 0, 0 }, /* no stack */
		{ " 42", 0, 0, 0 },
		{ "a\x1b[31m 1", 0, 0, 0 }, /* control characters */
		{ "a\x7f 1", 0, 0, 0 },
		{ "a\x01;b 1", 0, 0, 0 },
		{ "99999999999999999999999999 x", 0, 0, 0 }, /* not a count: no overflow */
		{ "\x01 99999999999999999999999", 0, 0, 0 }, /* not a line: no overflow */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = 99;
		uint64_t w = 99;
		int r = ftrie__parse_folded_line(cases[i].line, strlen(cases[i].line), &n, &w);

		CHECK(r == cases[i].ret, "'%s': %d, want %d", cases[i].line, r, cases[i].ret);
		if (r == 1 && cases[i].ret == 1)
			CHECK(n == cases[i].stack && w == cases[i].w, "'%s': stack %zu count %llu",
			      cases[i].line, n, (unsigned long long)w);
	}
	/* a NUL byte is a control character too */
	{
		size_t n;
		uint64_t w;

		CHECK_INT(ftrie__parse_folded_line("a\0b 1", 5, &n, &w), 0);
	}
}

/* Frames under 0.1% of the width are left out of the SVG (not of the folded file). */
static void test_svg_min_width(void)
{
	struct frame big[] = { U("big") }, small[] = { U("small") };
	struct flame *f = flame__new(path_of("mw.svg"), NULL, NULL);
	char *out;

	flame__add(f, "p", big, 1, NULL, 100000);
	flame__add(f, "p", small, 1, NULL, 50);
	CHECK_INT(flame__write(f), 0);
	out = slurp(path_of("mw.svg"));
	CHECK(out && strstr(out, "<title>big "), "big kept");
	CHECK(out && !strstr(out, "<title>small "), "small omitted");
	free(out);
	flame__delete(f);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#ifndef __has_feature
#define __has_feature(x) 0
#endif

/* Under sanitizers or valgrind timings mean nothing. */
static bool slow_build(void)
{
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
	return true;
#else
	char *maps = slurp("/proc/self/maps");
	bool vg = maps && strstr(maps, "vgpreload");

	free(maps);
	return vg;
#endif
}

/* Repeated deep stacks: the common case of a profiler folding millions of samples. */
static void test_speed(void)
{
	enum { DEPTH = 32, STACKS = 64, N = 1000000 };
	static char names[STACKS][DEPTH][40];
	static struct frame st[STACKS][DEPTH];
	struct flame *f = flame__new(path_of("speed"), NULL, NULL);
	double t0, ns;

	for (int s = 0; s < STACKS; s++) {
		for (int d = 0; d < DEPTH; d++) {
			/* like a symbol table: one string per function */
			int k = d < 20 ? 0 : s;

			snprintf(names[k][d], sizeof(names[k][d]), "function_%d_at_depth_%d", k, d);
			st[s][d] = (struct frame){ .sym = names[k][d],
						   .dso = "/usr/lib/libx.so",
						   .kernel = d < 8 };
		}
	}
	t0 = now();
	for (int i = 0; i < N; i++)
		flame__add(f, "bench", st[i % STACKS], DEPTH, NULL, 1);
	ns = (now() - t0) * 1e9 / N;
	printf("# flame__add: %.0f ns/sample (%d frames)\n", ns, DEPTH);
	/* speed is bench/flame-bench.sh's to measure: a timed check flips on a busy host */
	(void)slow_build;
	CHECK_INT(flame__write(f), 0);
	flame__delete(f);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_shapes();
	test_names();
	test_intervals();
	test_weights();
	test_svg();
	test_read_folded();
	test_parse_folded_line();
	test_svg_min_width();
	test_speed();
	if (!ut_fail) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	}
	return ut_done("test_flame");
}
