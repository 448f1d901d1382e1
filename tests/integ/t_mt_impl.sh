#!/bin/bash
# multi-trace's modes against workloads with known behaviour:
# --impl pair lists the pairs left open: tests/work/eventfds makes N
# eventfds (sys_exit_eventfd2's ret is the fd, key=ret) and closes them
# (sys_enter_close, key=fd) or not: N opened, N or 0 closed, 0 or N open,
# each open one listed with its key and its start event.  --only-than T
# prints exactly the pairs over T and no table; --lower T prints and counts
# exactly the others (tests/work/lat_sleep: 3 sleeps of 10 ms among 20, -o
# says how many the host stretched over 5 ms).  The BPF back end takes
# --only-than; --impl pair and --lower take the ring path (said under -v;
# --bpf: a usage error naming them).  --impl syscalls / kmemprof run those
# profilers.  The trigger attribute prints the
# table when its event arrives; --detail=samecpu,1 / 2 keeps the events of
# the start's / the end's CPU.  Bad input is a usage error.
. "$(dirname "$0")/lib.sh"

[ -x "$W/lat_sleep" ] && [ -x "$W/eventfds" ] ||
	{ skip "workloads not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_exit_eventfd2 ] ||
	{ skip "no syscalls tracepoints"; done_tests; exit; }

EN=syscalls:sys_enter_clock_nanosleep
EX=syscalls:sys_exit_clock_nanosleep
OPEN="syscalls:sys_exit_eventfd2//key=ret/"
CLOSE="syscalls:sys_enter_close//key=fd/"
LBL="syscalls:sys_exit_eventfd2 => syscalls:sys_enter_close"

bpf=1
bpf_ours multi-trace --bpf -e $EN -e $EX -- true || bpf=0
[ $bpf = 1 ] || skip "BPF back end: $(cat "$T/probe.err") (the default runs the ring path)"

# field N of the "A => B: ..." summary of --impl pair
summ() { awk -v n="$2" -v l="$LBL:" 'index($0, l) == 1 { split(substr($0, length(l) + 2), w, " "); print w[n]; exit }' "$1"; }

for be in "" --no-bpf; do
	n=${be:-default}
	o=$T/p$be
	# 5 eventfds left open: 5 opened, 0 closed, 5 open, each listed with its start event
	"$PP" multi-trace $be --impl pair -e "$OPEN" -e "$CLOSE" -v -- "$W/eventfds" 5 0 0 >"$o" 2>"$o.err"
	check_eq "$n: pair, left open: status" $? 0
	check_eq "$n: pair, left open: opened, closed, open" \
		"$(summ "$o" 1) $(summ "$o" 3) $(summ "$o" 10)" "5 0 5"
	check_eq "$n: pair, left open: 5 open lines" "$(grep -c '^open .* key [0-9]*$' "$o")" 5
	check_eq "$n: pair, left open: each with its start event" \
		"$(grep -c 'syscalls:sys_exit_eventfd2: ' "$o")" 5
	check_eq "$n: pair, left open: the keys are the fds 3..7" \
		"$(awk '/^open / { print $NF }' "$o" | sort -n | tr '\n' ' ')" "3 4 5 6 7 "
	check "$n: pair: no latency table" bash -c "! grep -q '^START => END' '$o'"
	# closed: 5 opened, 5 closed, none open
	"$PP" multi-trace $be --impl pair -e "$OPEN" -e "$CLOSE" -- "$W/eventfds" 5 0 1 >"$o" 2>&1
	check_eq "$n: pair, closed: opened, closed, open" \
		"$(summ "$o" 1) $(summ "$o" 3) $(summ "$o" 10)" "5 5 0"
	check_eq "$n: pair, closed: no open line" "$(grep -c '^open ' "$o")" 0
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: pair: -v says the ring path and why" grep -q \
			"^perf-prof multi-trace: the ring path: --impl pair: the open pairs' start events are listed from the ring buffer" "$o.err"
	fi

	# --only-than 5ms: the sleeps over 5ms (3 of 10ms, and those the host stretched), no table
	attach "$T/o$be" "multi-trace $be -e $EN -e $EX -p PID --only-than 5ms" lat_sleep -o 5 20 2 0 3 10
	over=$(sed -n 's/^over=//p' "$T/o$be.wl")
	check_eq "$n: --only-than: status" "$(cat "$T/o$be.rc")" 0
	check_eq "$n: --only-than: one header per slow pair ($over over 5ms)" \
		"$(grep -c "^$EN => $EX: .* key [0-9]*$" "$T/o$be")" "$over"
	check_eq "$n: --only-than: both events of each" \
		"$(grep -c "] $EX: " "$T/o$be")" "$over"
	check "$n: --only-than: no table" bash -c "! grep -q '^START => END' '$T/o$be'"

	# --lower 5ms: the others printed and counted in a <5ms column
	attach "$T/l$be" "multi-trace $be -e $EN -e $EX -p PID --lower 5ms" lat_sleep -o 5 20 2 0 3 10
	over=$(sed -n 's/^over=//p' "$T/l$be.wl")
	check_eq "$n: --lower: status" "$(cat "$T/l$be.rc")" 0
	check_eq "$n: --lower: the column's title" \
		"$(awk '/^START => END / { print $NF; exit }' "$T/l$be")" "<5ms"
	check_eq "$n: --lower: calls and the <5ms count" \
		"$(line "$T/l$be" "$EN => $EX " 4) $(line "$T/l$be" "$EN => $EX " 12)" "20 $((20 - over))"
	check_eq "$n: --lower: one header per fast pair" \
		"$(grep -c "^$EN => $EX: .* key [0-9]*$" "$T/l$be")" "$((20 - over))"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --lower: -v says the ring path" grep -q \
			"^perf-prof multi-trace: the ring path: --lower" "$T/l$be.err"
	fi
