// SPDX-License-Identifier: GPL-2.0
/*
 * top: key -> value aggregation over tracepoint fields, refreshed every
 * interval, like perf top over events.  Each event has a key (key=EXPR,
 * else -k EXPR, else its thread; the comm with --only-comm) and adds to
 * its columns: one sum per top-by=EXPR / top-add=EXPR, or its count when
 * it has neither.  Rows sort by the top-by columns, then the others.
 * Columns belong to an -e item: the events a glob matched share them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counting/bpf_keyed.h"
#include "engine/bpf.h"
#include "expr/expr.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "report/top_table.h"
#include "sym/ksyms.h"

#define TOP_MAX_COLS 64
#define TOP_MAX_VALS 16

/* Per -e item. */
struct top_spec {
	char name[96]; /* "sys:name" of a count column */
	int col0;      /* its first column */
	int nvals;     /* top-by/top-add attributes; 0: one count column */
};

/* Per event (evsel->priv). */
struct top_event {
	struct top *top; /* owner: evsel->priv is ours only when this matches */
	struct top_spec *spec;
	struct expr *key, *printkey, *comm;
	struct expr *vals[TOP_MAX_VALS];
	struct expr *filter; /* the BPF back end's: the event's filter, run in its program */
};

struct top {
	/* options */
	bool only_comm;

	const char *key_text; /* -k */
	struct top_spec specs[TOP_MAX_COLS];
	struct top_col cols[TOP_MAX_COLS];
	int ncols;
	bool comm_col;	  /* a COMM column: default keys (threads) or comm= */
	bool thread_keys; /* some event's key is its thread */
	struct top_table *table;
	struct ksyms *ksyms;
	u64 samples;   /* in this interval */
	u64 lost_seen; /* session__lost at the last print */
	bool printed;  /* an interval was printed */
	u64 since;     /* --json: where the next table's span begins */
	/* the BPF back end: the keys' columns in the kernel, drained at each print */
	struct bkeyed *bk;
	bool key_signed;
	bool col_signed[TOP_MAX_COLS]; /* a top-by/top-add column of a signed expression */
};

static struct top_event *top_of(struct top *t, struct evsel *ev)
{
	struct top_event *e = ev->priv;

	return e && e->top == t ? e : NULL;
}

/* Compile @text of attribute @what on @ev; a string where a number is needed is refused. */
static struct expr *compile_ex(struct session *s, struct top *t, struct evsel *ev, const char *what,
			       const char *text, int want_string, unsigned flags)
{
	struct expr_error err;
	char buf[512];
	struct expr *e;

	if (!text || !*text) {
		session__usage_err(s, "%s= on %s needs an expression", what, ev->name);
		return NULL;
	}
	e = expr__compile_ex(text, ev, flags, &err);
	if (!e)
		expr__strerror(text, &err, buf, sizeof(buf));
	if (!e) {
		if (errno == ENOMEM)
			session__set_err(s, -ENOMEM, "out of memory");
		else
			session__usage_err(s, "bad %s= on %s: %s", what, ev->name, buf);
		return NULL;
	}
	if (want_string >= 0 && expr__is_string(e) != want_string) {
		session__usage_err(s, "%s=%s on %s is a %s: %s", what, text, ev->name,
				   want_string ? "number" : "string",
				   want_string ? "comm= names a task, e.g. comm_get(common_pid)"
					       : "it sums numbers (a field such as count)");
		expr__free(e);
		return NULL;
	}
	if ((expr__uses(e) & EXPR_USES_KSYMS) && !t->ksyms && ksyms__load(NULL, &t->ksyms))
		t->ksyms = NULL; /* ksymbol() then gives "[unknown]" */
	return e;
}

static struct expr *compile(struct session *s, struct top *t, struct evsel *ev, const char *what,
			    const char *text, int want_string)
{
	return compile_ex(s, t, ev, what, text, want_string, 0);
}

static bool is_value_attr(const struct ev_attr *a)
{
	return !strcmp(a->key, "top-by") || !strcmp(a->key, "top-add");
}

