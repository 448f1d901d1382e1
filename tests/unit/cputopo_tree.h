/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake sysfs (fake_sysfs.h: the engine's, so cpu_topo__load(NULL) reads
 * it) of 4 CPUs on 2 nodes: CPUs 0 and 1 share an L2 and the L3 on node 0;
 * 2 and 3 have an L2 each and share the L3 on node 1.  Every CPU's L1
 * instruction cache claims all four (a cache sysfs lists that is not the
 * data's: left out).  Node 2 has memory and no CPU.
 */
#ifndef PP_CPUTOPO_TREE_H
#define PP_CPUTOPO_TREE_H

#include "fake_sysfs.h"

static inline void cputopo_tree__cache(int cpu, int idx, const char *level, const char *type,
				       const char *shared)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
	tmp_tree__put(rel, level);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
	tmp_tree__put(rel, type);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
		 cpu, idx);
	tmp_tree__put(rel, shared);
}

/* 0, or -1 with errno. */
static inline int cputopo_tree__make(void)
{
	static const char *const l2[] = { "0-1\n", "0-1\n", "2\n", "3\n" };

	if (fake_sysfs__make("cputopo"))
		return -1;
	tmp_tree__put("sys/devices/system/cpu/possible", "0-3\n");
	for (int c = 0; c < 4; c++) {
		char self[8];

		snprintf(self, sizeof(self), "%d\n", c);
		cputopo_tree__cache(c, 0, "1\n", "Data\n", self);
		cputopo_tree__cache(c, 1, "1\n", "Instruction\n", "0-3\n");
		cputopo_tree__cache(c, 2, "2\n", "Unified\n", l2[c]);
		cputopo_tree__cache(c, 3, "3\n", "Unified\n", c < 2 ? "0-1\n" : "2-3\n");
	}
	tmp_tree__put("sys/devices/system/node/node0/cpulist", "0-1\n");
	tmp_tree__put("sys/devices/system/node/node1/cpulist", "2-3\n");
	tmp_tree__put("sys/devices/system/node/node2/cpulist", "\n");
	tmp_tree__put("sys/devices/system/node/possible", "0-2\n");
	return 0;
}

static inline void cputopo_tree__remove(void)
{
	fake_sysfs__remove();
}

#endif
