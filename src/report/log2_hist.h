/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A power-of-two histogram, printed as bcc's tools print theirs:
 *
 *        value          : count     distribution
 *          0 -> 1       : 1        |*                                       |
 *          2 -> 3       : 2        |**                                      |
 *
 * Slot 0 holds 0 and 1, slot i (i >= 1) holds [2^i, 2^(i+1) - 1].  Rows
 * from the first to the last non-empty slot print; the stars scale to the
 * largest count.  Fixed size, no allocation.
 */
#ifndef PP_LOG2_HIST_H
#define PP_LOG2_HIST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LOG2_SLOTS 64

struct log2_hist {
	uint64_t slot[LOG2_SLOTS];
};

void log2_hist__add(struct log2_hist *h, uint64_t v);
/* @v, @n times */
void log2_hist__add_n(struct log2_hist *h, uint64_t v, uint64_t n);
uint64_t log2_hist__count(const struct log2_hist *h);
void log2_hist__reset(struct log2_hist *h);
/* @title: the value column's title ("value", "bytes"). */
void log2_hist__print(const struct log2_hist *h, const char *title, FILE *fp);
/*
 * --json, and other sinks: an RT_LOG2 column of report/rtable.h, an array
 * of the slots that hold values, lowest first: {"lo":2,"hi":3,"count":N}
 * ("lo_ns", "hi_ns" in unit ns: the values are times).
 */

#endif
