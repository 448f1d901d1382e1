// SPDX-License-Identifier: GPL-2.0
/*
 * --json's fields of a tracepoint record (evsel__json_fields), decoded by
 * type from a parsed format: signed and unsigned integers, bool, pointers
 * and what the print format shows in hex (%lx, %p, an array's element),
 * fixed and __data_loc strings with bytes to escape, arrays of numbers
 * fixed and dynamic, an unknown type as bytes, and a record cut short.
 */
#include <event-parse.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/evfields.h"
#include "engine/session.h"
#include "fmt_common.h"
#include "util/json.h"
#include "ut.h"

static const char format[] =
	"name: fj\nID: 61001\nformat:\n" FMT_COMMON_FIELDS
	"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int b;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long addr;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:void * ptr;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:bool flag;\toffset:32;\tsize:1;\tsigned:0;\n"
	"\tfield:char name[16];\toffset:33;\tsize:16;\tsigned:0;\n"
	"\tfield:u8 mac[6];\toffset:49;\tsize:6;\tsigned:0;\n"
	"\tfield:unsigned long args[2];\toffset:56;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc char[] str;\toffset:72;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u64[] vals;\toffset:76;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc cpumask_t mask;\toffset:80;\tsize:4;\tsigned:0;\n"
	"\tfield:s16 neg;\toffset:84;\tsize:2;\tsigned:1;\n"
	"\tfield:u64 big;\toffset:88;\tsize:8;\tsigned:0;\n"
	"\nprint fmt: \"a=%d b=%u addr=%lx ptr=%p args=%lx,%lx %s\", REC->a, REC->b, REC->addr, "
	"REC->ptr, REC->args[0], REC->args[1], __get_str(str)\n";

static char *buf;
static size_t len;

static const char *fields(struct evsel *ev, const struct sample *smp)
{
	FILE *fp;
	struct json j;

	free(buf);
	buf = NULL;
	fp = open_memstream(&buf, &len);
	json__begin(&j, fp, "event");
	evsel__json_fields(ev, smp, &j, "fields");
	json__end(&j);
	fclose(fp);
	return buf;
}

static void put(unsigned char *raw, int off, const void *v, size_t n)
{
	memcpy(raw + off, v, n);
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct evsel ev = { .name = "fj" };
	unsigned char raw[160] = { 0 };
	struct sample smp = { .raw = raw, .raw_size = sizeof(raw) };
	int32_t a = -7;
	uint32_t b = 4000000000u, loc;
	uint64_t addr = 0xffffffff81234567ULL, ptr = 0xffff888100001000ULL, big = UINT64_MAX;
	uint64_t args[2] = { 3, 0x7ffd0000 }, vals[2] = { 1, UINT64_MAX };
	int16_t neg = -300;
	unsigned char mac[6] = { 0, 0x16, 0x3e, 0xff, 1, 2 }, mask[8] = { 3 };
	/* a quote, a backslash, a newline, an ESC, é, a byte that is not UTF-8 */
	const char str[] = "q\"b\\n\ne\x1b\xc3\xa9\xff";

	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	CHECK(tep_parse_event(tep, format, strlen(format), "fjtest") == TEP_ERRNO__SUCCESS,
	      "parse");
	ev.tp = tep_find_event_by_name(tep, "fjtest", "fj");
	if (!ev.tp)
		return ut_done("test_fields_json");

	put(raw, 8, &a, 4);
	put(raw, 12, &b, 4);
	put(raw, 16, &addr, 8);
	put(raw, 24, &ptr, 8);
	raw[32] = 1;
	put(raw, 33, "kworker/0:1", 12);
	put(raw, 49, mac, 6);
	put(raw, 56, args, 16);
	loc = 96 | (uint32_t)sizeof(str) << 16; /* with its NUL */
	put(raw, 72, &loc, 4);
	put(raw, 96, str, sizeof(str));
	loc = 112 | 16u << 16;
	put(raw, 76, &loc, 4);
	put(raw, 112, vals, 16);
	loc = 128 | 8u << 16;
	put(raw, 80, &loc, 4);
	put(raw, 128, mask, 8);
	put(raw, 84, &neg, 2);
	put(raw, 88, &big, 8);

	CHECK_STR(fields(&ev, &smp),
		  "{\"type\":\"event\",\"fields\":{\"a\":-7,\"b\":4000000000,"
		  "\"addr\":\"0xffffffff81234567\",\"ptr\":\"0xffff888100001000\",\"flag\":true,"
		  "\"name\":\"kworker/0:1\",\"mac\":[0,22,62,255,1,2],\"args\":[\"0x3\","
		  "\"0x7ffd0000\"],\"str\":\"q\\\"b\\\\n\\ne\\u001b\xc3\xa9\xef\xbf\xbd\","
		  "\"vals\":[1,18446744073709551615],\"mask\":\"0300000000000000\",\"neg\":-300,"
		  "\"big\":18446744073709551615}}\n");

	/* a fixed string that fills its array (no NUL), a dynamic one pointing outside */
	memset(raw + 33, 'x', 16);
	loc = 150 | 40u << 16;
	put(raw, 72, &loc, 4);
	CHECK(strstr(fields(&ev, &smp), "\"name\":\"xxxxxxxxxxxxxxxx\",") != NULL, "%s", buf);
	CHECK(strstr(buf, "\"str\":null,") != NULL, "%s", buf);

	/* cut short after b: the rest is null */
	smp.raw_size = 16;
	CHECK(strstr(fields(&ev, &smp), "\"b\":4000000000,\"addr\":null,\"ptr\":null,") != NULL,
	      "%s", buf);
	CHECK(strstr(buf, "\"big\":null}}") != NULL, "%s", buf);

	/* no raw data: an empty object */
	smp.raw = NULL;
	CHECK_STR(fields(&ev, &smp), "{\"type\":\"event\",\"fields\":{}}\n");

	free(buf);
	tep_free(tep);
	evfields__delete(ev.evfields);
	return ut_done("test_fields_json");
}