/* The columns of -e item @i: its top-by/top-add expressions, or its count. */
static int add_columns(struct session *s, struct top *t, const struct ev_spec *spec, int i)
{
	struct top_spec *ts = &t->specs[i];
	int nvals = 0;

	ts->col0 = t->ncols;
	for (int a = 0; a < spec->nr_attrs; a++)
		nvals += is_value_attr(&spec->attrs[a]);
	if (nvals > TOP_MAX_VALS || t->ncols + (nvals ? nvals : 1) > TOP_MAX_COLS)
		return session__usage_err(s, "too many columns: %d at most (%d per event)",
					  TOP_MAX_COLS, TOP_MAX_VALS);
	ts->nvals = nvals;
	if (!nvals) {
		snprintf(ts->name, sizeof(ts->name), "%s:%s", spec->sys, spec->name);
		t->cols[t->ncols++] =
			(struct top_col){ .title = spec->alias ? spec->alias : ts->name };
		return 0;
	}
	for (int a = 0; a < spec->nr_attrs; a++) {
		const struct ev_attr *at = &spec->attrs[a];

		if (!is_value_attr(at))
			continue;
		t->cols[t->ncols++] = (struct top_col){
			.title = spec->alias && nvals == 1 ? spec->alias
				 : at->value		   ? at->value
							   : "",
			.by = !strcmp(at->key, "top-by"),
		};
	}
	return 0;
}

/* The expressions of @ev, from -e item @spec. */
static int compile_event(struct session *s, struct top *t, struct evsel *ev, struct top_spec *ts)
{
	const struct ev_spec *spec = ev->spec;
	const char *key = evspec__attr(spec, "key"), *pk = evspec__attr(spec, "printkey");
	const char *comm = evspec__attr(spec, "comm");
	struct top_event *e = calloc(1, sizeof(*e));
	unsigned pk_flags = EXPR_KEY;
	int n = 0;

	if (!e)
		return session__set_err(s, -ENOMEM, "out of memory");
	e->top = t;
	e->spec = ts;
	ev->priv = e;
	if (!key)
		key = t->key_text;
	if (key && !t->only_comm && !(e->key = compile(s, t, ev, "key", key, -1)))
		return -EINVAL;
	/* printkey= reads the row's key as `key`: a string key= or --only-comm's comm */
	if (t->only_comm || (e->key && expr__is_string(e->key)))
		pk_flags |= EXPR_KEY_STR;
	if (pk && !(e->printkey = compile_ex(s, t, ev, "printkey", pk, -1, pk_flags)))
		return -EINVAL;
	if (comm && !(e->comm = compile(s, t, ev, "comm", comm, 1)))
		return -EINVAL;
	if (!e->key && !t->only_comm)
		t->thread_keys = true;
	if (!t->only_comm && (e->comm || !e->key)) /* --only-comm: the key is the comm */
		t->comm_col = true;
	for (int a = 0; a < spec->nr_attrs; a++)
		if (is_value_attr(&spec->attrs[a]) &&
		    !(e->vals[n++] =
			      compile(s, t, ev, spec->attrs[a].key, spec->attrs[a].value, 0)))
			return -EINVAL;
	return 0;
}

static const char *key_title(struct session *s, struct top *t)
{
	const struct event_opts *eo = session__conf(s)->events;
	const char *title = NULL;

	if (t->only_comm)
		return "COMM";
	if (t->thread_keys)
		return "TID";
	for (int i = 0; i < eo->nr_specs; i++) {
		const char *k = evspec__attr(&eo->specs[i], "key");

		if (!k)
			k = t->key_text;
		if (title && strcmp(title, k))
			return "KEY"; /* different keys: no one name */
		title = k;
	}
	return title ? title : "KEY";
}

/* Why the kernel cannot do this request (NULL: it can, as far as top knows before compiling). */
static const char *bpf_refusal(struct top *t, struct top_event *e)
{
	if (t->only_comm)
		return "--only-comm: its keys are strings";
	if (e->printkey)
		return "printkey= is evaluated per event";
	if (e->comm) {
		const char *c = expr__text(e->comm);

		/* the kernel takes the current task's comm when a key is first seen */
		if (strcmp(c, "comm_get(common_pid)") && strcmp(c, "comm_get(_tid)"))
			return "comm= other than comm_get(common_pid)";
	}
	if (e->key && expr__is_string(e->key))
		return "a string key=";
	return NULL;
}

