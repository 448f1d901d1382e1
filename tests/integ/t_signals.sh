#!/usr/bin/env bash
# Signals, pipes and exit (issue 7): SIGUSR1 prints the statistics so far,
# SIGUSR2 and --usage-self perf-prof's own cost, SIGQUIT stops cleanly,
# SIGHUP reopens -o or ends the run (unless ignored by nohup), EPIPE ends
# the run with every output written, the workload dies with perf-prof and
# starts with default signals, many events close in the background, a
# successful workload is not reported, and no output file is destroyed by a
# failed or killed run.
. "$(dirname "$0")/lib.sh"

for w in getppid_loop ts_sleep; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
# our own comm names: other runs of the tests may be going on
sfx=$(($$ % 100000))
GP=gp_sig_$sfx SL=sl_sig_$sfx
ln -s "$W/getppid_loop" "$T/$GP"
ln -s "$W/ts_sleep" "$T/$SL"

monitoring() { wait_lines "$1" '^perf-prof: monitoring: [0-9]+ events enabled'; }
# wait_gone PID: until PID has exited (gone or zombie), at most 300 s; 0 if it did
wait_gone() {
	local i
	for i in $(seq 3000); do
		kill -0 "$1" 2>/dev/null || return 0
		[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ] && return 0
		sleep 0.1
	done
	return 1
}
# field N of the first table row whose first column is KEY, after line FROM
row() { awk -v k="$2" -v n="$3" -v f="${4:-0}" 'NR > f && $1 == k { print $n; exit }' "$1"; }

# --- SIGUSR1: the statistics so far, not reset ---
filter="comm == \"$GP\""
spawn pp "$PP" trace -v -e "syscalls:sys_enter_getppid/$filter/" >"$T/u1.out" 2>"$T/u1.err"
monitoring "$T/u1.err"
"$T/$GP" 1000 >/dev/null
kill -USR1 "$pp"
check "trace: SIGUSR1 gives the counts so far, on the output (issue 21)" \
	wait_lines "$T/u1.out" "^perf-prof: 1000 events so far: syscalls:sys_enter_getppid 1000$"
kill -USR1 "$pp"
check "trace: a second SIGUSR1 gives the same counts (nothing reset)" \
	wait_lines "$T/u1.out" "^perf-prof: 1000 events so far" 2
kill -TERM "$pp"
wait "$pp"
check_eq "trace: SIGTERM after SIGUSR1 exits 0" "$?" 0
check_eq "trace: every event printed" "$(grep -c "$GP" "$T/u1.out")" 1000
check_eq "trace: the counts come after the 1000 events, in order with them" \
	"$(grep -n 'events so far' "$T/u1.out" | head -1 | cut -d: -f1)" 1001
check_eq "trace: nothing of it on stderr" "$(grep -c 'events so far' "$T/u1.err")" 0

spawn pp "$PP" task-state -v -S --filter "$SL" >"$T/t1.out" 2>"$T/t1.err"
monitoring "$T/t1.err"
"$T/$SL" 20 5 >/dev/null
kill -USR1 "$pp"
wait_lines "$T/t1.out" '^STATE '
kill -USR1 "$pp"
wait_lines "$T/t1.out" '^STATE ' 2
kill -TERM "$pp"
wait "$pp"
check_eq "task-state: SIGTERM after SIGUSR1 exits 0" "$?" 0
check_eq "task-state: two snapshots and the final table" "$(grep -c '^STATE ' "$T/t1.out")" 3
check "task-state: each snapshot starts with its time" \
	grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]+$' "$T/t1.out"
