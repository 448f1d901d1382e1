// SPDX-License-Identifier: GPL-2.0
/*
 * The one list parser of the options (util/list.h), and the value checks
 * every option gets from popt__set: control characters, empty strings,
 * number ranges.
 */
#include <stdlib.h>
#include <string.h>

#include "util/list.h"
#include "util/opt.h"
#include "ut.h"

static char err[200];

#define CHECK_ERR(s) CHECK(!strcmp(err, (s)), "'%s' != '%s'", err, (s))

/* "a|b|c": the items joined, or "ERR: message" */
static const char *split(const char *arg)
{
	static char out[256];
	char **items;
	int nr;

	if (list__split(arg, "pid", &items, &nr, err, sizeof(err))) {
		snprintf(out, sizeof(out), "ERR: %s", err);
		return out;
	}
	out[0] = 0;
	for (int i = 0; i < nr; i++) {
		strcat(out, i ? "|" : "");
		strcat(out, items[i]);
	}
	CHECK(items[nr] == NULL, "NULL-terminated");
	free(items);
	return out;
}

static void test_split(void)
{
	CHECK_STR(split("1"), "1");
	CHECK_STR(split("1,2,3"), "1|2|3");
	CHECK_STR(split(" 1 , 2 "), "1|2");
	CHECK_STR(split("a b,c"), "a b|c");
	CHECK_STR(split(""), "ERR: bad pid list '': empty");
	CHECK_STR(split("1,,2"), "ERR: bad pid list '1,,2': empty item at offset 2");
	CHECK_STR(split(",1"), "ERR: bad pid list ',1': empty item at offset 0");
	CHECK_STR(split("1,"), "ERR: bad pid list '1,': empty item at offset 2 (a trailing comma)");
	CHECK_STR(split(","), "ERR: bad pid list ',': empty item at offset 0");
	CHECK_STR(split("1, ,2"), "ERR: bad pid list '1, ,2': empty item at offset 2");
	CHECK_STR(split(" "), "ERR: bad pid list ' ': empty item at offset 0");
	CHECK_STR(split("1\n"), "ERR: bad pid list: control character 0x0a at offset 1");
	CHECK_STR(split("1,\x7f"), "ERR: bad pid list: control character 0x7f at offset 2");
	CHECK_STR(split("\t1"), "ERR: bad pid list: control character 0x09 at offset 0");
	CHECK_INT(list__check("0-3,5", "CPU", err, sizeof(err)), 0);
	CHECK_INT(list__check("0-3,,5", "CPU", err, sizeof(err)), -1);
	CHECK_ERR("bad CPU list '0-3,,5': empty item at offset 4");
	CHECK_INT(text__control_char("abc"), -1);
	CHECK_INT(text__control_char(NULL), -1);
	CHECK_INT(text__control_char("ab\x1f"), 2);
	CHECK_INT(text__control_char("\xc3\xa9"), -1); /* UTF-8 is text */
}

struct vals {
	const char *s, *title;
	unsigned long long hz, n;
};

static const struct popt opts[] = {
	{ .lname = "str", POPT_BIND_STR(struct vals, s) },
	{ .lname = "freq", POPT_BIND_UINT(struct vals, hz), POPT_RANGE(1, 100000) },
	{ .lname = "top", POPT_BIND_UINT(struct vals, n), POPT_RANGE(1, 0) },
	{ .lname = "title", .empty_default = true, POPT_BIND_STR(struct vals, title) },
	{ 0 },
};

static void test_popt(void)
{
	struct vals v = { 0 };

	CHECK_INT(popt__set(&opts[0], &v, "x", err, sizeof(err)), 0);
	CHECK_STR(v.s, "x");
	CHECK_INT(popt__set(&opts[0], &v, "", err, sizeof(err)), -1);
	CHECK_ERR("--str needs a value ('' given)");
	CHECK_INT(popt__set(&opts[0], &v, "a\nb", err, sizeof(err)), -1);
	CHECK_ERR("bad --str: control character 0x0a at offset 1 (values are printable text)");
	CHECK_INT(popt__set(&opts[1], &v, "99", err, sizeof(err)), 0);
	CHECK_INT(v.hz, 99);
	CHECK_INT(popt__set(&opts[1], &v, "0", err, sizeof(err)), -1);
	CHECK_ERR("bad --freq '0' (1..100000)");
	CHECK_INT(popt__set(&opts[1], &v, "100001", err, sizeof(err)), -1);
	CHECK_INT(popt__set(&opts[1], &v, "100000", err, sizeof(err)), 0);
	CHECK_INT(popt__set(&opts[1], &v, "99x", err, sizeof(err)), -1);
	CHECK_INT(popt__set(&opts[1], &v, "-1", err, sizeof(err)), -1);
	CHECK_INT(popt__set(&opts[1], &v, "99999999999999999999999", err, sizeof(err)), -1);
	CHECK_INT(v.hz, 100000);
	CHECK_INT(popt__set(&opts[2], &v, "0", err, sizeof(err)), -1);
	CHECK_ERR("bad --top '0' (at least 1)");
	CHECK_INT(popt__set(&opts[2], &v, "18446744073709551615", err, sizeof(err)), 0);
	/* '' is the default of an option that says so: as if not given */
	CHECK_INT(popt__set(&opts[3], &v, "T", err, sizeof(err)), 0);
	CHECK_STR(v.title, "T");
	CHECK_INT(popt__set(&opts[3], &v, "", err, sizeof(err)), 0);
	CHECK(v.title == NULL, "--title '' leaves the default");
	CHECK_INT(popt__set(&opts[3], &v, "a\tb", err, sizeof(err)), -1);
}

int main(void)
{
	test_split();
	test_popt();
	return ut_done("test_list");
}
