// SPDX-License-Identifier: GPL-2.0
/*
 * sql: tables of only the columns the queries read.  Without --output2 the
 * database is in memory and only --query's statements ever see it, so a
 * column none of them reads costs each insert its decoding, its binding and
 * its bytes for nothing (an insert's cost grows with its columns: about
 * half of a sched_switch row's goes to columns a GROUP BY prev_comm never
 * reads).  SQLite's authorizer, called while a statement is prepared, names
 * each column it reads (SQLITE_READ: table, column; "*" expands to every
 * column): the tables are made again with those, before anything runs.  A
 * table a statement writes (INSERT, UPDATE, DELETE, ALTER, DROP) or puts a
 * trigger or an index on keeps every column; every table does when a
 * statement reads the schema (sqlite_master, table_info) or is prepared
 * later (one naming a profiler's table, made at its first row).
 */
#include <string.h>
#include <strings.h>

#include "prof/sql_int.h"

static struct sql_table *table_named(struct sql *q, const char *name)
{
	for (int i = 0; name && i < q->nr_tabs; i++)
		if (q->tabs[i] && !q->tabs[i]->row && !strcasecmp(q->tabs[i]->name, name))
			return q->tabs[i];
	return NULL;
}

static void mark_read(struct sql_table *t, const char *col)
{
	if (!col || !*col) /* the table without a column: count(*) */
		return;
	for (int i = 0; i < SQL_NCOMMON; i++)
		if (!strcasecmp(col, sqldb__common_cols[i]))
			t->common_skip &= ~(1u << i);
	for (int i = 0; i < t->ncols; i++)
		if (!strcasecmp(col, t->cols[i].name))
			t->cols[i].skip = false;
	if (!strcasecmp(col, "_stack"))
		t->stack_skip = false;
}

/* every event table keeps every column (a statement reads the schema itself) */
static void keep_every(struct sql *q)
{
	for (int i = 0; i < q->nr_tabs; i++)
		if (q->tabs[i] && !q->tabs[i]->row)
			q->tabs[i]->keep_all = true;
}

static int authorize(void *arg, int action, const char *a1, const char *a2, const char *db,
		     const char *trigger)
{
	struct sql *q = arg;
	struct sql_table *t;

	(void)db;
	(void)trigger;
	switch (action) {
	case SQLITE_READ:
		/* the schema read as rows: what it shows must be the whole table */
		if (a1 && (!strcasecmp(a1, "sqlite_master") || !strcasecmp(a1, "sqlite_schema") ||
			   !strcasecmp(a1, "sqlite_temp_master") ||
			   !strcasecmp(a1, "sqlite_temp_schema") ||
			   !strncasecmp(a1, "pragma_table_", 13)))
			keep_every(q);
		else if ((t = table_named(q, a1)))
			mark_read(t, a2);
		break;
	case SQLITE_INSERT: /* a1: the table */
	case SQLITE_UPDATE:
	case SQLITE_DELETE:
	case SQLITE_DROP_TABLE:
	case SQLITE_DROP_TEMP_TABLE:
		if ((t = table_named(q, a1)))
			t->keep_all = true;
		break;
	/*
	 * A trigger's body is not resolved when it is made: the columns it
	 * reads, of any table, are not reported, so every table keeps them
	 * all.  The others: a2 is the table.
	 */
	case SQLITE_CREATE_TRIGGER:
	case SQLITE_CREATE_TEMP_TRIGGER:
		keep_every(q);
		break;
	case SQLITE_CREATE_INDEX:
	case SQLITE_CREATE_TEMP_INDEX:
	case SQLITE_DROP_INDEX:
	case SQLITE_DROP_TEMP_INDEX:
	case SQLITE_DROP_TRIGGER:
	case SQLITE_DROP_TEMP_TRIGGER:
	case SQLITE_ALTER_TABLE:
		if ((t = table_named(q, a2)))
			t->keep_all = true;
		break;
	case SQLITE_PRAGMA: /* table_info(T) and the like: the schema of T, or of all */
		if (a1 && (!strcasecmp(a1, "table_info") || !strcasecmp(a1, "table_xinfo") ||
			   !strcasecmp(a1, "table_list"))) {
			if (a2 && (t = table_named(q, a2)))
				t->keep_all = true;
			else
				keep_every(q);
		}
		break;
	}
	return SQLITE_OK;
}

/* the columns @t keeps: how many, of how many */
static int kept(const struct sql_table *t, int *all)
{
	int n = 0;

	*all = SQL_NCOMMON + t->ncols + t->stack;
	for (int i = 0; i < SQL_NCOMMON; i++)
		n += !(t->common_skip & (1u << i));
	for (int i = 0; i < t->ncols; i++)
		n += !t->cols[i].skip;
	return n + (t->stack && !t->stack_skip);
}

static void keep_all(struct sql_table *t)
{
	t->common_skip = 0;
	t->stack_skip = false;
	for (int i = 0; i < t->ncols; i++)
		t->cols[i].skip = false;
}

int sql__narrow(struct sql *q, int (*prepare_all)(struct sql *q))
{
	int err = 0;

	for (int i = 0; i < q->nr_stmts; i++)
		if (!q->stmts[i].st) /* prepared later: what it reads is not known now */
			return 0;
	for (int i = 0; i < q->nr_tabs; i++) {
		struct sql_table *t = q->tabs[i];

		if (!t || t->row)
			continue;
		t->common_skip = (1u << SQL_NCOMMON) - 1;
		t->stack_skip = true;
		t->keep_all = false;
		for (int c = 0; c < t->ncols; c++)
			t->cols[c].skip = true;
		/* index=FIELD: its column stays */
		if (t->ev->spec && evspec__attr(t->ev->spec, "index"))
			mark_read(t, evspec__attr(t->ev->spec, "index"));
	}
	sqlite3_set_authorizer(q->db, authorize, q);
	err = prepare_all(q);
	sqlite3_set_authorizer(q->db, NULL, NULL);
	for (int i = 0; i < q->nr_tabs && !err; i++) {
		struct sql_table *t = q->tabs[i];
		int n, all;

		if (!t || t->row)
			continue;
		if (t->keep_all)
			keep_all(t);
		if ((n = kept(t, &all)) == all)
			continue;
		if (session__verbose(q->s) > 0)
			session__notice(q->s, "table %s: %d of its %d columns, those --query reads",
					t->name, n, all);
		err = sqldb__rebuild(q, t);
	}
	/* (a failed rebuild stops the run before it starts: the session's error is set) */
	return err ? err : prepare_all(q);
}
