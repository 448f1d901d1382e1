#!/usr/bin/env bash
# sql end to end (root): GROUP BY counts equal the workloads' own calls, field
# values, -i tables adding up to the total, --json rows equal the text's,
# --output2 files that sqlite3 opens (rows, columns, alias=, index=, kept
# across intervals), the SQL functions, -g's folded _stack through known
# functions, joint sources, a full disk (a small tmpfs), and every usage rule
# with its one line and status 2, leaving nothing behind.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }
for w in getppid_loop fork_getppid burst stk_fp lat_sleep; do
	[ -x "$W/$w" ] || { echo "no workload $W/$w (make workloads)"; exit 1; }
done
command -v sqlite3 >/dev/null || { echo "no sqlite3 CLI (scripts/deps.sh)"; exit 1; }

GP=syscalls:sys_enter_getppid

# run ARGS...: perf-prof ARGS, stdout in $T/out (without the workloads' own
# last line, "... done N"), stderr in $T/err, status in $rc.
run() {
	"$PP" "$@" 2>"$T/err" | grep -vE '(^| )done [0-9]+( [0-9]+)*$' >"$T/out"
	rc=${PIPESTATUS[0]}
}
# nfiles PATH...: how many of the PATHs (a glob's words) exist
nfiles() {
	local n=0 f
	for f in "$@"; do [ -e "$f" ] && n=$((n + 1)); done
	echo $n
}
# The data lines of a one-table text output (its header left out, blank lines too).
body() { sed -n '2,$p' "$T/out" | sed '/^$/d'; }

# --- GROUP BY _pid: the parent's 300 and the child's 200 calls, exactly
run sql -e $GP -i 100000 --query 'SELECT count(*) n FROM sys_enter_getppid GROUP BY _pid ORDER BY n' \
	-- "$W/fork_getppid" 300 200
check_eq "group by _pid: status 0" "$rc" 0
check_eq "group by _pid: 200 (child) and 300 (parent)" "$(body | xargs)" "200 300"
check_eq "group by _pid: nothing on stderr" "$(cat "$T/err")" ""

# --- in memory, each table holds only the columns --query reads (-v says how many):
# the answers are those of every column; a statement that writes a table, or
# reads all of it (*), keeps every column of it
run sql -e $GP -i 100000 -v --query 'SELECT count(*) n, sum(__syscall_nr = 110) g FROM sys_enter_getppid
	GROUP BY _pid ORDER BY n' -- "$W/fork_getppid" 30 20
check_eq "narrow: the 2 columns read (_pid, __syscall_nr): counts" "$(body | xargs)" "20 20 30 30"
check "narrow: -v: 2 of the table's 10 columns" \
	grep -q 'table sys_enter_getppid: 2 of its 10 columns, those --query reads' "$T/err"
run sql -e $GP -i 100000 -v --query 'SELECT count(*) FROM sys_enter_getppid' -- "$W/fork_getppid" 30 20
check_eq "narrow: count(*) reads no column: 50 rows" "$(body | xargs)" 50
check "narrow: count(*): -v: 0 of 10 columns" grep -q 'sys_enter_getppid: 0 of its 10 columns' "$T/err"
run sql -e $GP -i 100000 -v --query 'SELECT count(*) FROM sys_enter_getppid;
	SELECT __syscall_nr, _period FROM sys_enter_getppid LIMIT 1' -- "$W/fork_getppid" 30 20
check_eq "narrow: two statements: the columns of both" "$(sed -n '$p' "$T/out" | xargs)" "110 0"
check "narrow: two statements: -v: 2 of 10 columns" grep -q 'sys_enter_getppid: 2 of its 10 columns' "$T/err"
for qq in 'SELECT * FROM sys_enter_getppid LIMIT 1' \
	'DELETE FROM sys_enter_getppid WHERE _pid = 0; SELECT count(*) FROM sys_enter_getppid'; do
	run sql -e $GP -i 100000 -v --query "$qq" -- "$W/fork_getppid" 30 20
	check_eq "narrow: every column kept (${qq%% FROM*}): status 0, no table cut" \
		"$rc $(grep -c 'columns, those --query reads' "$T/err")" "0 0"
done
check_eq "narrow: DELETE then count(*): 50 rows" "$(body | xargs)" 50
# the schema read (table_info, sqlite_master) shows the whole table; a trigger on it (its
# body's columns are not reported when it is made) keeps every column
run sql -e $GP -i 100000 --query "SELECT count(*) FROM pragma_table_info('sys_enter_getppid')" \
	-- "$W/fork_getppid" 3 2
