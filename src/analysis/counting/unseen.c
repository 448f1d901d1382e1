// SPDX-License-Identifier: GPL-2.0
/* The samples the kernel counted and never delivered (unseen.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/counting/unseen.h"
#include "util/hash.h"

struct useen_key {
	u64 id;
	u32 cpu; /* an opened event counts on one CPU: its id's (an injected one: any) */
	u32 tid; /* 0 for per-CPU counters */
};

struct useen_ctr {
	struct useen_key key;
	u64 last; /* the count of its last sample */
	UT_hash_handle hh;
};

struct unseen {
	bool per_thread;
	struct useen_ctr *ctrs;
};

void unseen__conf(struct evsel_conf *c)
{
	c->extra_sample_type |= PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD;
	c->read_format = 0; /* the value alone */
}

struct unseen *unseen__new(bool per_thread)
{
	struct unseen *u = calloc(1, sizeof(*u));

	if (u)
		u->per_thread = per_thread;
	return u;
}

u64 unseen__sample(struct unseen *u, const struct sample *smp)
{
	struct useen_key k;
	struct useen_ctr *c;
	u64 val, period, grew;

	if (!u || !(smp->sample_type & PERF_SAMPLE_READ) || !smp->read_values || smp->read_nr != 1)
		return 0;
	memcpy(&val, smp->read_values, sizeof(val));
	period = smp->sample_type & PERF_SAMPLE_PERIOD && smp->period ? smp->period : 1;
	memset(&k, 0, sizeof(k));
	k.id = smp->id;
	k.cpu = smp->cpu;
	k.tid = u->per_thread ? smp->tid : 0;
	HASH_FIND(hh, u->ctrs, &k, sizeof(k), c);
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return 0; /* out of memory: this one unchecked */
		c->key = k;
		HASH_ADD(hh, u->ctrs, key, sizeof(k), c);
	}
	if (val < c->last)
		c->last = 0; /* a new counter under the key */
	grew = val - c->last;
	c->last = val;
	if (grew <= period)
		return 0;
	return (grew - period + period / 2) / period;
}

void unseen__free(struct unseen *u)
{
	if (!u)
		return;
	HASH_FREE_ALL(hh, u->ctrs);
	free(u);
}
