// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>

#include "util/units.h"
#include "ut.h"

static void time_ok(const char *s, const char *unit, unsigned long long want)
{
	unsigned long long ns = 12345;
	int ret = units__parse_time(s, unit, &ns);

	CHECK(ret == 0 && ns == want, "'%s' (%s): ret %d, %llu != %llu", s, unit ? unit : "NULL",
	      ret, ns, want);
}

static void time_bad(const char *s, const char *unit)
{
	unsigned long long ns = 12345;
	int ret = units__parse_time(s, unit, &ns);

	CHECK(ret == -EINVAL && ns == 12345, "'%s' (%s): ret %d ns %llu", s, unit ? unit : "NULL",
	      ret, ns);
}

static void test_time(void)
{
	time_ok("10ms", "us", 10000000ULL);
	time_ok("5us", NULL, 5000ULL);
	time_ok("1.5s", "ms", 1500000000ULL);
	time_ok("300ns", "s", 300ULL);
	time_ok("2m", NULL, 120000000000ULL);
	time_ok("1h", NULL, 3600000000000ULL);
	time_ok("0", "ms", 0);
	time_ok("0.0s", NULL, 0);
	time_ok("0.1s", NULL, 100000000ULL);
	time_ok("0.001ms", NULL, 1000ULL);
	time_ok("0.25m", NULL, 15000000000ULL);
	time_ok("1.0005us", NULL, 1000ULL); /* below 1ns is dropped */
	time_ok("1.9ns", NULL, 1ULL);
	time_ok("0.123456789123456789123s", NULL, 123456789ULL);
	time_ok("007ms", NULL, 7000000ULL);
	/* bare numbers take the default unit */
	time_ok("300", NULL, 300ULL);
	time_ok("300", "ns", 300ULL);
	time_ok("300", "us", 300000ULL);
	time_ok("300", "ms", 300000000ULL);
	time_ok("3", "s", 3000000000ULL);
	time_ok("1.5", "ms", 1500000ULL);
	time_ok("18446744073709551615", NULL, 18446744073709551615ULL);
	time_ok("18446744073709551615ns", "s", 18446744073709551615ULL);
	time_ok("18446744073.709551615s", NULL, 18446744073709551615ULL);
	time_ok("18446744073709551us", NULL, 18446744073709551000ULL);

	time_bad("10xs", NULL);
	time_bad("10 ms", NULL);
	time_bad(" 10ms", NULL);
	time_bad("10ms ", NULL);
	time_bad("", "ms");
	time_bad("-1", "ms");
	time_bad("+1", "ms");
	time_bad("ms", NULL);
	time_bad(".5s", NULL);
	time_bad("5.s", NULL);
	time_bad("1.2.3s", NULL);
	time_bad("10MS", NULL);
	time_bad("10msec", NULL);
	time_bad("1e3", NULL);
	time_bad("10", "xs"); /* a bad default unit is an error too */
	time_bad("18446744073709551616", NULL);
	time_bad("18446744073709551616ns", NULL);
	time_bad("18446744074s", NULL);
	time_bad("18446744073.709551616s", NULL);
	time_bad("18446744073709552us", NULL);
	time_bad("99999999999999999999999999999h", NULL);
	time_bad(NULL, NULL);
}

static void uint_ok(const char *s, unsigned long long min, unsigned long long max,
		    unsigned long long want)
{
	unsigned long long v = 999;
	int ret = units__parse_uint(s, min, max, &v);

	CHECK(ret == 0 && v == want, "'%s': ret %d, %llu != %llu", s, ret, v, want);
}

static void uint_bad(const char *s, unsigned long long min, unsigned long long max, int want)
{
	unsigned long long v = 999;
	int ret = units__parse_uint(s, min, max, &v);

	CHECK(ret == want && v == 999, "'%s' [%llu,%llu]: ret %d, want %d, v %llu", s, min, max,
	      ret, want, v);
}

