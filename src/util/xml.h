/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XML text from arbitrary bytes (the flame graph's frame names and titles,
 * the heat map's title): what XML 1.0 can hold is written as it is, with
 * its five metacharacters as entities; every other byte becomes '?'.
 */
#ifndef PP_XML_H
#define PP_XML_H

#include <stddef.h>
#include <stdio.h>

/*
 * The length of the character at @s (@n bytes left, n > 0) when XML text
 * can hold it: valid UTF-8 (util/utf8.h) that is not a control character
 * other than tab, newline and carriage return, nor U+FFFE or U+FFFF.  0
 * otherwise.
 */
size_t xml__char_len(const unsigned char *s, size_t n);

/*
 * The characters of @s (@len bytes) as xml__put writes them: each byte it
 * replaces by '?' counts as one.
 */
size_t xml__nr_chars(const char *s, size_t len);

/*
 * Write at most @max characters (as xml__nr_chars counts them) of @s
 * (@len bytes) to @fp as XML character data, also fit for an attribute
 * value: & < > " ' as entities, any byte XML cannot hold as '?'.
 */
void xml__put(FILE *fp, const char *s, size_t len, size_t max);

/* All of the string @s, as xml__put writes it. */
void xml__puts(FILE *fp, const char *s);

#endif
