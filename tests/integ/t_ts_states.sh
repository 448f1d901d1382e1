#!/usr/bin/env bash
# task-state's state options as the original spells them (root): -S, -D, -SD,
# --no-interruptible, --no-uninterruptible, the last one for a state winning.
# ts_dstate 5 10: the parent waits 5 times in D (vfork) while its child sleeps
# 10 ms in S, so the rows are known: S and D, 5 each at least (R only when
# something preempts).
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }
[ -x "$W/ts_dstate" ] || { echo "no workload $W/ts_dstate (make workloads)"; exit 1; }

# ts OPTIONS...: task-state OPTIONS over the workload; status in $rc
ts() {
	"$PP" task-state "$@" -- "$W/ts_dstate" 5 10 >"$T/out" 2>"$T/err"
	rc=$?
}
# The S and D rows of the last run, each followed by "<5" if it counts fewer than the
# workload's 5 (one more D may come around the exec)
rows() { awk '$1 == "S" || $1 == "D" { printf "%s%s ", $1, ($2 >= 5 ? "" : "<5") }' "$T/out"; }
has_r() { awk '$1 == "R"' "$T/out" | wc -l; }

ts
ts
check_eq "no option: S and D" "$(rows)" "S D "
ts -S -D
check_eq "-S -D" "$(rows)" "S D "
ts -SD
check_eq "-SD (combined): S and D" "$(rows)" "S D "
check_eq "-SD: no R row" "$(has_r)" 0
check_eq "-SD: exit status" "$rc" 0
ts -S
check_eq "-S: S only" "$(rows)" "S "
ts --interruptible
check_eq "--interruptible: S only" "$(rows)" "S "
ts -D
check_eq "-D: D only" "$(rows)" "D "
ts --uninterruptible
check_eq "--uninterruptible: D only" "$(rows)" "D "
ts --no-interruptible
check_eq "--no-interruptible: no S" "$(rows)" "D "
check_eq "--no-interruptible: exit status" "$rc" 0
ts --no-uninterruptible
check_eq "--no-uninterruptible: no D" "$(rows)" "S "
ts --no-interruptible --no-uninterruptible
check_eq "--no-interruptible --no-uninterruptible: neither" "$(rows)" ""
ts -S --no-interruptible
check_eq "-S --no-interruptible: the last wins (all but S)" "$(rows)" "D "
ts --no-interruptible -S
check_eq "--no-interruptible -S: the last wins (S)" "$(rows)" "S "
ts -SD --no-uninterruptible
check_eq "-SD --no-uninterruptible: S" "$(rows)" "S "
# left out in the kernel already: -vv shows the filter asked for
"$PP" task-state --no-interruptible -vv -- true 2>&1 >/dev/null | grep -qF "event sched:sched_switch/out: filter 'prev_state != 1'"
check_eq "--no-interruptible: the kernel filter leaves S out" "$?" 0
"$PP" task-state -h | grep -q -- '--no-uninterruptible'
check_eq "-h lists --no-uninterruptible" "$?" 0

done_tests
