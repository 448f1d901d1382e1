/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records for injected sessions, laid out as perf_event_open(2) documents:
 * samples of a session's event (by its sample_type), tracepoint payloads
 * filled through field handles, and COMM / FORK / EXIT / LOST / SWITCH
 * records with the sample_id trailer every event of a session shares.
 */
#ifndef PP_SYNTH_H
#define PP_SYNTH_H

#include <string.h>

#include "engine/session.h"

/* the trailer of non-sample records: as BASE_SAMPLE_TYPE in the engine */
#define SYNTH_ID_TYPE \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

struct synth {
	unsigned char b[4096] __attribute__((aligned(8)));
	size_t len;
};

/* What a sample carries. */
struct synth_sample {
	u32 pid, tid, cpu;
	u64 time, ip, period;
	const u64 *ips;
	u64 nr_ips;
	const void *raw;
	u32 raw_size;
	u64 addr, weight, data_src; /* PERF_SAMPLE_ADDR, WEIGHT, DATA_SRC (PEBS) */
	u64 read;		    /* PERF_SAMPLE_READ, read_format 0: the counter's value */
};

static inline void synth__put(struct synth *b, const void *p, size_t n)
{
	if (n) /* (memcpy from NULL is undefined even for 0 bytes) */
		memcpy(b->b + b->len, p, n);
	b->len += n;
}

static inline void synth__u64(struct synth *b, u64 v)
{
	synth__put(b, &v, 8);
}

static inline void synth__u32x2(struct synth *b, u32 x, u32 y)
{
	synth__put(b, &x, 4);
	synth__put(b, &y, 4);
}

static inline const struct perf_event_header *synth__finish(struct synth *b, u32 type,
							    unsigned misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = b->len };

	memcpy(b->b, &h, sizeof(h));
	return (const struct perf_event_header *)b->b;
}

static inline void synth__trailer(struct synth *b, u32 pid, u32 tid, u64 time, u32 cpu, u64 id)
{
	synth__u32x2(b, pid, tid);
	synth__u64(b, time);
	synth__u32x2(b, cpu, 0);
	synth__u64(b, id);
}

/* A sample of @ev (only the fields its sample_type has). */
static inline const struct perf_event_header *synth__sample(struct synth *b, const struct evsel *ev,
							    const struct synth_sample *w)
{
	u64 st = ev->attr.sample_type;

	b->len = sizeof(struct perf_event_header);
	if (st & PERF_SAMPLE_IDENTIFIER)
		synth__u64(b, session__inject_id(ev));
	if (st & PERF_SAMPLE_IP)
		synth__u64(b, w->ip);
	if (st & PERF_SAMPLE_TID)
		synth__u32x2(b, w->pid, w->tid);
	if (st & PERF_SAMPLE_TIME)
		synth__u64(b, w->time);
	if (st & PERF_SAMPLE_ADDR)
		synth__u64(b, w->addr);
	if (st & PERF_SAMPLE_ID)
		synth__u64(b, session__inject_id(ev));
	if (st & PERF_SAMPLE_STREAM_ID)
		synth__u64(b, session__inject_id(ev));
	if (st & PERF_SAMPLE_CPU)
		synth__u32x2(b, w->cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		synth__u64(b, w->period);
	if ((st & PERF_SAMPLE_READ) && !ev->attr.read_format)
		synth__u64(b, w->read);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		synth__u64(b, w->nr_ips);
		synth__put(b, w->ips, w->nr_ips * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		/* u32 size, the data, padded so that the record stays 8-byte aligned */
		static const unsigned char zero[8];
		u32 pad = (8 - (4 + w->raw_size) % 8) % 8, size = w->raw_size + pad;

		synth__put(b, &size, 4);
		synth__put(b, w->raw, w->raw_size);
		synth__put(b, zero, pad);
	}
	if (st & PERF_SAMPLE_REGS_USER)
		synth__u64(b, 0); /* abi none: no registers */
	if (st & PERF_SAMPLE_STACK_USER)
		synth__u64(b, 0); /* size 0: no stack */
	if (st & PERF_SAMPLE_WEIGHT)
		synth__u64(b, w->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		synth__u64(b, w->data_src);
	return synth__finish(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
}

/* Set a tracepoint field of @raw (a buffer as long as the event's records) by name. */
static inline int synth__field_u64(const struct evsel *ev, void *raw, const char *name, u64 v)
{
	struct field f;

	if (evsel__field(ev, name, &f) || f.size > 8)
		return -1;
	memcpy((char *)raw + f.offset, &v, f.size); /* little-endian host */
	return 0;
}

static inline int synth__field_str(const struct evsel *ev, void *raw, const char *name,
				   const char *str)
{
	struct field f;

	if (evsel__field(ev, name, &f) || f.is_dynamic)
		return -1;
	memset((char *)raw + f.offset, 0, f.size);
	memcpy((char *)raw + f.offset, str, strnlen(str, f.size - 1));
	return 0;
}

static inline const struct perf_event_header *synth__comm(struct synth *b, u32 pid, u32 tid,
							  const char *comm, u64 time, u32 cpu)
{
	char name[16] = { 0 };

	b->len = sizeof(struct perf_event_header);
	synth__u32x2(b, pid, tid);
	strncpy(name, comm, 15);
	synth__put(b, name, 16);
	synth__trailer(b, pid, tid, time, cpu, 0);
	return synth__finish(b, PERF_RECORD_COMM, 0);
}

/* PERF_RECORD_FORK or PERF_RECORD_EXIT */
static inline const struct perf_event_header *
synth__task(struct synth *b, u32 type, u32 pid, u32 ppid, u32 tid, u32 ptid, u64 time, u32 cpu)
{
	b->len = sizeof(struct perf_event_header);
	synth__u32x2(b, pid, ppid);
	synth__u32x2(b, tid, ptid);
	synth__u64(b, time);
	synth__trailer(b, pid, tid, time, cpu, 0);
	return synth__finish(b, type, 0);
}

static inline const struct perf_event_header *synth__lost(struct synth *b, u64 lost, u64 time,
							  u32 cpu)
{
	b->len = sizeof(struct perf_event_header);
	synth__u64(b, 0);
	synth__u64(b, lost);
	synth__trailer(b, -1, -1, time, cpu, 0);
	return synth__finish(b, PERF_RECORD_LOST, 0);
}

/* PERF_RECORD_SWITCH_CPU_WIDE: @pid/@tid switch in (or out), @other the task on the other side */
static inline const struct perf_event_header *synth__switch(struct synth *b, bool out, u32 pid,
							    u32 tid, u32 other_pid, u32 other_tid,
							    u64 time, u32 cpu)
{
	b->len = sizeof(struct perf_event_header);
	synth__u32x2(b, other_pid, other_tid);
	synth__trailer(b, pid, tid, time, cpu, 0);
	return synth__finish(b, PERF_RECORD_SWITCH_CPU_WIDE, out ? PERF_RECORD_MISC_SWITCH_OUT : 0);
}

#endif
