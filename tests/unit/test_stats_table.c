// SPDX-License-Identifier: GPL-2.0
/* The statistics table: unit formatting and column alignment. */
#include <stdlib.h>

#include "report/hist.h"
#include "report/stats_table.h"
#include "ut.h"

int main(void)
{
	char buf[32], *out = NULL, *nl;
	size_t len = 0;
	struct hist *h = hist__new();
	FILE *fp;

	CHECK_STR(stats_table__fmt_ns(0, buf, sizeof(buf)), "0ns");
	CHECK_STR(stats_table__fmt_ns(999, buf, sizeof(buf)), "999ns");
	CHECK_STR(stats_table__fmt_ns(12345, buf, sizeof(buf)), "12.345us");
	CHECK_STR(stats_table__fmt_ns(5062000, buf, sizeof(buf)), "5.062ms");
	CHECK_STR(stats_table__fmt_ns(1234000000, buf, sizeof(buf)), "1.234s");
	CHECK_STR(stats_table__fmt_ns(7200000000000ull, buf, sizeof(buf)), "7200.000s");

	for (int i = 1; i <= 100; i++)
		hist__record(h, i * 1000000ull);
	fp = open_memstream(&out, &len);
	stats_table__header(fp, "STATE");
	stats_table__row(fp, "S    ", h);
	fclose(fp);
	nl = strchr(out, '\n');
	CHECK(nl && strlen(nl + 1) == (size_t)(nl - out) + 1, "rows as wide as the header:\n%s",
	      out);
	CHECK(strstr(out, "   100      5.050s     1.000ms    50.500ms") != NULL, "row values:\n%s",
	      out);
	CHECK(strstr(out, "100.000ms\n") != NULL, "max last:\n%s", out);
	free(out);

	/* plain numbers (num-dist): no units, the average with two decimals */
	hist__reset(h);
	for (int i = 1; i <= 100; i++)
		hist__record(h, i);
	fp = open_memstream(&out, &len);
	stats_table__header(fp, "EVENT");
	stats_table__row_ex(fp, "write", h, STATS_PLAIN);
	fclose(fp);
	nl = strchr(out, '\n');
	CHECK(nl && strlen(nl + 1) == (size_t)(nl - out) + 1,
	      "plain rows as wide as the header:\n%s", out);
	CHECK(strstr(out,
		     "write        100        5050           1       50.50          50          95"
		     "          99         100\n") != NULL,
	      "plain row values:\n%s", out);
	free(out);
	hist__delete(h);
	return ut_done("test_stats_table");
}
