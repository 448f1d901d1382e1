#!/bin/bash
# task-state on the BPF back end, its maps' bounds: an exited thread's entry
# leaves the thread map at its exit (not at the next read: without -i a long
# run's exited threads filled it); a full bucket map loses no interval (the
# rows are exact, only the quantiles miss values) and says so, not as lost.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
need_bpf task-state --bpf -- true
row() { awk -v k="$2" -v n="$3" '$1 == k { print $n; exit }' "$1"; }

# 300 processes that sleep once and exit, against a thread map of 64 entries
"$PP" task-state --bpf -S --bpf-entries 64 -- \
	sh -c 'for i in $(seq 300); do sleep 0.001; done' >"$T/ex" 2>"$T/ex.err"
check_eq "300 exits, --bpf-entries 64: status 0" $? 0
check "300 exits: no interval lost to a full thread map" \
	bash -c "! grep -q 'thread map full' '$T/ex.err'"
check_range "300 exits: their 300 sleeps and the shell's waits counted" "$(row "$T/ex" S 2)" 450 2000

# a bucket map of 4 buckets (--bpf-entries 16) against 100 sleeps of 9 lengths
# (1-9 ms: a zero-length sleep need not block, its timer may fire first)
"$PP" task-state --bpf -S --bpf-entries 16 -- \
	sh -c 'for i in $(seq 100); do sleep 0.00$((i % 9 + 1)); done' >"$T/bk" 2>"$T/bk.err"
check_eq "4 buckets: status 0" $? 0
check "4 buckets: the values left out of the quantiles are said" grep -q \
	'^perf-prof: [1-9][0-9]* latency values left out of the quantiles only (count, total, min, max exact): bucket map full' \
	"$T/bk.err"
check "4 buckets: nothing said lost or not counted" bash -c "! grep -qE 'lost|not counted' '$T/bk.err'"
# The shell (dash: vfork) waits in D until its child's exec, then in S only if
# the child still runs: a wait for a child already gone does not sleep (ftrace:
# 98 S waits of 100 in one run, and BPF counted those 98), so 100 is the bound.
check_range "4 buckets: the 100 sleeps and the shell's waits counted" "$(row "$T/bk" S 2)" 100 300

# the original's name, bpf:task-state, with its options: ts_sleep's 20 sleeps of 5 ms
# (each a row's call, at least 5 ms), on the BPF back end
[ -x "$W/ts_sleep" ] && {
	"$PP" bpf:task-state -S --perins --filter ts_sleep -v -- "$W/ts_sleep" 20 5 >"$T/al" 2>"$T/al.err"
	check_eq "bpf:task-state: status 0" $? 0
	check "bpf:task-state: the BPF back end" grep -q 'the BPF back end' "$T/al.err"
	check_eq "bpf:task-state: ts_sleep's 20 sleeps" "$(awk '$1 == "S" && $2 == "ts_sleep" { print $4 }' "$T/al")" 20
	check_range "bpf:task-state: each at least 5 ms (the min)" \
		"$(awk '$1 == "S" && $2 == "ts_sleep" { print $6 }' "$T/al" | while read -r v; do ns "$v"; done)" 5000000 1000000000
}

done_tests
