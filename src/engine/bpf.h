/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF back end: in-kernel programs that aggregate events into maps,
 * so that only results (and the slow cases a profiler prints) cross into
 * user space.  A profiler (or the shared module it stands on) builds its
 * programs with engine/bpf_insn.h in init, loads them and creates its
 * maps here, asks for them to be attached, and reads its maps at each
 * interval and at the end.  Nothing is pinned: every program, map and
 * link is an fd of ours, closed with the session (SIGKILL leaves nothing).
 *
 * The session's BPF part is one source (engine/source.h) with no events:
 * it attaches the programs when the sources open (after the perf source,
 * whose fds a classic tracepoint program is attached to), sets the
 * "running" flag at enable and clears it at disable (every program tests
 * it first: nothing is counted before the workload starts or after the
 * stop, so the final read is stable), and reports the events its
 * programs could not count (a full map) as lost.
 *
 * Attachments, cheapest first: a BTF-typed tracepoint (tp_btf: the
 * tracepoint's arguments, typed, read directly), a raw tracepoint (its
 * arguments as u64), a classic tracepoint program on one of the event's
 * perf fds (the trace record, as perf would write it, built by the
 * kernel first).  A classic tracepoint program runs for every task on
 * every CPU: the program does the target's filtering itself.  While it
 * is attached, its return value also gates the perf samples of that
 * tracepoint (0: none written), for every perf user of the tracepoint
 * on the host: ours return 1 only for what they want printed.
 *
 * Choice: --bpf (BPF or a usage error naming what did not compile),
 * --no-bpf (the ring path), neither: BPF where the host has it and the
 * request compiles, the ring path otherwise, said under -v.
 */
#ifndef PP_BPF_H
#define PP_BPF_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/bpf_insn.h"
#include "engine/sample.h"
#include "util/opt.h"

struct session;
struct evsel;
struct opt_set;

/* --bpf, --no-bpf, --bpf-entries N */
struct bpf_opts {
	bool on;  /* --bpf: BPF or an error */
	bool off; /* --no-bpf: the ring path */
	unsigned long long entries; /* keys a map holds (0: the default, BPF_DEFAULT_ENTRIES) */
};
extern const struct opt_group bpf_group;
#define BPF_DEFAULT_ENTRIES 65536

struct bpf_back;

/*
 * The session's BPF back end for a profiler given @opts (its bpf_group,
 * may be NULL: automatic): 1 with *@out set (created at the first call,
 * then the same), 0 when the ring path is to be used (--no-bpf, or the
 * host cannot: said under -v; *@out NULL), or -errno when --bpf was
 * given and the host cannot (usage error set, naming what is missing).
 */
int bpf_back__get(struct session *s, const struct opt_set *opts, struct bpf_back **out);
/*
 * The same for a program that only filters the samples of a perf event
 * (a BPF_PROG_TYPE_PERF_EVENT program): the samples still cross the ring
 * and are counted in user space, so -N, --sampling-limit and --perfeval-*
 * do not send it the ring path.
 */
int bpf_back__get_filter(struct session *s, const struct opt_set *opts, struct bpf_back **out);
/*
 * A request BPF cannot do (@why: "key=comm: strings are not compiled"):
 * with --bpf a usage error (returns -EINVAL), else said under -v and 0
 * (go the ring path).  Programs and maps made so far stay until the
 * session closes; they are never attached unless asked.
 */
