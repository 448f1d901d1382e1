// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: /etc/ld.so.cache contents (a file any root-owned
 * ldconfig run rewrites, read as untrusted) looked up by a few names,
 * among them one taken from the input itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sym/probe_elf.h"

static void lookup(const uint8_t *data, size_t size, const char *name, size_t outlen)
{
	char out[256];

	if (!libpath__cache_lookup(data, size, name, out, outlen) && strlen(out) >= outlen)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly @size bytes: a read past them is an ASan report */
	uint8_t *buf = malloc(size ? size : 1);
	char name[32];
	size_t n = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	lookup(buf, size, "libc.so.6", 256);
	lookup(buf, size, "libc", 256);
	lookup(buf, size, "libc.so.6", 8);
	/* the last bytes as a name: lets the fuzzer make a key that matches */
	while (n + 1 < sizeof(name) && n < size && data[size - 1 - n] &&
	       data[size - 1 - n] != '/') {
		name[n] = (char)data[size - 1 - n];
		n++;
	}
	name[n] = '\0';
	if (n)
		lookup(buf, size, name, 256);
	free(buf);
	return 0;
}
