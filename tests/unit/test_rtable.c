// SPDX-License-Identifier: GPL-2.0
/*
 * One report description, three sinks: the same rows of one table go to
 * the text table and to JSON lines, each checked byte for byte, and to a
 * sink written here that captures them (a new sink is one struct of ops).
 */
#include <math.h>
#include <stdlib.h>

#include "report/hist.h"
#include "report/log2_hist.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "util/json.h"
#include "ut.h"

static const struct rt_col cols[] = {
	{ .name = "comm", .title = "COMM", .type = RT_STR, .flags = RT_LEFT | RT_FIT },
	{ .name = "pid", .type = RT_U64, .flags = RT_NO_TEXT },
	{ .name = "tid", .title = "TID", .type = RT_U64, .width = 5 },
	{ .type = RT_STATS, .unit = RT_UNIT_NS },
	{ .name = "than_ns", .type = RT_NS, .flags = RT_NO_TEXT },
	{ .name = "slow", .title = ">1ms", .type = RT_U64, .width = 10, .flags = RT_PCT_OF },
	{ .name = "sleep",
	  .title = "sleep",
	  .type = RT_STATS,
	  .unit = RT_UNIT_NS,
	  .flags = RT_SUBROW | RT_OMIT_EMPTY },
	{ .name = "ratio", .title = "RATIO", .type = RT_F64, .decimals = 2, .width = 6 },
	{ .name = "addr", .title = "ADDR", .type = RT_HEX, .obj = "more", .width = 6 },
	{ .name = "on", .title = "ON", .type = RT_BOOL, .obj = "more", .width = 3 },
	{ .name = "hist", .type = RT_LOG2, .unit = RT_UNIT_NS, .flags = RT_OMIT_EMPTY },
};
static const struct rt_desc desc = { .type = "row", .cols = cols, .ncols = 11 };

#define NR_ROWS 2
static struct hist *tot[NR_ROWS], *sleep_h[NR_ROWS];
static struct log2_hist l2[NR_ROWS];

static void row_vals(int r, struct rt_val *v)
{
	static const char *const comms[] = { "bash", "a \"long\" name" };

	memset(v, 0, sizeof(*v) * desc.ncols);
	v[0].s = comms[r];
	v[1].u = 100 + r;
	v[2].u = 1000 + r;
	v[3].h = tot[r];
	v[4].u = 1000000;
	v[5].u = r;
	v[5].n = hist__count(tot[r]);
	v[6].h = sleep_h[r];
	v[7].d = 1.0 / 3 + r;
	v[8].u = 0x10 + r;
	v[9].b = r;
	v[10].l2 = &l2[r];
}

static void emit(struct rt_sink *k)
{
	struct rt_val v[11];

	for (int r = 0; r < NR_ROWS; r++) {
		row_vals(r, v);
		rtable__fit(k, &desc, v);
	}
	rtable__begin(k, &desc);
	for (int r = 0; r < NR_ROWS; r++) {
		row_vals(r, v);
		rtable__row(k, v);
	}
	rtable__end(k);
}

/* A third sink: keeps what a row says, as a metrics or SQL sink would read it. */
struct capture {
	struct rt_sink sink;
	int begun, rows, ended;
	uint64_t calls, tids;
	char comms[64];
};

static void cap_begin(struct rt_sink *k, const struct rt_desc *d)
{
	((struct capture *)k)->begun += d->ncols;
}

static void cap_row(struct rt_sink *k, const struct rt_desc *d, const struct rt_val *v)
{
	struct capture *c = (struct capture *)k;

	c->rows++;
	for (int i = 0; i < d->ncols; i++) {
		if (d->cols[i].type == RT_STATS && !d->cols[i].name)
			c->calls += hist__count(v[i].h);
		else if (d->cols[i].name && !strcmp(d->cols[i].name, "tid"))
			c->tids += v[i].u;
		else if (d->cols[i].name && !strcmp(d->cols[i].name, "comm"))
			snprintf(c->comms + strlen(c->comms), sizeof(c->comms) - strlen(c->comms),
				 "%s,", v[i].s);
	}
}

