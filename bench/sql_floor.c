// SPDX-License-Identifier: GPL-2.0
/*
 * sql_floor N: the CPU time libsqlite3 alone takes to insert N rows shaped
 * like sql's sched_switch table (5 common columns, 4 common_* fields, the
 * 7 fields: 14 INTEGER and 2 TEXT of 16 bytes), with sql's settings (an
 * in-memory database, no journal, 64 KiB pages, a persistent prepared
 * statement, static binds, a commit every 65536 rows).  What perf-prof sql
 * could reach at most per insert on this host.  Prints "ns_per_insert N".
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NCOLS 16

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	static const char comm[16] = "sched-pipe";
	char create[1024], insert[256];
	int lc = 0, li = 0;
	sqlite3_stmt *st;
	sqlite3 *db;
	double t0;

	if (sqlite3_open_v2(":memory:", &db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		return 1;
	sqlite3_exec(db,
		     "PRAGMA page_size=65536; PRAGMA cache_size=-65536; PRAGMA journal_mode=OFF; "
		     "PRAGMA synchronous=OFF",
		     NULL, NULL, NULL);
	lc = snprintf(create, sizeof(create), "CREATE TABLE t (");
	li = snprintf(insert, sizeof(insert), "INSERT INTO t VALUES(");
	for (int i = 0; i < NCOLS; i++) {
		lc += snprintf(create + lc, sizeof(create) - lc, "%sc%d %s", i ? ", " : "", i,
			       i == 9 || i == 13 ? "TEXT" : "INTEGER");
		li += snprintf(insert + li, sizeof(insert) - li, "%s?", i ? "," : "");
	}
	snprintf(create + lc, sizeof(create) - lc, ")");
	snprintf(insert + li, sizeof(insert) - li, ")");
	if (sqlite3_exec(db, create, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v3(db, insert, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK)
		return 1;
	t0 = cpu_s();
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	for (long k = 0; k < n; k++) {
		for (int i = 0; i < NCOLS; i++) {
			if (i == 9 || i == 13)
				sqlite3_bind_text(st, i + 1, comm, 10, SQLITE_STATIC);
			else /* a time, then small numbers: what a sched_switch row holds */
				sqlite3_bind_int64(st, i + 1,
						   i ? (k & 0xffff) + i : 80000000000000 + k);
		}
		if (sqlite3_step(st) != SQLITE_DONE)
			return 1;
		sqlite3_reset(st);
		if ((k & 65535) == 65535)
			sqlite3_exec(db, "COMMIT; BEGIN", NULL, NULL, NULL);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	printf("ns_per_insert %.0f\n", (cpu_s() - t0) * 1e9 / (double)n);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return 0;
}
