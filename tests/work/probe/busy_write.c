// SPDX-License-Identifier: GPL-2.0
/*
 * libbusy_write.so, for LD_PRELOAD: a write to tracefs's uprobe_events
 * whose text starts with $BUSY_WRITE fails with EBUSY, as the kernel
 * answers "-:GROUP/EVENT" while a tracer has the event open (t_usdt.sh:
 * usdt add's undo that cannot remove an event it made, which a real tracer
 * provokes only by opening it within a moment).  Every other write goes
 * through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int busy(int fd, const void *buf, size_t n)
{
	const char *want = getenv("BUSY_WRITE");
	char link[64], path[PATH_MAX];
	ssize_t k;

	if (!want || !*want || n < strlen(want) || memcmp(buf, want, strlen(want)))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	k = readlink(link, path, sizeof(path) - 1);
	if (k <= 0)
		return 0;
	path[k] = 0;
	k = (ssize_t)strlen(path) - (ssize_t)strlen("/uprobe_events");
	return k >= 0 && !strcmp(path + k, "/uprobe_events");
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (busy(fd, buf, n)) {
		errno = EBUSY;
		return -1;
	}
	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return real(fd, buf, n);
}
