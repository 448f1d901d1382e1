// SPDX-License-Identifier: GPL-2.0
/* Access/miss pairs of a counter set as one table: see missrate.h. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "analysis/counting/missrate.h"
#include "engine/conf.h"
#include "engine/evname.h"
#include "engine/features.h"
#include "engine/session.h"

double missrate__pct(const struct ctr_set *cs, const struct missrate_pair *p, int i,
		     bool since_start)
{
	double sa, sm, a = ctr_set__value(cs, p->access, i, since_start, &sa);
	double m = ctr_set__value(cs, p->miss, i, since_start, &sm);

	if (!(sa > 0 && sm > 0 && a > 0))
		return NAN;
	return m * 100.0 / a;
}

/* The columns: who (text label; JSON cpu, tid, comm), 3 per pair, RUN%. */
enum { MR_WHO, MR_CPU, MR_TID, MR_COMM, MR_PAIRS };
#define MR_MAX_COLS (MR_PAIRS + 3 * MISSRATE_MAX_PAIRS + 1)

static int build_cols(struct rt_col *c, const struct missrate_pair *p, int np)
{
	int n = MR_PAIRS;

	c[MR_WHO] = (struct rt_col){
		.title = "WHO", .type = RT_STR, .width = 8, .flags = RT_LEFT | RT_FIT | RT_NO_JSON
	};
	c[MR_CPU] = (struct rt_col){ .name = "cpu",
				     .type = RT_S64,
				     .flags = RT_NO_TEXT | RT_OMIT_EMPTY };
	c[MR_TID] = (struct rt_col){ .name = "tid",
				     .type = RT_S64,
				     .flags = RT_NO_TEXT | RT_OMIT_EMPTY };
	c[MR_COMM] = (struct rt_col){ .name = "comm",
				      .type = RT_STR,
				      .flags = RT_NO_TEXT | RT_OMIT_EMPTY };
	for (int k = 0; k < np; k++) {
		c[n++] = (struct rt_col){ .name = p[k].acc_name,
					  .title = p[k].acc_title,
					  .type = RT_STR,
					  .unit = RT_UNIT_COUNT,
					  .width = 15,
					  .flags = k ? RT_GAP : 0 };
		c[n++] = (struct rt_col){ .name = p[k].miss_name,
					  .title = "MISSES",
					  .type = RT_STR,
					  .unit = RT_UNIT_COUNT,
					  .width = 15 };
		c[n++] = (struct rt_col){ .name = p[k].pct_name,
					  .title = "MISS%",
					  .type = RT_F64,
					  .unit = RT_UNIT_PERCENT,
					  .width = 7,
					  .decimals = 2,
					  .flags = RT_NAN_DASH | RT_PCT_SIGN };
	}
	c[n++] = (struct rt_col){ .name = "running_pct",
				  .title = "RUN%",
				  .type = RT_F64,
				  .unit = RT_UNIT_PERCENT,
				  .width = 8,
				  .decimals = 2,
				  .flags = RT_NAN_DASH | RT_PCT_SIGN };
	return n;
}

/* A count as a cell: "1,234" (JSON the number), "<not counted>" (null) when it never ran. */
static struct rt_val count(const struct ctr_set *cs, int k, int i, bool since_start, char *buf,
			   size_t len, double *share)
{
	double v = ctr_set__value(cs, k, i, since_start, share);

	if (*share <= 0.0)
		return (struct rt_val){ .s = "<not counted>", .null = true };
	return ctr__val(v, NULL, false, buf, len);
}

/* The values of instance @i's row (-1: all) into @v; @buf holds their text. */
static void row_vals(const struct ctr_set *cs, const struct missrate_pair *p, int np, int i,
		     bool since_start, struct rt_val *v, char (*buf)[64])
{
	double run = INFINITY, share;
	int n = MR_PAIRS;

	v[MR_WHO] = (struct rt_val){ .s = "all" };
	v[MR_CPU] = v[MR_TID] = (struct rt_val){ .null = true };
	v[MR_COMM] = (struct rt_val){ .s = NULL };
	if (i >= 0) {
		ctr_set__inst_name(cs, i, buf[0], sizeof(buf[0]));
		v[MR_WHO].s = buf[0];
		if (cs->per_thread) {
			v[MR_TID] = (struct rt_val){ .i = cs->inst[i] };
			v[MR_COMM].s = cs->s ? session__comm(cs->s, (u32)cs->inst[i]) : NULL;
			v[MR_COMM].null = !v[MR_COMM].s;
		} else {
			v[MR_CPU] = (struct rt_val){ .i = cs->inst[i] };
		}
	}
	for (int k = 0; k < np; k++) {
		double pct = missrate__pct(cs, &p[k], i, since_start);

		v[n++] = count(cs, p[k].access, i, since_start, buf[1 + 2 * k], sizeof(buf[0]),
			       &share);
		run = fmin(run, share);
		v[n++] = count(cs, p[k].miss, i, since_start, buf[2 + 2 * k], sizeof(buf[0]),
			       &share);
		run = fmin(run, share);
		v[n++] = (struct rt_val){ .d = pct, .null = isnan(pct) };
	}
	v[n] = (struct rt_val){ .d = run * 100.0, .null = !(run > 0) || isinf(run) };
}

