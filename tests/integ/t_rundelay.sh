#!/bin/bash
# rundelay and task-state on the same run of tests/work/lat_sleep (200
# sleeps of 2 ms under SCHED_IDLE, pinned to CPU 0, with a spinner on CPU
# 0 so that wakeups wait): rundelay's "wakeup => switch-in" is task-state's runq
# split and its "preempted => switch-in" task-state's R row, so counts are
# equal and totals within 1%.  --filter builds kernel filters; bad globs
# are usage errors.
. "$(dirname "$0")/lib.sh"

[ -x "$W/lat_sleep" ] || { skip "workload lat_sleep not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

# field N of the first line whose first columns are KEY (words joined by one space)
line() { awk -v k="$2" -v n="$3" 'index($0, k) == 1 { print $n; exit }' "$1"; }
# monitor OUT ARGS...: start perf-prof ARGS in the background, wait until it monitors
monitor() {
	local out=$1 i
	shift
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" "$@" -v >"$out" 2>"$out.err" &
	echo $! >"$out.pid"
	for ((i = 0; i < 600; i++)); do
		grep -qs '^perf-prof: monitoring: [0-9]* events enabled' "$out.err" && break
		kill -0 "$(cat "$out.pid")" 2>/dev/null || break
		sleep 0.1
	done
}
stop() {
	local p
	p=$(cat "$1.pid")
	kill -INT "$p" 2>/dev/null
	wait "$p"
	echo $? >"$1.rc"
}

mkfifo "$T/fifo"
# the spinner makes the SCHED_IDLE workload wait for CPU 0 after each
# wakeup until the spinner's slice ends (ms, not us: the two tools stamp
# their own samples of one tracepoint hit a few us apart, more when
# their probes run one after the other, BPF's beside perf's).  One group:
# in two sessions (two autogroups) the groups would share the CPU and the
# wakeups would wait us.
rm -f "$T/wl" # not an earlier run's lines
spawn w sh -c 'taskset -c 0 sh -c "while :; do :; done" & exec chrt -i 0 "$0" -f "$1" -c 0 200 2' \
	"$W/lat_sleep" "$T/fifo" >"$T/wl"
for ((i = 0; i < 100; i++)); do grep -q '^pid=' "$T/wl" && break; sleep 0.1; done
pid=$(grep -o 'pid=[0-9]*' "$T/wl" | cut -d= -f2)
monitor "$T/rd" rundelay -p "$pid"
monitor "$T/ts" task-state -p "$pid"
echo go >"$T/fifo"
wait "$w"
sleep 0.2
stop "$T/rd"
stop "$T/ts"
reap "$w"

check_eq "rundelay exit status" "$(cat "$T/rd.rc")" 0
check_eq "task-state exit status" "$(cat "$T/ts.rc")" 0
check "workload ran to its end" grep -q 'done 200$' "$T/wl"
wk_calls=$(line "$T/rd" "wakeup => switch-in" 4)
wk_total=$(ns "$(line "$T/rd" "wakeup => switch-in" 5)")
rq_calls=$(awk '$1 == "runq" { n += $2 } END { print n + 0 }' "$T/ts")
rq_total=$(awk '$1 == "runq" { print $3 }' "$T/ts" | while read -r v; do ns "$v"; done |
	awk '{ n += $1 } END { print n + 0 }')
# (this VM drops an odd sched_wakeup sample now and then, for both tools alike)
check_range "wakeups: the 200 sleeps" "$wk_calls" 195 400
check_eq "wakeup => switch-in calls = task-state's runq calls" "$wk_calls" "$rq_calls"
check_range "wakeup => switch-in total within 1% of task-state's runq ($rq_total ns)" "$wk_total" \
	"$(awk -v m="$rq_total" 'BEGIN { print m * 0.99 }')" "$(awk -v m="$rq_total" 'BEGIN { print m * 1.01 }')"
pr_calls=$(line "$T/rd" "preempted => switch-in" 4)
r_calls=$(awk '$1 == "R" { print $2; exit }' "$T/ts")
check_eq "preempted => switch-in calls = task-state's R calls" "${pr_calls:-0}" "${r_calls:-0}"
if [ -n "$pr_calls" ] && [ -n "$r_calls" ]; then
	r_total=$(ns "$(awk '$1 == "R" { print $3; exit }' "$T/ts")")
	check_range "preempted total within 1% of task-state's R" "$(ns "$(line "$T/rd" "preempted => switch-in" 5)")" \
		"$(awk -v m="$r_total" 'BEGIN { print m * 0.99 }')" "$(awk -v m="$r_total" 'BEGIN { print m * 1.01 }')"
fi

# --filter: the kernel filters on the comm globs (-v says so), the rows are the workload's
spawn spin taskset -c 0 sh -c 'while :; do :; done'
monitor "$T/f" rundelay --filter 'lat_sl*' --perins
"$W/lat_sleep" -c 0 50 2 >"$T/f.wl"
stop "$T/f"
reap "$spin"
check_eq "--filter exit status" "$(cat "$T/f.rc")" 0
check_range "--filter: the workload's wakeups" "$(line "$T/f" "wakeup => switch-in" 5)" 48 120
check_eq "--filter: only the workload's thread" \
	"$(awk '/=> switch-in/ { print $4 }' "$T/f" | sort -u | wc -l)" 1

"$PP" rundelay --filter 'a(b' -- true >/dev/null 2>"$T/u1"
check_eq "bad glob: status 2" $? 2
check "bad glob: names it" grep -q "'a(b'" "$T/u1"
"$PP" rundelay -e sched:sched_switch -- true >/dev/null 2>"$T/u2"
check_eq "rundelay -e: status 2" $? 2

done_tests
