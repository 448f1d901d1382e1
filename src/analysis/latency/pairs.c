// SPDX-License-Identifier: GPL-2.0
/* The keyed start -> end store: see pairs.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "analysis/latency/pairs.h"
#include "engine/session.h"
#include "report/rtable.h"
#include "report/stats_table.h"

struct pair_entry {
	u64 key;
	u64 start; /* valid while pending */
	u64 seen;  /* event time of the last start or end: idle entries go */
	u32 cpu;
	bool pending;
	bool dropped; /* its pending interval dropped at a loss, no start since */
	UT_hash_handle hh;
	/* the payload follows, aligned */
	max_align_t payload[];
};

struct pairs {
	struct pairs_conf conf;
	struct pair_entry *keys;
	struct pairs_counts c;
	u64 next_sweep;
};

struct pairs *pairs__new(const struct pairs_conf *conf)
{
	struct pairs *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->conf = *conf;
	return p;
}

static void entry_free(struct pairs *p, struct pair_entry *e)
{
	HASH_DEL(p->keys, e);
	if (p->conf.payload_free)
		p->conf.payload_free(e->payload);
	free(e);
	p->c.keys--;
}

void pairs__delete(struct pairs *p)
{
	struct pair_entry *e, *tmp;

	if (!p)
		return;
	HASH_ITER(hh, p->keys, e, tmp)
	{
		entry_free(p, e);
	}
	free(p);
}

/* Free the entries with nothing pending that were not used for idle_ns. */
static void sweep(struct pairs *p, u64 now)
{
	struct pair_entry *e, *tmp;

	p->next_sweep = now + p->conf.idle_ns;
	HASH_ITER(hh, p->keys, e, tmp)
	{
		if (!e->pending && e->seen + p->conf.idle_ns < now) {
			entry_free(p, e);
			p->c.evicted++;
		}
	}
}

static struct pair_entry *find(struct pairs *p, u64 key)
{
	struct pair_entry *e;

	HASH_FIND(hh, p->keys, &key, sizeof(key), e);
	return e;
}

void *pairs__start(struct pairs *p, u64 key, u64 time, u32 cpu)
{
	struct pair_entry *e;

	if (p->conf.idle_ns && time >= p->next_sweep)
		sweep(p, time);
	e = find(p, key);
	if (!e) {
		if (p->conf.max_keys && p->c.keys >= p->conf.max_keys) {
			p->c.full++;
			return NULL;
		}
		e = calloc(1, sizeof(*e) + p->conf.payload_size);
		if (!e) {
			p->c.nomem++;
			return NULL;
		}
		e->key = key;
		HASH_ADD(hh, p->keys, key, sizeof(e->key), e);
		if (++p->c.keys > p->c.peak_keys)
			p->c.peak_keys = p->c.keys;
	} else if (e->pending) {
		p->c.replaced++;
	}
	e->pending = true;
	e->dropped = false;
	e->start = time;
	e->seen = time;
	e->cpu = cpu;
	p->c.started++;
	return e->payload;
}

void *pairs__pending(struct pairs *p, u64 key, u64 *start)
{
	struct pair_entry *e = find(p, key);

	if (!e || !e->pending)
		return NULL;
	if (start)
		*start = e->start;
	return e->payload;
}

bool pairs__end(struct pairs *p, u64 key, u64 time, struct pair_span *span)
{
	struct pair_entry *e = find(p, key);

	if (e && !e->pending && e->dropped) { /* the end of an interval a loss dropped */
		e->dropped = false;
		p->c.ended_dropped++;
		return false;
	}
	if (!e || !e->pending)
		return false;
	e->pending = false;
	e->seen = time;
	if (time < e->start) {
		p->c.backwards++;
		return false;
	}
	p->c.ended++;
	span->start = e->start;
	span->delta = time - e->start;
	span->start_cpu = e->cpu;
	span->payload = e->payload;
	return true;
}

void pairs__cancel(struct pairs *p, u64 key)
{
	struct pair_entry *e = find(p, key);

	if (e)
		e->pending = false;
}

void pairs__lost(struct pairs *p)
{
	struct pair_entry *e, *tmp;

	HASH_ITER(hh, p->keys, e, tmp)
	{
		if (e->pending) {
			e->pending = false;
			e->dropped = true;
			p->c.lost++;
		}
	}
}

void pairs__forget(struct pairs *p, u64 key)
{
	struct pair_entry *e = find(p, key);

	if (!e)
		return;
	if (e->pending)
		p->c.exited++;
	entry_free(p, e);
}

