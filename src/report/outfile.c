// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/outfile.h"
#include "util/ofile.h"
#include "util/ostream.h"

struct outfile {
	struct ostream *os;
	struct ofile_tmp tmp; /* tmp.dfd < 0: written in place */
};

int outfile__check(const char *path)
{
	struct stat st;
	char *copy;
	int err;

	if (!path || !*path)
		return -EINVAL;
	err = ofile__check(path);
	if (err && err != -ENOENT)
		return err;
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		return access(path, W_OK) ? -errno : 0;
	}
	if (errno != ENOENT)
		return -errno;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	err = access(dirname(copy), W_OK | X_OK) ? -errno : 0;
	free(copy);
	return err;
}

/* A stream over @fd (owned), @tmp its temporary (dfd < 0: none).  NULL with errno. */
static FILE *wrap(int fd, const struct ofile_tmp *tmp, struct outfile **out)
{
	struct outfile *of = calloc(1, sizeof(*of));
	FILE *fp = NULL;

	if (of) {
		of->tmp = *tmp;
		fp = ostream__open(fd, &of->os);
	}
	if (!fp) {
		close(fd);
		if (of)
			ofile__tmp_end(&of->tmp, false);
		free(of);
		errno = ENOMEM;
		return NULL;
	}
	*out = of;
	return fp;
}

/*
 * Written in place, not through a rename: what a rename would destroy (a
 * device such as /dev/null, a symlink such as /dev/stdout, a FIFO, a file
 * with other hard links), or a file whose directory takes no new files.
 */
static FILE *in_place(const char *path, int flags, struct outfile **of)
{
	struct ofile_tmp none = { .dfd = -1, .slot = -1 };
	int fd = ofile__open(path, O_WRONLY | O_CREAT | flags, 0666);

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	return wrap(fd, &none, of);
}

FILE *outfile__create(const char *path, struct outfile **of)
{
	struct ofile_tmp tmp;
	struct stat st;
	int fd;

	*of = NULL;
	/* another user's file is not replaced either (the rename would destroy it) */
	fd = ofile__check(path);
	if (ofile__refusal(fd)) {
		errno = -fd;
		return NULL;
	}
	if (!lstat(path, &st) && (!S_ISREG(st.st_mode) || st.st_nlink > 1))
		return in_place(path, O_TRUNC, of);
	fd = ofile__tmp_create(path, &tmp);
	/* a directory we may not add to, but a file we may write */
	if ((fd == -EACCES || fd == -EROFS || fd == -EPERM) && !access(path, W_OK))
		return in_place(path, O_TRUNC, of);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	return wrap(fd, &tmp, of);
}

FILE *outfile__append(const char *path, struct outfile **of)
{
	*of = NULL;
	return in_place(path, O_APPEND, of);
}

int outfile__commit(FILE *fp, struct outfile *of, int err)
{
	int e;

	if (!fp || !of)
		return err ? err : -EINVAL;
	/*
	 * The stream's first failure (ENOSPC), not what stdio makes of it: a
	 * writer that saw ferror() says EIO.
	 */
	e = ostream__close(fp, of->os);
	if (e && (!err || err == -EIO))
		err = e;
	e = ofile__tmp_end(&of->tmp, !err);
	if (!err)
		err = e;
	free(of);
	return err;
}

static const struct popt output_opts[] = {
	{ "output", 'o', "FILE", "write the output to FILE",
	  POPT_BIND_STR(struct output_opts, path) },
	{ "json", 0, NULL, "one JSON object per line instead of text (README: JSON output)",
	  POPT_BIND_FLAG(struct output_opts, json) },
	{ 0 },
};

const struct opt_group output_group = {
	.name = "output",
	.opts = output_opts,
	.size = sizeof(struct output_opts),
};
