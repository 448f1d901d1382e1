// SPDX-License-Identifier: GPL-2.0
/*
 * util/hash.h: HASH_FREE_ALL empties a table and frees its entries (the
 * frees are checked by the sanitizer build, make check-asan), through
 * whichever handle links it, and leaves other tables the entries are in
 * alone until their own turn.
 */
#include <stdlib.h>

#include "util/hash.h"
#include "ut.h"

struct ent {
	int key;
	UT_hash_handle hh;
	UT_hash_handle by_neg; /* a second table over the same entries */
	int neg;
};

static void test_free_all(void)
{
	struct ent *tab = NULL, *neg = NULL, *e;
	int n = 0;

	HASH_FREE_ALL(hh, tab); /* an empty table: nothing to do */
	CHECK(tab == NULL, "empty table stays empty");
	for (int i = 0; i < 1000; i++) {
		e = calloc(1, sizeof(*e));
		if (!e)
			break;
		e->key = i;
		e->neg = -i;
		HASH_ADD_INT(tab, key, e);
		HASH_ADD(by_neg, neg, neg, sizeof(int), e);
		n++;
	}
	CHECK_INT(HASH_COUNT(tab), n);
	CHECK_INT(HASH_CNT(by_neg, neg), n);
	/* the second table's handle: the entries leave it, and are freed */
	HASH_CLEAR(hh, tab);
	HASH_FREE_ALL(by_neg, neg);
	CHECK(neg == NULL, "the table is empty after");
	CHECK_INT(HASH_CNT(by_neg, neg), 0);

	/* a table refilled after being emptied works as a new one */
	for (int i = 0; i < 3; i++) {
		e = calloc(1, sizeof(*e));
		if (!e)
			break;
		e->key = i;
		HASH_ADD_INT(tab, key, e);
	}
	HASH_FIND_INT(tab, &(int){ 2 }, e);
	CHECK(e && e->key == 2, "find after refill");
	HASH_FREE_ALL(hh, tab);
	CHECK(tab == NULL, "emptied again");
}

int main(void)
{
	test_free_all();
	return ut_done("hash");
}
