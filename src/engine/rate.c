// SPDX-License-Identifier: GPL-2.0
/* --sampling-limit and --perfeval-cpus/--perfeval-pids: see rate.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rate.h"
#include "util/json.h"

/*
 * A thread's samples come from one ring per CPU, each drained whole in
 * turn: a later second's sample may be counted before an earlier
 * second's.  Each slot keeps the counts of the last RATE_SECS seconds.
 */
#define RATE_SECS 4

/* One CPU's or thread's counts in the newest seconds. */
struct slot {
	unsigned long long sec;		     /* the newest second seen */
	unsigned long long count[RATE_SECS]; /* second s's in count[s % RATE_SECS] */
	unsigned long long dropped;
	unsigned tid;
	bool used; /* threads: the hash entry is taken */
};

/* One --perfeval-* list: the ids (sorted) and the cost since the last line. */
struct eval {
	const char *what; /* "cpus", "pids" */
	const char *text; /* the list as given */
	int *ids;
	int nr;
	bool *seen; /* of ids[i] this time: the instances */
	int instances;
	unsigned long long records, bytes, ns;
};

struct rate {
	unsigned long long limit;
	bool per_thread;
	struct slot *slots; /* by CPU, or a hash of threads (linear probing) */
	size_t nr_slots, used;
	unsigned long long dropped;
	struct eval eval[2];
	unsigned long long sampled; /* samples handled since the last line */
};

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int eval_init(struct eval *e, const char *what, const char *text, const int *ids, int nr)
{
	int n = 0;

	e->what = what;
	e->text = text ? text : "";
	if (!nr)
		return 0;
	e->ids = malloc(nr * sizeof(*e->ids));
	e->seen = calloc(nr, sizeof(*e->seen));
	if (!e->ids || !e->seen)
		return -ENOMEM;
	memcpy(e->ids, ids, nr * sizeof(*ids));
	qsort(e->ids, nr, sizeof(*e->ids), cmp_int);
	for (int i = 0; i < nr; i++) /* a pid given twice is one instance */
		if (!n || e->ids[n - 1] != e->ids[i])
			e->ids[n++] = e->ids[i];
	e->nr = n;
	return 0;
}

struct rate *rate__new(const struct run_opts *run, int max_cpu, bool per_thread)
{
	struct rate *r;

	errno = 0;
	if (!run->sampling_limit && !run->nr_eval_cpus && !run->nr_eval_pids)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		goto nomem;
	r->limit = run->sampling_limit;
	r->per_thread = per_thread;
	if (r->limit) {
		r->nr_slots = per_thread ? 64 : (size_t)max_cpu;
		r->slots = calloc(r->nr_slots, sizeof(*r->slots));
		if (!r->slots)
			goto nomem;
	}
	if (eval_init(&r->eval[0], "cpus", run->eval_cpus_text, run->eval_cpus,
		      run->nr_eval_cpus) ||
	    eval_init(&r->eval[1], "pids", run->eval_pids_text, run->eval_pids, run->nr_eval_pids))
		goto nomem;
	return r;
nomem:
	rate__delete(r);
	errno = ENOMEM;
	return NULL;
}

void rate__delete(struct rate *r)
{
	if (!r)
		return;
	for (int i = 0; i < 2; i++) {
		free(r->eval[i].ids);
		free(r->eval[i].seen);
	}
	free(r->slots);
	free(r);
}

bool rate__limits(const struct rate *r)
{
	return r && r->limit;
}

bool rate__evaluates(const struct rate *r)
{
	return r && (r->eval[0].nr || r->eval[1].nr);
}

static size_t tid_hash(unsigned tid, size_t n)
{
	return (size_t)(tid * 2654435761u) & (n - 1);
}

/* Twice the slots, the threads moved over; false when out of memory. */
static bool grow(struct rate *r)
{
	size_t n = r->nr_slots * 2;
	struct slot *s = calloc(n, sizeof(*s));

	if (!s)
		return false;
	for (size_t i = 0; i < r->nr_slots; i++) {
		size_t k;

		if (!r->slots[i].used)
			continue;
		for (k = tid_hash(r->slots[i].tid, n); s[k].used; k = (k + 1) & (n - 1))
			;
		s[k] = r->slots[i];
	}
	free(r->slots);
	r->slots = s;
	r->nr_slots = n;
	return true;
}

static struct slot *thread_slot(struct rate *r, unsigned tid)
{
	size_t k;

	if (2 * (r->used + 1) > r->nr_slots && !grow(r))
		return NULL;
	for (k = tid_hash(tid, r->nr_slots); r->slots[k].used; k = (k + 1) & (r->nr_slots - 1))
		if (r->slots[k].tid == tid)
			return &r->slots[k];
	r->slots[k].used = true;
	r->slots[k].tid = tid;
	r->used++;
	return &r->slots[k];
}

