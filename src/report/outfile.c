// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/outfile.h"

int outfile__check(const char *path)
{
	struct stat st;
	char *copy;
	int err = 0;

	if (!path || !*path)
		return -EINVAL;
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
	if (access(dirname(copy), W_OK | X_OK))
		err = -errno;
	free(copy);
	return err;
}

/*
 * Written in place, not through a rename: what a rename would destroy (a
 * device such as /dev/null, a symlink such as /dev/stdout, a FIFO, a file
 * with other hard links), or a file whose directory takes no new files.
 */
static FILE *in_place(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	struct stat st;
	FILE *fp;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && ftruncate(fd, 0)) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	fp = fdopen(fd, "w");
	if (!fp)
		close(fd);
	return fp;
}

FILE *outfile__create(const char *path, char **tmp)
{
	struct stat st;
	int fd = -1;
	FILE *fp;

	*tmp = NULL;
	if (!lstat(path, &st) && (!S_ISREG(st.st_mode) || st.st_nlink > 1))
		return in_place(path);
	for (int i = 0; fd < 0 && i < 100; i++) {
		free(*tmp);
		if (asprintf(tmp, "%s.tmp%d.%d", path, (int)getpid(), i) < 0) {
			*tmp = NULL;
			errno = ENOMEM;
			return NULL;
		}
		fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(*tmp);
		}
		free(*tmp);
		*tmp = NULL;
		/* a directory we may not add to, but a file we may write */
		if ((e == EACCES || e == EROFS || e == EPERM) && !access(path, W_OK))
			return in_place(path);
		errno = e;
		return NULL;
	}
	return fp;
}

int outfile__commit(FILE *fp, char *tmp, const char *path, int err)
{
	if (fflush(fp) && !err)
		err = -errno;
	if (ferror(fp) && !err)
		err = -EIO;
	if (fclose(fp) && !err)
		err = -errno;
	if (!tmp) /* written in place */
		return err;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	free(tmp);
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