check_eq "narrow: pragma_table_info: the 10 columns" "$(body | xargs)" 10
run sql -e $GP -i 100000 --query "SELECT sql LIKE '%__syscall_nr%' FROM sqlite_master
	WHERE name = 'sys_enter_getppid'" -- "$W/fork_getppid" 3 2
check_eq "narrow: sqlite_master: the whole CREATE" "$(body | xargs)" 1
run sql -e $GP -i 100 -v --query "CREATE TEMP TRIGGER IF NOT EXISTS tr BEFORE INSERT ON
	sys_enter_getppid WHEN NEW.__syscall_nr != 110 BEGIN SELECT RAISE(IGNORE); END;
	SELECT count(*) FROM sys_enter_getppid" -- "$W/burst" -s 3 20 300
check_eq "narrow: a trigger on the table (reading a column): status 0, no table cut" \
	"$rc $(grep -c 'columns, those --query reads' "$T/err")" "0 0"
check_eq "narrow: the trigger let every getppid in: the 60 rows" \
	"$(grep -E '^ *[0-9]+$' "$T/out" | awk '{ s += $1 } END { print s }')" 60
run sql -e "$GP/index=__syscall_nr/" -i 100000 -v --query 'SELECT count(*) FROM sys_enter_getppid' \
	-- "$W/fork_getppid" 30 20
check "narrow: index=FIELD keeps its column: 1 of 10" grep -q 'sys_enter_getppid: 1 of its 10 columns' "$T/err"

# --- field values, syscall_name, comm_get, the header
run sql -e $GP -i 100000 --query 'SELECT comm_get(_pid) comm, __syscall_nr nr,
	syscall_name(__syscall_nr) name, count(*) n FROM sys_enter_getppid GROUP BY _pid' \
	-- "$W/getppid_loop" 1234
check_eq "fields: status 0" "$rc" 0
check_eq "fields: header" "$(head -1 "$T/out" | tr -s ' ')" "comm nr name n"
check_eq "fields: comm_get, nr 110, syscall_name, 1234 calls" "$(body | tr -s ' ')" \
	"getppid_loop 110 getppid 1234"

# --- ksymbol: a kallsyms address, and one that is nothing
addr=$(awk '$3 == "schedule" { print $1; exit }' /proc/kallsyms)
run sql -e $GP -i 100000 --query "SELECT ksymbol(0x$addr) a, ksymbol(0) b" -- "$W/getppid_loop" 1
check_eq "ksymbol: schedule and ??" "$(body | tr -s ' ')" "schedule ??"

# --- a kernel address above INT64_MAX: stored negative (two's complement), ksymbol reads it
run sql -e timer:hrtimer_start -i 100000 --query "SELECT count(*), min(function < 0) FROM
	hrtimer_start WHERE comm_get(_pid) = 'lat_sleep' AND ksymbol(function) = 'hrtimer_wakeup'" \
	-- "$W/lat_sleep" 3 5
check_eq "u64 address: 3 sleeps' timers, stored negative, ksymbol hrtimer_wakeup" "$(body | xargs)" "3 1"

# --- statements without result columns print nothing
run sql -e $GP -i 100000 --query 'CREATE TEMP TABLE IF NOT EXISTS k(a); SELECT count(*) a FROM sys_enter_getppid' \
	-- "$W/getppid_loop" 7
check_eq "no result columns: only the other table" "$(cat "$T/out" | xargs)" "a 7"

# --- symbolic: a field's __print_symbolic table, by field or table.field
run sql -e irq:softirq_entry -i 100000 \
	--query "SELECT symbolic('softirq_entry.vec', 1) a, symbolic('vec', 3) b, symbolic('vec', 99) c" \
	-- "$W/getppid_loop" 1
check_eq "symbolic: TIMER NET_RX 99" "$(body | tr -s ' ')" "TIMER NET_RX 99"

# --- several statements: one table each, in order
run sql -e $GP -i 100000 --query 'SELECT count(*) a FROM sys_enter_getppid;
	SELECT table_name, sample_count, field_count FROM event_metadata;' -- "$W/getppid_loop" 77
