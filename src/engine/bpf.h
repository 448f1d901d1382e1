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
 * tracepoint for every perf user of the tracepoint on the host (0: none
 * written), so ours always return 1, and take no sample themselves: the
 * perf event carrying the program is never enabled and the session's
 * perf events of the evsel are not opened (evsel.bpf_taken); what a
 * profiler prints is copied out (bpf_back__out).  The kernel rewrites a
 * record's common fields (where it put the pt_regs pointer for the
 * program) before it writes the others' samples: they see the record as
 * if we were not there (engine/bpf_attach.c).
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
	bool on;		    /* --bpf: BPF or an error */
	bool off;		    /* --no-bpf: the ring path */
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
int bpf_back__load(struct bpf_back *b, enum bpf_prog_type type, const char *name, struct bpfb *code,
		   const char *btf_tp, char *err, size_t errlen);
/*
 * Attach, when the session opens: @prog to a perf event of @ev's
 * tracepoint of its own (a classic tracepoint program: @ev is then not
 * opened by the perf source, until a rollback), or to the raw tracepoint
 * @tp (a raw or tp_btf program; no perf event).  0 or -ENOMEM; an attach
 * the kernel refuses fails the open with a message.
 */
int bpf_back__attach_perf(struct bpf_back *b, struct evsel *ev, int prog);
/* Whether @ev takes a classic tracepoint program (not a probe's: those need kprobe programs). */
bool bpf_back__classic_tp(const struct evsel *ev);
/*
 * A request that falls back to the ring path after some of its programs
 * were asked to be attached: bpf_back__mark before the first, then
 * bpf_back__rollback(mark) forgets the attachments asked since (their
 * programs would otherwise run, and gate the tracepoints' perf samples),
 * the target followers' too when the targets were made since (the next
 * bpf_back__emit_target makes them again).
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
int bpf_back__emit_target(struct bpf_back *b, struct bpfb *code, int tgid_reg, int tid_reg, int out,
			  char *why, size_t len);

/*
 * Counted drops: an event a program could not record (a full map).  A
 * slot (0..BPF_DROP_SLOTS-1) per kind, named for the report ("keys not
 * kept: map full (--bpf-entries)"); bpf_back__emit_drop counts one on
 * this CPU (uses R1, R2).  Drops are the session's lost events too.
 */
#define BPF_DROP_SLOTS 8
int bpf_back__drop_slot(struct bpf_back *b, const char *what);
/*
 * The same for what a program left out without losing an event (a
 * histogram bucket: the row's count, total, min and max are exact, only
 * its quantiles miss the value): said at the end as "N @what", not as
 * events not counted, and not in the lost events.
 */
int bpf_back__note_slot(struct bpf_back *b, const char *what);
void bpf_back__emit_drop(struct bpf_back *b, struct bpfb *code, int slot);
u64 bpf_back__drops(struct bpf_back *b, int slot);

/*
 * Records copied out of the kernel: what a profiler prints of each slow
 * case (--than), written by its programs into a BPF ring buffer map and
 * handed to @fn(@arg, record, size) in user space as the loop reads the
 * sources (every source is read when the ring buffer has data: the perf
 * source's task records, names, come first), and all that is left at the
 * stop, before the reports.  The ring buffer has -m PAGES pages (a power
 * of two, as -m checks; default BPF_OUT_PAGES).  A record the kernel
 * cannot write (the ring buffer full) is a drop, said as "perf-prof: N
 * @what: BPF ring buffer full (-m PAGES)" (@what: "slow cases counted but
 * not printed").  Returns the out's id (>= 0), or -errno with the message
 * set.
 */
#define BPF_OUT_PAGES 64
/*
 * Why records cannot be copied out here (-EOPNOTSUPP from bpf_back__out:
 * the caller goes the ring path saying this), or NULL: --tsc and
 * --kvmclock put the events on perf's clock, a program's times are
 * CLOCK_MONOTONIC's.
 */
const char *bpf_back__out_why(struct bpf_back *b);
int bpf_back__out(struct bpf_back *b, const char *what,
		  int (*fn)(void *arg, void *data, size_t size), void *arg);
/*
 * The same, but @fn gets each record as soon as it is read, never held for
 * time order, and bpf_back__out_drain reads them at once: for records a
 * profiler pairs with its samples itself (a program attached to a perf
 * event writes its record before the kernel writes the sample, on the same
 * CPU: by the time the sample is read, its record can be).
 */
int bpf_back__out_now(struct bpf_back *b, const char *what,
		      int (*fn)(void *arg, void *data, size_t size), void *arg);
