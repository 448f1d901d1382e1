/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel tracepoint filters built from clauses: comm globs and integer lists
 * quoted the way the kernel's filter parser reads them, joined with && and
 * ||, and split again to tell which clause the kernel rejected.
 *
 * The builders return malloc'd text; "" stands for "no condition" and joins
 * away (kfilter__and("", b) is b).  NULL: out of memory (errno ENOMEM) or a
 * value that cannot be quoted safely (errno EINVAL).
 */
#ifndef PP_KFILTER_H
#define PP_KFILTER_H

#include <stdbool.h>

/*
 * "(FIELD ~ \"a*\" || FIELD ~ \"b\")" for the comma-separated globs "a*,b";
 * "" for NULL globs.  A glob with a quote, a backslash, a parenthesis, & or |
 * is refused (EINVAL): it could leave the quotes; so is an empty one, one of
 * more than 63 characters and one with [^ (fnmatch would negate the set, the
 * kernel does not): kfilter__comm_match could not match as the kernel does.
 */
char *kfilter__comm_globs(const char *field, const char *globs);
/* Whether kfilter__comm_globs accepts @globs (non-empty, nothing to escape). */
bool kfilter__globs_ok(const char *globs);
/*
 * Whether @comm matches one of the comma-separated @globs (as the kernel's ~
 * does); false for globs kfilter__globs_ok refuses.
 */
bool kfilter__comm_match(const char *globs, const char *comm);
/* "(FIELD == 1 || FIELD == 2)" for @n values; "" for none. */
char *kfilter__ints(const char *field, const int *vals, int n);
/* "A && B" / "(A) || (B)", where an empty side drops out. */
char *kfilter__and(const char *a, const char *b);
char *kfilter__or(const char *a, const char *b);
/*
 * The top-level && clauses of @filter (outside '' or "" quotes and
 * parentheses), as a NULL-terminated array of malloc'd strings (free with
 * kfilter__free_list); NULL if out of memory.  One clause: the whole filter
 * (also when it has a top-level ||: "a || b && c" is not "(a || b) && c").
 */
char **kfilter__clauses(const char *filter);
/*
 * Whether the kernel would take @filter with another meaning than the
 * expression language gives it: a glob class [^...] (the kernel's '^' is a
 * member, the language's a negation, as [!...]).  Such a filter (clause)
 * runs in user space.
 */
bool kfilter__kernel_differs(const char *filter);
void kfilter__free_list(char **list);

#endif