static void top_bpf_visit(struct session *s, void *t);

/*
 * The BPF back end: every event's program made and loaded here, or the
 * ring path for all of them (one back end per run), saying why under -v.
 */
static int top_bpf(struct session *s, struct top *t, const struct opt_set *opts)
{
	struct bpf_back *b;
	char why[256] = "";
	int ret = bpf_back__get(s, opts, &b), err = 0, mark;
	bool keyed = false;

	if (ret <= 0)
		return ret;
	if (t->ncols > BKEYED_MAX_COLS)
		return bpf_back__fallback(s, opts, "more than %d columns", BKEYED_MAX_COLS);
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct top_event *e = top_of(t, ev);
		const char *no = e ? bpf_refusal(t, e) : NULL;

		if (!e)
			continue;
		if (no)
			return bpf_back__fallback(s, opts, "%s on %s", no, ev->name);
		if (e->key) {
			if (keyed && t->key_signed != expr__is_signed(e->key))
				return bpf_back__fallback(s, opts, "keys of mixed signedness");
			t->key_signed = expr__is_signed(e->key);
			keyed = true;
		}
	}
	mark = bpf_back__mark(b);
	t->bk = bkeyed__new(s, b, t->ncols, bpf_back__entries(opts));
	if (!t->bk)
		return -ENOMEM;
	for (struct evsel *ev = session__evsels(s); ev && !err; ev = ev->next) {
		struct top_event *e = top_of(t, ev);
		char buf[512];

		if (!e)
			continue;
		if (ev->filter &&
		    !(e->filter = expr__compile_filter(ev->filter, ev, buf, sizeof(buf)))) {
			snprintf(why, sizeof(why), "filter of %.60s: %.160s", ev->name, buf);
			err = -EOPNOTSUPP;
			break;
		}
		for (int i = 0; i < e->spec->nvals; i++)
			t->col_signed[e->spec->col0 + i] = expr__is_signed(e->vals[i]);
		err = bkeyed__add(t->bk, ev, e->filter, e->key, e->vals, e->spec->nvals,
				  e->spec->col0, why, sizeof(why));
		if (err == -EOPNOTSUPP) {
			char tmp[181];

			snprintf(tmp, sizeof(tmp), "%.180s", why);
			tmp[180] = 0;
			snprintf(why, sizeof(why), "%.60s: %s", ev->name, tmp);
		}
	}
	if (!err) {
		session__notice(s, "the BPF back end: keys counted in the kernel");
		/* without -i too, the map is read (and its idle keys taken out) as it goes */
		return bpf_back__on_read(b, top_bpf_visit, t);
	}
	bpf_back__rollback(b, mark); /* (the events that compiled: no program of ours runs) */
	bkeyed__delete(t->bk);
	t->bk = NULL;
	if (err != -EOPNOTSUPP)
		return err;
	return bpf_back__fallback(s, opts, "%s", why);
}

/* One key's changes from the kernel, into the table as top_sample would have added them. */
static void bpf_row(void *arg, u64 key, const char *comm, const u64 *delta, u64 events)
{
	struct top *t = arg;
	struct top_row *row;
	char buf[32];
	bool created;
	int len;

	row = top_table__row(t->table, key, NULL, 0, &created);
	if (!row)
		return;
	if (created) {
		len = t->key_signed || t->thread_keys
			      ? snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)key)
			      : snprintf(buf, sizeof(buf), "%" PRIu64, key);
		top_row__set_label(row, buf, len);
		if (t->comm_col)
			top_row__set_comm(row, comm, (int)strnlen(comm, 16));
	}
	t->samples += events;
	for (int c = 0; c < t->ncols; c++)
		if (delta[c])
			top_row__add(t->table, row, c, delta[c],
				     t->col_signed[c] && (int64_t)delta[c] < 0);
}

