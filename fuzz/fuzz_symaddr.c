// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the two text parsers of sym/symaddr on arbitrary bytes.
 * /proc/PID/maps is untrusted (the paths are whatever names the watched
 * process gave its files: any bytes but a newline, of any length), and
 * kallsyms text is read the same way.  The first byte picks the parser;
 * the rest is the text.  Checked: every file parsed is a path from '/',
 * once, with start < end; a symbol found is the name asked for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym/symaddr.h"

static void maps(const uint8_t *data, size_t size)
{
	struct symaddr_file *f = NULL;
	int nr = 0;
	FILE *fp = fmemopen((void *)data, size, "r");

	if (!fp)
		return;
	if (!symaddr__parse_maps(fp, &f, &nr)) {
		for (int i = 0; i < nr; i++) {
			if (f[i].path[0] != '/' || f[i].start >= f[i].end ||
			    strchr(f[i].path, '\n'))
				abort();
			for (int j = 0; j < i; j++)
				if (!strcmp(f[i].path, f[j].path))
					abort();
		}
		symaddr__free_files(f, nr);
	}
	fclose(fp);
}

static void kallsyms(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "watchdog_timer_fn", "a", "_stext", "" };
	struct symaddr sa;
	char name[64];
	size_t n = 0;
	FILE *fp;

	/* a name from the input's last word too: lets the fuzzer make lines that match */
	while (n + 1 < sizeof(name) && n < size && data[size - 1 - n] > ' ' &&
	       data[size - 1 - n] < 0x7f) {
		name[n] = (char)data[size - 1 - n];
		n++;
	}
	name[n] = '\0';
	for (int i = 0; i < 5; i++) {
		const char *want = i < 4 ? names[i] : name;

		fp = fmemopen((void *)data, size, "r");
		if (!fp)
			return;
		memset(&sa, 0, sizeof(sa));
		if (!symaddr__parse_kallsyms(fp, want, &sa) && (!*want || !sa.kernel))
			abort();
		fclose(fp);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* fmemopen refuses a size of 0 (before glibc 2.22) and reads no further than size */
	uint8_t *copy;

	if (size < 2)
		return 0;
	copy = malloc(size - 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (data[0] & 1)
		maps(copy, size - 1);
	else
		kallsyms(copy, size - 1);
	free(copy);
	return 0;
}
