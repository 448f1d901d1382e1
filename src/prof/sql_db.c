// SPDX-License-Identifier: GPL-2.0
/*
 * sql's database: a table per event (its columns from engine/evfields.h),
 * a table per inner profiler's row type (its columns the first row's JSON
 * members), event_metadata, the inserts (prepared once, bound without
 * copies, batched in transactions); the SQL functions are in sql_fn.c.
 */
#include <errno.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <linux/perf_event.h>

#include "engine/evspec.h"
#include "engine/probe.h"
#include "engine/tp.h"
#include "prof/sql_int.h"
#include "sym/stack.h"

/* Rows per transaction: a commit costs a WAL write (file) or little (memory). */
#define SQL_BATCH 65536
#define SQL_MAX_FRAMES 128
/* How long a write waits for another connection's lock before it fails */
#define SQL_BUSY_MS 5000
#define NCOMMON SQL_NCOMMON /* _time, _cpu, _pid, _tid, _period */

static const char *const probe_args[] = {
	"arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "retval"
};

static u64 cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

void sqldb__calibrate(struct sql *q)
{
	u64 best = ~0ull;

	for (int i = 0; i < 200; i++) {
		u64 t0 = cpu_ns(), d = cpu_ns() - t0;

		if (d < best)
			best = d;
	}
	q->clock_ns = best;
}

static int exec(struct sql *q, const char *sql)
{
	return sqlite3_exec(q->db, sql, NULL, NULL, NULL);
}

/*
 * The run stops on a failed write: one line ([FILE: ]@what: @why), the
 * open transaction rolled back (a table it made too).
 */
static void fail_line(struct sql *q, const char *what, const char *why)
{
	if (q->failed)
		return;
	q->failed = true;
	if (q->file)
		session__output_err(q->s,
				    "%s: %s%s%s (the run stops; the database keeps the rows of the "
				    "last commit)",
				    q->output2, what ? what : "", what ? ": " : "", why);
	else
		session__output_err(q->s, "%s%s%s", what ? what : "", what ? ": " : "", why);
	if (q->in_txn && !sqlite3_get_autocommit(q->db))
		exec(q, "ROLLBACK");
	q->in_txn = false;
	session__stop(q->s);
}

void sqldb__fail(struct sql *q, int rc, const char *what)
{
	int ext = q->db ? sqlite3_extended_errcode(q->db) : rc;
	char buf[160];

	/* the extended code tells which I/O error, which lock, ... */
	if ((ext & 0xff) == (rc & 0xff) && ext != rc)
		snprintf(buf, sizeof(buf), "%s (SQLite code %d)", sqlite3_errstr(rc), ext);
	else
		snprintf(buf, sizeof(buf), "%s", sqlite3_errstr(rc));
	fail_line(q, q->file ? NULL : what, buf);
}

/* SQLite's message of the failure @rc: its own text when it has one, else @rc's */
static const char *why(struct sql *q, int rc)
{
	return rc != SQLITE_NOMEM && sqlite3_errcode(q->db) == rc ? sqlite3_errmsg(q->db)
								  : sqlite3_errstr(rc);
}

int sqldb__begin(struct sql *q)
{
	int rc;

	if (q->in_txn || q->failed)
		return q->failed ? -1 : 0;
	if ((rc = exec(q, "BEGIN")) != SQLITE_OK) {
		sqldb__fail(q, rc, "begin");
		return -1;
	}
	q->in_txn = true;
	return 0;
}

