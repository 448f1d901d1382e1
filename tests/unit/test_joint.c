// SPDX-License-Identifier: GPL-2.0
/*
 * Joint analysis on an injected session (engine/joint.c): each event's
 * samples go to the hook set that added it and then to its outer set's
 * inner_sample; an inner set's -N stops it alone; a set of
 * session__add_ops still sees every sample; an inner set's lines per event
 * go nowhere (session__event_out); an aggregating inner profiler's rows
 * (the report sinks on its tapped stream) reach the outer's inner_sample as
 * events that print their fields as text and JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/session.h"
#include "report/hist.h"
#include "report/rtable.h"
#include "synth.h"
#include "util/json.h"
#include "ut.h"

struct rec {
	int seen[4];   /* per event idx */
	int inner[4];  /* inner_sample, per event idx */
	u64 last_time; /* of the last sample seen, any hook */
	bool out_of_order;
};

static void on_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct rec *r = priv;

	(void)s;
	r->seen[ev->idx]++;
	r->out_of_order |= smp->time < r->last_time;
	r->last_time = smp->time;
}

static void on_inner(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct rec *r = priv;

	(void)s;
	r->inner[ev->idx]++;
	r->out_of_order |= smp->time < r->last_time;
	r->last_time = smp->time;
}

static const struct session_ops outer_ops = { .sample = on_sample, .inner_sample = on_inner };
static const struct session_ops inner_ops = { .sample = on_sample };

static void inject(struct session *s, struct synth *b, struct evsel *ev, u64 time)
{
	struct synth_sample w = { .pid = 7, .tid = 7, .cpu = 0, .time = time, .period = 1 };

	session__inject(s, synth__sample(b, ev, &w), 0);
}

static void test_owners(void)
{
	struct engine_conf conf = { 0 };
	struct session *s = session__new(&conf, stderr);
	struct rec outer = { 0 }, in1 = { 0 }, in2 = { 0 }, all = { 0 };
	struct evsel_conf c = { .type = PERF_TYPE_SOFTWARE, .name = "a" };
	struct evsel *a, *b, *d;
	int o, i1, i2;
	struct synth sb;

	CHECK(s != NULL, "session");
	if (!s)
		return;
	CHECK(session__add_ops(s, &inner_ops, &all) == 0, "a set of every sample");
	o = session__add_profiler(s, &outer_ops, &outer, -1, 0);
	i1 = session__add_profiler(s, &inner_ops, &in1, o, 0);
	i2 = session__add_profiler(s, &inner_ops, &in2, o, 3); /* its -N 3 */
	CHECK(o == 1 && i1 == 2 && i2 == 3, "indexes %d %d %d", o, i1, i2);
	session__own_events(s, o);
	a = session__add_event(s, &c);
	session__own_events(s, i1);
	c.name = "b";
	b = session__add_event(s, &c);
	session__own_events(s, i2);
	c.name = "d";
	d = session__add_event(s, &c);
	session__own_events(s, -1);
	CHECK(a && b && d && a->owner == o && b->owner == i1 && d->owner == i2, "owners");
	/* lines per event: the outer's and every-sample sets' print, inner sets' do not */
	session__set_out(s, stdout, NULL);
	CHECK(session__event_out(s, &outer) == stdout && session__event_out(s, &all) == stdout,
	      "the outer prints its lines per event");
	CHECK(session__event_out(s, &in1) == NULL && session__event_out(s, &in2) == NULL,
	      "an inner profiler prints none");
	CHECK(session__inject_begin(s) == 0, "inject");
	for (int k = 0; k < 5; k++) {
		inject(s, &sb, a, 100 + 10 * k);
		inject(s, &sb, b, 101 + 10 * k);
		inject(s, &sb, d, 102 + 10 * k);
	}
	/* the outer: its own through sample, the inner ones' through inner_sample */
	CHECK(outer.seen[0] == 5 && outer.seen[1] == 0 && outer.seen[2] == 0,
	      "outer sees a: %d %d %d", outer.seen[0], outer.seen[1], outer.seen[2]);
	CHECK(outer.inner[0] == 0 && outer.inner[1] == 5 && outer.inner[2] == 3,
	      "outer's inner_sample: %d %d %d", outer.inner[0], outer.inner[1], outer.inner[2]);
	CHECK(!outer.out_of_order, "in time order");
	/* each inner set sees its own only; -N 3 stops the second alone */
	CHECK(in1.seen[0] == 0 && in1.seen[1] == 5 && in1.seen[2] == 0, "inner 1");
	CHECK(in2.seen[0] == 0 && in2.seen[1] == 0 && in2.seen[2] == 3, "inner 2 stopped at 3");
	CHECK(d->nr_samples == 3, "d delivered 3 times: %llu", (unsigned long long)d->nr_samples);
	/* a set of session__add_ops: every sample delivered */
	CHECK(all.seen[0] == 5 && all.seen[1] == 5 && all.seen[2] == 3, "all: %d %d %d",
	      all.seen[0], all.seen[1], all.seen[2]);
	session__delete(s);
}

