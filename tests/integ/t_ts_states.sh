#!/usr/bin/env bash
# task-state's state options as the original spells them (root): -S, -D, -SD,
# --no-interruptible, --no-uninterruptible, the last one for a state winning,
# on both back ends (the BPF program's state mask, the ring path's kernel filter).
# ts_dstate 5 10: the parent waits 5 times in D (vfork) while its child sleeps
# 10 ms in S, so the rows are known: S and D, 5 each at least (R only when
# something preempts).
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }
[ -x "$W/ts_dstate" ] || { echo "no workload $W/ts_dstate (make workloads)"; exit 1; }

# ts OPTIONS...: task-state OPTIONS over the workload (on the back end $BK
# says: "" the default, BPF where the host has it; --no-bpf); status in $rc
ts() {
	"$PP" task-state $BK "$@" -- "$W/ts_dstate" 5 10 >"$T/out" 2>"$T/err"
	rc=$?
}
# The S and D rows of the last run, each followed by "<5" if it counts fewer than the
# workload's 5 (one more D may come around the exec)
rows() { awk '$1 == "S" || $1 == "D" { printf "%s%s ", $1, ($2 >= 5 ? "" : "<5") }' "$T/out"; }
has_r() { awk '$1 == "R"' "$T/out" | wc -l; }

# the checks, on each back end
suite() {
bk=$1
BK=$2
ts
ts
check_eq "[$bk] no option: S and D" "$(rows)" "S D "
ts -S -D
check_eq "[$bk] -S -D" "$(rows)" "S D "
ts -SD
check_eq "[$bk] -SD (combined): S and D" "$(rows)" "S D "
check_eq "[$bk] -SD: no R row" "$(has_r)" 0
check_eq "[$bk] -SD: exit status" "$rc" 0
ts -S
check_eq "[$bk] -S: S only" "$(rows)" "S "
ts --interruptible
check_eq "[$bk] --interruptible: S only" "$(rows)" "S "
ts -D
check_eq "[$bk] -D: D only" "$(rows)" "D "
ts --uninterruptible
check_eq "[$bk] --uninterruptible: D only" "$(rows)" "D "
ts --no-interruptible
check_eq "[$bk] --no-interruptible: no S" "$(rows)" "D "
check_eq "[$bk] --no-interruptible: exit status" "$rc" 0
ts --no-uninterruptible
check_eq "[$bk] --no-uninterruptible: no D" "$(rows)" "S "
ts --no-interruptible --no-uninterruptible
check_eq "[$bk] --no-interruptible --no-uninterruptible: neither" "$(rows)" ""
ts -S --no-interruptible
check_eq "[$bk] -S --no-interruptible: the last wins (all but S)" "$(rows)" "D "
ts --no-interruptible -S
check_eq "[$bk] --no-interruptible -S: the last wins (S)" "$(rows)" "S "
ts -SD --no-uninterruptible
check_eq "[$bk] -SD --no-uninterruptible: S" "$(rows)" "S "
# 300 children that sleep 1 ms once and exit as soon as they run again: each
# sleep counted, exactly.  Here a switch-in now and then reaches no tracer (the
# task switched from is one whose sched_switch is never delivered, a VM
# agent's thread); the child's next switch-out is then its dead one, which
# must close the interval (BPF; the ring path has the context-switch record).
# Before that fix BPF lost 1 to 10 of 300 in about half the runs: twice.
for i in 1 2; do
	"$PP" task-state $BK -S -- "$W/ts_dstate" 300 1 >"$T/out" 2>"$T/err"
	sed 's/^/# err: /' "$T/err" # (shown when the check fails: a loss said?)
	check_eq "[$bk] 300 sleeps each followed by an exit, run $i: S counts 300" \
		"$(awk '$1 == "S" { print $2 }' "$T/out")" 300
done
}
if bpf_host btf; then
	suite bpf ""
	# the state mask is the kernel program's: -v names the back end
	"$PP" task-state -v -SD -- "$W/ts_dstate" 1 1 2>&1 >/dev/null | grep -q "the BPF back end: off-CPU"
	check_eq "-SD on BPF by default (-v)" "$?" 0
else
	skip "no BPF here: the BPF back end's checks"
fi
suite ring --no-bpf
BK=
# left out in the kernel already: -vv shows the filter asked for
"$PP" task-state --no-bpf --no-interruptible -vv -- true 2>&1 >/dev/null | grep -qF "event sched:sched_switch/out: filter 'prev_state != 1'"
check_eq "--no-interruptible: the kernel filter leaves S out" "$?" 0
"$PP" task-state -h | grep -q -- '--no-uninterruptible'
check_eq "-h lists --no-uninterruptible" "$?" 0

done_tests
