// SPDX-License-Identifier: GPL-2.0
/* ptr=/size= defaults and the report of outstanding allocations (memreport.h). */
#include <errno.h>
#include <stdlib.h>
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
	{ .name = "table", .type = RT_STR, .flags = RT_NO_TEXT },
	{ .name = "more_stacks", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
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
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	MEMREPORT_STAMP_COLS,
	{ .name = "bytes", .type = RT_U64, .unit = RT_UNIT_BYTES, .flags = RT_NO_TEXT },
	{ .name = "objects", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "stacks", .type = RT_U64, .unit = RT_UNIT_COUNT, .flags = RT_NO_TEXT },
	{ .name = "than_ns",
	  .type = RT_NS,
	  .unit = RT_UNIT_NS,
	  .flags = RT_NO_TEXT | RT_OMIT_ZERO },
};
static const struct rt_desc head_desc = { .type = "outstanding", .cols = head_cols, .ncols = 7 };

/* A group of allocations, with --comm its comm two spaces after the age; its stack under it. */
#define GROUP_COLS                                                                                 \
	MEMREPORT_STAMP_COLS, { .name = "table", .type = RT_STR, .flags = RT_NO_TEXT },            \
		{ .name = "bytes",                                                                 \
		  .title = "BYTES",                                                                \
		  .type = RT_U64,                                                                  \
		  .unit = RT_UNIT_BYTES,                                                           \
		  .width = 12 },                                                                   \
		{ .name = "objects",                                                               \
		  .title = "OBJECTS",                                                              \
		  .type = RT_U64,                                                                  \
		  .unit = RT_UNIT_COUNT,                                                           \
		  .width = 9 },                                                                    \
	{                                                                                          \
		.name = "age_ns", .title = "OLDEST", .type = RT_NS, .unit = RT_UNIT_NS, .width = 9 \
	}
static const struct rt_col group_cols[] = { GROUP_COLS, MEMREPORT_STACK_COL };
static const struct rt_col group_comm_cols[] = {
	GROUP_COLS,
	{ .type = RT_STR, .flags = RT_NO_JSON },
	{ .title = "COMM", .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	{ .name = "comm", .type = RT_STR, .flags = RT_NO_TEXT },
	MEMREPORT_STACK_COL,
};

int memreport__outstanding(struct session *s, const struct memtrack *mt, struct stackdb *db,
			   u64 than_ns, bool by_comm, struct stack_flame *flame, const char *who,
			   int max, const char *scope)
{
	const struct rt_desc gd = { .type = "row",
				    .cols = by_comm ? group_comm_cols : group_cols,
				    .ncols = by_comm ? 10 : 7 };
	struct memtrack_group *g = NULL;
	u64 now = memreport__now(s), wall = session__wall_ns(s, now), bytes = 0, objects = 0;
	char tbuf[64], than[32], text[256];
	int n = memtrack__groups(mt, now, than_ns, by_comm, &g);
	union rt_sinks u;
	struct rt_sink *k = memreport__sink(s, &u);

	if (n < 0)
		return n;
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
		if (by_comm)
			rtable__row(k, (struct rt_val[]){
					       { .s = scope },
					       { .u = wall },
					       { .s = "outstanding" },
					       { .u = g[i].bytes },
					       { .u = g[i].objects },
					       { .u = now > g[i].oldest ? now - g[i].oldest : 0 },
					       { .s = "" },
					       { .s = g[i].comm ? g[i].comm : "?" },
					       { .s = g[i].comm },
					       { .stk = &st } });
		else
			rtable__row(k, (struct rt_val[]){
					       { .s = scope },
					       { .u = wall },
					       { .s = "outstanding" },
					       { .u = g[i].bytes },
					       { .u = g[i].objects },
					       { .u = now > g[i].oldest ? now - g[i].oldest : 0 },
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
