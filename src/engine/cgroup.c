// SPDX-License-Identifier: GPL-2.0
/* --cgroups: resolving names and patterns to cgroup directory fds (cgroup.h). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cgroup.h"
#include "util/list.h"

/*
 * The hierarchy with the perf_event controller: a v1 mount naming it in
 * its super options, else the cgroup2 mount (where it is always enabled).
 */
static int find_mount(char *out, size_t len)
{
	char line[4096], v2[256] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		char mnt[256], type[64], opts[1024];
		char *sep = strstr(line, " - ");

		/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - TYPE SOURCE SUPEROPTS" */
		if (!sep || sscanf(line, "%*s %*s %*s %*s %255s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %*s %1023s", type, opts) != 2)
			continue;
		if (!strcmp(type, "cgroup2") && !v2[0])
			snprintf(v2, sizeof(v2), "%s", mnt);
		if (!strcmp(type, "cgroup")) {
			for (char *o = strtok(opts, ","); o; o = strtok(NULL, ","))
				if (!strcmp(o, "perf_event")) {
					snprintf(out, len, "%s", mnt);
					found = 1;
				}
		}
	}
	fclose(f);
	if (found)
		return 0;
	if (!v2[0])
		return -ENODEV;
	snprintf(out, len, "%s", v2);
	return 0;
}

static int add(struct cgroup_set *set, const char *rel, char *err, size_t errlen)
{
	char path[4096];
	int fd, *fds;
	char **names, *name;

	for (int i = 0; i < set->nr; i++)
		if (!strcmp(set->names[i], rel))
			return 0; /* named twice, or by a name and a pattern */
	snprintf(path, sizeof(path), "%s/%s", set->mount, strcmp(rel, "/") ? rel : "");
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (e == ENOENT || e == ENOTDIR)
			snprintf(err, errlen, "--cgroups: no cgroup '%s' under %s (ls %s)", rel,
				 set->mount, set->mount);
		else
			snprintf(err, errlen, "--cgroups: cannot open %s: %s", path, strerror(e));
		return e == ENOTDIR ? -ENOENT : -e;
	}
	fds = realloc(set->fds, (set->nr + 1) * sizeof(*fds));
	if (fds)
		set->fds = fds;
	names = realloc(set->names, (set->nr + 1) * sizeof(*names));
	if (names)
		set->names = names;
	name = strdup(rel);
	if (!fds || !names || !name) {
		free(name);
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	set->fds[set->nr] = fd;
	set->names[set->nr++] = name;
	return 0;
}

/* nftw has no user pointer: the walk's state, for one walk at a time */
static struct {
	struct cgroup_set *set;
	regex_t *re;
	size_t prefix;
	int err;
	int matched;
	char *errbuf;
	size_t errlen;
} walk;

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	const char *rel = path + walk.prefix;

	(void)sb;
	if (type != FTW_D || ftw->level == 0) /* directories below the root */
		return 0;
	if (*rel == '/')
		rel++;
	if (regexec(walk.re, rel, 0, NULL, 0))
		return 0;
	walk.matched++;
	walk.err = add(walk.set, rel, walk.errbuf, walk.errlen);
	return walk.err ? 1 : 0;
}

static bool is_pattern(const char *s)
{
	return strpbrk(s, "{}[]()|*+?^$") != NULL;
}

static int match(struct cgroup_set *set, const char *pat, char *err, size_t errlen)
{
	regex_t re;
	int r;

	r = regcomp(&re, pat, REG_NOSUB);
	if (r) {
		char why[128];

		regerror(r, &re, why, sizeof(why));
		snprintf(err, errlen,
			 "--cgroups: bad pattern '%s': %s (a POSIX basic regular expression, "
			 "matched anywhere in the cgroup's path; ^...$ anchors it)",
			 pat, why);
		return -EINVAL;
	}
	walk.set = set;
	walk.re = &re;
	walk.prefix = strlen(set->mount);
	walk.err = 0;
	walk.matched = 0;
	walk.errbuf = err;
	walk.errlen = errlen;
	if (nftw(set->mount, visit, 16, FTW_PHYS) < 0 && !walk.err) {
		walk.err = -errno;
		snprintf(err, errlen, "--cgroups: cannot read %s: %s", set->mount, strerror(errno));
	}
	regfree(&re);
	if (walk.err)
		return walk.err;
	if (!walk.matched) {
		snprintf(err, errlen, "--cgroups: pattern '%s' matches no cgroup under %s", pat,
			 set->mount);
		return -ENOENT;
	}
	return 0;
}

int cgroups__open(struct cgroup_set *set, const char *list, char *err, size_t errlen)
{
	char **items;
	int nr, ret = 0;

	memset(set, 0, sizeof(*set));
	if (list__split(list, "cgroup", &items, &nr, err, errlen))
		return -EINVAL;
	ret = find_mount(set->mount, sizeof(set->mount));
	if (ret) {
		snprintf(err, errlen,
			 "--cgroups: no cgroup hierarchy with the perf_event controller is "
			 "mounted (mount -t cgroup2 none /sys/fs/cgroup)");
		free(items);
		return ret;
	}
	for (int i = 0; i < nr && !ret; i++) {
		const char *name = items[i];

		if (is_pattern(name)) {
			ret = match(set, name, err, errlen);
			continue;
		}
		while (*name == '/' && name[1]) /* "/a/b" is "a/b" */
			name++;
		if (strstr(name, "..")) {
			snprintf(err, errlen, "--cgroups: '%s' leaves the cgroup mount", items[i]);
			ret = -ENOENT;
			continue;
		}
		ret = add(set, name, err, errlen);
	}
	free(items);
	if (ret)
		cgroups__close(set);
	return ret;
}

void cgroups__close(struct cgroup_set *set)
{
	for (int i = 0; i < set->nr; i++) {
		close(set->fds[i]);
		free(set->names[i]);
	}
	free(set->fds);
	free(set->names);
	memset(set, 0, sizeof(*set));
}
