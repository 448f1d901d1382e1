// SPDX-License-Identifier: GPL-2.0
/* XML character data from arbitrary bytes (util/xml.h). */
#include <stdint.h>
#include <string.h>

#include "util/utf8.h"
#include "util/xml.h"

size_t xml__char_len(const unsigned char *s, size_t n)
{
	size_t len;

	if (s[0] < 0x20)
		return s[0] == '\t' || s[0] == '\n' || s[0] == '\r' ? 1 : 0;
	len = utf8__seq_len(s, n);
	/* U+FFFE and U+FFFF: EF BF BE, EF BF BF (surrogates are not UTF-8) */
	if (len == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;
	return len;
}

size_t xml__nr_chars(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; n++) {
		size_t c = xml__char_len((const unsigned char *)s + i, len - i);

		i += c ? c : 1;
	}
	return n;
}

void xml__put(FILE *fp, const char *s, size_t len, size_t max)
{
	for (size_t i = 0; i < len && max; max--) {
		size_t c = xml__char_len((const unsigned char *)s + i, len - i);

		if (!c) {
			fputc('?', fp);
			i++;
			continue;
		}
		switch (s[i]) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&apos;", fp);
			break;
		default:
			fwrite(s + i, 1, c, fp);
		}
		i += c;
	}
}

void xml__puts(FILE *fp, const char *s)
{
	xml__put(fp, s, strlen(s), SIZE_MAX);
}