check_eq "two statements: status 0" "$rc" 0
check_eq "two statements: headers" "$(grep -cE '^ *a$|^table_name' "$T/out")" 2
check "two statements: event_metadata has the table, 77 rows, 5 fields" \
	grep -qE '^sys_enter_getppid +77 +5$' "$T/out"

# --- -i: one table per interval, the counts adding up to the total
run sql -e $GP -i 150 --query 'SELECT count(*) n FROM sys_enter_getppid' -- "$W/burst" -s 4 250 300
check_eq "-i: status 0" "$rc" 0
stamps=$(grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2} ' "$T/out")
check_eq "-i: a table per interval and one at the end" "$(grep -c '^ *n$' "$T/out")" $((stamps + 1))
check "-i: several intervals" [ "$stamps" -ge 3 ]
check_eq "-i: the intervals add up to 1000" \
	"$(awk '/^ *[0-9]+$/ { s += $1 } END { print s }' "$T/out")" 1000

# --- --json: rows that parse, equal to the text's
q='SELECT _pid - _pid z, count(*) n, syscall_name(__syscall_nr) s, NULL nul, 1.5 r FROM sys_enter_getppid GROUP BY 1'
run sql -e $GP -i 100000 --query "$q" -- "$W/getppid_loop" 500
text=$(body | tr -s ' ')
run sql -e $GP -i 100000 --json --query "$q" -- "$W/getppid_loop" 500
check_eq "--json: status 0" "$rc" 0
check_eq "--json: one row" "$(wc -l <"$T/out")" 1
check_eq "--json: the members" "$(python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print(r["type"], r["stmt"], r["z"], r["n"], r["s"], r["nul"], r["r"])' <"$T/out")" \
	"sql 1 0 500 getppid None 1.5"
check_eq "--json: the text's values" "$text" "0 500 getppid NULL 1.5"

# --- --output2: a file sqlite3 opens, its rows and columns; an old file replaced
echo "not a database" >"$T/o.db"
run sql -e $GP --output2 "$T/o.db" -- "$W/getppid_loop" 1000
check_eq "--output2: status 0" "$rc" 0
check_eq "--output2: nothing on stdout nor stderr" "$(cat "$T/out" "$T/err")" ""
check_eq "--output2: integrity" "$(sqlite3 "$T/o.db" 'PRAGMA integrity_check')" ok
check_eq "--output2: 1000 rows" "$(sqlite3 "$T/o.db" 'SELECT count(*) FROM sys_enter_getppid')" 1000
check_eq "--output2: columns" \
	"$(sqlite3 "$T/o.db" 'SELECT group_concat(name, " ") FROM pragma_table_info("sys_enter_getppid")')" \
	"_time _cpu _pid _tid _period common_type common_flags common_preempt_count common_pid __syscall_nr"
check_eq "--output2: event_metadata" "$(sqlite3 "$T/o.db" \
	'SELECT table_name, event_system, event_name, sample_count, has_stack FROM event_metadata')" \
	"sys_enter_getppid|syscalls|sys_enter_getppid|1000|0"
check_eq "--output2: no journal left" "$(nfiles "$T"/o.db-*)" 0

# --- --output2's file is left in rollback-journal mode: another user opens it read-only
# from a read-only directory (a WAL file would need FILE-shm there)
run sql -e $GP --output2 "$T/r.db" -- "$W/getppid_loop" 10
check_eq "--output2: journal_mode delete" "$(sqlite3 "$T/r.db" 'PRAGMA journal_mode')" delete
mkdir -m 755 "$T/ro" && cp "$T/r.db" "$T/ro/" && chmod 444 "$T/ro/r.db" && chmod 555 "$T/ro" && chmod 755 "$T"
check_eq "--output2: read by another user from a read-only directory" \
	"$(setpriv --reuid=65534 --regid=65534 --clear-groups sqlite3 -readonly "$T/ro/r.db" \
		'SELECT count(*) FROM sys_enter_getppid' 2>&1)" 10

# --- --output2 with -i: the rows are kept, each query sees all so far
run sql -e $GP -i 150 --output2 "$T/k.db" --query 'SELECT count(*) n FROM sys_enter_getppid' \
	-- "$W/burst" -s 3 100 300
check_eq "--output2 -i: status 0" "$rc" 0
check_eq "--output2 -i: the last table counts all 300" "$(tail -1 "$T/out" | tr -d ' ')" 300
check_eq "--output2 -i: the file has 300" \
	"$(sqlite3 "$T/k.db" 'SELECT count(*) FROM sys_enter_getppid')" 300

