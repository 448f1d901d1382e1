// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: folded stack files (the input of `perf-prof flamegraph`,
 * often made by other tools) through the line parser, the reader and the
 * SVG writer.  Checked: the counts agree with themselves (skipped lines,
 * first skipped line, the sum); what the reader took, written back as a
 * folded file, reads again without a skipped line and with the same sum;
 * the line parser never takes a line with a control character or a count
 * that is not all digits.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/ftrie.h"

static FILE *devnull;

/* The first line of the input through the line parser alone. */
static void check_line(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *nl = memchr(s, '\n', size);
	size_t n, i, len = nl ? (size_t)(nl - s) : size;
	uint64_t w;

	if (ftrie__parse_folded_line(s, len, &n, &w) != 1)
		return;
	if (!n || n >= len)
		abort();
	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
			abort();
	for (i = n; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	if (i == n || i == len)
		abort();
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			abort();
}

/* What the reader took, written back, reads again whole and with the same sum. */
static void round_trip(struct ftrie *t, const struct folded_stats *st)
{
	struct folded_stats st2;
	char *text = NULL;
	size_t len = 0;
	struct ftrie t2;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		return;
	if (ftrie__write_folded(t, fp) | fclose(fp) || !len) {
		free(text);
		return;
	}
	fp = fmemopen(text, len, "r");
	if (fp && !ftrie__init(&t2)) {
		if (ftrie__read_folded(&t2, fp, &st2) || st2.bad || st2.total != st->total)
			abort();
		ftrie__exit(&t2);
	}
	if (fp)
		fclose(fp);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct folded_stats st;
	struct ftrie t;
	FILE *in;
	int err;

	if (!size)
		return 0;
	check_line(data, size);
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	in = fmemopen((void *)data, size, "r");
	if (!in || !devnull || ftrie__init(&t)) {
		if (in)
			fclose(in);
		return 0;
	}
	err = ftrie__read_folded(&t, in, &st);
	fclose(in);
	if (!err) {
		if (st.bad > st.lines || !st.bad != !st.first_bad)
			abort();
		if (st.total) {
			flame_svg__write(&t, devnull, "fuzz <&>", "samples");
			round_trip(&t, &st);
		}
	}
	ftrie__exit(&t);
	return 0;
}
