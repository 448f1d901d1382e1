/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake sysfs for the PMU code's tests and fuzz targets: PMUs under
 * ROOT/sys/bus/event_source/devices/, ROOT a fresh directory in /tmp that
 * the engine reads as its sysfs (features__set_roots) until it is removed.
 */
#ifndef PP_FAKE_SYSFS_H
#define PP_FAKE_SYSFS_H

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/features.h"

static char fake_sysfs_root[PATH_MAX];

/* ROOT = /tmp/pp-@tag-XXXXXX, the engine's sysfs; 0, or -1 with errno. */
static inline int fake_sysfs__make(const char *tag)
{
	char sys[PATH_MAX + 8];

	snprintf(fake_sysfs_root, sizeof(fake_sysfs_root), "/tmp/pp-%s-XXXXXX", tag);
	if (!mkdtemp(fake_sysfs_root))
		return -1;
	snprintf(sys, sizeof(sys), "%s/sys", fake_sysfs_root);
	features__set_roots(sys, NULL);
	return 0;
}

/* The file @rel ("PMU/format/NAME") of the PMU devices, holding @text. */
static inline void fake_sysfs__put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2], *p;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s", fake_sysfs_root, rel);
	for (p = path + strlen(fake_sysfs_root) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	fp = fopen(path, "w");
	if (!fp)
		return;
	fputs(text, fp);
	fclose(fp);
}

static inline int fake_sysfs__rm_one(const char *path, const struct stat *st, int flag,
				     struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The engine back on the real sysfs, ROOT gone. */
static inline void fake_sysfs__remove(void)
{
	features__set_roots(NULL, NULL);
	if (fake_sysfs_root[0])
		nftw(fake_sysfs_root, fake_sysfs__rm_one, 16, FTW_DEPTH | FTW_PHYS);
	fake_sysfs_root[0] = '\0';
}

#endif