static int top_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *eo = session__conf(s)->events;
	const struct key_opts *ko = opt_set__get(opts, &key_group);
	struct top *t = priv;
	int keyed = 0;

	session__want_interval(s, 1000);
	t->key_text = ko ? ko->expr : NULL;
	if (!eo->nr_specs)
		return session__usage_err(s, "no events: give -e 'sys:name/filter/key=EXPR/' (see: "
					     "perf-prof top -h)");
	if (eo->nr_specs > TOP_MAX_COLS)
		return session__usage_err(s, "too many -e items: %d at most", TOP_MAX_COLS);
	for (int i = 0; i < eo->nr_specs; i++)
		keyed += evspec__attr(&eo->specs[i], "key") != NULL;
	if (t->only_comm && (keyed || t->key_text))
		return session__usage_err(s, "--only-comm aggregates by comm: key= and -k do not "
					     "apply");
	/* keys from different spaces (a pid, an IRQ number) must not share rows */
	if (keyed && keyed < eo->nr_specs && !t->key_text)
		return session__usage_err(s, "some events have key= and some not: give each a "
					     "key=EXPR, or -k EXPR for those without");
	for (int i = 0; i < eo->nr_specs; i++) {
		struct evsel_conf c = { 0 };

		int n = 0;

		if (add_columns(s, t, &eo->specs[i], i) ||
		    session__add_spec(s, &eo->specs[i], &c) < 0)
			return -EINVAL;
		for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
			if (ev->spec == &eo->specs[i] && !ev->priv &&
			    (n++, compile_event(s, t, ev, &t->specs[i])))
				return -EINVAL;
		if (!n) /* the engine opened it once, for an earlier item */
			return session__usage_err(s,
						  "'%s' is an event of an earlier -e item: give it "
						  "alias=NAME to count it apart, or merge the two",
						  eo->specs[i].text);
	}
	t->table = top_table__new(key_title(s, t), t->comm_col, t->cols, t->ncols);
	if (!t->table)
		return session__set_err(s, -ENOMEM, "out of memory");
	return top_bpf(s, t, opts);
}

/* The text of a key: a string as it is, a number in decimal. */
static int fmt_value(const struct expr_value *v, char *buf, size_t len, const char **text)
{
	if (v->kind == EXPR_STR) {
		*text = v->str;
		return v->len;
	}
	*text = buf;
	return v->is_signed ? snprintf(buf, len, "%" PRId64, (int64_t)v->u)
			    : snprintf(buf, len, "%" PRIu64, v->u);
}

static void top_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct top *t = priv;
	struct top_event *e = top_of(t, ev);
	struct expr_ctx ctx = { .smp = smp, .session = s, .ksyms = t->ksyms };
	struct expr_value k = { .kind = EXPR_INT, .u = smp->tid }, v;
	const char *thread_comm = NULL, *text;
	struct top_row *row;
	char buf[32];
	bool created;
	int len;

	if (!e)
		return;
	t->samples++;
	if (t->only_comm) {
		if (e->comm) {
			expr__eval(e->comm, &ctx, &k);
		} else {
			thread_comm = session__comm_at(s, smp->tid, smp->time);
			k = (struct expr_value){ .kind = EXPR_STR,
						 .str = thread_comm,
						 .len = (int)strlen(thread_comm) };
		}
	} else if (e->key) {
		expr__eval(e->key, &ctx, &k);
	}
	row = k.kind == EXPR_STR ? top_table__row(t->table, 0, k.str, k.len, &created)
				 : top_table__row(t->table, k.u, NULL, 0, &created);
	if (!row)
		return;
	if (created) {
		if (e->printkey) {
			/* printkey=printf(...): what it prints is the label */
			struct expr_value key = k;
			char *pbuf = NULL;
			size_t plen = 0;

			ctx.key = &key;
			ctx.out = open_memstream(&pbuf, &plen);
			expr__eval(e->printkey, &ctx, &k);
			if (ctx.out) {
				fclose(ctx.out);
				while (plen && pbuf[plen - 1] == '\n')
					plen--;
				if (plen) {
					snprintf(buf, sizeof(buf), "%.*s", (int)plen, pbuf);
					k = (struct expr_value){ .kind = EXPR_STR,
								 .str = buf,
								 .len = (int)strlen(buf) };
				}
			}
			ctx.out = NULL;
			ctx.key = NULL;
			free(pbuf);
		}
		len = fmt_value(&k, buf, sizeof(buf), &text);
		top_row__set_label(row, text, len);
		if (e->comm) {
			expr__eval(e->comm, &ctx, &v);
			top_row__set_comm(row, v.str, v.len);
		} else if (!e->key && !t->only_comm) {
			text = session__comm_at(s, smp->tid, smp->time);
			top_row__set_comm(row, text, (int)strlen(text));
		}
	}
	if (!e->spec->nvals) {
		top_row__add(t->table, row, e->spec->col0, 1, false);
		return;
	}
	for (int i = 0; i < e->spec->nvals; i++) {
		expr__eval(e->vals[i], &ctx, &v); /* faults read as 0, counted */
		top_row__add(t->table, row, e->spec->col0 + i, v.u,
			     v.is_signed && (int64_t)v.u < 0);
	}
}

