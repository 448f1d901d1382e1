/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic decoding of perf ring-buffer records, driven by the event's
 * sample_type.  Profilers never cast raw record bytes themselves.
 */
#ifndef PP_SAMPLE_H
#define PP_SAMPLE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t s64;

/* The decoded form of a PERF_RECORD_SAMPLE (and the sample_id of others). */
struct sample {
	u64 type;	 /* PERF_RECORD_* of the record */
	u64 sample_type; /* which fields below are valid */
	/* the record's misc bits: misc & PERF_RECORD_MISC_CPUMODE_MASK is the mode the CPU was in */
	unsigned misc;
	u64 ip;
	u32 pid, tid;
	u64 time; /* perf clock (CLOCK_MONOTONIC; perf's own with --tsc) */
	u64 addr;
	u64 id;
	u64 stream_id;
	u32 cpu;
	u64 period;
	/* PERF_SAMPLE_READ, PERF_FORMAT_GROUP or not: nr values (id pairs if asked) */
	u64 read_nr;
	const u64 *read_values; /* raw read_format payload after nr (or single value) */
	/* PERF_SAMPLE_CALLCHAIN: includes PERF_CONTEXT_* markers */
	u64 nr_ips;
	const u64 *ips;
	/* PERF_SAMPLE_RAW: tracepoint data */
	u32 raw_size;
	const void *raw;
	/* PERF_SAMPLE_REGS_USER */
	u64 regs_abi;
	u64 regs_mask;
	u32 nr_regs;
	const u64 *regs;
	/* PERF_SAMPLE_REGS_INTR (the kernel context a kprobe interrupted) */
	u64 intr_abi;
	u64 intr_mask;
	u32 nr_intr;
	const u64 *intr_regs;
	/* PERF_SAMPLE_STACK_USER */
	u64 stack_size;
	const void *stack;
	u64 stack_dyn_size;
	/* PERF_SAMPLE_WEIGHT / DATA_SRC */
	u64 weight;
	u64 data_src;
};

/* Decoded non-sample records that the engine handles. */
struct rec_comm {
	u32 pid, tid;
	const char *comm;
	bool exec;
	u64 time; /* of its sample_id (0: none) */
};

struct rec_task { /* FORK and EXIT */
	u32 pid, ppid, tid, ptid;
	u64 time;
};

struct rec_mmap2 {
	u32 pid, tid;
	u64 addr, len, pgoff;
	u32 prot, flags;
	bool has_build_id;
	unsigned char build_id_size;
	const unsigned char *build_id;
	u32 maj, min;
	u64 ino;
	const char *filename;
	u64 time; /* of its sample_id (0: none) */
};

/* PERF_RECORD_SWITCH(_CPU_WIDE): the kernel's own context-switch records. */
struct rec_switch {
	u32 pid, tid; /* the task switching out (out) or in (!out) */
	u64 time;
	u32 cpu;
	bool out;
	bool preempt;		  /* switched out while runnable */
	u32 other_pid, other_tid; /* next (out) or previous (in) task; CPU-wide records only */
};

struct rec_lost {
	u64 id;
	u64 lost;
};

/*
 * Decode a PERF_RECORD_SAMPLE whose body is @hdr (contiguous in memory).
 * @attr_sample_type and @read_format come from the event that produced it.
 * Returns 0 or -EINVAL if the record is shorter than its fields say.
 * Pointers in @s point into the record.
 */
int sample__parse(const struct perf_event_header *hdr, u64 sample_type, u64 read_format,
		  u64 regs_user_mask, struct sample *s);
/* The same, for an event that also samples PERF_SAMPLE_REGS_INTR with @regs_intr_mask. */
int sample__parse_intr(const struct perf_event_header *hdr, u64 sample_type, u64 read_format,
		       u64 regs_user_mask, u64 regs_intr_mask, struct sample *s);

/*
 * A record's place in time without decoding it (the time order's key):
 * a sample's TID and TIME come right after the fields of fixed size that
 * precede them (IDENTIFIER, IP), so they are read where they are.  The
 * values sample__parse gives for a record it accepts; 0 for a field
 * @sample_type lacks.  Returns 0, or -EINVAL (*@time and *@tid 0) when the
 * record is too short to hold them.  @tid may be NULL.
 */
int sample__time(const struct perf_event_header *hdr, u64 sample_type, u64 *time, u32 *tid);
/* The same for a non-sample record: the time in its sample_id trailer, as sample__parse_id. */
int sample__id_time(const struct perf_event_header *hdr, u64 sample_type, u64 *time);
/*
 * How many samples sample__parse(_intr) decoded in this process: the
 * engine decodes each sample once, whatever the ordering (tests count).
 */
unsigned long sample__nr_parsed(void);

/*
 * Decode the sample_id trailer of a non-sample record (sample_id_all).
 * Fills pid/tid/time/id/stream_id/cpu when present.  Returns 0 or -EINVAL.
 */
int sample__parse_id(const struct perf_event_header *hdr, u64 sample_type, struct sample *s);

/* Byte size of the sample_id trailer for @sample_type. */
unsigned sample__id_size(u64 sample_type);

int rec__comm(const struct perf_event_header *hdr, struct rec_comm *c);
int rec__task(const struct perf_event_header *hdr, struct rec_task *t);
int rec__mmap2(const struct perf_event_header *hdr, struct rec_mmap2 *m);
int rec__lost(const struct perf_event_header *hdr, struct rec_lost *l);
/* @sample_type: of the event, for the sample_id trailer (pid, tid, time, cpu). */
int rec__switch(const struct perf_event_header *hdr, u64 sample_type, struct rec_switch *sw);

/*
 * A sample kept beyond its ring-buffer slot (a stack taken at switch-out and
 * printed at switch-in): the callchain, the user registers, the part of the
 * user stack the kernel copied and, if asked, the raw data move into a
 * buffer that is reused from one save to the next.  Counter values
 * (read_values) are not kept.
 */
struct sample_copy {
	struct sample smp; /* its pointers point into buf */
	void *buf;
	size_t cap;
	bool valid;
};

/* Save @smp into @c (with the raw data if @raw): 0 or -ENOMEM (then !valid). */
int sample_copy__save(struct sample_copy *c, const struct sample *smp, bool raw);
void sample_copy__free(struct sample_copy *c);

#endif
