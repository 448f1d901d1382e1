// SPDX-License-Identifier: GPL-2.0
/*
 * The pprof builder (src/report/pprof.c): what it packs is read back with
 * protobuf-c's unpack of the same generated profile.proto code, and what
 * it writes is gunzipped with zlib first.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <profile.pb-c.h>
#include <zlib.h>

#include "ut.h"
#include "report/pprof.h"
#include "util/utf8.h"

typedef Perftools__Profiles__Profile Profile;

static const char *str(const Profile *pr, int64_t i)
{
	return i >= 0 && (size_t)i < pr->n_string_table ? pr->string_table[i] : "(bad index)";
}

static Profile *unpack(struct pprof *p)
{
	uint8_t *buf;
	size_t len;
	Profile *pr;

	if (pprof__pack(p, &buf, &len))
		return NULL;
	pr = perftools__profiles__profile__unpack(NULL, len, buf);
	free(buf);
	return pr;
}

static const Perftools__Profiles__Location *loc(const Profile *pr, uint64_t id)
{
	for (size_t i = 0; i < pr->n_location; i++)
		if (pr->location[i]->id == id)
			return pr->location[i];
	return NULL;
}

static const char *func_name(const Profile *pr, const Perftools__Profiles__Location *l)
{
	if (!l || !l->n_line)
		return NULL;
	for (size_t i = 0; i < pr->n_function; i++)
		if (pr->function[i]->id == l->line[0]->function_id)
			return str(pr, pr->function[i]->name);
	return "(no function)";
}

static const Perftools__Profiles__Mapping *map(const Profile *pr, uint64_t id)
{
	for (size_t i = 0; i < pr->n_mapping; i++)
		if (pr->mapping[i]->id == id)
			return pr->mapping[i];
	return NULL;
}

/* Ids are 1, 2, ... in order, and every reference resolves. */
static void check_ids(const Profile *pr)
{
	for (size_t i = 0; i < pr->n_function; i++)
		CHECK_INT(pr->function[i]->id, i + 1);
	for (size_t i = 0; i < pr->n_mapping; i++)
		CHECK_INT(pr->mapping[i]->id, i + 1);
	for (size_t i = 0; i < pr->n_location; i++) {
		const Perftools__Profiles__Location *l = pr->location[i];

		CHECK_INT(l->id, i + 1);
		CHECK(!l->mapping_id || map(pr, l->mapping_id), "location %zu: mapping %llu", i,
		      (unsigned long long)l->mapping_id);
		for (size_t k = 0; k < l->n_line; k++)
			CHECK(l->line[k]->function_id && l->line[k]->function_id <= pr->n_function,
			      "location %zu: function %llu", i,
			      (unsigned long long)l->line[k]->function_id);
	}
	for (size_t i = 0; i < pr->n_sample; i++)
		for (size_t k = 0; k < pr->sample[i]->n_location_id; k++)
			CHECK(loc(pr, pr->sample[i]->location_id[k]), "sample %zu frame %zu", i, k);
}

