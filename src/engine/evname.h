/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event names for counting mode (stat, hrcount, hwstat), spelled as for
 * `perf stat -e`:
 *
 *   LIST   := ITEM[,ITEM...]
 *   ITEM   := EVENT | {EVENT[,EVENT...]}[:MODS]     (groups do not nest)
 *   EVENT  := NAME[:MODS]
 *           | rHEX[:MODS]                            raw PMU event
 *           | PMU/TERM[,TERM...]/[[:]MODS]           a sysfs PMU
 *           | SYS:NAME[:MODS]                        a tracepoint
 *   NAME   := a generic software or hardware event (evname__sw, evname__hw,
 *             e.g. cpu-clock, cs, cycles) or a hardware cache event
 *             CACHE[-OP][-RESULT] (L1-dcache-load-misses, LLC-loads,
 *             dTLB-store-misses, branch-load-misses, ...)
 *   TERM   := ALIAS                   a file in PMU/events/ (its terms apply,
 *                                     ALIAS.scale and ALIAS.unit too)
 *           | FIELD[=VALUE]           a file in PMU/format/; no value means 1
 *           | config=N | config1=N | config2=N
 *           | name=TEXT               the display name
 *   MODS   := one or more of u k h G H
 *
 * An alias's own terms are applied first, so the user's terms override them
 * wherever written (uncore_imc_0/cas_count_read,umask=0xc/).  An alias term
 * "?" must be given by the user.  period= is refused (counting mode does
 * not sample); a value that does not fit its format's bits is an error.
 *
 * Which colon is which: an event with a '/' is a PMU event.  Otherwise
 * the word before the first ':' decides: a generic or cache name or rHEX
 * is followed by modifiers only; any other word is a tracepoint system, and
 * the event is SYS:NAME with an optional third part of modifiers.  So
 * "cycles:u" is cycles in user mode, "sched:sched_switch" a tracepoint and
 * "sched:sched_switch:k" the same in kernel mode only.  No tracepoint system
 * here is named like a generic or cache event or rHEX; one that were would
 * be read as that event.
 *
 * Modifiers: any of u, k, h excludes the modes not named (u alone:
 * exclude_kernel and exclude_hv); any of G, H likewise for guest and host.
 * The letters after a group's '}' apply to every member, added to the
 * member's own (so {a:k}:u counts user and kernel).  Nothing else is set:
 * no precise levels (p is refused), and unlike perf, no exclude_guest by
 * default: guest time is excluded only when G/H say so.
 *
 * Values are decimal or 0x hex.  The parser only reads sysfs (through
 * engine/features.h, so tests can point it at a fake tree), never prints
 * and never exits.
 */
#ifndef PP_EVNAME_H
#define PP_EVNAME_H

#include <stddef.h>
#include <linux/perf_event.h>

struct evname {
	/* size, type, config, config1, config2, exclude_user/kernel/hv/guest/host; nothing else */
	struct perf_event_attr attr;
	double scale;	    /* 1.0, or the sysfs alias's NAME.scale (e.g. 6.103515625e-5) */
	char unit[16];	    /* "", the alias's NAME.unit ("MiB"); "msec" for cpu-clock/task-clock
			 * (scale 1e-6: their counts are nanoseconds) */
	char name[128];	    /* display name as the user wrote the event, modifiers included
			 * ("cycles:u", "uncore_imc_0/cas_count_read/", "sched:sched_switch");
			 * a group's modifiers are appended; name= replaces it; truncated */
	char *sys, *tp;	    /* a tracepoint "sys:name": both set (malloc'd), attr.type =
			 * PERF_TYPE_TRACEPOINT, attr.config 0 (the caller resolves the id
			 * through tracefs); NULL otherwise */
	int leader;	    /* index in the list of its group's leader ({a,b}: both have the
			 * index of a); -1 outside a group */
	char cpumask[1024]; /* a PMU's sysfs cpumask ("0,18"): an uncore PMU counts a whole
			    * package (or die), read on one CPU of each, as perf stat does;
			    * "" for PMUs without one (the CPU's own, software, msr) */
};

/*
 * Parse one event (no groups, no list); leader is -1.  0, or -EINVAL/-ENOMEM
 * with one line in @err, e.g. "unknown event 'foo': see perf-prof list".
 * On error *ev holds nothing to free.
 */
int evname__parse(const char *text, struct evname *ev, char *err, size_t errlen);

/*
 * @list with each event of the core PMU named "cpu" ("cpu/event=..../")
 * on @pmu instead ("cpu_core" on a hybrid Intel host), in @buf; @list
 * itself when @pmu is NULL or "cpu", NULL when @buf is too small.
 */
const char *evname__on_pmu(const char *list, const char *pmu, char *buf, size_t len);
/*
 * Parse an -e list: "a,b,{c,d},{e,f}:u,sys:name"; appends to *evs (realloc'd),
 * *nr updated, leaders are indexes into *evs.  0, or -EINVAL/-ENOMEM with
 * @err: then *nr is unchanged and nothing was added.
 */
int evname__parse_list(const char *text, struct evname **evs, int *nr, char *err, size_t errlen);

/* Frees the events' strings and the array @evs itself (NULL is fine). */
void evname__free(struct evname *evs, int nr);
/* Frees one event's strings (for evname__parse's result); the struct itself stays. */
void evname__clear(struct evname *ev);

/* The generic software/hardware names ("cpu-clock", "cs", ...): for `list` and completion.
 * Index = attr.config (PERF_COUNT_SW_*, PERF_COUNT_HW_*); alt is perf's short form or NULL. */
struct evname_alias {
	const char *name, *alt;
};
extern const struct evname_alias evname__sw[], evname__hw[];
extern const int evname__nr_sw, evname__nr_hw;

#endif
