/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comma-separated lists as options take them (-C 0-3,5, -p 12,34,
 * --syscall read,write, --detail samecpu,+1ms), one rule for all: items
 * are trimmed of spaces, none may be empty (",a", "a,,b", "a," are
 * refused) and no byte may be a control character.  Errors are one line
 * naming the list and the offset of the culprit:
 *   "bad pid list '1,,2': empty item at offset 2"
 */
#ifndef PP_LIST_H
#define PP_LIST_H

#include <stddef.h>

/*
 * The first control character (a byte below 0x20, or 0x7f) of @s: its
 * offset, or -1 when there is none.
 */
int text__control_char(const char *s);

/*
 * Split @arg into its items: a NULL-terminated array of trimmed strings
 * in one allocation (free() it), the count in *@nr.  @what names the list
 * in errors ("pid", "CPU", "syscall").  0, or -1 with one line in @err
 * (-1 with "out of memory" too).
 */
int list__split(const char *arg, const char *what, char ***items, int *nr, char *err,
		size_t errlen);
/* The same check without keeping the items. */
int list__check(const char *arg, const char *what, char *err, size_t errlen);

#endif
