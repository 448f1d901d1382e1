/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-prof usdt: what its add, del (usdt.c) and list (usdt_list.c) share:
 * an argument [[PROVIDER:]NAME@]BINARY[@ADDR] taken apart and resolved to
 * the USDT notes it names (sym/probe_res.h's probe sites), and the names
 * of the tracefs events they become.
 */
#ifndef PP_CMD_USDT_H
#define PP_CMD_USDT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/probe.h"
#include "engine/uprobe_defs.h"

struct uspec {
	const char *text;	       /* as written */
	char provider[128], name[128]; /* globs ("*" when not given) */
	bool named;		       /* a probe was named, not the whole binary */
	bool has_addr;		       /* @ADDR: the note at this address only */
	unsigned long long addr;
	char path[PATH_MAX];	  /* the binary (its real path) */
	struct probe_site *sites; /* the notes it names, in note order */
	int nr;
};

/*
 * Take @text apart and find its notes into @u (uspec__clear).  0, or the
 * exit status (2: what the argument names is wrong; 1: out of memory)
 * with one line in @err.
 */
int uspec__resolve(struct uspec *u, const char *text, char *err, size_t len);
void uspec__clear(struct uspec *u);

/* The tracefs name of a provider or probe name: [A-Za-z0-9_], not starting with a digit. */
void usdt__tracefs_name(const char *s, char *out, size_t len);
/* A site's provider and name ("provider:name" in site->symbol), into @prov and @name. */
void usdt__site_names(const struct probe_site *st, char *prov, size_t plen, char *name,
		      size_t nlen);
/* Whether uprobe_events' @d is on the file @path (its path or the same inode). */
bool usdt__same_file(const struct uprobe_def *d, const char *path);
/*
 * Read uprobe_events into @defs: 0, or the exit status 1 with one line in
 * @err naming what this host lacks (no tracefs, no uprobe events).
 */
int usdt__read_defs(struct uprobe_def **defs, int *nr, char *err, size_t len);

/* usdt list (usdt_list.c): the exit status. */
int usdt_list(struct uspec *specs, int nr, bool json, int verbose);

#endif
