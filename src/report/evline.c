// SPDX-License-Identifier: GPL-2.0
/* The event line, declared once, and its text sink: see evline.h. */
#include <string.h>

#include "engine/session.h"
#include "report/evline.h"
#include "sym/stack.h"

const struct rt_col evline_cols[EVL_NCOLS] = {
	[EVL_TIME] = { .name = "time_ns",
		       .title = "TIME",
		       .type = RT_U64,
		       .unit = RT_UNIT_NS,
		       .width = 26,
		       .flags = RT_LEFT },
	[EVL_COMM] = { .name = "comm", .title = "COMM", .type = RT_STR, .width = 16 },
	[EVL_PID] = { .name = "pid", .title = "PID", .type = RT_U64, .flags = RT_NO_TEXT },
	[EVL_TID] = { .name = "tid", .title = "TID", .type = RT_U64, .width = 7 },
	[EVL_CPU] = { .name = "cpu", .title = "CPU", .type = RT_U64, .width = 3 },
	[EVL_EVENT] = { .name = "event", .title = "EVENT", .type = RT_STR, .flags = RT_LEFT },
	[EVL_FIELDS] = { .name = "fields", .title = "FIELDS", .type = RT_FIELDS },
	[EVL_STACK] = { .name = "stack",
			.title = "STACK",
			.type = RT_STACK,
			.flags = RT_OMIT_EMPTY },
};

const struct rt_desc evline_desc = { .type = "event", .cols = evline_cols, .ncols = EVL_NCOLS };

const struct rt_desc evline_head = { .cols = evline_cols, .ncols = EVL_FIELDS };

/* "TIME COMM TID [CPU] " into @buf (64 bytes at least): the head before the name. */
static size_t head_fmt(char *buf, const char *ts, const char *comm, uint32_t tid, uint32_t cpu)
{
	char num[12];
	size_t n = 0, l = strlen(comm);
	int k = 0;

	/* the wall clock's 26 characters, or --tsc/--kvmclock's shorter SECONDS.USEC */
	n = strnlen(ts, 26);
	memcpy(buf, ts, n);
	buf[n++] = ' ';
	if (l > 16)
		l = 16;
	memset(buf + n, ' ', 16 - l);
	memcpy(buf + n + 16 - l, comm, l);
	n += 16;
	buf[n++] = ' ';
	do
		num[k++] = (char)('0' + tid % 10);
	while (tid /= 10);
	for (int pad = 7 - k; pad > 0; pad--)
		buf[n++] = ' ';
	while (k)
		buf[n++] = num[--k];
	buf[n++] = ' ';
	buf[n++] = '[';
	do
		num[k++] = (char)('0' + cpu % 10);
	while (cpu /= 10);
	for (int pad = 3 - k; pad > 0; pad--)
		buf[n++] = '0';
	while (k)
		buf[n++] = num[--k];
	buf[n++] = ']';
	buf[n++] = ' ';
	return n;
}

void evline__head(FILE *out, const char *ts, const char *comm, uint32_t tid, uint32_t cpu,
		  const char *name)
{
	char buf[192];
	size_t n = head_fmt(buf, ts, comm, tid, cpu), l = strlen(name);

	/* one write for the whole head (the part before the name is at most 68) */
	if (l + 2 <= sizeof(buf) - n) {
		memcpy(buf + n, name, l);
		n += l;
		buf[n++] = ':';
		buf[n++] = ' ';
		fwrite_unlocked(buf, 1, n, out);
		return;
	}
	fwrite_unlocked(buf, 1, n, out);
	fputs_unlocked(name, out);
	fputs_unlocked(": ", out);
}

void evline__row(struct rt_val *v, struct rt_stack *stk, struct session *s, struct evsel *ev,
		 const struct sample *smp, const char *comm, const char *name)
{
	/* the members each column reads, no more: this runs for every event trace prints */
	v[EVL_TIME] = (struct rt_val){ .u = session__wall_ns(s, smp->time) };
	if (!comm)
		comm = ev && ev->row ? ev->row_by : session__comm_at(s, smp->tid, smp->time);
	v[EVL_COMM] = (struct rt_val){ .s = comm };
	v[EVL_PID] = (struct rt_val){ .u = smp->pid };
	v[EVL_TID] = (struct rt_val){ .u = smp->tid };
	v[EVL_CPU] = (struct rt_val){ .u = smp->cpu };
	v[EVL_EVENT] = (struct rt_val){ .s = name ? name : ev->name };
	v[EVL_FIELDS] = (struct rt_val){ .rec = { .of = ev, .smp = smp } };
	*stk = (struct rt_stack){ .ctx = session__stack(s), .smp = smp };
	v[EVL_STACK] = (struct rt_val){ .stk = stk };
}

