// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the kcore reader (sym/kcore.c): the file given with
 * perf-prof kcore --kcore is anyone's.  Input: 8 bytes of an address
 * (little endian), then the file.  The file is opened from a memfd, then
 * read at that address, at each segment's start and across its end.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sym/kcore.h"

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char buf[64];
	struct kcore *kc;
	uint64_t addr;
	int fd;

	if (size < 8)
		return 0;
	memcpy(&addr, data, 8);
	fd = memfd_create("kcore", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data + 8, size - 8) != (ssize_t)(size - 8)) {
		close(fd);
		return 0;
	}
	if (kcore__from_fd(fd, &kc))
		return 0; /* (closed) */
	if (!kcore__read(kc, addr, buf, sizeof(buf)))
		sink += buf[0] + buf[63];
	if (!kcore__read(kc, addr, buf, 1))
		sink += buf[0];
	sink += kcore__nr_segments(kc);
	kcore__delete(kc);
	return 0;
}
