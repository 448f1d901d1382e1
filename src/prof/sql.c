// SPDX-License-Identifier: GPL-2.0
/*
 * sql: events as SQLite tables, queried at each interval and at the end.
 *
 *   perf-prof sql -e sched:sched_switch -i 1000 \
 *       --query 'SELECT prev_comm, count(*) n FROM sched_switch GROUP BY prev_comm'
 *
 * A table per event (sql_db.c), every --query statement prepared against
 * the empty tables before the events are enabled (a bad query is a usage
 * error), its rows printed through one runtime description (report/rtable:
 * a text table, or JSON lines).  Without --output2 the database is in
 * memory and emptied after each interval's queries; with it, the file
 * keeps every row and each query sees all rows so far.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/evspec.h"
#include "prof/sql_int.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "sym/ksyms.h"
#include "sym/stack.h"
#include "util/json.h"

static void stmts_free(struct sql *q)
{
	for (int i = 0; i < q->nr_stmts; i++) {
		sqlite3_finalize(q->stmts[i].st);
		free(q->stmts[i].text);
		free(q->stmts[i].why);
	}
	free(q->stmts);
	q->stmts = NULL;
	q->nr_stmts = 0;
}

/* "no such table: X" of a statement that names a profiler's table, before its first row */
static bool missing_table(const char *msg)
{
	return !strncmp(msg, "no such table", 13);
}

/* @text on one line for a message: newlines and tabs as spaces, runs of them as one */
static const char *oneline(const char *text, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = text; *p && n + 1 < len; p++) {
		bool sp = *p == '\n' || *p == '\t' || *p == '\r';

		if (sp && n && buf[n - 1] == ' ')
			continue;
		buf[n++] = sp ? ' ' : *p;
	}
	buf[n] = 0;
	return buf;
}

static int prepare(struct sql *q, struct sql_stmt *st)
{
	int rc = sqlite3_prepare_v3(q->db, st->text, -1, SQLITE_PREPARE_PERSISTENT, &st->st, NULL);

	free(st->why);
	st->why = NULL;
	if (rc != SQLITE_OK) {
		st->why = strdup(sqlite3_errmsg(q->db));
		sqlite3_finalize(st->st);
		st->st = NULL;
		return -1;
	}
	return 0;
}