done

# trigger: the table prints when the event arrives.  lat_sleep 10 2 3: 10
# sleeps, then 3 failing openat calls, each a trigger: the 10 pairs print in
# the table of the first, 2 more tables (empty) and the end's follow
for be in "" --no-bpf; do
	n=${be:-default}
	o=$T/t$be
	"$PP" multi-trace $be -e $EN -e $EX -e 'syscalls:sys_enter_openat//untraced/trigger/' -v \
		-- "$W/lat_sleep" 10 2 3 >"$o" 2>"$o.err"
	check_eq "$n: trigger: status" $? 0
	check_eq "$n: trigger: one row, of the 10 sleeps" \
		"$(grep -c "^$EN => $EX " "$o") $(line "$o" "$EN => $EX " 4)" "1 10"
	check_eq "$n: trigger: 3 tables after it (2 triggers, the end)" \
		"$(awk -v r="$EN => $EX " 'index($0, r) == 1 { seen = 1 } seen && /^START => END / { n++ } END { print n + 0 }' "$o")" 3
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: trigger: -v says the ring path" grep -q \
			"^perf-prof multi-trace: the ring path: .*trigger prints the table" "$o.err"
	fi
done
"$PP" multi-trace --no-bpf -e $EN -e $EX -e 'syscalls:sys_enter_openat//untraced/' -- "$W/lat_sleep" 10 2 3 >"$T/t0" 2>&1
check_eq "no trigger: one table, at the end" "$(grep -c '^START => END ' "$T/t0")" 1

# --detail=samecpu,1 / 2: the events of the start's / the end's CPU only
# (tests/work/xcpu_req: each request starts on CPU 0 and ends on CPU 1)
if [ "$(nproc)" -ge 2 ]; then
	for w in 1 2; do
		o=$T/d$w
		attach "$o" "multi-trace --no-bpf -e syscalls:sys_enter_write/fd==FD/key=count/ -e syscalls:sys_enter_lseek//key=offset/ -e sched:sched_switch//untraced/,sched:sched_wakeup//untraced/ -p PID --than 1ns --detail=samecpu,$w" xcpu_req 50
		check_eq "--detail=samecpu,$w: status" "$(cat "$o.rc")" 0
		check_eq "--detail=samecpu,$w: 50 timelines" \
			"$(grep -c '^syscalls:sys_enter_write => syscalls:sys_enter_lseek: ' "$o")" 50
		other=$([ $w = 1 ] && echo 001 || echo 000)
		check_eq "--detail=samecpu,$w: no event between the ends on CPU $other" \
			"$(grep -c "^  +.* \[$other\] " "$o")" 0
	done
else
	skip "--detail=samecpu,1/2: one CPU"
fi