/* Hand out every record of out @id written so far (not from inside its @fn). */
void bpf_back__out_drain(struct bpf_back *b, int id);
/*
 * Write the @size bytes (a multiple of 8) at R10 + @off to out @id as one
 * record; a record the kernel cannot write is counted as a drop.  Uses
 * R0-R5.
 */
void bpf_back__emit_output(struct bpf_back *b, struct bpfb *code, int id, int16_t off,
			   unsigned size);
/*
 * The same for a record too big for the stack: R0 = room for @size bytes
 * in out @id (bpf_ringbuf_reserve), or a drop counted and a jump to
 * @fail.  Every path from there must give the room back with
 * bpf_back__emit_submit (the verifier checks).  Uses R0-R5.
 */
void bpf_back__emit_reserve(struct bpf_back *b, struct bpfb *code, int id, unsigned size, int fail);
/* Write the record reserved, whose room is in @reg (discard: give it back unwritten). Uses R0-R5. */
void bpf_back__emit_submit(struct bpfb *code, int reg);
void bpf_back__emit_discard(struct bpfb *code, int reg);
/*
 * A tracepoint's format as an event that is never opened (NULL with the
 * message set): the records a program copied out are printed as that
 * event's samples (its name, its fields).  Freed with the session.
 */
struct evsel *bpf_back__tp_evsel(struct bpf_back *b, const char *sys, const char *name);
/*
 * A tracepoint record a program copied out (@rec, @size bytes) as the ring
 * path's sample of @ev, in @smp: the record copied into @raw (@size bytes
 * of room) with its common fields put back (while a program runs the
 * kernel keeps its pt_regs pointer there: the type, the pid of @ids, flags
 * and preempt count 0), @raw_size the sample's (<= @size); its thread @ids
 * (pid << 32 | tid), CPU and time.  No callchain.
 */
void bpf_back__tp_sample(const struct evsel *ev, struct sample *smp, u64 ids, u32 cpu, u64 time,
			 const void *rec, unsigned size, unsigned raw_size, u64 *raw);

/*
 * Reads between prints: a profiler's maps hold its keys until a read
 * folds them into its tables and takes the idle ones out (bpf_keyed.c,
 * bpf_lat.c: once half full).  @fn(@s, @arg) is called every BPF_READ_MS
 * while the programs count, unless -i reads as often: it reads the maps
 * as an interval's read would (adding to the tables), and prints nothing,
 * so a run without -i keeps room for new keys and its end result is the
 * same (reads add up).  0 or -ENOMEM.
 */
#define BPF_READ_MS 1000
typedef void (*bpf_visit_fn)(struct session *s, void *arg);
int bpf_back__on_read(struct bpf_back *b, bpf_visit_fn fn, void *arg);
/*
 * @fn(@s, @arg) at the disable, just before the programs stop counting
 * (the last instant they count: the ring path's events stop there too).
 */
int bpf_back__on_stop(struct bpf_back *b, bpf_visit_fn fn, void *arg);

/*
 * Keys taken out of a map while programs add to them: a program that found
 * a key's element before the delete would add to freed memory after it (or
 * to the element recycled for another key), a count lost.  So a reap sets
 * the programs aside first.  bpf_back__emit_aside: go to @label when they
 * are to write to their aside maps (same keys and values; uses @reg).
 * bpf_back__aside(b, true) sets that and returns once no program can still
 * write to the main maps (every program running has finished: the kernel
 * waits for an RCU grace period after an update of a map of maps), so the
 * main maps are still: read exactly, keys deleted without a race.
 * bpf_back__aside(b, false) sends the programs back and waits the same way,
 * after which the aside maps are still: read and emptied.  Returns 1 (set
 * and waited), 0 when the programs do not count (before the enable, after
 * the disable: nothing to set aside), or -errno.
 */
#define BPF_CTL_ASIDE 2 /* in the running word (bpf_back__emit_running: not 0) */
int bpf_back__aside(struct bpf_back *b, bool on);
void bpf_back__emit_aside(struct bpf_back *b, struct bpfb *code, int reg, int label);

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
 * Every entry of map @fd (@ksz-byte keys, @vsz-byte values: a per-CPU
 * map's are every possible CPU's, 8-byte aligned each) to @fn, by batches
 * (one bpf(2) call per BPF_EACH_BATCH entries), or key by key where the
 * kernel has no batch lookup.  @fn's non-zero return ends the walk with
 * it.  0 or -errno.
 */
#define BPF_EACH_BATCH 1024
int bpf_back__each(int fd, size_t ksz, size_t vsz,
		   int (*fn)(void *arg, const void *key, const void *val), void *arg);

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
