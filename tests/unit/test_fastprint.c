// SPDX-License-Identifier: GPL-2.0
/*
 * fastprint against libtraceevent: for every tracepoint of this host, the
 * compiled printer must print random records byte for byte as
 * tep_print_event does.  Hand-written formats cover operators, casts,
 * signedness and flag tables that the host's events may not use.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>
#include <tracefs.h>

#include "engine/fastprint.h"
#include "engine/tp.h"
#include "ut.h"

#define RECS_PER_EVENT 100
#define MAX_REC 4096

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	/* xorshift64*: reproducible across runs, so a failure can be replayed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* Interesting numbers: the constants of the event's own print arguments. */
struct pool {
	uint64_t v[512];
	int n;
};

static void pool_add(struct pool *p, const char *s)
{
	char *end;
	uint64_t v;

	if (!s || p->n == (int)(sizeof(p->v) / sizeof(p->v[0])))
		return;
	v = strtoull(s, &end, 0);
	if (end != s)
		p->v[p->n++] = v;
}

static void collect(struct pool *p, struct tep_print_arg *a)
{
	struct tep_print_flag_sym *f;

	for (; a; a = NULL) {
		switch (a->type) {
		case TEP_PRINT_ATOM:
			pool_add(p, a->atom.atom);
			break;
		case TEP_PRINT_FLAGS:
			collect(p, a->flags.field);
			for (f = a->flags.flags; f; f = f->next)
				pool_add(p, f->value);
			break;
		case TEP_PRINT_SYMBOL:
			collect(p, a->symbol.field);
			for (f = a->symbol.symbols; f; f = f->next)
				pool_add(p, f->value);
			break;
		case TEP_PRINT_OP:
			collect(p, a->op.left);
			collect(p, a->op.right);
			break;
		case TEP_PRINT_TYPE:
			collect(p, a->typecast.item);
			break;
		default:
			break;
		}
	}
}

static uint64_t pick(const struct pool *p)
{
	uint64_t v;
	int i, n;

	switch (rnd() % 8) {
	case 0:
		return 0;
	case 1:
		return rnd() % 4;
	case 2:
		return rnd();
	case 3:
		return -(rnd() % 4);
	case 4: /* a combination of table values, sometimes with an unknown bit */
		v = 0;
		n = 1 + rnd() % 3;
		for (i = 0; i < n && p->n; i++)
			v |= p->v[rnd() % p->n];
		return rnd() % 4 ? v : v | (1ULL << (rnd() % 40));
	default:
		return p->n ? p->v[rnd() % p->n] : rnd() % 1000;
	}
}

static void rand_text(char *s, int len)
{
	static const char cs[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-:/.";
	int i;

	for (i = 0; i < len; i++)
		s[i] = cs[rnd() % (sizeof(cs) - 1)];
}

/* A well-formed record of @ev: valid __data_loc words, NUL-terminated strings. */
static int synth(struct tep_event *ev, const struct pool *p, unsigned char *rec)
{
	struct tep_format_field *f;
	int size = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (f = pass ? ev->format.fields : ev->format.common_fields; f; f = f->next)
			if (f->offset + f->size > size)
				size = f->offset + f->size;
	if (size > MAX_REC / 2)
		return -1;
	for (int i = 0; i < size; i++)
		rec[i] = rnd();
	for (f = ev->format.fields; f; f = f->next) {
		uint64_t v = pick(p);

		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			int len = rnd() % 24, off = size;
			uint32_t loc;

			if (size + len + 1 > MAX_REC)
				return -1;
			rand_text((char *)rec + size, len);
			rec[size + len] = 0;
			size += len + 1;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off -= f->offset + f->size;
			loc = (uint32_t)(len + 1) << 16 | off;
			memcpy(rec + f->offset, &loc, 4);
		} else if (f->flags & TEP_FIELD_IS_ARRAY) {
			if (strstr(f->type, "char")) {
				int len = rnd() % (f->size + 1);

				memset(rec + f->offset, 0, f->size);
				rand_text((char *)rec + f->offset, len);
			}
		} else if (f->size <= 8) {
			memcpy(rec + f->offset, &v, f->size);
		}
	}
	/* tep_print_event finds the event by the record's own type */
	f = tep_find_common_field(ev, "common_type");
	if (!f)
		return -1;
	memcpy(rec + f->offset, &ev->id, f->size < 4 ? f->size : 4);
	return size;
}

