// SPDX-License-Identifier: GPL-2.0
/* A power-of-two histogram: see log2_hist.h. */
#include <inttypes.h>
#include <string.h>

#include "report/log2_hist.h"

#define STARS 40

static int slot_of(uint64_t v)
{
	return v < 2 ? 0 : 63 - __builtin_clzll(v);
}

void log2_hist__add(struct log2_hist *h, uint64_t v)
{
	h->slot[slot_of(v)]++;
}

void log2_hist__add_n(struct log2_hist *h, uint64_t v, uint64_t n)
{
	h->slot[slot_of(v)] += n;
}

uint64_t log2_hist__count(const struct log2_hist *h)
{
	uint64_t n = 0;

	for (int i = 0; i < LOG2_SLOTS; i++)
		n += h->slot[i];
	return n;
}

void log2_hist__reset(struct log2_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void log2_hist__print(const struct log2_hist *h, const char *title, FILE *fp)
{
	int first = -1, last = -1;
	uint64_t max = 0;
	int w;

	for (int i = 0; i < LOG2_SLOTS; i++) {
		if (!h->slot[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (h->slot[i] > max)
			max = h->slot[i];
	}
	if (first < 0)
		return;
	w = snprintf(NULL, 0, "%" PRIu64, last == 63 ? UINT64_MAX : (uint64_t)(2ull << last) - 1);
	if (w < 5)
		w = 5;
	fprintf(fp, "%*s : count     distribution\n", 2 * w + 4, title);
	for (int i = first; i <= last; i++) {
		uint64_t lo = i ? 1ull << i : 0,
			 hi = i == 63 ? UINT64_MAX : (uint64_t)(2ull << i) - 1;
		int n = (int)(h->slot[i] * STARS / max);
		char stars[STARS + 1];

		memset(stars, '*', n);
		memset(stars + n, ' ', STARS - n);
		stars[STARS] = 0;
		fprintf(fp, "%*" PRIu64 " -> %-*" PRIu64 " : %-8" PRIu64 " |%s|\n", w, lo, w, hi,
			h->slot[i], stars);
	}
}
