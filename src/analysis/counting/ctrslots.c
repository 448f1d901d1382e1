// SPDX-License-Identifier: GPL-2.0
/* A counter set read every period, each interval a row of slots: see ctrslots.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counting/ctrslots.h"
#include "report/stats_table.h"
#include "util/units.h"

/* The slots of counter @k, instance @i (-1: every instance). */
static double *slots_of(const struct ctr_slots *sl, int k, int i)
{
	return sl->v + ((size_t)k * (size_t)(1 + sl->nr_inst) + (size_t)(i + 1)) * (size_t)sl->nr;
}

static void clear(struct ctr_slots *sl)
{
	size_t n = (size_t)sl->cs->nr * (size_t)(1 + sl->nr_inst) * (size_t)sl->nr;

	for (size_t i = 0; i < n; i++)
		sl->v[i] = NAN;
}

/* Room for the values, once the first read has found the instances. */
static int alloc_values(struct ctr_slots *sl)
{
	struct ctr_set *cs = sl->cs;
	int ni = cs->nr_inst;

	if (sl->v)
		return 0;
	if (!cs->inst_of_fd)
		return -ENOMEM; /* the set could not learn its instances */
	sl->nr_inst = ni;
	sl->v = malloc((size_t)cs->nr * (size_t)(1 + ni) * (size_t)sl->nr * sizeof(*sl->v));
	sl->has = calloc((size_t)cs->nr * (size_t)(ni ? ni : 1), sizeof(*sl->has));
	if (!sl->v || !sl->has) {
		free(sl->v);
		free(sl->has);
		sl->v = NULL;
		sl->has = NULL;
		return -ENOMEM;
	}
	for (int k = 0; k < cs->nr; k++)
		for (int j = 0; cs->inst_of_fd[k] && j < session__nr_counters(cs->s, cs->c[k].ev);
		     j++)
			sl->has[(size_t)k * (size_t)ni + (size_t)cs->inst_of_fd[k][j]] = true;
	clear(sl);
	sl->t_start = cs->t_first; /* the counters' enabling, learnt at the first read */
	return 0;
}

/* What the set counted since its last read, into slot @pos (the set then advances). */
static void fill(struct ctr_slots *sl, int pos)
{
	struct ctr_set *cs = sl->cs;

	for (int k = 0; k < cs->nr; k++)
		for (int i = -1; i < sl->nr_inst; i++)
			slots_of(sl, k, i)[pos] = ctr_set__value(cs, k, i, false, NULL);
	ctr_set__advance(cs);
}

/*
 * The table of an interval: per counter (per instance with --perins), the
 * label ("CPU3", "comm:tid"; JSON "cpu", or "tid" and "comm"), the event,
 * the slots (text: right-aligned in the widest one's width, "-" for a
 * period not read; JSON "counts": numbers, a clock's in ns, null), the
 * total and the unit.
 */
enum {
	S_WHO,
	S_CPU,
	S_TID,
	S_COMM,
	S_EVENT,
	S_PERIOD,
	S_TEXT,
	S_COUNTS,
	S_TOTAL,
	S_UNIT_TEXT,
	S_UNIT,
	S_NR
};

