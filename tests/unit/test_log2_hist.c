// SPDX-License-Identifier: GPL-2.0
/* The power-of-two histogram: slots, counts, bcc-style printing. */
#include <stdlib.h>
#include <string.h>

#include "report/log2_hist.h"
#include "ut.h"

int main(void)
{
	struct log2_hist h = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *fp;

	fp = open_memstream(&out, &len);
	log2_hist__print(&h, "value", fp); /* empty: prints nothing */
	fclose(fp);
	CHECK(len == 0, "empty histogram printed:\n%s", out);
	free(out);

	for (int v = 0; v <= 100; v++)
		log2_hist__add(&h, v);
	log2_hist__add(&h, UINT64_MAX);
	CHECK(h.slot[0] == 2, "0 and 1 in slot 0: %llu", (unsigned long long)h.slot[0]);
	CHECK(h.slot[1] == 2 && h.slot[5] == 32 && h.slot[6] == 37, "slots 1, 5, 6");
	CHECK(h.slot[63] == 1, "UINT64_MAX in the last slot");
	CHECK(log2_hist__count(&h) == 102, "count %llu", (unsigned long long)log2_hist__count(&h));

	h.slot[63] = 0;
	fp = open_memstream(&out, &len);
	log2_hist__print(&h, "value", fp);
	fclose(fp);
	CHECK(strstr(out, "         value : count     distribution\n") == out, "header:\n%s", out);
	CHECK(strstr(out, "    0 -> 1     : 2        |**                                      |\n"),
	      "first slot:\n%s", out);
	CHECK(strstr(out, "   64 -> 127   : 37       |****************************************|\n"),
	      "largest slot, full bar:\n%s", out);
	CHECK(!strstr(out, "128"), "nothing past the last non-empty slot:\n%s", out);
	free(out);

	log2_hist__reset(&h);
	CHECK(log2_hist__count(&h) == 0, "reset");
	return ut_done("test_log2_hist");
}