static void test_tables(void)
{
	static const struct pprof_type types[] = { { "samples", "count" },
						   { "cpu", "nanoseconds" } };
	static const unsigned char bid[] = { 0xde, 0xad, 0xbe, 0xef };
	/* main -> a -> b (innermost first), and main -> a -> c; a kernel frame; an unknown one */
	struct frame s1[] = {
		{ .addr = 0x1100, .sym = "b", .dso = "/bin/w" },
		{ .addr = 0x1200, .sym = "a", .dso = "/bin/w" },
		{ .addr = 0x1300, .sym = "main", .dso = "/bin/w" },
	};
	struct frame s2[] = {
		{ .addr = 0xffffffff81000010ULL,
		  .sym = "schedule",
		  .dso = "[kernel.kallsyms]",
		  .kernel = true },
		{ .addr = 0x1400, .sym = "c", .dso = "/bin/w" },
		{ .addr = 0x1200, .sym = "a", .dso = "/bin/w" },
		{ .addr = 0x1300, .sym = "main", .dso = "/bin/w" },
		{ .addr = 0x7f0000001000ULL, .sym = "[unknown]", .dso = "/lib/libc.so.6" },
	};
	struct frame_map m1[3], m2[5];
	struct pprof_label lb[] = { { .key = "comm", .str = "w" },
				    { .key = "pid", .num = 42, .unit = NULL } };
	int64_t v1[] = { 1, 10000000 }, v2[] = { 2, 20000000 };
	struct pprof_stats st;
	struct pprof *p = pprof__new(types, 2, 1);
	Profile *pr;

	for (int i = 0; i < 3; i++)
		m1[i] = (struct frame_map){
			.start = 0x1000, .end = 0x2000, .build_id = bid, .build_id_len = sizeof(bid)
		};
	m2[0] = (struct frame_map){ 0 };
	m2[1] = m2[2] = m2[3] = m1[0];
	m2[4] = (struct frame_map){ .start = 0x7f0000000000ULL,
				    .end = 0x7f0000100000ULL,
				    .pgoff = 0x28000 };
	CHECK(p, "pprof__new");
	if (!p)
		return;
	pprof__set_period(p, &types[1], 10000000);
	pprof__set_time(p, 1700000000000000000LL, 2000000000LL);
	CHECK_INT(pprof__comment(p, "perf-prof profile"), 0);
	CHECK_INT(pprof__add(p, s1, m1, 3, lb, 2, v1), 0);
	CHECK_INT(pprof__add(p, s2, m2, 5, lb, 2, v2), 0);
	CHECK_INT(pprof__add(p, s1, m1, 3, lb, 2, v1), 0); /* the same sample: values add */
	lb[1].num = 43;
	CHECK_INT(pprof__add(p, s1, m1, 3, lb, 2, v1), 0); /* another pid: another sample */
	pprof__stats(p, &st);
	CHECK_INT(st.samples, 3);
	CHECK_INT(st.locations, 6); /* b a main schedule c libc */
	CHECK_INT(st.functions, 5); /* b a main schedule c */
	CHECK_INT(st.mappings, 3);  /* /bin/w, the kernel, libc */
	pr = unpack(p);
	CHECK(pr, "unpack");
	if (!pr) {
		pprof__delete(p);
		return;
	}
	CHECK(pr->n_string_table > 0 && !strcmp(pr->string_table[0], ""), "string 0 is \"\"");
	for (size_t i = 1; i < pr->n_string_table; i++)
		for (size_t k = i + 1; k < pr->n_string_table; k++)
			CHECK(strcmp(pr->string_table[i], pr->string_table[k]),
			      "string %zu == %zu: %s", i, k, pr->string_table[i]);
	CHECK_INT(pr->n_sample_type, 2);
	CHECK_STR(str(pr, pr->sample_type[0]->type), "samples");
	CHECK_STR(str(pr, pr->sample_type[0]->unit), "count");
	CHECK_STR(str(pr, pr->sample_type[1]->type), "cpu");
	CHECK_STR(str(pr, pr->sample_type[1]->unit), "nanoseconds");
	CHECK_STR(str(pr, pr->default_sample_type), "cpu");
	CHECK(pr->period_type, "period type");
	if (pr->period_type)
		CHECK_STR(str(pr, pr->period_type->type), "cpu");
	CHECK_INT(pr->period, 10000000);
	CHECK_INT(pr->time_nanos, 1700000000000000000LL);
	CHECK_INT(pr->duration_nanos, 2000000000LL);
	CHECK_INT(pr->n_comment, 1);
	if (pr->n_comment)
		CHECK_STR(str(pr, pr->comment[0]), "perf-prof profile");
	check_ids(pr);
	CHECK_INT(pr->n_sample, 3);
	if (pr->n_sample == 3) {
		const Perftools__Profiles__Sample *a = pr->sample[0], *b = pr->sample[1];

		CHECK_INT(a->n_value, 2);
		CHECK_INT(a->value[0], 2);
		CHECK_INT(a->value[1], 20000000);
		CHECK_INT(a->n_location_id, 3);
		CHECK_STR(func_name(pr, loc(pr, a->location_id[0])), "b"); /* the leaf first */
		CHECK_STR(func_name(pr, loc(pr, a->location_id[2])), "main");
		CHECK_INT(a->n_label, 2);
		CHECK_STR(str(pr, a->label[0]->key), "comm");
		CHECK_STR(str(pr, a->label[0]->str), "w");
		CHECK_STR(str(pr, a->label[1]->key), "pid");
		CHECK_INT(a->label[1]->num, 42);
		CHECK_INT(a->label[1]->str, 0);
		CHECK_INT(pr->sample[2]->label[1]->num, 43);
		CHECK_INT(b->n_location_id, 5);
		CHECK_INT(b->value[0], 2);
		/* a location shared by both stacks is one location */
		CHECK_INT(b->location_id[2], a->location_id[1]);
		CHECK_STR(func_name(pr, loc(pr, b->location_id[0])), "schedule");
		/* an unknown symbol: a location with no line, its address and mapping kept */
		{
			const Perftools__Profiles__Location *u = loc(pr, b->location_id[4]);
			const Perftools__Profiles__Mapping *m = u ? map(pr, u->mapping_id) : NULL;

			CHECK(u && u->n_line == 0, "unknown frame without a line");
			CHECK(u && u->address == 0x7f0000001000ULL, "its address");
			CHECK(m && !strcmp(str(pr, m->filename), "/lib/libc.so.6"), "libc mapping");
			CHECK(m && m->memory_start == 0x7f0000000000ULL &&
				      m->memory_limit == 0x7f0000100000ULL &&
				      m->file_offset == 0x28000,
			      "libc range");
			CHECK(m && !m->has_functions, "libc has no functions");
		}
		{
			const Perftools__Profiles__Location *k = loc(pr, b->location_id[0]);
			const Perftools__Profiles__Mapping *m = k ? map(pr, k->mapping_id) : NULL;

			CHECK(m && !strcmp(str(pr, m->filename), "[kernel.kallsyms]"),
			      "kernel map");
			/* no range known: the addresses seen */
			CHECK(m && m->memory_start == 0xffffffff81000010ULL &&
				      m->memory_limit == 0xffffffff81000011ULL,
			      "kernel range");
			CHECK(m && m->has_functions, "kernel has functions");
		}
		{
			const Perftools__Profiles__Location *w = loc(pr, a->location_id[0]);
			const Perftools__Profiles__Mapping *m = w ? map(pr, w->mapping_id) : NULL;

			CHECK(m && m->memory_start == 0x1000 && m->memory_limit == 0x2000,
			      "/bin/w range");
			CHECK(m && !strcmp(str(pr, m->build_id), "deadbeef"), "build-id in hex");
		}
	}
	perftools__profiles__profile__free_unpacked(pr, NULL);
	pprof__delete(p);
}

