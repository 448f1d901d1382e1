// SPDX-License-Identifier: GPL-2.0
/* ptr=/size= defaults and the report of outstanding allocations (memreport.h). */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/memory/memreport.h"
#include "expr/expr.h"
#include "report/stack_flame.h"
#include "sym/stack.h"
#include "util/json.h"
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

void memreport__stack(struct session *s, struct stackdb *db, u32 id, FILE *out)
{
	struct stack_ctx *ctx = session__stack(s);
	const struct frame *fr;
	int nf;

	fr = stackdb__frames(db, id, &nf);
	if (ctx && nf)
		stack__print_frames(ctx, fr, nf, out, "        ");
	else
		fprintf(out, "        [no stack]\n");
}

void memreport__json_head(struct session *s, struct json *j, const char *type, const char *scope,
			  u64 now)
{
	json__begin(j, session__out(s), type);
	json__str(j, "scope", scope);
	json__u64(j, "time_ns", session__wall_ns(s, now));
}

void memreport__json_stack(struct session *s, struct stackdb *db, u32 id, struct json *j)
{
	struct stack_ctx *ctx = session__stack(s);
	const struct frame *fr;
	int nf;

	fr = stackdb__frames(db, id, &nf);
	if (ctx)
		stack__json_frames(ctx, fr, nf, j, "stack");
}

/* --json: memreport__outstanding's records (memreport.h). */
static void json_outstanding(struct session *s, const struct memtrack_group *g, int n,
			     struct stackdb *db, u64 now, u64 than_ns, bool by_comm, int max,
			     const char *scope, u64 bytes, u64 objects)
{
	struct json j;

	memreport__json_head(s, &j, "outstanding", scope, now);
	json__u64(&j, "bytes", bytes);
	json__u64(&j, "objects", objects);
	json__u64(&j, "stacks", n);
	if (than_ns)
		json__u64(&j, "than_ns", than_ns);
	json__end(&j);
	for (int i = 0; i < n; i++) {
		memreport__json_head(s, &j, "row", scope, now);
		json__str(&j, "table", "outstanding");
		if (max && i >= max) {
			json__u64(&j, "more_stacks", n - max);
			json__end(&j);
			break;
		}
		json__u64(&j, "bytes", g[i].bytes);
		json__u64(&j, "objects", g[i].objects);
		json__u64(&j, "age_ns", now > g[i].oldest ? now - g[i].oldest : 0);
		if (by_comm)
			json__str(&j, "comm", g[i].comm);
		memreport__json_stack(s, db, g[i].stack, &j);
		json__end(&j);
	}
}

int memreport__outstanding(struct session *s, const struct memtrack *mt, struct stackdb *db,
			   u64 than_ns, bool by_comm, struct stack_flame *flame, const char *who,
			   int max, const char *scope)
{
	FILE *out = session__out(s);
	struct memtrack_group *g = NULL;
	u64 now = memreport__now(s), bytes = 0, objects = 0;
	char tbuf[64], than[32], age[32];
	int n = memtrack__groups(mt, now, than_ns, by_comm, &g);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		bytes += g[i].bytes;
		objects += g[i].objects;
	}
	if (session__json(s)) {
		json_outstanding(s, g, n, db, now, than_ns, by_comm, max, scope, bytes, objects);
		goto flame;
	}
	session__fmt_time(s, now, tbuf, sizeof(tbuf));
	fprintf(out, "%s %s: %llu bytes in %llu objects outstanding from %d stacks%s%s%s\n", tbuf,
		who, (unsigned long long)bytes, (unsigned long long)objects, n,
		than_ns ? " (older than " : "",
		than_ns ? units__fmt_ns(than_ns, than, sizeof(than)) : "", than_ns ? ")" : "");
	if (n)
		fprintf(out, "%12s %9s %9s%s\n", "BYTES", "OBJECTS", "OLDEST",
			by_comm ? "  COMM" : "");
	for (int i = 0; i < n; i++) {
		if (max && i >= max) {
			fprintf(out, "... %d more stacks\n", n - max);
			break;
		}
		units__fmt_ns(now > g[i].oldest ? now - g[i].oldest : 0, age, sizeof(age));
		fprintf(out, "%12llu %9llu %9s", (unsigned long long)g[i].bytes,
			(unsigned long long)g[i].objects, age);
		if (by_comm)
			fprintf(out, "  %s", g[i].comm ? g[i].comm : "?");
		fputc('\n', out);
		memreport__stack(s, db, g[i].stack, out);
	}
flame:
	for (int i = 0; flame && i < n; i++) {
		int nf;
		const struct frame *fr = stackdb__frames(db, g[i].stack, &nf);

		stack_flame__add_frames(flame, fr, nf, g[i].comm ? g[i].comm : who, NULL,
					g[i].objects, g[i].bytes);
	}
	free(g);
	return n;
}