static char *trim(const char *p, size_t n)
{
	while (n && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n' || p[n - 1] == ';'))
		n--;
	return strndup(p, n);
}

/*
 * --query split at each statement's end (sqlite3_prepare's tail), each
 * prepared: a bad one is a usage error; one that names a table not made yet
 * waits, when profilers in -e make tables at their first row.
 */
static int stmts_parse(struct sql *q)
{
	const char *p = q->query;

	while (*p) {
		sqlite3_stmt *st = NULL;
		const char *tail = NULL;
		struct sql_stmt *n;
		int rc = sqlite3_prepare_v3(q->db, p, -1, 0, &st, &tail);
		const char *semi = strchr(p, ';');
		/*
		 * The statement up to its tail: past its own ';' when it is
		 * prepared or names a table not there yet (a ';' in a string is
		 * not its end: that statement waits and runs later).  A syntax
		 * error's tail stops at the error: the message names the
		 * statement up to its first ';'.
		 */
		bool whole = rc == SQLITE_OK || missing_table(sqlite3_errmsg(q->db));
		char *text = trim(p, whole && tail && tail > p ? (size_t)(tail - p)
				     : semi		       ? (size_t)(semi - p)
							       : strlen(p));

		if (!text)
			return session__set_err(q->s, -ENOMEM, "out of memory");
		if (rc != SQLITE_OK &&
		    !(q->joint_sources && missing_table(sqlite3_errmsg(q->db)))) {
			char b[1024];

			session__usage_err(q->s, "--query: %s (in: %s)", sqlite3_errmsg(q->db),
					   oneline(*text ? text : p, b, sizeof(b)));
			free(text);
			sqlite3_finalize(st);
			return -EINVAL;
		}
		if (rc == SQLITE_OK && st && sqlite3_column_count(st) >= RT_MAX_COLS) {
			char b[1024];

			session__usage_err(q->s, "--query: more than %d result columns (in: %s)",
					   RT_MAX_COLS - 1, oneline(text, b, sizeof(b)));
			free(text);
			sqlite3_finalize(st);
			return -EINVAL;
		}
		sqlite3_finalize(st);
		if ((rc == SQLITE_OK && !st) || !*text) { /* a comment or blanks */
			free(text);
		} else {
			if (!(n = realloc(q->stmts, (q->nr_stmts + 1) * sizeof(*n)))) {
				free(text);
				return session__set_err(q->s, -ENOMEM, "out of memory");
			}
			q->stmts = n;
			q->stmts[q->nr_stmts++] = (struct sql_stmt){ .text = text };
		}
		if (!tail || tail <= p)
			break;
		p = tail;
	}
	if (!q->nr_stmts) {
		char b[1024];

		return session__usage_err(q->s, "--query: no statement in '%s'",
					  oneline(q->query, b, sizeof(b)));
	}
	for (int i = 0; i < q->nr_stmts; i++)
		prepare(q, &q->stmts[i]);
	return 0;
}

/* Every statement prepared again (the schema changed, or to see what it reads) */
static int prepare_all(struct sql *q)
{
	for (int i = 0; i < q->nr_stmts; i++) {
		sqlite3_finalize(q->stmts[i].st);
		q->stmts[i].st = NULL;
		if (prepare(q, &q->stmts[i]))
			return session__set_err(q->s, -EIO, "--query: %s", q->stmts[i].why);
	}
	return 0;
}

/*
 * The tables and the statements, in a database just opened; in memory,
 * the tables cut to the columns the statements read (sql_narrow.c).
 */
static int db_setup(struct sql *q)
{
	if (sqldb__create_tables(q, true))
		return -1;
	if (!q->query)
		return 0;
	if (stmts_parse(q))
		return -1;
	return q->output2 || q->joint_sources ? 0 : sql__narrow(q, prepare_all);
}

static int sql_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *ev = session__conf(s)->events;
	struct sql *q = priv;

	(void)opts;
	q->s = s;
	if ((q->timed = session__verbose(s) > 0))
		sqldb__calibrate(q);
	if (!q->query && !q->output2 && session__interval_ms(s))
		return session__usage_err(s, "-i: nothing to do each interval: give --query 'SQL' "
					     "(or --output2 FILE.db to keep the rows)");
	if (!q->query && !q->output2)
		return session__usage_err(s, "give --query 'SQL' (results each -i and at the end) "
					     "or --output2 FILE.db (the rows kept in a file)");
	if (q->query && !q->output2 && !session__interval_ms(s))
		return session__usage_err(s, "--query would keep every event in memory until the "
					     "end: give -i MS or --output2 FILE");
	if (q->output2 && !*q->output2)
		return session__usage_err(s, "--output2: give a file name");
	if (q->output2) { /* where it goes, now: not once the run started */
		char *dup = strdup(q->output2);
		const char *dir = dup ? dirname(dup) : ".";
		int err = access(dir, W_OK | X_OK) ? errno : 0;

		if (err) {
			session__usage_err(s, "--output2 %s: %s: %s", q->output2, dir,
					   strerror(err));
			free(dup);
			return -EINVAL;
		}
		free(dup);
	}
	if (!ev->nr_specs)
		return session__usage_err(s, "no events: give -e sys:name (see: perf-prof list)");
	for (int i = 0; i < ev->nr_specs; i++) {
		struct evsel_conf c = { 0 };

		if (ev->specs[i].profiler) { /* an inner profiler's: it adds them (cli/joint.h) */
			q->joint_sources = true;
			continue;
		}
		c.callchain = session__stacks_for_all(s);
		if (session__add_spec(s, &ev->specs[i], &c) < 0)
			return -1;
	}
	/* the statements are checked against the empty tables before anything runs */
	if (sqldb__open(q, ":memory:") || db_setup(q))
		return -1;
	if (q->query && strcasestr(q->query, "ksymbol")) { /* now, not on the first row */
		q->ksyms_tried = true;
		if (ksyms__load(NULL, &q->ksyms))
			q->ksyms = NULL;
	}
	return 0;
}