static void test_uint(void)
{
	uint_ok("0", 0, 10, 0);
	uint_ok("10", 0, 10, 10);
	uint_ok("5", 5, 5, 5);
	uint_ok("0042", 0, 100, 42);
	uint_ok("18446744073709551615", 0, ULLONG_MAX, ULLONG_MAX);

	uint_bad("", 0, 10, -EINVAL);
	uint_bad("-1", 0, 10, -EINVAL);
	uint_bad("+1", 0, 10, -EINVAL);
	uint_bad(" 1", 0, 10, -EINVAL);
	uint_bad("1 ", 0, 10, -EINVAL);
	uint_bad("1k", 0, 10, -EINVAL);
	uint_bad("0x10", 0, 100, -EINVAL);
	uint_bad("1.0", 0, 10, -EINVAL);
	uint_bad(NULL, 0, 10, -EINVAL);
	uint_bad("11", 0, 10, -ERANGE);
	uint_bad("4", 5, 10, -ERANGE);
	uint_bad("18446744073709551616", 0, ULLONG_MAX, -ERANGE);
	uint_bad("99999999999999999999999", 0, ULLONG_MAX, -ERANGE);
	/* malformed wins over overflow */
	uint_bad("99999999999999999999999x", 0, ULLONG_MAX, -EINVAL);
}

static void fmt(unsigned long long ns, const char *want)
{
	char buf[32];
	const char *got = units__fmt_ns(ns, buf, sizeof(buf));

	CHECK(got == buf, "returns buf");
	CHECK_STR(got, want);
}

static void test_fmt(void)
{
	char small[5];

	fmt(0, "0ns");
	fmt(512, "512ns");
	fmt(999, "999ns");
	fmt(1000, "1.000us");
	fmt(1250, "1.250us");
	fmt(999999, "999.999us");
	fmt(1000000, "1.000ms");
	fmt(5031999, "5.031ms");
	fmt(999999999, "999.999ms");
	fmt(1000000000, "1.000s");
	fmt(2000000000, "2.000s");
	fmt(125432000000ULL, "125.432s");
	fmt(ULLONG_MAX, "18446744073.709s");

	/* truncated to the buffer, always terminated */
	CHECK_STR(units__fmt_ns(1250, small, sizeof(small)), "1.25");
	CHECK(units__fmt_ns(1, NULL, 10) == NULL, "NULL buf");
}

static void size_ok(const char *s, unsigned long long want)
{
	unsigned long long v = 999;
	int ret = units__parse_size(s, &v);

	CHECK(ret == 0 && v == want, "size '%s': ret %d, %llu != %llu", s, ret, v, want);
}

static void size_bad(const char *s, int want)
{
	unsigned long long v = 999;
	int ret = units__parse_size(s, &v);

	CHECK(ret == want && v == 999, "size '%s': ret %d, want %d, v %llu", s, ret, want, v);
}

static void test_size(void)
{
	size_ok("4096", 4096);
	size_ok("100B", 100);
	size_ok("64K", 64ULL << 10);
	size_ok("64k", 64ULL << 10);
	size_ok("64M", 64ULL << 20);
	size_ok("64MB", 64ULL << 20);
	size_ok("64MiB", 64ULL << 20);
	size_ok("1G", 1ULL << 30);
	size_ok("2g", 2ULL << 30);
	size_ok("1T", 1ULL << 40);
	size_ok("0", 0);
	size_bad("", -EINVAL);
	size_bad("M", -EINVAL);
	size_bad("-1M", -EINVAL);
	size_bad("1.5M", -EINVAL);
	size_bad("64 M", -EINVAL);
	size_bad("64X", -EINVAL);
	size_bad("64MX", -EINVAL);
	size_bad("64iB", -EINVAL);
	size_bad("20000000T", -ERANGE);
	size_bad("99999999999999999999999", -ERANGE);
	size_bad(NULL, -EINVAL);
}

static void exact(unsigned long long ns, const char *want)
{
	char buf[32];
	unsigned long long back = 0;

	CHECK_STR(units__fmt_exact(ns, buf, sizeof(buf)), want);
	CHECK(!units__parse_time(buf, "ms", &back) && back == ns, "'%s' back: %llu != %llu", buf,
	      back, ns);
}

static void test_exact(void)
{
	exact(0, "0ns");
	exact(1, "1ns");
	exact(1000, "1us");
	exact(1500000, "1500us");
	exact(100000000, "100ms");
	exact(1000000000000ULL, "1000s");
	exact(60000000001ULL, "60000000001ns");
	CHECK(units__is_bare("300") && units__is_bare("1.5") && units__is_bare("0"), "bare");
	CHECK(!units__is_bare("300ms") && !units__is_bare("") &&
		      !units__is_bare(NULL) && !units__is_bare(".5") && !units__is_bare("5s"),
	      "not bare");
}

int main(void)
{
	test_exact();
	test_time();
	test_uint();
	test_size();
	test_fmt();
	return ut_done("units");
}
