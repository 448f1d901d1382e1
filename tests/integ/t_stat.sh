#!/bin/bash
# Counting mode.  stat against tests/work/touch N M (N fresh pages written,
# M sleeps of 1 ms; it reports the context switches the kernel counted for
# it): page-faults = N + the process's start-up faults (measured with N=1)
# within 5, context-switches = its own count + at most 2 (taken between exec
# and main); a tracepoint counted exactly (getppid_loop); a group; -i
# intervals adding up to the total; per thread.  percpu-stat's context
# switches agree with perf stat -a over the same run within 2%.
. "$(dirname "$0")/lib.sh"

[ -x "$W/touch" ] && [ -x "$W/getppid_loop" ] || { skip "workloads not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

# value NAME FILE: the total of counter NAME in FILE (the last "stat: total" block)
value() { awk -v n="$1" '/^stat: total/ { t = 1 } t && $NF == n || t && $(NF-1) == n && $NF ~ /^\(/ { v = $1 } END { gsub(",", "", v); print v }' "$2"; }

"$PP" stat -e page-faults,context-switches -- "$W/touch" 1 0 >"$T/base" 2>&1
check_eq "stat: exit status" $? 0
base=$(value page-faults "$T/base")
check_range "stat: a 1-page run's faults (start-up)" "$base" 10 400
"$PP" stat -e page-faults,context-switches -- "$W/touch" 2000 50 >"$T/s" 2>&1
check_eq "stat: exit status (2000 pages, 50 sleeps)" $? 0
pf=$(value page-faults "$T/s")
check_range "stat: page-faults = 1999 more than the 1-page run, within 5" "$((pf - base))" 1994 2004
v=$(sed -n 's/^csw=\([0-9]*\)+\([0-9]*\)$/\1/p' "$T/s")
iv=$(sed -n 's/^csw=\([0-9]*\)+\([0-9]*\)$/\2/p' "$T/s")
check_eq "touch: 50 voluntary switches (its own count)" "$v" 50
cs=$(value context-switches "$T/s")
check_range "stat: context-switches = the workload's own ($v+$iv) + at most 2" "$cs" $((v + iv)) $((v + iv + 2))
check "stat: the total's duration" grep -q '^stat: total ([0-9.]* s)$' "$T/s"

# a tracepoint, counted (no record per event)
"$PP" stat -e syscalls:sys_enter_getppid -- "$W/getppid_loop" 123456 >"$T/tp" 2>&1
check_eq "stat -e tracepoint: exactly 123456 getppid" "$(value syscalls:sys_enter_getppid "$T/tp")" 123456
check "stat: thousands separators" grep -q ' 123,456 .*syscalls:sys_enter_getppid$' "$T/tp"

# a group, modifiers, msec
"$PP" stat -e '{task-clock,page-faults:u}' -- "$W/touch" 500 0 >"$T/g" 2>&1
check_eq "stat {group}: exit status" $? 0
pfu=$(value page-faults:u "$T/g")
check_range "stat: page-faults:u of 500 pages" "$pfu" 500 800
check "stat: task-clock in msec" grep -q '^ *[0-9,]*\.[0-9][0-9] msec  task-clock$' "$T/g"
check "stat: no running share (not multiplexed)" bash -c "! grep -q '%)' '$T/g'"

# -i: intervals, whose sum is the total
"$PP" stat -i 200 -e context-switches -- "$W/touch" 1 800 >"$T/i" 2>&1
check_eq "stat -i: exit status" $? 0
n=$(grep -c ' stat: 0\.[0-9]* s$' "$T/i")
check_range "stat -i 200: interval blocks in a ~0.9 s run" "$n" 3 6
sum=$(awk '/ stat: [0-9.]* s$/ { i = 1; next } /^stat: total/ { i = 0 } i && $NF == "context-switches" { gsub(",", "", $1); s += $1 } END { print s + 0 }' "$T/i")
tot=$(value context-switches "$T/i")
check_range "stat -i: the intervals add up to at most the total" "$sum" $((tot * 8 / 10)) "$tot"
check_range "stat -i: 800 sleeps" "$tot" 800 850

# -p, per thread
spawn w "$W/touch" 1 3000
sleep 0.2
"$PP" stat -p "$w" -e context-switches --perins -i 300 -N 1 >"$T/p" 2>&1 &
pp=$!
sleep 1; kill -INT $pp; wait $pp
check_eq "stat -p: SIGINT ends it, status 0" $? 0
check "stat -p --perins: a row for the thread" grep -q "^touch:$w  *[0-9,]* *context-switches$" "$T/p"
reap "$w"

# errors
"$PP" stat -e nosuchevent -- true >/dev/null 2>"$T/e1"
check_eq "stat: unknown event: status 2" $? 2
check "stat: unknown event: one line naming it" grep -q "nosuchevent" "$T/e1"
"$PP" stat -e '{cs,page-faults' -- true >/dev/null 2>"$T/e2"
check_eq "stat: unbalanced group: status 2" $? 2
"$PP" stat -e nosys:nothing -- true >/dev/null 2>"$T/e3"
check_eq "stat: unknown tracepoint: status 2" $? 2
"$PP" stat -p 999999999 >/dev/null 2>"$T/e4"
check_range "stat: no such process: status 1 or 2" $? 1 2

# percpu-stat against perf stat -a, on the same run
if command -v perf >/dev/null; then
	"$PP" percpu-stat -- perf stat -a -x, -e context-switches -o "$T/perf" -- \
		perf bench sched pipe -l 20000 >"$T/pc" 2>&1
	check_eq "percpu-stat: exit status" $? 0
	ours=$(awk '$1 == "all" { v = $2 } END { print v }' "$T/pc")
	theirs=$(grep context-switches "$T/perf" | cut -d, -f1)
	check_range "percpu-stat: context switches ($ours) within 2% of perf stat -a's ($theirs)" \
		"$ours" $((theirs * 98 / 100)) $((theirs * 102 / 100 + 20))
	check "percpu-stat: a row per CPU" grep -q '^1 ' "$T/pc"
	check "percpu-stat: softirq and hrtimer columns" grep -q '^CPU .* softirq .*hrtimer' "$T/pc"
else
	skip "percpu-stat vs perf stat: perf is not installed"
fi
# hwstat and split-lock need a hardware PMU
if [ -e /sys/bus/event_source/devices/cpu ]; then
	"$PP" hwstat -- "$W/getppid_loop" 1000000 >"$T/hw" 2>&1
	check_eq "hwstat: exit status" $? 0
	check "hwstat: an IPC" grep -q '^ *[0-9]*\.[0-9][0-9]  *IPC (instructions / cycles)$' "$T/hw"
	"$PP" split-lock -C 0 -- sleep 0.2 >"$T/sl" 2>&1
	check_eq "split-lock: exit status" $? 0
	check "split-lock: a count" grep -q ' split-lock$' "$T/sl"
else
	"$PP" hwstat -- true >/dev/null 2>"$T/hw"
	check_eq "hwstat without a PMU: status 1" $? 1
	check_eq "hwstat without a PMU: one line saying so" "$(grep -c 'needs a hardware PMU, and this host has none' "$T/hw")" 1
	"$PP" split-lock -- true >/dev/null 2>"$T/sl"
	check_eq "split-lock without a PMU: status 1" $? 1
	check_eq "split-lock without a PMU: one line saying so" "$(grep -c 'needs a hardware PMU, and this host has none' "$T/sl")" 1
fi
"$PP" percpu-stat -p 1 >/dev/null 2>"$T/e5"
check_eq "percpu-stat -p: status 2" $? 2
done_tests
