// SPDX-License-Identifier: GPL-2.0
/*
 * list: what can be traced on this host, like `perf list`.  Everything
 * comes from sysfs and tracefs.  Plain listing only reads directories
 * (~2300 tracepoints); formats are parsed only for -v on a pattern.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "cmd/list_probe.h"
#include "engine/evname.h"
#include "engine/features.h"
#include "engine/tp.h"
#include "profiler.h"

struct list_priv {
	bool fields; /* --fields: same as -v */
};

#define NAME_WIDTH 48

static void print_aliases(const struct evname_alias *a, int n, const char *kind)
{
	char buf[128];

	for (int i = 0; i < n; i++) {
		if (a[i].alt)
			snprintf(buf, sizeof(buf), "%s OR %s", a[i].name, a[i].alt);
		else
			snprintf(buf, sizeof(buf), "%s", a[i].name);
		printf("  %-*s [%s]\n", NAME_WIDTH, buf, kind);
	}
}

/* Named events of a PMU as "pmu/name/"; -v adds their definitions. */
static void print_pmu_events(const char *pmu, int verbose)
{
	char **ev, rel[320], def[256], name[320];
	int n = features__list(pmu, "events", &ev);

	for (int i = 0; i < n; i++) {
		/* .scale/.unit/.per-pkg files qualify an event, they are not events. */
		if (strchr(ev[i], '.'))
			continue;
		snprintf(name, sizeof(name), "%s/%s/", pmu, ev[i]);
		snprintf(rel, sizeof(rel), "events/%s", ev[i]);
		if (verbose && !features__pmu_read(pmu, rel, def, sizeof(def)))
			printf("    %-*s [Kernel PMU event: %s]\n", NAME_WIDTH - 2, name, def);
		else
			printf("    %-*s [Kernel PMU event]\n", NAME_WIDTH - 2, name);
	}
	features__free_list(ev);
}

static void print_pmu_format(const char *pmu, int verbose)
{
	char **fmt, rel[320], def[128];
	int n = features__list(pmu, "format", &fmt);

	if (n <= 0) {
		features__free_list(fmt);
		return;
	}
	printf("    format:");
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "format/%s", fmt[i]);
		if (verbose && !features__pmu_read(pmu, rel, def, sizeof(def)))
			printf(" %s=%s", fmt[i], def);
		else
			printf(" %s", fmt[i]);
	}
	printf("\n");
	features__free_list(fmt);
}

static void print_hardware(void)
{
	const char *cpu = features__cpu_pmu();
	char why[256];

	printf("Hardware events:\n");
	if (!cpu) {
		printf("  none: %s\n", features__why_not(FEAT_CPU_PMU, why, sizeof(why)));
		return;
	}
	print_aliases(evname__hw, evname__nr_hw, "Hardware event");
	print_pmu_events(cpu, 0);
}

static void print_pmus(int verbose)
{
	char **pmus;
	int n = features__list(NULL, NULL, &pmus);

	printf("PMUs in /sys/bus/event_source/devices:\n");
	if (n < 0)
		printf("  none readable: %s\n", strerror(-n));
	for (int i = 0; i < n; i++) {
		int type = features__pmu_type(pmus[i]);

		if (type >= 0)
			printf("  %-20s type %d\n", pmus[i], type);
		else
			printf("  %-20s type unknown\n", pmus[i]);
		print_pmu_format(pmus[i], verbose);
		print_pmu_events(pmus[i], verbose);
	}
	features__free_list(pmus);
}

static void print_probe(const char *kind, int mask, enum feature f)
{
	char why[256], pmu[16];

	if (!mask) {
		printf("  %s\n", features__why_not(f, why, sizeof(why)));
		return;
	}
	snprintf(pmu, sizeof(pmu), "%.6s", kind); /* "kprobe" / "uprobe" */
	printf("  %ss: supported (", pmu);
	if (mask & PROBE_TRACEFS)
		printf("tracefs %s_events%s", pmu, mask & PROBE_PMU ? ", " : "");
	if (mask & PROBE_PMU)
		printf("PMU %s type %d", pmu, features__pmu_type(pmu));
	printf(")\n");
}

static void print_probes(void)
{
	printf("Dynamic probes:\n");
	print_probe("uprobes", features__uprobes(), FEAT_UPROBES);
	print_probe("kprobes", features__kprobes(), FEAT_KPROBES);
}

/*
 * Tracepoints are read only after checking tracefs by hand: libtracefs
 * would silently mount it (or return an empty list when it may not read
 * it), and the user should learn which of the two is wrong.
 */
