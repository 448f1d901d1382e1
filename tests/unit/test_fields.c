// SPDX-License-Identifier: GPL-2.0
/*
 * Field handles: looked up once in a parsed format, read from records of
 * every integer size and sign, fixed and __data_loc / __rel_loc strings,
 * records cut short, and fields the event does not have.
 */
#include <event-parse.h>
#include <stdint.h>
#include <string.h>

#include "engine/session.h"
#include "fmt_common.h"
#include "ut.h"

static const char format[] = "name: ft\nID: 61000\nformat:\n" FMT_COMMON_FIELDS
			     "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
			     "\tfield:unsigned int b;\toffset:12;\tsize:4;\tsigned:0;\n"
			     "\tfield:long c;\toffset:16;\tsize:8;\tsigned:1;\n"
			     "\tfield:s8 e;\toffset:32;\tsize:1;\tsigned:1;\n"
			     "\tfield:u16 f;\toffset:34;\tsize:2;\tsigned:0;\n"
			     "\tfield:char name[16];\toffset:36;\tsize:16;\tsigned:0;\n"
			     "\tfield:__data_loc char[] str;\toffset:52;\tsize:4;\tsigned:0;\n"
			     "\tfield:__rel_loc char[] rel;\toffset:56;\tsize:4;\tsigned:0;\n"
			     "\nprint fmt: \"%d\", REC->a\n";

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct evsel ev = { .name = "ft" };
	struct field fa, fb, fc, fe, ff, fname, fstr, frel, fpid, fnone;
	unsigned char raw[80] = { 0 };
	struct sample smp = { .raw = raw, .raw_size = sizeof(raw) };
	int32_t a = -5, pid = 4242;
	uint32_t b = 0xfffffff0u, loc;
	int64_t c = -1234567890123LL;
	int8_t e = -3;
	uint16_t f = 65000;
	u64 v = 0;
	const char *p;
	int len = -1;

	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	CHECK(tep_parse_event(tep, format, strlen(format), "ftest") == TEP_ERRNO__SUCCESS, "parse");
	ev.tp = tep_find_event_by_name(tep, "ftest", "ft");
	if (!ev.tp)
		return ut_done("test_fields");

	memcpy(raw + 4, &pid, 4);
	memcpy(raw + 8, &a, 4);
	memcpy(raw + 12, &b, 4);
	memcpy(raw + 16, &c, 8);
	memcpy(raw + 32, &e, 1);
	memcpy(raw + 34, &f, 2);
	memcpy(raw + 36, "kworker/0:1", 12);
	/* __data_loc: offset 60, length 6 ("hello\0") */
	loc = 60 | 6u << 16;
	memcpy(raw + 52, &loc, 4);
	memcpy(raw + 60, "hello", 6);
	/* __rel_loc: relative to the end of the field (56 + 4): offset 8 -> 68 */
	loc = 8 | 4u << 16;
	memcpy(raw + 56, &loc, 4);
	memcpy(raw + 68, "rel", 4);

	CHECK_INT(evsel__field(&ev, "a", &fa), 0);
	CHECK_INT(evsel__field(&ev, "b", &fb), 0);
	CHECK_INT(evsel__field(&ev, "c", &fc), 0);
	CHECK_INT(evsel__field(&ev, "e", &fe), 0);
	CHECK_INT(evsel__field(&ev, "f", &ff), 0);
	CHECK_INT(evsel__field(&ev, "name", &fname), 0);
	CHECK_INT(evsel__field(&ev, "str", &fstr), 0);
	CHECK_INT(evsel__field(&ev, "rel", &frel), 0);
	CHECK_INT(evsel__field(&ev, "common_pid", &fpid), 0);
	CHECK(evsel__field(&ev, "nosuch", &fnone) < 0 && !fnone.valid, "absent field");

	CHECK(field__u64(&fa, &smp, &v) == 0 && (int64_t)v == -5, "signed int %lld", (long long)v);
	CHECK(field__u64(&fb, &smp, &v) == 0 && v == 0xfffffff0u, "unsigned int %llx",
	      (unsigned long long)v);
	CHECK(field__u64(&fc, &smp, &v) == 0 && (int64_t)v == c, "long");
	CHECK(field__u64(&fe, &smp, &v) == 0 && (int64_t)v == -3, "s8");
	CHECK(field__u64(&ff, &smp, &v) == 0 && v == 65000, "u16");
	CHECK(field__u64(&fpid, &smp, &v) == 0 && v == 4242, "common_pid");
	CHECK(field__u64(&fnone, &smp, &v) < 0, "absent reads fail");
	CHECK(field__u64(&fstr, &smp, &v) < 0, "a __data_loc is not a number");

	p = field__str(&fname, &smp, &len);
	CHECK(p && len == 11 && !memcmp(p, "kworker/0:1", 11), "fixed string len %d", len);
	p = field__str(&fstr, &smp, &len);
	CHECK(p && len == 5 && !memcmp(p, "hello", 5), "__data_loc len %d", len);
	p = field__str(&frel, &smp, &len);
	CHECK(p && len == 3 && !memcmp(p, "rel", 3), "__rel_loc len %d", len);

	/* a record cut short: fields past its end read as absent */
	smp.raw_size = 20;
	CHECK(field__u64(&fc, &smp, &v) < 0, "c beyond a 20-byte record");
	CHECK(field__u64(&fb, &smp, &v) == 0, "b within it");
	CHECK(field__str(&fname, &smp, &len) == NULL, "name beyond it");
	/* a __data_loc pointing past the record */
	smp.raw_size = 64;
	CHECK(field__str(&fstr, &smp, &len) == NULL, "str data beyond a 64-byte record");
	smp.raw = NULL;
	CHECK(field__u64(&fa, &smp, &v) < 0, "no raw data");

	tep_free(tep);
	return ut_done("test_fields");
}
