#!/bin/bash
# nested-trace on timer interrupts, keyed by CPU: the 100 sleeps of
# tests/work/lat_sleep on CPU 1 expire their hrtimer (hrtimer_wakeup)
# inside a local timer interrupt, so the call tree has hrtimer_expire
# (100 calls) under local_timer; --returns prints each call as it returns,
# indented by depth.  A spinner keeps CPU 1 busy: some VMs never deliver
# samples raised in the idle task's interrupts.
. "$(dirname "$0")/lib.sh"

[ -x "$W/lat_sleep" ] || { skip "workload lat_sleep not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

"$PP" nested-trace -e sched:sched_switch -- true >/dev/null 2>"$T/u1"
check_eq "one event for a function: status 2" $? 2
check "one event: says ENTRY,EXIT" grep -q 'ENTRY,EXIT' "$T/u1"
"$PP" nested-trace -e 'sched:sched_wak*,sched:sched_switch' -- true >/dev/null 2>"$T/u2"
check_eq "a glob end: status 2" $? 2
"$PP" nested-trace -e sched:sched_wakeup,sched:sched_switch -k nosuch -- true >/dev/null 2>"$T/u3"
check_eq "bad -k: status 2" $? 2

"$PP" nested-trace -e sched:sched_wakeup,sched:sched_switch --impl nosuch -- true >/dev/null 2>"$T/u4"
check_eq "--impl nosuch: status 2" $? 2
check "--impl nosuch: names the choices" grep -q 'delay, call or call-delay' "$T/u4"
"$PP" nested-trace -e sched:sched_wakeup,sched:sched_switch --detail -- true >/dev/null 2>"$T/u5"
check_eq "--detail without --than: status 2" $? 2
check "--detail without --than: says so" grep -q 'needs --than' "$T/u5"
"$PP" nested-trace -e sched:sched_wakeup,sched:sched_switch --heatmap '' -- true 2>"$T/h0.err"
check_eq "--heatmap '': status 2, one line" "$?:$(cat "$T/h0.err")" \
	"2:perf-prof nested-trace: bad --heatmap '': needs a value (see: perf-prof nested-trace -h)"
"$PP" nested-trace -e sched:sched_wakeup,sched:sched_switch --impl call --perins -- true \
	>/dev/null 2>"$T/u6"
check_eq "--impl call --perins: status 2" $? 2

# Ground truth on uprobes: tests/work/nest_calls N makes N calls of
# nc_outer (1ms sleep, then nc_inner twice), nc_inner sleeps 2ms; one thread.
X=$W/nest_calls
if [ ! -x "$X" ] || [ ! -e /sys/kernel/tracing/uprobe_events ]; then
	skip "workload nest_calls not built or no uprobes: the modes' ground truth"
else
	E=(-e "uprobe:nc_outer@\"$X\",uretprobe:nc_outer@\"$X\""
		-e "uprobe:nc_inner@\"$X\",uretprobe:nc_inner@\"$X\"")
	"$PP" nested-trace "${E[@]}" -- "$X" 10 >"$T/d" 2>"$T/d.err"
	check_eq "delay: status" $? 0
	check_eq "delay: nc_outer 10 calls" "$(awk '/^nc_outer / { print $2 }' "$T/d")" 10
	check_eq "delay: nc_inner 20 calls under it" "$(awk '/^  nc_inner / { print $2 }' "$T/d")" 20
	check "delay: nc_inner's min is at least its 2ms sleep" \
		awk '/^  nc_inner / { exit !($4 ~ /ms$/ && $4 + 0 >= 2) }' "$T/d"
	check_eq "delay: nothing on stderr" "$(cat "$T/d.err")" ""

	"$PP" nested-trace "${E[@]}" --impl call -- "$X" 10 >"$T/c" 2>"$T/c.err"
	check_eq "call: status" $? 0
	check_eq "call: no table" "$(grep -c 'calls' "$T/c")" 0
	check_eq "call: one line per outer call" "$(grep -c '| nc_outer  ' "$T/c")" 10
	check_eq "call: inner calls indented" "$(grep -c '|   nc_inner  ' "$T/c")" 20
	check_eq "call: an outer call returns after its two inner ones" \
		"$(awk '{ print $NF ~ /s$/ ? $(NF - 1) : "" }' "$T/c" | grep . | head -3 | tr '\n' ' ')" \
		"nc_inner nc_inner nc_outer "
	check "call: each outer call lasts its 5ms at least" \
		awk '/\| nc_outer / { if (!($NF ~ /ms$/ && $NF + 0 >= 5)) exit 1 }' "$T/c"

	"$PP" nested-trace "${E[@]}" --impl call-delay --perins -- "$X" 10 >"$T/p" 2>"$T/p.err"
	check_eq "call-delay --perins: status" $? 0
	tid=$(awk '/\| nc_outer / { print $4; exit }' "$T/p")
	check_eq "call-delay: the call lines too" "$(grep -c '| nc_outer  ' "$T/p")" 10
	check_eq "--perins: the key column" "$(awk '$2 == "CALL" { print $1 }' "$T/p")" THREAD
	check_eq "--perins: nc_outer's row is the thread's" \
		"$(awk '$2 == "nc_outer" && NF > 5 { print $1, $3 }' "$T/p")" "$tid 10"
	check_eq "--perins: nc_inner's row is the thread's" \
		"$(awk '$2 == "nc_inner" && NF > 5 { print $1, $3 }' "$T/p")" "$tid 20"

	"$PP" nested-trace "${E[@]}" --heatmap "$T/h" -- "$X" 10 >/dev/null 2>"$T/h.err"
	check_eq "--heatmap: status" $? 0
	check_eq "--heatmap: a line per outer call" "$(grep -vc '^#' "$T/h-nc_outer.lat")" 10
	check_eq "--heatmap: a line per inner call" "$(grep -vc '^#' "$T/h-nc_inner.lat")" 20
	check_eq "--heatmap: each inner latency is at least 2ms" \
		"$(awk '!/^#/ && $2 >= 2000000' "$T/h-nc_inner.lat" | wc -l)" 20
	check "--heatmap: the outer SVG" grep -q '<svg' "$T/h-nc_outer.svg"
	check "--heatmap: the inner SVG" grep -q '<svg' "$T/h-nc_inner.svg"

	# every outer call is over 4ms; its timeline holds its two inner calls
	"$PP" nested-trace "${E[@]}" --than 4ms --detail -- "$X" 3 >"$T/t" 2>"$T/t.err"
	check_eq "--detail: status" $? 0
	check_eq "--detail: a timeline per outer call" "$(grep -c '^nc_outer: ' "$T/t")" 3
	check_eq "--detail: the first timeline's events between S and E" \
		"$(awk '/^nc_outer: / { on = 1; next } on && /^S / { next } on && /^E / { exit }
			on { print $NF ~ /retval/ ? "ret" : "ent" }' "$T/t" | grep -c .)" 4
	check_eq "--detail: its start and end" \
		"$(awk '/^nc_outer: / { on = 1; next } on && /^[SE] / { print $1 } on && /^E / { exit }' \
			"$T/t" | tr '\n' ' ')" "S E "
	"$PP" nested-trace "${E[@]}" --than 4ms --detail --json -- "$X" 2 >"$T/j" 2>"$T/j.err"
	check_eq "--detail --json: status" $? 0
	check_eq "--detail --json: the slow calls with their timelines" \
		"$(grep -c '"type":"slow","time_ns":[0-9]*,"func":"nc_outer".*"timeline":\[' "$T/j")" 2
fi

ADDR=$(awk '$3 == "hrtimer_wakeup" { print $1; exit }' /proc/kallsyms)
if [ ! -d /sys/kernel/tracing/events/irq_vectors/local_timer_entry ] || [ "$(nproc)" -lt 2 ] ||
	[ -z "$ADDR" ] || [ "$ADDR" = 0000000000000000 ]; then
	skip "no irq_vectors:local_timer_entry, one CPU or no kallsyms addresses"
	done_tests
	exit
fi

# run OUT ARGS...: nested-trace on CPU 1 while lat_sleep makes 100 sleeps there
run() {
	local out=$1 p i
	shift
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" nested-trace -e irq_vectors:local_timer_entry,irq_vectors:local_timer_exit \
		-e "timer:hrtimer_expire_entry/function==0x$ADDR/,timer:hrtimer_expire_exit" -C 1 -v "$@" \
		>"$out" 2>"$out.err" &
	p=$!
	for ((i = 0; i < 600; i++)); do
		grep -qs '^perf-prof: monitoring' "$out.err" && break
		sleep 0.1
	done
	"$W/lat_sleep" -c 1 100 2 >"$out.wl"
	sleep 0.2
	kill -INT $p
	wait $p
	echo $? >"$out.rc"
}

spawn spin taskset -c 1 sh -c 'while :; do :; done'
run "$T/a"
run "$T/b" --returns
reap "$spin"

check_eq "exit status" "$(cat "$T/a.rc")" 0
check_eq "title" "$(awk 'NR == 1 { print $1, $2 }' "$T/a")" "CALL calls"
check_range "local_timer at depth 0: at least the 100 expiries" \
	"$(awk '/^local_timer / { print $2 }' "$T/a")" 100 100000
# (other tasks' sleeps on CPU 1 expire there too: a busy host has many)
check_range "hrtimer_expire nested under it: the 100 sleeps, and others'" \
	"$(awk '/^  hrtimer_expire / { print $2 }' "$T/a")" 100 100000
check_eq "no hrtimer_expire at depth 0" "$(grep -c '^hrtimer_expire ' "$T/a")" 0
check_eq "the child comes right after its parent" \
	"$(awk 'NR == 2 { print $1 } NR == 3 { print $1 }' "$T/a" | tr '\n' ' ')" "local_timer hrtimer_expire "
check_eq "--returns exit status" "$(cat "$T/b.rc")" 0
n=$(awk '/^  hrtimer_expire / { print $2 }' "$T/b")
check_eq "--returns: one indented line per nested call" \
	"$(grep -c '^[0-9-]* [0-9:.]* \[001\] *1 |   hrtimer_expire  ' "$T/b")" "$n"
check_eq "--returns: one line per outer call" \
	"$(grep -c '^[0-9-]* [0-9:.]* \[001\] *1 | local_timer  ' "$T/b")" "$(awk '/^local_timer / { print $2 }' "$T/b")"

done_tests
