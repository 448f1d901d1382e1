// SPDX-License-Identifier: GPL-2.0
/* The heaviest items of a stream, the others summed: see keeptop.h. */
#include <stdlib.h>
#include <string.h>

#include "util/keeptop.h"

void keeptop__sum(struct keeptop *g, void *item, uint64_t w, void (*drop)(void *))
{
	g->more++;
	g->more_w += w;
	drop(item);
}

void keeptop__add(struct keeptop *g, unsigned long long max, void *item,
		  uint64_t (*w)(const void *), void (*drop)(void *))
{
	unsigned min = 0;
	void *out = item;

	if (g->n < max) {
		if (g->n == g->alloc) {
			unsigned alloc = g->alloc ? 2 * g->alloc : 8;
			void **v = realloc(g->v, alloc * sizeof(*v));

			if (!v) { /* summed, not named */
				keeptop__sum(g, item, w(item), drop);
				return;
			}
			g->v = v;
			g->alloc = alloc;
		}
		g->v[g->n++] = item;
		return;
	}
	for (unsigned i = 1; i < g->n; i++)
		if (w(g->v[i]) < w(g->v[min]))
			min = i;
	if (g->n && w(item) > w(g->v[min])) {
		out = g->v[min];
		g->v[min] = item;
	}
	keeptop__sum(g, out, w(out), drop);
}

void keeptop__free(struct keeptop *g, void (*drop)(void *))
{
	for (unsigned i = 0; i < g->n; i++)
		drop(g->v[i]);
	free(g->v);
	memset(g, 0, sizeof(*g));
}
