// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the ELF symbol loader on arbitrary bytes, from memory
 * (elf_memory) and from a file (the path libelf reads with pread, plus
 * the build-id and debug link searches), then lookups over the table; and
 * the whole-file check of --symbols BINARY (elfsyms__check_fd): a file it
 * passes loads, and a refusal says why.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sym/elfsyms.h"

static const char path[] = "fuzz_elf";
static int fd = -1;

static void lookups(struct elfsyms *es, const uint8_t *data, size_t size)
{
	const unsigned char *bid;
	u64 a = 0;
	int len, i;

	bid = elfsyms__build_id(es, &len);
	if (bid && (len <= 0 || len > BUILD_ID_MAX))
		abort();
	elfsyms__debuglink(es);
	for (i = 0; i < 16; i++) {
		const struct sym *s;

		a = a * 31 + (size ? data[(size_t)i * 7919 % size] : 0) + (u64)i * 0x1000;
		s = elfsyms__find(es, elfsyms__file_to_vaddr(es, a));
		if (s && (!s->name || s->start > s->end))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfsyms *es = NULL;
	char why[256];
	int err, ok;

	if (!elfsyms__from_mem(data, size, &es)) {
		lookups(es, data, size);
		elfsyms__delete(es);
	}
	if (fd < 0) {
		/* in memory: no writeback of a rewritten file on a busy host */
		fd = memfd_create(path, 0);
		if (fd < 0)
			return 0;
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	es = NULL;
	err = elfsyms__open_fd(fd, path, "", &es);
	if (!err) {
		lookups(es, data, size);
		elfsyms__delete(es);
	}
	why[0] = '\0';
	ok = elfsyms__check_fd(fd, why, sizeof(why));
	if (ok == -ENOEXEC && !why[0])
		abort(); /* a refusal without a reason */
	if (!ok && err && err != -ENOMEM)
		abort(); /* a whole, well-formed file that does not load */
	return 0;
}