/* Strings that are not UTF-8 are made so; a stack without frames is a sample too. */
static void test_strings(void)
{
	static const struct pprof_type t[] = { { "samples", "count" } };
	struct frame f = { .addr = 0x10,
			   .sym = "f\xff"
				  "n",
			   .dso = "/x" };
	struct pprof_label lb = { .key = "comm", .str = "bad\xc3" };
	int64_t one = 1;
	struct pprof *p = pprof__new(t, 1, 0);
	Profile *pr;

	CHECK(p, "pprof__new");
	if (!p)
		return;
	CHECK_INT(pprof__add(p, &f, NULL, 1, &lb, 1, &one), 0);
	CHECK_INT(pprof__add(p, NULL, NULL, 0, &lb, 1, &one), 0);
	pr = unpack(p);
	CHECK(pr, "unpack");
	if (pr) {
		for (size_t i = 0; i < pr->n_string_table; i++)
			CHECK(utf8__valid(pr->string_table[i], strlen(pr->string_table[i])),
			      "string %zu is UTF-8", i);
		CHECK_INT(pr->n_sample, 2);
		if (pr->n_sample == 2) {
			CHECK_STR(func_name(pr, loc(pr, pr->sample[0]->location_id[0])),
				  "f\xef\xbf\xbdn");
			CHECK_STR(str(pr, pr->sample[0]->label[0]->str), "bad\xef\xbf\xbd");
			CHECK_INT(pr->sample[1]->n_location_id, 0);
		}
		/* no period: none written */
		CHECK(!pr->period_type, "no period type");
		CHECK_STR(str(pr, pr->default_sample_type), "samples");
		perftools__profiles__profile__free_unpacked(pr, NULL);
	}
	pprof__delete(p);
	CHECK(!pprof__new(t, 0, 0) && errno == EINVAL, "no sample types");
	CHECK(!pprof__new(t, 1, 1) && errno == EINVAL, "main type out of range");
}

/*
 * The first mapping is the program (tools show it as the profile's file):
 * the program file with the most weight, whatever came first.
 */
