/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal unit-test harness.  Each CHECK is one test; the binary prints
 * "ok"/"not ok" lines and, last, "unit: N passed, N failed", and exits
 * non-zero if anything failed.  tests/run.sh adds the counts up.
 */
#ifndef PP_UT_H
#define PP_UT_H

#include <stdio.h>
#include <string.h>

static int ut_pass, ut_fail;

#define CHECK(cond, ...)                                                         \
	do {                                                                     \
		if (cond) {                                                      \
			ut_pass++;                                               \
		} else {                                                         \
			ut_fail++;                                               \
			printf("not ok %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                     \
			printf("\n");                                            \
		}                                                                \
	} while (0)

#define CHECK_STR(a, b)                                                                  \
	CHECK((a) && (b) && strcmp((a), (b)) == 0, "'%s' != '%s'", (a) ? (a) : "(null)", \
	      (b) ? (b) : "(null)")
#define CHECK_INT(a, b) \
	CHECK((long long)(a) == (long long)(b), "%lld != %lld", (long long)(a), (long long)(b))

static inline int ut_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, ut_pass, ut_fail);
	return ut_fail ? 1 : 0;
}

#endif