h2=$(grep -n '^STATE ' "$T/t1.out" | sed -n 2p | cut -d: -f1)
h3=$(grep -n '^STATE ' "$T/t1.out" | sed -n 3p | cut -d: -f1)
s1=$(row "$T/t1.out" S 2) s2=$(row "$T/t1.out" S 2 "$h2") s3=$(row "$T/t1.out" S 2 "$h3")
# A snapshot, like an interval, holds back the last 10 ms for the time order
# (a record of another CPU may still come before them): the last sleeps may
# come in the next one.  A reset would start again from 0.
check_range "task-state: S sleeps of 20 x 5 ms in the first snapshot" "${s1:-0}" 10 21
check_range "task-state: the second snapshot is not reset" "${s2:-0}" "${s1:-99}" 21
check_range "task-state: nor is the final table" "${s3:-0}" "${s2:-99}" 21
check_range "task-state: the final table has all the sleeps" "${s3:-0}" 18 21

# --- SIGUSR2 and --usage-self: the cost line ---
usage_re='^perf-prof: usage: [0-9.]+% usr [0-9.]+% sys \(of one CPU, last [0-9.]+ s\), max RSS [0-9.]+ MiB, [0-9]+ records read, [0-9]+ lost$'
spawn pp "$PP" trace -v --usage-self 100 -e "syscalls:sys_enter_getppid/$filter/" \
	>"$T/u2.out" 2>"$T/u2.err"
monitoring "$T/u2.err"
check "--usage-self 100: a cost line comes, on the output (issue 21)" wait_lines "$T/u2.out" "$usage_re" 1
"$T/$GP" 500 >/dev/null
n=$(grep -cE "$usage_re" "$T/u2.out")
check "--usage-self 100: more cost lines come" wait_lines "$T/u2.out" "$usage_re" $((n + 2))
kill -USR2 "$pp"
kill -TERM "$pp"
wait "$pp"
check_eq "--usage-self run exits 0" "$?" 0
read_last=$(grep -E "$usage_re" "$T/u2.out" | tail -1 | sed -E 's/.* ([0-9]+) records read.*/\1/')
check_range "records read counts the 500 events" "${read_last:-0}" 500 1000000
check "RSS is reported" grep -qE 'max RSS [1-9][0-9.]* MiB' "$T/u2.out"
check_eq "no cost line on stderr" "$(grep -c 'usage:' "$T/u2.err")" 0
# in order with the data: the 500 events come between two cost lines
first=$(grep -n "$GP" "$T/u2.out" | head -1 | cut -d: -f1)
last=$(grep -n "$GP" "$T/u2.out" | tail -1 | cut -d: -f1)
check "a cost line before the events and one after them" \
	awk -v f="$first" -v l="$last" -v re="$usage_re" '$0 ~ re { if (NR < f) b = 1; if (NR > l) a = 1 } END { exit !(a && b) }' "$T/u2.out"

# --- SIGQUIT: a clean stop with the final output ---
spawn pp "$PP" task-state -v >"$T/q.out" 2>"$T/q.err"
monitoring "$T/q.err"
kill -QUIT "$pp"
wait "$pp"
check_eq "SIGQUIT: exit 0" "$?" 0
check "SIGQUIT: the final table is printed" grep -q '^STATE ' "$T/q.out"
check "SIGQUIT: stopped as interrupted" grep -q '^perf-prof: stopped: interrupted' "$T/q.err"

# alive PID: not gone, not a zombie (no fork: a flood of signals needs a fast loop)
alive() {
	local _p _c st
	read -r _p _c st _ <"/proc/$1/stat" 2>/dev/null && [ "$st" != Z ]
}
# --- stop signals after the first: timeout(1) sends its signal twice (to
# perf-prof, then to its process group; a busy host may run timeout between
# the two), scripts repeat theirs: none kills perf-prof once it is stopping
# (it would exit 130, its buffered output lost).  SIGINT sent without pause
# from the start of monitoring until perf-prof is gone.
# (SIGINT at its default: a background job of a script starts with it ignored)
spawn pp env --default-signal=INT "$PP" task-state -v -o "$T/fl.out" 2>"$T/fl.err"
monitoring "$T/fl.err"
n=0
while kill -INT "$pp" 2>/dev/null && alive "$pp"; do
	n=$((n + 1))