static int tracefs_ok(void)
{
	char why[512];
	const char *dir = features__tracefs_dir();
	char ev[4200];

	if (dir) {
		snprintf(ev, sizeof(ev), "%s/events", dir);
		if (!access(ev, R_OK | X_OK))
			return 0;
	}
	fprintf(stderr, "%s\n", features__why_not(FEAT_TRACEFS, why, sizeof(why)));
	return -1;
}

/*
 * "sys:name" globs both parts; a pattern without ':' matches either the
 * system or the event name, so `list sched` and `list 'sched_wake*'` work.
 */
static bool tp_match(const char *pattern, const char *tp)
{
	const char *colon = strchr(tp, ':');
	const char *pc = strchr(pattern, ':');
	char sys[256], psys[256];

	if (!colon || colon - tp >= (long)sizeof(sys))
		return false;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - tp), tp);
	if (!pc)
		return !fnmatch(pattern, sys, 0) || !fnmatch(pattern, colon + 1, 0);
	if (pc - pattern >= (long)sizeof(psys))
		return false;
	snprintf(psys, sizeof(psys), "%.*s", (int)(pc - pattern), pattern);
	return !fnmatch(psys[0] ? psys : "*", sys, 0) &&
	       !fnmatch(pc[1] ? pc + 1 : "*", colon + 1, 0);
}

static bool any_match(const char *pattern, char **all)
{
	for (int i = 0; all[i]; i++)
		if (tp_match(pattern, all[i]))
			return true;
	return false;
}

/* One line of advice for a pattern that matched nothing. */
static void no_match(const char *pattern, char **all)
{
	const char *pc = strchr(pattern, ':');
	char glob[300];

	if (!pc) {
		snprintf(glob, sizeof(glob), "*%s*", pattern);
		if (pattern[0] && any_match(glob, all))
			fprintf(stderr, "no tracepoint matches '%s' (try: perf-prof list '%s')\n",
				pattern, glob);
		else
			fprintf(stderr, "no tracepoint matches '%s' (try: perf-prof list)\n",
				pattern);
		return;
	}
	snprintf(glob, sizeof(glob), "%.*s:*", (int)(pc - pattern), pattern);
	if (any_match(glob, all)) {
		fprintf(stderr, "no tracepoint matches '%s' (try: perf-prof list '%s')\n", pattern,
			glob);
		return;
	}
	/* A wrong system name: maybe the event lives in another system. */
	snprintf(glob, sizeof(glob), "*:%s", pc + 1);
	if (pc[1] && any_match(glob, all))
		fprintf(stderr,
			"no tracepoint matches '%s': no system '%.*s' (try: perf-prof list '%s')\n",
			pattern, (int)(pc - pattern), pattern, pc + 1);
	else
		fprintf(stderr,
			"no tracepoint matches '%s': no system '%.*s' (try: perf-prof list)\n",
			pattern, (int)(pc - pattern), pattern);
}

/* The "print fmt:" line exactly as the kernel wrote it. */
static void print_fmt_line(const char *sys, const char *name)
{
	int size = 0;
	char *buf = tracefs_event_file_read(NULL, sys, name, "format", &size);
	char *line = buf ? strstr(buf, "\nprint fmt: ") : NULL;

	if (line) {
		line++;
		line[strcspn(line, "\n")] = '\0';
		printf("  %s\n", line);
	}
	free(buf);
}

static void field_type(const struct tep_format_field *f, char *buf, size_t len)
{
	/* libtraceevent keeps "[16]" in the type of fixed arrays already. */
	if ((f->flags & TEP_FIELD_IS_ARRAY) && !(f->flags & TEP_FIELD_IS_DYNAMIC) &&
	    !strchr(f->type, '['))
		snprintf(buf, len, "%s[%u]", f->type, f->arraylen);
	else
		snprintf(buf, len, "%s", f->type);
}

static void print_fields(struct tep_format_field *f, int nr)
{
	char type[128];

	for (int i = 0; f && i < nr; f = f->next, i++) {
		field_type(f, type, sizeof(type));
		printf("  %6d %5d  %-8s  %-32s %s%s\n", f->offset, f->size,
		       f->flags & TEP_FIELD_IS_SIGNED ? "signed" : "unsigned", type, f->name,
		       f->flags & TEP_FIELD_IS_RELATIVE	 ? "  (__rel_loc: offset/len of data)"
		       : f->flags & TEP_FIELD_IS_DYNAMIC ? "  (__data_loc: offset/len of data)"
							 : "");
	}
}