/*
 * A module's set that the outer profiler's init registered (multi-trace's
 * multipoint_ev): its inner_sample gets the inner profiler's samples, as the
 * outer's own set's would; a module set of the inner profiler's gets none.
 */
static void test_module_inner(void)
{
	struct engine_conf conf = { 0 };
	struct session *s = session__new(&conf, stderr);
	struct rec outer = { 0 }, mod = { 0 }, in = { 0 }, inmod = { 0 };
	struct evsel_conf c = { .type = PERF_TYPE_SOFTWARE, .name = "a" };
	static const struct session_ops bare = { 0 };
	struct evsel *a, *b;
	struct synth sb;
	int o, i;

	CHECK(s != NULL, "session");
	if (!s)
		return;
	o = session__add_profiler(s, &bare, &outer, -1, 0); /* no hooks of its own */
	i = session__add_profiler(s, &inner_ops, &in, o, 0);
	session__own_events(s, o);
	CHECK(!session__add_ops(s, &outer_ops, &mod), "the outer's module set");
	a = session__add_event(s, &c);
	session__own_events(s, i);
	CHECK(!session__add_ops(s, &outer_ops, &inmod), "the inner's module set");
	c.name = "b";
	b = session__add_event(s, &c);
	session__own_events(s, -1);
	CHECK(a && b, "events");
	CHECK(session__inject_begin(s) == 0, "inject");
	for (int k = 0; k < 4; k++) {
		inject(s, &sb, a, 100 + 10 * k);
		inject(s, &sb, b, 101 + 10 * k);
	}
	CHECK(mod.seen[0] == 4 && mod.seen[1] == 0, "module: the outer's samples %d %d",
	      mod.seen[0], mod.seen[1]);
	CHECK(mod.inner[0] == 0 && mod.inner[1] == 4, "module's inner_sample: %d %d", mod.inner[0],
	      mod.inner[1]);
	CHECK(inmod.seen[1] == 4 && inmod.inner[0] == 0 && inmod.inner[1] == 0,
	      "the inner's module: its samples, no inner_sample (%d %d)", inmod.seen[1],
	      inmod.inner[1]);
	CHECK(in.seen[1] == 4 && !mod.out_of_order, "inner sees its own, in order");
	session__delete(s);
}

/* A sink that keeps what it gets (as test_rtable's). */
struct capture {
	struct rt_sink sink;
	int begins, rows, ends;
	const struct rt_desc *d;
	char first[64];
};

static void cap_begin(struct rt_sink *k, const struct rt_desc *d)
{
	struct capture *c = (struct capture *)k;

	c->begins++;
	c->d = d;
}

static void cap_row(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v)
{
	struct capture *c = (struct capture *)k;

	(void)d;
	if (!c->rows++)
		snprintf(c->first, sizeof(c->first), "%s", v[0].s);
}

static void cap_end(struct rt_sink *k, const struct rt_desc *d)
{
	(void)d;
	((struct capture *)k)->ends++;
}

static const struct rt_sink_ops cap_ops = { .begin = cap_begin, .row = cap_row, .end = cap_end };

static const struct rt_col row_cols[] = {
	{ .name = "comm", .title = "COMM", .type = RT_STR, .width = 8, .flags = RT_LEFT },
	{ .name = "tid", .title = "TID", .type = RT_U64, .width = 6 },
	{ .type = RT_STATS, .unit = RT_UNIT_NS },
	{ .name = "slow", .title = "SLOW", .type = RT_U64, .width = 5, .flags = RT_OMIT_ZERO },
	{ .title = "label", .type = RT_STR, .flags = RT_NO_JSON },
	{ .name = "lat", .title = "LAT", .type = RT_NS, .width = 9 },
};
static const struct rt_desc row_desc = { .type = "row", .cols = row_cols, .ncols = 6 };

/* The table's rows on a stream: through the text sink and the JSON sink. */
static void emit_rows(FILE *fp, const struct rt_val *v)
{
	struct rt_text t;
	struct rt_json js;
	struct rt_sink *k = rt_text__init(&t, fp);

	rtable__fit(k, &row_desc, v);
	rtable__begin(k, &row_desc);
	rtable__row(k, v);
	rtable__end(k);
	k = rt_json__init(&js, fp, NULL);
	rtable__begin(k, &row_desc);
	rtable__row(k, v);
	rtable__end(k);
}

