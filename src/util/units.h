/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers and durations as users type them on the command line, and back. */
#ifndef PP_UNITS_H
#define PP_UNITS_H

#include <stddef.h>

/*
 * Parse a duration into nanoseconds: "300ns" "5us" "10ms" "1.5s" "2m"
 * (minutes) "1h".  A bare number is in @default_unit ("ns", "us", "ms",
 * "s", "m", "h"; NULL means "ns").  A fraction is allowed ("1.5s"); parts
 * below one nanosecond are dropped.  No sign, no whitespace.
 * Returns 0, or -EINVAL for malformed text, an unknown unit or overflow.
 */
int units__parse_time(const char *s, const char *default_unit, unsigned long long *ns);

/*
 * Parse a strict decimal (digits only) into @v, within [@min, @max].
 * Returns 0, -EINVAL for malformed text, -ERANGE for overflow or a value
 * outside [@min, @max].  @v is untouched on error.
 */
int units__parse_uint(const char *s, unsigned long long min, unsigned long long max,
		      unsigned long long *v);

/*
 * Parse a size in bytes: digits, then an optional binary unit K, M, G, T
 * (any case, optionally followed by "B" or "iB"): "64M" "1G" "512KiB"
 * "4096".  Returns 0, -EINVAL for malformed text, -ERANGE for overflow.
 */
int units__parse_size(const char *s, unsigned long long *bytes);

/*
 * Format @ns for people: "512ns", "1.250us", "5.031ms", "2.000s" (three
 * decimals, truncated, seconds for anything >= 1s).  Returns @buf.
 */
char *units__fmt_ns(unsigned long long ns, char *buf, size_t len);

/*
 * Format @ns as the command line spells it, exactly: in the largest of
 * s, ms, us, ns that divides it ("100ms", "1500us", "1000s", "0ns"), so
 * that units__parse_time() gives @ns back.  Returns @buf.
 */
char *units__fmt_exact(unsigned long long ns, char *buf, size_t len);

/* Whether @s is a number without a unit ("300", "1.5"): read in the option's own unit. */
int units__is_bare(const char *s);

/* "32M", "1.5G", "512K": a size for messages (whole G, else 4 digits of M or K).  @buf. */
char *units__fmt_size(unsigned long long bytes, char *buf, size_t len);

#endif
