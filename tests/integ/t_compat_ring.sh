#!/usr/bin/env bash
# The original's ring options (issue 21): --overwrite, a flight recorder
# (the kernel overwrites the oldest records, perf-prof reads the newest at
# the end, at SIGUSR1 and at -i), and --prio LIST (only threads whose
# kernel priority is in LIST) on oncpu, profile, task-state and rundelay.
. "$(dirname "$0")/lib.sh"

for w in ow_names spin; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done

# the N in "prev_comm=owXNNNNN" of each line, in the order printed
names() { grep -o "prev_comm=ow$2[0-9]*" "$1" | sed "s/prev_comm=ow$2//; s/^0*//"; }
# ascending NUMBERS...: each at least the one before (a preempted sleep repeats a name)
ascending() { awk 'NR > 1 && $1 + 0 < p + 0 { bad = 1 } { p = $1 } END { exit bad }'; }

# --- --overwrite at the end: only the newest records, in time order ---
# (on CPU 0 only: each CPU has a ring of its own, each keeps its newest)
"$PP" trace -e sched:sched_switch --overwrite -m 1 -- taskset -c 0 "$W/ow_names" 1000 \
	>"$T/o.out" 2>"$T/o.err"
check_eq "trace --overwrite -m 1 -- ow_names 1000: exit 0" $? 0
check_eq "trace --overwrite: nothing on stderr" "$(cat "$T/o.err")" ""
n=$(wc -l <"$T/o.out")
# one page (4096 bytes) holds at most 4096 / 104 sched_switch records (a record is > 104 bytes)
check_range "trace --overwrite -m 1: what one page holds" "$n" 5 39
check_eq "trace --overwrite: every line a sched_switch of the workload" \
	"$(grep -c 'sched:sched_switch: prev_comm=owA' "$T/o.out")" "$n"
check_eq "trace --overwrite: the newest record kept (its last name)" \
	"$(names "$T/o.out" A | tail -1)" 1000
first=$(names "$T/o.out" A | head -1)
check_range "trace --overwrite: the oldest overwritten (the first name kept)" "$first" $((1000 - 39)) 1000
check "trace --overwrite: in time order" ascending < <(names "$T/o.out" A)
# the same without --overwrite: all of them
"$PP" trace -e sched:sched_switch -- "$W/ow_names" 1000 >"$T/a.out" 2>"$T/a.err"
check_eq "trace (no --overwrite): the oldest name too" "$(names "$T/a.out" A | head -1)" 1

# --- -N with --overwrite: counts the records delivered ---
"$PP" trace -e sched:sched_switch --overwrite -m 1 -N 5 -- "$W/ow_names" 300 >"$T/n.out" 2>"$T/n.err"
check_eq "trace --overwrite -N 5: exit 0" $? 0
check_eq "trace --overwrite -N 5: 5 lines" "$(wc -l <"$T/n.out")" 5
check_eq "trace --overwrite -N 5: nothing on stderr" "$(cat "$T/n.err")" ""

# --- SIGUSR1 during the run: the content so far, each record once ---
mkfifo "$T/go"
"$PP" trace -e sched:sched_switch --overwrite -m 1 -- "$W/ow_names" 300 300 "$T/ready" "$T/go" \
	>"$T/u.out" 2>"$T/u.err" &
p=$!
for i in $(seq 600); do [ -e "$T/ready" ] && break; sleep 0.1; done
sleep 0.2 # (the workload blocks on the FIFO)
check_eq "SIGUSR1: nothing printed before it" "$(wc -c <"$T/u.out")" 0
kill -USR1 $p
for i in $(seq 600); do grep -q 'prev_comm=owA00300' "$T/u.out" && break; sleep 0.1; done
check "SIGUSR1: the first phase's newest record printed at once" grep -q 'prev_comm=owA00300' "$T/u.out"
check_eq "SIGUSR1: nothing of the second phase yet" "$(grep -c 'prev_comm=owB' "$T/u.out")" 0
echo go >"$T/go"
wait $p
check_eq "SIGUSR1 run: exit 0" $? 0
check_eq "SIGUSR1 run: nothing on stderr" "$(cat "$T/u.err")" ""
check_eq "SIGUSR1 run: the end printed the second phase's newest" "$(names "$T/u.out" B | tail -1)" 300
check_eq "SIGUSR1 run: the first phase's records before the second's" \
	"$(grep -o 'prev_comm=ow[AB]' "$T/u.out" | uniq | tr -d '\n')" "prev_comm=owAprev_comm=owB"
check_eq "SIGUSR1 run: no record printed twice" "$(sort "$T/u.out" | uniq -d | wc -l)" 0

# --- where --overwrite cannot work: one line, status 2 ---
"$PP" trace -e sched:sched_switch --overwrite --watermark 10 -- true >"$T/e.out" 2>"$T/e.err"
check_eq "--overwrite --watermark: status 2" $? 2
check_eq "--overwrite --watermark: one line" "$(cat "$T/e.err")" \
	"perf-prof trace: --watermark has no use with --overwrite (its rings are read at the end, at SIGUSR1 and at -i, never on a wakeup)"
"$PP" cpu-util --overwrite -- true >"$T/e.out" 2>"$T/e.err"
check_eq "cpu-util --overwrite: status 2" $? 2
check_eq "cpu-util --overwrite: one line" "$(cat "$T/e.err")" \
	"perf-prof cpu-util: --overwrite keeps only the newest records: cpu-util's busy time (samples per interval) needs every one as it comes (run it without --overwrite)"
"$PP" watchdog --overwrite -- true >"$T/e.out" 2>"$T/e.err"
check_eq "watchdog --overwrite: status 2" $? 2
check "watchdog --overwrite: one line" [ "$(wc -l <"$T/e.err")" = 1 ]

done_tests
