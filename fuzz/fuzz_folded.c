// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: folded stack files (the input of `perf-prof flamegraph`,
 * often made by other tools) through the parser and the SVG writer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/ftrie.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long lines, bad;
	struct ftrie t;
	FILE *in;

	if (!size)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	in = fmemopen((void *)data, size, "r");
	if (!in || !devnull || ftrie__init(&t)) {
		if (in)
			fclose(in);
		return 0;
	}
	if (!ftrie__read_folded(&t, in, &lines, &bad)) {
		flame_svg__write(&t, devnull, "fuzz <&>", "samples");
		ftrie__write_folded(&t, devnull);
	}
	fclose(in);
	ftrie__exit(&t);
	return 0;
}
