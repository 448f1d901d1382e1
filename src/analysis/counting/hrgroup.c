// SPDX-License-Identifier: GPL-2.0
/* A high-resolution timer group and its per-period counts: see hrgroup.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "analysis/counting/counters.h"
#include "analysis/counting/hrgroup.h"
#include "engine/conf.h"
#include "engine/evname.h"
#include "engine/tp.h"
#include "expr/expr.h"
#include "util/hash.h"
#include "util/units.h"

/*
 * The previous sample of one group instance: what the next one is measured
 * from.  Per CPU, one group per CPU; per thread, one group per thread and
 * CPU (the engine opens a sampling group on each CPU for each thread): each
 * has its own clock (the thread's time on that CPU) and counts.
 */
struct hrg_inst {
	UT_hash_handle hh;
	u64 id;	   /* the CPU, or the thread << 32 | the CPU */
	int key;   /* what is reported: the CPU, or the thread */
	u64 clock; /* the leader's clock at the previous sample */
	u64 idx;   /* floor(clock / period) then */
	u64 val[]; /* each member's cumulative value then */
};

/* An expression's name for @text: letters, digits and '_' kept, the rest '_'. */
static void var_name(char *out, size_t len, const char *text)
{
	size_t o = 0;

	if (isdigit((unsigned char)*text) && o + 1 < len)
		out[o++] = '_';
	for (; *text && o + 1 < len; text++)
		out[o++] = isalnum((unsigned char)*text) ? *text : '_';
	out[o] = 0;
}

static struct hrg_member *new_member(struct hrgroup *g)
{
	struct hrg_member *m = realloc(g->m, (g->nr + 1) * sizeof(*m));

	if (!m)
		return NULL;
	g->m = m;
	memset(&m[g->nr], 0, sizeof(*m));
	m[g->nr].scale = 1.0;
	return &m[g->nr++];
}

/*
 * The length of the list item at @p: up to a ',' outside quotes,
 * parentheses, braces and a PMU's /TERMS/.  *@tp: a tracepoint in trace's
 * spelling (sys:name/filter/attrs/ or a glob), for the -e spec parser.
 */
static size_t item_len(const char *p, bool *tp)
{
	int brace = 0, paren = 0;
	bool slash = false, colon = false;
	char q = 0;
	size_t i;

	*tp = false;
	for (i = 0; p[i] && !strchr(",/{}", p[i]); i++) {
		if (p[i] == ':')
			colon = true;
		else if (strchr("*?[", p[i]))
			*tp = true;
	}
	if (p[i] == '/' && colon)
		*tp = true;
	for (i = 0; p[i]; i++) {
		char c = p[i];

		if (q) {
			if (c == '\\' && p[i + 1])
				i++;
			else if (c == q)
				q = 0;
			continue;
		}
		if (c == '"' || c == '\'')
			q = c;
		else if (c == '(')
			paren++;
		else if (c == ')' && paren)
			paren--;
		else if (c == '{')
			brace++;
		else if (c == '}' && brace)
			brace--;
		else if (c == '/' && !*tp)
			slash = !slash;
		else if (c == ',' && !paren && !brace && !slash)
			break;
	}
	return i;
}

/* A tracepoint in trace's spelling: its filter and alias= kept, nothing else. */
static int add_spec(struct hrgroup *g, struct session *s, const char *text)
{
	struct ev_spec *specs = NULL, *sp, **grown;
	struct ev_spec_err perr;
	struct evsel *last = NULL;
	int nr = 0, n;

	if (evspec__parse(text, &specs, &nr, &perr))
		return session__usage_err(s, "-e %s: %s", text, perr.msg);
	/* cpus=LIST: counted on those CPUs only (the group's read there holds it) */
	if (nr != 1 || specs[0].probe != EV_TP || specs[0].stack || specs[0].max_stack ||
	    specs[0].nr_attrs) {
		const char *why = nr != 1		    ? "one event here"
				  : specs[0].probe != EV_TP ? "tracepoints only (no probes)"
				  : specs[0].nr_attrs	    ? "only alias=, cpus= and a filter"
							    : "no stacks on a counter";

		evspec__free(specs, nr);
		return session__usage_err(s, "-e %s: %s", text, why);
	}
	/* the events keep a pointer to their spec: one allocation each, never moved */
	grown = realloc(g->specs, (g->nr_specs + 1) * sizeof(*grown));
	if (!grown) {
		evspec__free(specs, nr);
		return session__set_err(s, -ENOMEM, "out of memory");
	}
	g->specs = grown;
	sp = specs;
	g->specs[g->nr_specs++] = sp;
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
		last = ev;
	n = session__add_spec(s, sp, &(struct evsel_conf){ .counting = true, .leader = g->leader });
	if (n < 0)
		return n;
	for (struct evsel *ev = last ? last->next : session__evsels(s); ev; ev = ev->next) {
		struct hrg_member *m = new_member(g);

		if (!m)
			return session__set_err(s, -ENOMEM, "out of memory");
		m->ev = ev;
		snprintf(m->name, sizeof(m->name), "%s", ev->name);
		var_name(m->var, sizeof(m->var),
			 sp->alias ? sp->alias
			 : ev->tp  ? strchr(ev->name, ':') + 1
				   : ev->name);
	}
	return 0;
}