static int meta_one(struct sql *q, const struct sql_table *t)
{
	sqlite3_stmt *st = q->meta_upd;
	int rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)t->rows);
	if (t->rows) {
		sqlite3_bind_int64(st, 2, (sqlite3_int64)t->first);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)t->last);
	} else {
		sqlite3_bind_null(st, 2);
		sqlite3_bind_null(st, 3);
	}
	sqlite3_bind_text(st, 4, t->name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* event_metadata's counts of the rows the tables hold */
static int update_meta(struct sql *q)
{
	int rc = SQLITE_OK;

	for (int i = 0; i < q->nr_tabs && rc == SQLITE_OK; i++)
		if (q->tabs[i])
			rc = meta_one(q, q->tabs[i]);
	for (int i = 0; i < q->nr_rtabs && rc == SQLITE_OK; i++)
		rc = meta_one(q, q->rtabs[i]);
	return rc;
}

int sqldb__commit(struct sql *q)
{
	u64 t0 = q->timed ? cpu_ns() : 0;
	int rc;

	if (!q->in_txn)
		return q->failed ? -1 : 0;
	/* event_metadata's counts in the rows' transaction: they agree whatever fails */
	if ((rc = update_meta(q)) == SQLITE_OK)
		rc = exec(q, "COMMIT");
	if (q->timed)
		q->commit_ns += cpu_ns() - t0;
	if (rc != SQLITE_OK) {
		sqldb__fail(q, rc, "insert");
		return -1;
	}
	q->in_txn = false;
	q->pending = 0;
	q->commits++;
	return 0;
}

void sqldb__finish(struct sql *q)
{
	int rc;

	if (!q->file || q->failed || !q->db || q->in_txn)
		return;
	/*
	 * The WAL folded back: a reader that cannot create FILE-shm (a
	 * read-only directory, another user) opens a rollback-journal file.
	 */
	if ((rc = exec(q, "PRAGMA journal_mode=DELETE")) != SQLITE_OK)
		session__warn(q->s, "%s: stays in WAL mode: %s", q->output2, sqlite3_errmsg(q->db));
}

/* ---- tables ---- */

int sqldb__open(struct sql *q, const char *path)
{
	bool mem = !strcmp(path, ":memory:");
	int rc;

	/* one thread uses it: no mutexes (they cost a tenth of an insert) */
	rc = sqlite3_open_v2(path, &q->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			     NULL);
	if (rc != SQLITE_OK)
		return session__set_err(q->s, -EIO, "%s: %s", path,
					q->db ? sqlite3_errmsg(q->db) : sqlite3_errstr(rc));
	q->file = !mem;
	/* another connection (a reader of the file, sqlite3) may hold the lock a moment */
	if (!mem)
		sqlite3_busy_timeout(q->db, SQL_BUSY_MS);
	/*
	 * Memory: no journal (nothing outlives the process).  A file: WAL with
	 * synchronous=NORMAL can lose the last commits on a power cut but never
	 * leaves a corrupt database; a write that fails (a full disk) rolls the
	 * open transaction back and keeps every committed row.
	 */
	rc = exec(q, "PRAGMA page_size=65536; PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY;");
	if (rc == SQLITE_OK) /* (64 KiB pages: a third less CPU per insert than 4 KiB ones) */
		rc = exec(q, mem ? "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
				 : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
	if (rc == SQLITE_OK)
		rc = exec(q, "CREATE TABLE event_metadata (table_name TEXT PRIMARY KEY, "
			     "event_system TEXT, event_name TEXT, event_id INTEGER, "
			     "filter_expression TEXT, has_stack INTEGER, field_count INTEGER, "
			     "sample_count INTEGER, first_sample_time INTEGER, "
			     "last_sample_time INTEGER)");
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v3(q->db,
					"UPDATE event_metadata SET sample_count=?1, "
					"first_sample_time=?2, last_sample_time=?3 "
					"WHERE table_name=?4",
					-1, SQLITE_PREPARE_PERSISTENT, &q->meta_upd, NULL);
	if (rc == SQLITE_OK && sqldb__functions(q))
		rc = SQLITE_NOMEM;
	if (rc != SQLITE_OK)
		return session__set_err(q->s, -EIO, "%s: %s", path, sqlite3_errmsg(q->db));
	return 0;
}

static void table_free(struct sql_table *t)
{
	if (!t)
		return;
	sqlite3_finalize(t->ins);
	free(t->cols);
	free(t->name);
	free(t);
}

void sqldb__free_tables(struct sql *q)
{
	for (int i = 0; i < q->nr_tabs; i++)
		table_free(q->tabs[i]);
	for (int i = 0; i < q->nr_rtabs; i++)
		table_free(q->rtabs[i]);
	free(q->tabs);
	free(q->rtabs);
	q->tabs = q->rtabs = NULL;
	q->nr_tabs = q->nr_rtabs = 0;
}

void sqldb__close(struct sql *q)
{
	for (int i = 0; i < q->nr_stmts; i++) {
		sqlite3_finalize(q->stmts[i].st);
		q->stmts[i].st = NULL;
	}
	sqldb__free_tables(q);
	sqlite3_finalize(q->meta_upd);
	q->meta_upd = NULL;
	if (q->db && sqlite3_close(q->db) != SQLITE_OK)
		session__output_err(q->s, "%s: %s",
				    q->output2 ? q->output2 : ":memory:", sqlite3_errmsg(q->db));
	q->db = NULL;
}

/* SQLite's own names and event_metadata: never an event's table */
static bool name_reserved(const char *name)
{
	return !strcasecmp(name, "event_metadata") || !strncasecmp(name, "sqlite_", 7);
}

/* A table of ours is called @name (as SQLite compares names: ignoring case) */
static bool table_exists(struct sql *q, const char *name)
{
	for (int i = 0; i < q->nr_tabs; i++)
		if (q->tabs[i] && !strcasecmp(q->tabs[i]->name, name))
			return true;
	for (int i = 0; i < q->nr_rtabs; i++)
		if (!strcasecmp(q->rtabs[i]->name, name))
			return true;
	return false;
}

/* @name is a table's or an index's (tables and indexes share one namespace), or reserved */
static bool name_taken(struct sql *q, const char *name)
{
	sqlite3_stmt *st = NULL;
	bool taken = name_reserved(name) || table_exists(q, name);

	if (!taken &&
	    sqlite3_prepare_v2(q->db, "SELECT 1 FROM sqlite_master WHERE name = ?1 COLLATE NOCASE",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		taken = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return taken;
}

/* @base, or @base_N with the first N from @n that makes a free name (sqlite3_free it) */
static char *free_name(struct sql *q, const char *base, int n)
{
	char *name = sqlite3_mprintf("%s", base);

	while (name && name_taken(q, name)) {
		sqlite3_free(name);
		name = sqlite3_mprintf("%s_%d", base, n++);
	}
	return name;
}

/* The table's name: the event's without its system, or its alias= */
static char *table_name(const struct evsel *ev)
{
	const char *n = ev->spec && ev->spec->alias ? ev->spec->alias : ev->name;
	const char *c = ev->spec && ev->spec->alias ? NULL : strrchr(n, ':');
	char *r;

	if (ev->row) { /* "top:top" -> top_top */
		if ((r = strdup(ev->name)))
			for (char *p = r; *p; p++)
				if (*p == ':' || *p == '-')
					*p = '_';
		return r;
	}
	if (!c && ev->tp && !(ev->spec && ev->spec->alias))
		n = ev->tp->name;
	return strdup(c ? c + 1 : n);
}

static int add_meta(struct sql *q, struct sql_table *t)
{
	const struct evsel *ev = t->ev;
	const char *sys = ev->probe && ev->spec ? ev_probe__name(ev->spec->probe)
			  : ev->tp		? ev->tp->system
			  : ev->row		? ev->row_by
						: NULL;
	const char *name = ev->probe && ev->spec ? ev->spec->name
			   : ev->tp		 ? ev->tp->name
			   : ev->row		 ? strchr(ev->name, ':') + 1
						 : ev->name;
	char id[24] = "NULL", *sql;
	int rc;

	if (ev->tp)
		snprintf(id, sizeof(id), "%d", ev->tp->id);
	sql = sqlite3_mprintf(
		"INSERT INTO event_metadata VALUES(%Q, %Q, %Q, %s, %Q, %d, %d, 0, NULL, NULL)",
		t->name, sys, name, id, ev->filter, t->stack, t->ncols);
	if (!sql)
		return SQLITE_NOMEM;
	rc = exec(q, sql);
	sqlite3_free(sql);
	return rc;
}

/*
 * The columns of @ev: its tracepoint fields, or a probe's arguments.
 * @why gets a usage error's text.
 */
static int event_cols(struct sql_table *t, struct evsel *ev)
{
	const struct evfields *fs = evsel__evfields(ev);
	int nargs = ev->probe ? (int)(sizeof(probe_args) / sizeof(probe_args[0])) : 0;

	if (!(t->cols = calloc((fs ? fs->n : 0) + nargs + 1, sizeof(*t->cols))))
		return -ENOMEM;
	for (int i = 0; fs && i < fs->n; i++) {
		struct sql_col *c = &t->cols[t->ncols++];
		enum evf_kind k = fs->f[i].kind;

		c->f = &fs->f[i];
		c->name = fs->f[i].name;
		c->kind = k == EVF_STR			   ? SQLC_TEXT
			  : k == EVF_ARR || k == EVF_BYTES ? SQLC_BLOB
							   : SQLC_INT;
	}
	/* a probe's arguments in registers (those of a typed fetch are in its format) */
	for (int i = 0; i < nargs; i++) {
		struct sql_col *c = &t->cols[t->ncols];

		if ((fs && evfields__find(fs, probe_args[i])) ||
		    evsel__field(ev, probe_args[i], &c->pf) || !c->pf.valid)
			continue;
		c->kind = SQLC_PARG;
		c->name = probe_args[i];
		t->ncols++;
	}
	return 0;
}

const char *const sqldb__common_cols[NCOMMON] = { "_time", "_cpu", "_pid", "_tid", "_period" };
#define common_cols sqldb__common_cols

/* CREATE TABLE of the columns not skipped, INSERT prepared; @meta: event_metadata's row */
static int table_create(struct sql *q, struct sql_table *t, bool meta)
{
	sqlite3_str *c = sqlite3_str_new(q->db), *in = sqlite3_str_new(q->db);
	char *create, *insert;
	int rc, n = 0;

	sqlite3_str_appendf(c, "CREATE TABLE \"%w\" (", t->name);
	sqlite3_str_appendf(in, "INSERT INTO \"%w\" VALUES(", t->name);
	for (int i = 0; i < NCOMMON; i++)
		if (!(t->common_skip & (1u << i)))
			sqlite3_str_appendf(c, "%s%s INTEGER", n++ ? ", " : "", common_cols[i]);
	for (int i = 0; i < t->ncols; i++)
		if (!t->cols[i].skip)
			sqlite3_str_appendf(c, "%s\"%w\" %s", n++ ? ", " : "", t->cols[i].name,
					    t->cols[i].kind == SQLC_TEXT   ? "TEXT"
					    : t->cols[i].kind == SQLC_BLOB ? "BLOB"
									   : "INTEGER");
	if (t->stack && !t->stack_skip)
		sqlite3_str_appendf(c, "%s_stack TEXT", n++ ? ", " : "");
	if (!n) /* a query that reads none (count(*)): SQLite wants a column */
		sqlite3_str_appendall(c, "_ INTEGER");
	sqlite3_str_appendall(c, ")");
	for (int i = 0; i < n; i++)
		sqlite3_str_appendf(in, "%s?", i ? "," : "");
	sqlite3_str_appendall(in, n ? ")" : "NULL)");
	create = sqlite3_str_finish(c);
	insert = sqlite3_str_finish(in);
	rc = !create || !insert ? SQLITE_NOMEM : exec(q, create);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v3(q->db, insert, -1, SQLITE_PREPARE_PERSISTENT, &t->ins,
					NULL);
	if (rc == SQLITE_OK && meta)
		rc = add_meta(q, t);
	sqlite3_free(create);
	sqlite3_free(insert);
	return rc;
}

/* SQLite's column names ignore case too */
static bool has_col(const struct sql_table *t, const char *name)
{
	for (int i = 0; i < NCOMMON; i++)
		if (!strcasecmp(common_cols[i], name))
			return true;
	for (int i = 0; i < t->ncols; i++)
		if (!strcasecmp(t->cols[i].name, name))
			return true;
	return t->stack && !strcasecmp(name, "_stack");
}

/*
 * index= of @t's event: "TABLE_FIELD", or TABLE_FIELD_N when that name is
 * taken (by a table, or another index: one namespace).  The tables are all
 * made first: an index never takes the name an event's table asks for.
 */
static int table_index(struct sql *q, struct sql_table *t)
{
	const char *index = t->ev->spec ? evspec__attr(t->ev->spec, "index") : NULL;
	char *base, *name = NULL, *ix = NULL;
	int rc;

	if (!index)
		return 0;
	base = sqlite3_mprintf("%s_%s", t->name, index);
	name = base ? free_name(q, base, 2) : NULL;
	ix = name ? sqlite3_mprintf("CREATE INDEX \"%w\" ON \"%w\"(\"%w\")", name, t->name, index)
		  : NULL;
	rc = ix ? exec(q, ix) : SQLITE_NOMEM;
	if (rc != SQLITE_OK)
		session__set_err(q->s, -EIO, "index=%s of table %s: %s", index, t->name,
				 rc == SQLITE_NOMEM ? sqlite3_errstr(rc) : sqlite3_errmsg(q->db));
	sqlite3_free(base);
	sqlite3_free(name);
	sqlite3_free(ix);
	return rc == SQLITE_OK ? 0 : -1;
}

/* The table of @ev made: at init (@strict: names must be unique) or on its first sample. */
static struct sql_table *event_table(struct sql *q, struct evsel *ev, bool strict)
{
	const char *index = ev->spec ? evspec__attr(ev->spec, "index") : NULL;
	struct sql_table *t = calloc(1, sizeof(*t));
	int rc;

	if (!t || !(t->name = table_name(ev)) || event_cols(t, ev)) {
		session__set_err(q->s, -ENOMEM, "out of memory");
		goto err;
	}
	t->ev = ev;
	t->stack = !!(ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	if (strict && name_reserved(t->name)) {
		session__usage_err(
			q->s,
			"table %s: a name SQLite or sql keeps for itself (event_metadata, "
			"sqlite_*): give the event another alias=NAME",
			t->name);
		goto err;
	}
	if (strict && table_exists(q, t->name)) {
		session__usage_err(q->s, "two events make table %s: give one of them alias=NAME",
				   t->name);
		goto err;
	}
	if (name_taken(q, t->name)) { /* a profiler's event, at its first sample: NAME_N */
		char *n = free_name(q, t->name, ev->idx);

		free(t->name);
		t->name = n ? strdup(n) : NULL;
		sqlite3_free(n);
		if (!t->name) {
			session__set_err(q->s, -ENOMEM, "out of memory");
			goto err;
		}
	}
	if (index && (!*index || !has_col(t, index))) {
		session__usage_err(q->s, "index=%s: table %s has no such column", index, t->name);
		goto err;
	}
	if ((rc = table_create(q, t, true)) != SQLITE_OK) {
		session__set_err(q->s, -EIO, "table %s: %s", t->name, why(q, rc));
		goto err;
	}
	return t;
err:
	table_free(t);
	return NULL;
}

static int put_table(struct sql *q, struct sql_table *t)
{
	int idx = t->ev->idx;

	if (idx >= q->nr_tabs) {
		struct sql_table **n = realloc(q->tabs, (idx + 1) * sizeof(*n));

		if (!n)
			return -1;
		memset(n + q->nr_tabs, 0, (idx + 1 - q->nr_tabs) * sizeof(*n));
		q->tabs = n;
		q->nr_tabs = idx + 1;
	}
	q->tabs[idx] = t;
	return 0;
}

int sqldb__rebuild(struct sql *q, struct sql_table *t)
{
	char *drop = sqlite3_mprintf("DROP TABLE \"%w\"", t->name);
	int rc = drop ? exec(q, drop) : SQLITE_NOMEM;

	sqlite3_free(drop);
	sqlite3_finalize(t->ins);
	t->ins = NULL;
	if (rc == SQLITE_OK)
		rc = table_create(q, t, false);
	if (rc != SQLITE_OK)
		return session__set_err(q->s, -EIO, "table %s: %s", t->name, why(q, rc));
	return table_index(q, t);
}

int sqldb__create_tables(struct sql *q, bool strict)
{
	for (struct evsel *ev = session__evsels(q->s); ev; ev = ev->next) {
		struct sql_table *t;

		if (!(t = event_table(q, ev, strict)))
			return -1;
		if (put_table(q, t)) {
			table_free(t);
			return session__set_err(q->s, -ENOMEM, "out of memory");
		}
	}
	for (int i = 0; i < q->nr_tabs; i++)
		if (q->tabs[i] && table_index(q, q->tabs[i]))
			return -1;
	return 0;
}

/* The JSON members of a row's payload as an object in q->json_buf, or NULL. */
static const char *row_json(struct sql *q, const struct sample *smp, int *len)
{
	const char *p = smp->raw, *m;
	size_t nt, nm;

	if (!p || !smp->raw_size)
		return NULL;
	nt = strnlen(p, smp->raw_size);
	if (nt + 1 >= smp->raw_size)
		return NULL;
	m = p + nt + 1;
	nm = strnlen(m, smp->raw_size - nt - 1);
	if (nm + 3 > q->json_cap) {
		char *b = realloc(q->json_buf, nm + 3);

		if (!b)
			return NULL;
		q->json_buf = b;
		q->json_cap = nm + 3;
	}
	q->json_buf[0] = '{';
	memcpy(q->json_buf + 1, m, nm);
	q->json_buf[nm + 1] = '}';
	q->json_buf[nm + 2] = 0;
	*len = (int)nm + 2;
	return q->json_buf;
}

/* @k is _time or a member kept before it (@keys, @n), as SQLite compares column names */
static bool key_taken(char **keys, int n, const char *k)
{
	if (!strcasecmp(k, "_time"))
		return true;
	for (int i = 0; i < n; i++)
		if (!strcasecmp(keys[i], k))
			return true;
	return false;
}

/*
 * A row table from the members of its first row (@json); a member named
 * _time or like one before it (ignoring case) is left out.  NULL with the
 * session's error set.
 */
static struct sql_table *row_table(struct sql *q, struct evsel *ev, const char *json, int len)
{
	sqlite3_str *c = sqlite3_str_new(q->db), *in = sqlite3_str_new(q->db);
	struct sql_table *t = calloc(1, sizeof(*t));
	sqlite3_stmt *each = NULL;
	char *create = NULL, *insert = NULL, *full = NULL, **keys = NULL;
	int rc = SQLITE_NOMEM, nkeys = 0;

	if (!t || !(t->name = table_name(ev)))
		goto err;
	t->ev = ev;
	t->row = true;
	if (name_taken(q, t->name)) { /* NAME_N */
		char *n = free_name(q, t->name, 2);

		free(t->name);
		t->name = n ? strdup(n) : NULL;
		sqlite3_free(n);
		if (!t->name)
			goto err;
	}
	sqlite3_str_appendf(c, "CREATE TABLE \"%w\" (_time INTEGER", t->name);
	sqlite3_str_appendall(in, "VALUES(?1");
	rc = sqlite3_prepare_v2(q->db, "SELECT key, type FROM json_each(?1)", -1, &each, NULL);
	if (rc != SQLITE_OK)
		goto err;
	sqlite3_bind_text(each, 1, json, len, SQLITE_STATIC);
	while ((rc = sqlite3_step(each)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(each, 0);
		const char *ty = (const char *)sqlite3_column_text(each, 1);
		char **nk;

		if (!k || !ty || strchr(k, '"') || key_taken(keys, nkeys, k))
			continue;
		if (!(nk = realloc(keys, (nkeys + 1) * sizeof(*nk))) || !(nk[nkeys] = strdup(k))) {
			keys = nk ? nk : keys;
			rc = SQLITE_NOMEM;
			goto err;
		}
		keys = nk;
		sqlite3_str_appendf(c, ", \"%w\" %s", k,
				    !strcmp(ty, "integer") || !strcmp(ty, "true") ||
						    !strcmp(ty, "false")
					    ? "INTEGER"
				    : !strcmp(ty, "real") ? "REAL"
				    : !strcmp(ty, "text") ? "TEXT"
							  : "");
		sqlite3_str_appendf(in, ", json_extract(?2, '$.\"%q\"')", k);
		nkeys++;
	}
	if (rc != SQLITE_DONE)
		goto err;
	sqlite3_str_appendall(c, ")");
	sqlite3_str_appendall(in, ")");
	create = sqlite3_str_finish(c);
	insert = sqlite3_str_finish(in);
	c = in = NULL;
	rc = SQLITE_NOMEM;
	if (!create || !insert || (rc = exec(q, create)) != SQLITE_OK)
		goto err;
	full = sqlite3_mprintf("INSERT INTO \"%w\" %s", t->name, insert);
	rc = full ? sqlite3_prepare_v3(q->db, full, -1, SQLITE_PREPARE_PERSISTENT, &t->ins, NULL)
		  : SQLITE_NOMEM;
	t->ncols = t->nkeys = nkeys;
	if (rc == SQLITE_OK)
		rc = add_meta(q, t);
	if (rc != SQLITE_OK)
		goto err;
	rc = 0;
	goto out;
err:
	session__set_err(q->s, -EIO, "table %s: %s", t && t->name ? t->name : ev->name, why(q, rc));
	table_free(t);
	t = NULL;
out:
	for (int i = 0; i < nkeys; i++)
		free(keys[i]);
	sqlite3_free(c ? sqlite3_str_finish(c) : NULL);
	sqlite3_free(in ? sqlite3_str_finish(in) : NULL);
	sqlite3_finalize(each);
	sqlite3_free(create);
	sqlite3_free(insert);
	sqlite3_free(full);
	free(keys);
	return t;
}

/*
 * The table of @ev, made at its first sample (a profiler's event or rows).
 * One that cannot be made stops the run (its transaction, and with it what
 * was made of the table, rolled back), as a failed insert does.
 */
static struct sql_table *table_of(struct sql *q, struct evsel *ev, const struct sample *smp)
{
	struct sql_table *t;

	if (!ev->row) {
		if (ev->idx < q->nr_tabs && q->tabs[ev->idx])
			return q->tabs[ev->idx];
		if (!(t = event_table(q, ev, false)))
			goto fail;
		if (put_table(q, t)) {
			table_free(t);
			goto nomem;
		}
		if (table_index(q, t))
			goto fail;
		return t;
	}
	for (int i = 0; i < q->nr_rtabs; i++)
		if (q->rtabs[i]->ev == ev)
			return q->rtabs[i];
	{
		struct sql_table **n = realloc(q->rtabs, (q->nr_rtabs + 1) * sizeof(*n));
		const char *json;
		int len;

		if (!n)
			goto nomem;
		q->rtabs = n;
		if (!(json = row_json(q, smp, &len)))
			return NULL; /* a row without members */
		if (!(t = row_table(q, ev, json, len)))
			goto fail;
		q->rtabs[q->nr_rtabs++] = t;
		return t;
	}
nomem:
	session__set_err(q->s, -ENOMEM, "out of memory");
fail:
	fail_line(q, NULL,
		  session__strerror(q->s) ? session__strerror(q->s) : sqlite3_errstr(SQLITE_NOMEM));
	return NULL;
}

/* The stack folded root first, ';'-joined, in q->stack_buf; NULL without one. */
static const char *folded(struct sql *q, const struct sample *smp, int *len)
{
	struct stack_ctx *ctx = session__stack(q->s);
	struct frame fr[SQL_MAX_FRAMES];
	size_t at = 0;
	int n;

	if (!ctx || !smp->nr_ips || (n = stack__frames(ctx, smp, fr, SQL_MAX_FRAMES)) <= 0)
		return NULL;
	for (int i = n - 1; i >= 0; i--) {
		size_t l = strlen(fr[i].sym);

		if (at + l + 2 > q->stack_cap) {
			size_t cap = (at + l + 2) * 2;
			char *b = realloc(q->stack_buf, cap);

			if (!b)
				return NULL;
			q->stack_buf = b;
			q->stack_cap = cap;
		}
		if (at)
			q->stack_buf[at++] = ';';
		memcpy(q->stack_buf + at, fr[i].sym, l);
		at += l;
	}
	q->stack_buf[at] = 0;
	*len = (int)at;
	return q->stack_buf;
}

static void bind_col(sqlite3_stmt *st, int i, const struct sql_col *c, const struct sample *smp)
{
	const unsigned char *p;
	unsigned len;
	u64 v;

	switch (c->kind) {
	case SQLC_INT:
		/* a u64 above INT64_MAX is stored as its two's complement */
		if (evf__u64(c->f, smp, &v))
			sqlite3_bind_null(st, i);
		else
			sqlite3_bind_int64(st, i, (sqlite3_int64)v);
		break;
	case SQLC_TEXT:
	case SQLC_BLOB:
		if (evf__bytes(c->f, smp, &p, &len))
			sqlite3_bind_null(st, i);
		else if (c->kind == SQLC_TEXT)
			sqlite3_bind_text(st, i, (const char *)p, (int)len, SQLITE_STATIC);
		else
			sqlite3_bind_blob(st, i, p, (int)len, SQLITE_STATIC);
		break;
	case SQLC_PARG:
		if (field__u64(&c->pf, smp, &v))
			sqlite3_bind_null(st, i);
		else
			sqlite3_bind_int64(st, i, (sqlite3_int64)v);
		break;
	}
}

void sqldb__insert(struct sql *q, struct evsel *ev, struct sample *smp)
{
	bool timed = q->timed && !(q->inserts & 15);
	u64 t0 = timed ? cpu_ns() : 0;
	struct sql_table *t;
	sqlite3_stmt *st;
	int rc, i = 1;

	/* begun first: a table made now is in the transaction (rolled back if it fails) */
	if (q->failed || !q->db || sqldb__begin(q) || !(t = table_of(q, ev, smp)))
		return;
	st = t->ins;
	if (!(t->common_skip & 1))
		sqlite3_bind_int64(st, i++, (sqlite3_int64)smp->time);
	if (t->row) {
		const char *json;
		int len;

		if (!(json = row_json(q, smp, &len)))
			return;
		sqlite3_bind_text(st, i, json, len, SQLITE_STATIC);
	} else {
		const char *stk;
		int len;

		const sqlite3_int64 common[NCOMMON - 1] = { smp->cpu, smp->pid, smp->tid,
							    (sqlite3_int64)smp->period };

		for (int c = 0; c < NCOMMON - 1; c++)
			if (!(t->common_skip & (2u << c)))
				sqlite3_bind_int64(st, i++, common[c]);
		for (int c = 0; c < t->ncols; c++)
			if (!t->cols[c].skip)
				bind_col(st, i++, &t->cols[c], smp);
		if (t->stack && !t->stack_skip) {
			if ((stk = folded(q, smp, &len)))
				sqlite3_bind_text(st, i, stk, len, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, i);
		}
	}
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		sqldb__fail(q, rc, "insert");
		return;
	}
	/* the earliest and latest times held (the rings' order is not time order across CPUs) */
	if (!t->rows++)
		t->first = t->last = smp->time;
	else if (smp->time < t->first)
		t->first = smp->time;
	else if (smp->time > t->last)
		t->last = smp->time;
	q->inserts++;
	if (timed) {
		u64 d = cpu_ns() - t0;

		q->insert_ns += d > q->clock_ns ? d - q->clock_ns : 0;
		q->timed_n++;
	}
	if (++q->pending >= SQL_BATCH)
		sqldb__commit(q);
}

static int clear_one(struct sql *q, struct sql_table *t)
{
	char *sql = sqlite3_mprintf("DELETE FROM \"%w\"", t->name);
	int rc = sql ? exec(q, sql) : SQLITE_NOMEM;

	sqlite3_free(sql);
	t->rows = 0;
	return rc;
}

void sqldb__clear(struct sql *q)
{
	int rc = SQLITE_OK;

	if (sqldb__begin(q)) /* the rows and event_metadata's counts emptied at once */
		return;
	for (int i = 0; i < q->nr_tabs && rc == SQLITE_OK; i++)
		if (q->tabs[i])
			rc = clear_one(q, q->tabs[i]);
	for (int i = 0; i < q->nr_rtabs && rc == SQLITE_OK; i++)
		rc = clear_one(q, q->rtabs[i]);
	if (rc != SQLITE_OK)
		sqldb__fail(q, rc, "clear");
	else
		sqldb__commit(q);
}