static void cap_end(struct rt_sink *k, const struct rt_desc *d)
{
	(void)d;
	((struct capture *)k)->ended++;
}

static const struct rt_sink_ops cap_ops = { .begin = cap_begin, .row = cap_row, .end = cap_end };

static const char text_want[] =
	"COMM            TID      calls       total         min         avg         p50"
	"         p95         p99         max       >1ms  RATIO   ADDR  ON\n"
	"bash           1000          3     6.000ms     1.000ms     2.000ms     2.002ms"
	"     3.000ms     3.000ms     3.000ms   0 (0.0%)   0.33   0x10  no\n"
	"  sleep                      1   500.000us   500.000us   500.000us   500.000us"
	"   500.000us   500.000us   500.000us\n"
	"a \"long\" name  1001          1       800ns       800ns       800ns       800ns"
	"       800ns       800ns       800ns 1 (100.0%)   1.33   0x11 yes\n";

static const char json_want[] =
	"{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":7,\"interval_ns\":9,\"comm\":\"bash\","
	"\"pid\":100,\"tid\":1000,\"count\":3,\"total_ns\":6000000,\"min_ns\":1000000,"
	"\"avg_ns\":2000000,\"p50_ns\":2002943,\"p95_ns\":3000000,\"p99_ns\":3000000,"
	"\"max_ns\":3000000,\"than_ns\":1000000,\"slow\":0,\"sleep\":{\"count\":1,"
	"\"total_ns\":500000,\"min_ns\":500000,\"avg_ns\":500000,\"p50_ns\":500000,"
	"\"p95_ns\":500000,\"p99_ns\":500000,\"max_ns\":500000},\"ratio\":0.333333333333333,"
	"\"more\":{\"addr\":\"0x10\",\"on\":false},\"hist\":[{\"lo_ns\":524288,"
	"\"hi_ns\":1048575,\"count\":1},{\"lo_ns\":1048576,\"hi_ns\":2097151,\"count\":1},"
	"{\"lo_ns\":2097152,\"hi_ns\":4194303,\"count\":1}]}\n"
	"{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":7,\"interval_ns\":9,"
	"\"comm\":\"a \\\"long\\\" name\",\"pid\":101,\"tid\":1001,\"count\":1,\"total_ns\":800,"
	"\"min_ns\":800,\"avg_ns\":800,\"p50_ns\":800,\"p95_ns\":800,\"p99_ns\":800,"
	"\"max_ns\":800,\"than_ns\":1000000,\"slow\":1,\"ratio\":1.33333333333333,"
	"\"more\":{\"addr\":\"0x11\",\"on\":true}}\n";