static const struct rt_col slot_cols[S_NR] = {
	[S_WHO] = { .title = "CPU",
		    .type = RT_STR,
		    .width = 5,
		    .flags = RT_LEFT | RT_FIT | RT_NO_JSON },
	[S_CPU] = { .name = "cpu", .type = RT_S64, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	[S_TID] = { .name = "tid", .type = RT_S64, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	[S_COMM] = { .name = "comm", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	[S_EVENT] = RT_COL("event", "EVENT", RT_STR, RT_UNIT_NONE, 5, RT_LEFT | RT_FIT),
	[S_PERIOD] = RT_COL("period_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	[S_TEXT] = { .title = "COUNTS", .type = RT_STR, .flags = RT_LEFT | RT_FIT | RT_NO_JSON },
	[S_COUNTS] = RT_COL("counts", NULL, RT_NUMS, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[S_TOTAL] = RT_COL("total", "TOTAL", RT_STR, RT_UNIT_NONE, 12, RT_FIT),
	[S_UNIT_TEXT] = { .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON | RT_TAIL },
	[S_UNIT] = { .name = "unit", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
};

/* A slot's text: ctr__fmt's, "-" when it was not read. */
static const char *slot_text(const struct ctr *c, double v, char *buf, size_t len)
{
	if (isnan(v))
		return "-";
	return ctr__fmt(v, c->unit[0] != 0, buf, len);
}

/* The widest slot of the table (@n slots), for one width for them all. */
static int slot_width(const struct ctr_slots *sl, int n)
{
	int w = 1;
	char buf[48];

	for (int k = 0; k < sl->cs->nr; k++)
		for (int i = -1; i < sl->nr_inst; i++) {
			const double *v = slots_of(sl, k, i);

			for (int p = 0; p < n; p++) {
				int l = (int)strlen(
					slot_text(&sl->cs->c[k], v[p], buf, sizeof(buf)));

				w = l > w ? l : w;
			}
		}
	return w;
}

struct row_bufs {
	char who[64], tot[48], num[48];
	char *text;	/* the slots' text */
	double *counts; /* JSON's */
};

/* The row of counter @k, instance @i (-1: all), @n slots, each @w wide, into @v. */
static void row_vals(const struct ctr_slots *sl, struct session *s, int k, int i, int n, int w,
		     struct row_bufs *b, struct rt_val *v)
{
	const struct ctr_set *cs = sl->cs;
	const struct ctr *c = &cs->c[k];
	const double *sv = slots_of(sl, k, i);
	bool msec = !strcmp(c->unit, "msec");
	double total = 0;
	size_t o = 0;

	for (int f = 0; f < S_NR; f++)
		v[f] = (struct rt_val){ .null = slot_cols[f].type != RT_STR };
	for (int p = 0; p < n; p++) {
		o += (size_t)sprintf(b->text + o, "%s%*s", p ? " " : "", w,
				     slot_text(c, sv[p], b->num, sizeof(b->num)));
		b->counts[p] = isnan(sv[p]) ? NAN : msec ? llround(sv[p] * 1e6) : sv[p];
		if (!isnan(sv[p]))
			total += sv[p];
	}
	b->text[o] = 0;
	b->who[0] = 0;
	if (i >= 0) {
		ctr_set__inst_name(cs, i, b->who, sizeof(b->who));
		if (cs->per_thread) {
			v[S_TID] = (struct rt_val){ .i = cs->inst[i] };
			v[S_COMM].s = session__comm(s, (u32)cs->inst[i]);
		} else {
			v[S_CPU] = (struct rt_val){ .i = cs->inst[i] };
		}
	}
	v[S_WHO].s = b->who;
	v[S_EVENT].s = c->name;
	v[S_PERIOD] = (struct rt_val){ .u = sl->period };
	v[S_TEXT].s = b->text;
	v[S_COUNTS] = (struct rt_val){ .dv = b->counts, .n = (uint64_t)n };
	v[S_TOTAL] = ctr__val(total, c->unit, false, b->tot, sizeof(b->tot));
	v[S_UNIT_TEXT].s = c->unit[0] ? c->unit : NULL;
	v[S_UNIT].s = ctr__unit(c->unit);
}

/* The rows of every counter (per instance), @n slots, into @k. */
static void emit_rows(const struct ctr_slots *sl, struct session *s, struct rt_sink *k, int n,
		      struct row_bufs *b)
{
	const struct ctr_set *cs = sl->cs;
	struct rt_col cols[S_NR];
	struct rt_desc d = { .type = "counts", .cols = cols, .ncols = S_NR };
	int w = slot_width(sl, n);
	struct rt_val v[S_NR];

	memcpy(cols, slot_cols, sizeof(cols));
	if (cs->per_thread)
		cols[S_WHO].title = "THREAD";
	if (!sl->perins) {
		d.cols++;
		d.ncols--;
	}
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			rtable__begin(k, &d);
		for (int c = 0; c < cs->nr; c++)
			for (int i = sl->perins ? 0 : -1; i < (sl->perins ? sl->nr_inst : 0); i++) {
				if (i >= 0 && !sl->has[(size_t)c * (size_t)sl->nr_inst + (size_t)i])
					continue;
				row_vals(sl, s, c, i, n, w, b, v);
				if (pass)
					rtable__row(k, sl->perins ? v : v + 1);
				else
					rtable__fit(k, &d, sl->perins ? v : v + 1);
			}
	}
	rtable__end(k);
}

/* The interval that ends at @now, its @n slots. */
static void report(struct ctr_slots *sl, struct session *s, int n, u64 now)
{
	FILE *out = session__out(s);
	struct stats_stamp st = { .scope = "interval",
				  .time_ns = session__wall_ns(s, now),
				  .interval_ns = now > sl->t_start ? now - sl->t_start : 0 };
	struct row_bufs b = { .text = NULL };
	char ts[64], per[32];
	union rt_sinks u;

	if (!sl->v || n <= 0)
		return;
	b.text = malloc((size_t)n * 49 + 1);
	b.counts = malloc((size_t)n * sizeof(*b.counts));
	if (!b.text || !b.counts) {
		session__warn(s, "out of memory: an interval of --period slots not printed");
		goto out;
	}
	if (!session__json(s)) {
		session__fmt_time(s, now, ts, sizeof(ts));
		fprintf(out, "%s stat: %.3f s, %d period%s of %s\n", ts,
			(double)st.interval_ns / 1e9, n, n == 1 ? "" : "s",
			units__fmt_exact(sl->period, per, sizeof(per)));
		emit_rows(sl, s, rt_text__init(&u.text, out), n, &b);
	} else {
		emit_rows(sl, s, rt_json__init(&u.json, out, &st), n, &b);
	}
	fflush(out);
out:
	free(b.text);
	free(b.counts);
}

/*
 * The slot at pos is done: the interval ends after its last, at its start
 * and whole periods (a late read's time is in the next one's).
 */
static void next_slot(struct ctr_slots *sl, struct session *s)
{
	u64 end = sl->t_start + (u64)sl->nr * sl->period;

	if (++sl->pos < sl->nr)
		return;
	report(sl, s, sl->nr, end);
	if (sl->v)
		clear(sl);
	sl->pos = 0;
	sl->t_start = end;
}

/*
 * @missed periods not read: their slots show no value.  The intervals they
 * cover whole (the process stopped, the host took the CPU) are not printed:
 * one line says so, and the next interval starts after them.
 */
static void skip(struct ctr_slots *sl, struct session *s, u64 missed)
{
	u64 left = (u64)(sl->nr - sl->pos), whole;
	char per[32];

	if (missed < left) {
		sl->pos += (int)missed;
		return;
	}
	missed -= left;
	sl->pos = sl->nr - 1;
	next_slot(sl, s); /* the interval they end */
	whole = missed / (u64)sl->nr;
	if (whole) {
		stats_note(s, "stat",
			   "%llu periods of %s not read (the reads came late): %llu whole "
			   "intervals not printed",
			   (unsigned long long)(whole * (u64)sl->nr + left + missed % (u64)sl->nr),
			   units__fmt_exact(sl->period, per, sizeof(per)),
			   (unsigned long long)whole);
		sl->t_start += whole * (u64)sl->nr * sl->period;
	}
	sl->pos = (int)(missed % (u64)sl->nr);
}

void ctr_slots__tick(struct ctr_slots *sl, struct session *s, u64 periods)
{

	ctr_set__read(sl->cs);
	if (alloc_values(sl)) {
		ctr_set__advance(sl->cs);
		return;
	}
	/* the periods this read missed: not read, their counts in the last one's slot */
	if (periods > 1) {
		sl->nr_late++;
		skip(sl, s, periods - 1);
	}
	fill(sl, sl->pos);
	next_slot(sl, s);
}

static void on_period(struct session *s, void *priv, u64 periods)
{
	ctr_slots__tick(priv, s, periods);
}

int ctr_slots__start(struct ctr_slots *sl, struct ctr_set *cs, struct session *s, u64 period,
		     int nr, bool perins)
{
	*sl = (struct ctr_slots){ .cs = cs, .period = period, .nr = nr, .perins = perins };
	sl->t_start = cs->t_first;
	return session__every(s, period, on_period, sl);
}

void ctr_slots__end(struct ctr_slots *sl, struct session *s)
{
	u64 missed;

	ctr_set__read(sl->cs);
	if (alloc_values(sl))
		return;
	/*
	 * a period or more since the last read: the timer expired and was not
	 * read (the session stopping runs no timer), as late as a tick's
	 */
	missed = sl->cs->t_now > sl->cs->t_last ? (sl->cs->t_now - sl->cs->t_last) / sl->period : 0;
	if (missed) {
		sl->nr_late++;
		skip(sl, s, missed);
	}
	fill(sl, sl->pos); /* the last period, partial */
	report(sl, s, sl->pos + 1, sl->cs->t_now);
	if (sl->nr_late && session__verbose(s))
		fprintf(stderr, "perf-prof: stat: %llu reads came a period or more late\n",
			(unsigned long long)sl->nr_late);
}

void ctr_slots__free(struct ctr_slots *sl)
{
	free(sl->v);
	free(sl->has);
	sl->v = NULL;
	sl->has = NULL;
}
