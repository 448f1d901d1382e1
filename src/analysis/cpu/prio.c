// SPDX-License-Identifier: GPL-2.0
/* --prio LIST: the option group, its kernel filter, threads' priorities. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "analysis/cpu/prio.h"
#include "engine/session.h"
#include "engine/kfilter.h"
#include "util/hash.h"
#include "util/list.h"
#include "util/units.h"

static void set_bit(struct prio_opts *p, unsigned i)
{
	p->mask[i / 64] |= 1ULL << (i % 64);
}

bool prio__has(const struct prio_opts *p, long long prio)
{
	if (!p || !p->set)
		return true;
	if (prio < 0 || prio > PRIO_MAX)
		return false;
	return p->mask[prio / 64] & (1ULL << (prio % 64));
}

int prio__parse(struct prio_opts *p, const char *arg, char *err, size_t errlen)
{
	char **items;
	int n;

	if (list__split(arg, "priority", &items, &n, err, errlen))
		return -1;
	for (int i = 0; i < n; i++) {
		char *dash = strchr(items[i], '-'), lo_s[32];
		unsigned long long lo, hi;

		snprintf(lo_s, sizeof(lo_s), "%.*s",
			 dash ? (int)(dash - items[i]) : (int)strlen(items[i]), items[i]);
		if (units__parse_uint(lo_s, 0, PRIO_MAX, &lo) ||
		    units__parse_uint(dash ? dash + 1 : lo_s, 0, PRIO_MAX, &hi) || hi < lo) {
			snprintf(err, errlen,
				 "bad --prio '%s' in '%s' (kernel priorities 0-%d: 0-99 real-time, "
				 "100-139 normal, e.g. 1-99 or 120)",
				 items[i], arg, PRIO_MAX);
			free(items);
			return -1;
		}
		for (unsigned long long v = lo; v <= hi; v++)
			set_bit(p, (unsigned)v);
	}
	free(items);
	p->set = true;
	return 0;
}

char *prio__filter(const struct prio_opts *p, const char *field)
{
	size_t len = 0, cap = 64;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	out[0] = 0;
	if (!p || !p->set)
		return out;
	for (int v = 0; v <= PRIO_MAX; v++) {
		char clause[160];
		int end = v, k;

		if (!prio__has(p, v))
			continue;
		while (end < PRIO_MAX && prio__has(p, end + 1))
			end++;
		if (end == v)
			k = snprintf(clause, sizeof(clause), "%s%s == %d", len ? " || " : "(",
				     field, v);
		else
			k = snprintf(clause, sizeof(clause), "%s%s >= %d && %s <= %d",
				     len ? " || " : "(", field, v, field, end);
		if (len + k + 2 > cap) {
			char *n = realloc(out, cap = 2 * (len + k + 2));

			if (!n) {
				free(out);
				return NULL;
			}
			out = n;
		}
		memcpy(out + len, clause, k + 1);
		len += k;
		v = end;
	}
	memcpy(out + len, ")", 2);
	return out;
}

int prio__and(char **filter, const struct prio_opts *p, const char *field)
{
	char *f = prio__filter(p, field), *both = f ? kfilter__and(*filter, f) : NULL;

	free(f);
	if (!both)
		return -ENOMEM;
	free(*filter);
	*filter = both;
	return 0;
}

int prio__of_task(pid_t tid)
{
	char path[64], buf[512], *p;
	long long prio;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* after the comm (which may hold ") "): state is field 3, priority 18 */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %lld",
			 &prio) != 1)
		return -1;
	prio += 100; /* the kernel shows task->prio - MAX_RT_PRIO */
	return prio >= 0 && prio <= PRIO_MAX ? (int)prio : -1;
}

struct prio_ent {
	UT_hash_handle hh;
	u32 tid;
	int prio;
};

struct prio_map {
	struct prio_ent *ents;
};

struct prio_map *prio_map__new(void)
{
	return calloc(1, sizeof(struct prio_map));
}

void prio_map__delete(struct prio_map *m)
{
	if (!m)
		return;
	HASH_FREE_ALL(hh, m->ents);
	free(m);
}

int prio_map__set(struct prio_map *m, u32 tid, int prio)
{
	struct prio_ent *e;

	HASH_FIND(hh, m->ents, &tid, sizeof(tid), e);
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return -ENOMEM;
		e->tid = tid;
		HASH_ADD(hh, m->ents, tid, sizeof(e->tid), e);
	}
	e->prio = prio;
	return 0;
}

int prio_map__get(struct prio_map *m, u32 tid)
{
	struct prio_ent *e;
	int prio;

	HASH_FIND(hh, m->ents, &tid, sizeof(tid), e);
	if (e)
		return e->prio;
	prio = prio__of_task((pid_t)tid);
	if (prio >= 0)
		prio_map__set(m, tid, prio); /* (out of memory: read again next time) */
	return prio;
}

void prio_map__forget(struct prio_map *m, u32 tid)
{
	struct prio_ent *e;

	HASH_FIND(hh, m->ents, &tid, sizeof(tid), e);
	if (e) {
		HASH_DEL(m->ents, e);
		free(e);
	}
}

static int opt_prio(void *data, const char *arg, char *err, size_t errlen)
{
	return prio__parse(data, arg, err, errlen);
}

static const struct popt prio_opts[] = {
	{ "prio", 0, "LIST",
	  "only threads whose kernel priority is in LIST, as sched tracepoints print it: "
	  "0-99 real-time (99 - the FIFO/RR priority), 100-139 normal (120 + nice); e.g. "
	  "1-99 or 120",
	  POPT_CB, .cb = opt_prio },
	{ 0 },
};

const struct opt_group prio_group = {
	.name = "prio",
	.opts = prio_opts,
	.size = sizeof(struct prio_opts),
};

static void on_exit_rec(struct session *s, void *priv, const struct rec_task *t)
{
	(void)s;
	prio_map__forget(priv, t->tid);
}

static const struct session_ops prio_map_ops = { .exit = on_exit_rec };

int prio_map__add_hooks(struct prio_map *m, struct session *s)
{
	return session__add_ops(s, &prio_map_ops, m);
}
