/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How far apart two CPUs are, as the caches and NUMA nodes of sysfs say:
 * the same CPU, sharing an L2 (SMT siblings, a module), sharing the
 * last-level cache, on the same node, or on different nodes.  sched-migrate
 * names each migration's distance by it.  A level sysfs does not describe
 * (no cache directory, a kernel without NUMA) is left out: two CPUs whose
 * L2 is not known are not said to share one.
 */
#ifndef PP_CPUTOPO_H
#define PP_CPUTOPO_H

enum cpu_dist {
	CPU_DIST_SAME,	  /* the same CPU */
	CPU_DIST_L2,	  /* share an L2 cache */
	CPU_DIST_LLC,	  /* share the last-level cache, not an L2 */
	CPU_DIST_NODE,	  /* the same NUMA node, no shared cache */
	CPU_DIST_REMOTE,  /* different NUMA nodes */
	CPU_DIST_UNKNOWN, /* a CPU sysfs does not describe */
	CPU_DIST_NR,
};

struct cpu_topo;

/*
 * Read the topology of the possible CPUs under @sysfs (NULL: the engine's
 * sysfs, features__sysfs: "/sys", or the tests' tree).  0 or -errno (-ENOMEM); a missing file
 * is no error, only a level not known.
 */
int cpu_topo__load(const char *sysfs, struct cpu_topo **out);
void cpu_topo__delete(struct cpu_topo *t);

/* The distance between CPUs @a and @b. */
enum cpu_dist cpu_topo__dist(const struct cpu_topo *t, int a, int b);
/* "same", "l2", "llc", "node", "remote", "unknown". */
const char *cpu_dist__name(enum cpu_dist d);
/* The NUMA node of @cpu (0 on a kernel without nodes), -1 for a CPU not known. */
int cpu_topo__node(const struct cpu_topo *t, int cpu);
/* How many NUMA nodes hold the CPUs (1 without NUMA). */
int cpu_topo__nr_nodes(const struct cpu_topo *t);

#endif
