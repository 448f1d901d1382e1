/* SPDX-License-Identifier: GPL-2.0 */
/* Small readers of /proc/PID files shared by the engine. */
#ifndef PP_PROCFS_H
#define PP_PROCFS_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The start of the file at @path, NUL-terminated, into @buf (@len > 0):
 * the bytes read (0 for an empty file), or -errno.
 */
ssize_t procfs__read(const char *path, char *buf, size_t len);

/*
 * State letter (R, S, D, Z, X, ...) and parent pid of @pid from
 * /proc/PID/stat.  Returns 0, or -errno (-ENOENT when it is gone).
 */
int procfs__stat(pid_t pid, char *state, pid_t *ppid);

/* The process (thread group) of thread @tid, from /proc/TID/status: > 0, or -errno. */
pid_t procfs__tgid(pid_t tid);
/*
 * The threads of process @pid now (/proc/PID/task): their count, *@tids a
 * malloc'd array of them; -errno (*@tids NULL) when it cannot be read.
 */
int procfs__threads(pid_t pid, pid_t **tids);

/* One line of /proc/PID/maps: "start-end perms offset maj:min inode   path". */
struct maps_line {
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[8];	  /* "r-xp" */
	bool has_id;	  /* maj:min and inode were there */
	const char *path; /* into the line, its newline cut off; "" for anonymous memory */
};

/*
 * Parses @line (its newline is cut off) into @m: 0, or -EINVAL when it is
 * not a mapping line.  A path that ends in " (deleted)" keeps it.
 */
int procfs__maps_line(char *line, struct maps_line *m);

#endif
