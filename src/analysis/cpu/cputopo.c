// SPDX-License-Identifier: GPL-2.0
/*
 * CPU distances from sysfs: each CPU's L2 and last-level cache named by
 * the lowest CPU sharing it (shared_cpu_list), its node by the node
 * directory listing it.
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cpu/cputopo.h"
#include "engine/cpulist.h"
#include "engine/features.h"

#define TOPO_MAX_CPUS 65536

struct cpu_topo {
	int nr;	  /* CPU slots */
	int *l2;  /* per CPU: the lowest CPU sharing its L2, -1: not known */
	int *llc; /* ... its last-level cache */
	int *node;
	int nr_nodes;
};

static int read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

static bool is_instruction(const char *path)
{
	char buf[32] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strncmp(buf, "Instruction", 11);
}

/* The lowest CPU of the list in @path, -1 when there is none. */
static int first_cpu(const char *path, int max)
{
	int *cpus = NULL, n = cpulist__read_file(path, max, &cpus), first;

	first = n > 0 ? cpus[0] : -1;
	free(cpus);
	return first;
}

static void load_caches(struct cpu_topo *t, const char *sysfs, int cpu)
{
	char path[512];
	int top = 0;

	for (int i = 0; i < 32; i++) {
		int level, id;

		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/level",
			 sysfs, cpu, i);
		if (read_int(path, &level))
			break;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/type",
			 sysfs, cpu, i);
		if (level < 2 || is_instruction(path))
			continue;
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", sysfs, cpu,
			 i);
		if ((id = first_cpu(path, t->nr)) < 0)
			continue;
		if (level == 2)
			t->l2[cpu] = id;
		if (level >= top) {
			top = level;
			t->llc[cpu] = id;
		}
	}
}

static void load_nodes(struct cpu_topo *t, const char *sysfs)
{
	char path[512];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/devices/system/node", sysfs);
	if (!(d = opendir(path)))
		return; /* no NUMA: every CPU on node 0 */
	t->nr_nodes = 0;
	while ((de = readdir(d))) {
		int node, *cpus = NULL, n;
		char end;

		if (sscanf(de->d_name, "node%d%c", &node, &end) != 1 || node < 0)
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/node/%s/cpulist", sysfs,
			 de->d_name);
		n = cpulist__read_file(path, t->nr, &cpus);
		for (int i = 0; i < n; i++)
			t->node[cpus[i]] = node;
		if (n > 0)
			t->nr_nodes++;
		free(cpus);
	}
	closedir(d);
	if (!t->nr_nodes)
		t->nr_nodes = 1;
}

int cpu_topo__load(const char *sysfs, struct cpu_topo **out)
{
	struct cpu_topo *t = calloc(1, sizeof(*t));
	char path[512];
	int *cpus = NULL, n;

	*out = NULL;
	if (!sysfs)
		sysfs = features__sysfs();
	if (!t)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/devices/system/cpu/possible", sysfs);
	n = cpulist__read_file(path, TOPO_MAX_CPUS, &cpus);
	t->nr = n > 0 ? cpus[n - 1] + 1 : 1;
	free(cpus);
	t->l2 = malloc(t->nr * sizeof(int));
	t->llc = malloc(t->nr * sizeof(int));
	t->node = calloc(t->nr, sizeof(int));
	if (!t->l2 || !t->llc || !t->node) {
		cpu_topo__delete(t);
		return -ENOMEM;
	}
	t->nr_nodes = 1;
	for (int c = 0; c < t->nr; c++) {
		t->l2[c] = t->llc[c] = -1;
		load_caches(t, sysfs, c);
	}
	load_nodes(t, sysfs);
	*out = t;
	return 0;
}

void cpu_topo__delete(struct cpu_topo *t)
{
	if (!t)
		return;
	free(t->l2);
	free(t->llc);
	free(t->node);
	free(t);
}

enum cpu_dist cpu_topo__dist(const struct cpu_topo *t, int a, int b)
{
	if (!t || a < 0 || b < 0 || a >= t->nr || b >= t->nr)
		return CPU_DIST_UNKNOWN;
	if (a == b)
		return CPU_DIST_SAME;
	if (t->l2[a] >= 0 && t->l2[a] == t->l2[b])
		return CPU_DIST_L2;
	if (t->llc[a] >= 0 && t->llc[a] == t->llc[b])
		return CPU_DIST_LLC;
	return t->node[a] == t->node[b] ? CPU_DIST_NODE : CPU_DIST_REMOTE;
}

const char *cpu_dist__name(enum cpu_dist d)
{
	static const char *const names[CPU_DIST_NR] = { "same", "l2",	  "llc",
							"node", "remote", "unknown" };

	return d >= 0 && d < CPU_DIST_NR ? names[d] : "unknown";
}

int cpu_topo__node(const struct cpu_topo *t, int cpu)
{
	return t && cpu >= 0 && cpu < t->nr ? t->node[cpu] : -1;
}

int cpu_topo__nr_nodes(const struct cpu_topo *t)
{
	return t ? t->nr_nodes : 1;
}