/* RT_GAP, RT_NAN_DASH, RT_PCT_SIGN: text formats; JSON unchanged (NaN: null) */
static void test_flags(void)
{
	static const struct rt_col c[] = {
		{ .name = "cpu", .title = "CPU", .type = RT_U64, .width = 3 },
		{ .name = "pct",
		  .title = "%",
		  .type = RT_F64,
		  .width = 6,
		  .decimals = 1,
		  .flags = RT_PCT_SIGN },
		{ .name = "stat",
		  .title = "STAT",
		  .type = RT_F64,
		  .width = 5,
		  .decimals = 1,
		  .flags = RT_GAP | RT_NAN_DASH },
		{ .title = "STACK",
		  .type = RT_STR,
		  .flags = RT_LEFT | RT_GAP | RT_HEAD_ONLY | RT_NO_JSON },
	};
	const struct rt_desc d = { .type = "row", .cols = c, .ncols = 4 };
	union rt_sinks u;
	char *out = NULL, buf[64], *line = buf;
	size_t len = 0;
	FILE *fp;

	for (int json = 0; json < 2; json++) {
		struct rt_sink *k;

		fp = open_memstream(&out, &len);
		k = json ? rt_json__init(&u.json, fp, NULL) : rt_text__init(&u.text, fp);
		rtable__begin(k, &d);
		rtable__row(k, (struct rt_val[]){
				       { .u = 0 }, { .d = 12.5 }, { .d = 3.3 }, { .s = "x" } });
		rtable__row(
			k, (struct rt_val[]){ { .u = 1 }, { .d = 0 }, { .d = NAN }, { .s = "x" } });
		rtable__end(k);
		fclose(fp);
		if (json)
			CHECK_STR(out, "{\"type\":\"row\",\"cpu\":0,\"pct\":12.5,\"stat\":3.3}\n"
				       "{\"type\":\"row\",\"cpu\":1,\"pct\":0,\"stat\":null}\n");
		else
			CHECK_STR(out, "CPU      %   STAT  STACK\n"
				       "  0  12.5%    3.3\n"
				       "  1   0.0%      -\n");
		free(out);
	}
	rt_text__line(c, 3, NULL, buf, sizeof(buf)); /* not the stack */
	CHECK_STR(line, "CPU      %   STAT");
}

/* RT_ROW: a row of another description as an object of the row, or null */
static void test_row(void)
{
	static const struct rt_col in_cols[] = {
		{ .name = "tid", .title = "TID", .type = RT_U64 },
		{ .name = "comm", .title = "COMM", .type = RT_STR },
	};
	static const struct rt_desc in = { .cols = in_cols, .ncols = 2 };
	static const struct rt_col out_cols[] = {
		{ .name = "key", .title = "KEY", .type = RT_U64, .width = 3 },
		{ .name = "start", .type = RT_ROW, .flags = RT_OMIT_EMPTY },
		{ .name = "end", .type = RT_ROW },
		{ .type = RT_ROW }, /* no name: its members in the row */
	};
	static const struct rt_desc out_d = { .type = "slow", .cols = out_cols, .ncols = 4 };
	const struct rt_val a[] = { { .u = 7 }, { .s = "sh" } };
	union rt_sinks u;
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	struct rt_sink *k = rt_json__init(&u.json, fp, NULL);

	rtable__begin(k, &out_d);
	rtable__row(k, (struct rt_val[]){ { .u = 1 },
					  { .row = { &in, a } },
					  { .row = { &in, a } },
					  { .row = { &in, a } } });
	rtable__row(k, (struct rt_val[]){ { .u = 2 },
					  { .row = { &in, NULL } },
					  { .row = { &in, NULL } },
					  { .row = { &in, NULL } } });
	rtable__end(k);
	k = rt_text__init(&u.text, fp);
	rtable__begin(k, &out_d);
	rtable__row(k, (struct rt_val[]){ { .u = 1 },
					  { .row = { &in, a } },
					  { .row = { &in, a } },
					  { .row = { &in, a } } });
	rtable__end(k);
	fclose(fp);
	CHECK_STR(out, "{\"type\":\"slow\",\"key\":1,\"start\":{\"tid\":7,\"comm\":\"sh\"},"
		       "\"end\":{\"tid\":7,\"comm\":\"sh\"},\"tid\":7,\"comm\":\"sh\"}\n"
		       "{\"type\":\"slow\",\"key\":2,\"end\":null}\n"
		       "KEY\n"
		       "  1\n");
	free(out);
}

/*
 * RT_ROWS: a list of rows of another description, an array of objects in
 * JSON ([] for none; null or no member without a value), no text cell.
 */
