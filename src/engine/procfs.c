// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/procfs.h"

ssize_t procfs__read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return n;
}

/* The start of /proc/@pid/@file, NUL-terminated, into @buf.  0 or -errno. */
static int read_head(pid_t pid, const char *file, char *buf, size_t len)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	n = procfs__read(path, buf, len);
	return n > 0 ? 0 : n < 0 ? (int)n : -ENOENT;
}

int procfs__stat(pid_t pid, char *state, pid_t *ppid)
{
	char buf[512], *p;
	int err = read_head(pid, "stat", buf, sizeof(buf));

	if (err)
		return err;
	/* "pid (comm) S ppid ...": comm may hold spaces and parentheses */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -EINVAL;
	if (state)
		*state = p[2];
	if (ppid)
		*ppid = (pid_t)atoi(p + 4);
	return 0;
}

pid_t procfs__tgid(pid_t tid)
{
	char buf[1024], *p;
	int err = read_head(tid, "status", buf, sizeof(buf));

	if (err)
		return err;
	p = strstr(buf, "\nTgid:");
	if (!p)
		return -EINVAL;
	return (pid_t)atoi(p + 6);
}

int procfs__threads(pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *d;
	pid_t *v = NULL, *nv;
	int n = 0, cap = 0;
	DIR *dir;

	*tids = NULL;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	if (!(dir = opendir(path)))
		return -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			if (!(nv = realloc(v, cap * sizeof(*v)))) {
				free(v);
				closedir(dir);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n++] = (pid_t)atoi(d->d_name);
	}
	closedir(dir);
	*tids = v;
	return n;
}

int procfs__maps_line(char *line, struct maps_line *m)
{
	char *path;
	int n = 0;

	*m = (struct maps_line){ 0 };
	if (sscanf(line, "%llx-%llx %7s %llx %n", &m->start, &m->end, m->perms, &m->pgoff, &n) <
		    4 ||
	    !n)
		return -EINVAL;
	path = line + n;
	n = 0;
	if (sscanf(path, "%x:%x %llu %n", &m->maj, &m->min, &m->ino, &n) == 3 && n) {
		m->has_id = true;
		path += n;
	}
	path[strcspn(path, "\n")] = '\0';
	while (*path == ' ' || *path == '\t')
		path++;
	m->path = path;
	return 0;
}
