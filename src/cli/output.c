// SPDX-License-Identifier: GPL-2.0
/* The -o FILE stream (see output.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/output.h"
#include "util/ofile.h"
#include "util/ostream.h"

struct output {
	char *path;
	struct ostream *os;
};

FILE *output__new(const char *path, struct output **out)
{
	struct output *o = calloc(1, sizeof(*o));
	FILE *fp = NULL;

	*out = NULL;
	if (o && (o->path = strdup(path)))
		fp = ostream__open(-1, &o->os);
	if (!fp) {
		if (o)
			free(o->path);
		free(o);
		errno = ENOMEM;
		return NULL;
	}
	*out = o;
	return fp;
}

int output__start(struct output *o)
{
	int fd;

	if (!o)
		return 0;
	if (ostream__fd(o->os) >= 0)
		return 0;
	fd = ofile__open(o->path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return fd;
	return ostream__attach(o->os, fd);
}

const int *output__errno(const struct output *o)
{
	return o ? ostream__errno(o->os) : NULL;
}

int output__close(FILE *fp, struct output *o)
{
	int err;

	if (!fp || !o)
		return 0;
	err = ostream__close(fp, o->os);
	free(o->path);
	free(o);
	return -err;
}

int output__reopen(struct output *o)
{
	int fd;

	if (!o)
		return -EINVAL;
	if (ostream__fd(o->os) < 0) /* not started: opened at the start */
		return 0;
	fd = ofile__open(o->path, O_WRONLY | O_CREAT | O_APPEND, 0666);
	if (fd < 0)
		return fd;
	return ostream__attach(o->os, fd);
}