static void test_rows(void)
{
	static const struct rt_col ev_cols[] = {
		{ .name = "tid", .title = "TID", .type = RT_U64 },
		{ .name = "comm", .title = "COMM", .type = RT_STR },
	};
	static const struct rt_desc ev = { .cols = ev_cols, .ncols = 2 };
	static const struct rt_col in_cols[] = {
		{ .name = "mark", .type = RT_STR, .flags = RT_OMIT_EMPTY },
		{ .name = "offset_ns", .type = RT_S64, .unit = RT_UNIT_NS },
		{ .type = RT_ROW }, /* its members in each element */
	};
	static const struct rt_desc in = { .cols = in_cols, .ncols = 3 };
	static const struct rt_col out_cols[] = {
		{ .name = "key", .title = "KEY", .type = RT_U64, .width = 3 },
		{ .name = "timeline", .title = "TIMELINE", .type = RT_ROWS },
		{ .name = "kept", .type = RT_ROWS, .flags = RT_OMIT_EMPTY },
		{ .name = "n", .title = "N", .type = RT_U64, .width = 2 },
	};
	static const struct rt_desc out_d = { .type = "slow", .cols = out_cols, .ncols = 4 };
	const struct rt_val e[2][2] = { { { .u = 7 }, { .s = "sh" } },
					{ { .u = 8 }, { .s = "cat" } } };
	const struct rt_val rows[2 * 3] = {
		{ .s = "S" },  { .i = 0 },  { .row = { &ev, e[0] } },
		{ .s = NULL }, { .i = -5 }, { .row = { &ev, e[1] } },
	};
	const struct rt_val full[] = { { .u = 1 },
				       { .row = { &in, rows }, .n = 2 },
				       { .row = { &in, rows + 3 }, .n = 1 },
				       { .u = 2 } };
	const struct rt_val none[] = {
		{ .u = 2 }, { .row = { &in, NULL }, .n = 0 }, { .null = true }, { .u = 0 }
	};
	const struct rt_val null[] = {
		{ .u = 3 }, { .null = true }, { .row = { &in, NULL }, .n = 0 }, { .u = 0 }
	};
	union rt_sinks u;
	char *out = NULL, *frag, line[128];
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	struct rt_sink *k = rt_json__init(&u.json, fp, NULL);

	rtable__begin(k, &out_d);
	rtable__row(k, full);
	rtable__row(k, none);
	rtable__row(k, null);
	rtable__end(k);
	k = rt_text__init(&u.text, fp);
	rtable__begin(k, &out_d);
	rtable__row(k, full);
	rtable__row(k, none);
	rtable__end(k);
	fclose(fp);
	CHECK_STR(out, "{\"type\":\"slow\",\"key\":1,\"timeline\":[{\"mark\":\"S\","
		       "\"offset_ns\":0,\"tid\":7,\"comm\":\"sh\"},{\"offset_ns\":-5,"
		       "\"tid\":8,\"comm\":\"cat\"}],\"kept\":[{\"offset_ns\":-5,"
		       "\"tid\":8,\"comm\":\"cat\"}],\"n\":2}\n"
		       "{\"type\":\"slow\",\"key\":2,\"timeline\":[],\"n\":0}\n"
		       "{\"type\":\"slow\",\"key\":3,\"timeline\":null,\"kept\":[],"
		       "\"n\":0}\n"
		       "KEY  N\n"
		       "  1  2\n"
		       "  2  0\n");
	free(out);

	/* a row's members kept as text (an RT_JSON value later) */
	frag = rt_json__frag(&out_d, none);
	CHECK_STR(frag, "\"key\":2,\"timeline\":[],\"n\":0");
	free(frag);
	/* an event's fields in text leave the list out */
	rt_fields__text(&out_d, full, line, sizeof(line));
	CHECK(!strcmp(line, "key=1 n=2"), "fields: %s", line);
}

/*
 * A value without one (.null), a number whose text the producer writes
 * (RT_STR .num, .real) and optional words at the end of a line (RT_TAIL).
 */
