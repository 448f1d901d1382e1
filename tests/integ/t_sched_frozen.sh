#!/bin/bash
# A frozen task (the cgroup v1 freezer: it switches out in TASK_FROZEN) is
# reported in D by the kernel's sched_switch record, and woken at the thaw.
# task-state and rundelay on both back ends agree with the record: BPF
# decodes the task's __state as the kernel's __task_state_index does (not
# R, which made rundelay count the frozen time as one preempted delay):
# a spinner frozen twice has two D intervals and two wakeup => switch-in
# delays (it never sleeps otherwise), on BPF and on the ring path.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
FZ0=/sys/fs/cgroup/freezer
[ -w "$FZ0/cgroup.procs" ] || { skip "no cgroup v1 freezer at $FZ0"; done_tests; exit; }
need_bpf rundelay --bpf -- true
FZ=$FZ0/pp-test-$$
mkdir "$FZ" || { skip "cannot make $FZ"; done_tests; exit; }
# the spinner is thawed before lib.sh's cleanup kills it (a frozen task waits for the thaw)
trap 'echo THAWED >"$FZ/freezer.state" 2>/dev/null; _cleanup
	for i in $(seq 30); do rmdir "$FZ" 2>/dev/null && break; sleep 0.1; done' EXIT

row() { awk -v k="$2" -v n="$3" '$1 == k { print $n; exit }' "$1"; }
freeze() {
	local i
	echo FROZEN >"$FZ/freezer.state"
	for ((i = 0; i < 100; i++)); do
		[ "$(cat "$FZ/freezer.state")" = FROZEN ] && break
		sleep 0.05
	done
	sleep 0.2
	echo THAWED >"$FZ/freezer.state"
}

spawn sp taskset -c 0 sh -c 'while :; do :; done'
echo "$sp" >"$FZ/cgroup.procs"
monitor "$T/tb" task-state --bpf -D -p "$sp"
monitor "$T/tr" task-state --no-bpf -D -p "$sp"
monitor "$T/rb" rundelay --bpf -p "$sp"
monitor "$T/rr" rundelay --no-bpf -p "$sp"
freeze
sleep 0.2
freeze
sleep 0.3
for f in tb tr rb rr; do stop "$T/$f"; done
reap "$sp" KILL

check_eq "exit statuses" "$(cat "$T/tb.rc") $(cat "$T/tr.rc") $(cat "$T/rb.rc") $(cat "$T/rr.rc")" "0 0 0 0"
check "task-state: BPF ran" grep -q 'the BPF back end' "$T/tb.err"
check "rundelay: BPF ran" grep -q 'the BPF back end' "$T/rb.err"
check_eq "task-state -D, ring path: the two frozen intervals are D" "$(row "$T/tr" D 2)" 2
check_eq "task-state -D, BPF: the two frozen intervals are D" "$(row "$T/tb" D 2)" 2
check_eq "rundelay, ring path: the two thaws are wakeups" \
	"$(line "$T/rr" "wakeup => switch-in" 4)" 2
check_eq "rundelay, BPF: the two thaws are wakeups" "$(line "$T/rb" "wakeup => switch-in" 4)" 2

done_tests