struct totals {
	int events, parsed, supported, compared, fallbacks, mismatches;
};

static void compare(struct tep_handle *tep, struct tep_event *ev, struct fastprint *fp,
		    const unsigned char *rec, int size, struct totals *t)
{
	struct tep_record r = { 0 };
	struct trace_seq seq;
	char out[MAX_REC * 2];
	int n;

	trace_seq_init(&seq);
	r.data = (void *)rec;
	r.size = size;
	tep_print_event(tep, &seq, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	n = fastprint__format(fp, rec, size, out, sizeof(out));
	if (n < 0) {
		t->fallbacks++;
	} else {
		t->compared++;
		if (n != (int)seq.len || memcmp(out, seq.buffer, n)) {
			t->mismatches++;
			CHECK(0, "%s:%s\n  tep:  '%.*s'\n  fast: '%.*s'", ev->system, ev->name,
			      (int)seq.len, seq.buffer, n, out);
		}
	}
	trace_seq_destroy(&seq);
}

static void test_event(struct tep_handle *tep, struct tep_event *ev, struct totals *t)
{
	static unsigned char rec[MAX_REC];
	struct fastprint *fp = fastprint__new(tep, ev);
	struct pool p = { .n = 0 };
	char small[8];
	int i, size;

	if (!fp)
		return;
	t->supported++;
	collect(&p, ev->print_fmt.args);
	for (struct tep_print_arg *a = ev->print_fmt.args; a; a = a->next)
		collect(&p, a);
	for (i = 0; i < RECS_PER_EVENT; i++) {
		size = synth(ev, &p, rec);
		if (size < 0)
			break;
		compare(tep, ev, fp, rec, size, t);
		if (i == 0) {
			/* truncated records and short buffers: refused, never overrun */
			for (int cut = 0; cut < size; cut += 1 + size / 7)
				fastprint__format(fp, rec, cut, small, sizeof(small));
			CHECK(fastprint__format(fp, rec, size, small, 1) <= 0, "%s", ev->name);
		}
	}
	fastprint__delete(fp);
}

static void test_host(void)
{
	struct totals t = { 0 };
	struct tp_db *db = tp__new();
	char **systems, **events;

	CHECK(db != NULL, "tp__new");
	if (!db)
		return;
	systems = tracefs_event_systems(NULL);
	CHECK(systems != NULL, "tracefs_event_systems");
	for (int i = 0; systems && systems[i]; i++) {
		events = tracefs_system_events(NULL, systems[i]);
		for (int j = 0; events && events[j]; j++) {
			struct tep_event *ev = tp__event(db, systems[i], events[j]);

			t.events++;
			if (!ev)
				continue;
			t.parsed++;
			test_event(tp__tep(db), ev, &t);
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	printf("fastprint: %d tracepoints, %d parsed, %d supported (%.0f%%), %d records compared, "
	       "%d fell back, %d mismatched\n",
	       t.events, t.parsed, t.supported, t.parsed ? 100.0 * t.supported / t.parsed : 0.0,
	       t.compared, t.fallbacks, t.mismatches);
	CHECK(t.events > 100, "only %d tracepoints", t.events);
	CHECK(t.supported > t.parsed / 2, "only %d of %d supported", t.supported, t.parsed);
	CHECK(t.compared > 10000, "only %d comparisons", t.compared);
	CHECK(t.fallbacks * 50 < t.compared, "%d fallbacks", t.fallbacks);
	tp__delete(db);
}

int main(void)
{
	if (geteuid() != 0 || !tp__readable()) {
		printf("skip - test_fastprint needs root and a readable tracefs\n");
		return ut_done("test_fastprint");
	}
	test_host();
	return ut_done("test_fastprint");
}