static void test_main_mapping(void)
{
	static const struct pprof_type t[] = { { "samples", "count" } };
	struct frame a[] = {
		{ .addr = 0xffffffff81000000ULL,
		  .sym = "k",
		  .dso = "[kernel.kallsyms]",
		  .kernel = true },
		{ .addr = 0x7f0000000100ULL, .sym = "libfn", .dso = "/lib/libc.so.6" },
		{ .addr = 0x500100, .sym = "main", .dso = "/usr/bin/prog" },
	};
	struct frame b = { .addr = 0x600100, .sym = "main", .dso = "/usr/bin/other" };
	struct frame_map ma[] = { { 0 },
				  { .start = 0x7f0000000000ULL, .end = 0x7f0000100000ULL },
				  { .start = 0x500000, .end = 0x501000 } };
	int64_t one = 1, five = 5;
	struct pprof *p = pprof__new(t, 1, 0);
	Profile *pr;

	CHECK(p, "pprof__new");
	if (!p)
		return;
	CHECK_INT(pprof__add(p, &b, NULL, 1, NULL, 0, &one), 0);
	CHECK_INT(pprof__add(p, a, ma, 3, NULL, 0, &five), 0);
	pr = unpack(p);
	CHECK(pr, "unpack");
	if (pr) {
		check_ids(pr);
		CHECK_INT(pr->n_mapping, 4);
		if (pr->n_mapping == 4) {
			CHECK_STR(str(pr, pr->mapping[0]->filename), "/usr/bin/prog");
			CHECK_STR(str(pr, pr->mapping[1]->filename), "/usr/bin/other");
			CHECK_STR(str(pr, pr->mapping[2]->filename), "[kernel.kallsyms]");
			CHECK_STR(str(pr, pr->mapping[3]->filename), "/lib/libc.so.6");
			/* a range of the addresses seen: nothing to symbolize through */
			CHECK(pr->mapping[1]->has_functions, "/usr/bin/other: functions");
		}
		/* the locations follow their mappings' new ids */
		for (size_t i = 0; i < pr->n_location; i++) {
			const Perftools__Profiles__Location *l = pr->location[i];
			const Perftools__Profiles__Mapping *m = map(pr, l->mapping_id);
			const char *f = m ? str(pr, m->filename) : "";

			if (l->address == 0x500100)
				CHECK_STR(f, "/usr/bin/prog");
			else if (l->address == 0x600100)
				CHECK_STR(f, "/usr/bin/other");
			else if (l->address == 0x7f0000000100ULL)
				CHECK_STR(f, "/lib/libc.so.6");
			else
				CHECK_STR(f, "[kernel.kallsyms]");
		}
		perftools__profiles__profile__free_unpacked(pr, NULL);
	}
	pprof__delete(p);
}

/* A source lookup that knows the addresses of one fake file. */
static int fake_src(void *arg, const struct frame_map *fm, struct pprof_src *out)
{
	(*(int *)arg)++;
	if (fm->dso != (struct dso *)&fake_src || fm->vaddr >= 0x2000)
		return -ENOENT;
	*out = (struct pprof_src){ .file = "/src/w.c", .start_line = 10, .line = fm->vaddr & 0xff };
	return 0;
}