/* Whether tracefs has it (an error reading tracefs is the session's to say). */
static bool tp_exists(const char *sys, const char *name)
{
	char **list;
	int n = tp__expand(sys, name, &list);

	if (n > 0)
		tp__free_list(list);
	return n != 0;
}

/* Events as stat names them. */
static int add_evnames(struct hrgroup *g, struct session *s, const char *text)
{
	struct evname *evs = NULL;
	char err[256];
	int nr = 0, ret = 0;

	if (evname__parse_list(text, &evs, &nr, err, sizeof(err))) {
		evname__free(evs, nr);
		return session__usage_err(s, "-e %s: %s", text, err);
	}
	for (int i = 0; i < nr && !ret; i++) {
		const struct evname *e = &evs[i];
		/* {a,b}: all are in the timer's group anyway */
		struct evsel_conf c = ctr__evsel_conf(e, g->leader);
		struct hrg_member *m = new_member(g);

		if (!m) {
			ret = session__set_err(s, -ENOMEM, "out of memory");
			break;
		}
		m->ev = e->sys ? session__add_tp(s, e->sys, e->tp, &c) : session__add_event(s, &c);
		if (!m->ev) {
			g->nr--;
			ret = e->sys && !tp_exists(e->sys, e->tp)
				      ? session__usage_err(s,
							   "unknown tracepoint '%s:%s' (see: "
							   "perf-prof list '%s:*')",
							   e->sys, e->tp, e->sys)
				      : -EINVAL;
			break;
		}
		snprintf(m->name, sizeof(m->name), "%s", e->name);
		var_name(m->var, sizeof(m->var), e->sys ? e->tp : e->name);
		m->scale = e->scale > 0 ? e->scale : 1.0;
		snprintf(m->unit, sizeof(m->unit), "%s", e->unit);
	}
	evname__free(evs, nr);
	return ret;
}

int hrgroup__period(struct session *s, u64 period, u64 freq, u64 dflt, u64 *out)
{
	char buf[32];

	if (period && freq)
		return session__usage_err(s, "--period and -F: give one of them");
	if (!period && !freq) /* a default: within the bounds */
		period = dflt < HRG_MIN_PERIOD	 ? HRG_MIN_PERIOD
			 : dflt > HRG_MAX_PERIOD ? HRG_MAX_PERIOD
						 : dflt;
	if (freq > 1000000000ULL / HRG_MIN_PERIOD)
		return session__usage_err(s,
					  "-F %llu: at most %llu Hz (the timer fires every "
					  "10us at most)",
					  (unsigned long long)freq, 1000000000ULL / HRG_MIN_PERIOD);
	if (freq)
		period = 1000000000ULL / freq;
	if (period < HRG_MIN_PERIOD || period > HRG_MAX_PERIOD)
		return session__usage_err(s, "--period %s: between 10us and 60s",
					  units__fmt_ns(period, buf, sizeof(buf)));
	*out = period;
	return 0;
}