static void rm_db(const char *path)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	char buf[4096];

	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", path, sfx[i]);
		unlink(buf);
	}
}

/* The run starts: --output2's file replaces any old one (not before: a failed start keeps it). */
static int sql_started(struct session *s, void *priv)
{
	struct sql *q = priv;

	(void)s;
	if (!q->output2)
		return 0;
	for (int i = 0; i < q->nr_stmts; i++) {
		sqlite3_finalize(q->stmts[i].st);
		q->stmts[i].st = NULL;
	}
	sqldb__close(q);
	rm_db(q->output2);
	if (sqldb__open(q, q->output2))
		return -EIO;
	/* the inner profilers' events are there now: names made unique */
	if (sqldb__create_tables(q, false))
		return -EIO;
	for (int i = 0; i < q->nr_stmts; i++)
		prepare(q, &q->stmts[i]);
	return 0;
}

static void sql_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	(void)s;
	sqldb__insert(priv, ev, smp);
}

/* ---- results ---- */

struct result {
	struct rt_col cols[RT_MAX_COLS];
	struct rt_desc d;
	struct rt_val *v; /* rows of d.ncols values */
	size_t n, cap;
	char *names[RT_MAX_COLS]; /* copies: a re-prepare (schema change) frees SQLite's */
};

static void result_free(struct result *r)
{
	for (size_t i = 0; i < r->n * r->d.ncols; i++)
		free((char *)r->v[i].s);
	free(r->v);
	for (int i = 0; i < r->d.ncols; i++)
		free(r->names[i]);
}

static char *hex(const unsigned char *p, int n)
{
	char *s = malloc(2 * (size_t)n + 4), *o = s;

	if (!s)
		return NULL;
	o += sprintf(o, "x'");
	for (int i = 0; i < n; i++)
		o += sprintf(o, "%02x", p[i]);
	sprintf(o, "'");
	return s;
}

/* One result row into @r; -1 out of memory. */
static int result_add(struct result *r, sqlite3_stmt *st, int idx)
{
	int nc = r->d.ncols;
	struct rt_val *v;
	const char *txt;

	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;

		if (!(v = realloc(r->v, cap * nc * sizeof(*v))))
			return -1;
		r->v = v;
		r->cap = cap;
	}
	v = &r->v[r->n++ * nc];
	memset(v, 0, nc * sizeof(*v));
	v[0].u = (uint64_t)idx;
	for (int c = 1; c < nc; c++) {
		int t = sqlite3_column_type(st, c - 1);

		switch (t) {
		case SQLITE_NULL:
			v[c].null = true;
			v[c].s = strdup("NULL");
			break;
		case SQLITE_BLOB:
			v[c].s = hex(sqlite3_column_blob(st, c - 1),
				     sqlite3_column_bytes(st, c - 1));
			r->cols[c].flags |= RT_LEFT;
			break;
		case SQLITE_TEXT:
			txt = (const char *)sqlite3_column_text(st, c - 1);
			v[c].s = txt ? strdup(txt) : NULL;
			r->cols[c].flags |= RT_LEFT;
			break;
		default:
			v[c].num = true;
			if (t == SQLITE_FLOAT) {
				v[c].real = true;
				v[c].d = sqlite3_column_double(st, c - 1);
			} else {
				v[c].i = sqlite3_column_int64(st, c - 1);
			}
			/* NULL: SQLite ran out of memory converting it */
			txt = (const char *)sqlite3_column_text(st, c - 1);
			v[c].s = txt ? strdup(txt) : NULL;
			break;
		}
		if (!v[c].s)
			goto nomem;
	}
	return 0;
