/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs uprobe events that outlive the process making them (perf-prof
 * usdt add|del|list): the definitions in uprobe_events read back, one
 * written, one event removed.  Unlike a session's own probes (probeset.h)
 * nothing here removes them at exit.  Library code: nothing printed, errors
 * are -errno with the kernel's reason where it gives one.
 */
#ifndef PP_UPROBE_DEFS_H
#define PP_UPROBE_DEFS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/sample.h"

/* One line of uprobe_events: "p:GROUP/EVENT PATH:0xOFF[(0xREF)] [ARGS]". */
struct uprobe_def {
	char *group, *event;
	char *path;
	u64 offset;
	u64 ref_ctr; /* the semaphore's file offset, 0 if none */
	bool ret;    /* a uretprobe ("r:") */
	char *args;  /* " arg1=%di:s32 ..." as the kernel prints them, "" if none */
};

/*
 * Parse one line as the kernel prints it into @d (its strings malloc'd:
 * uprobe_def__clear).  0, -EINVAL (not such a line) or -ENOMEM.
 */
int uprobe_def__parse(const char *line, struct uprobe_def *d);
void uprobe_def__clear(struct uprobe_def *d);

/*
 * Every definition in uprobe_events, in its order, into *@defs (free with
 * uprobe_defs__free).  0; -ENOENT: no tracefs mounted; -EOPNOTSUPP: no
 * uprobe_events (a kernel without CONFIG_UPROBE_EVENTS); -errno.
 */
int uprobe_defs__read(struct uprobe_def **defs, int *nr);
void uprobe_defs__free(struct uprobe_def *defs, int nr);

/*
 * Append @line to uprobe_events ("p:..." makes a probe, or adds one to an
 * event of that name whose arguments are the same; "-:GROUP/EVENT"
 * removes every probe of the event).  0, or -errno with the kernel's
 * reason (its error_log's, else strerror) in @why.
 */
int uprobe_defs__write(const char *line, char *why, size_t len);

#endif