# --impl syscalls and kmemprof run those profilers (the same options): lat_sleep
# 10 2 3 makes 10 clock_nanosleep calls and 3 failing openat calls
o=$T/s
"$PP" multi-trace --impl syscalls -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -- "$W/lat_sleep" 10 2 3 >"$o" 2>&1
check_eq "--impl syscalls: status" $? 0
check_eq "--impl syscalls: syscalls' table" "$(awk 'NR == 2 { print $1, $2; exit }' "$o")" "SYSCALL calls"
check_eq "--impl syscalls: clock_nanosleep 10 calls, openat 3 errors" \
	"$(awk '$1 == "clock_nanosleep" { c = $2 } $1 == "openat" { e = $(NF - 1) } END { print c, e }' "$o")" "10 3"
"$PP" multi-trace --impl=kmemprof -e kmem:kmalloc -e kmem:kfree -k ptr -- "$W/eventfds" 5 0 1 >"$o" 2>&1
check_eq "--impl=kmemprof: status" $? 0
check "--impl=kmemprof: kmemprof's summary" grep -q "^[-0-9: .]*kmemprof: allocated [0-9]* bytes in [0-9]* objects, freed" "$o"
usage_bad "--impl syscalls --cycle" "perf-prof syscalls: unknown or incomplete option '--cycle'" \
	multi-trace --impl syscalls --cycle -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -- true
"$PP" multi-trace --no-bpf -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -- "$W/lat_sleep" 1 1 0 --impl syscalls >"$o" 2>&1
check_eq "--impl after -- is the command's: multi-trace's table" "$(grep -c '^START => END ' "$o")" 1

# --json of --impl pair: a "pairs" row and an "open" row per open pair
"$PP" multi-trace --no-bpf --impl pair --json -e "$OPEN" -e "$CLOSE" -- "$W/eventfds" 3 0 0 >"$T/j" 2>&1
check_eq "json pair: one pairs row, 3 open" \
	"$(grep -c '"type":"pairs".*"opened":3,"closed":0,.*"open":3,"dropped_at_loss":0,"closed_after_loss":0}' "$T/j")" 1
check_eq "json pair: 3 open rows" "$(grep -c '"type":"open","from":"syscalls:sys_exit_eventfd2"' "$T/j")" 3

if [ $bpf = 1 ]; then
	usage_bad "--bpf --impl pair" "--impl pair" multi-trace --bpf --impl pair -e "$OPEN" -e "$CLOSE" -- true
	usage_bad "--bpf --lower" "--lower" multi-trace --bpf --lower 1ms -e $EN -e $EX -- true
fi
usage_bad "--impl bogus" "--impl bogus: give delay, pair, syscalls, kmemprof, call or call-delay" multi-trace --impl bogus -e $EN -e $EX -- true
# --impl call / call-delay: nested-trace's modes (tests/work/nest_calls N: N calls of nc_outer,
# each calling nc_inner twice), the same lines as nested-trace --impl call prints
X=$W/nest_calls
if [ -x "$X" ] && [ -e /sys/kernel/tracing/uprobe_events ]; then
	NE=(-e "uprobe:nc_outer@\"$X\",uretprobe:nc_outer@\"$X\""
		-e "uprobe:nc_inner@\"$X\",uretprobe:nc_inner@\"$X\"")
	"$PP" multi-trace "${NE[@]}" --impl call -- "$X" 10 >"$T/mc" 2>"$T/mc.err"
	check_eq "--impl call: status 0, nested-trace's lines" \
		"$?:$(grep -c '| nc_outer  ' "$T/mc"):$(grep -c '|   nc_inner  ' "$T/mc"):$(grep -c calls "$T/mc")" "0:10:20:0"
	"$PP" multi-trace "${NE[@]}" --impl=call-delay -- "$X" 10 >"$T/md" 2>"$T/md.err"
	check_eq "--impl=call-delay: status 0, the lines and the table (nc_outer 10 calls)" \
		"$?:$(grep -c '| nc_outer  ' "$T/md"):$(awk '/^nc_outer / { print $2 }' "$T/md")" "0:10:10"
else
	skip "--impl call: workload nest_calls not built or no uprobes"
fi
usage_bad "--only-than and --than" "give two times" multi-trace --only-than 5ms --than 6ms -e $EN -e $EX -- true
usage_bad "--lower above --than" "--lower is above --than" multi-trace --lower 9ms --than 6ms -e $EN -e $EX -- true
usage_bad "--detail=3" "is not -TIME, +TIME, samecpu, samepid, sametid, samekey, 1, 2 or hide<TIME" multi-trace --than 1ms --detail=samecpu,3 -e $EN -e $EX -- true
usage_bad "--only-than bad time" "only-than" multi-trace --only-than xyz -e $EN -e $EX -- true

done_tests