nomem: /* the row left out */
	for (int c = 1; c < nc; c++)
		free((char *)v[c].s);
	r->n--;
	return -1;
}

/*
 * Run statement @i and print its rows as one table (text; a blank line
 * before it unless it is the first table, *@tables) or JSON lines.  A
 * statement without result columns (INSERT, CREATE ...) prints nothing.
 */
static void run_stmt(struct sql *q, int i, const struct stats_stamp *stamp, int *tables)
{
	struct sql_stmt *ss = &q->stmts[i];
	sqlite3_stmt *st = ss->st;
	FILE *out = session__out(q->s);
	struct result r = { 0 };
	union rt_sinks u;
	struct rt_sink *k;
	bool nomem = false;
	int rc, nc;

	if (!st && prepare(q, ss))
		return; /* a profiler's table not there yet: see sql_deinit */
	st = ss->st;
	rc = sqlite3_step(st); /* first: it re-prepares the statement if the schema changed */
	nc = sqlite3_column_count(st);
	if (nc + 1 > RT_MAX_COLS)
		nc = RT_MAX_COLS - 1;
	r.cols[0] = (struct rt_col){ .name = "stmt", .type = RT_U64, .flags = RT_NO_TEXT };
	r.d = (struct rt_desc){ .type = "sql", .cols = r.cols, .ncols = nc + 1 };
	for (int c = 0; c < nc; c++) {
		const char *name = sqlite3_column_name(st, c);
		const char *n = (r.names[c + 1] = strdup(name ? name : "?")) ? r.names[c + 1] : "?";

		r.cols[c + 1] =
			(struct rt_col){ .name = n, .title = n, .type = RT_STR, .flags = RT_FIT };
	}
	for (; rc == SQLITE_ROW; rc = sqlite3_step(st))
		if (result_add(&r, st, i + 1)) {
			rc = SQLITE_NOMEM;
			nomem = true;
			break;
		}
	if (rc != SQLITE_DONE) {
		char b[1024];

		session__warn(q->s, "--query: %s (in: %s)",
			      nomem ? sqlite3_errstr(rc) : sqlite3_errmsg(q->db),
			      oneline(ss->text, b, sizeof(b)));
	}
	sqlite3_reset(st);
	if (!nc) {
		result_free(&r);
		return;
	}
	if (!session__json(q->s) && (*tables)++)
		fputc('\n', out);
	k = session__json(q->s) ? rt_json__init(&u.json, out, stamp) : rt_text__init(&u.text, out);
	for (size_t j = 0; j < r.n; j++)
		rtable__fit(k, &r.d, &r.v[j * r.d.ncols]);
	rtable__begin(k, &r.d);
	for (size_t j = 0; j < r.n; j++)
		rtable__row(k, &r.v[j * r.d.ncols]);
	rtable__end(k);
	result_free(&r);
}

static void run_queries(struct sql *q, int when)
{
	FILE *out = session__out(q->s);
	struct stats_stamp st;
	int tables = 0;

	if (sqldb__commit(q) || !q->nr_stmts)
		return;
	stats_stamp__now(q->s, &q->since, when, &st);
	if (!session__json(q->s) && when == STATS_INTERVAL) {
		char buf[64];

		session__fmt_time(q->s, session__now(q->s), buf, sizeof(buf));
		fprintf(out, "%s\n", buf);
	}
	for (int i = 0; i < q->nr_stmts; i++)
		run_stmt(q, i, &st, &tables);
	fflush(out);
}

static void sql_interval(struct session *s, void *priv)
{
	struct sql *q = priv;

	(void)s;
	if (q->failed)
		return;
	run_queries(q, STATS_INTERVAL);
	if (!q->file && !q->failed)
		sqldb__clear(q);
}