int hrgroup__add(struct hrgroup *g, struct session *s, u64 period, const char *const *texts,
		 int nr_texts)
{
	const struct target_opts *tg = session__conf(s)->target;
	struct evsel_conf c = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = period,
		.callchain = true, /* when -g asks */
		.extra_sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID,
		.name = "cpu-clock",
	};
	char *copy;
	int ret = 0;

	g->s = s;
	g->period = period;
	/* as the engine decides: -C with a command counts the CPUs, every task on them */
	g->per_thread = tg && (tg->nr_pids || tg->nr_tids || (tg->argv && !tg->cpus_given));
	g->leader = session__add_event(s, &c);
	if (!g->leader)
		return -ENOMEM;
	/*
	 * A thread's groups on several CPUs write to several rings: its exit
	 * (which forgets it) must come after the last of their samples.
	 */
	if (g->per_thread)
		session__want_order(s);
	for (int t = 0; t < nr_texts && !ret; t++) {
		const char *p = texts[t];

		if (!*p)
			return session__usage_err(
				s, "-e '': name events, e.g. -e cs,sched:sched_switch");
		while (*p && !ret) {
			bool tp;
			size_t n = item_len(p, &tp);

			copy = strndup(p, n);
			if (!copy)
				return session__set_err(s, -ENOMEM, "out of memory");
			if (!n)
				ret = session__usage_err(s, "-e %s: an empty event (an extra ',')",
							 texts[t]);
			else
				ret = tp ? add_spec(g, s, copy) : add_evnames(g, s, copy);
			free(copy);
			p += n;
			if (*p == ',' && !*++p)
				ret = ret ? ret
					  : session__usage_err(s,
							       "-e %s: an empty event at the end",
							       texts[t]);
		}
	}
	if (ret)
		return ret;
	g->count = calloc(g->nr + 1, sizeof(*g->count));
	g->slot = calloc(g->nr + 1, sizeof(*g->slot));
	g->retired = calloc(g->nr + 1, sizeof(*g->retired));
	g->cpu_slot = calloc(g->nr + 1, sizeof(*g->cpu_slot));
	g->on = calloc(g->nr + 1, sizeof(*g->on));
	if (!g->count || !g->slot || !g->retired || !g->cpu_slot || !g->on)
		return session__set_err(s, -ENOMEM, "out of memory");
	return 0;
}

void hrgroup__resolve(struct hrgroup *g)
{
	u64 n = 1;

	if (g->slots_known)
		return;
	/*
	 * A member the kernel refused (a glob's match) was unlinked and freed
	 * at open: it is not in the session's list any more, and not in the
	 * group's reads.  Only pointers found in the list are followed.
	 */
	for (int i = 0; i < g->nr; i++) {
		struct hrg_member *m = &g->m[i];
		bool live = !g->s;

		for (struct evsel *ev = g->s ? session__evsels(g->s) : NULL; ev && !live;
		     ev = ev->next)
			live = ev == m->ev;
		if (!live) {
			m->ev = NULL;
			m->skipped = true;
		}
		/* the kernel puts the members in the read in the order they joined the group */
		g->slot[i] = live ? (int)n++ : -1;
		if (live && m->ev->cpus)
			g->some_cpus = true;
	}
	g->nr_read = n;
	g->slots_known = true;
}

/* Whether member @i is in the group's reads on @cpu (cpus=LIST leaves it out elsewhere). */
static bool member_on(const struct hrgroup *g, int i, int cpu)
{
	const struct evsel *ev = g->m[i].ev;

	if (g->slot[i] < 0)
		return false;
	if (!ev->cpus)
		return true;
	for (int c = 0; c < ev->nr_cpus; c++)
		if (ev->cpus[c] == cpu)
			return true;
	return false;
}

/*
 * The read's layout on @cpu: slot[i] (or -1) into @slot, the values it
 * holds returned.  Without cpus= it is the same on every CPU.
 */
static u64 layout_on(const struct hrgroup *g, int cpu, int *slot)
{
	u64 n = 1;

	for (int i = 0; i < g->nr; i++)
		slot[i] = member_on(g, i, cpu) ? (int)n++ : -1;
	return n;
}

static struct hrg_inst *inst_of(struct hrgroup *g, const struct sample *smp)
{
	int key = g->per_thread ? (int)smp->tid : (int)smp->cpu;
	u64 id = g->per_thread ? (u64)smp->tid << 32 | smp->cpu : (u64)smp->cpu;
	struct hrg_inst *in;

	HASH_FIND(hh, g->insts, &id, sizeof(id), in);
	if (in)
		return in;
	in = calloc(1, sizeof(*in) + g->nr * sizeof(u64));
	if (!in)
		return NULL;
	in->id = id;
	in->key = key; /* counters start at 0 when enabled (or inherited) */
	HASH_ADD(hh, g->insts, id, sizeof(in->id), in);
	return in;
}

int hrgroup__sample(struct hrgroup *g, const struct evsel *ev, const struct sample *smp,
		    struct hrg_period *out)
{
	u64 nr_read, clock, idx;
	struct hrg_inst *in;
	const int *slot;
	const u64 *r;

