// SPDX-License-Identifier: GPL-2.0
/* The engine's option groups: targets, ring buffers, the run, the events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/conf.h"
#include "engine/cpulist.h"
#include "util/list.h"
#include "util/units.h"

static int parse_ids(const char *arg, pid_t **out, int *nr, const char *what, char *err,
		     size_t errlen)
{
	int n = *nr, nr_items; /* a repeated option adds to the list */
	char **items;

	if (list__split(arg, what, &items, &nr_items, err, errlen))
		return -1;
	for (int i = 0; i < nr_items; i++) {
		unsigned long long v;
		pid_t *ids;

		if (units__parse_uint(items[i], 1, 4194304, &v)) {
			snprintf(err, errlen,
				 "bad %s '%s' in '%s' (expected numbers like 1234,5678)", what,
				 items[i], arg);
			free(items);
			return -1;
		}
		ids = realloc(*out, (n + 1) * sizeof(*ids));
		if (!ids) {
			free(items);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		*out = ids;
		ids[n++] = (pid_t)v;
	}
	free(items);
	*nr = n;
	return 0;
}

/*
 * A CPU list: the list's own rules first (empty items, spaces), then the
 * ranges.  @what names it in errors ("CPU", "--perfeval-cpus").  The
 * number of CPUs, or -1 with @err.
 */
static int parse_cpus(const char *arg, const char *what, int **cpus, char *err, size_t errlen)
{
	char **items, *joined;
	size_t len = 0;
	int n;

	if (list__split(arg, what, &items, &n, err, errlen))
		return -1;
	for (int i = 0; i < n; i++)
		len += strlen(items[i]) + 1;
	joined = malloc(len + 1);
	if (!joined) {
		free(items);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	joined[0] = 0;
	for (int i = 0; i < n; i++)
		strcat(strcat(joined, i ? "," : ""), items[i]);
	free(items);
	n = cpulist__parse(joined, cpulist__possible(), cpus);
	free(joined);
	if (n <= 0) {
		snprintf(err, errlen, "bad %s list '%s' (e.g. 0-3,5; this host has CPUs 0-%d)",
			 what, arg, cpulist__possible() - 1);
		return -1;
	}
	return n;
}

static int opt_cpus(void *data, const char *arg, char *err, size_t errlen)
{
	struct target_opts *t = data;
	int n;

	free(t->cpus); /* the last -C wins */
	t->cpus = NULL;
	n = parse_cpus(arg, "CPU", &t->cpus, err, errlen);
	if (n < 0)
		return -1;
	t->nr_cpus = n;
	t->cpus_given = true;
	return 0;
}

static int opt_pids(void *data, const char *arg, char *err, size_t errlen)
{
	struct target_opts *t = data;

	return parse_ids(arg, &t->pids, &t->nr_pids, "pid", err, errlen);
}

static int opt_tids(void *data, const char *arg, char *err, size_t errlen)
{
	struct target_opts *t = data;

	return parse_ids(arg, &t->tids, &t->nr_tids, "tid", err, errlen);
}

static int target_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	struct target_opts *t = data;

	(void)set;
	if (!t->nr_cpus) {
		int n = cpulist__online(&t->cpus);

		if (n <= 0) {
			snprintf(err, errlen, "cannot read the online CPUs: %s", strerror(-n));
			return -1;
		}
		t->nr_cpus = n;
	}
	if ((t->nr_pids || t->nr_tids) && t->argv) {
		snprintf(err, errlen, "use either -p/-t or -- COMMAND, not both");
		return -1;
	}
	if (t->cgroups && (t->nr_pids || t->nr_tids || t->argv)) {
		const char *other = t->argv ? "-- COMMAND" : t->nr_pids ? "-p" : "-t";

		snprintf(err, errlen, "--cgroups watches CPUs: it does not go with %s (drop one)",
			 other);
		return -1;
	}
	if (t->ptrace && !t->nr_pids && !t->nr_tids && !t->argv) {
		snprintf(err, errlen,
			 "--ptrace follows the tasks of -p, -t or -- COMMAND: give one");
		return -1;
	}
	if (t->inherit && !t->nr_pids && !t->nr_tids && !t->argv) {
		snprintf(err, errlen, "--inherit applies to -p, -t or -- COMMAND: give one");
		return -1;
	}
	return 0;
}

static void target_free(void *data)
{
	struct target_opts *t = data;

	free(t->cpus);
	free(t->pids);
	free(t->tids);
}

