// SPDX-License-Identifier: GPL-2.0
/*
 * Host feature detection from /proc/mounts, sysfs and tracefs.  Results
 * that cannot change while we run (the tracefs mount point) are cached;
 * everything else is a cheap stat and is read fresh each time.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/features.h"

static char sysfs_root[512] = "/sys";
static char procfs_root[512] = "/proc";
static char tracefs_path[PATH_MAX];
static bool tracefs_cached;

void features__set_roots(const char *sysfs, const char *procfs)
{
	snprintf(sysfs_root, sizeof(sysfs_root), "%s", sysfs ? sysfs : "/sys");
	snprintf(procfs_root, sizeof(procfs_root), "%s", procfs ? procfs : "/proc");
	tracefs_cached = false;
	tracefs_path[0] = '\0';
}

const char *features__sysfs(void)
{
	return sysfs_root;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/*
 * Scan the mount table rather than trying well-known paths: tracefs may be
 * mounted elsewhere, and an empty /sys/kernel/tracing directory exists
 * even when nothing is mounted on it.
 */
static int find_tracefs(char *out, size_t len)
{
	char mounts[PATH_MAX], buf[4 * PATH_MAX], debug[PATH_MAX] = "";
	struct mntent ent;
	bool found = false;
	FILE *fp;

	snprintf(mounts, sizeof(mounts), "%s/mounts", procfs_root);
	fp = setmntent(mounts, "r");
	if (!fp)
		return -errno;
	while (getmntent_r(fp, &ent, buf, sizeof(buf))) {
		if (!strcmp(ent.mnt_type, "tracefs")) {
			/* Prefer the standard place if tracefs is mounted twice. */
			if (!found || !strcmp(ent.mnt_dir, "/sys/kernel/tracing"))
				snprintf(out, len, "%s", ent.mnt_dir);
			found = true;
		} else if (!strcmp(ent.mnt_type, "debugfs") && !debug[0]) {
			snprintf(debug, sizeof(debug), "%s/tracing", ent.mnt_dir);
		}
	}
	endmntent(fp);
	if (found)
		return 0;
	/* Old kernels: tracefs only reachable through debugfs's automount. */
	if (debug[0] && is_dir(debug)) {
		char ev[PATH_MAX + 8];

		snprintf(ev, sizeof(ev), "%s/events", debug);
		if (is_dir(ev)) {
			snprintf(out, len, "%s", debug);
			return 0;
		}
	}
	return -ENOENT;
}

const char *features__tracefs_dir(void)
{
	int err;

	if (tracefs_cached)
		return tracefs_path;
	err = find_tracefs(tracefs_path, sizeof(tracefs_path));
	if (err) {
		errno = -err;
		return NULL;
	}
	tracefs_cached = true;
	return tracefs_path;
}

static void pmu_path(char *buf, size_t len, const char *name, const char *file)
{
	snprintf(buf, len, "%s/bus/event_source/devices/%s%s%s", sysfs_root, name, file ? "/" : "",
		 file ? file : "");
}

bool features__has_pmu(const char *name)
{
	char path[PATH_MAX];

	if (!name || !*name || strchr(name, '/'))
		return false;
	pmu_path(path, sizeof(path), name, NULL);
	return is_dir(path);
}

int features__pmu_read(const char *pmu, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t n;
	FILE *fp;

	if (!features__has_pmu(pmu) || !rel || strstr(rel, ".."))
		return -ENOENT;
	if (!len)
		return -EINVAL;
	pmu_path(path, sizeof(path), pmu, rel);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	if (!fgets(buf, len, fp))
		buf[0] = '\0';
	fclose(fp);
	n = strcspn(buf, "\n");
	buf[n] = '\0';
	return 0;
}