static const struct rt_col num_cols[] = {
	{ .name = "event", .title = "EVENT", .type = RT_STR, .width = 5, .flags = RT_LEFT },
	{ .name = "value", .title = "VALUE", .type = RT_STR, .width = 9 },
	{ .name = "pct", .title = "PCT", .type = RT_F64, .width = 5, .decimals = 1 },
	{ .name = "rate", .type = RT_F64, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	{ .name = "comm", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	{ .title = "NOTE", .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON | RT_TAIL },
	{ .title = "", .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON | RT_TAIL },
};

static void check_null_tail(void)
{
	const struct rt_desc d = { .type = "counter", .cols = num_cols, .ncols = 7 };
	const struct rt_val rows[3][7] = {
		{ { .s = "a" },
		  { .s = "1,234", .num = true, .i = 1234 },
		  { .d = 50 },
		  { .d = 2.5 },
		  { .s = "x" },
		  { .s = "note" },
		  { .s = "[J]" } },
		{ { .s = "b" },
		  { .s = "1.50", .num = true, .real = true, .d = 1.5 },
		  { .null = true },
		  { .null = true },
		  { .s = NULL, .null = true },
		  { .s = NULL },
		  { .s = NULL } },
		{ { .s = "c" },
		  { .s = "<none>", .null = true },
		  { .d = 0 },
		  { .null = true },
		  { .s = NULL },
		  { .s = "" },
		  { .s = "x" } },
	};
	static const char text[] = "EVENT     VALUE   PCT NOTE\n"
				   "a         1,234  50.0 note [J]\n"
				   "b          1.50     -\n"
				   "c        <none>   0.0 x\n";
	static const char json[] =
		"{\"type\":\"counter\",\"event\":\"a\",\"value\":1234,\"pct\":50,\"rate\":2.5,"
		"\"comm\":\"x\"}\n"
		"{\"type\":\"counter\",\"event\":\"b\",\"value\":1.5,\"pct\":null,\"comm\":null}\n"
		"{\"type\":\"counter\",\"event\":\"c\",\"value\":null,\"pct\":0}\n";
	union rt_sinks u;
	char *out = NULL;
	size_t len = 0;

	for (int json_sink = 0; json_sink < 2; json_sink++) {
		FILE *fp = open_memstream(&out, &len);
		struct rt_sink *k =
			json_sink ? rt_json__init(&u.json, fp, NULL) : rt_text__init(&u.text, fp);

		rtable__begin(k, &d);
		for (int r = 0; r < 3; r++)
			rtable__row(k, rows[r]);
		rtable__end(k);
		fclose(fp);
		CHECK(!strcmp(out, json_sink ? json : text), "null/tail:\n%s", out);
		free(out);
	}
}

/* RT_NULL_BLANK: a number without a value is a blank cell; RT_ROW_IF: a line of the text only */
static void check_blank_row_if(void)
{
	static const struct rt_col c[] = {
		{ .title = "CPU",
		  .type = RT_U64,
		  .width = 3,
		  .flags = RT_LEFT | RT_NO_JSON | RT_NULL_BLANK },
		{ .name = "cpu", .type = RT_U64, .flags = RT_NO_TEXT },
		{ .type = RT_STR, .flags = RT_NO_JSON | RT_TAIL | RT_GAP },
		{ .name = "ms",
		  .title = "MS",
		  .type = RT_F64,
		  .width = 6,
		  .decimals = 1,
		  .flags = RT_NULL_BLANK | RT_TAIL | RT_OMIT_EMPTY },
		{ .type = RT_BOOL, .flags = RT_ROW_IF | RT_NO_TEXT | RT_NO_JSON },
	};
	const struct rt_desc d = { .type = "row", .cols = c, .ncols = 5 };
	const struct rt_val rows[3][5] = {
		{ { .u = 0 }, { .u = 0 }, { .s = NULL }, { .d = 1.5 }, { .b = true } },
		{ { .null = true }, { .u = 0 }, { .s = "-" }, { .null = true }, { .b = false } },
		{ { .null = true }, { .u = 1 }, { .s = NULL }, { .d = 2 }, { .b = true } },
	};
	union rt_sinks u;
	char *out = NULL;
	size_t len = 0;

	for (int json = 0; json < 2; json++) {
		FILE *fp = open_memstream(&out, &len);
		struct rt_sink *k =
			json ? rt_json__init(&u.json, fp, NULL) : rt_text__init(&u.text, fp);

		rtable__begin(k, &d);
		for (int r = 0; r < 3; r++)
			rtable__row(k, rows[r]);
		rtable__end(k);
		fclose(fp);
		CHECK_STR(out, json ? "{\"type\":\"row\",\"cpu\":0,\"ms\":1.5}\n"
				      "{\"type\":\"row\",\"cpu\":1,\"ms\":2}\n"
				    : "CPU     MS\n"
				      "0      1.5\n"
				      "     -\n"
				      "       2.0\n");
		free(out);
	}
}

/* RT_COL: a column in one line; rtable__one: a table of one row (a sentence and its record) */
static void check_one(void)
{
	static const struct rt_col c[] = {
		{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
		RT_COL("than_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
		RT_COL("n", "N", RT_U64, RT_UNIT_COUNT, 5, RT_NO_TEXT | RT_OMIT_ZERO),
	};
	const struct rt_desc d = { .type = "summary", .cols = c, .ncols = 3 };
	union rt_sinks u;
	char *out = NULL;
	size_t len = 0;

	CHECK(c[2].unit == RT_UNIT_COUNT && c[2].width == 5 && !strcmp(c[2].title, "N") &&
		      c[2].flags == (RT_NO_TEXT | RT_OMIT_ZERO) && c[1].type == RT_NS,
	      "RT_COL's members");
	for (int json = 0; json < 2; json++) {
		FILE *fp = open_memstream(&out, &len);

		rtable__one(json ? rt_json__init(&u.json, fp, NULL) : rt_text__init(&u.text, fp),
			    &d,
			    (struct rt_val[]){
				    { .s = "total: 3 of 2ms" }, { .u = 2000000 }, { .u = 3 } });
		fclose(fp);
		CHECK_STR(out, json ? "{\"type\":\"summary\",\"than_ns\":2000000,\"n\":3}\n"
				    : "total: 3 of 2ms\n");
		free(out);
	}
}

int main(void)
{
	test_flags();
	check_one();
	struct stats_stamp st = { .scope = "run", .time_ns = 7, .interval_ns = 9 };
	struct capture cap = { .sink.ops = &cap_ops };
	char *out = NULL;
	size_t len = 0;
	struct rt_text tx;
	struct rt_json js;
	FILE *fp;

	for (int r = 0; r < NR_ROWS; r++) {
		tot[r] = hist__new();
		sleep_h[r] = hist__new();
	}
	hist__record(tot[0], 1000000);
	hist__record(tot[0], 2000000);
	hist__record(tot[0], 3000000);
	hist__record(sleep_h[0], 500000);
	log2_hist__add(&l2[0], 1000000);
	log2_hist__add(&l2[0], 2000000);
	log2_hist__add(&l2[0], 3000000);
	hist__record(tot[1], 800);

	fp = open_memstream(&out, &len);
	emit(rt_text__init(&tx, fp));
	fclose(fp);
	CHECK(!strcmp(out, text_want), "text:\n%s\nwanted:\n%s", out, text_want);
	free(out);

	fp = open_memstream(&out, &len);
	emit(rt_json__init(&js, fp, &st));
	fclose(fp);
	CHECK(!strcmp(out, json_want), "json:\n%s\nwanted:\n%s", out, json_want);
	free(out);

	emit(&cap.sink);
	CHECK_INT(cap.begun, 11);
	CHECK_INT(cap.rows, 2);
	CHECK_INT(cap.ended, 1);
	CHECK_INT(cap.calls, 4);
	CHECK_INT(cap.tids, 2001);
	CHECK_STR(cap.comms, "bash,a \"long\" name,");

	/* max_rows: the first rows, then how many more */
	fp = open_memstream(&out, &len);
	rt_text__init(&tx, fp);
	tx.max_rows = 1;
	tx.no_header = true;
	emit(&tx.sink);
	fclose(fp);
	CHECK(!strncmp(out, "bash ", 5) && strstr(out, "  sleep ") &&
		      strstr(out, "\n... 1 more\n") && !strstr(out, "long"),
	      "max_rows:\n%s", out);
	free(out);

	/*
	 * A record: a sentence in text (no titles: no header), members in
	 * JSON; a number 0 with RT_OMIT_ZERO has no member, nor a NULL
	 * sentence a line; a percentage; a stack without frames: its title.
	 */
	{
		static const struct rt_col rc[] = {
			{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON | RT_OMIT_EMPTY },
			{ .name = "bytes",
			  .type = RT_U64,
			  .unit = RT_UNIT_BYTES,
			  .flags = RT_NO_TEXT },
			{ .name = "than_ns", .type = RT_NS, .flags = RT_NO_TEXT | RT_OMIT_ZERO },
			{ .name = "pct",
			  .type = RT_F64,
			  .unit = RT_UNIT_PERCENT,
			  .width = 7,
			  .decimals = 1,
			  .flags = RT_PCT_SIGN },
			{ .name = "stack", .title = "[no stack]", .type = RT_STACK, .width = 4 },
		};
		const struct rt_desc rd = { .type = "outstanding", .cols = rc, .ncols = 5 };
		struct rt_stack none = { 0 };

		for (int json = 0; json < 2; json++) {
			struct rt_sink *k;

			fp = open_memstream(&out, &len);
			k = json ? rt_json__init(&js, fp, NULL) : rt_text__init(&tx, fp);
			rtable__begin(k, &rd);
			rtable__row(k, (struct rt_val[]){ { .s = "2 bytes\nnote: more" },
							  { .u = 2 },
							  { .u = 0 },
							  { .d = 12.345 },
							  { .stk = &none } });
			rtable__row(k, (struct rt_val[]){ { .s = NULL },
							  { .u = 3 },
							  { .u = 5 },
							  { .d = 100 },
							  { .stk = NULL } });
			rtable__end(k);
			fclose(fp);
			CHECK_STR(out,
				  json ? "{\"type\":\"outstanding\",\"bytes\":2,\"pct\":12.345}\n"
					 "{\"type\":\"outstanding\",\"bytes\":3,\"than_ns\":5,"
					 "\"pct\":100}\n"
				       : "2 bytes\nnote: more   12.3%\n    [no stack]\n"
					 " 100.0%\n    [no stack]\n");
			free(out);
		}
	}

	/* rt_json__members: a row's members inside a line another writer began and ends */
	{
		static const struct rt_col mc[] = {
			{ .name = "from", .type = RT_STR },
			{ .name = "key", .type = RT_STR },
			{ .name = "addr", .type = RT_HEX, .obj = "more" },
			{ .name = "label", .type = RT_STR, .flags = RT_NO_JSON },
		};
		const struct rt_desc md = { .type = "slow", .cols = mc, .ncols = 4 };
		struct json j;
		char *frag;

		CHECK(json__frag_begin(&j) == 0, "frag_begin");
		rt_json__members(&j, &md,
				 (struct rt_val[]){ { .s = "a:b" },
						    { .i = 12, .s = "12", .num = true },
						    { .u = 16 },
						    { .s = "text only" } });
		frag = json__frag_end(&j);
		CHECK_STR(frag, "\"from\":\"a:b\",\"key\":12,\"more\":{\"addr\":\"0x10\"}");
		free(frag);
	}

	check_null_tail();

	for (int r = 0; r < NR_ROWS; r++) {
		hist__delete(tot[r]);
		hist__delete(sleep_h[r]);
	}
	test_row();
	test_rows();
	check_blank_row_if();
	return ut_done("test_rtable");
}
