// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a line of tracefs uprobe_events as usdt del and list
 * read it back ("p:GROUP/EVENT PATH:0xOFF(0xREF) ARGS"), and, where it
 * parses, what it parsed taken apart again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/uprobe_defs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a NUL-terminated copy of exactly @size bytes: a read past it is an ASan report */
	char *line = malloc(size + 1);
	struct uprobe_def d;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = 0;
	if (!uprobe_def__parse(line, &d)) {
		/* a parsed line names a group, an event and a file, none with a blank */
		if (!*d.group || !*d.event || !*d.path || strpbrk(d.group, " /") ||
		    strpbrk(d.event, " ") || strpbrk(d.path, " \n"))
			abort();
		uprobe_def__clear(&d);
	}
	free(line);
	return 0;
}