# --- --output2 while another connection holds the file's write lock a moment: the inserts wait
# (the workload: once the file has its table, sqlite3 holds the write lock while getppid_loop
# runs and a second after; the command starts before sql replaces an old file: a file of its
# own, not opened before sql made it, as a probe of a file not there yet would create it and
# sql would unlink it under the probe)
cat >"$T/lock.sh" <<LOCK
until [ -s "$T/lk.db" ] && sqlite3 "$T/lk.db" 'SELECT 1 FROM sys_enter_getppid LIMIT 0' 2>/dev/null; do sleep 0.05; done
exec sqlite3 "$T/lk.db" '.timeout 10000' 'BEGIN IMMEDIATE' ".shell $W/getppid_loop 100" \
	'.shell sleep 1' 'COMMIT'
LOCK
rm -f "$T/lk.db"
run sql -e $GP -i 100 --output2 "$T/lk.db" --query "SELECT count(*) n FROM sys_enter_getppid
	WHERE comm_get(_pid) = 'getppid_loop'" -- sh "$T/lock.sh"
check_eq "locked a moment: status 0" "$rc" 0
check_eq "locked a moment: nothing on stderr" "$(cat "$T/err")" ""
check_eq "locked a moment: the 100 rows" "$(tail -1 "$T/out" | tr -d ' ')" 100

# --- alias= and index=
run sql -e "$GP/alias=g/index=__syscall_nr/" --output2 "$T/a.db" -- "$W/getppid_loop" 10
check_eq "alias=: table g" "$(sqlite3 "$T/a.db" 'SELECT count(*) FROM g')" 10
check_eq "index=: its index" "$(sqlite3 "$T/a.db" \
	"SELECT tbl_name || ' ' || sql FROM sqlite_master WHERE type = 'index' AND sql NOT NULL")" \
	'g CREATE INDEX "g___syscall_nr" ON "g"("__syscall_nr")'
check_eq "index=: used" "$(sqlite3 "$T/a.db" \
	'EXPLAIN QUERY PLAN SELECT * FROM g WHERE __syscall_nr = 110' | grep -c 'USING INDEX')" 1

# --- -g: the stack folded root first, through the workload's functions
run sql -e $GP -g -i 100000 --query 'SELECT _stack, count(*) n FROM sys_enter_getppid GROUP BY _stack' \
	-- "$W/stk_fp" 5
check_eq "-g: status 0" "$rc" 0
check "-g: one stack main;stk_a;lib_b;...getppid counted 5" \
	grep -qE '(^|;)main;stk_a;lib_b;([^ ]*;)?getppid.* +5$' "$T/out"

# --- probes: their arguments and return value as columns (pp_add(i, 1000 + i) returns a + b)
X=$W/probe_calls
if [ -x "$X" ]; then
	run sql -e "uprobe:pp_add@\"$X\",uretprobe:pp_add@\"$X\"//alias=ret/" -i 100000 --query \
		'SELECT count(*), sum(arg1), sum(arg2) FROM pp_add; SELECT sum(retval) FROM ret;
		SELECT event_system FROM event_metadata' -- "$X" 10
	check_eq "probes: status 0" "$rc" 0
	check_eq "probes: 10 calls, arg1 0..9, arg2 1000..1009, retval their sums; uprobe, uretprobe" \
		"$(grep -E '^ *[0-9a-z]+( |$)' "$T/out" | grep -v 'count\|sum\|event_system' | xargs)" \
		"10 45 10045 10090 uprobe uretprobe"
else
	skip "probes: no workload $X"
fi

# --- joint: a profiler in -e, the events still counted exactly
run sql -e "$GP,profile/-F 99/" -i 100000 --query 'SELECT count(*) n FROM sys_enter_getppid' \
	-- "$W/getppid_loop" 321
check_eq "joint: status 0" "$rc" 0
check_eq "joint: 321 calls" "$(sed -n 2p "$T/out" | tr -d ' ')" 321

