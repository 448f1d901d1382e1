// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the stdin of `perf-prof --symbols BINARY` (maps lines,
 * 0x addresses, anything else), against /bin/true (small: its symbols are
 * loaded for each input).  Checked: one answer per question (an address or
 * a bad line) and none for a maps or blank line, as the caller pairs the
 * answers with its lines by their order; as many reports as bad lines (up
 * to SYMBOLS_SHOW_BAD, then one count).  Maps lines naming files are left
 * out (a path could name a FIFO here).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym/stack.h"

static size_t count_nl(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out_text = NULL, *err_text = NULL, *in_text;
	size_t out_len = 0, err_len = 0, reports;
	struct symbols_stats ss;
	FILE *in, *out, *err;

	if (!size || memchr(data, '/', size))
		return 0;
	in_text = malloc(size);
	if (!in_text)
		return 0;
	memcpy(in_text, data, size);
	in = fmemopen(in_text, size, "r");
	out = open_memstream(&out_text, &out_len);
	err = open_memstream(&err_text, &err_len);
	if (in && out && err && !symbols__main("/bin/true", in, out, err, &ss)) {
		fflush(out);
		fflush(err);
		if (count_nl(out_text, out_len) != ss.addrs + ss.bad)
			abort();
		reports = ss.bad > SYMBOLS_SHOW_BAD ? SYMBOLS_SHOW_BAD + 1 : ss.bad;
		if (count_nl(err_text, err_len) != reports || !ss.bad != !ss.first_bad)
			abort();
	}
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	free(out_text);
	free(err_text);
	free(in_text);
	return 0;
}
