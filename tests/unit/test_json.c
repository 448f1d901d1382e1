// SPDX-License-Identifier: GPL-2.0
/* util/json: escaping (UTF-8 kept, bad bytes U+FFFD, controls), commas, nesting. */
#include <math.h>
#include <stdlib.h>

#include "util/json.h"
#include "ut.h"

static char *buf;
static size_t len;

static FILE *mem(void)
{
	free(buf);
	buf = NULL;
	return open_memstream(&buf, &len);
}

/* @s as the member "v" of a line: what is between its quotes */
static const char *member_of(const char *s, size_t n)
{
	static char v[256];
	struct json j;
	FILE *fp = mem();
	size_t len;

	json__begin(&j, fp, "s");
	json__strn(&j, "v", s, n);
	json__end(&j);
	fclose(fp);
	len = strlen(buf);
	/* {"type":"s","v":"..."}\n */
	if (len < 20 || len - 20 >= sizeof(v) || strncmp(buf, "{\"type\":\"s\",\"v\":\"", 17))
		return "";
	memcpy(v, buf + 17, len - 20);
	v[len - 20] = '\0';
	return v;
}

static const char *esc(const char *s, size_t n)
{
	FILE *fp = mem();

	json__escape(fp, s, n);
	fclose(fp);
	return buf;
}