# --- a profiler's rows: a table PROFILER_TYPE, _time and the members of its first row
if [ -x "$W/spin" ]; then
	run sql -e "$GP,profile/-F 99/" -i 200 --output2 "$T/j.db" -- "$W/spin" 1
	check_eq "profiler rows: status 0" "$rc" 0
	check_eq "profiler rows: profile_row's columns" "$(sqlite3 "$T/j.db" \
		"SELECT group_concat(name, ' ') FROM pragma_table_info('profile_row')")" \
		"_time samples pct function dso"
	check_eq "profiler rows: rows with samples, in event_metadata" "$(sqlite3 "$T/j.db" \
		"SELECT count(*) > 0, sum(samples) > 0 FROM profile_row" \
		"SELECT event_system || ':' || event_name FROM event_metadata WHERE table_name = 'profile_row'")" \
		"$(printf '1|1\nprofile:row')"
fi

# --- a profiler's table named before its first row: prepared later; never made: one warning
run sql -e "$GP,profile/-F 99/" -i 100000 --query 'SELECT count(*) n FROM sys_enter_getppid;
	SELECT count(*) FROM profile_row' -- "$W/getppid_loop" 5
check_eq "lazy: status 0" "$rc" 0
check_eq "lazy: the other statement ran" "$(sed -n 2p "$T/out" | tr -d ' ')" 5
check_eq "lazy: one warning" "$(cat "$T/err")" \
	"perf-prof sql: --query: no such table: profile_row (in: SELECT count(*) FROM profile_row); a profiler's table appears with its first row"

# --- a waiting statement with a ';' inside a string: kept whole, it runs once its table is there
if [ -x "$W/spin" ]; then
	run sql -e "$GP,profile/-F 99/" -i 200 --output2 "$T/s.db" \
		--query "SELECT count(*) > 0 n FROM profile_row WHERE function NOT LIKE '%;nothing;%'" \
		-- "$W/spin" 1
	check_eq "lazy with ';' in a string: status 0" "$rc" 0
	check_eq "lazy with ';' in a string: no warning" "$(cat "$T/err")" ""
	check_eq "lazy with ';' in a string: it ran (its table's last row)" \
		"$(grep -A1 -x ' *n' "$T/out" | tail -1 | tr -d ' ')" 1
fi

# --- a profiler's table that cannot be made at its first row (a preloaded shim fails the
# sqlite3_exec of the SQL that holds $PP_SQL_FAIL with SQLITE_IOERR): the run stops with one
# line, status 1; nothing of that table is left, the rows of the last commit are
cat >"$T/xfail.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
typedef struct sqlite3 sqlite3;
int sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg,
		 char **err)
{
	int (*exec)(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *,
		    char **) = dlsym(RTLD_NEXT, "sqlite3_exec");
	const char *f = getenv("PP_SQL_FAIL");

	return f && strstr(sql, f) ? 10 /* SQLITE_IOERR */ : exec(db, sql, cb, arg, err);
}
C
if [ -x "$W/spin" ] && cc -shared -fPIC -o "$T/xfail.so" "$T/xfail.c" -ldl 2>"$T/cc.err"; then
	for f in 'CREATE TABLE "profile_row"' "INSERT INTO event_metadata VALUES('profile_row'"; do
		rm -f "$T/x.db"
		PP_SQL_FAIL=$f LD_PRELOAD=$T/xfail.so run sql -e "$GP,profile/-F 99/" -i 200 \
			--output2 "$T/x.db" -- "$W/spin" 1
		check_eq "table not made ($f): status 1" "$rc" 1
		check_eq "table not made ($f): one line" "$(grep -v "workload\|killed\|exited\|perf-prof: lost" "$T/err")" \
			"perf-prof sql: $T/x.db: table profile_row: disk I/O error (the run stops; the database keeps the rows of the last commit)"
		check_eq "table not made ($f): no profile_row, the file intact" "$(sqlite3 "$T/x.db" \
			"SELECT count(*) FROM sqlite_master WHERE name LIKE 'profile_row%'" 'PRAGMA integrity_check')" \
			"$(printf '0\nok')"
	done
else
	skip "table not made: no spin workload or cannot build a preload shim"
fi