/* The interval's counts, before its rows: text a line "TIME  samples N  lost N  keys N". */
static const struct rt_col iv_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	RT_COL("samples", "SAMPLES", RT_U64, RT_UNIT_COUNT, 9, RT_NO_TEXT),
	RT_COL("lost", "LOST", RT_U64, RT_UNIT_COUNT, 9, RT_NO_TEXT),
	RT_COL("keys", "KEYS", RT_U64, RT_UNIT_COUNT, 9, RT_NO_TEXT),
	RT_COL("not_kept", "NOT_KEPT", RT_U64, RT_UNIT_COUNT, 9, RT_NO_TEXT),
};
static const struct rt_desc iv_desc = { .type = "interval", .cols = iv_cols, .ncols = 5 };

/* The BPF back end: what the kernel counted since the last print, into the table. */
static void bpf_pull(struct session *s, struct top *t)
{
	if (t->bk && bkeyed__drain(t->bk, bpf_row, t))
		session__warn(s, "out of memory reading the BPF map: rows missing");
}

static void top_bpf_visit(struct session *s, void *t)
{
	bpf_pull(s, t);
}

static void print_table(struct session *s, struct top *t, int when)
{
	FILE *out = session__out(s);
	u64 lost;
	struct stats_stamp st;
	union rt_sinks u;
	struct rt_sink *k;
	char ts[64], text[160];
	int rows = 0;

	bpf_pull(s, t);
	lost = session__lost(s) - t->lost_seen;
	session__fmt_time(s, session__now(s), ts, sizeof(ts));
	snprintf(text, sizeof(text), "%s  samples %" PRIu64 "  lost %" PRIu64 "  keys %u", ts,
		 t->samples, lost, top_table__nr_rows(t->table));
	if (session__json(s)) {
		stats_stamp__now(s, &t->since, when, &st);
		k = rt_json__init(&u.json, out, &st);
	} else {
		rows = top_screen__begin(out);
		if (t->printed && !rows)
			fputc('\n', out);
		k = rt_text__init(&u.text, out);
	}
	rtable__one(k, &iv_desc,
		    (struct rt_val[]){ { .s = text },
				       { .u = t->samples },
				       { .u = lost },
				       { .u = top_table__nr_rows(t->table) },
				       { .u = top_table__not_kept(t->table) } });
	if (session__json(s))
		top_table__emit(t->table, k);
	else /* on a terminal: the header, the titles and "... N more" leave the rest for rows */
		top_table__print(t->table, out, rows ? (rows > 4 ? rows - 4 : 1) : 0);
	fflush(out);
	t->printed = true;
}

static void top_interval(struct session *s, void *priv)
{
	struct top *t = priv;

	print_table(s, t, STATS_INTERVAL);
	top_table__reset(t->table);
	t->samples = 0;
	t->lost_seen = session__lost(s);
}

static void top_snapshot(struct session *s, void *priv)
{
	print_table(s, priv, STATS_SO_FAR);
}