int bpf_back__fallback(struct session *s, const struct opt_set *opts, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Whether the host can (bpf(2) allowed, tracepoint programs load): "" or why not. */
const char *bpf_back__host_why_not(void);

/* The map size @opts asks for (--bpf-entries or the default). */
unsigned bpf_back__entries(const struct opt_set *opts);

/*
 * A map (BPF_MAP_TYPE_*), closed with the session: its fd, or -errno
 * with the message set.  @flags: BPF_F_NO_PREALLOC etc.
 */
int bpf_back__map(struct bpf_back *b, enum bpf_map_type type, const char *name, unsigned key_size,
		  unsigned value_size, unsigned max_entries, unsigned flags);
/*
 * Load @code (finished here) as a program of @type: BPF_PROG_TYPE_TRACEPOINT
 * (classic), BPF_PROG_TYPE_RAW_TRACEPOINT, or BPF_PROG_TYPE_TRACING with
 * @btf_tp the tracepoint's name ("sched_switch": tp_btf).  Returns its fd
 * (closed with the session), or -errno with @err holding one line: the
 * builder's error or the verifier's last message.  The verifier's whole
 * log goes to stderr under -vv.
 */
int bpf_back__load(struct bpf_back *b, enum bpf_prog_type type, const char *name,
		   struct bpfb *code, const char *btf_tp, char *err, size_t errlen);
/*
 * Attach, when the session opens: @prog to @ev's first perf fd (a classic
 * tracepoint program; @ev stays a perf event), or to the raw tracepoint
 * @tp (a raw or tp_btf program; no perf event).  0 or -ENOMEM; an attach
 * the kernel refuses fails the open with a message.
 */
int bpf_back__attach_perf(struct bpf_back *b, struct evsel *ev, int prog);
/*
 * A request that falls back to the ring path after some of its programs
 * were asked to be attached: bpf_back__mark before the first, then
 * bpf_back__rollback(mark) forgets the attachments asked since (their
 * programs would otherwise run, and gate the tracepoints' perf samples).
 */
int bpf_back__mark(struct bpf_back *b);
void bpf_back__rollback(struct bpf_back *b, int mark);
int bpf_back__attach_raw(struct bpf_back *b, const char *tp, int prog);
/*
 * Attach, when the session opens, a BPF_PROG_TYPE_PERF_EVENT program to
 * every perf fd of @ev (one per CPU or per thread: such a program is
 * per event, not global like a tracepoint's): it runs at each of @ev's
 * overflows, its return value keeps (1) or drops (0) the sample.  Fds
 * inherited by new threads take it from their parent.  0 or -ENOMEM.
 */
int bpf_back__attach_perf_all(struct bpf_back *b, struct evsel *ev, int prog);

/*
 * Every program's first instructions: go to @out (where it returns 0)
 * unless the session is running (between enable and disable).  Uses R0.
 *
 * The emitters here use R0-R5 as said and the 8 bytes of stack just below
 * the frame pointer (R10 - 8 .. R10 - 1): a program keeps nothing there.
 */
#define BPF_BACK_SCRATCH 8
void bpf_back__emit_running(struct bpf_back *b, struct bpfb *code, int out);

/*
 * The session's targets, tested in a program: go to @out unless the task
 * whose thread group id is in @tgid_reg and thread id in @tid_reg (u32
 * values, e.g. both from bpf_get_current_pid_tgid(), or a task's tgid and
 * pid read through BTF) is monitored, and the current CPU is one of -C's.
 * -p PID (threads started later included), -t TID, -- CMD (and the
 * processes it starts: followed at fork in the kernel), system-wide (no
 * test).  Keeps @tgid_reg and @tid_reg; uses R0-R5.  0, or -EOPNOTSUPP
 * with @why set (--cgroups: not in the kernel yet).
 */
int bpf_back__emit_target(struct bpf_back *b, struct bpfb *code, int tgid_reg, int tid_reg,
			  int out, char *why, size_t len);

/*
 * Counted drops: an event a program could not record (a full map).  A
 * slot (0..BPF_DROP_SLOTS-1) per kind, named for the report ("keys not
 * kept: map full (--bpf-entries)"); bpf_back__emit_drop counts one on
 * this CPU (uses R1, R2).  Drops are the session's lost events too.
 */
#define BPF_DROP_SLOTS 8
int bpf_back__drop_slot(struct bpf_back *b, const char *what);
void bpf_back__emit_drop(struct bpf_back *b, struct bpfb *code, int slot);
u64 bpf_back__drops(struct bpf_back *b, int slot);

/*
 * Read a per-CPU map's value at @key summed over the CPUs as u64 words
 * (@nwords of them): 0, or -errno (-ENOENT: no such key).
 */
int bpf_back__percpu_sum(struct bpf_back *b, int map, const void *key, u64 *sum, int nwords);
/* Read an array map's first value (not per-CPU) into @value: 0 or -errno. */
int bpf_back__array_read(struct bpf_back *b, int map, void *value);
/* The number of possible CPUs (a per-CPU map's value count). */
int bpf_back__nr_cpus(void);

/*
 * The tracepoint's typedef in vmlinux BTF ("btf_trace_sched_switch"), for
 * tp_btf programs, and a struct member's byte offset ("task_struct",
 * "pid"): >= 0, or -errno (-ENOENT: no BTF, no such type or member).
 */
int bpf_back__btf_member(const char *type, const char *member, unsigned *size);
/*
 * The number of arguments a tp_btf program of tracepoint @tp gets (its
 * typedef's prototype without the first, void *__data: sched_switch has
 * 4 since 5.18, 3 before): >= 0, or -ENOENT.
 */
int bpf_back__btf_tp_args(const char *tp);

#endif
