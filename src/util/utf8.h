/* SPDX-License-Identifier: GPL-2.0 */
/* UTF-8 checks for output formats that require it (protobuf strings). */
#ifndef PP_UTF8_H
#define PP_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The length of the valid UTF-8 sequence at @s (@n bytes left, n > 0): 1
 * for ASCII, 2..4, or 0 when the bytes there are not UTF-8 (overlong
 * forms, surrogates and code points past U+10FFFF are not).
 */
size_t utf8__seq_len(const unsigned char *s, size_t n);

/* Is the whole of @s (@len bytes) valid UTF-8? */
bool utf8__valid(const char *s, size_t len);

/*
 * @s with every byte that is not part of valid UTF-8 replaced by U+FFFD,
 * as a new string (malloc).  NULL on -ENOMEM.
 */
char *utf8__sanitize(const char *s, size_t len);

#endif
