/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's resolver of user probes (session__set_probe_resolver):
 * uprobe:FUNC[+OFF]@FILE, uretprobe:FUNC@FILE and usdt:PROVIDER:NAME@FILE
 * to files and offsets, with the messages a user can act on.
 */
#ifndef PP_PROBE_RES_H
#define PP_PROBE_RES_H

#include "engine/probe.h"

int probe_res__resolve(struct session *s, const struct ev_spec *spec, struct probe_site **sites,
		       int *nr);

/*
 * The file @spec names, found for @pid (0: as the dynamic linker would),
 * into @path.  0, or -errno with a one-line reason in @err.
 */
int probe_res__file(const struct ev_spec *spec, pid_t pid, char *const *argv, char *path,
		    size_t len, char *err, size_t errlen);

/*
 * The sites of @spec in @path (functions: one; USDT: one per note).
 * 0, or -errno with a one-line reason in @err.
 */
int probe_res__sites(const struct ev_spec *spec, const char *path, struct probe_site **sites,
		     int *nr, char *err, size_t errlen);

#endif