/* What the expressions met: reads outside the event, divisions by zero. */
static void report_faults(struct session *s, struct top *t)
{
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct top_event *e = top_of(t, ev);
		struct expr *all[TOP_MAX_VALS + 3];
		int n = 0;

		if (!e)
			continue;
		all[n++] = e->key;
		all[n++] = e->printkey;
		all[n++] = e->comm;
		for (int i = 0; i < e->spec->nvals; i++)
			all[n++] = e->vals[i];
		for (int i = 0; i < n; i++) {
			struct expr_faults f;

			if (!all[i])
				continue;
			expr__faults(all[i], &f);
			if (f.bad_reads || f.div_zero)
				session__warn(
					s,
					"%s on %s: %" PRIu64 " reads outside the event, %" PRIu64
					" divisions by zero (each read as 0)",
					expr__text(all[i]), ev->name, f.bad_reads, f.div_zero);
		}
	}
}

static void top_deinit(struct session *s, void *priv)
{
	struct top *t = priv;

	/* the interval under way, unless an interval just printed it */
	if (session__started(s))
		bpf_pull(s, t);
	if (session__started(s) && t->table && (t->samples || !t->printed))
		print_table(s, t, STATS_END);
	if (session__started(s))
		report_faults(s, t);
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct top_event *e = top_of(t, ev);

		if (!e)
			continue;
		expr__free(e->key);
		expr__free(e->printkey);
		expr__free(e->comm);
		expr__free(e->filter);
		for (int i = 0; i < e->spec->nvals; i++)
			expr__free(e->vals[i]);
		free(e);
		ev->priv = NULL;
	}
	top_table__delete(t->table);
	t->table = NULL;
	bkeyed__delete(t->bk);
	t->bk = NULL;
	ksyms__delete(t->ksyms);
	t->ksyms = NULL;
}

static const struct popt top_opts[] = {
	{ .lname = "only-comm",
	  .help = "aggregate by comm (the thread's, or comm=EXPR) instead of a key",
	  POPT_BIND_FLAG(struct top, only_comm) },
	{ 0 },
};

static const char *const top_attrs[] = { "key", "printkey", "top-by", "top-add", "comm", NULL };

const struct profiler prof_top = {
	.name = "top",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "key/value aggregation of event fields, refreshed each interval (perf top over "
		"tracepoints)",
	.synopsis = "perf-prof top -e 'sys:name/filter/key=EXPR/top-by=EXPR/top-add=EXPR/"
		    "comm=EXPR/printkey=EXPR/alias=NAME/'[,...] [-k EXPR] [--only-comm] [-i MS] "
		    "[-N COUNT] [-C CPUS|-p PID|-t TID|-- CMD]",
	.examples =
		"perf-prof top -e "
		"'raw_syscalls:sys_enter//key=common_pid/comm=comm_get(common_pid)/'"
		"   # syscalls by process\n"
		"  perf-prof top -e 'irq:irq_handler_entry//key=irq/printkey=name/'   # IRQs by "
		"number\n"
		"  perf-prof top -e 'kvm:kvm_exit//key=exit_reason/'                  # VM exits "
		"by "
		"reason\n"
		"  perf-prof top -e 'syscalls:sys_enter_write//key=fd/top-by=count/alias=bytes/' "
		"-p "
		"1234  # bytes written by fd\n"
		"  perf-prof top -e sched:sched_wakeup,sched:sched_switch --only-comm\n"
		"Default key: the thread (TID, with its COMM); default value: the event count.\n"
		"Rows sort by the top-by columns, then the others, largest first; -i defaults to "
		"1000 ms.",
	.groups = (const struct opt_group *const[]){ &event_group, &key_group, &target_group,
						     &run_group, &ring_group, &bpf_group,
						     &output_group, &exclude_tp_group, NULL },
	.own = top_opts,
	.ev_attrs = top_attrs,
	.priv_size = sizeof(struct top),
	.init = top_init,
	.ops = { .sample = top_sample, .interval = top_interval, .snapshot = top_snapshot },
	.deinit = top_deinit,
};