bool rate__admit(struct rate *r, int cpu, unsigned tid, unsigned long long sec)
{
	struct slot *s;

	if (r->per_thread)
		s = thread_slot(r, tid);
	else
		s = cpu >= 0 && (size_t)cpu < r->nr_slots ? &r->slots[cpu] : NULL;
	if (!s) /* nowhere to count it (out of memory, a CPU beyond the possible) */
		return true;
	if (sec > s->sec) { /* the seconds between start at 0 */
		for (unsigned long long t = sec; t > s->sec && sec - t < RATE_SECS; t--)
			s->count[t % RATE_SECS] = 0;
		s->sec = sec;
	} else if (s->sec - sec >= RATE_SECS) {
		return true; /* too late to be counted: a second long gone */
	}
	if (s->count[sec % RATE_SECS] < r->limit) {
		s->count[sec % RATE_SECS]++;
		return true;
	}
	s->dropped++;
	r->dropped++;
	return false;
}

unsigned long long rate__dropped(const struct rate *r)
{
	return r ? r->dropped : 0;
}

static int cmp_slot_tid(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

#define MAX_LISTED 16 /* CPUs or threads named in the dropped line */

void rate__print_dropped(const struct rate *r, FILE *fp)
{
	struct slot *sorted = NULL;
	size_t n = 0, listed = 0;

	if (!r || !r->dropped)
		return;
	fprintf(fp, "perf-prof: --sampling-limit dropped %llu samples over %llu a second per %s (",
		r->dropped, r->limit, r->per_thread ? "thread" : "CPU");
	if (r->per_thread) {
		sorted = malloc(r->used * sizeof(*sorted));
		for (size_t i = 0; sorted && i < r->nr_slots; i++)
			if (r->slots[i].used && r->slots[i].dropped)
				sorted[n++] = r->slots[i];
		if (sorted)
			qsort(sorted, n, sizeof(*sorted), cmp_slot_tid);
		for (size_t i = 0; i < n && listed < MAX_LISTED; i++)
			fprintf(fp, "%stid %d: %llu", listed++ ? ", " : "", (int)sorted[i].tid,
				sorted[i].dropped);
		free(sorted);
	} else {
		for (size_t c = 0; c < r->nr_slots; c++) {
			if (!r->slots[c].dropped)
				continue;
			n++;
			if (listed < MAX_LISTED)
				fprintf(fp, "%sCPU%zu: %llu", listed++ ? ", " : "", c,
					r->slots[c].dropped);
		}
	}
	fprintf(fp, "%s); a higher limit, a kernel filter or fewer events delivers more\n",
		n > listed ? ", ..." : "");
}

static int find_id(const struct eval *e, int id)
{
	int lo = 0, hi = e->nr - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (e->ids[mid] == id)
			return mid;
		if (e->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

void rate__handled(struct rate *r, unsigned cpu, unsigned pid, unsigned size, unsigned long long ns)
{
	unsigned key[2] = { cpu, pid };

	r->sampled++;
	for (int i = 0; i < 2; i++) {
		struct eval *e = &r->eval[i];
		int k = e->nr ? find_id(e, (int)key[i]) : -1;

		if (k < 0)
			continue;
		if (!e->seen[k]) {
			e->seen[k] = true;
			e->instances++;
		}
		e->records++;
		e->bytes += size;
		e->ns += ns;
	}
}

static void eval_line(const struct rate *r, const struct eval *e, FILE *fp, bool json, double span,
		      const char *scope)
{
	double ms = e->ns / 1e6;

	if (json) {
		struct json j;

		json__begin(&j, fp, "perfeval");
		json__str(&j, "scope", scope);
		json__str(&j, "list", e->what);
		json__str(&j, e->what, e->text);
		json__f64(&j, "span_s", span);
		json__u64(&j, "sampled", r->sampled);
		json__u64(&j, "records", e->records);
		json__u64(&j, "instances", (unsigned long long)e->instances);
		json__u64(&j, "bytes", e->bytes);
		json__f64(&j, "handling_ms", ms);
		json__end(&j);
		return;
	}
	/* the original's words (events a second), then the cost itself */
	fprintf(fp,
		"perf-prof: perfeval %s(%s): sampled %.0f events matched %.0f on %d instances "
		"per second; %llu records, %llu bytes, %.3f ms handling them",
		e->what, e->text, r->sampled / span, e->records / span, e->instances, e->records,
		e->bytes, ms);
	if (e->records)
		fprintf(fp, " (%.2f us each)", e->ns / 1e3 / e->records);
	fprintf(fp, " in the last %.2f s\n", span);
}

void rate__print_eval(struct rate *r, FILE *fp, bool json, double span_s, const char *scope)
{
	if (!rate__evaluates(r))
		return;
	if (span_s <= 0)
		span_s = 1e-9;
	for (int i = 0; i < 2; i++) {
		struct eval *e = &r->eval[i];

		if (!e->nr)
			continue;
		eval_line(r, e, fp, json, span_s, scope);
		memset(e->seen, 0, e->nr * sizeof(*e->seen));
		e->instances = 0;
		e->records = e->bytes = e->ns = 0;
	}
	r->sampled = 0;
}
