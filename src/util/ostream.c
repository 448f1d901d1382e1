// SPDX-License-Identifier: GPL-2.0
/* A stdio stream that keeps the errno of its first failed write: see ostream.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/ostream.h"

struct ostream {
	int fd;	    /* -1: not attached yet */
	int err;    /* errno of the first failed write or close */
	char *pend; /* written before the fd came */
	size_t npend, cap;
};

static ssize_t write_all(struct ostream *o, const char *buf, size_t len)
{
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

static ssize_t os_write(void *cookie, const char *buf, size_t len)
{
	struct ostream *o = cookie;

	if (o->err) { /* once failed, the file is short: no later write may land */
		errno = o->err;
		return -1;
	}
	if (o->fd >= 0)
		return write_all(o, buf, len);
	if (o->npend + len > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *p;

		while (cap < o->npend + len)
			cap *= 2;
		p = realloc(o->pend, cap);
		if (!p) {
			o->err = ENOMEM;
			errno = ENOMEM;
			return -1;
		}
		o->pend = p;
		o->cap = cap;
	}
	memcpy(o->pend + o->npend, buf, len);
	o->npend += len;
	return (ssize_t)len;
}

static int os_close(void *cookie)
{
	struct ostream *o = cookie;

	if (o->fd >= 0 && close(o->fd) && !o->err)
		o->err = errno;
	o->fd = -1;
	return o->err ? -1 : 0;
}

FILE *ostream__open(int fd, struct ostream **out)
{
	cookie_io_functions_t io = { .write = os_write, .close = os_close };
	struct ostream *o = calloc(1, sizeof(*o));
	FILE *fp;

	*out = NULL;
	if (!o)
		return NULL;
	o->fd = fd;
	fp = fopencookie(o, "w", io);
	if (!fp) {
		free(o);
		errno = ENOMEM;
		return NULL;
	}
	*out = o;
	return fp;
}

int ostream__attach(struct ostream *o, int fd)
{
	if (o->fd >= 0 && close(o->fd) && !o->err)
		o->err = errno;
	o->fd = fd;
	if (o->npend && !o->err && write_all(o, o->pend, o->npend) < 0) {
		free(o->pend);
		o->pend = NULL;
		o->npend = o->cap = 0;
		return -o->err;
	}
	free(o->pend);
	o->pend = NULL;
	o->npend = o->cap = 0;
	return 0;
}

int ostream__fd(const struct ostream *o)
{
	return o ? o->fd : -1;
}

const int *ostream__errno(const struct ostream *o)
{
	return o ? &o->err : NULL;
}

int ostream__close(FILE *fp, struct ostream *o)
{
	int err;

	if (!fp || !o)
		return 0;
	fclose(fp); /* the write and close functions record what failed */
	err = o->err;
	free(o->pend);
	free(o);
	return -err;
}
