#!/usr/bin/env bash
# Issue 24 benchmark: every sched:sched_switch of a context-switch-heavy workload
# into SQL tables and one GROUP BY over them, two ways, in one run:
#   perf-prof  perf-prof sql -e sched:sched_switch -C 1 -i 1000 -v
#                  --query 'SELECT prev_comm, count(*) ... GROUP BY prev_comm'
#   perf       perf record -e sched:sched_switch -C 1 -o FILE, then
#              perf script | awk (CSV) | sqlite3 .import, the same query
# The workload (`perf bench sched pipe -l LOOPS`) runs pinned to CPU 1, the
# tools pinned to CPU 0, started (events enabled) before it and stopped with
# SIGINT after it.  Per tool: events in the tables, events lost, the tool's
# CPU time (all its processes: record + script + awk + sqlite3 for perf),
# CPU per event and events inserted per CPU second; perf-prof's -v line also
# gives the CPU time of an insert alone (every 16th one timed): the insert
# rate in isolation; bench/sql_floor.c, the same rows inserted by libsqlite3
# with nothing else, gives the floor of that figure on this host.  ROUNDS rounds, interleaved; medians.
# usage: bench/sql-bench.sh [BUILD_DIR] [LOOPS] [ROUNDS]   (SQL_BENCH_PAGES: -m of both, 8192)
set -u
build=${1:-build}
loops=${2:-200000}
rounds=${3:-3}
# ring pages of both tools (SQL_BENCH_PAGES): sql spends ~1.5 us per event where
# trace spends ~0.5, so on a busy host it needs more buffer not to lose events;
# --watermark 5: woken every 5% of it, so that little is left unread at the
# SIGINT (what is not read 200 ms after it is given up: fewer rows, not lost)
pages=${SQL_BENCH_PAGES:-8192}
settle=${SQL_BENCH_SETTLE:-2}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
[ -x "$pp" ] || { echo "no $pp (make BUILD=...)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf)"; exit 1; }
command -v sqlite3 >/dev/null || { echo "needs sqlite3 (scripts/deps.sh)"; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (workload on CPU 1, tools on CPU 0)"; exit 1; }
bench_tmp sql-bench
# libsqlite3 alone, the same row shape and settings: the floor of an insert here
mkdir -p "$build/bench"
cc -O2 -std=gnu11 -Wall -Wextra -Werror -o "$build/bench/sql_floor" "$(dirname "$0")/sql_floor.c" \
	-lsqlite3 || { echo "cannot build bench/sql_floor.c (libsqlite3-dev)"; exit 1; }
Q='SELECT prev_comm, count(*) n FROM sched_switch GROUP BY prev_comm ORDER BY n DESC LIMIT 3'

workload() { taskset -c 1 perf bench sched pipe -l "$loops" >/dev/null 2>&1; }

# perf-prof: a line per round in $tmp/pp.res: rows lost cpu_s insert_ns
run_pp() {
	local sub pid rows lost cpu ins
	rm -f "$tmp/pp.pid" "$tmp/pp.out" "$tmp/pp.err" "$tmp/pp.times"
	(
		taskset -c 0 "$pp" sql -e sched:sched_switch -C 1 -m "$pages" --watermark 5 -i 1000 -v \
			--query "$Q; SELECT sum(sample_count) FROM event_metadata" >"$tmp/pp.out" \
			2>"$tmp/pp.err" &
		echo $! >"$tmp/pp.pid"
		wait $!
		times >"$tmp/pp.times"
	) &
	sub=$!
	wait_file "$tmp/pp.pid" || return 1
	pid=$(cat "$tmp/pp.pid")
	mons+=("$pid")
	wait_ready "$pid" || return 1
	workload
	sleep "$settle" # the backlog read before the stop (both tools alike)
	kill -INT "$pid"
	wait "$sub"
	rows=$(grep -oE '^perf-prof sql: [0-9]+ inserts' "$tmp/pp.err" | awk '{ print $3 }')
	lost=$(grep -oE 'lost [0-9]+ events' "$tmp/pp.err" | awk '{ s += $2 } END { print s + 0 }')
	ins=$(grep -oE 'an insert takes [0-9]+ ns' "$tmp/pp.err" | awk '{ print $4 }')
	cpu=$(child_cpu "$tmp/pp.times")
	echo "${rows:-0} $lost $cpu ${ins:-0}" >>"$tmp/pp.res"
}

# perf: record, then script -> CSV -> sqlite3 .import and the query; a line per
# round in $tmp/perf.res: rows lost cpu_s
run_perf() {
	local sub pid rows lost cpu
	rm -f "$tmp/rec.pid" "$tmp/perf.data" "$tmp/perf.times" "$tmp/sw.csv"
	(
		taskset -c 0 perf record -q -e sched:sched_switch -C 1 -m "$pages" -o "$tmp/perf.data" \
			2>"$tmp/rec.err" &
		echo $! >"$tmp/rec.pid"
		wait $!
		taskset -c 0 perf script -i "$tmp/perf.data" --show-lost-events -F tid,cpu,time,trace \
			2>/dev/null | taskset -c 0 awk -v lostf="$tmp/perf.lost" '
			/PERF_RECORD_LOST/ { for (i = 1; i <= NF; i++) if ($i == "lost") l += $(i + 1); next }
			BEGIN { print "_time,_cpu,_tid,prev_comm,prev_pid,prev_prio,prev_state,next_comm,next_pid,next_prio" }
			{
				line = $0; sub(/^ *[0-9]+ +\[[0-9]+\] +/, "", line)
				split(line, a, / +/); t = a[1]; sub(/:$/, "", t)
				cpu = $2; gsub(/[\[\]]/, "", cpu)
				v = ""; n = 0
				for (i = 2; i in a; i++) if (split(a[i], kv, "=") == 2) { v = v "," kv[2]; n++ }
				if (n == 7) print t "," cpu "," $1 v
			}
			END { print l + 0 > lostf }' >"$tmp/sw.csv"
		taskset -c 0 sqlite3 :memory: -cmd '.mode csv' -cmd ".import $tmp/sw.csv sched_switch" \
			"$Q" "SELECT count(*) FROM sched_switch" >"$tmp/perf.out"
		times >"$tmp/perf.times"
	) &
	sub=$!
	wait_file "$tmp/rec.pid" || return 1
	pid=$(cat "$tmp/rec.pid")
	mons+=("$pid")
	wait_ready "$pid" || return 1
	workload
	sleep "$settle" # the backlog read before the stop (both tools alike)
	kill -INT "$pid"
	wait "$sub"
	rows=$(tail -n 1 "$tmp/perf.out")
	[ "${rows:-0}" -gt 0 ] || { echo "  perf record gave no rows: $(tail -n 3 "$tmp/rec.err")"; return 1; }
	lost=$(cat "$tmp/perf.lost" 2>/dev/null || echo 0)
	cpu=$(child_cpu "$tmp/perf.times")
	echo "${rows:-0} $lost $cpu" >>"$tmp/perf.res"
}

med() { # FILE COLUMN
	awk -v c="$2" '{ print $c }' "$1" | median
}

printf "sql-bench: perf bench sched pipe -l %s on CPU 1 (~%s switches), tools on CPU 0, %s rounds\n" \
	"$loops" "$((2 * loops))" "$rounds"
echo "  query: $Q"
for ((r = 1; r <= rounds; r++)); do
	taskset -c 0 "$build/bench/sql_floor" 1000000 | awk '{ print $2 }' >>"$tmp/floor.res"
	run_pp || { echo "perf-prof run failed: $(cat "$tmp/pp.err")"; exit 1; }
	run_perf || { echo "perf run failed: $(cat "$tmp/rec.err")"; exit 1; }
	printf "  round %d: perf-prof %s (rows lost CPU-s insert-ns), perf %s (rows lost CPU-s), libsqlite3 alone %s ns/insert\n" "$r" \
		"$(tail -n 1 "$tmp/pp.res")" "$(tail -n 1 "$tmp/perf.res")" "$(tail -n 1 "$tmp/floor.res")"
done
echo "  perf-prof's last result:"
sed 's/^/    /' "$tmp/pp.out" | tail -n 8
echo "  perf's last result:"
sed 's/^/    /' "$tmp/perf.out"

pr=$(med "$tmp/pp.res" 1) pl=$(med "$tmp/pp.res" 2) pc=$(med "$tmp/pp.res" 3) pi=$(med "$tmp/pp.res" 4)
fl0=$(med "$tmp/floor.res" 1)
fr=$(med "$tmp/perf.res" 1) fl=$(med "$tmp/perf.res" 2) fc=$(med "$tmp/perf.res" 3)
awk -v loops="$loops" -v f0="$fl0" -v pr="$pr" -v pl="$pl" -v pc="$pc" -v pi="$pi" -v fr="$fr" -v fl="$fl" -v fc="$fc" 'BEGIN {
	pns = pr ? pc * 1e9 / pr : 0; fns = fr ? fc * 1e9 / fr : 0
	printf "\n%-34s %14s %14s %8s\n", "median", "perf-prof", "perf+sqlite3", "ratio"
	printf "%-34s %14d %14d   (of ~%d switches)\n", "events in the tables", pr, fr, 2 * loops
	printf "%-34s %14d %14d\n", "events lost", pl, fl
	printf "%-34s %14.3f %14.3f %7.2fx\n", "tool CPU s", pc, fc, fc ? pc / fc : 0
	printf "%-34s %14.0f %14.0f %7.2fx\n", "tool CPU per event (ns)", pns, fns, fns ? pns / fns : 0
	printf "%-34s %14.0f %14.0f %7.2fx\n", "events inserted per CPU second", pns ? 1e9 / pns : 0,
		fns ? 1e9 / fns : 0, (pns && fns) ? fns / pns : 0
	printf "%-34s %14.0f\n", "CPU of one insert alone (ns)", pi
	r = pi ? 1e9 / pi : 0
	printf "%-34s %14.0f   target >= 1M/s: %s\n", "inserts per second, alone", r, (r >= 1e6) ? "met" : "MISSED"
	printf "%-34s %14.0f   (%.0f/s: the most sql could reach here)\n", "libsqlite3 alone, same rows (ns)", f0, f0 ? 1e9 / f0 : 0
}'
