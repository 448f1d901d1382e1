// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the record decoders: ring-buffer records come from
 * the kernel, but a decoder bug or a mismatched sample_type must never
 * read outside the record.  Input: sample_type, read_format and the
 * user-register mask (8 bytes each, little endian), then the record.
 * header.size is clamped to the bytes given, and the record is copied to
 * a buffer of exactly that size so that ASan sees any overread.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sample.h"
#include "engine/sideband.h"

static volatile uint64_t sink;

/* Every pointer handed out must lie inside the record; read all of it. */
static void touch(const unsigned char *rec, size_t size, const void *p, uint64_t len)
{
	const unsigned char *q = p;

	if (!p) {
		if (len)
			__builtin_trap();
		return;
	}
	if (q < rec || len > size || q + len > rec + size)
		__builtin_trap();
	for (uint64_t i = 0; i < len; i++)
		sink += q[i];
}

static void touch_str(const unsigned char *rec, size_t size, const char *s)
{
	if (s)
		touch(rec, size, s, strlen(s) + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_header h;
	unsigned char *rec;
	struct sample s;
	struct rec_comm c;
	struct rec_task t;
	struct rec_mmap2 m;
	struct rec_lost l;
	struct rec_sideband sb;
	u64 st, rf, mask;
	size_t len;

	if (size < 24 + sizeof(h))
		return 0;
	memcpy(&st, data, 8);
	memcpy(&rf, data + 8, 8);
	memcpy(&mask, data + 16, 8);
	data += 24;
	size -= 24;
	memcpy(&h, data, sizeof(h));
	if (size > 65535)
		size = 65535;
	if (h.size > size)
		h.size = (uint16_t)size;
	len = h.size < sizeof(h) ? sizeof(h) : h.size;
	rec = malloc(len);
	if (!rec)
		return 0;
	memcpy(rec, data, len);
	memcpy(rec, &h, sizeof(h));

	/* the time order's key, read in place: the decoder's values wherever it decodes */
	{
		uint64_t time;
		uint32_t tid;
		int ret = sample__time((void *)rec, st, &time, &tid);

		if (!sample__parse((void *)rec, st, rf, mask, &s) &&
		    (ret || time != s.time || tid != s.tid))
			__builtin_trap();
		ret = sample__id_time((void *)rec, st, &time);
		if (ret != sample__parse_id((void *)rec, st, &s) || (!ret && time != s.time))
			__builtin_trap();
	}
	if (!sample__parse((void *)rec, st, rf, mask, &s)) {
		touch(rec, h.size, s.ips, s.nr_ips * 8);
		touch(rec, h.size, s.raw, s.raw_size);
		touch(rec, h.size, s.regs, (uint64_t)s.nr_regs * 8);
		touch(rec, h.size, s.stack, s.stack_size);
		if (s.stack_dyn_size > s.stack_size)
			__builtin_trap();
		if (st & PERF_SAMPLE_READ) {
			uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
			uint64_t words = (rf & PERF_FORMAT_GROUP ? s.read_nr : 1) * per +
					 !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
					 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

			touch(rec, h.size, s.read_values, words * 8);
		}
	}
	if (!sample__parse_id((void *)rec, st, &s))
		sink += s.pid + s.tid + s.time + s.id + s.cpu + s.stream_id;
	if (!rec__comm((void *)rec, &c))
		touch_str(rec, h.size, c.comm);
	if (!rec__task((void *)rec, &t))
		sink += t.pid + t.time;
	if (!rec__mmap2((void *)rec, &m)) {
		touch_str(rec, h.size, m.filename);
		if (m.has_build_id)
			touch(rec, h.size, m.build_id, m.build_id_size);
	}
	if (!rec__lost((void *)rec, &l))
		sink += l.lost;
	if (!rec__sideband((void *)rec, st, &sb)) {
		if (sb.type == PERF_RECORD_KSYMBOL)
			touch_str(rec, h.size, sb.ksym.name);
		if (sb.type == PERF_RECORD_CGROUP)
			touch_str(rec, h.size, sb.cgroup.path);
		if (sb.type == PERF_RECORD_TEXT_POKE) {
			touch(rec, h.size, sb.poke.old_bytes, sb.poke.old_len);
			touch(rec, h.size, sb.poke.new_bytes, sb.poke.new_len);
		}
	}
	free(rec);
	return 0;
}
