/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file tree in /tmp for the tests that hand the code a fake /proc,
 * debugfs or sysfs: tmp_root is made fresh (tmp_tree__make), directories
 * and files put below it by their path relative to it, and the whole tree
 * removed at the end (tmp_tree__remove, also for any other test directory).
 */
#ifndef PP_TMP_TREE_H
#define PP_TMP_TREE_H

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char tmp_root[PATH_MAX] __attribute__((unused));

/* tmp_root = /tmp/pp-@tag-XXXXXX, made; 0, or -1 with errno. */
static inline int tmp_tree__make(const char *tag)
{
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/pp-%s-XXXXXX", tag);
	return mkdtemp(tmp_root) ? 0 : -1;
}

/* @path = tmp_root/@rel, with the directories above it there made. */
static inline void tmp_tree__path(char *path, size_t size, const char *rel)
{
	snprintf(path, size, "%s/%s", tmp_root, rel);
	for (char *p = path + strlen(tmp_root) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
}

/* The directory @rel below tmp_root, and its parents there (mkdir -p). */
static inline void tmp_tree__dir(const char *rel)
{
	char path[PATH_MAX * 2];

	tmp_tree__path(path, sizeof(path), rel);
	mkdir(path, 0755);
}

/* The file @rel below tmp_root (its directories made), holding the @len bytes at @data. */
static inline void tmp_tree__write(const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX * 2];
	FILE *f;

	tmp_tree__path(path, sizeof(path), rel);
	f = fopen(path, "w");
	if (!f)
		return;
	fwrite(data, 1, len, f);
	fclose(f);
}

/* The file @rel below tmp_root, holding @text. */
static inline void tmp_tree__put(const char *rel, const char *text)
{
	tmp_tree__write(rel, text, strlen(text));
}

static inline int tmp_tree__rm_one(const char *path, const struct stat *st, int flag,
				   struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* @dir and all below it gone. */
static inline void tmp_tree__remove(const char *dir)
{
	nftw(dir, tmp_tree__rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