# --- SQLite out of memory converting a result value (sqlite3_column_text NULL, made so by
# a preloaded shim for the columns named nomem): a warning, the row left out, no crash
cat >"$T/nomem.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
typedef struct sqlite3_stmt sqlite3_stmt;
const unsigned char *sqlite3_column_text(sqlite3_stmt *st, int i)
{
	const unsigned char *(*text)(sqlite3_stmt *, int) = dlsym(RTLD_NEXT, "sqlite3_column_text");
	const char *(*name)(sqlite3_stmt *, int) = dlsym(RTLD_NEXT, "sqlite3_column_name");
	const char *n = name(st, i);

	return n && !strcmp(n, "nomem") ? NULL : text(st, i);
}
C
if cc -shared -fPIC -o "$T/nomem.so" "$T/nomem.c" -ldl 2>"$T/cc.err"; then
	for col in "'text'" 42; do
		LD_PRELOAD=$T/nomem.so run sql -e $GP -i 100000 \
			--query "SELECT count(*) n, $col nomem FROM sys_enter_getppid" -- "$W/getppid_loop" 3
		check_eq "out of memory in a $col value: status 0" "$rc" 0
		check_eq "out of memory in a $col value: the warning" "$(cat "$T/err")" \
			"perf-prof sql: --query: out of memory (in: SELECT count(*) n, $col nomem FROM sys_enter_getppid)"
		check_eq "out of memory in a $col value: the header, the row left out" \
			"$(cat "$T/out" | xargs)" "n nomem"
	done
else
	skip "out of memory: cannot build a preload shim: $(head -1 "$T/cc.err")"
fi

# --- -v: the inserts and commits counted
run sql -e $GP -i 100000 -v --query 'SELECT 1' -- "$W/getppid_loop" 4321
check "-v: 4321 inserts, 1 commit, an insert's CPU" \
	grep -qE '^perf-prof sql: 4321 inserts, 1 commits; an insert takes [0-9]+ ns of CPU' "$T/err"

# --- SIGUSR2: the counts so far on the output (a JSON record with --json)
for fmt in text json; do
	j=()
	[ $fmt = json ] && j=(--json)
	rm -f "$T/u2.err"
	"$PP" sql -e $GP -i 100000 "${j[@]}" -v --query 'SELECT count(*) n FROM sys_enter_getppid' \
		-- "$W/getppid_loop" 100 1500 >"$T/u2" 2>"$T/u2.err" &
	echo $! >"$T/u2.pid"
	if wait_monitoring "$T/u2.err" "$(cat "$T/u2.pid")"; then
		kill -USR2 "$(cat "$T/u2.pid")"
		wait_lines "$T/u2" 'inserts' || true
		stop "$T/u2"
		check_eq "SIGUSR2 ($fmt): status 0" "$(cat "$T/u2.rc")" 0
		if [ $fmt = json ]; then
			check "SIGUSR2 (json): a sql_stats record" \
				grep -qE '^\{"type":"sql_stats","inserts":[0-9]+,"commits":[0-9]+\}$' "$T/u2"
		else
			check "SIGUSR2 (text): the counts line" \
				grep -qE '^perf-prof sql: [0-9]+ inserts, [0-9]+ commits' "$T/u2"
		fi
	else
		check "SIGUSR2 ($fmt): perf-prof monitors" false
	fi
done

# --- usage rules and bad queries: one line, status 2, no file left
usage() { # description expected-line args...
	local d=$1 want=$2
	shift 2
	rm -f "$T/u.db"
	run "$@"
	check_eq "$d: status 2" "$rc" 2
	check_eq "$d: the line" "$(cat "$T/err")" "$want"
	check_eq "$d: no output, no file" "$(cat "$T/out"; nfiles "$T"/u.db*)" 0
}
usage "neither --query nor --output2" \
	"perf-prof sql: give --query 'SQL' (results each -i and at the end) or --output2 FILE.db (the rows kept in a file)" \
	sql -e $GP
usage "-i alone" \
	"perf-prof sql: -i: nothing to do each interval: give --query 'SQL' (or --output2 FILE.db to keep the rows)" \
	sql -e $GP -i 100
usage "--query without -i or --output2" \
	"perf-prof sql: --query would keep every event in memory until the end: give -i MS or --output2 FILE" \
	sql -e $GP --query 'SELECT 1'
usage "a syntax error" \
	'perf-prof sql: --query: near "FROM": syntax error (in: SELECT a, FROM sys_enter_getppid)' \
	sql -e $GP -i 100 --output2 "$T/u.db" --query 'SELECT 1; SELECT a, FROM sys_enter_getppid; SELECT 2'
usage "no such table" "perf-prof sql: --query: no such table: nope (in: SELECT * FROM nope)" \
	sql -e $GP -i 100 --output2 "$T/u.db" --query 'SELECT * FROM nope'
usage "no such column" \
	"perf-prof sql: --query: no such column: nope (in: SELECT nope FROM sys_enter_getppid)" \
	sql -e $GP -i 100 --query 'SELECT nope FROM sys_enter_getppid'
