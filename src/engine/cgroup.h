/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --cgroups NAME,...: the cgroup directories whose tasks a CPU-wide session
 * watches (perf_event_open with PERF_FLAG_PID_CGROUP and the directory's
 * fd, on each CPU).  Names are paths under the hierarchy that holds the
 * perf_event controller (a v1 mount with it, else the cgroup2 mount); a
 * name with a regular expression character ({}[]()|*+?^$) is a POSIX basic
 * regular expression matched anywhere in every cgroup's path (anchor it
 * with ^...$), as the original perf-prof reads it; "/" is the root.
 */
#ifndef PP_CGROUP_H
#define PP_CGROUP_H

#include <stddef.h>

struct cgroup_set {
	int *fds;     /* O_RDONLY directory fds, close-on-exec */
	char **names; /* paths relative to the mount ("/" for the root) */
	int nr;
	char mount[256];
};

/*
 * Resolve @list into @set.  0, or -errno with one line in @err: -ENOENT
 * when a name does not exist or a pattern matches nothing, -EINVAL for a
 * bad pattern (both usage errors), -ENODEV when no hierarchy has the
 * perf_event controller, others from open(2).
 */
int cgroups__open(struct cgroup_set *set, const char *list, char *err, size_t errlen);
void cgroups__close(struct cgroup_set *set);

#endif