static const struct popt target_opts[] = {
	{ "cpu", 'C', "CPUS", "monitor these CPUs, e.g. 0-3,5 (default: all online)", POPT_CB,
	  .cb = opt_cpus, .alias = "cpus" },
	{ "pid", 'p', "PID,...", "monitor these processes (all threads, and new ones)", POPT_CB,
	  .cb = opt_pids, .alias = "pids" },
	{ "tid", 't', "TID,...", "monitor these threads", POPT_CB, .cb = opt_tids,
	  .alias = "tids" },
	{ "inherit", 0, NULL,
	  "tasks the targets create are targets too: -t threads' children, and for "
	  "profilers that watch CPUs the processes -p's processes fork (-p and -- "
	  "always follow theirs)",
	  POPT_BIND_FLAG(struct target_opts, inherit) },
	{ "cgroups", 0, "NAME,...",
	  "only the tasks of these cgroups (paths under the cgroup mount; a name "
	  "with regex characters is a pattern: each matching cgroup), on every CPU or -C",
	  POPT_BIND_STR(struct target_opts, cgroups) },
	{ "ptrace", 0, NULL,
	  "trace the targets with ptrace: each task they create is stopped at birth "
	  "until it is a target (implies --inherit); detached at the end",
	  POPT_BIND_FLAG(struct target_opts, ptrace) },
	{ 0 },
};

const struct opt_group target_group = {
	.name = "target",
	.opts = target_opts,
	.size = sizeof(struct target_opts),
	.check = target_check,
	.free = target_free,
};

static int exclude_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct exclude_opts *x = data;

	(void)set;
	if (x->guest && x->host) {
		snprintf(err, errlen, "-G/--exclude-host and --exclude-guest leave nothing");
		return -1;
	}
	return 0;
}

static const struct popt exclude_opts[] = {
	{ "exclude-user", 0, NULL, "leave out user mode",
	  POPT_BIND_FLAG(struct exclude_opts, user) },
	{ "exclude-kernel", 0, NULL, "leave out kernel mode",
	  POPT_BIND_FLAG(struct exclude_opts, kernel) },
	{ "exclude-guest", 0, NULL, "leave out the time a guest runs (where the PMU can tell)",
	  POPT_BIND_FLAG(struct exclude_opts, guest) },
	{ "exclude-host", 'G', NULL, "leave out the host: only the time a guest runs",
	  POPT_BIND_FLAG(struct exclude_opts, host), .alias = "guest" },
	{ 0 },
};

const struct opt_group exclude_group = {
	.name = "exclude",
	.opts = exclude_opts,
	.size = sizeof(struct exclude_opts),
	.check = exclude_check,
};

static int exclude_tp_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct exclude_opts *x = data;

	if (exclude_check(data, set, err, errlen))
		return -1;
	if (x->kernel) {
		snprintf(err, errlen,
			 "tracepoints fire in the kernel: --exclude-kernel leaves nothing");
		return -1;
	}
	if (x->host) {
		snprintf(err, errlen,
			 "tracepoints fire in the host's kernel: -G/--exclude-host leaves nothing");
		return -1;
	}
	return 0;
}

const struct opt_group exclude_tp_group = {
	.name = "exclude",
	.opts = exclude_opts,
	.size = sizeof(struct exclude_opts),
	.check = exclude_tp_check,
};

void exclude__attr(const struct exclude_opts *x, struct perf_event_attr *a)
{
	if (!x)
		return;
	a->exclude_user |= x->user;
	a->exclude_kernel |= x->kernel;
	a->exclude_guest |= x->guest;
	a->exclude_host |= x->host;
}

bool exclude__keep(const struct exclude_opts *x, unsigned misc)
{
	if (!x)
		return true;
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_USER:
		return !x->user && !x->host;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return !x->kernel && !x->guest;
	case PERF_RECORD_MISC_GUEST_USER:
		return !x->user && !x->guest;
	default: /* the kernel, the hypervisor */
		return !x->kernel && !x->host;
	}
}

const char *exclude__empty(const struct exclude_opts *x)
{
	if (x && x->user && x->kernel)
		return "--exclude-user and --exclude-kernel leave nothing";
	return NULL;
}

static int opt_pages(void *data, const char *arg, char *err, size_t errlen)
{
	struct ring_opts *r = data;
	unsigned long long v;

	if (units__parse_uint(arg, 1, 1u << 20, &v) || (v & (v - 1))) {
		snprintf(err, errlen, "bad -m '%s' (a power of two, e.g. 64 or 256)", arg);
		return -1;
	}
	r->mmap_pages = (unsigned)v;
	return 0;
}

static int opt_watermark(void *data, const char *arg, char *err, size_t errlen)
{
	struct ring_opts *r = data;
	unsigned long long v;

	if (units__parse_uint(arg, 0, 100, &v)) {
		snprintf(err, errlen, "bad --watermark '%s' (a percentage, 0..100)", arg);
		return -1;
	}
	r->watermark = (unsigned)v;
	r->watermark_set = true;
	return 0;
}

