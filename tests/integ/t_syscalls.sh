#!/bin/bash
# syscalls against tests/work/lat_sleep: 200 clock_nanosleep of 2 ms and 100
# openat of a missing path give exact calls, 100 errors, and a nanosleep
# average within 2% of the workload's own mean; exit_group ends at the
# task's exit; --syscall filters in the kernel; --perins keys by thread.
. "$(dirname "$0")/lib.sh"

[ -x "$W/lat_sleep" ] || { skip "workload lat_sleep not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/raw_syscalls/sys_enter ] ||
	{ skip "no raw_syscalls tracepoints"; done_tests; exit; }

# field N of the table row whose first column is KEY
row() { awk -v k="$2" -v n="$3" '$1 == k && $2 ~ /^[0-9]+$/ { print $n; exit }' "$1"; }

attach "$T/a" "syscalls -p PID" lat_sleep 200 2 100
check_eq "exit status" "$(cat "$T/a.rc")" 0
check "workload ran to its end" grep -q 'fails=100 done 200$' "$T/a.wl"
check_eq "title" "$(awk '/^SYSCALL / { print $1, $2, $NF; exit }' "$T/a")" "SYSCALL calls errors"
check_eq "clock_nanosleep calls" "$(row "$T/a" clock_nanosleep 2)" 200
mean=$(grep -o 'mean_ns=[0-9]*' "$T/a.wl" | cut -d= -f2)
check_range "clock_nanosleep avg within 2% of the workload's mean ($mean ns)" \
	"$(ns "$(row "$T/a" clock_nanosleep 5)")" \
	"$(awk -v m="$mean" 'BEGIN { print m * 0.98 }')" "$(awk -v m="$mean" 'BEGIN { print m * 1.02 }')"
check_eq "clock_nanosleep errors" "$(row "$T/a" clock_nanosleep 10) $(row "$T/a" clock_nanosleep 11)" "0 (0.0%)"
check_eq "openat calls" "$(row "$T/a" openat 2)" 100
check_eq "openat errors" "$(row "$T/a" openat 10) $(row "$T/a" openat 11)" "100 (100.0%)"
check "exit_group closed at the exit" grep -q '^exit_group  *1 ' "$T/a"
check "nothing dropped" bash -c "! grep -q dropped '$T/a'"

# --syscall: only that one, --than: the 3 slow ones, --perins: the thread
attach "$T/b" "syscalls -p PID --syscall clock_nanosleep --than 15ms --perins" lat_sleep 50 2 10 3 30
pid=$(grep -o 'pid=[0-9]*' "$T/b.wl" | cut -d= -f2)
check_eq "--syscall exit status" "$(cat "$T/b.rc")" 0
check_eq "--syscall: one row" "$(awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/' "$T/b" | wc -l)" 1
check_eq "--perins: the thread's row" "$(row "$T/b" clock_nanosleep 2) $(row "$T/b" clock_nanosleep 3)" "$pid 50"
check_eq "--than 15ms: 3 slow calls" "$(grep -c '^clock_nanosleep: [0-9.]*ms key ' "$T/b")" 3
check_eq "--than: both events each" "$(grep -c " raw_syscalls:sys_e[a-z]*: " "$T/b")" 6

# bad input
"$PP" syscalls --syscall nosuchcall -- true >/dev/null 2>"$T/u1"
check_eq "unknown syscall: status 2" $? 2
check "unknown syscall: names it" grep -q "'nosuchcall' is not a syscall" "$T/u1"
"$PP" syscalls -e sched:sched_switch -- true >/dev/null 2>"$T/u2"
check_eq "syscalls -e: status 2" $? 2

done_tests
