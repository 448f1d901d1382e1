// SPDX-License-Identifier: GPL-2.0
/*
 * The latency table: rows by group then total, sub-rows under their row,
 * empty rows and sub-rows left out, per-interval reset that keeps fixed
 * rows or drops per-thread ones, and labels that follow a rename.
 */
#include <stdlib.h>
#include <string.h>

#include "report/lat_table.h"
#include "ut.h"

#define MS 1000000ULL

static char *print(struct lat_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	lat_table__print(t, fp);
	fclose(fp);
	return buf;
}

/* the key column (@width chars, trailing blanks cut) of each line after the header */
static const char *keys_of(const char *text, int width, char *out, size_t len)
{
	const char *p = strchr(text, '\n');

	out[0] = 0;
	while (p && p[1]) {
		char line[256];
		int n = width;

		snprintf(line, sizeof(line), "%.*s", width, p + 1);
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = 0;
		strncat(out, line, len - strlen(out) - 1);
		strncat(out, "|", len - strlen(out) - 1);
		p = strchr(p + 1, '\n');
	}
	return out;
}

int main(void)
{
	const char *const subs[] = { "sleep", "runq", NULL };
	struct lat_table *t = lat_table__new("STATE    ", subs, 0);
	struct lat_row *s, *d, *r;
	char *text, keys[256];

	s = lat_table__row(t, 1, 1, "S");
	d = lat_table__row(t, 2, 2, "D");
	r = lat_table__row(t, 0, 0, "R");
	CHECK(s && d && r, "rows");
	CHECK(lat_table__row(t, 1, 1, NULL) == s, "same key, same row");
	lat_table__record(t, s, 5 * MS, (uint64_t[]){ 4 * MS, 1 * MS });
	lat_table__record(t, s, 7 * MS, (uint64_t[]){ 6 * MS, 1 * MS });
	lat_table__record(t, r, 100 * MS, NULL); /* no sub values: no sub-rows */
	text = print(t);
	/* group order R(0) S(1); D has nothing and is left out */
	CHECK_STR(keys_of(text, 9, keys, sizeof(keys)), "R|S|  sleep|  runq|");
	CHECK(!strncmp(text, "STATE          calls", 20), "header: %.30s", text);
	CHECK(strstr(text, "\nS                  2    12.000ms") != NULL, "S row:\n%s", text);
	CHECK(strstr(text, "\n  sleep            2    10.000ms") != NULL, "sleep row:\n%s", text);
	free(text);

	/* reset: fixed rows stay, empty */
	lat_table__reset(t);
	CHECK_INT(lat_table__rows(t), 3);
	lat_table__record(t, d, 3 * MS, NULL);
	text = print(t);
	CHECK_STR(keys_of(text, 9, keys, sizeof(keys)), "D|");
	free(text);
	lat_table__delete(t);

	/* per-thread rows: within a group, the largest total first; dropped at reset */
	t = lat_table__new("STATE COMM      TID", subs, LAT_DROP_ROWS);
	r = lat_table__row(t, 101 << 8 | 1, 1, "S     a         101");
	lat_table__record(t, r, 1 * MS, NULL);
	r = lat_table__row(t, 102 << 8 | 1, 1, "S     b         102");
	lat_table__record(t, r, 9 * MS, NULL);
	r = lat_table__row(t, 101 << 8 | 0, 0, "R     a         101");
	lat_table__record(t, r, 1, NULL);
	/* thread 102 renames itself */
	r = lat_table__row(t, 102 << 8 | 1, 1, "S     b2        102");
	lat_table__record(t, r, 1 * MS, NULL);
	text = print(t);
	CHECK_STR(keys_of(text, 19, keys, sizeof(keys)),
		  "R     a         101|S     b2        102|S     a         101|");
	free(text);
	lat_table__reset(t);
	CHECK_INT(lat_table__rows(t), 0);
	text = print(t);
	CHECK(!strchr(text, '\n') || !strchr(text, '\n')[1], "only the header: %s", text);
	free(text);
	lat_table__delete(t);
	/* LAT_LOG2: a log2 histogram per row, in the table's order, titled by label and key */
	{
		struct lat_table *h =
			lat_table__new("EVENT    CPU", NULL, LAT_PLAIN | LAT_DROP_ROWS | LAT_LOG2);
		struct lat_row *a = lat_table__row(h, 1, 0, "ev         1");
		struct lat_row *b = lat_table__row(h, 2, 0, "ev         2");
		char *buf = NULL;
		size_t len = 0;
		FILE *fp;

		for (int v = 1; v <= 3; v++)
			lat_table__record(h, a, v, NULL); /* 1, 2, 3: slots 0-1 and 2-3 */
		lat_table__record(h, b, 1000, NULL);	  /* the larger total: printed first */
		fp = open_memstream(&buf, &len);
		lat_table__print_log2(h, fp, "num=x", "value");
		fclose(fp);
		CHECK(buf && strstr(buf, "\nev 2 (EVENT CPU) num=x\n") &&
			      strstr(buf, "\nev 1 (EVENT CPU) num=x\n") &&
			      strstr(buf, "ev 2") < strstr(buf, "ev 1"),
		      "titles and order: %s", buf ? buf : "");
		CHECK(buf && strstr(buf, "    0 -> 1     : 1 ") &&
			      strstr(buf, "    2 -> 3     : 2 ") &&
			      strstr(buf, "  512 -> 1023  : 1 "),
		      "slots: %s", buf ? buf : "");
		free(buf);
		lat_table__reset(h);
		buf = NULL;
		fp = open_memstream(&buf, &len);
		lat_table__print_log2(h, fp, NULL, "value");
		fclose(fp);
		CHECK(buf && !*buf, "nothing after a reset: '%s'", buf ? buf : "");
		free(buf);
		lat_table__delete(h);
	}
	/* two-word keys, the --than column and a mark column */
	{
		struct lat_table *c = lat_table__new("CALL ", NULL, LAT_DROP_ROWS);
		struct lat_row *a = lat_table__row2(c, 7, 100, 0, "a 100");
		struct lat_row *b = lat_table__row2(c, 7, 200, 0, "a 200");

		CHECK(a && b && a != b, "second word of the key tells rows apart");
		CHECK(lat_table__row2(c, 7, 100, 0, NULL) == a, "same two words, same row");
		lat_table__set_than(c, 5 * MS);
		lat_table__set_mark(c, "errors");
		for (int i = 1; i <= 10; i++) {
			lat_table__record(c, a, i * MS, NULL);
			if (i % 5 == 0)
				lat_row__mark(a);
		}
		lat_table__record(c, b, 1 * MS, NULL);
		text = print(c);
		CHECK(text && strstr(text, ">5ms") && strstr(text, "errors\n"),
		      "count columns titled: %s", text ? text : "");
		/* 6..10 are above 5ms (5 is not), 2 marked */
		CHECK(text && strstr(text, "5 (50.0%)        2 (20.0%)\n"), "a's counts: %s",
		      text ? text : "");
		CHECK(text && strstr(text, "0 (0.0%)         0 (0.0%)\n"), "b's counts: %s",
		      text ? text : "");
		free(text);
		lat_table__reset(c);
		CHECK(lat_table__rows(c) == 0, "rows dropped at reset");
		lat_table__delete(c);
	}
	return ut_done("test_lat_table");
}