static int opt_order_mem(void *data, const char *arg, char *err, size_t errlen)
{
	struct ring_opts *r = data;
	unsigned long long v;

	/* a few records at least; a terabyte would be a typo */
	if (units__parse_size(arg, &v) || v < 64 * 1024 || v > (1ULL << 40)) {
		snprintf(err, errlen,
			 "bad --order-mem '%s' (a size from 64K to 1T, e.g. 64M or 1G)", arg);
		return -1;
	}
	r->order_mem = v;
	return 0;
}

unsigned ring__default_pages(int nr_cpus, unsigned want)
{
	unsigned long budget = (64UL << 20) / (unsigned long)sysconf(_SC_PAGESIZE);
	unsigned pages = 2048;

	if (nr_cpus < 1)
		nr_cpus = 1;
	while (pages > 128 && (unsigned long)pages * (unsigned long)nr_cpus > budget)
		pages /= 2;
	return want > pages ? want : pages;
}

static const struct popt ring_opts[] = {
	{ "mmap-pages", 'm', "PAGES",
	  "ring buffer pages per CPU, a power of two (default: 64 MiB over all CPUs, "
	  "128..2048 pages each)",
	  POPT_CB, .cb = opt_pages },
	{ "watermark", 0, "PCT",
	  "wake up when PCT% of a ring is filled (0: at every event; "
	  "default 50)",
	  POPT_CB, .cb = opt_watermark },
	{ "order", 0, NULL, "deliver events in time order across CPUs",
	  POPT_BIND_FLAG(struct ring_opts, order) },
	{ "order-mem", 0, "SIZE",
	  "memory for records waiting to be ordered, e.g. 64M or 1G (default 32M); beyond, "
	  "samples are dropped and counted",
	  POPT_CB, .cb = opt_order_mem },
	{ "overwrite", 0, NULL,
	  "flight recorder: the kernel overwrites the oldest records; the newest are read at "
	  "the end, at SIGUSR1 and at each -i interval",
	  POPT_BIND_FLAG(struct ring_opts, overwrite) },
	{ 0 },
};

static int ring_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct ring_opts *r = data;

	(void)set;
	if (r->overwrite && r->watermark_set) {
		snprintf(err, errlen,
			 "--watermark has no use with --overwrite (its rings are read at the end, "
			 "at SIGUSR1 and at -i, never on a wakeup)");
		return -1;
	}
	return 0;
}

const struct opt_group ring_group = {
	.name = "ring",
	.opts = ring_opts,
	.size = sizeof(struct ring_opts),
	.check = ring_check,
};

static int opt_interval(void *data, const char *arg, char *err, size_t errlen)
{
	struct run_opts *r = data;
	unsigned long long v;

	if (units__parse_uint(arg, 1, 86400000, &v)) {
		snprintf(err, errlen, "bad interval '%s' (milliseconds, 1..86400000)", arg);
		return -1;
	}
	r->interval_ms = (unsigned)v;
	return 0;
}

static int opt_usage(void *data, const char *arg, char *err, size_t errlen)
{
	struct run_opts *r = data;
	unsigned long long v;

	if (units__parse_uint(arg, 1, 86400000, &v)) {
		snprintf(err, errlen, "bad --usage-self '%s' (milliseconds, 1..86400000)", arg);
		return -1;
	}
	r->usage_ms = (unsigned)v;
	return 0;
}

static int opt_count(void *data, const char *arg, char *err, size_t errlen)
{
	struct run_opts *r = data;
	unsigned long long v;

	if (units__parse_uint(arg, 1, ~0ULL, &v)) {
		snprintf(err, errlen, "bad count '%s' (a positive number)", arg);
		return -1;
	}
	r->max_samples = v;
	return 0;
}

static int opt_sampling_limit(void *data, const char *arg, char *err, size_t errlen)
{
	struct run_opts *r = data;
	unsigned long long v;

	/* 0: no limit, as the original reads it */
	if (units__parse_uint(arg, 0, 100000000, &v)) {
		snprintf(err, errlen,
			 "bad --sampling-limit '%s' (samples a second per CPU or thread, "
			 "0..100000000)",
			 arg);
		return -1;
	}
	r->sampling_limit = v;
	return 0;
}