/* "N inserts (R/s of insert time), M commits": -v and SIGUSR2 */
static void stats_line(struct sql *q, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%llu inserts, %llu commits", (unsigned long long)q->inserts,
			 (unsigned long long)q->commits);

	if (q->timed && q->insert_ns && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n,
			 "; an insert takes %.0f ns of CPU (%.0f inserts/s; %llu timed), "
			 "commits %.3f s",
			 (double)q->insert_ns / q->timed_n, q->timed_n * 1e9 / q->insert_ns,
			 (unsigned long long)q->timed_n, q->commit_ns / 1e9);
}

/* SIGUSR2: data asked for, on the output as the CLI's own usage line */
static void sql_usage(struct session *s, void *priv)
{
	FILE *out = session__out(s);
	struct sql *q = priv;
	char buf[256];

	if (session__json(s)) {
		struct json j;

		json__begin(&j, out, "sql_stats");
		json__u64(&j, "inserts", q->inserts);
		json__u64(&j, "commits", q->commits);
		json__end(&j);
	} else {
		stats_line(q, buf, sizeof(buf));
		fprintf(out, "perf-prof sql: %s\n", buf);
	}
	fflush(out);
}

static void sql_deinit(struct session *s, void *priv)
{
	struct sql *q = priv;

	if (session__started(s) && !q->failed) {
		run_queries(q, STATS_END);
		for (int i = 0; i < q->nr_stmts; i++) {
			char b[1024];

			if (!q->stmts[i].st && q->stmts[i].why)
				session__warn(s,
					      "--query: %s (in: %s); a profiler's table appears "
					      "with its first row",
					      q->stmts[i].why,
					      oneline(q->stmts[i].text, b, sizeof(b)));
		}
		char buf[256];

		stats_line(q, buf, sizeof(buf));
		session__notice(s, "%s", buf);
	}
	if (q->db && q->in_txn)
		sqldb__commit(q);
	sqldb__finish(q);
	stmts_free(q);
	sqldb__close(q);
	ksyms__delete(q->ksyms);
	free(q->stack_buf);
	free(q->json_buf);
}

static const struct popt sql_opts[] = {
	{ .lname = "query",
	  .argname = "SQL",
	  .help = "statements (';'-separated) run at each -i interval and at the end",
	  .multiline = true,
	  POPT_BIND_STR(struct sql, query) },
	{ .lname = "output2",
	  .argname = "FILE",
	  .help = "keep the rows in the SQLite database FILE (replaced when the run starts)",
	  POPT_BIND_STR(struct sql, output2) },
	{ 0 },
};

const struct profiler prof_sql = {
	.name = "sql",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "events as SQLite tables: query them each interval, or keep them in a file",
	.synopsis = "perf-prof sql -e EVENT[,EVENT...] [--query 'SQL;...'] [--output2 FILE.db] "
		    "[-i MS] [-g]",
	.examples =
		"perf-prof sql -e sched:sched_switch -i 1000 --query 'SELECT prev_comm, "
		"count(*) n FROM sched_switch GROUP BY prev_comm ORDER BY n DESC LIMIT 5'\n"
		"  perf-prof sql -e raw_syscalls:sys_enter --output2 sys.db -- ./a.out\n"
		"  perf-prof sql -e 'sched:sched_wakeup/alias=w/index=pid/' -i 1000 --query "
		"'SELECT comm_get(pid), count(*) FROM w GROUP BY pid'\n"
		"  perf-prof sql -e syscalls:sys_enter_getppid -g -i 1000 --query 'SELECT _stack, "
		"count(*) FROM sys_enter_getppid GROUP BY _stack'",
	.groups = (const struct opt_group *const[]){ &event_group, &target_group, &run_group,
						     &ring_group, &output_group, &stack_group,
						     &exclude_tp_group, NULL },
	.own = sql_opts,
	.ev_attrs = (const char *const[]){ "index", NULL },
	.joint = true,
	.priv_size = sizeof(struct sql),
	.init = sql_init,
	.ops = { .sample = sql_sample,
		 .inner_sample = sql_sample,
		 .interval = sql_interval,
		 .usage = sql_usage,
		 .started = sql_started },
	.deinit = sql_deinit,
};
