/* SPDX-License-Identifier: GPL-2.0 */
/* sql's state, shared by sql.c (the profiler, queries) and sql_db.c (tables, inserts). */
#ifndef PP_SQL_INT_H
#define PP_SQL_INT_H

#include <sqlite3.h>
#include <stdbool.h>

#include "engine/evfields.h"
#include "engine/session.h"

enum sqlc_kind { SQLC_INT, SQLC_TEXT, SQLC_BLOB, SQLC_PARG };

/* A column of an event's table after the common ones. */
struct sql_col {
	enum sqlc_kind kind;
	const struct evf *f; /* a tracepoint field (evfields) */
	struct field pf;     /* SQLC_PARG: a probe's argument (evsel__field) */
	const char *name;
	bool skip; /* not in the table: no query reads it (sql_narrow.c) */
};

struct sql_table {
	char *name; /* SQL table name */
	struct evsel *ev;
	sqlite3_stmt *ins;
	struct sql_col *cols;
	int ncols;
	bool stack;	      /* a _stack column */
	bool row;	      /* an inner profiler's rows: _time and the first row's JSON members */
	unsigned common_skip; /* bit i: common column i not in the table (sql_narrow.c) */
	bool stack_skip;      /* no _stack column: no query reads it */
	bool keep_all;	      /* sql_narrow.c: a query writes the table, or reads it all */
	int nkeys;	      /* row: its members */
	u64 rows;	      /* what the table holds now */
	u64 first, last;      /* the earliest and latest times of its rows held */
};

/* A statement of --query. */
struct sql_stmt {
	char *text;
	sqlite3_stmt *st; /* NULL: not prepared yet (names a profiler's table: lazily) */
	char *why;	  /* why the last prepare failed */
};

struct sql {
	/* options */
	const char *query, *output2;

	struct session *s;
	sqlite3 *db;
	bool file;		 /* db is --output2's */
	struct sql_table **tabs; /* by evsel idx (session evsels) */
	int nr_tabs;
	struct sql_table **rtabs; /* inner profilers' rows, by evsel */
	int nr_rtabs;
	struct sql_stmt *stmts;
	int nr_stmts;
	sqlite3_stmt *meta_upd;
	bool in_txn, failed, joint_sources;
	u64 pending; /* rows since the last commit */
	u64 inserts, commits;
	/*
	 * -v: the CPU time of every 16th insert (CLOCK_THREAD_CPUTIME_ID, less
	 * the cost of reading that clock) and of the commits: the insert rate
	 * of this thread, whatever else shares the CPU.
	 */
	bool timed;
	u64 timed_n, insert_ns, commit_ns, clock_ns;
	u64 since; /* the stamp of the last interval */
	char *stack_buf;
	size_t stack_cap;
	char *json_buf;
	size_t json_cap;
	struct ksyms *ksyms;
	bool ksyms_tried;
};

/* sql_db.c */
int sqldb__open(struct sql *q, const char *path);
void sqldb__close(struct sql *q);
/* The tables of the session's events known now (@strict: a name twice is a usage error). */
int sqldb__create_tables(struct sql *q, bool strict);
void sqldb__insert(struct sql *q, struct evsel *ev, struct sample *smp);
int sqldb__begin(struct sql *q);
/* The rows inserted since the last commit committed, event_metadata's counts with them */
int sqldb__commit(struct sql *q);
/* --output2's file left in rollback-journal mode (the run's last write done) */
void sqldb__finish(struct sql *q);
/* Every event table emptied (an interval's rows queried, without --output2) */
void sqldb__clear(struct sql *q);
void sqldb__free_tables(struct sql *q);
/* An SQLite error of a write: the run stops, one line, status 1 */
void sqldb__fail(struct sql *q, int rc, const char *what);
/* The table @t made again with the columns not skipped (its rows, none yet, dropped) */
int sqldb__rebuild(struct sql *q, struct sql_table *t);
/* The common columns' names (_time, _cpu, _pid, _tid, _period) */
#define SQL_NCOMMON 5
extern const char *const sqldb__common_cols[SQL_NCOMMON];
/* sql_narrow.c: the event tables cut to the columns the prepared --query statements read */
int sql__narrow(struct sql *q, int (*prepare_all)(struct sql *q));
/* sql_fn.c: the SQL functions registered on q->db */
int sqldb__functions(struct sql *q);
/* -v: the cost of reading the thread's CPU clock, measured once */
void sqldb__calibrate(struct sql *q);

#endif