done
wait "$pp"
check_eq "SIGINT after SIGINT until perf-prof is gone ($n more): exit 0" "$?" 0
check "... the final table is in its -o file" grep -q '^STATE ' "$T/fl.out"
# the same with a tracefs probe (its removal holds the stop signals too)
"$T/$SL" 100000 10 >/dev/null &
tgt=$!
spawn pp env --default-signal=INT "$PP" trace -v -e 'uprobe:nanosleep@"libc.so.6"' -p "$tgt" \
	-o "$T/fu.out" 2>"$T/fu.err"
monitoring "$T/fu.err"
n=0
while kill -INT "$pp" 2>/dev/null && alive "$pp"; do
	n=$((n + 1))
done
wait "$pp"
check_eq "uprobe run: SIGINT after SIGINT until perf-prof is gone ($n more): exit 0" "$?" 0
check "... its probe removed" bash -c "! grep -qs 'perf_prof_$pp' /sys/kernel/tracing/uprobe_events"
check "... the events it saw in its -o file" grep -q 'nanosleep' "$T/fu.out"
kill "$tgt" 2>/dev/null
wait "$tgt" 2>/dev/null

# --- SIGHUP ---
# with -o: reopened (log rotation): what comes after goes to the new file
spawn pp "$PP" trace -v -e "syscalls:sys_enter_getppid/$filter/" -o "$T/rot.txt" 2>"$T/h.err"
monitoring "$T/h.err"
"$T/$GP" 300 >/dev/null
kill -USR1 "$pp" # the 300 are in the file once the snapshot line is out
wait_lines "$T/rot.txt" '^perf-prof: 300 events so far'
mv "$T/rot.txt" "$T/rot.txt.1"
kill -HUP "$pp"
check "-o: SIGHUP reopens the file" wait_lines "$T/h.err" "^perf-prof: SIGHUP: reopened '$T/rot.txt'$"
"$T/$GP" 200 >/dev/null
kill -TERM "$pp"
wait "$pp"
check_eq "-o: run with a SIGHUP exits 0" "$?" 0
check_eq "-o: the rotated file holds the events before SIGHUP" "$(grep -c "$GP" "$T/rot.txt.1")" 300
check_eq "-o: the new file holds the events after it" "$(grep -c "$GP" "$T/rot.txt")" 200

# nohup: SIGHUP stays ignored
spawn pp nohup "$PP" trace -v -e "syscalls:sys_enter_getppid/$filter/" >"$T/n.out" 2>"$T/n.err"
monitoring "$T/n.err"
kill -HUP "$pp"
kill -USR1 "$pp" # still there to answer?
check "nohup: still running after SIGHUP (answers SIGUSR1)" wait_lines "$T/n.out" 'events so far'
kill -TERM "$pp"
wait "$pp"
check_eq "nohup: exit 0 on SIGTERM" "$?" 0

# neither: SIGHUP ends the run cleanly
spawn pp "$PP" task-state -v >"$T/h2.out" 2>"$T/h2.err"
monitoring "$T/h2.err"
kill -HUP "$pp"
wait "$pp"
check_eq "SIGHUP without -o: exit 0" "$?" 0
check "SIGHUP without -o: the final table is printed" grep -q '^STATE ' "$T/h2.out"

# --- EPIPE: the reader goes away; the flame graph is still written ---
"$PP" task-state -g --flame-graph "$T/pipe.svg" -i 100 2>"$T/p.err" | head -1 >"$T/p.out"
rc=${PIPESTATUS[0]}
check_eq "| head -1: exit 0 (no SIGPIPE death)" "$rc" 0
check "| head -1: the first line came" grep -qE '^[0-9]{4}-' "$T/p.out"
check "| head -1: the flame graph is complete" grep -q '</svg>' "$T/pipe.svg"
check "| head -1: with frames" grep -q '_\[k\]' "$T/pipe.svg"
# (loss and drop reports are not errors: a slow build on a busy host has them)
check_eq "| head -1: no error on stderr" \
	"$(grep -vcE '^perf-prof: (lost|dropped|the kernel throttled|interrupted while behind) ' "$T/p.err")" 0

