// SPDX-License-Identifier: GPL-2.0
/*
 * The options of the latency profilers (lat_group and its variants,
 * multipoint.h): --than, --perins, --hist, --detail, --heatmap; kvm-exit's
 * --threshold; multi-trace's --only-than and --lower.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/latency/multipoint.h"
#include "util/units.h"

static int opt_detail(void *data, const char *arg, char *err, size_t len)
{
	struct lat_opts *o = data;

	o->detail = true;
	return detail__parse(arg, &o->dopts, err, len);
}

#define LAT_COMMON_OPTS                                                                         \
	{ .lname = "perins",                                                                    \
	  .help = "a row per key too (thread, CPU or key=)",                                    \
	  POPT_BIND_FLAG(struct lat_opts, perins) },                                            \
		{ .lname = "hist",                                                              \
		  .help = "a log2 histogram of each row's latencies",                           \
		  POPT_BIND_FLAG(struct lat_opts, hist) },                                      \
		{ .lname = "detail",                                                            \
		  .argname = "[=OPTS]",                                                         \
		  .help = "with --than: every event between the two ends of a slow pair, "      \
			  "as a timeline; OPTS: -TIME,+TIME (also before the start, after "     \
			  "the end; a bare number is us), samecpu, samepid, sametid, samekey, " \
			  "1, 2 (same* of the start's, the end's event only), hide<TIME",       \
		  .type = POPT_CB,                                                              \
		  .cb = opt_detail },                                                           \
		{ .lname = "heatmap",                                                           \
		  .argname = "NAME",                                                            \
		  .help = "write NAME-A-B.lat (time latency per pair) and draw NAME-A-B.svg "   \
			  "per pair of points",                                                 \
		  POPT_BIND_STR(struct lat_opts, heatmap) },                                    \
	{                                                                                       \
		0                                                                               \
	}

static const struct popt lat_popts[] = {
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "print both events of each pair slower than TIME and count them (ns/us/ms/s; "
		  "a bare number is ms)",
	  POPT_BIND_TIME(struct lat_opts, than, "ms") },
	LAT_COMMON_OPTS,
};

static const struct popt lat_popts_us[] = {
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "print both events of each pair slower than TIME and count them (ns/us/ms/s; "
		  "a bare number is us, as the original's)",
	  POPT_BIND_TIME(struct lat_opts, than, "us") },
	LAT_COMMON_OPTS,
};

static const struct popt lat_popts_mt[] = {
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "print both events of each pair slower than TIME and count them (ns/us/ms/s; "
		  "a bare number is ms)",
	  POPT_BIND_TIME(struct lat_opts, than, "ms") },
	{ .lname = "only-than",
	  .argname = "TIME",
	  .help = "--than TIME without the table: only the pairs slower than TIME print",
	  POPT_BIND_TIME(struct lat_opts, only_than, "ms") },
	{ .lname = "lower",
	  .argname = "TIME",
	  .help = "print both events of each pair faster than TIME and count them in a <TIME "
		  "column (a bare number is ms)",
	  POPT_BIND_TIME(struct lat_opts, lower, "ms") },
	LAT_COMMON_OPTS,
};

/* --threshold TIME (kvm-exit): --than's other name, its unit written */
static int opt_threshold(void *data, const char *arg, char *err, size_t len)
{
	struct lat_opts *o = data;

	if (!arg[strspn(arg, "0123456789.")]) {
		snprintf(err, len,
			 "--threshold %s: write the unit (2ms, 500us): the original's bare number "
			 "was ns, kvm-exit's --than reads us",
			 arg);
		return -1;
	}
	if (units__parse_time(arg, "us", &o->threshold) || !o->threshold) {
		snprintf(err, len, "bad time '%s' for --threshold (e.g. 2ms, 500us, 1.5s)", arg);
		return -1;
	}
	return 0;
}

static const struct popt lat_popts_kvm[] = {
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "print both events of each exit slower than TIME and count them (ns/us/ms/s; "
		  "a bare number is us, as the original's)",
	  POPT_BIND_TIME(struct lat_opts, than, "us") },
	{ .lname = "threshold",
	  .argname = "TIME",
	  .help = "--than TIME under the original bpf:kvm-exit's name (write the unit: 2ms)",
	  .type = POPT_CB,
	  .cb = opt_threshold },
	LAT_COMMON_OPTS,
};

static int lat_check(void *data, const struct opt_set *set, char *err, size_t len)
{
	struct lat_opts *o = data;

	(void)set;
	if (o->threshold && o->than && o->than != o->threshold) {
		snprintf(err, len,
			 "--threshold and --than give two times: give one (--threshold is "
			 "--than's other name)");
		return -1;
	}
	if (o->threshold)
		o->than = o->threshold;
	if (o->only_than && o->than && o->than != o->only_than) {
		snprintf(err, len,
			 "--only-than and --than give two times: give one (--only-than is --than "
			 "without the table)");
		return -1;
	}
	if (o->only_than) {
		o->than = o->only_than;
		o->only = true;
	}
	if (o->lower && o->than && o->lower > o->than) {
		snprintf(err, len,
			 "--lower is above --than: a pair faster than the one and slower than the "
			 "other would print twice; give --lower below --than");
		return -1;
	}
	if (o->detail && !o->than && !o->lower) {
		snprintf(err, len,
			 "--detail needs --than TIME: it shows what happened during the "
			 "pairs slower than TIME");
		return -1;
	}
	if (o->heatmap && !*o->heatmap) {
		snprintf(err, len, "--heatmap: give a NAME (files NAME-A-B.lat and .svg)");
		return -1;
	}
	return 0;
}

const struct opt_group lat_group = {
	.name = "latency",
	.opts = lat_popts,
	.size = sizeof(struct lat_opts),
	.check = lat_check,
};

const struct opt_group lat_group_us = {
	.name = "latency",
	.opts = lat_popts_us,
	.size = sizeof(struct lat_opts),
	.check = lat_check,
};

const struct opt_group lat_group_mt = {
	.name = "latency",
	.opts = lat_popts_mt,
	.size = sizeof(struct lat_opts),
	.check = lat_check,
};

const struct opt_group lat_group_kvm = {
	.name = "latency",
	.opts = lat_popts_kvm,
	.size = sizeof(struct lat_opts),
	.check = lat_check,
};