	if (ev != g->leader)
		return -ENOENT;
	hrgroup__resolve(g);
	nr_read = g->some_cpus ? layout_on(g, (int)smp->cpu, g->cpu_slot) : g->nr_read;
	slot = g->some_cpus ? g->cpu_slot : g->slot;
	r = smp->read_values;
	if (!(smp->sample_type & PERF_SAMPLE_READ) || !r || smp->read_nr != nr_read ||
	    ((smp->sample_type & PERF_SAMPLE_IDENTIFIER) && r[1] != smp->id)) {
		g->nr_bad++;
		return -EINVAL;
	}
	in = inst_of(g, smp);
	if (!in) {
		g->nr_bad++;
		return -ENOMEM;
	}
	clock = r[0];
	if (clock < in->clock) {
		/* a clock never goes back: another group (a thread id reused), from 0 */
		for (int i = 0; i < g->nr; i++)
			g->retired[i] += in->val[i]; /* what the old one counted, for the tail */
		in->idx = 0;
		memset(in->val, 0, g->nr * sizeof(u64));
	}
	in->clock = clock;
	idx = clock / g->period;
	out->periods = idx > in->idx ? idx - in->idx : 1;
	in->idx = idx > in->idx ? idx : in->idx + 1;
	for (int i = 0; i < g->nr; i++) {
		u64 v = slot[i] >= 0 ? r[2 * slot[i]] : 0;

		g->count[i] = v > in->val[i] ? v - in->val[i] : 0;
		g->on[i] = slot[i] >= 0;
		in->val[i] = v;
	}
	g->nr_samples++;
	if (out->periods > 1)
		g->nr_gaps++;
	out->key = in->key;
	out->time = smp->time;
	out->count = g->count;
	out->on = g->on;
	return 0;
}

static void retire(struct hrgroup *g, struct hrg_inst *in)
{
	for (int i = 0; i < g->nr; i++)
		g->retired[i] += in->val[i];
	HASH_DEL(g->insts, in);
	free(in);
}

/* The leader's handler (@priv the group). */
static void on_leader(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct hrgroup *g = priv;
	struct hrg_period per;

	if (!hrgroup__sample(g, ev, smp, &per))
		g->period_fn(s, g->period_priv, &per, smp);
}

static void on_exit_rec(struct session *s, void *priv, const struct rec_task *t)
{
	struct hrgroup *g = priv;

	(void)s;
	if (g->per_thread)
		hrgroup__forget(g, (int)t->tid);
}

static const struct session_ops hrgroup_ops = { .exit = on_exit_rec };

int hrgroup__report_to(struct hrgroup *g, struct session *s,
		       void (*fn)(struct session *s, void *priv, const struct hrg_period *p,
				  const struct sample *smp),
		       void *priv)
{
	g->period_fn = fn;
	g->period_priv = priv;
	evsel__set_handler(g->leader, on_leader, g);
	return session__add_ops(s, &hrgroup_ops, g);
}

void hrgroup__forget(struct hrgroup *g, int key)
{
	const struct target_opts *tg = g->s ? session__conf(g->s)->target : NULL;
	struct hrg_inst *in, *tmp;
	u64 id;

	if (!g->per_thread) {
		id = (u32)key;
		HASH_FIND(hh, g->insts, &id, sizeof(id), in);
		if (in)
			retire(g, in);
		return;
	}
	/* a thread's groups on every CPU */
	if (tg && tg->nr_cpus) {
		for (int c = 0; c < tg->nr_cpus; c++) {
			id = (u64)(u32)key << 32 | (u32)tg->cpus[c];
			HASH_FIND(hh, g->insts, &id, sizeof(id), in);
			if (in)
				retire(g, in);
		}
		return;
	}
	HASH_ITER(hh, g->insts, in, tmp)
	if (in->key == key)
		retire(g, in);
}

int hrgroup__tail(struct hrgroup *g, u64 *tail)
{
	int ret = 0;

	hrgroup__resolve(g);
	for (int i = 0; i < g->nr; i++) {
		struct counter_val v;
		struct hrg_inst *in, *tmp;
		u64 seen = g->retired[i];

		tail[i] = 0;
		if (g->slot[i] < 0 || !session__nr_counters(g->s, g->m[i].ev))
			continue;
		if (session__read_counter(g->s, g->m[i].ev, -1, &v))
			ret = -EIO;
		HASH_ITER(hh, g->insts, in, tmp)
		seen += in->val[i];
		tail[i] = v.val > seen ? v.val - seen : 0;
	}
	return ret;
}

struct expr *hrgroup__compile(struct hrgroup *g, const char *text, char *err, size_t errlen)
{
	const char **names = calloc(g->nr + 1, sizeof(*names));
	struct expr *e;

