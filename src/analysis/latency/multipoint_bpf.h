/* SPDX-License-Identifier: GPL-2.0 */
/*
 * multi-trace and mpdelay on the BPF back end (engine/bpf.h): a classic
 * tracepoint program per -e event does in the kernel what multipoint_ev's
 * handler does per sample.  A start keeps its time (bpf_ktime_get_ns)
 * under (point, key) in a hash map; an end takes the start of the
 * previous point under its key (deleting it) and adds end - start to the
 * row (from, to[, key with --perins]) of bpf_lat.  The ring path's rules:
 * an event closes the pair from the previous point (the last with
 * --cycle), then opens its own; a start over a pending one replaces it
 * (counted: "replaced"); an end without a start does nothing; an end
 * before its start drops it (counted: "backwards"); role=EXPR's bit 0
 * opens, bit 1 closes; keys are key=EXPR / -k EXPR (compiled), the thread
 * (whose exit drops its pending pairs, counted: "exited") or the CPU.
 * Untraced events get a program that writes nothing (they only matter to
 * --detail, which runs on the ring path).  The programs return 0: no
 * sample crosses the ring.
 *
 * --than: a start also keeps its event's record (its first MPBPF_RAW
 * bytes: a longer one's dynamic fields are cut there), thread and CPU; a
 * pair over the threshold is copied out (bpf_back__out) with both
 * records, and printed by multipoint as the ring path prints it.
 *
 * User space reads the rows at each interval, at SIGUSR1 and at the end
 * into multipoint's table, and the drop counts into its "dropped" lines.
 */
#ifndef PP_MULTIPOINT_BPF_H
#define PP_MULTIPOINT_BPF_H

#include "analysis/latency/multipoint.h"

struct expr;
struct bpf_back;

enum mpbpf_key { MPBPF_KEY_EXPR, MPBPF_KEY_THREAD, MPBPF_KEY_CPU };

/*
 * One -e event: its point (-1: untraced), key= (KEY_EXPR) and role= (NULL:
 * both); with rows by label (mpbpf_conf's row), a start event's label and
 * mark (NULL: 0), kept with its start.
 */
struct mpbpf_event {
	struct evsel *ev;
	int point;
	struct expr *key, *role;
	struct expr *label, *mark;
};

struct mpbpf_conf {
	struct multipoint *mt;
	int nr_points;
	bool cycle, perins;
	enum mpbpf_key key_mode;
	const struct mpbpf_event *events;
	int nr_events;
	u64 than;     /* --than: the slow pairs copied out with both events' records, printed */
	bool heatmap; /* --heatmap: every pair's start and latency copied out */
	/*
	 * Rows by label (two points, no cycle; NULL: a row per pair of
	 * points): the start keeps its event's label and mark (non-zero:
	 * marked), the pair goes to the row of the label, read back through
	 * @row, which names it as multipoint's row hook would (kvm-exit: the
	 * exit reason).
	 */
	void (*row)(void *arg, u64 label, struct multipoint_row *row);
	void *row_arg;
	/*
	 * Rows by label with --than: labels whose slow pairs are not copied
	 * out (the row hook's quiet ones; read during mpbpf__new only)
	 */
	const u64 *quiet;
	int nr_quiet;
};

#define MPBPF_RAW 256
struct mpbpf;

/*
 * The programs of every event built, loaded and to be attached at open,
 * and the hooks that read them registered with @s (before multipoint's:
 * call it before multipoint__ready).  1 with *@out set (on BPF), 0 for the
 * ring path (said under -v; with --bpf a usage error: -EINVAL), -errno.
 */
int mpbpf__new(struct session *s, const struct opt_set *opts, const struct mpbpf_conf *conf,
	       struct mpbpf **out);
/* At the end, before multipoint__done: the last read and the pairs left open (NULL: nothing). */
void mpbpf__finish(struct mpbpf *m, struct session *s);
void mpbpf__delete(struct mpbpf *m);

#endif
