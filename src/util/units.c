// SPDX-License-Identifier: GPL-2.0
/*
 * Duration and number parsing/formatting.  All arithmetic is in integers so
 * that "0.1s" is exactly 100000000ns and overflow is detected, not wrapped.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/units.h"

struct unit {
	const char *name;
	unsigned long long ns;
};

static const struct unit units[] = {
	{ "ns", 1ULL },
	{ "us", 1000ULL },
	{ "ms", 1000000ULL },
	{ "s", 1000000000ULL },
	{ "m", 60ULL * 1000000000ULL },
	{ "h", 3600ULL * 1000000000ULL },
};

static int unit_ns(const char *name, unsigned long long *ns)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(units[i].name, name)) {
			*ns = units[i].ns;
			return 0;
		}
	}
	return -EINVAL;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int units__parse_time(const char *s, const char *default_unit, unsigned long long *ns)
{
	unsigned long long whole = 0, frac = 0, frac_div = 1, mult, r;
	const char *p = s;

	if (!s || !ns || !is_digit(*p))
		return -EINVAL;
	for (; is_digit(*p); p++) {
		if (__builtin_mul_overflow(whole, 10ULL, &whole) ||
		    __builtin_add_overflow(whole, (unsigned long long)(*p - '0'), &whole))
			return -EINVAL;
	}
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return -EINVAL;
		/*
		 * Digits past the 18th cannot matter to any unit up to hours
		 * by more than a nanosecond, so they are checked and dropped.
		 */
		for (; is_digit(*p); p++) {
			if (frac_div < 1000000000000000000ULL) {
				frac = frac * 10 + (unsigned long long)(*p - '0');
				frac_div *= 10;
			}
		}
	}
	if (unit_ns(*p ? p : (default_unit ? default_unit : "ns"), &mult))
		return -EINVAL;
	if (__builtin_mul_overflow(whole, mult, &r))
		return -EINVAL;
	/* frac < frac_div <= 1e18 and mult <= 3.6e12: the product needs 128 bits. */
	if (frac) {
		unsigned __int128 f = (unsigned __int128)frac * mult / frac_div;

		if (__builtin_add_overflow(r, (unsigned long long)f, &r))
			return -EINVAL;
	}
	*ns = r;
	return 0;
}

int units__parse_uint(const char *s, unsigned long long min, unsigned long long max,
		      unsigned long long *v)
{
	unsigned long long n = 0;
	bool overflow = false;

	if (!s || !v || !is_digit(*s))
		return -EINVAL;
	for (; is_digit(*s); s++) {
		if (__builtin_mul_overflow(n, 10ULL, &n) ||
		    __builtin_add_overflow(n, (unsigned long long)(*s - '0'), &n))
			overflow = true;
	}
	if (*s)
		return -EINVAL;
	if (overflow || n < min || n > max)
		return -ERANGE;
	*v = n;
	return 0;
}

int units__parse_size(const char *s, unsigned long long *bytes)
{
	unsigned long long n = 0, mul = 1;
	bool overflow = false;

	if (!s || !bytes || !is_digit(*s))
		return -EINVAL;
	for (; is_digit(*s); s++) {
		if (__builtin_mul_overflow(n, 10ULL, &n) ||
		    __builtin_add_overflow(n, (unsigned long long)(*s - '0'), &n))
			overflow = true;
	}
	switch (*s) {
	case 'k':
	case 'K':
		mul = 1ULL << 10;
		break;
	case 'm':
	case 'M':
		mul = 1ULL << 20;
		break;
	case 'g':
	case 'G':
		mul = 1ULL << 30;
		break;
	case 't':
	case 'T':
		mul = 1ULL << 40;
		break;
	}
	if (mul > 1) {
		s++;
		/* "64M", "64MB", "64MiB" */
		if (*s == 'i' && (s[1] == 'B' || s[1] == 'b'))
			s += 2;
		else if (*s == 'B' || *s == 'b')
			s++;
	} else if (*s == 'B' || *s == 'b') {
		s++;
	}
	if (*s)
		return -EINVAL;
	if (overflow || __builtin_mul_overflow(n, mul, &n))
		return -ERANGE;
	*bytes = n;
	return 0;
}

char *units__fmt_ns(unsigned long long ns, char *buf, size_t len)
{
	if (!buf || !len)
		return buf;
	if (ns < 1000ULL)
		snprintf(buf, len, "%lluns", ns);
	else if (ns < 1000000ULL)
		snprintf(buf, len, "%llu.%03lluus", ns / 1000, ns % 1000);
	else if (ns < 1000000000ULL)
		snprintf(buf, len, "%llu.%03llums", ns / 1000000, ns % 1000000 / 1000);
	else
		snprintf(buf, len, "%llu.%03llus", ns / 1000000000, ns % 1000000000 / 1000000);
	return buf;
}

char *units__fmt_exact(unsigned long long ns, char *buf, size_t len)
{
	static const struct unit *const order[] = { &units[3], &units[2], &units[1] };

	if (!buf || !len)
		return buf;
	for (size_t i = 0; ns && i < sizeof(order) / sizeof(order[0]); i++) {
		if (ns % order[i]->ns == 0) {
			snprintf(buf, len, "%llu%s", ns / order[i]->ns, order[i]->name);
			return buf;
		}
	}
	snprintf(buf, len, "%lluns", ns);
	return buf;
}

int units__is_bare(const char *s)
{
	if (!s || !is_digit(*s))
		return 0;
	while (is_digit(*s))
		s++;
	if (*s == '.')
		for (s++; is_digit(*s); s++)
			;
	return !*s;
}

char *units__fmt_size(unsigned long long bytes, char *buf, size_t len)
{
	if (bytes >= (1ULL << 30) && !(bytes & ((1ULL << 30) - 1)))
		snprintf(buf, len, "%lluG", bytes >> 30);
	else if (bytes >= (1ULL << 20))
		snprintf(buf, len, "%.4gM", (double)bytes / (1 << 20));
	else
		snprintf(buf, len, "%.4gK", (double)bytes / 1024);
	return buf;
}
