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
