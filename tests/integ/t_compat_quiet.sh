#!/usr/bin/env bash
# stderr is for problems (issue 21): a successful run says nothing on stderr
# without -v.  Notices (a cpu-clock fallback, a filter run in user space, a
# workload perf-prof ended itself) come only with -v; a stop signal that
# ends the run's own workload is a clean run (exit 0); a workload that fails
# or dies on its own still gives its status and its line; the SIGUSR2 /
# --usage-self cost line and SIGUSR1's counts are data: on the output, in
# order with the events (an object of its own type under --json).  Kernel
# threads are printed with their names, never "<...>".
. "$(dirname "$0")/lib.sh"

for w in spin getppid_loop; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
sfx=$(($$ % 100000))
GP=gp_q_$sfx
EV="syscalls:sys_enter_getppid/comm == \"$GP\"/"
ln -s "$W/getppid_loop" "$T/$GP"
PMU=0
[ -e /sys/bus/event_source/devices/cpu/events/cpu-cycles ] && PMU=1

# wait_for FILE REGEX [COUNT]: until FILE has COUNT (1) lines matching REGEX (at most 60 s)
wait_for() {
	local i
	for i in $(seq 600); do
		[ "$(grep -cE "$2" "$1" 2>/dev/null)" -ge "${3:-1}" ] && return 0
		sleep 0.1
	done
	return 1
}
# wait_exec PID NAME: until perf-prof PID's workload child has exec'd NAME (monitoring is on)
wait_exec() {
	local i c
	for i in $(seq 600); do
		for c in $(pgrep -P "$1"); do
			[ "$(cat /proc/$c/comm 2>/dev/null)" = "$2" ] && return 0
		done
		sleep 0.1
	done
	return 1
}

# --- profile on a PMU-less host: the cpu-clock fallback is a notice ---
"$PP" profile -F 999 -- "$W/spin" 1 >"$T/p.out" 2>"$T/p.err"
check_eq "profile -F 999 -- spin 1: exit 0" $? 0
check "profile: the report" grep -qE 'samples of (cycles|cpu-clock) at 999 Hz' "$T/p.out"
check_eq "profile: nothing on stderr" "$(cat "$T/p.err")" ""
"$PP" profile -v -F 999 -- "$W/spin" 1 >/dev/null 2>"$T/pv.err"
if [ $PMU = 0 ]; then
	check_eq "profile -v: the fallback said once" \
		"$(grep -c '^perf-prof profile: no hardware PMU here: sampling the cpu-clock software event at 999 Hz$' "$T/pv.err")" 1
else
	check_eq "profile -v (a PMU): no fallback" "$(grep -c 'no hardware PMU' "$T/pv.err")" 0
fi

# --- cpu-util: how it measures is a notice ---
"$PP" cpu-util -C 0 -i 1000 -- sleep 0.3 >"$T/c.out" 2>"$T/c.err"
check_eq "cpu-util -C 0 -i 1000 -- sleep 0.3: exit 0" $? 0
check "cpu-util: the table" grep -q 'cpu-util: the whole run,' "$T/c.out"
check_eq "cpu-util: nothing on stderr" "$(cat "$T/c.err")" ""
"$PP" cpu-util -v -C 0 -- sleep 0.3 >/dev/null 2>"$T/cv.err"
check_eq "cpu-util -v: how it measures, said once" \
	"$(grep -c '^perf-prof cpu-util: .*utilization from cpu-clock samples every 1 ms' "$T/cv.err")" 1

# --- a filter the kernel cannot take runs in user space: a notice ---
"$PP" trace -e 'sched:sched_switch/prev_pid>next_pid/' -N 3 >"$T/f.out" 2>"$T/f.err"
check_eq "trace -e 'sched:sched_switch/prev_pid>next_pid/' -N 3: exit 0" $? 0
check "trace: 3 events, each with prev_pid > next_pid" \
	awk '{ for (i = 1; i <= NF; i++) { if ($i ~ /^prev_pid=/) p = substr($i, 10); if ($i ~ /^next_pid=/) n = substr($i, 10) }
		c++; if (!(p + 0 > n + 0)) bad = 1 } END { exit !(c == 3 && !bad) }' "$T/f.out"
check_eq "trace: nothing on stderr" "$(cat "$T/f.err")" ""
"$PP" trace -v -e 'sched:sched_switch/prev_pid>next_pid/' -N 3 >/dev/null 2>"$T/fv.err"
check_eq "trace -v: the user-space filter said once" \
	"$(grep -c "^perf-prof trace: filter 'prev_pid>next_pid' on sched:sched_switch runs in user space$" "$T/fv.err")" 1

# --- task-state -- sleep 30 stopped by SIGINT: the workload dies of it, exit 0 ---
spawn pp "$PP" task-state -- sleep 30 >"$T/ts.out" 2>"$T/ts.err"
wait_exec "$pp" sleep
kill -INT "$pp"
wait "$pp"
check_eq "task-state -- sleep 30, SIGINT: exit 0" $? 0
check "task-state: the table is printed" grep -q '^STATE ' "$T/ts.out"
check_eq "task-state: nothing on stderr" "$(cat "$T/ts.err")" ""
# the same with SIGTERM, and -v says how the workload ended
spawn pp "$PP" task-state -v -- sleep 30 >"$T/tv.out" 2>"$T/tv.err"
wait_exec "$pp" sleep
kill -TERM "$pp"
wait "$pp"
check_eq "task-state -v -- sleep 30, SIGTERM: exit 0" $? 0
check "task-state -v: says the workload ended by the stop" \
	grep -q "^perf-prof: 'sleep' ended by the stop signal (Terminated)$" "$T/tv.err"

