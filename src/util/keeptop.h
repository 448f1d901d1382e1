/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The @max heaviest of a stream of items, by a weight: each added item is
 * kept while fewer than @max are; then it takes the place of the lightest
 * kept, if it is heavier.  What is not kept (the item, or the one it
 * replaced) is counted and weighed into "more" and goes (@drop).  Kept
 * items are owned here until keeptop__free.  Their weights may only grow
 * after they are kept (none of those summed could then have been heavier).
 */
#ifndef PP_KEEPTOP_H
#define PP_KEEPTOP_H

#include <stdint.h>

struct keeptop {
	void **v; /* the kept items, in no order */
	unsigned n, alloc;
	unsigned long long more; /* how many were summed, not kept */
	uint64_t more_w;	 /* and their weight */
};

/* Keep @item of weight @w(item) among the @max heaviest of @g, or sum it. */
void keeptop__add(struct keeptop *g, unsigned long long max, void *item,
		  uint64_t (*w)(const void *), void (*drop)(void *));
/* What is not kept: counted, weighed, dropped (an item that cannot be kept). */
void keeptop__sum(struct keeptop *g, void *item, uint64_t w, void (*drop)(void *));
/* Drop the kept items and forget the sums. */
void keeptop__free(struct keeptop *g, void (*drop)(void *));

#endif