void evline__row_kept(struct rt_val *v, struct rt_stack *stk, char *comm, struct session *s,
		      struct evsel *ev, const struct sample *smp, const char *name)
{
	evline__row(v, stk, s, ev, smp, NULL, name);
	if (ev && ev->row)
		return; /* the inner profiler's name, as long as the event lives */
	snprintf(comm, EVL_COMM_LEN, "%s", v[EVL_COMM].s);
	v[EVL_COMM].s = comm;
}

/*
 * The text line of a row: TIME COMM TID [CPU] NAME: PAYLOAD, then the
 * stack's frames.  The time is the row's time_ns (session__wall_ns of the
 * sample's) as session__fmt_time shows it: the wall clock or --tsc's seconds.
 */
static void text_record(struct evline_text *t, const struct rt_desc *d, const struct rt_val *v);

static void text_row(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v)
{
	struct evline_text *t = (struct evline_text *)k;
	const struct sample *smp;
	char ts[40];

	if (d != &evline_desc) {
		text_record(t, d, v);
		return;
	}
	smp = v[EVL_FIELDS].rec.smp;
	if (t->prefix)
		fputs_unlocked(t->prefix, t->fp);
	session__fmt_wall(t->s, v[EVL_TIME].u, ts, sizeof(ts)); /* the row's time_ns */
	evline__head(t->fp, ts, v[EVL_COMM].s, (uint32_t)v[EVL_TID].u, (uint32_t)v[EVL_CPU].u,
		     v[EVL_EVENT].s);
	evsel__print_raw(t->s, (struct evsel *)v[EVL_FIELDS].rec.of, (struct sample *)smp, t->fp);
	fputc_unlocked('\n', t->fp);
	if (v[EVL_STACK].stk->ctx && (smp->nr_ips || smp->stack))
		stack__print(v[EVL_STACK].stk->ctx, smp, t->fp, "    ");
}

/*
 * A record of a profiler's own about one event (evline.h): after @prefix,
 * the head (its RT_ROW of evline_head), the payload (RT_FIELDS) and the
 * text of its RT_STR columns, in their order; then the stack's frames.
 */
static void text_record(struct evline_text *t, const struct rt_desc *d, const struct rt_val *v)
{
	const struct rt_stack *st = NULL;
	char ts[40], ind[16] = "";

	if (t->prefix)
		fputs_unlocked(t->prefix, t->fp);
	for (int i = 0; i < d->ncols; i++) {
		const struct rt_col *c = &d->cols[i];
		const struct rt_val *h = v[i].row.v;

		if (c->flags & RT_NO_TEXT)
			continue;
		if (c->type == RT_ROW && v[i].row.d == &evline_head) {
			session__fmt_time(t->s, h[EVL_FIELDS].rec.smp->time, ts, sizeof(ts));
			evline__head(t->fp, ts, h[EVL_COMM].s, (uint32_t)h[EVL_TID].u,
				     (uint32_t)h[EVL_CPU].u, h[EVL_EVENT].s);
		} else if (c->type == RT_FIELDS) {
			evsel__print_raw(t->s, (struct evsel *)v[i].rec.of,
					 (struct sample *)v[i].rec.smp, t->fp);
		} else if (c->type == RT_STR && v[i].s) {
			fputs_unlocked(v[i].s, t->fp);
		} else if (c->type == RT_STACK && v[i].stk && v[i].stk->ctx && v[i].stk->smp) {
			st = v[i].stk;
			snprintf(ind, sizeof(ind), "%*s", c->width, "");
		}
	}
	fputc_unlocked('\n', t->fp);
	if (st && (st->smp->nr_ips || st->smp->stack))
		stack__print(st->ctx, st->smp, t->fp, ind);
}

static const struct rt_sink_ops text_ops = { .row = text_row };

struct rt_sink *evline_text__init(struct evline_text *t, struct session *s, FILE *fp,
				  const char *prefix)
{
	*t = (struct evline_text){ .sink.ops = &text_ops, .s = s, .fp = fp, .prefix = prefix };
	return &t->sink;
}

struct rt_sink *evline__sink(union evline_sinks *u, struct session *s, FILE *fp)
{
	if (session__json(s))
		return rt_json__init(&u->json, fp, NULL);
	return evline_text__init(&u->text, s, fp, NULL);
}

void evline__emit(struct session *s, FILE *fp, const struct rt_desc *d, const struct rt_val *v)
{
	union evline_sinks u;

	rtable__one(evline__sink(&u, s, fp), d, v);
}

void evline__print(struct session *s, struct evsel *ev, const struct sample *smp, FILE *out,
		   const char *prefix)
{
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	struct evline_text t;

	evline__row(v, &stk, s, ev, smp, NULL, NULL);
	text_row(evline_text__init(&t, s, out, prefix), &evline_desc, v);
}
