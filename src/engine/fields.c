// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint field access and printing through libtraceevent: field
 * offsets, sizes and __data_loc / __rel_loc encodings come from the
 * kernel's format file, never from hard-coded layouts.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "engine/fastprint.h"
#include "engine/session_int.h"

static struct tep_format_field *field_of(struct evsel *ev, const char *name)
{
	if (!ev->tp)
		return NULL;
	/* tep_find_field is a short linear scan; fine for tracepoint sizes */
	return tep_find_field(ev->tp, name);
}

int evsel__field_u64(struct evsel *ev, struct sample *smp, const char *name, u64 *val)
{
	struct tep_format_field *f = field_of(ev, name);
	unsigned long long v;

	if (!f || !smp->raw || (unsigned)f->offset + (unsigned)f->size > smp->raw_size)
		return -1;
	if (tep_read_number_field(f, smp->raw, &v))
		return -1;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		int shift = 64 - 8 * f->size;

		v = (unsigned long long)((long long)(v << shift) >> shift);
	}
	*val = v;
	return 0;
}

const char *evsel__field_str(struct evsel *ev, struct sample *smp, const char *name, int *len)
{
	struct tep_format_field *f = field_of(ev, name);
	const char *data = smp->raw;
	unsigned off, size;

	if (!f || !data || (unsigned)f->offset + (unsigned)f->size > smp->raw_size)
		return NULL;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned loc;

		memcpy(&loc, data + f->offset, 4);
		off = loc & 0xffff;
		size = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		size = f->size;
	}
	if (off > smp->raw_size || size > smp->raw_size - off)
		return NULL;
	if (len) {
		const char *nul = memchr(data + off, 0, size);

		*len = nul ? (int)(nul - (data + off)) : (int)size;
	}
	return data + off;
}

/* PERF_PROF_SLOWPRINT=1 prints through libtraceevent only (for comparisons). */
static bool slowprint(void)
{
	const char *v = getenv("PERF_PROF_SLOWPRINT");

	return v && *v && strcmp(v, "0");
}

void evsel__print_raw(struct session *s, struct evsel *ev, struct sample *smp, FILE *fp)
{
	struct trace_seq *seq = &s->seq;
	struct tep_record rec = { 0 };

	if (!ev->tp || !s->tp)
		return;
	if (!ev->fastprint_tried) {
		ev->fastprint_tried = true;
		if (!slowprint())
			ev->fastprint = fastprint__new(tp__tep(s->tp), ev->tp);
	}
	if (ev->fastprint) {
		char buf[4096];
		int n = fastprint__format(ev->fastprint, smp->raw, (int)smp->raw_size, buf,
					  sizeof(buf));

		/* -1: a record it cannot print exactly; libtraceevent does it below */
		if (n >= 0) {
			fwrite_unlocked(buf, 1, n, fp);
			return;
		}
	}
	if (!s->seq_ready) {
		/* reused: one allocation for the whole run */
		trace_seq_init(seq);
		s->seq_ready = true;
	}
	trace_seq_reset(seq);
	rec.ts = smp->time;
	rec.cpu = (int)smp->cpu;
	rec.data = (void *)smp->raw;
	rec.size = (int)smp->raw_size;
	tep_print_event(tp__tep(s->tp), seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(seq);
	fwrite(seq->buffer, 1, seq->len, fp);
}