# --- the workload: killed with perf-prof, default signals ---
spawn pp "$PP" trace -v -e syscalls:sys_enter_getppid -- sleep 1000 >/dev/null 2>"$T/k.err"
monitoring "$T/k.err"
child=$(cat "/proc/$pp/task/$pp/children")
kill -KILL "$pp"
wait "$pp" 2>/dev/null
check "kill -9 of perf-prof ends its workload (PR_SET_PDEATHSIG)" wait_gone "${child:-1}"
# a background job of a script starts with SIGINT and SIGQUIT ignored
"$PP" trace -e syscalls:sys_enter_getppid -- grep -E '^Sig(Blk|Ign):' /proc/self/status \
	>"$T/sig.out" 2>/dev/null &
wait $!
check_eq "the workload starts with no signal blocked" \
	"$(awk '$1 == "SigBlk:" { print $2 }' "$T/sig.out")" 0000000000000000
check_eq "... and none ignored (perf-prof's were: SIGINT, SIGQUIT)" \
	"$(awk '$1 == "SigIgn:" { print $2 }' "$T/sig.out")" 0000000000000000

# --- quiet on success ---
"$PP" task-state -- true >/dev/null 2>"$T/ok.err"
check_eq "-- true: exit 0" "$?" 0
check_eq "-- true: its status is not reported" "$(grep -c 'exited with status' "$T/ok.err")" 0
"$PP" task-state -- false >/dev/null 2>"$T/ko.err"
check_eq "-- false: exit 1" "$?" 1
check "-- false: says so" grep -qx "perf-prof: 'false' exited with status 1" "$T/ko.err"
"$PP" task-state -v -- true >/dev/null 2>"$T/okv.err"
check "-v -- true: says so" grep -qx "perf-prof: 'true' exited with status 0" "$T/okv.err"

# --- no output destroyed by a failed or killed run ---
echo keep >"$T/old.txt"
"$PP" trace -e sched:nosuch -o "$T/old.txt" >/dev/null 2>&1
check_eq "unknown event: -o old.txt untouched" "$(cat "$T/old.txt")" keep
echo keep >"$T/old.svg"
"$PP" task-state -g --flame-graph "$T/old.svg" -t 999999 >"$T/f.out" 2>"$T/f.err"
check_eq "no such thread: exit 1" "$?" 1
check_eq "no such thread: old.svg untouched" "$(cat "$T/old.svg")" keep
check_eq "no such thread: nothing on stdout" "$(cat "$T/f.out")" ""
check_eq "no such thread: one line on stderr" "$(wc -l <"$T/f.err")" 1
"$PP" task-state -g --flame-graph "$T/old" -t 999999 >/dev/null 2>&1
check "no such thread: no NAME.folded created" test ! -e "$T/old.folded"
spawn pp "$PP" task-state -v -g --flame-graph "$T/old.svg" >/dev/null 2>"$T/f2.err"
monitoring "$T/f2.err"
kill -KILL "$pp"
wait "$pp" 2>/dev/null
check_eq "killed run: old.svg untouched" "$(cat "$T/old.svg")" keep
"$PP" task-state -g --flame-graph "$T/old.svg" -- "$W/ts_sleep" 5 5 >/dev/null 2>&1
check "a successful run replaces old.svg with the graph" grep -q '</svg>' "$T/old.svg"
check_eq "no temporary file left beside it" "$(ls -A "$T" | grep -cE '^(\.old\.svg\.|old\.svg\.tmp)')" 0

