// SPDX-License-Identifier: GPL-2.0
/*
 * util/xml: the one escaper of the flame graph and the heat map.  What XML
 * text can hold passes as it is (the metacharacters as entities); broken
 * UTF-8, control characters and U+FFFE/U+FFFF become one '?' a byte; the
 * character count and the clipping agree with what is written.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xml.h"
#include "ut.h"

/* xml__put of @len bytes of @s, at most @max characters, as a string (static). */
static const char *put(const char *s, size_t len, size_t max)
{
	static char buf[1024];
	FILE *fp;

	memset(buf, 0, sizeof(buf));
	fp = fmemopen(buf, sizeof(buf), "w");
	if (!fp)
		return "(fmemopen)";
	xml__put(fp, s, len, max);
	fclose(fp);
	return buf;
}

#define ESC(in, want) CHECK_STR(put(in, sizeof(in) - 1, SIZE_MAX), want)

static void test_char_len(void)
{
	static const struct {
		const char *s;
		size_t n;
	} cases[] = {
		{ "a", 1 },
		{ "\t", 1 },
		{ "\n", 1 },
		{ "\r", 1 },
		{ "\x7f", 1 },		   /* DEL is an XML character */
		{ "\x01", 0 },		   /* other C0 controls are not */
		{ "\x1f", 0 },		   /* */
		{ "\xc3\xa9", 2 },	   /* e-acute */
		{ "\xc2\x80", 2 },	   /* U+0080, the lowest 2-byte */
		{ "\xc0\xaf", 0 },	   /* overlong '/' */
		{ "\xc1\xbf", 0 },	   /* overlong */
		{ "\xe2\x82\xac", 3 },	   /* euro sign */
		{ "\xe0\x80\x80", 0 },	   /* overlong NUL */
		{ "\xe0\x9f\xbf", 0 },	   /* overlong U+07FF */
		{ "\xed\x9f\xbf", 3 },	   /* U+D7FF */
		{ "\xed\xa0\x80", 0 },	   /* a surrogate */
		{ "\xed\xbf\xbf", 0 },	   /* a surrogate */
		{ "\xef\xbf\xbd", 3 },	   /* U+FFFD */
		{ "\xef\xbf\xbe", 0 },	   /* U+FFFE: not a character */
		{ "\xef\xbf\xbf", 0 },	   /* U+FFFF */
		{ "\xf0\x9f\x98\x80", 4 }, /* U+1F600 */
		{ "\xf0\x8f\xbf\xbf", 0 }, /* overlong */
		{ "\xf4\x8f\xbf\xbf", 4 }, /* U+10FFFF */
		{ "\xf4\x90\x80\x80", 0 }, /* past U+10FFFF */
		{ "\xf5\x80\x80\x80", 0 }, /* */
		{ "\xf8\x88\x80\x80", 0 }, /* a 5-byte form */
		{ "\xff", 0 },		   /* */
		{ "\x80", 0 },		   /* a continuation byte alone */
		{ "\xe2\x82", 0 },	   /* cut short */
		{ "\xe2\x28\xa1", 0 },	   /* not a continuation */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i].s;

		CHECK_INT(xml__char_len((const unsigned char *)s, strlen(s)), cases[i].n);
	}
	/* the bytes left bound the sequence */
	CHECK_INT(xml__char_len((const unsigned char *)"\xe2\x82\xac", 2), 0);
	CHECK_INT(xml__char_len((const unsigned char *)"\xf0\x9f\x98\x80", 3), 0);
}

static void test_escape(void)
{
	ESC("plain text", "plain text");
	ESC("a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&apos;");
	ESC("&amp;", "&amp;amp;");
	ESC("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	ESC("tab\tnl\ncr\r", "tab\tnl\ncr\r");
	/* one '?' a byte of what XML cannot hold */
	ESC("ctl\x01\x1f.", "ctl??.");
	ESC("bad\xff\xfe.", "bad??.");
	ESC("cut\xe2\x82", "cut??");
	ESC("cut\xe2\x82<", "cut??&lt;");
	ESC("sur\xed\xa0\x80.", "sur???.");
	ESC("non\xef\xbf\xbf.", "non???.");
	ESC("over\xc0\xaf", "over??");
	ESC("big\xf4\x90\x80\x80", "big????");
	/* a NUL inside the length is a control character too */
	CHECK_STR(put("a\0b", 3, SIZE_MAX), "a?b");
	CHECK_STR(put("", 0, SIZE_MAX), "");
}

static void test_count_and_clip(void)
{
	static const char s[] = "\xe2\x82\xac<\xff"
				"ab"; /* 5 characters */

	CHECK_INT(xml__nr_chars(s, sizeof(s) - 1), 5);
	CHECK_INT(xml__nr_chars("", 0), 0);
	CHECK_INT(xml__nr_chars("\xe2\x82", 2), 2);
	CHECK_STR(put(s, sizeof(s) - 1, 0), "");
	CHECK_STR(put(s, sizeof(s) - 1, 1), "\xe2\x82\xac");
	CHECK_STR(put(s, sizeof(s) - 1, 2), "\xe2\x82\xac&lt;");
	CHECK_STR(put(s, sizeof(s) - 1, 3), "\xe2\x82\xac&lt;?");
	CHECK_STR(put(s, sizeof(s) - 1, 5), "\xe2\x82\xac&lt;?ab");
	CHECK_STR(put(s, sizeof(s) - 1, 6), "\xe2\x82\xac&lt;?ab");
}

static void test_puts(void)
{
	static char mem[256];
	const char *buf = mem;
	FILE *fp = fmemopen(mem, sizeof(mem), "w");

	CHECK(fp != NULL, "fmemopen");
	if (!fp)
		return;
	xml__puts(fp, "My <Title> & \xff");
	fclose(fp);
	CHECK_STR(buf, "My &lt;Title&gt; &amp; ?");
}

int main(void)
{
	test_char_len();
	test_escape();
	test_count_and_clip();
	test_puts();
	return ut_done("xml");
}