void pairs__for_each_pending(struct pairs *p,
			     void (*fn)(u64 key, u64 start, void *payload, void *arg), void *arg)
{
	struct pair_entry *e, *tmp;

	HASH_ITER(hh, p->keys, e, tmp)
	{
		if (e->pending)
			fn(e->key, e->start, e->payload, arg);
	}
}

const struct pairs_counts *pairs__counts(const struct pairs *p)
{
	return &p->c;
}

void pairs__add_exited(struct pairs *p, u64 exited)
{
	p->c.exited += exited;
}

void pairs__add_dropped(struct pairs *p, u64 replaced, u64 backwards)
{
	p->c.replaced += replaced;
	p->c.backwards += backwards;
}

void pairs__reset_counts(struct pairs *p)
{
	u64 keys = p->c.keys, peak = p->c.peak_keys, evicted = p->c.evicted;

	memset(&p->c, 0, sizeof(p->c));
	p->c.keys = keys;
	p->c.peak_keys = peak;
	p->c.evicted = evicted;
}

void pairs__print_drops(const struct pairs *p, FILE *fp, const char *who, const char *what,
			const char *why)
{
	struct rt_text t;

	pairs__emit_drops(p, rt_text__init(&t, fp), what, NULL, who, why);
}

bool pairs__dropped(const struct pairs *p)
{
	const struct pairs_counts *c = &p->c;

	return c->lost || c->exited || c->replaced || c->full || c->nomem || c->backwards;
}

/* Text: a sentence a line for each count that is not 0; JSON: the counts. */
static const struct rt_col drop_cols[] = {
	RT_COL(NULL, NULL, RT_STR, 0, 0, RT_LEFT | RT_NO_JSON),
	RT_COL("what", NULL, RT_STR, 0, 0, RT_NO_TEXT),
	RT_COL("from", NULL, RT_STR, 0, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	RT_COL("lost", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("exited", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("replaced", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("full", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("nomem", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("backwards", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
};
static const struct rt_desc drop_desc = { .type = "dropped", .cols = drop_cols, .ncols = 9 };
#define DROP_TEXT 1024

/* "WHO: N PRE WHAT POST" when N is not 0: a line of the drops' text. */
static size_t line(char *buf, size_t at, const char *who, u64 n, const char *pre, const char *what,
		   const char *post)
{
	return stats_drop_line(buf, at, DROP_TEXT, n, who, "%" PRIu64 " %s%s%s", n, pre, what,
			       post);
}

void pairs__emit_drops(const struct pairs *p, struct rt_sink *k, const char *what, const char *from,
		       const char *who, const char *why)
{
	const struct pairs_counts *c = &p->c;
	char text[DROP_TEXT] = "", full[80], repl[256];
	size_t n;

	snprintf(full, sizeof(full), " not counted: %zu pending at once is the limit",
		 p->conf.max_keys);
	snprintf(repl, sizeof(repl), " dropped: %s", why);
	n = line(text, 0, who, c->lost, "pending ", what, " dropped after lost events");
	n = line(text, n, who, c->exited, "pending ", what, " dropped at their task's exit");
	n = line(text, n, who, c->replaced, "", what, repl);
	n = line(text, n, who, c->full, "", what, full);
	n = line(text, n, who, c->nomem, "", what, " not counted: out of memory");
	line(text, n, who, c->backwards, "", what, " dropped: they ended before they started");
	rtable__begin(k, &drop_desc);
	if (pairs__dropped(p))
		rtable__row(k, (struct rt_val[]){ { .s = text },
						  { .s = what },
						  { .s = from },
						  { .u = c->lost },
						  { .u = c->exited },
						  { .u = c->replaced },
						  { .u = c->full },
						  { .u = c->nomem },
						  { .u = c->backwards } });
	rtable__end(k);
}

void pairs__print_usage(const struct pairs *p, FILE *fp, const char *who, const char *key)
{
	fprintf(fp,
		"%s: %" PRIu64 " %s entries at the end (peak %" PRIu64 "), %" PRIu64
		" evicted idle\n",
		who, p->c.keys, key, p->c.peak_keys, p->c.evicted);
}

static void on_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	(void)s, (void)cpu, (void)nr;
	pairs__lost(priv);
}

static void on_exit_rec(struct session *s, void *priv, const struct rec_task *t)
{
	(void)s;
	pairs__forget(priv, t->tid);
}

static const struct session_ops pairs_ops = { .lost = on_lost, .exit = on_exit_rec };

int pairs__add_hooks(struct pairs *p, struct session *s)
{
	return session__add_ops(s, &pairs_ops, p);
}
