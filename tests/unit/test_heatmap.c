// SPDX-License-Identifier: GPL-2.0
/*
 * Latency heat maps: the .lat lines heatmap__add writes, the grid the SVG
 * is drawn on (columns, log2 rows, counts in the hover titles), the
 * escaped title, and the errors (empty, no valid line, bad lines counted, missing input,
 * a write error remembered until close).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/heatmap.h"
#include "ut.h"

#define US 1000ULL
#define MS 1000000ULL
#define SEC 1000000000ULL

static char dir[] = "/tmp/pp-heatmap.XXXXXX";

static char *path(const char *name)
{
	static char buf[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

/* The whole of @file (NUL-terminated; NULL if it cannot be read). */
static char *slurp(const char *file)
{
	FILE *fp = fopen(file, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *mem;

	if (!fp)
		return NULL;
	mem = open_memstream(&buf, &len);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		fwrite(chunk, 1, n, mem);
	fclose(fp);
	fclose(mem);
	return buf;
}

static void spit(const char *file, const char *text, size_t len)
{
	FILE *fp = fopen(file, "w");

	if (!fp)
		return;
	fwrite(text, 1, len, fp);
	fclose(fp);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; hay && (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_write_lines(void)
{
	struct heatmap *h = heatmap__open(path("w.lat"));
	char *text;

	CHECK(h != NULL, "open");
	if (!h)
		return;
	CHECK_INT(heatmap__add(h, 123, 456), 0);
	CHECK_INT(heatmap__add(h, 0, 0), 0);
	CHECK_INT(heatmap__add(h, UINT64_MAX, UINT64_MAX), 0);
	CHECK_INT(heatmap__close(h, NULL, NULL), 0);
	text = slurp(path("w.lat"));
	CHECK_STR(text, "123 456\n0 0\n18446744073709551615 18446744073709551615\n");
	free(text);

	/* no pair, no SVG: -ENODATA and nothing written */
	h = heatmap__open(path("none.lat"));
	CHECK(h != NULL, "open");
	CHECK_INT(heatmap__close(h, path("none.svg"), NULL), -ENODATA);
	CHECK(access(path("none.lat"), F_OK) == 0, "empty .lat left");
	CHECK(access(path("none.svg"), F_OK) != 0, "no SVG");

	errno = 0;
	CHECK(heatmap__open(path("nodir/x.lat")) == NULL && errno == ENOENT, "missing dir: %d",
	      errno);

	/* a write error is returned by add (once it shows) and by close */
	if (access("/dev/full", W_OK) == 0) {
		int err = 0;

		h = heatmap__open("/dev/full");
		CHECK(h != NULL, "open /dev/full");
		for (int i = 0; h && i < 100000 && !err; i++)
			err = heatmap__add(h, (uint64_t)i, 1);
		CHECK_INT(err, -ENOSPC);
		if (h)
			CHECK_INT(heatmap__close(h, path("full.svg"), NULL), -ENOSPC);
		CHECK(access(path("full.svg"), F_OK) != 0, "no SVG after a write error");
	} else {
		printf("# no /dev/full: write errors not exercised\n");
	}
}

/*
 * 100 pairs of 1.5ms in the first 100us, one of 100us at +5s and at +10s:
 * 10s in columns of 100ms (50ms would need 201), rows 2^16..2^20.
 */
static void test_svg(void)
{
	const uint64_t t0 = 7 * SEC;
	struct heatmap *h = heatmap__open(path("a.lat"));
	char *svg;

	CHECK(h != NULL, "open");
	if (!h)
		return;
	for (int i = 0; i < 100; i++)
		heatmap__add(h, t0 + (uint64_t)i * US, 1500 * US);
	heatmap__add(h, t0 + 10 * SEC, 100 * US);
	heatmap__add(h, t0 + 5 * SEC, 100 * US);
	CHECK_INT(heatmap__close(h, path("a.svg"), "a<b> & \"c'"), 0);
	svg = slurp(path("a.svg"));
	CHECK(svg != NULL, "SVG written");
	if (!svg)
		return;
	CHECK(strncmp(svg, "<?xml", 5) == 0, "XML declaration");
	CHECK(strstr(svg, "</svg>\n") != NULL, "complete");
	CHECK_INT(count(svg, "<rect class=\"c\""), 3);
	CHECK_INT(count(svg, "<title>"), 3);
	CHECK(strstr(svg, "<title>time +0.000s..+0.100s, latency 1.048ms..2.097ms: 100 pairs"
			  "</title>"),
	      "the 1.5ms cell");
	CHECK(strstr(svg, "<title>time +5.000s..+5.100s, latency 65.536us..131.072us: 1 pair"
			  "</title>"),
	      "the +5s cell");
	CHECK(strstr(svg, "<title>time +10.000s..+10.100s, latency 65.536us..131.072us: 1 pair"
			  "</title>"),
	      "the last column");
	CHECK(strstr(svg, ">a&lt;b&gt; &amp; &quot;c&apos;</text>"), "title escaped");
	CHECK(strstr(svg, "102 pairs over 10.000s"), "subtitle");
	CHECK(strstr(svg, "columns of 100.000ms"), "column width");
	CHECK(strstr(svg, "max 100)"), "legend max");
	/* rows labelled 1, 2, 4 ... of a unit (2^16 ns: 64us; 2^20 ns: 1ms), titles exact */
	CHECK(strstr(svg, "text-anchor=\"end\">64us</text>"), "the 65.536us row: 64us");
	CHECK(strstr(svg, "text-anchor=\"end\">128us</text>"), "the 131.072us row: 128us");
	CHECK(strstr(svg, "text-anchor=\"end\">512us</text>"), "the 524.288us row: 512us");
	CHECK(strstr(svg, "text-anchor=\"end\">1ms</text>"), "the 1.048ms row: 1ms");
	CHECK(strstr(svg, "text-anchor=\"end\">2ms</text>"), "the 2.097ms row: 2ms");
	CHECK(!strstr(svg, "text-anchor=\"end\">1.048ms</text>"), "no raw bound as a label");
	CHECK(strstr(svg, "latency (log2 rows; 1us = 1024ns, 1ms = 1024us)</text>"),
	      "the axis says how labels round");
	/* the fullest cell the darkest, a single pair the palest */
	CHECK(strstr(svg, "fill=\"rgb(150,0,25)\"><title>time +0.000s"), "darkest");
	CHECK(strstr(svg, "fill=\"rgb(255,240,150)\"><title>time +5.000s"), "palest");
	free(svg);

	/* the same file again, directly: the same SVG */
	CHECK_INT(heatmap__lat_to_svg(path("a.lat"), path("b.svg"), "a<b> & \"c'", NULL), 0);
	svg = slurp(path("a.svg"));
	{
		char *again = slurp(path("b.svg"));

		CHECK(svg && again && strcmp(svg, again) == 0, "deterministic");
		free(again);
	}
	free(svg);
}

static void test_input_forms(void)
{
	static const char text[] = "# time latency\n"
				   "\n"
				   "  2000000 \t 0\r\n"
				   "1000000 1\n"
				   "\t3000000 3 \n"
				   "1000500 2"; /* no final newline */
	struct lat_stats st;
	char *svg;

	spit(path("forms.lat"), text, sizeof(text) - 1);
	CHECK_INT(heatmap__lat_to_svg(path("forms.lat"), path("forms.svg"), NULL, &st), 0);
	CHECK(st.lines == 4 && !st.bad, "%lu lines, %lu bad", st.lines, st.bad);
	svg = slurp(path("forms.svg"));
	/* 2ms in 20us columns (10us would need 201), rows [0, 2) and [2, 4) */
	CHECK(svg && strstr(svg, ">Latency Heat Map</text>"), "default title");
	CHECK_INT(count(svg, "<rect class=\"c\""), 4);
	CHECK(svg && strstr(svg, "<title>time +0.00000s..+0.00002s, latency 0ns..2ns: 1 pair<"),
	      "latency 1 in the lowest row");
	CHECK(svg && strstr(svg, "<title>time +0.00000s..+0.00002s, latency 2ns..4ns: 1 pair<"),
	      "unsorted times, no final newline");
	CHECK(svg && strstr(svg, "<title>time +0.00100s..+0.00102s, latency 0ns..2ns: 1 pair<"),
	      "latency 0 in the lowest row");
	CHECK(svg && strstr(svg, "<title>time +0.00200s..+0.00202s, latency 2ns..4ns: 1 pair<"),
	      "last column");
	CHECK(svg && strstr(svg, "columns of 20.000us"), "101 columns of 20us");
	free(svg);

	/* one pair: one column, one row */
	spit(path("one.lat"), "5 1500\n", 7);
	CHECK_INT(heatmap__lat_to_svg(path("one.lat"), path("one.svg"), "", NULL), 0);
	svg = slurp(path("one.svg"));
	CHECK_INT(count(svg, "<rect class=\"c\""), 1);
	CHECK(svg && strstr(svg, "latency 1.024us..2.048us: 1 pair<"), "one pair");
	free(svg);

	/* extremes: the whole 64-bit range in at most 200 columns and 64 rows */
	spit(path("ext.lat"), "0 0\n18446744073709551615 18446744073709551615\n", 46);
	CHECK_INT(heatmap__lat_to_svg(path("ext.lat"), path("ext.svg"), NULL, NULL), 0);
	svg = slurp(path("ext.svg"));
	CHECK_INT(count(svg, "<rect class=\"c\""), 2);
	CHECK(svg && strstr(svg, "latency 9223372036.854s..18446744073.709s: 1 pair<"), "top row");
	CHECK(svg && strstr(svg, "columns of 100000000.000s"), "widest columns");
	/* every other row labelled: 0, 4ns ... 1us (2^10), 1ms, 1s, 1024s (2^40), 2^64 ns */
	{
		static const char *const lab[] = { "0",	  "4ns", "256ns", "1us",   "4us",
						   "1ms", "1s",	 "4s",	  "1024s", "17179869184s" };

		for (size_t i = 0; i < sizeof(lab) / sizeof(lab[0]); i++) {
			char want[64];

			snprintf(want, sizeof(want), "text-anchor=\"end\">%s</text>", lab[i]);
			CHECK(svg && strstr(svg, want), "label %s", lab[i]);
		}
	}
	free(svg);
}

/* Many pairs: the grid stays at most 200 x 64 and the counts add up. */
static void test_many(void)
{
	struct heatmap *h = heatmap__open(path("many.lat"));
	unsigned long long sum = 0;
	char *svg, *p;
	int cells;

	CHECK(h != NULL, "open");
	if (!h)
		return;
	srand(7);
	for (int i = 0; i < 200000; i++)
		heatmap__add(h, (uint64_t)i * 50 * US, (uint64_t)(rand() % 1000000) * 37 + 1);
	CHECK_INT(heatmap__close(h, path("many.svg"), NULL), 0);
	svg = slurp(path("many.svg"));
	cells = count(svg, "<rect class=\"c\"");
	CHECK(cells > 200 && cells <= 200 * 64, "%d cells", cells);
	for (p = svg; p && (p = strstr(p, "</title>")); p++) {
		const char *q = p;

		while (q > svg && q[-1] != ' ')
			q--;
		while (q > svg && q[-1] == ' ')
			q--;
		while (q > svg && q[-1] >= '0' && q[-1] <= '9')
			q--;
		sum += strtoull(q, NULL, 10);
	}
	CHECK_INT(sum, 200000);
	CHECK(svg && strstr(svg, "columns of 50.000ms"), "10s in 50ms columns");
	free(svg);
}

static void test_errors(void)
{
	/* bad lines are skipped and counted; a file without a valid line is refused */
	static const struct {
		const char *text;
		unsigned long first, bad;
		int ret;
	} bad[] = {
		{ "1 2\n3 4\nx 5\n", 3, 1, 0 },
		{ "1 2\n3\n", 2, 1, 0 },
		{ "1 2 3\n", 1, 1, -EINVAL },
		{ "-1 2\n", 1, 1, -EINVAL },
		{ "1 +2\n", 1, 1, -EINVAL },
		{ "1,2\n", 1, 1, -EINVAL },
		{ "1 2.5\n5 6\n", 1, 1, 0 },
		{ "\n\n1 18446744073709551616\n", 3, 1, -EINVAL },
		{ "# c\n1 2ms\n1 nan\n7 8\n", 2, 2, 0 },
		{ "1 2\n12345678901234567890123456789012345678901234567890123456789012345678901"
		  "234567890123456789012345678901234567890123456789012345678901234567890 1\n",
		  2, 1, 0 },
	};
	struct lat_stats st;
	char *svg;

	spit(path("empty.lat"), "", 0);
	CHECK_INT(heatmap__lat_to_svg(path("empty.lat"), path("empty.svg"), NULL, &st), -ENODATA);
	spit(path("blank.lat"), "\n# only a comment\n  \n", 21);
	CHECK_INT(heatmap__lat_to_svg(path("blank.lat"), path("empty.svg"), NULL, &st), -ENODATA);
	CHECK(access(path("empty.svg"), F_OK) != 0, "no SVG for an empty .lat");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		spit(path("bad.lat"), bad[i].text, strlen(bad[i].text));
		unlink(path("bad.svg"));
		CHECK_INT(heatmap__lat_to_svg(path("bad.lat"), path("bad.svg"), NULL, &st),
			  bad[i].ret);
		CHECK(st.first_bad == bad[i].first && st.bad == bad[i].bad,
		      "case %zu: %lu bad from line %lu, not %lu from %lu", i, st.bad, st.first_bad,
		      bad[i].bad, bad[i].first);
		CHECK((access(path("bad.svg"), F_OK) == 0) == !bad[i].ret, "case %zu: SVG or not",
		      i);
	}
	/* an unfinished last line of a live file is left out, a finished one is not */
	spit(path("live.lat"), "1 2\n3 4\n5", 9);
	CHECK_INT(heatmap__lat_to_svg(path("live.lat"), path("live.svg"), NULL, &st), 0);
	CHECK_INT(st.bad, 0);
	svg = slurp(path("live.svg"));
	CHECK(svg && strstr(svg, "2 pairs over"), "the unfinished line left out");
	free(svg);
	spit(path("live.lat"), "5 ", 2);
	CHECK_INT(heatmap__lat_to_svg(path("live.lat"), path("live.svg"), NULL, &st), -ENODATA);

	/* a NUL in a line: skipped like any other bad line */
	spit(path("bad.lat"), "1 2\n3 4\0\n", 9);
	CHECK_INT(heatmap__lat_to_svg(path("bad.lat"), path("bad.svg"), NULL, &st), 0);
	CHECK(st.bad == 1 && st.first_bad == 2, "NUL: %lu bad from line %lu", st.bad, st.first_bad);
	spit(path("bad.lat"), "x\n\0\n", 4);
	unlink(path("bad.svg"));
	CHECK_INT(heatmap__lat_to_svg(path("bad.lat"), path("bad.svg"), NULL, &st), -EINVAL);
	CHECK(access(path("bad.svg"), F_OK) != 0, "no SVG for a .lat without a valid line");

	CHECK_INT(heatmap__lat_to_svg(path("missing.lat"), path("m.svg"), NULL, NULL), -ENOENT);
	CHECK_INT(heatmap__lat_to_svg(dir, path("m.svg"), NULL, NULL), -EISDIR);
	CHECK_INT(heatmap__lat_to_svg(path("one.lat"), path("nodir/x.svg"), NULL, NULL), -ENOENT);

	/* a failed run leaves the old SVG as it was */
	spit(path("keep.svg"), "old", 3);
	CHECK_INT(heatmap__lat_to_svg(path("bad.lat"), path("keep.svg"), NULL, NULL), -EINVAL);
	svg = slurp(path("keep.svg"));
	CHECK_STR(svg, "old");
	free(svg);
}

/* A map of numbers (num-dist's): the .lat says so, the SVG shows values and events */
static void test_numbers(void)
{
	struct heatmap *h = heatmap__open_numbers(path("n.lat"));
	char *svg, *lat;

	CHECK(h != NULL, "open");
	if (!h)
		return;
	for (int i = 1; i <= 100; i++)
		heatmap__add(h, SEC + (uint64_t)i * US, (uint64_t)i);
	heatmap__add(h, SEC + 200 * US, 1500);
	CHECK_INT(heatmap__close(h, path("n.svg"), NULL), 0);
	lat = slurp(path("n.lat"));
	CHECK(lat && !strncmp(lat, HEATMAP_NUMBERS_LINE "\n1000001000 1\n",
			      strlen(HEATMAP_NUMBERS_LINE) + 14),
	      "the .lat: its first line, then TIME NUMBER");
	free(lat);
	svg = slurp(path("n.svg"));
	CHECK(svg && strstr(svg, ">Value Heat Map</text>"), "default title");
	CHECK(svg && strstr(svg, ">101 events over 0.000s, value 1..1500 (first event at "),
	      "subtitle: events and values");
	CHECK(svg && strstr(svg, ", value 1024..2048: 1 event</title>"), "the 1500 cell, exact");
	CHECK(svg && strstr(svg, ", value 64..128: "), "a cell of the 64..127 row");
	CHECK(svg && !strstr(svg, "latency") && !strstr(svg, "pair"), "no latency, no pair");
	CHECK(svg && strstr(svg, "text-anchor=\"end\">1K</text>"), "the 1024 row: 1K");
	CHECK(svg && strstr(svg, "text-anchor=\"end\">512</text>"), "the 512 row: 512");
	CHECK(svg && strstr(svg, "text-anchor=\"end\">2K</text>"), "the top: 2K");
	CHECK(svg && strstr(svg, "value (log2 rows; 1K = 1024, 1M = 1024K)</text>"), "the axis");
	CHECK(svg && strstr(svg, "events per cell (log scale"), "the legend");
	free(svg);
	/* the same .lat drawn again (the heatmap command's way): the same map */
	CHECK_INT(heatmap__lat_to_svg(path("n.lat"), path("n2.svg"), NULL, NULL), 0);
	svg = slurp(path("n.svg"));
	lat = slurp(path("n2.svg"));
	CHECK(svg && lat && !strcmp(svg, lat), "drawn from the .lat alone: the same");
	free(svg);
	free(lat);
	/* the line only counts first: further down it is a comment */
	spit(path("n3.lat"), "5 1500\n" HEATMAP_NUMBERS_LINE "\n",
	     7 + strlen(HEATMAP_NUMBERS_LINE) + 1);
	CHECK_INT(heatmap__lat_to_svg(path("n3.lat"), path("n3.svg"), NULL, NULL), 0);
	svg = slurp(path("n3.svg"));
	CHECK(svg && strstr(svg, "latency 1.024us..2.048us: 1 pair<"), "a latency map");
	free(svg);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_write_lines();
	test_svg();
	test_input_forms();
	test_many();
	test_errors();
	test_numbers();
	if (!ut_fail) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	} else {
		printf("# files left in %s\n", dir);
	}
	return ut_done("test_heatmap");
}
