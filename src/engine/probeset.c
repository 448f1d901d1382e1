// SPDX-License-Identifier: GPL-2.0
/*
 * A session's probes in tracefs (see probeset.h): made only when the PMU
 * cannot do it, removed by this process.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "engine/probeset.h"
#include "util/stopsig.h"

static void hold_signals(struct probeset *ps)
{
	sigset_t set;

	if (ps->sigs_held)
		return;
	stopsig__set(&set);
	if (!sigprocmask(SIG_BLOCK, &set, &ps->old_mask))
		ps->sigs_held = true;
}

void probeset__cleanup_stale(struct probeset *ps, bool verbose)
{
	char names[512];
	int n;

	if (ps->stale_tried)
		return;
	ps->stale_tried = true;
	n = probe__remove_stale(names, sizeof(names));
	if (n && verbose)
		fprintf(stderr,
			"perf-prof: removed %d probe%s left by perf-prof runs that are gone: %s\n",
			n, n > 1 ? "s" : "", names);
}

static int add_name(struct probeset *ps, const char *file, const char *group, const char *event)
{
	char **n = realloc(ps->names, (ps->nr + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	ps->names = n;
	if (asprintf(&n[ps->nr], "%s\n-:%s/%s", file, group, event) < 0)
		return -ENOMEM;
	ps->nr++;
	return 0;
}

int probeset__make(struct probeset *ps, const char *file, const char *line, const char *group,
		   const char *event, char *why, size_t len)
{
	char rm[256]; /* GROUP and EVENT: 64 bytes each at most (probe.c) */
	int err;

	if (len)
		why[0] = 0;
	hold_signals(ps);
	tracefs_error_clear(NULL);
	if (tracefs_instance_file_append(NULL, file, line) < 0) {
		char *kwhy = tracefs_error_last(NULL);

		err = -errno;
		if (kwhy) {
			char *nl = strchr(kwhy, '\n');

			if (nl)
				*nl = 0;
		}
		snprintf(why, len, "%s", kwhy && *kwhy ? kwhy : strerror(-err));
		free(kwhy);
		return err ? err : -EINVAL;
	}
	err = add_name(ps, file, group, event);
	if (err) { /* it exists, but would not be removed: remove it now */
		snprintf(rm, sizeof(rm), "-:%s/%s", group, event);
		tracefs_instance_file_append(NULL, file, rm);
		return err;
	}
	return 0;
}

void probeset__remove_all(struct probeset *ps, void (*warn)(void *arg, const char *event, int err),
			  void *arg)
{
	for (int i = 0; i < ps->nr; i++) {
		char *nl = strchr(ps->names[i], '\n');

		*nl = 0;
		/* EBUSY while a closing perf event still holds it: a moment later */
		for (int try = 0;; try++) {
			if (tracefs_instance_file_append(NULL, ps->names[i], nl + 1) >= 0)
				break;
			if (errno != EBUSY || try == 250) {
				warn(arg, nl + 3, errno);
				break;
			}
			usleep(20000);
		}
		free(ps->names[i]);
	}
	free(ps->names);
	ps->names = NULL;
	ps->nr = 0;
	if (ps->sigs_held) {
		sigset_t stop;
		struct timespec zero = { 0, 0 };

		/* a stop asked for during the teardown is what the teardown does */
		stopsig__set(&stop);
		while (sigtimedwait(&stop, NULL, &zero) > 0)
			;
		/*
		 * The process is ending (session__delete): stop signals stay
		 * blocked, as session__restore_signals leaves them, so that one
		 * more cannot cut the final output short.
		 */
		sigorset(&ps->old_mask, &ps->old_mask, &stop);
		sigprocmask(SIG_SETMASK, &ps->old_mask, NULL);
		ps->sigs_held = false;
	}
}