usage "no statement" "perf-prof sql: --query: no statement in ' ; -- nothing'" \
	sql -e $GP -i 100 --query ' ; -- nothing'
usage "two events, one table" \
	"perf-prof sql: two events make table sys_enter_getppid: give one of them alias=NAME" \
	sql -e "$GP,$GP/common_pid>0/" --output2 "$T/u.db"
usage "index= of no column" "perf-prof sql: index=nope: table sys_enter_getppid has no such column" \
	sql -e "$GP/index=nope/" --output2 "$T/u.db"
usage "--output2 in no directory" \
	"perf-prof sql: --output2 $T/none/u.db: $T/none: No such file or directory" \
	sql -e $GP --output2 "$T/none/u.db"
run sql -e "$GP/bogus=1/" --output2 "$T/u.db"
check_eq "an unknown attribute: status 2" "$rc" 2
check_eq "an unknown attribute: no file" "$(nfiles "$T"/u.db*)" 0

# --- names as SQLite compares them (ignoring case); SQLite's and sql's own names reserved
usage "two tables differing in case" \
	"perf-prof sql: two events make table w: give one of them alias=NAME" \
	sql -e "$GP/alias=W/,$GP/common_pid>0/alias=w/" --output2 "$T/u.db"
for n in event_metadata EVENT_METADATA sqlite_x; do
	usage "alias=$n" \
		"perf-prof sql: table $n: a name SQLite or sql keeps for itself (event_metadata, sqlite_*): give the event another alias=NAME" \
		sql -e "$GP/alias=$n/" --output2 "$T/u.db"
done
# index= names a column in any case; an index never takes a table's name (g__pid is one)
run sql -e "$GP/alias=g/index=_PID/,$GP/common_pid>0/alias=G__pid/index=_pid/" --output2 "$T/n.db" \
	-- "$W/getppid_loop" 10
check_eq "case: status 0" "$rc" 0
check_eq "case: nothing on stderr" "$(cat "$T/err")" ""
check_eq "case: both tables have the rows" "$(sqlite3 "$T/n.db" \
	'SELECT (SELECT count(*) FROM g) || " " || (SELECT count(*) FROM G__pid)')" "10 10"
check_eq "case: the indexes, their names free" "$(sqlite3 "$T/n.db" \
	"SELECT name || ' ' || tbl_name FROM sqlite_master WHERE type = 'index' AND sql NOT NULL ORDER BY 1")" \
	"$(printf 'G__pid__pid G__pid\ng__PID_2 g')"

# --- a full disk under --output2 (6 MiB: two batches fit): one line, status 1, the file intact
# with the rows of the last commit and event_metadata counting them
if mkdir "$T/small" && mount -t tmpfs -o size=6m tmpfs "$T/small" 2>/dev/null; then
	trap 'umount -l "$T/small" 2>/dev/null; _cleanup' EXIT
	run sql -e $GP --output2 "$T/small/f.db" -- "$W/getppid_loop" 1000000
	check_eq "full disk: status 1" "$rc" 1
	check "full disk: one line saying so" \
		grep -qx "perf-prof sql: $T/small/f.db: database or disk is full (the run stops; the database keeps the rows of the last commit)" "$T/err"
	check_eq "full disk: only that line (and the workload's end, events lost meanwhile)" \
		"$(grep -vc "workload\|killed\|exited\|perf-prof: lost" "$T/err")" 1
	check_eq "full disk: integrity" "$(sqlite3 "$T/small/f.db" 'PRAGMA integrity_check')" ok
	check_eq "full disk: the committed rows readable (whole batches of 65536, some)" \
		"$(sqlite3 "$T/small/f.db" 'SELECT count(*) % 65536, count(*) > 0 FROM sys_enter_getppid')" "0|1"
	check_eq "full disk: event_metadata counts the committed rows, their first and last times" \
		"$(sqlite3 "$T/small/f.db" 'SELECT sample_count = (SELECT count(*) FROM sys_enter_getppid),
		first_sample_time = (SELECT min(_time) FROM sys_enter_getppid),
		last_sample_time = (SELECT max(_time) FROM sys_enter_getppid) FROM event_metadata')" "1|1|1"
	umount "$T/small" && trap _cleanup EXIT
else
	skip "full disk: cannot mount a tmpfs here"
fi

done_tests
