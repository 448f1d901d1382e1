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

# lat_sleep beside a spinner on CPU 0 (lib.sh's idle_sleeper: wakeups wait ms)
idle_sleeper "$T/fifo" "$T/wl"
w=$SLEEPER pid=$SLEEPER_PID
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
# (a name of this run's: other runs of lat_sleep on the host match 'lat_sl*' too)
ln -s "$W/lat_sleep" "$T/rdf_$$"
spawn spin taskset -c 0 sh -c 'while :; do :; done'
monitor "$T/f" rundelay --filter "rdf_$$*" --perins
"$T/rdf_$$" -c 0 50 2 >"$T/f.wl"
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