void missrate__emit(const struct ctr_set *cs, struct rt_sink *k, const struct missrate_pair *p,
		    int np, bool perins, bool since_start)
{
	struct rt_col cols[MR_MAX_COLS];
	struct rt_val v[MR_MAX_COLS];
	char buf[1 + 2 * MISSRATE_MAX_PAIRS][64];
	struct rt_desc d = { .type = "missrate", .cols = cols };

	if (np > MISSRATE_MAX_PAIRS)
		np = MISSRATE_MAX_PAIRS;
	d.ncols = build_cols(cols, p, np);
	/* the label column as wide as its widest label */
	for (int i = perins ? 0 : -1; i < (perins ? cs->nr_inst : 0); i++) {
		row_vals(cs, p, np, i, since_start, v, buf);
		rtable__fit(k, &d, v);
	}
	rtable__begin(k, &d);
	for (int i = 0; perins && i < cs->nr_inst; i++) {
		row_vals(cs, p, np, i, since_start, v, buf);
		rtable__row(k, v);
	}
	row_vals(cs, p, np, -1, since_start, v, buf);
	rtable__row(k, v);
	rtable__end(k);
}

void missrate__report(const struct ctr_set *cs, FILE *fp, bool json, const struct missrate_pair *p,
		      int np, bool perins, bool since_start, const char *what)
{
	union rt_sinks u;
	struct stats_stamp st;
	struct rt_sink *k;

	if (json) {
		ctr_set__stamp(cs, what ? what : "total", since_start, &st);
		k = rt_json__init(&u.json, fp, &st);
	} else {
		k = rt_text__init(&u.text, fp);
	}
	missrate__emit(cs, k, p, np, perins, since_start);
}

int missrate__check(struct session *s, const struct exclude_opts *ex, const char *counted)
{
	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));
	session__want_interval(s, 1000); /* the original's: a table a second */
	if (!features__cpu_pmu())
		return session__set_err(s, -ENODEV,
					"needs a hardware PMU, and this host has none (no "
					"/sys/bus/event_source/devices/cpu: a VM without a virtual "
					"PMU?): %s cannot be counted",
					counted);
	return 0;
}

int missrate__open(struct missrate_set *m, struct session *s, const struct exclude_opts *ex,
		   const char *events, const char *kind, const char *generic, const char *vendor,
		   ctr_report_fn fn, void *priv)
{
	char err[256], pmu_ev[512];
	int rc;

	/* (a hybrid Intel's core PMU is cpu_core) */
	events = evname__on_pmu(events, features__cpu_pmu(), pmu_ev, sizeof(pmu_ev));
	if (!events)
		return session__set_err(s, -EOPNOTSUPP,
					"the kernel has no %s for this CPU (%s: not supported; "
					"vendor '%s')",
					kind, generic, vendor && vendor[0] ? vendor : "unknown");
	if (evname__parse_list(events, &m->evs, &m->nr_evs, err, sizeof(err)))
		return session__set_err(s, -EINVAL, "%s", err);
	rc = ctr_set__add(&m->cs, s, m->evs, m->nr_evs);
	for (int i = 0; !rc && i < m->cs.nr; i++)
		exclude__attr(ex, &m->cs.c[i].ev->attr);
	return rc ?: ctr_set__report_by(&m->cs, s, fn, priv);
}

void missrate__close(struct missrate_set *m, struct session *s)
{
	ctr_set__end(&m->cs, s);
	ctr_set__free(&m->cs);
	evname__free(m->evs, m->nr_evs);
	m->evs = NULL;
	m->nr_evs = 0;
}
