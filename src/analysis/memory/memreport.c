// SPDX-License-Identifier: GPL-2.0
/* ptr=/size= defaults and the report of outstanding allocations (memreport.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/memory/memreport.h"
#include "expr/expr.h"
#include "report/stack_flame.h"
#include "sym/stack.h"
#include "util/units.h"

static const char *const size_fields[] = { "bytes_alloc", "bytes_req", "size", NULL };

u64 memreport__now(struct session *s)
{
	return session__now(s);
}

int memreport__size(struct session *s, struct evsel *ev, struct expr **size)
{
	const char *sz = ev->spec ? evspec__attr(ev->spec, "size") : NULL;
	struct field f;
	char err[512];

	*size = NULL;
	for (int i = 0; !sz && size_fields[i]; i++)
		if (!evsel__field(ev, size_fields[i], &f))
			sz = size_fields[i];
	if (!sz)
		return 0;
	*size = expr__compile(sz, ev, err, sizeof(err));
	if (!*size)
		return session__usage_err(s, "%s: size=%s: %s", ev->name, sz, err);
	return 0;
}

int memreport__exprs(struct session *s, struct evsel *ev, bool alloc, struct expr **ptr,
		     struct expr **size)
{
	const char *p = ev->spec ? evspec__attr(ev->spec, "ptr") : NULL;
	struct field f;
	char err[512];

	*ptr = NULL;
	if (size)
		*size = NULL;
	if (!p && evsel__field(ev, "ptr", &f))
		return session__usage_err(s,
					  "%s has no field 'ptr': say which value is the address "
					  "with ptr=EXPR (fields: perf-prof list -v %s)",
					  ev->name, ev->name);
	*ptr = expr__compile(p ? p : "ptr", ev, err, sizeof(err));
	if (!*ptr)
		return session__usage_err(s, "%s: ptr=%s: %s", ev->name, p ? p : "ptr", err);
	return alloc && size ? memreport__size(s, ev, size) : 0;
}

static int add_ev(struct session *s, struct evsel *ev, bool alloc, const char *key,
		  void (*fn)(struct session *s, void *priv, struct evsel *ev, struct sample *smp),
		  void *owner, struct memreport_ev **list)
{
	const char *text = evspec__attr(ev->spec, "key");
	struct memreport_ev *me = calloc(1, sizeof(*me));
	char err[512];

	if (!me)
		return session__set_err(s, -ENOMEM, "out of memory");
	me->owner = owner;
	me->next = *list;
	*list = me;
	me->alloc = alloc;
	evsel__set_handler(ev, fn, me);
	if (!text && !evspec__attr(ev->spec, "ptr"))
		text = key;
	if (!text)
		return memreport__exprs(s, ev, alloc, &me->ptr, alloc ? &me->size : NULL);
	me->ptr = expr__compile(text, ev, err, sizeof(err));
	if (!me->ptr)
		return session__usage_err(s, "%s: key %s: %s", ev->name, text, err);
	return alloc ? memreport__size(s, ev, &me->size) : 0;
}

int memreport__add_spec(struct session *s, struct ev_spec *spec, bool alloc, bool callchain,
			const char *key,
			void (*fn)(struct session *s, void *priv, struct evsel *ev,
				   struct sample *smp),
			void *owner, struct memreport_ev **list)
{
	struct evsel *last = NULL;
	int err;

	for (struct evsel *e = session__evsels(s); e; e = e->next)
		last = e;
	err = session__add_spec(s, spec, &(struct evsel_conf){ .callchain = callchain });
	if (err < 0)
		return err;
	for (struct evsel *e = last ? last->next : session__evsels(s); e; e = e->next) {
		err = add_ev(s, e, alloc, key, fn, owner, list);
		if (err)
			return err;
	}
	return 0;
}

void memreport__evs_free(struct memreport_ev **list)
{
	while (*list) {
		struct memreport_ev *me = *list;

		*list = me->next;
		expr__free(me->ptr);
		expr__free(me->size);
		free(me);
	}
}

struct rt_sink *memreport__sink(struct session *s, union rt_sinks *u)
{
	return session__json(s) ? rt_json__init(&u->json, session__out(s), NULL)
				: rt_text__init(&u->text, session__out(s));
}

void memreport__stack_val(struct session *s, struct stackdb *db, u32 id, struct rt_stack *st)
{
	*st = (struct rt_stack){ .ctx = session__stack(s) };
	st->fr = stackdb__frames(db, id, &st->nf);
}

/* "... N more stacks" under a table cut at its first rows. */
static const struct rt_col more_cols[] = {
	MEMREPORT_STAMP_COLS,
	RT_COL("table", NULL, RT_STR, 0, 0, RT_NO_TEXT),
	RT_COL("more_stacks", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL(NULL, NULL, RT_STR, 0, 0, RT_LEFT | RT_NO_JSON),
};
static const struct rt_desc more_desc = { .type = "row", .cols = more_cols, .ncols = 5 };

void memreport__more(struct session *s, struct rt_sink *k, const char *scope, u64 now,
		     const char *table, u64 n)
{
	char text[64];

	snprintf(text, sizeof(text), "... %llu more stacks", (unsigned long long)n);
	rtable__begin(k, &more_desc);
	rtable__row(k, (struct rt_val[]){ { .s = scope },
					  { .u = session__wall_ns(s, now) },
					  { .s = table },
					  { .u = n },
					  { .s = text } });
	rtable__end(k);
}

/* The record over the table: a sentence in text. */
static const struct rt_col head_cols[] = {
	RT_COL(NULL, NULL, RT_STR, 0, 0, RT_LEFT | RT_NO_JSON),
	MEMREPORT_STAMP_COLS,
	RT_COL("bytes", NULL, RT_U64, RT_UNIT_BYTES, 0, RT_NO_TEXT),
	RT_COL("objects", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("stacks", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("than_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT | RT_OMIT_ZERO),
};
static const struct rt_desc head_desc = { .type = "outstanding", .cols = head_cols, .ncols = 7 };

/*
 * A group of allocations, its stack under it; with --comm its comm (text:
 * two spaces after the age): without, the two comm columns are hidden.
 */
enum { G_COMM_TEXT = 6, G_COMM, G_NCOLS = 9 };
static const struct rt_col group_cols[G_NCOLS] = {
	MEMREPORT_STAMP_COLS,
	RT_COL("table", NULL, RT_STR, 0, 0, RT_NO_TEXT),
	RT_COL("bytes", "BYTES", RT_U64, RT_UNIT_BYTES, 12, 0),
	RT_COL("objects", "OBJECTS", RT_U64, RT_UNIT_COUNT, 9, 0),
	RT_COL("age_ns", "OLDEST", RT_NS, RT_UNIT_NS, 9, 0),
	[G_COMM_TEXT] = RT_COL(NULL, "COMM", RT_STR, 0, 0, RT_LEFT | RT_GAP | RT_NO_JSON),
	[G_COMM] = RT_COL("comm", NULL, RT_STR, 0, 0, RT_NO_TEXT),
	MEMREPORT_STACK_COL,
};

int memreport__outstanding(struct session *s, const struct memtrack *mt, struct stackdb *db,
			   u64 than_ns, bool by_comm, struct stack_flame *flame, const char *who,
			   int max, const char *scope)
{
	struct rt_col cols[G_NCOLS];
	const struct rt_desc gd = { .type = "row", .cols = cols, .ncols = G_NCOLS };
	struct memtrack_group *g = NULL;
	u64 now = memreport__now(s), wall = session__wall_ns(s, now), bytes = 0, objects = 0;
	char tbuf[64], than[32], text[256];
	int n = memtrack__groups(mt, now, than_ns, by_comm, &g);
	union rt_sinks u;
	struct rt_sink *k = memreport__sink(s, &u);

	if (n < 0)
		return n;
	memcpy(cols, group_cols, sizeof(cols));
	if (!by_comm)
		cols[G_COMM_TEXT].flags = cols[G_COMM].flags = RT_NO_TEXT | RT_NO_JSON;
	for (int i = 0; i < n; i++) {
		bytes += g[i].bytes;
		objects += g[i].objects;
	}
	session__fmt_time(s, now, tbuf, sizeof(tbuf));
	snprintf(text, sizeof(text),
		 "%s %s: %llu bytes in %llu objects outstanding from %d stacks%s%s%s", tbuf, who,
		 (unsigned long long)bytes, (unsigned long long)objects, n,
		 than_ns ? " (older than " : "",
		 than_ns ? units__fmt_ns(than_ns, than, sizeof(than)) : "", than_ns ? ")" : "");
	rtable__begin(k, &head_desc);
	rtable__row(k, (struct rt_val[]){ { .s = text },
					  { .s = scope },
					  { .u = wall },
					  { .u = bytes },
					  { .u = objects },
					  { .u = (u64)n },
					  { .u = than_ns } });
	rtable__end(k);
	if (n)
		rtable__begin(k, &gd);
	for (int i = 0; i < n && (!max || i < max); i++) {
		struct rt_stack st;

		memreport__stack_val(s, db, g[i].stack, &st);
		rtable__row(k,
			    (struct rt_val[]){ { .s = scope },
					       { .u = wall },
					       { .s = "outstanding" },
					       { .u = g[i].bytes },
					       { .u = g[i].objects },
					       { .u = now > g[i].oldest ? now - g[i].oldest : 0 },
					       { .s = g[i].comm ? g[i].comm : "?" },
					       { .s = g[i].comm },
					       { .stk = &st } });
	}
	if (n)
		rtable__end(k);
	if (max && n > max)
		memreport__more(s, k, scope, now, "outstanding", (u64)(n - max));
	for (int i = 0; flame && i < n; i++) {
		int nf;
		const struct frame *fr = stackdb__frames(db, g[i].stack, &nf);

		stack_flame__add_frames(flame, fr, nf, g[i].comm ? g[i].comm : who, NULL,
					g[i].objects, g[i].bytes);
	}
	free(g);
	return n;
}
