/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency engine under multi-trace, mpdelay, syscalls, rundelay,
 * kvm-exit and blktrace: points A, B, C... on a path, pairs of points
 * measured per key, and the output they share.
 *
 * A profiler decides which event is which point and what its key is (a
 * thread, a CPU, a request's sector, any key=EXPR), then calls
 * multipoint__start at a point (the pair from there to the next is open under
 * the key; a newer start replaces it) and multipoint__end at a later point
 * (the pair under the same key closes).  multipoint records the latency in a
 * table (one row per pair of points, or per row the profiler's row hook
 * chooses: a syscall, an exit reason), per key too with --perins; prints
 * both events of a pair slower than --than; keeps a log2 histogram with
 * --hist.  Pending pairs live in analysis/pairs stores (one per start
 * point): lost records drop them, a key's task exit forgets or closes
 * them, memory is bounded by the open pairs (at most MULTIPOINT_MAX_KEYS per
 * point, refusals counted and reported).
 *
 * The module owns its session hooks: multipoint__ready registers its set
 * (lost records, -i intervals, SIGUSR1 snapshots; task exits and --detail's
 * view of every event when the keys are threads), so a profiler over it is
 * a configuration, the handlers of its events (evsel__set_handler) and its
 * row hook; its deinit ends with multipoint__done.
 *
 * The generic dispatcher of multi-trace and mpdelay (every event a point,
 * key=/role= attributes, -k) is multipoint_ev.c.
 */
#ifndef PP_MULTIPOINT_H
#define PP_MULTIPOINT_H

#include <stdbool.h>

#include "analysis/latency/detail.h"
#include "engine/evspec.h"
#include "engine/session.h"
#include "report/lat_table.h"
#include "util/opt.h"

#define MULTIPOINT_MAX_POINTS EV_MAX_POS
#define MULTIPOINT_MAX_KEYS (1u << 20)
/* keys with nothing open for this long (event time) are freed: sectors, pointers come and go */
#define MULTIPOINT_IDLE_NS 1000000000ULL
#define MULTIPOINT_NAME 64
#define MULTIPOINT_DATA 2 /* words a profiler may keep with a start */

/* The options every latency profiler takes (lat_group). */
struct lat_opts {
	unsigned long long than; /* ns; 0: none */
	bool perins, hist;
	bool detail;		      /* --detail[=OPTS] (needs --than) */
	struct detail_opts dopts;     /* its OPTS */
	unsigned long long threshold; /* lat_group_kvm's --threshold: --than's other name */
	const char *heatmap;	      /* --heatmap NAME: NAME-A-B.lat and .svg per pair of points */
	/* lat_group_mt (multi-trace) only */
	unsigned long long only_than; /* --only-than TIME: --than, and no table */
	unsigned long long lower;     /* --lower TIME: pairs faster than TIME printed, counted */
	bool only;		      /* --only-than given: the slow pairs only, no table */
};
/*
 * --than's bare number: ms; lat_group_us: us (the seed's mpdelay);
 * lat_group_kvm: us, and --threshold TIME its other name (the original's
 * bpf:kvm-exit), whose unit must be written.  lat_group_mt: lat_group and
 * multi-trace's --only-than TIME (--than without the table) and --lower
 * TIME (the pairs faster than TIME printed as --than prints the slow ones,
 * and counted in a "<TIME" column).
 */
extern const struct opt_group lat_group, lat_group_us, lat_group_kvm, lat_group_mt;

/* A closed pair, as the hooks see it. */
struct multipoint_pair {
	int from, to; /* points */
	u64 key;      /* the pair's key */
	u64 start, delta;
	const u64 *data; /* the words multipoint__start's caller kept (MULTIPOINT_DATA) */
	/* the events at both ends; start_smp NULL unless kept (--than), end_* NULL at exit */
	struct evsel *start_ev, *end_ev;
	const struct sample *start_smp, *end_smp;
};

/* Where a closed pair goes in the table (the row hook fills it). */
struct multipoint_row {
	u64 key;	       /* the row's key (one row per value) */
	int group;	       /* rows print by group, then by total */
	char label[LAT_LABEL]; /* its label (made once per row) */
	bool mark;	       /* count it in the mark column (errors) */
	bool skip;	       /* not recorded at all */
	bool quiet;	       /* recorded, counted over --than, never printed as slow */
	u64 over;	       /* multipoint__record_hist: how many are above --than */
};

struct multipoint;

struct multipoint_conf {
	const char *who; /* "syscalls": messages */
	int nr_points;	 /* 2..MULTIPOINT_MAX_POINTS (1 with cycle) */
	bool cycle;	 /* the last point pairs with the first (one point: with itself) */
	const struct lat_opts *lat;
	/* the --perins key column: "TID", "CPU", "KEY"; keys print in hex when "KEY" */
	const char *key_title;
	const char *row_title;	/* the row column's title: NULL "START => END" */
	int row_width;		/* its width; 0: the widest default label */
	const char *mark_title; /* a count column ("errors"), NULL none */
	/*
	 * --json: the member that holds a row's label ("syscall": "read");
	 * NULL: "from" and "to", the names of the pair's points
	 */
	const char *json_row;
	/* ends[k]: bit j set when a pair from point k may end at point j; 0: the next point */
	unsigned ends[MULTIPOINT_MAX_POINTS];
	bool keep_start; /* keep the start sample even without --than */
	/*
	 * Keys are threads: exit_forgets drops a task's pending pairs at its
	 * exit (multipoint__forget); see_by_thread shows every sample to
	 * --detail under its thread (multipoint__see) before the event's
	 * handler runs.  Without them, the profiler does these itself.
	 */
	bool exit_forgets, see_by_thread;
	/* the row of a closed pair; NULL: one row per pair of points */
	void (*row)(void *arg, const struct multipoint_pair *p, struct multipoint_row *row);
	void *arg;
	/*
	 * A report in place of the table (multi-trace --impl pair: the pairs
	 * left open), at each interval, SIGUSR1 and the end; NULL: the table.
	 * With it the start events are kept (keep_start).
	 */
	void (*report)(struct multipoint *mt, void *arg, struct session *s);
	void *report_arg;
};

struct multipoint;

/* NULL with the session's error set.  Point names come with multipoint__name. */
struct multipoint *multipoint__new(struct session *s, const struct multipoint_conf *conf);
void multipoint__delete(struct multipoint *mt);

/* Name point @k: @full ("sys:name") and @brief (without the system) when labels are long. */
void multipoint__name(struct multipoint *mt, int k, const char *full, const char *brief);
/*
 * Once the points are named, at the end of init: the table, the --heatmap
 * files (their errors are the run's), and the module's hook set registered
 * with @s (it lasts as long as the session: delete @mt only at the end, in
 * deinit).  0 or -errno with the session's error set.
 */
int multipoint__ready(struct multipoint *mt, struct session *s);
/* The end (deinit): multipoint__finish if the session started, then delete (NULL: nothing). */
void multipoint__done(struct multipoint *mt, struct session *s);
/*
 * Every event the profiler sees, once, before it starts or ends anything
 * with it (--detail's window; nothing without --detail): @key its key
 * when @has_key.
 */
void multipoint__see(struct multipoint *mt, struct session *s, struct evsel *ev,
		     const struct sample *smp, u64 key, bool has_key);
const char *multipoint__point_name(const struct multipoint *mt, int k);
/* Whether point @k opens a pair (not the last, unless cycle). */
bool multipoint__opens(const struct multipoint *mt, int k);

/*
 * Open the pair from point @k under @key with the event @ev/@smp: the words
 * the caller may keep (zeroed), or NULL when refused (counted).
 */
u64 *multipoint__start(struct multipoint *mt, struct session *s, int k, u64 key, struct evsel *ev,
		       const struct sample *smp);
/* The words of the pending pair from @k under @key (NULL if none); *start its time. */
u64 *multipoint__pending(struct multipoint *mt, int k, u64 key, u64 *start);
/*
 * Close the pair from point @from under @key at point @to with @ev/@smp
 * (@ev NULL: at @time, with no event: the task exited, a switch record).  True when one was
 * pending (then it was recorded).
 */
bool multipoint__end(struct multipoint *mt, struct session *s, int from, int to, u64 key,
		     struct evsel *ev, const struct sample *smp, u64 time);
/* Drop the pending pair from @k under @key, uncounted (not wanted after all). */
void multipoint__cancel(struct multipoint *mt, int k, u64 key);

/*
 * Pairs measured elsewhere (the BPF back end's maps): the values of @h (its
 * count, min, max and sum exact) recorded in the row @row of pairs from
 * point @from to @to under @key (the --perins key), @marked of them marked
 * (@row NULL: the pair's own row, as multipoint__end records it: the row
 * hook, if any, sees a pair of @from, @to and @key, without events or delta).
 * No --than, --heatmap or --detail (those need each pair).
 */
struct hist;
void multipoint__record_hist(struct multipoint *mt, int from, int to, u64 key,
			     const struct multipoint_row *row, const struct hist *h, u64 marked);
/* The row multipoint__record_hist gives pairs @from => @to under @key when its @row is NULL. */
void multipoint__own_row(struct multipoint *mt, int from, int to, u64 key,
			 struct multipoint_row *row);
/*
 * A slow pair measured elsewhere (copied out of the kernel, already in the
 * table by multipoint__record_hist), printed as multipoint__end prints one
 * over --than: its row's label from the row hook, both events.
 */
void multipoint__print_pair(struct multipoint *mt, struct session *s,
			    const struct multipoint_pair *p);
/* A pair measured elsewhere into the --heatmap of @from => @to (as multipoint__end writes one). */
void multipoint__heat_pair(struct multipoint *mt, struct session *s, int from, int to, u64 start,
			   u64 delta);
/* Pending pairs from @k kept elsewhere dropped at their task's exit (counted as exited). */
void multipoint__add_exited(struct multipoint *mt, int k, u64 n);
/* ... started again before an end, and ended before they started (counted as such). */
void multipoint__add_dropped(struct multipoint *mt, int k, u64 replaced, u64 backwards);
/* Pairs kept elsewhere still open at the end (said with the module's own). */
void multipoint__add_open(struct multipoint *mt, u64 n);

/* Every pair open from point @k: its key, its start's time and event (@smp NULL if not kept). */
void multipoint__for_each_open(struct multipoint *mt, int k,
			       void (*fn)(u64 key, u64 start, struct evsel *ev,
					  const struct sample *smp, void *arg),
			       void *arg);
/*
 * This interval's pairs from point @k: opened (starts), closed (ends that
 * found their start), ends at the next point that found none, opens
 * dropped pending at lost records (their close may be among the lost), and
 * the closes of those seen later (not counted as ends without an open).
 */
void multipoint__pair_counts(const struct multipoint *mt, int k, u64 *opened, u64 *closed,
			     u64 *unopened, u64 *after_loss, u64 *closed_after_loss);
bool multipoint__json(const struct multipoint *mt);
int multipoint__nr_points(const struct multipoint *mt);

/* Records were lost: every pending pair is dropped (counted). */
void multipoint__lost(struct multipoint *mt);
/* @key's task exited: its pending pairs are dropped (counted). */
void multipoint__forget(struct multipoint *mt, u64 key);

/*
 * The table, the histograms, the drops; multipoint__reset for the next interval.
 * With --json (README "multi-trace"): a "row" line per row (its label under
 * json_row or as "from" and "to", the --perins key under the key column's
 * name: "tid", "cpu", "sector", "key"), a "dropped" line per start point
 * that dropped pairs; slow pairs are "slow" lines as they close.
 */
void multipoint__print(struct multipoint *mt, struct session *s);
/* What an -i interval prints, now, and the next interval begins (the trigger attribute). */
void multipoint__interval(struct multipoint *mt, struct session *s);
/* At the end of a run that started: print, then draw the --heatmap SVGs. */
void multipoint__finish(struct multipoint *mt, struct session *s);
void multipoint__reset(struct multipoint *mt);

/* Print one event as trace prints it (its stack under it, if it has one). */
void multipoint__print_event(struct session *s, struct evsel *ev, const struct sample *smp,
			     FILE *out);

#endif
