// SPDX-License-Identifier: GPL-2.0
/* The -o FILE stream (see output.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/output.h"

struct output {
	int fd;
	int err; /* errno of the first failed write */
};

static ssize_t out_write(void *cookie, const char *buf, size_t len)
{
	struct output *o = cookie;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(o->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->err)
				o->err = n < 0 ? errno : ENOSPC;
			errno = o->err;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int out_close(void *cookie)
{
	struct output *o = cookie;

	if (close(o->fd) && !o->err)
		o->err = errno;
	return o->err ? -1 : 0;
}

FILE *output__open(const char *path, struct output **out)
{
	cookie_io_functions_t io = { .write = out_write, .close = out_close };
	struct output *o = calloc(1, sizeof(*o));
	FILE *fp;

	*out = NULL;
	if (!o)
		return NULL;
	o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (o->fd < 0) {
		int e = errno;

		free(o);
		errno = e;
		return NULL;
	}
	fp = fopencookie(o, "w", io);
	if (!fp) {
		close(o->fd);
		free(o);
		errno = ENOMEM;
		return NULL;
	}
	*out = o;
	return fp;
}

const int *output__errno(const struct output *o)
{
	return o ? &o->err : NULL;
}

int output__close(FILE *fp, struct output *o)
{
	int err;

	if (!fp || !o)
		return 0;
	fclose(fp); /* out_close records what failed */
	err = o->err;
	free(o);
	return err;
}

int output__reopen(struct output *o, const char *path)
{
	int fd;

	if (!o)
		return -EINVAL;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	if (close(o->fd) && !o->err)
		o->err = errno;
	o->fd = fd;
	return 0;
}
