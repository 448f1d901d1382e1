/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake sysfs for the PMU code's tests and fuzz targets: PMUs under
 * ROOT/sys/bus/event_source/devices/, ROOT a fresh directory in /tmp
 * (tmp_tree.h's tmp_root) that the engine reads as its sysfs
 * (features__set_roots) until it is removed.
 */
#ifndef PP_FAKE_SYSFS_H
#define PP_FAKE_SYSFS_H

#include <limits.h>
#include <stdio.h>

#include "engine/features.h"
#include "tmp_tree.h"

/* ROOT = /tmp/pp-@tag-XXXXXX, the engine's sysfs; 0, or -1 with errno. */
static inline int fake_sysfs__make(const char *tag)
{
	char sys[PATH_MAX + 8];

	if (tmp_tree__make(tag))
		return -1;
	snprintf(sys, sizeof(sys), "%s/sys", tmp_root);
	features__set_roots(sys, NULL);
	return 0;
}

/* The file @rel ("PMU/format/NAME") of the PMU devices, holding @text. */
static inline void fake_sysfs__put(const char *rel, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "sys/bus/event_source/devices/%s", rel);
	tmp_tree__put(path, text);
}

/* The engine back on the real sysfs, ROOT gone. */
static inline void fake_sysfs__remove(void)
{
	features__set_roots(NULL, NULL);
	if (tmp_root[0])
		tmp_tree__remove(tmp_root);
	tmp_root[0] = '\0';
}

#endif