/* An inner profiler's report sinks on its tapped stream render into the tap. */
static void test_tap(void)
{
	struct hist *h = hist__new();
	struct capture cap = { .sink.ops = &cap_ops };
	char text[512], *buf = NULL;
	const char *got;
	size_t len = 0;
	FILE *tapped = fopen("/dev/null", "w"), *mem;
	struct rt_val v[6] = { { .s = "bash" }, { .u = 7 },   { .h = h },
			       { .u = 0 },	{ .s = "x" }, { .u = 1500 } };

	CHECK(h && tapped, "setup");
	if (!h || !tapped)
		return;
	hist__record(h, 1000);
	hist__record(h, 1000);
	/* the row as an event's text: the columns JSON writes, NAME=CELL */
	CHECK(rt_fields__text(&row_desc, v, text, sizeof(text)) == strlen(text), "length");
	got = text;
	CHECK_STR(got, "comm=bash tid=7 calls=2 total=2.000us min=1.000us avg=1.000us "
		       "p50=1.000us p95=1.000us p99=1.000us max=1.000us lat=1.500us");
	/* a tapped stream: both sinks render into the tap, nothing written */
	CHECK(rtable__tap(tapped, &cap.sink) == 0, "tap");
	emit_rows(tapped, v);
	CHECK(cap.begins == 2 && cap.rows == 2 && cap.ends == 2 && cap.d == &row_desc,
	      "the text and JSON sinks' rows reach the tap: %d %d %d", cap.begins, cap.rows,
	      cap.ends);
	got = cap.first;
	CHECK_STR(got, "bash");
	/* another stream is not tapped */
	mem = open_memstream(&buf, &len);
	emit_rows(mem, v);
	fclose(mem);
	CHECK(cap.rows == 2 && len > 0 && strstr(buf, "\"type\":\"row\",\"comm\":\"bash\""),
	      "an untapped stream renders: %s", buf ? buf : "");
	free(buf);
	/* untapped: nothing more to the tap */
	CHECK(rtable__tap(tapped, NULL) == 0, "untap");
	emit_rows(tapped, v);
	CHECK(cap.rows == 2, "no tap after removal");
	fclose(tapped);
	hist__delete(h);
}

/* A row as an event: to the outer's inner_sample only, its fields as text and JSON. */
static void test_row_event(void)
{
	struct engine_conf conf = { 0 };
	struct session *s = session__new(&conf, stderr);
	struct rec outer = { 0 }, in = { 0 };
	struct evsel ev = { .name = "top:row", .row = true };
	static const char payload[] = "key=12 n=3\0\"key\":12,\"n\":3";
	struct sample smp = { .time = 5, .raw = payload, .raw_size = sizeof(payload) };
	struct json j;
	char *buf = NULL, *m;
	size_t len = 0;
	FILE *mem;
	int o, i;

	CHECK(s != NULL, "session");
	if (!s)
		return;
	o = session__add_profiler(s, &outer_ops, &outer, -1, 0);
	i = session__add_profiler(s, &inner_ops, &in, o, 0);
	ev.owner = i;
	session__set_out(s, stdout, NULL);
	session__set_inner_out(s, i, stderr);
	CHECK(session__out(s) == stdout, "the inner's stream only while its report hooks run");
	session__deliver_row(s, &ev, &smp);
	CHECK(outer.inner[0] == 1 && outer.seen[0] == 0 && in.seen[0] == 0,
	      "the row to the outer's inner_sample only: %d %d %d", outer.inner[0], outer.seen[0],
	      in.seen[0]);
	mem = open_memstream(&buf, &len);
	evsel__print_raw(s, &ev, &smp, mem);
	fclose(mem);
	CHECK_STR(buf, "key=12 n=3");
	free(buf);
	CHECK(json__frag_begin(&j) == 0, "frag");
	evsel__json_fields(&ev, &smp, &j, "fields");
	m = json__frag_end(&j);
	CHECK_STR(m, "\"fields\":{\"key\":12,\"n\":3}");
	free(m);
	session__delete(s);
}

/* Without owners (one profiler, session__add_ops): every set sees every sample, as before. */
static void test_no_owner(void)
{
	struct engine_conf conf = { 0 };
	struct session *s = session__new(&conf, stderr);
	struct rec r1 = { 0 }, r2 = { 0 };
	struct evsel_conf c = { .type = PERF_TYPE_SOFTWARE, .name = "a" };
	struct evsel *a;
	struct synth sb;

	CHECK(s && !session__add_ops(s, &outer_ops, &r1) && !session__add_ops(s, &inner_ops, &r2),
	      "session");
	if (!s)
		return;
	a = session__add_event(s, &c);
	CHECK(a && a->owner == -1, "no owner");
	session__set_out(s, stdout, NULL);
	CHECK(session__event_out(s, &r1) == stdout && session__event_out(s, &r2) == stdout,
	      "alone: lines per event printed");
	CHECK(session__inject_begin(s) == 0, "inject");
	inject(s, &sb, a, 100);
	CHECK(r1.seen[0] == 1 && r2.seen[0] == 1 && r1.inner[0] == 0, "both sets, sample hook");
	session__delete(s);
}

int main(void)
{
	test_owners();
	test_module_inner();
	test_tap();
	test_row_event();
	test_no_owner();
	return ut_done("joint");
}
