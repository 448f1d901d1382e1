// SPDX-License-Identifier: GPL-2.0
/*
 * CPU distances from a fake sysfs (cputopo_tree.h): an L2 shared, an LLC
 * shared, the same node, another node; an instruction cache that lists
 * every CPU and a node without CPUs change nothing.  A sysfs without cache
 * directories or nodes: every pair of CPUs is on the same node, nothing
 * shared said.  The names.
 */
#include "analysis/cpu/cputopo.h"
#include "cputopo_tree.h"
#include "ut.h"

int main(void)
{
	struct cpu_topo *t = NULL;

	CHECK(!cputopo_tree__make(), "the fake sysfs");
	CHECK_INT(cpu_topo__load(NULL, &t), 0);
	CHECK_INT(cpu_topo__dist(t, 0, 0), CPU_DIST_SAME);
	CHECK_INT(cpu_topo__dist(t, 0, 1), CPU_DIST_L2);
	CHECK_INT(cpu_topo__dist(t, 1, 0), CPU_DIST_L2);
	CHECK_INT(cpu_topo__dist(t, 2, 3), CPU_DIST_LLC);
	CHECK_INT(cpu_topo__dist(t, 1, 2), CPU_DIST_REMOTE);
	CHECK_INT(cpu_topo__dist(t, 3, 0), CPU_DIST_REMOTE);
	CHECK_INT(cpu_topo__dist(t, 0, 4), CPU_DIST_UNKNOWN);
	CHECK_INT(cpu_topo__dist(t, -1, 0), CPU_DIST_UNKNOWN);
	CHECK_INT(cpu_topo__nr_nodes(t), 2);
	CHECK_INT(cpu_topo__node(t, 3), 1);
	CHECK_INT(cpu_topo__node(t, 9), -1);
	cpu_topo__delete(t);
	cputopo_tree__remove();

	/* only the possible CPUs: no caches, no nodes */
	CHECK(!fake_sysfs__make("cputopo"), "the bare sysfs");
	tmp_tree__put("sys/devices/system/cpu/possible", "0-1\n");
	t = NULL;
	CHECK_INT(cpu_topo__load(NULL, &t), 0);
	CHECK_INT(cpu_topo__dist(t, 0, 1), CPU_DIST_NODE);
	CHECK_INT(cpu_topo__nr_nodes(t), 1);
	CHECK_INT(cpu_topo__node(t, 1), 0);
	cpu_topo__delete(t);
	fake_sysfs__remove();

	CHECK_STR(cpu_dist__name(CPU_DIST_L2), "l2");
	CHECK_STR(cpu_dist__name(CPU_DIST_LLC), "llc");
	CHECK_STR(cpu_dist__name(CPU_DIST_NODE), "node");
	CHECK_STR(cpu_dist__name(CPU_DIST_REMOTE), "remote");
	CHECK_STR(cpu_dist__name(CPU_DIST_NR), "unknown");
	cpu_topo__delete(NULL);
	return ut_done("cputopo");
}