	if (!names) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	for (int i = 0; i < g->nr; i++) {
		if (!strcmp(g->m[i].var, "_periods")) {
			snprintf(err, errlen,
				 "%s is '_periods' in expressions, the number of periods: give it "
				 "another alias",
				 g->m[i].name);
			free(names);
			errno = EINVAL;
			return NULL;
		}
		for (int j = 0; j < i; j++)
			if (!strcmp(g->m[i].var, g->m[j].var)) {
				snprintf(err, errlen,
					 "%s and %s are both '%s' in expressions: give one an "
					 "alias (sys:name//alias=NAME/)",
					 g->m[j].name, g->m[i].name, g->m[i].var);
				free(names);
				errno = EINVAL;
				return NULL;
			}
		names[i] = g->m[i].var;
	}
	names[g->nr] = "_periods";
	e = expr__compile_vars(text, names, g->nr + 1, err, errlen);
	free(names);
	if (e && expr__is_string(e)) {
		snprintf(err, errlen, "'%s' is a string: a condition is a number (e.g. cs > 10)",
			 text);
		expr__free(e);
		errno = EINVAL;
		return NULL;
	}
	return e;
}

bool hrgroup__match(struct hrgroup *g, struct expr *e, const struct hrg_period *p,
		    const struct sample *smp)
{
	u64 vars[64], *v = g->nr < 64 ? vars : malloc((g->nr + 1) * sizeof(*v));
	struct expr_ctx ctx = { .smp = smp, .session = g->s, .nr_vars = g->nr + 1 };
	bool ret;

	if (!v)
		return false;
	memcpy(v, p->count, g->nr * sizeof(*v));
	v[g->nr] = p->periods;
	ctx.vars = v;
	ret = expr__match(e, &ctx);
	if (v != vars)
		free(v);
	return ret;
}

void hrgroup__free(struct hrgroup *g)
{
	HASH_FREE_ALL(hh, g->insts);
	/* the session's events point at the specs: no longer (refused ones are gone) */
	if (g->slot)
		hrgroup__resolve(g);
	for (int i = 0; i < g->nr; i++)
		if (g->m[i].ev && g->m[i].ev->spec)
			g->m[i].ev->spec = NULL;
	for (int i = 0; i < g->nr_specs; i++)
		evspec__free(g->specs[i], 1);
	free(g->specs);
	free(g->m);
	free(g->count);
	free(g->slot);
	free(g->retired);
	free(g->cpu_slot);
	free(g->on);
	memset(g, 0, sizeof(*g));
}

void hrg_stat__add(struct hrg_stat *st, u64 count, u64 periods, u64 time, int key)
{
	if (!periods)
		return;
	st->samples++;
	st->periods += periods;
	st->total += count;
	if ((periods == 1 || !count) && (!st->has_min || count < st->min)) {
		st->min = count;
		st->has_min = true;
	}
	if (!st->max_periods || count > st->max ||
	    (count == st->max && periods < st->max_periods)) {
		st->max = count;
		st->max_periods = periods;
		st->max_time = time;
		st->max_key = key;
	}
}

void hrg_stat__merge(struct hrg_stat *into, const struct hrg_stat *from)
{
	if (!from->samples)
		return;
	into->samples += from->samples;
	into->periods += from->periods;
	into->total += from->total;
	if (from->has_min && (!into->has_min || from->min < into->min)) {
		into->min = from->min;
		into->has_min = true;
	}
	if (!into->max_periods || from->max > into->max ||
	    (from->max == into->max && from->max_periods < into->max_periods)) {
		into->max = from->max;
		into->max_periods = from->max_periods;
		into->max_time = from->max_time;
		into->max_key = from->max_key;
	}
}

int hrg_opts__add_e(void *data, const char *arg, char *err, size_t errlen)
{
	struct hrg_opts *o = data;

	if (o->nr_texts == HRG_MAX_TEXTS) {
		snprintf(err, errlen, "too many -e (at most %d; put several events in one)",
			 HRG_MAX_TEXTS);
		return -1;
	}
	o->texts[o->nr_texts++] = arg;
	return 0;
}

int hrgroup__setup(struct hrgroup *g, struct session *s, struct hrg_opts *o,
		   const struct exclude_opts *ex, u64 dflt)
{
	u64 period;
	int err;

	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));
	err = hrgroup__period(s, o->period, o->freq, dflt, &period);
	if (err)
		return err;
	o->period = period;
	err = hrgroup__add(g, s, o->period, o->texts, o->nr_texts);
	if (err)
		return err;
	for (int i = 0; i < g->nr; i++)
		if (g->m[i].ev)
			exclude__attr(ex, &g->m[i].ev->attr);
	return 0;
}
