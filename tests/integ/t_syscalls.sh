#!/bin/bash
# syscalls against tests/work/lat_sleep: 200 clock_nanosleep of 2 ms and 100
# openat of a missing path give exact calls, 100 errors, and a nanosleep
# average within 2% of the workload's own mean; exit_group ends at the
# task's exit; --syscall filters in the kernel; --perins keys by thread.
# Every check runs twice: on the default back end (BPF where the host has
# it: the pairs and the table in the kernel) and with --no-bpf (the ring
# path); -v says which ran and why, --bpf with what BPF cannot do is a
# usage error, -i's intervals add up to the run, and a SIGKILLed run
# leaves no program of ours loaded.
. "$(dirname "$0")/lib.sh"

[ -x "$W/lat_sleep" ] || { skip "workload lat_sleep not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/raw_syscalls/sys_enter ] ||
	{ skip "no raw_syscalls tracepoints"; done_tests; exit; }

# field N of the table row whose first column is KEY
row() { awk -v k="$2" -v n="$3" '$1 == k && $2 ~ /^[0-9]+$/ { print $n; exit }' "$1"; }

# whether this host runs BPF programs (else the default is the ring path too)
bpf=1
"$PP" syscalls --bpf --syscall getppid -- true >/dev/null 2>"$T/probe.err" || bpf=0
[ $bpf = 1 ] || skip "BPF back end: $(cat "$T/probe.err") (the default runs the ring path)"

for be in "" --no-bpf; do
	n=${be:-default}
	attach "$T/a$be" "syscalls $be -p PID" lat_sleep 200 2 100
	a=$T/a$be
	check_eq "$n: exit status" "$(cat "$a.rc")" 0
	check "$n: workload ran to its end" grep -q 'fails=100 done 200$' "$a.wl"
	check_eq "$n: title" "$(awk '/^SYSCALL / { print $1, $2, $NF; exit }' "$a")" "SYSCALL calls errors"
	check_eq "$n: clock_nanosleep calls" "$(row "$a" clock_nanosleep 2)" 200
	mean=$(grep -o 'mean_ns=[0-9]*' "$a.wl" | cut -d= -f2)
	check_range "$n: clock_nanosleep avg within 2% of the workload's mean ($mean ns)" \
		"$(ns "$(row "$a" clock_nanosleep 5)")" \
		"$(awk -v m="$mean" 'BEGIN { print m * 0.98 }')" "$(awk -v m="$mean" 'BEGIN { print m * 1.02 }')"
	check_eq "$n: clock_nanosleep errors" "$(row "$a" clock_nanosleep 10) $(row "$a" clock_nanosleep 11)" "0 (0.0%)"
	check_eq "$n: openat calls" "$(row "$a" openat 2)" 100
	check_eq "$n: openat errors" "$(row "$a" openat 10) $(row "$a" openat 11)" "100 (100.0%)"
	check "$n: exit_group closed at the exit" grep -q '^exit_group  *1 ' "$a"
	check "$n: nothing dropped" bash -c "! grep -q dropped '$a'"
	# min <= p50 <= p95 <= p99 <= max, and min and max bound the workload's 2 ms
	check "$n: clock_nanosleep's quantiles in order, min >= 2 ms" awk -v k=clock_nanosleep '
		function ns(v,  u, m) { u = v; sub(/^[0-9.]+/, "", u)
			m = u == "ns" ? 1 : u == "us" ? 1e3 : u == "ms" ? 1e6 : 1e9; return (v + 0) * m }
		$1 == k { ok = ns($4) >= 2e6 && ns($4) <= ns($6) && ns($6) <= ns($7) &&
			  ns($7) <= ns($8) && ns($8) <= ns($9); exit !ok }' "$a"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: -v says the BPF back end ran" grep -q 'the BPF back end: syscalls paired' "$a.err"
	else
		check "$n: -v says nothing of a BPF back end" bash -c "! grep -q 'BPF back end' '$a.err'"
	fi

	# --syscall: only that one, --than: the 3 slow ones, --perins: the thread
	attach "$T/b$be" "syscalls $be -p PID --syscall clock_nanosleep --than 15ms --perins" lat_sleep 50 2 10 3 30
	b=$T/b$be
	pid=$(grep -o 'pid=[0-9]*' "$b.wl" | cut -d= -f2)
	check_eq "$n: --syscall exit status" "$(cat "$b.rc")" 0
	check_eq "$n: --syscall: one row" "$(awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/' "$b" | wc -l)" 1
	check_eq "$n: --perins: the thread's row" "$(row "$b" clock_nanosleep 2) $(row "$b" clock_nanosleep 3)" "$pid 50"
	check_eq "$n: --than 15ms: 3 slow calls" "$(grep -c '^clock_nanosleep: [0-9.]*ms key ' "$b")" 3
	check_eq "$n: --than: both events each" "$(grep -c " raw_syscalls:sys_e[a-z]*: " "$b")" 6
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --than goes the ring path, said under -v" \
			grep -q '^perf-prof syscalls: the ring path: --than: ' "$b.err"
	fi

	# --perins and --hist without --than (on BPF: in the kernel)
	attach "$T/c$be" "syscalls $be -p PID --syscall clock_nanosleep,openat --perins --hist" lat_sleep 50 2 7
	c=$T/c$be
	pid=$(grep -o 'pid=[0-9]*' "$c.wl" | cut -d= -f2)
	check_eq "$n: --perins --hist: the thread's rows" \
		"$(awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { print $1, $2, $3, $(NF - 1) }' "$c" | sort)" \
		"clock_nanosleep $pid 50 0
openat $pid 7 7"
	check_eq "$n: --hist: clock_nanosleep's log2 histogram holds its 50 calls" \
		"$(awk '/^clock_nanosleep / { on = 1; next } /^$/ { on = 0 } on && $2 == "->" { n += $5 } END { print n + 0 }' "$c")" 50
	check_eq "$n: --hist: none in a slot under 1 ms (the sleeps are 2 ms)" \
		"$(awk '/^clock_nanosleep / { on = 1; next } /^$/ { on = 0 } on && $2 == "->" && $3 < 1048576 { n += $5 } END { print n + 0 }' "$c")" 0
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --perins --hist ran on BPF" grep -q 'the BPF back end: syscalls paired' "$c.err"
	fi

	# -i: the intervals' calls add up to the run's (nothing lost between two reads)
	attach "$T/i$be" "syscalls $be -p PID --syscall clock_nanosleep -i 50" lat_sleep 100 2
	check_eq "$n: -i 50: the intervals' clock_nanosleep calls add up to 100" \
		"$(awk '$1 == "clock_nanosleep" { n += $2 } END { print n + 0 }' "$T/i$be")" 100
	check_range "$n: -i 50: in several intervals" \
		"$(grep -c '^clock_nanosleep ' "$T/i$be")" 2 1000

	# --perins with threads coming and going: every thread's calls, in a rows map far
	# smaller than the rows (on BPF the exited threads' rows leave it: nothing lost)
	if [ -x "$W/thread_churn" ]; then
		"$PP" syscalls $be -v --perins --bpf-entries 4096 -- "$W/thread_churn" 2000 1 \
			>"$T/tc$be" 2>"$T/tc$be.err"
		check_eq "$n: thread churn: status 0" $? 0
		check_eq "$n: thread churn: each thread's prctl and exit, the clone3 of each" \
			"$(awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ && ($1 == "prctl" || $1 == "exit" || $1 == "clone3") { n[$1] += $3 }
				END { print n["prctl"] + 0, n["exit"] + 0, n["clone3"] + 0 }' "$T/tc$be")" "2000 2000 2000"
		check_range "$n: thread churn: a row per thread and syscall" \
			"$(awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/' "$T/tc$be" | wc -l)" 10000 100000
		check "$n: thread churn: nothing lost" bash -c "! grep -q 'lost' '$T/tc$be.err'"
	fi
done

# --bpf: BPF or a usage error naming what does not compile (one line, status 2)
if [ $bpf = 1 ]; then
	"$PP" syscalls --bpf --than 10ms -- true >"$T/x.out" 2>"$T/x.err"
	check_eq "--bpf --than: status 2" $? 2
	check_eq "--bpf --than: one line naming --than" "$(cat "$T/x.err")" \
		"perf-prof syscalls: --bpf: --than: each slow call's events are printed from the ring buffer (run without --bpf for the ring path)"
	check_eq "--bpf --than: nothing on stdout" "$(cat "$T/x.out")" ""
	"$PP" syscalls --bpf -e 'raw_syscalls:sys_enter/id==0/' -e raw_syscalls:sys_exit -- true \
		>/dev/null 2>"$T/x2.err"
	check_eq "--bpf -e FILTER: status 2" $? 2
	check_eq "--bpf -e FILTER: one line" "$(wc -l <"$T/x2.err")" 1
	"$PP" syscalls --bpf --syscall getppid -- true >/dev/null 2>"$T/x3.err"
	check_eq "--bpf --syscall: status 0, nothing on stderr" "$?:$(cat "$T/x3.err")" "0:"

	# SIGKILL: the programs are fds of ours, nothing stays loaded
	if command -v bpftool >/dev/null; then
		rm -f "$T/k.err"
		spawn k "$PP" syscalls -v -- "$W/lat_sleep" 500 2 >/dev/null 2>"$T/k.err"
		for ((i = 0; i < 100; i++)); do
			grep -q 'monitoring' "$T/k.err" 2>/dev/null && break
			sleep 0.1
		done
		# its programs: the prog_id of the BPF fds it holds (not other runs' on the host)
		ids=$(cat /proc/$k/fdinfo/* 2>/dev/null | awk '$1 == "prog_id:" { print $2 }' | sort -u)
		check "SIGKILL: our programs were loaded" test -n "$ids"
		reap "$k" KILL
		left=0
		for ((i = 0; i < 50; i++)); do
			left=$(bpftool -j prog list | jq -r '.[].id' | grep -c -x -F "$(printf '%s\n' $ids)")
			[ "$left" -eq 0 ] && break
			sleep 0.1
		done
		check_eq "SIGKILL: no program of ours after it" "$left" 0
	else
		skip "SIGKILL: no bpftool"
	fi
fi

# bad input
"$PP" syscalls --syscall nosuchcall -- true >/dev/null 2>"$T/u1"
check_eq "unknown syscall: status 2" $? 2
check "unknown syscall: names it" grep -q "'nosuchcall' is not a syscall" "$T/u1"
"$PP" syscalls -e sched:sched_switch -- true >/dev/null 2>"$T/u2"
check_eq "syscalls -e: status 2" $? 2

done_tests