# --- a workload that fails or dies on its own: its status and its line ---
"$PP" task-state -- sh -c 'exit 3' >"$T/w3.out" 2>"$T/w3.err"
check_eq "task-state -- sh -c 'exit 3': status 3" $? 3
check_eq "... and its line" "$(cat "$T/w3.err")" "perf-prof: 'sh' exited with status 3"
"$PP" task-state -- sh -c 'kill -TERM $$' >/dev/null 2>"$T/wk.err"
check_eq "task-state -- sh -c 'kill -TERM \$\$' (dies on its own): status 143" $? 143
check_eq "... and its line" "$(cat "$T/wk.err")" "perf-prof: 'sh' exited with status 143 (killed by a signal)"
# one that takes the stop signal and exits with a status of its own: its status
spawn pp "$PP" task-state -- sh -c "trap 'exit 3' INT; touch $T/trap.ready; while :; do sleep 0.05; done" \
	>/dev/null 2>"$T/wt.err"
wait_for_file() { local i; for i in $(seq 600); do [ -e "$1" ] && return 0; sleep 0.1; done; return 1; }
wait_for_file "$T/trap.ready"
kill -INT "$pp"
wait "$pp"
check_eq "a workload that exits 3 on the SIGINT passed on: status 3" $? 3
check_eq "... and its line" "$(cat "$T/wt.err")" "perf-prof: 'sh' exited with status 3"

# --- -N ends the run and perf-prof stops the workload: said only with -v ---
"$PP" trace -e sched:sched_switch -N 5 -- sh -c 'while :; do sleep 0.01; done' >"$T/n.out" 2>"$T/n.err"
check_eq "trace -e sched:sched_switch -N 5 -- sh -c 'while :; do sleep 0.01; done': exit 0" $? 0
check_eq "-N: 5 events" "$(grep -c 'sched:sched_switch:' "$T/n.out")" 5
check_eq "-N: nothing on stderr" "$(cat "$T/n.err")" ""
"$PP" trace -v -e sched:sched_switch -N 5 -- sh -c 'while :; do sleep 0.01; done' >/dev/null 2>"$T/nv.err"
check "-N -v: says it stopped the workload" \
	grep -qE "^perf-prof: stopped 'sh' \(pid [0-9]+\) at the end of monitoring$" "$T/nv.err"

# --- SIGUSR2 then SIGINT: the cost line on the output between the events, a clean run ---
usage_re='^perf-prof: usage: [0-9.]+% usr [0-9.]+% sys \(of one CPU, last [0-9.]+ s\), max RSS [0-9.]+ MiB, [0-9]+ records read, [0-9]+ lost$'
spawn pp "$PP" trace -e "$EV" -- sh -c \
	"$T/$GP 100 >/dev/null; touch $T/r1; while [ ! -e $T/go ]; do sleep 0.05; done; $T/$GP 100 >/dev/null; exec sleep 30" \
	>"$T/u.out" 2>"$T/u.err"
wait_for_file "$T/r1"
wait_for "$T/u.out" "$GP" 100
kill -USR2 "$pp"
check "SIGUSR2: the cost line comes on the output" wait_for "$T/u.out" "$usage_re"
touch "$T/go"
wait_exec "$pp" sleep
wait_for "$T/u.out" "$GP" 200
kill -INT "$pp"
wait "$pp"
check_eq "SIGUSR2 then SIGINT: exit 0" $? 0
check_eq "... nothing on stderr" "$(cat "$T/u.err")" ""
check_eq "... the cost line once, between the 100 events before and the 100 after" \
	"$(grep -nE "$usage_re" "$T/u.out" | cut -d: -f1)" 101
check_eq "... 200 events" "$(grep -c "$GP" "$T/u.out")" 200

# --- SIGUSR1 of a profiler without statistics: its counts on the output too ---
spawn pp "$PP" trace -e "$EV" -- sh -c \
	"$T/$GP 50 >/dev/null; touch $T/s1; exec sleep 30" >"$T/s.out" 2>"$T/s.err"
wait_for_file "$T/s1"
wait_for "$T/s.out" "$GP" 50
kill -USR1 "$pp"
check "SIGUSR1: the counts on the output" wait_for "$T/s.out" '^perf-prof: 50 events so far: syscalls:sys_enter_getppid 50$'
kill -INT "$pp"
wait "$pp"
check_eq "SIGUSR1 then SIGINT: exit 0" $? 0
check_eq "... nothing on stderr" "$(cat "$T/s.err")" ""

# --- --json: the cost line is an object of its own type ---
"$PP" trace --json --usage-self 100 -e "$EV" -- sh -c "$T/$GP 20 >/dev/null; sleep 0.35" \
	>"$T/j.out" 2>"$T/j.err"
check_eq "trace --json --usage-self 100: exit 0" $? 0
check_eq "--json: nothing on stderr" "$(cat "$T/j.err")" ""
check "--json: every line is a JSON object with a type" python3 -c '
import json, sys
for l in open(sys.argv[1]):
    assert "type" in json.loads(l)' "$T/j.out"
check "--json: usage objects, with their numbers" python3 -c '
import json, sys
u = [j for j in map(json.loads, open(sys.argv[1])) if j["type"] == "usage"]
assert len(u) >= 2, u
for j in u:
    assert set(j) == {"type", "usr_pct", "sys_pct", "span_s", "max_rss_mib", "records", "lost"}, j
    assert j["span_s"] > 0 and j["max_rss_mib"] > 0 and j["lost"] == 0
assert u[-1]["records"] >= 20' "$T/j.out"
check_eq "--json: 20 events" "$(grep -c '"type":"event"' "$T/j.out")" 20

done_tests