static int print_details(struct tp_db *db, const char *tp)
{
	char sys[256];
	const char *name = strchr(tp, ':') + 1;
	struct tep_event *ev;

	snprintf(sys, sizeof(sys), "%.*s", (int)(name - 1 - tp), tp);
	ev = tp__event(db, sys, name);
	printf("%s [Tracepoint event]\n", tp);
	if (!ev) {
		printf("  format unreadable: %s\n", strerror(errno));
		return -1;
	}
	printf("  id: %d\n", ev->id);
	printf("  %6s %5s  %-8s  %-32s %s\n", "offset", "size", "sign", "type", "field");
	print_fields(ev->format.common_fields, ev->format.nr_common);
	print_fields(ev->format.fields, ev->format.nr_fields);
	print_fmt_line(sys, name);
	printf("\n");
	return 0;
}

static int list_tracepoints(int argc, char **argv, bool details, bool header)
{
	char **all = NULL;
	int n, ret = 0, width = 0;
	struct tp_db *db = NULL;
	bool *hit;

	if (tracefs_ok())
		return 1;
	n = tp__expand("*", "*", &all);
	if (n < 0) {
		fprintf(stderr, "cannot read the tracepoints: %s\n", strerror(-n));
		return 1;
	}
	hit = calloc(argc + 1, sizeof(*hit));
	if (!hit) {
		tp__free_list(all);
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	if (details) {
		db = tp__new();
		if (!db) {
			fprintf(stderr, "cannot load tracepoint formats: %s\n", strerror(errno));
			ret = 1;
			goto out;
		}
	}
	/* Two passes: the column width first, so every line lines up. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass && header)
			printf("Tracepoints:\n");
		for (int i = 0; i < n; i++) {
			bool match = argc == 0;

			for (int a = 0; a < argc; a++) {
				if (tp_match(argv[a], all[i])) {
					hit[a] = true;
					match = true;
				}
			}
			if (!match)
				continue;
			if (!pass) {
				int len = strlen(all[i]);

				width = len > width ? len : width;
			} else if (details) {
				if (print_details(db, all[i]))
					ret = 1;
			} else {
				printf("%s%-*s [Tracepoint event]\n", header ? "  " : "", width,
				       all[i]);
			}
		}
	}
	for (int a = 0; a < argc; a++) {
		if (!hit[a]) {
			no_match(argv[a], all);
			ret = 1;
		}
	}
out:
	tp__delete(db);
	free(hit);
	tp__free_list(all);
	return ret;
}

/* A full disk or a closed pipe must not pass for a complete listing. */
static int stdout_ok(int ret)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "perf-prof list: cannot write the list: %s\n", strerror(errno));
		return 1;
	}
	return ret;
}

static int list_run(const struct opt_set *opts, void *priv, int argc, char **argv)
{
	const struct log_opts *log = opt_set__get(opts, &log_group);
	struct list_priv *lp = priv;
	int verbose = log->verbose || (lp && lp->fields);

	if (argc > 0 && list_probe__is_probe(argv[0])) {
		int ret = 0;

		for (int i = 0; i < argc; i++) {
			int r = list_probe__is_probe(argv[i]) ? list_probe(argv[i]) : 2;

			if (!list_probe__is_probe(argv[i]))
				fprintf(stderr,
					"perf-prof list: '%s': probes and tracepoint "
					"patterns are listed apart\n",
					argv[i]);
			ret = r > ret ? r : ret;
		}
		return stdout_ok(ret);
	}
	if (argc > 0)
		return stdout_ok(list_tracepoints(argc, argv, verbose, false));

	printf("Software events:\n");
	print_aliases(evname__sw, evname__nr_sw, "Software event");
	printf("\n");
	print_hardware();
	printf("\n");
	print_pmus(verbose);
	printf("\n");
	print_probes();
	printf("\n");
	fflush(stdout);
	return stdout_ok(list_tracepoints(0, NULL, false, true));
}

static const struct popt list_opts[] = {
	{ .lname = "fields",
	  .help = "with a pattern: print each tracepoint's id, fields and print format (as -v)",
	  POPT_BIND_FLAG(struct list_priv, fields) },
	{ 0 },
};

const struct command cmd_list = {
	.name = "list",
	.desc = "list software, hardware and PMU events, dynamic probe support and tracepoints",
	.synopsis = "perf-prof list [-v|--fields] [PATTERN...]",
	.examples =
		"perf-prof list                          # everything this host offers\n"
		"perf-prof list 'sched:*'                # the tracepoints of one system\n"
		"perf-prof list sched                    # same: a bare word matches a system\n"
		"perf-prof list 'sched_wake*'            # ... or event names in any system\n"
		"perf-prof list -v sched:sched_switch    # its fields, offsets and print format\n"
		"perf-prof list 'uprobe:malloc@\"libc.so.6\"'  # where a probe goes, its "
		"arguments\n"
		"perf-prof list 'usdt:*:*@\"/usr/bin/python3\"' # the USDT probes of a file",
	.own = list_opts,
	.priv_size = sizeof(struct list_priv),
	.run = list_run,
};
