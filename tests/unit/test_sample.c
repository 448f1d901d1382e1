// SPDX-License-Identifier: GPL-2.0
/*
 * The record decoder on records synthesized in memory, laid out as
 * perf_event_open(2) documents.  Every decoded field is compared exactly,
 * and every truncation of a record is decoded from a buffer of exactly
 * that size so that AddressSanitizer sees any overread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sample.h"
#include "synth.h"
#include "ut.h"

typedef uint16_t u16;

/* What a synthesized PERF_RECORD_SAMPLE holds. */
struct spec {
	u64 st, rf, mask;
	u64 id, ip;
	u32 pid, tid;
	u64 time, addr, stream_id;
	u32 cpu;
	u64 period;
	u64 read_nr;  /* group: the nr word; expected s->read_nr otherwise */
	u64 read[40]; /* the read payload after nr */
	unsigned read_words;
	u64 nr_ips;
	u64 ips[16];
	u32 raw_size;	  /* as the record says */
	unsigned raw_pad; /* bytes after the raw data up to 8-byte alignment */
	unsigned char raw[64];
	u64 abi;
	u64 regs[64];
	u64 stack_size;
	unsigned char stack[256];
	u64 dyn_size;
	u64 weight, data_src;
};

static void build(const struct spec *w, struct synth *b)
{
	u64 st = w->st;

	b->len = sizeof(struct perf_event_header);
	if (st & PERF_SAMPLE_IDENTIFIER)
		synth__u64(b, w->id);
	if (st & PERF_SAMPLE_IP)
		synth__u64(b, w->ip);
	if (st & PERF_SAMPLE_TID)
		synth__u32x2(b, w->pid, w->tid);
	if (st & PERF_SAMPLE_TIME)
		synth__u64(b, w->time);
	if (st & PERF_SAMPLE_ADDR)
		synth__u64(b, w->addr);
	if (st & PERF_SAMPLE_ID)
		synth__u64(b, w->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		synth__u64(b, w->stream_id);
	if (st & PERF_SAMPLE_CPU)
		synth__u32x2(b, w->cpu, 0xdeadbeef); /* res must be ignored */
	if (st & PERF_SAMPLE_PERIOD)
		synth__u64(b, w->period);
	if (st & PERF_SAMPLE_READ) {
		if (w->rf & PERF_FORMAT_GROUP)
			synth__u64(b, w->read_nr);
		synth__put(b, w->read, w->read_words * 8);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		synth__u64(b, w->nr_ips);
		synth__put(b, w->ips, w->nr_ips * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		static const unsigned char zero[8];

		synth__put(b, &w->raw_size, 4);
		synth__put(b, w->raw, w->raw_size);
		synth__put(b, zero, w->raw_pad);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		synth__u64(b, w->abi);
		if (w->abi)
			synth__put(b, w->regs, __builtin_popcountll(w->mask) * 8);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		synth__u64(b, w->stack_size);
		if (w->stack_size) {
			synth__put(b, w->stack, w->stack_size);
			synth__u64(b, w->dyn_size);
		}
	}
	if (st & PERF_SAMPLE_WEIGHT)
		synth__u64(b, w->weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		synth__u64(b, w->data_src);
	synth__finish(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
}

/* A copy of the first @n bytes claiming size @n, in a buffer of exactly @n
 * bytes. */
static struct perf_event_header *cut(const struct synth *b, size_t n)
{
	struct perf_event_header *h = malloc(n < sizeof(*h) ? sizeof(*h) : n);

	if (!h)
		abort();
	memcpy(h, b->b, n < sizeof(*h) ? sizeof(*h) : n);
	h->size = (u16)n;
	return h;
}

static void check_decoded(const char *name, const struct spec *w, const struct synth *b,
			  const struct sample *s)
{
	u64 st = w->st;

	CHECK_INT(s->type, PERF_RECORD_SAMPLE);
	CHECK(s->sample_type == st, "%s: sample_type", name);
	CHECK(s->ip == (st & PERF_SAMPLE_IP ? w->ip : 0), "%s: ip %llx", name,
	      (unsigned long long)s->ip);
	CHECK(s->pid == (st & PERF_SAMPLE_TID ? w->pid : 0), "%s: pid %u", name, s->pid);
	CHECK(s->tid == (st & PERF_SAMPLE_TID ? w->tid : 0), "%s: tid %u", name, s->tid);
	CHECK(s->time == (st & PERF_SAMPLE_TIME ? w->time : 0), "%s: time", name);
	CHECK(s->addr == (st & PERF_SAMPLE_ADDR ? w->addr : 0), "%s: addr", name);
	CHECK(s->id == (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ? w->id : 0), "%s: id",
	      name);
	CHECK(s->stream_id == (st & PERF_SAMPLE_STREAM_ID ? w->stream_id : 0), "%s: stream_id",
	      name);
	CHECK(s->cpu == (st & PERF_SAMPLE_CPU ? w->cpu : (u32)-1), "%s: cpu %u", name, s->cpu);
	CHECK(s->period == (st & PERF_SAMPLE_PERIOD ? w->period : 0), "%s: period", name);
	if (st & PERF_SAMPLE_READ) {
		CHECK(s->read_nr == w->read_nr, "%s: read_nr %llu", name,
		      (unsigned long long)s->read_nr);
		CHECK(s->read_values && !memcmp(s->read_values, w->read, w->read_words * 8),
		      "%s: read values", name);
	} else {
		CHECK(!s->read_nr && !s->read_values, "%s: no read", name);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		CHECK(s->nr_ips == w->nr_ips, "%s: nr_ips %llu", name,
		      (unsigned long long)s->nr_ips);
		CHECK(s->ips && !memcmp(s->ips, w->ips, w->nr_ips * 8), "%s: ips", name);
	} else {
		CHECK(!s->nr_ips && !s->ips, "%s: no callchain", name);
	}
	if (st & PERF_SAMPLE_RAW) {
		CHECK(s->raw_size == w->raw_size, "%s: raw_size %u", name, s->raw_size);
		CHECK(s->raw && !memcmp(s->raw, w->raw, w->raw_size), "%s: raw", name);
		/* points into the record, not a copy */
		CHECK((const unsigned char *)s->raw > b->b &&
			      (const unsigned char *)s->raw < b->b + b->len,
		      "%s: raw inside the record", name);
	} else {
		CHECK(!s->raw_size && !s->raw, "%s: no raw", name);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		CHECK(s->regs_abi == w->abi, "%s: abi", name);
		if (w->abi) {
			unsigned n = __builtin_popcountll(w->mask);

			CHECK(s->regs_mask == w->mask, "%s: regs_mask", name);
			CHECK(s->nr_regs == n, "%s: nr_regs %u", name, s->nr_regs);
			CHECK(s->regs && !memcmp(s->regs, w->regs, n * 8), "%s: regs", name);
		} else {
			CHECK(!s->nr_regs && !s->regs, "%s: abi 0 has no regs", name);
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		CHECK(s->stack_size == w->stack_size, "%s: stack_size", name);
		if (w->stack_size) {
			CHECK(s->stack && !memcmp(s->stack, w->stack, w->stack_size),
			      "%s: stack bytes", name);
			CHECK(s->stack_dyn_size ==
				      (w->dyn_size > w->stack_size ? w->stack_size : w->dyn_size),
			      "%s: dyn_size %llu", name, (unsigned long long)s->stack_dyn_size);
		} else {
			CHECK(!s->stack && !s->stack_dyn_size, "%s: empty stack", name);
		}
	}
	CHECK(s->weight == (st & PERF_SAMPLE_WEIGHT ? w->weight : 0), "%s: weight", name);
	CHECK(s->data_src == (st & PERF_SAMPLE_DATA_SRC ? w->data_src : 0), "%s: data_src", name);
}

/*
 * The time order's key, read in place (sample__time), on the record and
 * every cut of it: where the full decode succeeds, its time and tid; the
 * record's own wherever it is long enough to hold them (IDENTIFIER, IP,
 * TID, TIME come first), else -EINVAL and zeros.
 */
static void check_time(const char *name, const struct spec *w, const struct synth *b)
{
	u64 st = w->st, want_time = st & PERF_SAMPLE_TIME ? w->time : 0;
	u32 want_tid = st & PERF_SAMPLE_TID ? w->tid : 0;
	size_t need = 8 + 8 * __builtin_popcountll(st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
							 PERF_SAMPLE_TID | PERF_SAMPLE_TIME));
	int bad = 0;

	for (size_t n = 0; n <= b->len; n++) {
		struct perf_event_header *h = cut(b, n);
		struct sample s;
		u64 time = 1;
		u32 tid = 1;
		int ret = sample__time(h, st, &time, &tid);
		int full = sample__parse(h, st, w->rf, w->mask, &s);

		if (n >= need ? ret || time != want_time || tid != want_tid
			      : ret != -EINVAL || time || tid)
			bad++;
		if (!full && (ret || time != s.time || tid != s.tid))
			bad++;
		if (n == b->len) {
			CHECK(!full && !ret, "%s: time of the whole record %d %d", name, full, ret);
			time = 1;
			CHECK(!sample__time(h, st, &time, NULL) && time == want_time,
			      "%s: time without tid", name);
		}
		free(h);
	}
	CHECK(bad == 0, "%s: %d cuts read a time unlike the decode's", name, bad);
}

/*
 * Decode the full record (exact fields), the record with 8 bytes of
 * trailing slack (still fine), and every shorter cut (-EINVAL).
 */
static void run(const char *name, const struct spec *w)
{
	struct synth b;
	struct sample s;
	struct perf_event_header *h;
	int bad = 0, ret;

	build(w, &b);
	h = cut(&b, b.len);
	ret = sample__parse(h, w->st, w->rf, w->mask, &s);
	CHECK(ret == 0, "%s: parse %d", name, ret);
	free(h);
	/* check against pointers into b itself for the "inside" test */
	ret = sample__parse((const struct perf_event_header *)b.b, w->st, w->rf, w->mask, &s);
	CHECK(ret == 0, "%s: parse in place %d", name, ret);
	if (!ret)
		check_decoded(name, w, &b, &s);

	memset(b.b + b.len, 0xa5, 8);
	b.len += 8;
	h = cut(&b, b.len);
	CHECK(sample__parse(h, w->st, w->rf, w->mask, &s) == 0, "%s: trailing slack", name);
	free(h);
	b.len -= 8;

	for (size_t n = 0; n < b.len; n++) {
		h = cut(&b, n);
		ret = sample__parse(h, w->st, w->rf, w->mask, &s);
		if (ret != -EINVAL) {
			bad++;
			if (bad < 4)
				CHECK(ret == -EINVAL, "%s: cut at %zu of %zu gave %d", name, n,
				      b.len, ret);
		}
		free(h);
	}
	CHECK(bad == 0, "%s: %d cuts not rejected", name, bad);
	check_time(name, w, &b);
}

static void base(struct spec *w, u64 st)
{
	memset(w, 0, sizeof(*w));
	w->st = st;
	w->id = 0x1122334455667788ull;
	w->ip = 0xffffffff81000123ull;
	w->pid = 4242;
	w->tid = 4243;
	w->time = 123456789012345ull;
	w->addr = 0x7fff12345678ull;
	w->stream_id = 77;
	w->cpu = 1;
	w->period = 1;
	w->raw_size = 12; /* 4 + 12: aligned without padding */
	for (int i = 0; i < 64; i++)
		w->raw[i] = (unsigned char)(i * 7 + 1);
}

#define TP_ST                                                                            \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
	 PERF_SAMPLE_RAW)

static void test_tracepoint(void)
{
	struct spec w;

	base(&w, TP_ST);
	run("tp", &w);

	base(&w, TP_ST);
	w.raw_size = 5; /* the parser must skip 7 bytes of padding */
	w.raw_pad = 7;
	run("tp raw padded", &w);

	base(&w, TP_ST | PERF_SAMPLE_PERIOD);
	w.raw_size = 4; /* 4 + 4 = 8 */
	w.period = 1000003;
	run("tp+period", &w);

	base(&w, TP_ST);
	w.raw_size = 0;
	w.raw_pad = 4;
	run("tp empty raw", &w);

	base(&w, TP_ST | PERF_SAMPLE_CALLCHAIN);
	w.nr_ips = 6;
	w.ips[0] = PERF_CONTEXT_KERNEL;
	w.ips[1] = 0xffffffff81001000ull;
	w.ips[2] = 0xffffffff81002000ull;
	w.ips[3] = PERF_CONTEXT_USER;
	w.ips[4] = 0x401000;
	w.ips[5] = 0x7f0000001000ull;
	run("tp+callchain", &w);

	base(&w, TP_ST | PERF_SAMPLE_CALLCHAIN);
	w.nr_ips = 0;
	run("tp+empty callchain", &w);
}

static void test_all_fixed(void)
{
	struct spec w;

	base(&w, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT |
			 PERF_SAMPLE_DATA_SRC);
	w.weight = 333;
	w.data_src = 0x1234567;
	run("ip+addr+id+stream+weight+data_src", &w);

	base(&w, PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT);
	w.weight = 9;
	run("ip+addr+weight", &w);

	base(&w, PERF_SAMPLE_TID | PERF_SAMPLE_DATA_SRC);
	w.data_src = 5;
	run("tid+data_src", &w);

	base(&w, 0);
	run("nothing", &w);
}

/* Fill the read payload with distinct words and return their count. */
static void read_words(struct spec *w, unsigned n)
{
	w->read_words = n;
	for (unsigned i = 0; i < n; i++)
		w->read[i] = 1000 + i;
}

static void test_read(void)
{
	static const u64 extra[] = { 0,
				     PERF_FORMAT_ID,
				     PERF_FORMAT_TOTAL_TIME_ENABLED,
				     PERF_FORMAT_TOTAL_TIME_RUNNING,
				     PERF_FORMAT_TOTAL_TIME_ENABLED |
					     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID,
				     PERF_FORMAT_ID | PERF_FORMAT_LOST };
	struct spec w;
	char name[64];

	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		u64 rf = extra[i];
		unsigned per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		unsigned times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

		/* CALLCHAIN after READ proves the cursor lands right after it */
		base(&w, TP_ST | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN);
		w.rf = rf;
		w.read_nr = 1;
		read_words(&w, per + times);
		w.nr_ips = 2;
		w.ips[0] = PERF_CONTEXT_KERNEL;
		w.ips[1] = 0xffffffff81000042ull;
		snprintf(name, sizeof(name), "read single rf=%#llx", (unsigned long long)rf);
		run(name, &w);

		for (u64 nr = 0; nr <= 3; nr++) {
			base(&w, TP_ST | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN);
			w.rf = rf | PERF_FORMAT_GROUP;
			w.read_nr = nr;
			read_words(&w, times + nr * per);
			w.nr_ips = 1;
			w.ips[0] = 0x401234;
			snprintf(name, sizeof(name), "read group nr=%llu rf=%#llx",
				 (unsigned long long)nr, (unsigned long long)rf);
			run(name, &w);
		}
	}
}

/* 3 registers: bp, sp, ip on x86-64 (bits 6, 7, 8). */
#define REGS_MASK ((1ull << 6) | (1ull << 7) | (1ull << 8))

static void test_regs_stack(void)
{
	struct spec w;

	base(&w, TP_ST | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	w.mask = REGS_MASK;
	w.abi = PERF_SAMPLE_REGS_ABI_64;
	w.regs[0] = 0x7ffd00001000ull;
	w.regs[1] = 0x7ffd00000ff0ull;
	w.regs[2] = 0x401177;
	w.stack_size = 64;
	for (int i = 0; i < 64; i++)
		w.stack[i] = (unsigned char)(255 - i);
	w.dyn_size = 40;
	run("regs abi 2 + stack 64 dyn 40", &w);

	w.abi = PERF_SAMPLE_REGS_ABI_NONE; /* a kernel thread: no registers follow */
	run("regs abi 0 + stack", &w);

	w.abi = PERF_SAMPLE_REGS_ABI_64;
	w.stack_size = 0; /* no dyn_size word follows an empty stack */
	run("regs + stack size 0", &w);

	w.abi = PERF_SAMPLE_REGS_ABI_NONE;
	run("regs abi 0 + stack size 0", &w);

	w.abi = PERF_SAMPLE_REGS_ABI_32;
	w.stack_size = 16;
	w.dyn_size = 1000; /* larger than the copy: clamped */
	run("regs abi 1 + dyn_size clamped", &w);

	/* with everything after RAW: padding, then regs/stack/weight/data_src */
	base(&w, TP_ST | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_READ | PERF_SAMPLE_REGS_USER |
			 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_ADDR | PERF_SAMPLE_IP);
	w.rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	w.read_nr = 2;
	read_words(&w, 1 + 2 * 2);
	w.nr_ips = 3;
	w.ips[0] = PERF_CONTEXT_USER;
	w.ips[1] = 0x401000;
	w.ips[2] = 0x402000;
	w.raw_size = 9;
	w.raw_pad = 3;
	w.mask = REGS_MASK | 1;
	w.abi = PERF_SAMPLE_REGS_ABI_64;
	for (int i = 0; i < 4; i++)
		w.regs[i] = 0x1000 * (i + 1);
	w.stack_size = 24;
	memset(w.stack, 0x5c, 24);
	w.dyn_size = 24;
	w.weight = 17;
	w.data_src = 0x42;
	run("everything", &w);
}

static void test_hostile(void)
{
	struct synth b;
	struct sample s;
	struct spec w;
	u64 *nr;

	/* absurd counts must fail cleanly, not overread or overflow */
	base(&w, PERF_SAMPLE_CALLCHAIN);
	w.nr_ips = 1;
	build(&w, &b);
	nr = (u64 *)(b.b + 8);
	*nr = 1ull << 61; /* * 8 wraps to 0 if unchecked */
	CHECK_INT(sample__parse((void *)b.b, w.st, 0, 0, &s), -EINVAL);
	*nr = 65537;
	CHECK_INT(sample__parse((void *)b.b, w.st, 0, 0, &s), -EINVAL);

	base(&w, PERF_SAMPLE_READ);
	w.rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	w.read_nr = 1;
	read_words(&w, 2);
	build(&w, &b);
	nr = (u64 *)(b.b + 8);
	*nr = 1ull << 62;
	CHECK_INT(sample__parse((void *)b.b, w.st, w.rf, 0, &s), -EINVAL);

	base(&w, PERF_SAMPLE_RAW);
	w.raw_size = 4;
	build(&w, &b);
	memcpy(b.b + 8, &(u32){ 0xffffffff }, 4);
	CHECK_INT(sample__parse((void *)b.b, w.st, 0, 0, &s), -EINVAL);

	base(&w, PERF_SAMPLE_STACK_USER);
	w.stack_size = 8;
	build(&w, &b);
	memcpy(b.b + 8, &(u64){ ~0ull }, 8);
	CHECK_INT(sample__parse((void *)b.b, w.st, 0, 0, &s), -EINVAL);

	/* a layout the parser does not know is refused, not guessed */
	base(&w, PERF_SAMPLE_TID);
	build(&w, &b);
	CHECK_INT(sample__parse((void *)b.b, PERF_SAMPLE_TID | PERF_SAMPLE_BRANCH_STACK, 0, 0, &s),
		  -EINVAL);
}

/* The sample_id trailer, in its documented order. */
static void put_id(struct synth *b, u64 st)
{
	if (st & PERF_SAMPLE_TID)
		synth__u32x2(b, 501, 502);
	if (st & PERF_SAMPLE_TIME)
		synth__u64(b, 987654321ull);
	if (st & PERF_SAMPLE_ID)
		synth__u64(b, 0xabcull);
	if (st & PERF_SAMPLE_STREAM_ID)
		synth__u64(b, 0xdefull);
	if (st & PERF_SAMPLE_CPU)
		synth__u32x2(b, 1, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		synth__u64(b, 0xabcull);
}

static void check_id(const char *name, const struct synth *b, u64 st, u32 type)
{
	struct sample s;
	struct perf_event_header *h;
	unsigned idsz = sample__id_size(st);

	h = cut(b, b->len);
	CHECK(sample__parse_id(h, st, &s) == 0, "%s: parse_id", name);
	CHECK_INT(s.type, type);
	CHECK(s.pid == (st & PERF_SAMPLE_TID ? 501u : 0), "%s: pid %u", name, s.pid);
	CHECK(s.tid == (st & PERF_SAMPLE_TID ? 502u : 0), "%s: tid %u", name, s.tid);
	CHECK(s.time == (st & PERF_SAMPLE_TIME ? 987654321ull : 0), "%s: time", name);
	CHECK(s.id == (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ? 0xabcull : 0), "%s: id",
	      name);
	CHECK(s.stream_id == (st & PERF_SAMPLE_STREAM_ID ? 0xdefull : 0), "%s: stream", name);
	CHECK(s.cpu == (st & PERF_SAMPLE_CPU ? 1u : (u32)-1), "%s: cpu %u", name, s.cpu);
	free(h);
	/* any record shorter than header + trailer is refused; longer cuts stay in
   * bounds */
	for (size_t n = 0; n <= b->len; n++) {
		int ret;

		h = cut(b, n);
		ret = sample__parse_id(h, st, &s);
		if (n < sizeof(*h) + idsz)
			CHECK(ret == -EINVAL, "%s: id cut %zu gave %d", name, n, ret);
		/* the time order's key, read in place: as the decode */
		{
			u64 time = 1;
			int r2 = sample__id_time(h, st, &time);

			CHECK(r2 == ret && time == (ret ? 0 : s.time), "%s: id time cut %zu: %d %d",
			      name, n, r2, ret);
		}
		free(h);
	}
}

#define ID_ALL                                                                         \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static void test_id_size(void)
{
	CHECK_INT(sample__id_size(0), 0);
	CHECK_INT(sample__id_size(ID_ALL), 48);
	CHECK_INT(sample__id_size(TP_ST), 32); /* RAW is not part of sample_id */
	CHECK_INT(sample__id_size(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_TIME), 8);
}

static void comm_rec(struct synth *b, const char *comm, u64 st, u16 misc)
{
	char pad[24] = { 0 };
	size_t n = strlen(comm) + 1;

	b->len = 8;
	synth__u32x2(b, 501, 502);
	strcpy(pad, comm);
	synth__put(b, pad, (n + 7) & ~(size_t)7);
	put_id(b, st);
	synth__finish(b, PERF_RECORD_COMM, misc);
}

static void test_comm(void)
{
	static const u64 sts[] = { TP_ST, ID_ALL, PERF_SAMPLE_TID | PERF_SAMPLE_TIME, 0 };
	struct rec_comm c;
	struct synth b;
	int bad = 0;

	for (size_t i = 0; i < sizeof(sts) / sizeof(sts[0]); i++) {
		comm_rec(&b, "getppid_loop", sts[i], PERF_RECORD_MISC_COMM_EXEC);
		check_id("comm", &b, sts[i], PERF_RECORD_COMM);
	}
	comm_rec(&b, "getppid_loop", TP_ST, PERF_RECORD_MISC_COMM_EXEC);
	CHECK_INT(rec__comm((void *)b.b, &c), 0);
	CHECK_INT(c.pid, 501);
	CHECK_INT(c.tid, 502);
	CHECK_STR(c.comm, "getppid_loop");
	CHECK(c.exec, "exec bit");
	comm_rec(&b, "1234567", 0, 0); /* exactly 8 bytes with the NUL */
	CHECK_INT(b.len, 24);
	CHECK_INT(rec__comm((void *)b.b, &c), 0);
	CHECK_STR(c.comm, "1234567");
	CHECK(!c.exec, "no exec bit");
	/* a cut before the NUL has no string; one after it still has one */
	comm_rec(&b, "abc", 0, 0);
	for (size_t n = 0; n < b.len; n++) {
		struct perf_event_header *h = cut(&b, n);
		int ret = rec__comm(h, &c);

		if (n < 8 + 8 + 4 ? ret != -EINVAL : ret != 0 || strcmp(c.comm, "abc"))
			bad++;
		free(h);
	}
	CHECK(bad == 0, "comm cuts: %d wrong", bad);
	/* no NUL at all */
	memset(b.b + 16, 'x', 8);
	CHECK_INT(rec__comm((void *)b.b, &c), -EINVAL);
}

static void task_rec(struct synth *b, u32 type, u64 st)
{
	b->len = 8;
	synth__u32x2(b, 600, 1);
	synth__u32x2(b, 601, 1);
	synth__u64(b, 5555555555ull);
	put_id(b, st);
	synth__finish(b, type, 0);
}

static void test_task(void)
{
	struct rec_task t;
	struct synth b;
	int bad = 0;

	task_rec(&b, PERF_RECORD_EXIT, ID_ALL);
	check_id("exit", &b, ID_ALL, PERF_RECORD_EXIT);
	CHECK_INT(rec__task((void *)b.b, &t), 0);
	CHECK_INT(t.pid, 600);
	CHECK_INT(t.ppid, 1);
	CHECK_INT(t.tid, 601);
	CHECK_INT(t.ptid, 1);
	CHECK(t.time == 5555555555ull, "task time");
	task_rec(&b, PERF_RECORD_FORK, TP_ST);
	check_id("fork", &b, TP_ST, PERF_RECORD_FORK);
	for (size_t n = 0; n < 32; n++) {
		struct perf_event_header *h = cut(&b, n);

		bad += rec__task(h, &t) != -EINVAL;
		free(h);
	}
	CHECK(bad == 0, "task cuts: %d accepted", bad);
}

static void mmap2_rec(struct synth *b, bool build_id, unsigned char bid_size, const char *file,
		      u64 st)
{
	char name[64] = { 0 };
	size_t n = strlen(file) + 1;

	b->len = 8;
	synth__u32x2(b, 700, 701);
	synth__u64(b, 0x7f1234560000ull);
	synth__u64(b, 0x21000);
	synth__u64(b, 0x3000);
	if (build_id) {
		unsigned char id[24] = { bid_size, 0, 0, 0 };

		for (int i = 0; i < 20; i++)
			id[4 + i] = (unsigned char)(0xa0 + i);
		synth__put(b, id, 24);
	} else {
		synth__u32x2(b, 8, 3);
		synth__u64(b, 1234567);
		synth__u64(b, 9); /* ino_generation */
	}
	synth__u32x2(b, 5 /* PROT_READ|PROT_EXEC */, 2 /* MAP_PRIVATE */);
	strcpy(name, file);
	synth__put(b, name, (n + 7) & ~(size_t)7);
	put_id(b, st);
	synth__finish(b, PERF_RECORD_MMAP2, build_id ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0);
}

static void check_mmap2_common(const struct rec_mmap2 *m, const char *file)
{
	CHECK_INT(m->pid, 700);
	CHECK_INT(m->tid, 701);
	CHECK(m->addr == 0x7f1234560000ull, "mmap2 addr");
	CHECK(m->len == 0x21000, "mmap2 len");
	CHECK(m->pgoff == 0x3000, "mmap2 pgoff");
	CHECK_INT(m->prot, 5);
	CHECK_INT(m->flags, 2);
	CHECK_STR(m->filename, file);
}

static void test_mmap2(void)
{
	struct rec_mmap2 m;
	struct synth b;
	int bad = 0;

	mmap2_rec(&b, false, 0, "/usr/lib/x86_64-linux-gnu/libc.so.6", ID_ALL);
	check_id("mmap2", &b, ID_ALL, PERF_RECORD_MMAP2);
	CHECK_INT(rec__mmap2((void *)b.b, &m), 0);
	check_mmap2_common(&m, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	CHECK(!m.has_build_id && !m.build_id, "no build id");
	CHECK_INT(m.maj, 8);
	CHECK_INT(m.min, 3);
	CHECK(m.ino == 1234567, "ino");

	mmap2_rec(&b, true, 20, "/bin/true", TP_ST);
	CHECK_INT(rec__mmap2((void *)b.b, &m), 0);
	check_mmap2_common(&m, "/bin/true");
	CHECK(m.has_build_id, "build id form");
	CHECK_INT(m.build_id_size, 20);
	CHECK(m.build_id && m.build_id[0] == 0xa0 && m.build_id[19] == 0xb3, "build id bytes");
	CHECK(!m.maj && !m.min && !m.ino, "no dev/ino in build-id form");

	mmap2_rec(&b, true, 255, "/x", 0); /* bogus size: never past the 20-byte field */
	CHECK_INT(rec__mmap2((void *)b.b, &m), 0);
	CHECK_INT(m.build_id_size, 20);

	mmap2_rec(&b, false, 0, "//anon", 0);
	for (size_t n = 0; n < b.len; n++) {
		struct perf_event_header *h = cut(&b, n);
		int ret = rec__mmap2(h, &m);

		/* the filename needs its first byte and its NUL: 8 + 64 + 7 */
		if (n < 79 ? ret != -EINVAL : ret != 0)
			bad++;
		free(h);
	}
	CHECK(bad == 0, "mmap2 cuts: %d wrong", bad);
}

static void test_lost(void)
{
	struct rec_lost l;
	struct synth b;

	b.len = 8;
	synth__u64(&b, 0x55);
	synth__u64(&b, 1234);
	put_id(&b, ID_ALL);
	synth__finish(&b, PERF_RECORD_LOST, 0);
	check_id("lost", &b, ID_ALL, PERF_RECORD_LOST);
	CHECK_INT(rec__lost((void *)b.b, &l), 0);
	CHECK(l.id == 0x55, "lost id");
	CHECK_INT(l.lost, 1234);
	for (size_t n = 0; n < 24; n++) {
		struct perf_event_header *h = cut(&b, n);

		CHECK(rec__lost(h, &l) == -EINVAL, "lost cut %zu", n);
		free(h);
	}

	b.len = 8;
	synth__u64(&b, 99);
	put_id(&b, TP_ST);
	synth__finish(&b, PERF_RECORD_LOST_SAMPLES, 0);
	check_id("lost_samples", &b, TP_ST, PERF_RECORD_LOST_SAMPLES);
	CHECK_INT(rec__lost((void *)b.b, &l), 0);
	CHECK_INT(l.lost, 99);
	CHECK_INT(l.id, 0);
	for (size_t n = 0; n < 16; n++) {
		struct perf_event_header *h = cut(&b, n);

		CHECK(rec__lost(h, &l) == -EINVAL, "lost_samples cut %zu", n);
		free(h);
	}
}

/* A saved sample owns its data: the ring-buffer slot may be reused at once. */
static void test_copy(void)
{
	u64 ips[3] = { 0xffffffff81000000ULL, 0x401000, 0x402000 };
	u64 regs[3] = { 1, 2, 3 };
	char stack[64], raw[12] = "rawdata";
	struct sample smp = { .pid = 7,
			      .tid = 8,
			      .time = 99,
			      .nr_ips = 3,
			      .ips = ips,
			      .nr_regs = 3,
			      .regs = regs,
			      .stack = stack,
			      .stack_size = 64,
			      .stack_dyn_size = 40,
			      .raw = raw,
			      .raw_size = sizeof(raw) };
	struct sample_copy c = { 0 };
	u64 big[100] = { 0 };
	void *buf;

	memset(stack, 0xab, sizeof(stack));
	CHECK_INT(sample_copy__save(&c, &smp, false), 0);
	CHECK(c.valid, "valid");
	/* the ring buffer moves on */
	ips[1] = 0;
	regs[2] = 0;
	memset(stack, 0, sizeof(stack));
	CHECK(c.smp.ips != ips && c.smp.ips[1] == 0x401000, "ips copied");
	CHECK(c.smp.regs[2] == 3, "regs copied");
	CHECK(c.smp.stack && ((unsigned char *)c.smp.stack)[39] == 0xab, "stack copied");
	/* only what the kernel filled is kept */
	CHECK_INT(c.smp.stack_size, 40);
	CHECK_INT(c.smp.stack_dyn_size, 40);
	CHECK(c.smp.raw == NULL && c.smp.raw_size == 0, "raw not asked for");
	CHECK_INT(c.smp.pid, 7);
	CHECK_INT(c.smp.time, 99);
	/* raw kept when asked; a smaller sample reuses the buffer */
	smp.nr_regs = 0;
	smp.stack = NULL;
	CHECK_INT(sample_copy__save(&c, &smp, true), 0);
	buf = c.buf;
	CHECK(c.smp.raw && !strcmp(c.smp.raw, "rawdata") && c.smp.raw != raw, "raw copied");
	CHECK(c.smp.regs == NULL && c.smp.stack == NULL, "no regs, no stack");
	CHECK_INT(sample_copy__save(&c, &smp, false), 0);
	CHECK(c.buf == buf, "buffer reused");
	/* a longer chain grows it */
	smp.ips = big;
	smp.nr_ips = 100;
	CHECK_INT(sample_copy__save(&c, &smp, false), 0);
	CHECK_INT(c.smp.nr_ips, 100);
	CHECK(c.cap >= 800, "grown to %zu", c.cap);
	sample_copy__free(&c);
	CHECK(!c.valid && !c.buf, "freed");
}

int main(void)
{
	test_tracepoint();
	test_all_fixed();
	test_read();
	test_regs_stack();
	test_hostile();
	test_id_size();
	test_comm();
	test_task();
	test_mmap2();
	test_lost();
	test_copy();
	return ut_done("test_sample");
}
