// SPDX-License-Identifier: GPL-2.0
/*
 * fastprint against libtraceevent: for every tracepoint of this host, the
 * compiled printer must print random records byte for byte as
 * tep_print_event does.  Hand-written formats cover operators, casts,
 * signedness and flag tables that the host's events may not use.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>
#include <tracefs.h>

#include "engine/fastprint.h"
#include "engine/tp.h"
#include "fmt_common.h"
#include "ut.h"

#define RECS_PER_EVENT 100
#define MAX_REC 4096

/*
 * Under LeakSanitizer (make check-asan): libtraceevent 1.7 leaks a few
 * bytes parsing some of the host's formats; that is not ours to fix.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

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

	/*
	 * fastprint first: a record it refuses (a division by zero) could
	 * crash libtraceevent, which divides without checking.
	 */
	n = fastprint__format(fp, rec, size, out, sizeof(out));
	if (n < 0) {
		t->fallbacks++;
		return;
	}
	trace_seq_init(&seq);
	r.data = (void *)rec;
	r.size = size;
	tep_print_event(tep, &seq, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	t->compared++;
	if (n != (int)seq.len || memcmp(out, seq.buffer, n)) {
		t->mismatches++;
		CHECK(0, "%s:%s\n  tep:  '%.*s'\n  fast: '%.*s'", ev->system, ev->name,
		      (int)seq.len, seq.buffer, n, out);
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

	if (!fp) {
		/* FASTPRINT_REFUSED=1 lists what still goes through libtraceevent */
		if (getenv("FASTPRINT_REFUSED"))
			printf("refused %s:%s\n", ev->system, ev->name);
		return;
	}
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

/* Fields of the hand-written events; the print formats below use them all. */
static const char synth_fields[] =
	"format:\n" FMT_COMMON_FIELDS "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int b;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:long c;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long d;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:s8 e;\toffset:32;\tsize:1;\tsigned:1;\n"
	"\tfield:u16 f;\toffset:34;\tsize:2;\tsigned:0;\n"
	"\tfield:char name[16];\toffset:36;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc char[] str;\toffset:52;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rel;\toffset:56;\tsize:4;\tsigned:0;\n"
	"\tfield:short g;\toffset:60;\tsize:2;\tsigned:1;\n"
	"\tfield:unsigned long arr[3];\toffset:64;\tsize:24;\tsigned:0;\n"
	"\tfield:int iarr[2];\toffset:88;\tsize:8;\tsigned:1;\n\n";

/* Print formats with the constructs fastprint accepts, and some it must refuse. */
static const struct {
	const char *fmt;
	bool supported;
} synth_formats[] = {
	{ "\"a=%d b=%u c=%ld d=%lu e=%d f=%u g=%d\", REC->a, REC->b, REC->c, REC->d, REC->e, "
	  "REC->f, REC->g",
	  true },
	{ "\"%x %X %lx %llx %o %08x %-6d| %6d %02x %hhu %hd %hu %zu %lld %i %li\", REC->a, REC->a, "
	  "REC->c, REC->d, REC->b, REC->a, REC->a, REC->a, REC->e, REC->a, REC->a, REC->b, REC->d, "
	  "REC->c, REC->g, REC->c",
	  true },
	{ "\"%#x %#lx %.3d %-08d %#o\", REC->a, REC->c, REC->a, REC->a, REC->b", true },
	{ "\"%d %lld %d %d %d\", -REC->a, -REC->c, REC->a < -1, REC->b == -1, -(REC->e) > 2",
	  true },
	{ "\"%d %d %d %d %d %d %d %d\", REC->a < REC->b, REC->a > 5, REC->c <= REC->d, REC->e >= "
	  "1, "
	  "REC->a == REC->b, REC->a != 0, REC->g < 0, REC->c > REC->a",
	  true },
	{ "\"%d %d %u %lu %d %d\", !REC->a, !REC->c, ~REC->b, ~REC->d, REC->a && REC->b, "
	  "REC->e || REC->f",
	  true },
	{ "\"%llu %llu %llu %llu %llu %llu %llu\", REC->d + REC->c, REC->d - 1, REC->d * 3, "
	  "REC->d / 7, REC->d % 5, REC->d >> 3, REC->d << 2",
	  true },
	{ "\"%x %x %d %d\", REC->b & 0xff, REC->b | 1, REC->a / REC->e, REC->a % REC->f", true },
	{ "\"%d %ld %llx\", REC->a ? REC->b : REC->c, REC->e ? REC->c : 7, "
	  "(REC->d & 3) ? REC->d >> 2 : REC->d << 2",
	  true },
	{ "\"%d %d %lld %u %d %u %lu %lx %d\", (char)REC->a, (short)REC->b, (long)REC->a, "
	  "(unsigned char)REC->a, (s8)REC->b, (u16)REC->a, (unsigned long)REC->a, "
	  "(void *)REC->d, (int)REC->c",
	  true },
	{ "\"[%s] [%-8s] [%8s] [%s] [%s] [%s]\", REC->name, REC->name, __get_str(str), "
	  "__get_str(rel), REC->a ? \"yes\" : \"no\", \"lit\"",
	  true },
	{ "\"%s %s %s\", __print_flags(REC->b, \"|\", { 1, \"A\" }, { 2, \"B\" }, "
	  "{ 0xc, \"CD\" }, { 0, \"ZERO\" }), __print_symbolic(REC->a, { 0, \"Z\" }, "
	  "{ 1, \"ONE\" }, { 3, \"THREE\" }), __print_flags(REC->d, \"\", { 1, \"x\" }, "
	  "{ 4, \"y\" })",
	  true },
	{ "\"state=%s%s\", (REC->b & 7) ? __print_flags(REC->b & 7, \"|\", { 1, \"S\" }, "
	  "{ 2, \"D\" }) : \"R\", REC->b & 8 ? \"+\" : \"\"",
	  true },
	{ "\"%lld %lld %d %d %lld\", (int)REC->c, (s16)REC->a, (int)REC->a < 0, (char)REC->e < 0, "
	  "(long long)REC->a",
	  true },
	{ "\"%p %p 100%% done\", (void *)REC->d, REC->c", true },
	{ "\"%s\", __print_flags(REC->f, \"|\", { 0, \"NONE\" }, { 1, \"A\" }, { 6, \"BC\" })",
	  true },
	/* refused: symbol lookups, precision from an argument, arrays, helpers */
	{ "\"%pS\", (void *)REC->d", false },
	{ "\"%.*s\", REC->a, REC->name", false },
	{ "\"%s\", __print_hex(REC->name, 16)", false },
	{ "\"%d\", REC->name", false },
	{ "\"%d %d\", REC->a", false },
	{ "\"%d\", REC->a, REC->b", false },
	{ "\"%s %s\", __print_symbolic(REC->a, { -1, \"NEG\" }), __print_symbolic(REC->c, "
	  "{ -1, \"NEG\" }, { 2, \"TWO\" }, { 0x3UL, \"THREE\" })",
	  true },
	{ "\"%s\", __print_flags(REC->a, \"|\", { 0u, \"Z\" }, { 0x1u, \"A\" })", true },
	{ "\"%lx %lx %lx %d %d %Lu %Ld\", REC->arr[0], REC->arr[1], REC->arr[2], REC->iarr[0], "
	  "REC->iarr[1], REC->d, REC->c",
	  true },
	{ "\"%lx\", REC->arr[3]", false },
	{ "\"a\\tb %d\", REC->a", false },
	{ "\"%lx\", REC->arr[REC->a]", false },
	{ "\"%s\", __print_flags(REC->d, \"|\", { (1ULL << 63), \"TOP\" })", false },
	{ "\"%+d\", REC->a", false },
	{ "\"% d\", REC->a", false },
	{ "\"%c\", REC->e", false },
	{ "\"%x\", REC->b ^ 3", false },
};

static void test_synthetic(void)
{
	struct totals t = { 0 };
	struct tep_handle *tep = tep_alloc();
	char buf[4096];
	size_t i;

	CHECK(tep != NULL, "tep_alloc");
	if (!tep)
		return;
	tep_set_long_size(tep, sizeof(long));
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	for (i = 0; i < sizeof(synth_formats) / sizeof(synth_formats[0]); i++) {
		struct tep_event *ev;
		struct fastprint *fp;
		char name[16];
		int n;

		snprintf(name, sizeof(name), "t%zu", i);
		n = snprintf(buf, sizeof(buf), "name: %s\nID: %zu\n%sprint fmt: %s\n", name,
			     60000 + i, synth_fields, synth_formats[i].fmt);
		CHECK(tep_parse_event(tep, buf, n, "fptest") == TEP_ERRNO__SUCCESS, "parse %s",
		      synth_formats[i].fmt);
		ev = tep_find_event_by_name(tep, "fptest", name);
		if (!ev || (ev->flags & TEP_EVENT_FL_FAILED))
			continue;
		fp = fastprint__new(tep, ev);
		CHECK(!fp == !synth_formats[i].supported, "%s: %s", synth_formats[i].fmt,
		      fp ? "accepted" : "refused");
		fastprint__delete(fp);
		t.parsed++;
		for (int k = 0; k < 50; k++)
			test_event(tep, ev, &t);
	}
	printf("fastprint: %d hand-written formats, %d records compared, %d fell back, "
	       "%d mismatched\n",
	       t.parsed, t.compared, t.fallbacks, t.mismatches);
	CHECK(t.compared > 1000, "only %d comparisons", t.compared);
	tep_free(tep);
}

int main(void)
{
	test_synthetic();
	if (geteuid() != 0 || !tp__readable()) {
		printf("skip - host tracepoints: test_fastprint needs root and a readable "
		       "tracefs\n");
		return ut_done("test_fastprint");
	}
	test_host();
	return ut_done("test_fastprint");
}