/* The list as given (trimmed items joined), for the cost line. */
static int keep_text(char **text, const char *arg, char *err, size_t errlen)
{
	free(*text);
	*text = strdup(arg);
	if (!*text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static int opt_eval_cpus(void *data, const char *arg, char *err, size_t errlen)
{
	struct run_opts *r = data;
	int n;

	free(r->eval_cpus); /* the last one wins, as with -C */
	r->eval_cpus = NULL;
	r->nr_eval_cpus = 0;
	n = parse_cpus(arg, "--perfeval-cpus", &r->eval_cpus, err, errlen);
	if (n < 0)
		return -1;
	r->nr_eval_cpus = n;
	return keep_text(&r->eval_cpus_text, arg, err, errlen);
}

static int opt_eval_pids(void *data, const char *arg, char *err, size_t errlen)
{
	struct run_opts *r = data;

	free(r->eval_pids); /* the last one wins */
	r->eval_pids = NULL;
	r->nr_eval_pids = 0;
	if (parse_ids(arg, &r->eval_pids, &r->nr_eval_pids, "--perfeval-pids", err, errlen))
		return -1;
	return keep_text(&r->eval_pids_text, arg, err, errlen);
}

static void run_free(void *data)
{
	struct run_opts *r = data;

	free(r->eval_cpus);
	free(r->eval_cpus_text);
	free(r->eval_pids);
	free(r->eval_pids_text);
}

static const struct popt run_opts[] = {
	{ "interval", 'i', "MS", "print (and reset) statistics every MS milliseconds", POPT_CB,
	  .cb = opt_interval },
	{ "usage-self", 0, "MS",
	  "print perf-prof's own CPU use, max RSS, records read and lost every MS ms (also on "
	  "SIGUSR2)",
	  POPT_CB, .cb = opt_usage },
	{ "count", 'N', "COUNT", "stop after COUNT samples", POPT_CB, .cb = opt_count,
	  .alias = "exit-N" },
	{ "sampling-limit", 0, "N",
	  "deliver at most N samples a second per CPU (per thread with -p/-t/--); the rest "
	  "are dropped, counted and reported like lost events (0: no limit)",
	  POPT_CB, .cb = opt_sampling_limit },
	{ "perfeval-cpus", 0, "CPUS",
	  "print perf-prof's cost of handling these CPUs' samples (records, bytes, time) with "
	  "each interval and at the end",
	  POPT_CB, .cb = opt_eval_cpus },
	{ "perfeval-pids", 0, "PID,...",
	  "print perf-prof's cost of handling these processes' samples (records, bytes, "
	  "time) with each interval and at the end",
	  POPT_CB, .cb = opt_eval_pids },
	{ 0 },
};

const struct opt_group run_group = {
	.name = "run",
	.opts = run_opts,
	.size = sizeof(struct run_opts),
	.free = run_free,
};

static int opt_event(void *data, const char *arg, char *err, size_t errlen)
{
	struct event_opts *e = data;

	if (e->nr_texts == EV_MAX_POS) {
		snprintf(err, errlen, "-e given more than %d times", EV_MAX_POS);
		return -1;
	}
	e->texts[e->nr_texts++] = arg;
	return 0;
}

/* Each -e parsed, its specs appended with their position; aliases unique across all. */
static int event_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	struct event_opts *e = data;

	(void)set;
	for (int t = 0; t < e->nr_texts; t++) {
		struct ev_spec *specs = NULL, *all;
		struct ev_spec_err perr;
		int n = 0;

		if (evspec__parse_joint(e->texts[t], e->profilers, &specs, &n, &perr)) {
			snprintf(err, errlen, "bad event spec '%s' at offset %d: %s", e->texts[t],
				 perr.pos, perr.msg);
			return -1;
		}
		all = realloc(e->specs, (e->nr_specs + n) * sizeof(*all));
		if (!all) {
			evspec__free(specs, n);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		e->specs = all;
		for (int i = 0; i < n; i++) {
			for (int j = 0; specs[i].alias && j < e->nr_specs; j++)
				if (all[j].alias && !strcmp(all[j].alias, specs[i].alias)) {
					snprintf(err, errlen,
						 "alias '%s' names two events ('%s' and '%s')",
						 specs[i].alias, all[j].text, specs[i].text);
					/* the rest moves in too, for event_free */
					for (int k = i; k < n; k++)
						all[e->nr_specs++] = specs[k];
					free(specs);
					return -1;
				}
			specs[i].pos = t;
			all[e->nr_specs++] = specs[i];
		}
		free(specs); /* the structs moved into e->specs */
	}
	return 0;
}

static void event_free(void *data)
{
	struct event_opts *e = data;

	evspec__free(e->specs, e->nr_specs);
}

static const struct popt event_opts[] = {
	{ "event", 'e', "EVENT,...",
	  "events: sys:name[/filter/][stack/max-stack=N/alias=NAME/...] (globs allowed; "
	  "repeatable)",
	  POPT_CB, .cb = opt_event },
	{ 0 },
};

const struct opt_group event_group = {
	.name = "event",
	.opts = event_opts,
	.size = sizeof(struct event_opts),
	.check = event_check,
	.free = event_free,
};
