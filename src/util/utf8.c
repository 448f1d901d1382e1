// SPDX-License-Identifier: GPL-2.0
/* UTF-8 checks (util/utf8.h). */
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

size_t utf8__seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	/* the second byte's range rules out overlong forms, surrogates, > U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

bool utf8__valid(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t n = utf8__seq_len(u + i, len - i);

		if (!n)
			return false;
		i += n;
	}
	return true;
}

char *utf8__sanitize(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	char *out = malloc(3 * len + 1), *o = out; /* a bad byte becomes 3 */

	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t n = utf8__seq_len(u + i, len - i);

		if (n) {
			memcpy(o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	*o = 0;
	return out;
}
