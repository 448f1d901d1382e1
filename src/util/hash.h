/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers over uthash tables. */
#ifndef PP_HASH_H
#define PP_HASH_H

#include <stdlib.h>

#include <uthash.h>

/*
 * Delete every entry of the table @head (linked by its handle @hh) and
 * free() it; @head is NULL after.  For entries that own nothing else:
 * where an entry holds more, free that in a loop of its own.
 */
#define HASH_FREE_ALL(hh, head)                         \
	do {                                            \
		__typeof__(head) hfa_el_, hfa_tmp_;     \
		HASH_ITER(hh, head, hfa_el_, hfa_tmp_)  \
		{                                       \
			HASH_DELETE(hh, head, hfa_el_); \
			free(hfa_el_);                  \
		}                                       \
	} while (0)

#endif
