// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint field access and printing through libtraceevent: field
 * offsets, sizes and __data_loc / __rel_loc encodings come from the
 * kernel's format file, never from hard-coded layouts.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "engine/fastprint.h"
#include "engine/probe.h"
#include "engine/session_int.h"

int evsel__field(const struct evsel *ev, const char *name, struct field *f)
{
	struct tep_format_field *tf = ev->tp ? tep_find_any_field(ev->tp, name) : NULL;

	memset(f, 0, sizeof(*f));
	if (!tf && ev->probe)
		return probe__field(ev, name, f, NULL);
	if (!tf || tf->offset < 0 || tf->size < 0 || tf->offset > 0xffff || tf->size > 0xffff)
		return -ENOENT;
	f->offset = tf->offset;
	f->size = tf->size;
	f->is_signed = tf->flags & TEP_FIELD_IS_SIGNED;
	f->is_dynamic = tf->flags & TEP_FIELD_IS_DYNAMIC;
	f->is_relative = tf->flags & TEP_FIELD_IS_RELATIVE;
	f->is_string = tf->flags & TEP_FIELD_IS_STRING;
	f->is_array = (tf->flags & TEP_FIELD_IS_ARRAY) || f->is_dynamic;
	f->elem_size = tf->elementsize <= 0xffff ? tf->elementsize : 0;
	f->nr_elems = tf->arraylen <= 0xffff ? tf->arraylen : 0;
	f->valid = true;
	return 0;
}

/* A register of the sample: the mask says which were saved, in bit order. */
static int reg_value(const struct field *f, const struct sample *smp, u64 *v)
{
	u64 mask = f->reg_intr ? smp->intr_mask : smp->regs_mask;
	const u64 *regs = f->reg_intr ? smp->intr_regs : smp->regs;

	if (f->reg >= 64 || !regs || !(mask & (1ULL << f->reg)))
		return -1;
	*v = regs[__builtin_popcountll(mask & ((1ULL << f->reg) - 1))];
	return 0;
}

int field__u64(const struct field *f, const struct sample *smp, u64 *val)
{
	const char *p = smp->raw;
	uint8_t v8;
	uint16_t v16;
	u32 v32;
	u64 v, rv;

	if (f->valid && (f->in_regs || f->is_const)) {
		if (f->is_const)
			rv = (u64)f->value;
		else if (reg_value(f, smp, &rv))
			return -1;
		p = (const char *)&rv; /* the low bytes: this host is little-endian */
		goto sized;
	}
	if (!f->valid || f->is_dynamic || !p || (u32)f->offset + f->size > smp->raw_size)
		return -1;
	p += f->offset;
sized:
	/* live records are in the host's byte order */
	switch (f->size) {
	case 1:
		memcpy(&v8, p, 1);
		v = f->is_signed ? (u64)(int8_t)v8 : v8;
		break;
	case 2:
		memcpy(&v16, p, 2);
		v = f->is_signed ? (u64)(int16_t)v16 : v16;
		break;
	case 4:
		memcpy(&v32, p, 4);
		v = f->is_signed ? (u64)(int32_t)v32 : v32;
		break;
	case 8:
		memcpy(&v, p, 8);
		break;
	default:
		return -1;
	}
	*val = v;
	return 0;
}

const char *field__str(const struct field *f, const struct sample *smp, int *len)
{
	const char *data = smp->raw;
	unsigned off, size;

	if (!f->valid || !data || (unsigned)f->offset + f->size > smp->raw_size)
		return NULL;
	if (f->is_dynamic) {
		unsigned loc;

		if (f->size < 4)
			return NULL;
		memcpy(&loc, data + f->offset, 4);
		off = loc & 0xffff;
		size = loc >> 16;
		if (f->is_relative)
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

	if (!ev->tp && ev->probe) {
		probe__print(ev, smp, fp);
		return;
	}
	if (ev->row) { /* its text, then its JSON members (session__deliver_row) */
		if (smp->raw)
			fputs_unlocked(smp->raw, fp);
		return;
	}
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
			probe__print_regs(ev, smp, fp);
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
	probe__print_regs(ev, smp, fp);
}