int main(void)
{
	struct json j;
	FILE *fp;

	CHECK_STR(esc("plain", 5), "plain");
	CHECK_STR(esc("a\"b\\c", 5), "a\\\"b\\\\c");
	CHECK_STR(esc("l1\nl2\tx\r", 8), "l1\\nl2\\tx\\r");
	CHECK_STR(esc("\x1b[0m\x01\x7f", 6), "\\u001b[0m\\u0001\\u007f");
	CHECK_STR(esc("a\0b", 3), "a\\u0000b");
	/* valid UTF-8 passes: é (2 bytes), € (3), 😀 (4) */
	CHECK_STR(esc("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9),
		  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	/* a lone continuation byte, a truncated sequence, an overlong '/', a surrogate, > U+10FFFF */
	CHECK_STR(esc("\x80", 1), "\xef\xbf\xbd");
	CHECK_STR(esc("x\xe2\x82", 3), "x\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(esc("\xc0\xaf", 2), "\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(esc("\xed\xa0\x80", 3), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(esc("\xf4\x90\x80\x80", 4), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(esc("\xff"
		      "ab",
		      3),
		  "\xef\xbf\xbd"
		  "ab");
	/* a comm of 15 bytes cut inside a character */
	CHECK_STR(esc("worker-\xe2\x82\xac\xe2\x82\xac\xe2\x82", 15),
		  "worker-\xe2\x82\xac\xe2\x82\xac\xef\xbf\xbd\xef\xbf\xbd");

	/* a byte to escape at every place of a 24-byte string (read 8 bytes at a time) */
	{
		static const struct {
			const char *in, *out;
		} sp[] = {
			{ "\"", "\\\"" },
			{ "\\", "\\\\" },
			{ "\n", "\\n" },
			{ "\x01", "\\u0001" },
			{ "\x1f", "\\u001f" },
			{ "\x7f", "\\u007f" },
			{ "\x80", "\xef\xbf\xbd" },
			{ "\xff", "\xef\xbf\xbd" },
			{ "\xc3\xa9", "\xc3\xa9" },
			{ " ", " " },
			{ "~", "~" },
			{ "\xe2\x82\xac", "\xe2\x82\xac" },
		};
		int bad = 0;

		for (size_t k = 0; k < sizeof(sp) / sizeof(sp[0]); k++)
			for (int at = 0; at < 24; at++) {
				char in[40], want[64];
				size_t n = strlen(sp[k].in);

				/* 'x' * at, the bytes, 'x' * (24 - at) */
				memset(in, 'x', sizeof(in));
				memcpy(in + at, sp[k].in, n);
				snprintf(want, sizeof(want), "%.*s%s%.*s", at, in, sp[k].out,
					 24 - at, in + at + n);
				bad += strcmp(esc(in, 24 + n), want) != 0;
				/* as members: the bytes alone, the whole (short strings' own path) */
				bad += strcmp(member_of(in + at, n), sp[k].out) != 0;
				bad += strcmp(member_of(in, 24 + n), want) != 0;
			}
		CHECK_INT(bad, 0);
	}

	fp = mem();
	json__begin(&j, fp, "row");
	json__str(&j, "comm", "a\"b");
	json__u64(&j, "total_ns", 18446744073709551615ULL);
	json__i64(&j, "delta", -5);
	json__f64(&j, "ratio", 0.25);
	json__f64(&j, "nan", NAN);
	json__f64(&j, "inf", INFINITY);
	json__bool(&j, "ok", true);
	json__null(&j, "none");
	json__str(&j, "nul", NULL);
	json__hex(&j, "addr", 0xffffffff81000000ULL);
	json__arr(&j, "stack");
	json__str(&j, NULL, "main");
	json__str(&j, NULL, "f");
	json__obj(&j, NULL);
	json__u64(&j, "n", 1);
	json__close(&j);
	json__close(&j);
	json__obj(&j, "by_cpu");
	json__u64(&j, "0", 3);
	json__arr(&j, "empty");
	json__end(&j);
	json__begin(&j, fp, "summary");
	json__end(&j);
	fclose(fp);
	CHECK_STR(buf, "{\"type\":\"row\",\"comm\":\"a\\\"b\",\"total_ns\":18446744073709551615,"
		       "\"delta\":-5,\"ratio\":0.25,\"nan\":null,\"inf\":null,\"ok\":true,"
		       "\"none\":null,\"nul\":null,\"addr\":\"0xffffffff81000000\","
		       "\"stack\":[\"main\",\"f\",{\"n\":1}],\"by_cpu\":{\"0\":3,\"empty\":[]}}\n"
		       "{\"type\":\"summary\"}\n");

	/* numbers are formatted by hand: the extremes and zero */
	fp = mem();
	json__begin(&j, fp, "n");
	json__u64(&j, "u0", 0);
	json__i64(&j, "i0", 0);
	json__i64(&j, "min", INT64_MIN);
	json__i64(&j, "max", INT64_MAX);
	json__hex(&j, "h0", 0);
	json__hex(&j, "hmax", UINT64_MAX);
	json__u64(&j, "u", 1234567890);
	json__end(&j);
	fclose(fp);
	CHECK_STR(buf, "{\"type\":\"n\",\"u0\":0,\"i0\":0,\"min\":-9223372036854775808,"
		       "\"max\":9223372036854775807,\"h0\":\"0x0\",\"hmax\":\"0xffffffffffffffff\","
		       "\"u\":1234567890}\n");

	/* decimals as printf's, around every power of ten and at random */
	{
		uint64_t p10 = 1, x = 88172645463325252ULL;
		int bad = 0;

		for (int i = 0; i < 20 + 1000; i++) {
			uint64_t v = i < 20 ? p10 : x;
			char w[3][64];

			for (int d = -1; d <= 1; d++) {
				fp = mem();
				json__begin(&j, fp, "n");
				json__u64(&j, "v", v + d);
				json__end(&j);
				fclose(fp);
				snprintf(w[d + 1], sizeof(w[0]), "{\"type\":\"n\",\"v\":%llu}\n",
					 (unsigned long long)(v + d));
				bad += strcmp(buf, w[d + 1]) != 0;
			}
			if (i < 20)
				p10 *= 10;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift */
			if (i & 1)
				x >>= i % 60;
		}
		CHECK_INT(bad, 0);
	}

	/* members composed in a buffer, or written in parts when long or escaped */
	{
		char key[71], val[201], w[600];
		const char *want = w;

		memset(key, 'k', 70);
		key[70] = '\0';
		memset(val, 'v', 200);
		val[200] = '\0';
		fp = mem();
		json__begin(&j, fp, "long");
		json__str(&j, key, val);
		json__str(&j, "a\"b", "c\nd");
		json__u64(&j, key, 7);
		json__arr(&j, key);
		json__bool(&j, NULL, false);
		json__end(&j);
		fclose(fp);
		snprintf(w, sizeof(w),
			 "{\"type\":\"long\",\"%s\":\"%s\",\"a\\\"b\":\"c\\nd\",\"%s\":7,"
			 "\"%s\":[false]}\n",
			 key, val, key, key);
		CHECK_STR(buf, want);
	}

	/* a fragment made once (a row's key), written into later lines */
	{
		char *frag;

		CHECK(json__frag_begin(&j) == 0, "frag_begin");
		json__str(&j, "state", "S");
		json__str(&j, "comm", "a\"b");
		json__arr(&j, "path");
		json__str(&j, NULL, "x");
		frag = json__frag_end(&j); /* closes the array */
		CHECK_STR(frag, "\"state\":\"S\",\"comm\":\"a\\\"b\",\"path\":[\"x\"]");
		fp = mem();
		json__begin(&j, fp, "row");
		json__raw(&j, frag);
		json__u64(&j, "count", 2);
		json__end(&j);
		json__begin(&j, fp, "row");
		json__raw(&j, ""); /* nothing, no comma */
		json__u64(&j, "count", 3);
		json__obj(&j, "sub");
		json__raw(&j, frag);
		json__end(&j);
		fclose(fp);
		CHECK_STR(buf, "{\"type\":\"row\",\"state\":\"S\",\"comm\":\"a\\\"b\","
			       "\"path\":[\"x\"],\"count\":2}\n"
			       "{\"type\":\"row\",\"count\":3,\"sub\":{\"state\":\"S\","
			       "\"comm\":\"a\\\"b\",\"path\":[\"x\"]}}\n");
		free(frag);
	}
	free(buf);
	return ut_done("test_json");
}