/* Source files and lines: looked up once per location, when the profile is encoded. */
static void test_src(void)
{
	static const struct pprof_type t[] = { { "samples", "count" } };
	struct dso *fake = (struct dso *)&fake_src;
	struct frame fr[] = {
		{ .addr = 0x5010, .sym = "f", .dso = "/w" },	 /* a line of f */
		{ .addr = 0x5020, .sym = "f", .dso = "/w" },	 /* another line of f */
		{ .addr = 0x5030, .sym = "g", .dso = "/w" },	 /* no source known */
		{ .addr = 0x5040, .sym = "h", .dso = "/other" }, /* no file for lookups */
	};
	struct frame_map fm[] = {
		{ 0x5000, 0x6000, 0, NULL, 0, fake, 0x1010 },
		{ 0x5000, 0x6000, 0, NULL, 0, fake, 0x1020 },
		{ 0x5000, 0x6000, 0, NULL, 0, fake, 0x3030 },
		{ 0x5000, 0x6000, 0, NULL, 0, NULL, 0 },
	};
	int64_t one = 1;
	int calls = 0;
	struct pprof *p = pprof__new(t, 1, 0);
	Profile *pr;

	CHECK(p, "pprof__new");
	if (!p)
		return;
	pprof__set_src(p, fake_src, &calls);
	CHECK_INT(pprof__add(p, fr, fm, 4, NULL, 0, &one), 0);
	CHECK_INT(pprof__add(p, fr, fm, 4, NULL, 0, &one), 0);
	CHECK_INT(calls, 0); /* nothing looked up while samples come */
	pr = unpack(p);
	CHECK_INT(calls, 3); /* once per location with a file */
	CHECK(pr, "unpack");
	if (pr) {
		const Perftools__Profiles__Location *l0 = loc(pr, 1), *l1 = loc(pr, 2),
						    *l2 = loc(pr, 3);

		check_ids(pr);
		CHECK(l0 && l1 && l2 && l0->n_line == 1 && l1->n_line == 1 && l2->n_line == 1,
		      "one line each");
		if (l0 && l1 && l2 && l0->n_line && l1->n_line && l2->n_line) {
			const Perftools__Profiles__Function *f = NULL, *g = NULL;

			CHECK_INT(l0->line[0]->line, 0x10);
			CHECK_INT(l1->line[0]->line, 0x20);
			CHECK_INT(l2->line[0]->line, 0);
			/* both lines of f: one function, with its file */
			CHECK_INT(l0->line[0]->function_id, l1->line[0]->function_id);
			for (size_t i = 0; i < pr->n_function; i++) {
				if (pr->function[i]->id == l0->line[0]->function_id)
					f = pr->function[i];
				if (pr->function[i]->id == l2->line[0]->function_id)
					g = pr->function[i];
			}
			CHECK(f && !strcmp(str(pr, f->filename), "/src/w.c") &&
				      f->start_line == 10 && !strcmp(str(pr, f->name), "f"),
			      "f: file and first line");
			CHECK(g && g->filename == 0 && !strcmp(str(pr, g->name), "g"),
			      "g: no file");
		}
		CHECK(pr->n_mapping >= 1 && pr->mapping[0]->has_filenames &&
			      pr->mapping[0]->has_line_numbers,
		      "/w: has file names and lines");
		perftools__profiles__profile__free_unpacked(pr, NULL);
	}
	pr = unpack(p);
	CHECK_INT(calls, 3); /* not again */
	if (pr)
		perftools__profiles__profile__free_unpacked(pr, NULL);
	pprof__delete(p);
}

/* The gzipped file: gunzip, unpack, the same message. */
static void test_write(void)
{
	static const struct pprof_type t[] = { { "samples", "count" } };
	struct frame f[200];
	struct pprof *p = pprof__new(t, 1, 0);
	char *buf = NULL;
	size_t len = 0, cap = 1 << 22;
	uint8_t *raw = malloc(cap);
	FILE *fp = open_memstream(&buf, &len);
	z_stream z = { 0 };
	Profile *pr;
	int ret, errs = 0;

	CHECK(p && raw && fp, "setup");
	if (!p || !raw || !fp)
		goto out;
	for (int i = 0; i < 200; i++) {
		static char names[200][16];

		snprintf(names[i], sizeof(names[i]), "fn%d", i);
		f[i] = (struct frame){ .addr = 0x400000 + 16 * i, .sym = names[i], .dso = "/w" };
	}
	for (int i = 0; i < 5000; i++) {
		int64_t v = i;

		errs += pprof__add(p, f + i % 100, NULL, 100, NULL, 0, &v) != 0;
	}
	CHECK_INT(errs, 0);
	CHECK_INT(pprof__write(p, fp), 0);
	fclose(fp);
	fp = NULL;
	CHECK(len > 18 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b,
	      "gzip magic");
	inflateInit2(&z, 15 + 16);
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)len;
	z.next_out = raw;
	z.avail_out = (uInt)cap;
	ret = inflate(&z, Z_FINISH);
	CHECK_INT(ret, Z_STREAM_END);
	pr = perftools__profiles__profile__unpack(NULL, z.total_out, raw);
	inflateEnd(&z);
	CHECK(pr, "unpack the gunzipped file");
	if (pr) {
		int64_t sum = 0;

		CHECK_INT(pr->n_sample, 100);
		CHECK_INT(pr->n_location, 199);
		for (size_t i = 0; i < pr->n_sample; i++)
			sum += pr->sample[i]->value[0];
		CHECK_INT(sum, 4999LL * 5000 / 2);
		perftools__profiles__profile__free_unpacked(pr, NULL);
	}
out:
	if (fp)
		fclose(fp);
	free(buf);
	free(raw);
	pprof__delete(p);
}

int main(void)
{
	test_tables();
	test_strings();
	test_main_mapping();
	test_src();
	test_write();
	return ut_done("pprof");
}