# --- hundreds of tracepoints: the exit does not wait for the kernel's close ---
# Each tracepoint's last perf event is closed with an RCU grace period
# (~12-40 ms here, one at a time); perf-prof hands them to a helper.
start=$(date +%s.%N)
"$PP" trace -v -e 'syscalls:*' -N 3 >"$T/sc.out" 2>"$T/sc.err"
rc=$?
end=$(date +%s.%N)
check_eq "syscalls:* -N 3: exit 0" "$rc" 0
check_eq "syscalls:* -N 3: 3 events" "$(wc -l <"$T/sc.out")" 3
closer=$(sed -nE 's/^perf-prof: closing [0-9]+ events in the background \(pid ([0-9]+)\)$/\1/p' "$T/sc.err")
check "syscalls:* -N 3: the events are closed in the background" test -n "$closer"
echo "# syscalls:* -N 3 took $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s"
cstart=$(date +%s.%N)
check "the helper ends by itself" wait_gone "${closer:-1}"
echo "# its closing took $(awk -v a="$cstart" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s more"

# --- a backlogged run answers SIGTERM with its final report, and exits ---
# stress-ng context switches and forks, a CPU hog competes with perf-prof:
# DWARF stacks pile up.  After SIGTERM the loops deliver what is left for
# 200 ms, then the report; the events' close (an RCU grace period each,
# seconds on this load) is left to a helper.
if command -v stress-ng >/dev/null; then
	spawn load bash -c 'stress-ng --switch 2 --fork 1 --timeout 0 >/dev/null 2>&1 &
		nice -n -5 bash -c "while :; do :; done" & wait'
	spawn pp "$PP" task-state -v -g --call-graph dwarf >"$T/b.out" 2>"$T/b.err"
	monitoring "$T/b.err"
	sleep 3 # a backlog builds up
	start=$(date +%s.%N)
	kill -TERM "$pp"
	wait_gone "$pp"
	wait "$pp"
	rc=$?
	end=$(date +%s.%N)
	reap "$load" KILL
	check_eq "backlog: SIGTERM ends task-state with status 0" "$rc" 0
	check "backlog: the final table is printed" grep -q '^STATE ' "$T/b.out"
	check "backlog: the events are closed in the background" \
		grep -qE '^perf-prof: closing [0-9]+ events in the background' "$T/b.err"
	check "backlog: -v says how long the stop took" \
		grep -qE '^perf-prof: done [0-9]+ ms after the stop signal \([0-9]+ ms of CPU\)$' "$T/b.err"
	echo "# backlog: $(grep -E 'done [0-9]+ ms after|interrupted while behind' "$T/b.err" | tr '\n' ' ')"
	echo "# backlog: exit $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s after SIGTERM (seen from the test)"
else
	skip "backlog: needs stress-ng"
fi

# SIGUSR1/SIGUSR2 while it starts (symbols loading, events opening): held
# until the loop reads them, never a death
"$PP" task-state -g -- sleep 1 >"$T/early.out" 2>"$T/early.err" &
ep=$!
# once perf-prof has blocked them (first thing in main), while it loads its
# symbols and opens its events: they wait for the loop, which acts on them
blocked() { # SigBlk has SIGQUIT (bit 2), SIGUSR1 (9), SIGUSR2 (11)
	local m
	m=$(awk '$1 == "SigBlk:" { print $2 }' "/proc/$ep/status" 2>/dev/null)
	[ -n "$m" ] && (((0x$m & 0xa04) == 0xa04))
}
for _ in $(seq 500); do blocked && break; sleep 0.02; done
kill -USR1 $ep 2>/dev/null
kill -USR2 $ep 2>/dev/null
wait $ep
check_eq "SIGUSR1/SIGUSR2 at start-up: exit status 0" "$?" 0
check "SIGUSR1/SIGUSR2 at start-up: the table is printed" grep -q '^STATE ' "$T/early.out"
check "SIGUSR2 at start-up: its cost line comes once the loop runs, on the output" \
	grep -q '^perf-prof: usage' "$T/early.out"
check_eq "SIGUSR1/SIGUSR2 at start-up: nothing on stderr" "$(cat "$T/early.err")" ""

done_tests
