// SPDX-License-Identifier: GPL-2.0
/* keeptop: the heaviest items kept, the others counted, weighed and dropped. */
#include <stdlib.h>

#include "util/keeptop.h"
#include "ut.h"

static int dropped;

static uint64_t weight(const void *p)
{
	return *(const uint64_t *)p;
}

static void drop(void *p)
{
	dropped++;
	free(p);
}

static uint64_t *item(uint64_t w)
{
	uint64_t *p = malloc(sizeof(*p));

	*p = w;
	return p;
}

int main(void)
{
	static const uint64_t ws[] = { 5, 1, 9, 3, 7, 2 };
	struct keeptop g = { 0 };
	uint64_t kept = 0;

	for (unsigned i = 0; i < sizeof(ws) / sizeof(ws[0]); i++)
		keeptop__add(&g, 3, item(ws[i]), weight, drop);
	CHECK_INT(g.n, 3);
	for (unsigned i = 0; i < g.n; i++)
		kept += weight(g.v[i]);
	CHECK_INT(kept, 9 + 7 + 5);
	CHECK_INT(g.more, 3);
	CHECK_INT(g.more_w, 1 + 3 + 2);
	CHECK_INT(dropped, 3);
	/* as heavy as the lightest kept: summed, not kept */
	keeptop__add(&g, 3, item(5), weight, drop);
	CHECK_INT(g.more_w, 1 + 3 + 2 + 5);
	keeptop__sum(&g, item(4), 4, drop);
	CHECK_INT(g.more, 5);
	CHECK_INT(g.more_w, 1 + 3 + 2 + 5 + 4);
	keeptop__free(&g, drop);
	CHECK_INT(dropped, 8);
	CHECK(!g.v && !g.n && !g.more, "free forgets all");
	return ut_done("test_keeptop");
}