int features__pmu_type(const char *name)
{
	char buf[32], *end;
	long type;
	int err;

	err = features__pmu_read(name, "type", buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	type = strtol(buf, &end, 10);
	if (end == buf || *end || errno || type < 0 || type > INT_MAX)
		return -EINVAL;
	return type;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void features__free_list(char **names)
{
	if (!names)
		return;
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

int features__list(const char *pmu, const char *sub, char ***names)
{
	char path[PATH_MAX], **list, **l;
	int n = 0, cap = 16;
	struct dirent *de;
	DIR *dir;

	*names = NULL;
	if (pmu && (!features__has_pmu(pmu) || !sub || strchr(sub, '/')))
		return -ENOENT;
	if (pmu)
		pmu_path(path, sizeof(path), pmu, sub);
	else
		pmu_path(path, sizeof(path), "", NULL);
	list = calloc(cap + 1, sizeof(*list));
	if (!list)
		return -ENOMEM;
	dir = opendir(path);
	if (!dir) {
		/* A PMU without named events simply has no events/ directory. */
		if (errno == ENOENT) {
			*names = list;
			return 0;
		}
		free(list);
		return -errno;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			l = realloc(list, (cap * 2 + 1) * sizeof(*list));
			if (!l)
				goto nomem;
			list = l;
			cap *= 2;
		}
		list[n] = strdup(de->d_name);
		if (!list[n])
			goto nomem;
		list[++n] = NULL;
	}
	closedir(dir);
	qsort(list, n, sizeof(*list), cmp_name);
	*names = list;
	return n;
nomem:
	closedir(dir);
	features__free_list(list);
	return -ENOMEM;
}

const char *features__cpu_pmu(void)
{
	/* cpu: the usual core PMU; cpu_core/cpu_atom: Intel hybrid; armv8_pmuv3*: arm64. */
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3_0",
					     "armv8_pmuv3" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (features__has_pmu(names[i]))
			return names[i];
	return NULL;
}

static int probes(const char *kind)
{
	char file[32], path[PATH_MAX + 32];
	const char *dir = features__tracefs_dir();
	int mask = 0;

	snprintf(file, sizeof(file), "%s_events", kind);
	if (dir) {
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		if (exists(path))
			mask |= PROBE_TRACEFS;
	}
	if (features__has_pmu(kind))
		mask |= PROBE_PMU;
	return mask;
}

int features__kprobes(void)
{
	return probes("kprobe");
}

int features__uprobes(void)
{
	return probes("uprobe");
}

int features__paranoid(void)
{
	char path[PATH_MAX];
	int val, ret;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid", procfs_root);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	ret = fscanf(fp, "%d", &val);
	fclose(fp);
	return ret == 1 ? val : -EINVAL;
}

/* Whether @word is one of the space-separated words of @list. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

int features__cpuinfo(struct feat_cpuinfo *ci)
{
	char path[PATH_MAX], line[8192];
	FILE *fp;

	memset(ci, 0, sizeof(*ci));
	ci->family = ci->model = -1;
	snprintf(path, sizeof(path), "%s/cpuinfo", procfs_root);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	/* the first processor's block: the CPUs of a host are alike */
	while (fgets(line, sizeof(line), fp) && line[0] != '\n') {
		char *colon = strchr(line, ':'), *e;
		const char *v;

		if (!colon)
			continue;
		v = colon + 1 + (colon[1] == ' ');
		for (e = colon; e > line && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		*e = '\0'; /* the key */
		if (!strcmp(line, "vendor_id"))
			sscanf(v, "%31s", ci->vendor);
		else if (!strcmp(line, "cpu family"))
			ci->family = atoi(v);
		else if (!strcmp(line, "model"))
			ci->model = atoi(v);
		else if (!strcmp(line, "flags")) {
			ci->flags = true;
			snprintf(ci->virt, sizeof(ci->virt), "%s",
				 has_word(v, "vmx")   ? "vmx"
				 : has_word(v, "svm") ? "svm"
						      : "");
			ci->hypervisor = has_word(v, "hypervisor");
		}
	}
	fclose(fp);
	return 0;
}

static const char *why_tracefs(char *buf, size_t len)
{
	const char *dir = features__tracefs_dir();
	char ev[PATH_MAX + 8];

	if (!dir) {
		snprintf(buf, len,
			 "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
		return buf;
	}
	snprintf(ev, sizeof(ev), "%s/events", dir);
	if (access(ev, R_OK | X_OK) && errno == EACCES)
		snprintf(buf, len,
			 "permission denied on %s: tracefs is readable by root only, run as root",
			 ev);
	else if (!is_dir(ev))
		snprintf(buf, len,
			 "tracefs at %s has no events directory: kernel without tracepoints?", dir);
	else
		snprintf(buf, len, "tracefs is mounted at %s", dir);
	return buf;
}

static const char *why_perm(char *buf, size_t len)
{
	int lvl = features__paranoid();

	if (geteuid() == 0) {
		/* Root is refused only by policy outside perf itself. */
		snprintf(buf, len,
			 "permission denied even as root: kernel lockdown, SELinux or a container "
			 "seccomp policy blocks perf_event_open");
	} else if (lvl < 0) {
		snprintf(buf, len,
			 "permission denied: run as root (perf_event_open is not available to this "
			 "user)");
	} else {
		snprintf(buf, len,
			 "permission denied: run as root (or with CAP_PERFMON), or set "
			 "/proc/sys/kernel/perf_event_paranoid to -1 (now %d)",
			 lvl);
	}
	return buf;
}

const char *features__why_not(enum feature f, char *buf, size_t len)
{
	if (!buf || !len)
		return buf;
	switch (f) {
	case FEAT_TRACEFS:
		return why_tracefs(buf, len);
	case FEAT_CPU_PMU:
		if (features__cpu_pmu())
			snprintf(buf, len, "the CPU PMU '%s' is present", features__cpu_pmu());
		else
			snprintf(buf, len,
				 "no hardware PMU on this host (no "
				 "%s/bus/event_source/devices/cpu): "
				 "use cpu-clock",
				 sysfs_root);
		return buf;
	case FEAT_KPROBES:
		if (features__kprobes())
			snprintf(buf, len, "kprobes are supported");
		else
			snprintf(buf, len,
				 "kprobes: not supported by this kernel (no CONFIG_KPROBES)");
		return buf;
	case FEAT_UPROBES:
		if (features__uprobes())
			snprintf(buf, len, "uprobes are supported");
		else
			snprintf(buf, len,
				 "uprobes: not supported by this kernel (no CONFIG_UPROBE_EVENTS)");
		return buf;
	case FEAT_PERM:
		return why_perm(buf, len);
	}
	snprintf(buf, len, "unknown feature %d", (int)f);
	return buf;
}
