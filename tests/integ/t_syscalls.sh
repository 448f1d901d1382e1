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
bpf_ours syscalls --bpf --syscall getppid -- true || bpf=0
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
	# (and a 2 ms one a busy host stretched past 15 ms: the workload's own count is the most)
	attach "$T/b$be" "syscalls $be -p PID --syscall clock_nanosleep --than 15ms --perins" lat_sleep -o 15 50 2 10 3 30
	b=$T/b$be
	over=$(sed -n 's/^over=//p' "$b.wl")
	ns3=$(grep -c '^clock_nanosleep: [0-9.]*ms key ' "$b")
	pid=$(grep -o 'pid=[0-9]*' "$b.wl" | cut -d= -f2)
	check_eq "$n: --syscall exit status" "$(cat "$b.rc")" 0
	check_eq "$n: --syscall: one row" "$(awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/' "$b" | wc -l)" 1
	check_eq "$n: --perins: the thread's row" "$(row "$b" clock_nanosleep 2) $(row "$b" clock_nanosleep 3)" "$pid 50"
	check_range "$n: --than 15ms: the 3 slow calls (the workload timed $over over 15ms)" "$ns3" 3 "${over:-3}"
	check_eq "$n: --than: both events each" "$(grep -c " raw_syscalls:sys_e[a-z]*: " "$b")" $((2 * ns3))
	check_eq "$n: --than: the enter events, id and arguments as the record's" \
		"$(grep -c " lat_sleep *$pid \[[0-9]*\] raw_syscalls:sys_enter: NR 230 (1, 0, [0-9a-f]*, 0, 0, 0)$" "$b")" "$ns3"
	check_eq "$n: --than: the exit events, id and return" \
		"$(grep -c " lat_sleep *$pid \[[0-9]*\] raw_syscalls:sys_exit: NR 230 = 0$" "$b")" "$ns3"
	check_eq "$n: --than: the key is the thread" "$(grep '^clock_nanosleep: ' "$b" | awk '{ print $NF }' | sort -u)" "$pid"
	check_eq "$n: --than: the >15ms column counts them" "$(row "$b" clock_nanosleep 11) $(row "$b" clock_nanosleep 12)" \
		"$ns3 ($(awk -v n="$ns3" 'BEGIN { printf "%.1f%%", n * 100 / 50 }'))"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --than ran on BPF, said under -v" grep -q 'the BPF back end: syscalls paired' "$b.err"
	fi
	# --than --json: a "slow" line per slow call, both events with their fields
	"$PP" syscalls $be --syscall clock_nanosleep --than 15ms --json -- "$W/lat_sleep" 10 2 0 2 30 \
		>"$T/j$be" 2>/dev/null
	check_eq "$n: --than --json: the slow lines' syscall, events and fields" \
		"$(grep '"type":"slow"' "$T/j$be" | jq -r '[.syscall, .start.event, .end.event, .start.fields.id, .start.fields.args[0], .end.fields.ret, .start.tid == .tid, (.duration_ns > 15000000)] | join(" ")' | sort -u)" \
		"clock_nanosleep raw_syscalls:sys_enter raw_syscalls:sys_exit 230 0x1 0 true true"
	check_range "$n: --than --json: the 2 slow lines (a busy host may stretch a 2 ms one)" \
		"$(grep -c '"type":"slow"' "$T/j$be")" 2 10
	check_eq "$n: --than --json: the row's slow count is the slow lines'" \
		"$(grep '"type":"row"' "$T/j$be" | jq -r .slow)" "$(grep -c '"type":"slow"' "$T/j$be")"
	# -g: both events' stacks, as perf's callchain of the raw_syscalls tracepoints: the
	# kernel frames from the traced function (syscall_trace_enter, syscall_exit_work)
	# down to the entry, then the user frames (libc's clock_nanosleep)
	"$PP" syscalls $be -v --syscall clock_nanosleep --than 15ms -g -- "$W/lat_sleep" 5 2 0 2 30 \
		>"$T/g$be" 2>"$T/g$be.err"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --than -g ran on BPF" grep -q 'the BPF back end: syscalls paired' "$T/g$be.err"
	fi
	check_eq "$n: -g: each event's stack, kernel then user frames" \
		"$(awk '$6 ~ /^raw_syscalls:sys_e/ { if (ev) print ev, f1, k, u; ev = $6; f1 = ""; k = u = 0; next }
			ev && $1 ~ /^[0-9a-f]+$/ { if (f1 == "") f1 = $2; sub(/\+0x[0-9a-f]*$/, "", f1); if ($3 == "([kernel.kallsyms])") k++; else if ($2 ~ /^clock_nanosleep/) u++ }
			/^clock_nanosleep: / { if (ev) print ev, f1, k, u; ev = "" }
			END { if (ev) print ev, f1, k, u }' "$T/g$be" | awk '{ print $1, $2, ($3 >= 2), $4 }' | sort | uniq -c | awk '{ $1 = ($1 >= 2 && $1 <= 5) } 1')" \
		"1 raw_syscalls:sys_enter: syscall_trace_enter 1 1
1 raw_syscalls:sys_exit: syscall_exit_work 1 1"
	# --heatmap: a .lat line per call, its latency (on BPF every call's time copied out)
	attach "$T/hm$be" "syscalls $be -p PID --syscall clock_nanosleep --heatmap $T/hm$be" lat_sleep 60 2
	check_eq "$n: --heatmap: a .lat line per call, each 'time latency' of 2 ms or more" \
		"$(wc -l <"$T/hm$be-sys_enter-sys_exit.lat") $(awk 'NF == 2 && $2 >= 2000000 && $2 < 1000000000' "$T/hm$be-sys_enter-sys_exit.lat" | wc -l)" "60 60"
	check "$n: --heatmap: the SVG is well-formed XML" xmllint --noout "$T/hm$be-sys_enter-sys_exit.svg"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --heatmap ran on BPF" grep -q 'the BPF back end: syscalls paired' "$T/hm$be.err"
	fi
	# exit_group ends at the task's exit: a slow one is printed with its start event only
	"$PP" syscalls $be --syscall exit_group --than 1ns -- "$W/lat_sleep" 1 1 >"$T/eg$be" 2>/dev/null
	check_eq "$n: --than: exit_group ended by the exit, its enter event alone" \
		"$(grep -c '^exit_group: [0-9.]*[mun]*s key [0-9]* (ended by a record: an exit or a switch-in)$' "$T/eg$be") $(grep -c ' raw_syscalls:sys_enter: NR 231 (0, ' "$T/eg$be") $(grep -c ' raw_syscalls:sys_exit: ' "$T/eg$be")" \
		"1 1 0"

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
	# the slow calls' ring buffer full (-m 1: one page, about 36 records; perf-prof
	# stopped while the 100 slow calls are made): the table counts every call, the
	# calls not printed are said, printed and said add up
	attach_stopped "$T/rb" "syscalls --bpf -p PID --syscall clock_nanosleep --than 1ns -m 1" \
		lat_sleep 100 2
	check_eq "ring buffer full: status 0" "$(cat "$T/rb.rc")" 0
	check_eq "ring buffer full: the table counts the 100 calls, all over 1ns" \
		"$(row "$T/rb" clock_nanosleep 2) $(row "$T/rb" clock_nanosleep 10)" "100 100"
	printed=$(grep -c '^clock_nanosleep: ' "$T/rb")
	said=$(sed -n 's/^perf-prof: \([0-9]*\) slow cases counted but not printed: BPF ring buffer full (-m PAGES)$/\1/p' "$T/rb.err")
	check_range "ring buffer full: some printed (a page holds about 36)" "$printed" 1 60
	check_eq "ring buffer full: printed and said not printed add up to 100" "$((printed + ${said:-0}))" 100

	"$PP" syscalls --bpf --than 10ms --detail -- true >"$T/x.out" 2>"$T/x.err"
	check_eq "--bpf --than --detail: status 2" $? 2
	check_eq "--bpf --than --detail: one line naming --detail" "$(cat "$T/x.err")" \
		"perf-prof syscalls: --bpf: --detail: the events around each slow call are read from the ring buffer (run without --bpf for the ring path)"
	check_eq "--bpf --than --detail: nothing on stdout" "$(cat "$T/x.out")" ""
	"$PP" syscalls --bpf --than 10ms -g --call-graph dwarf -- true >/dev/null 2>"$T/x4.err"
	check_eq "--bpf --than --call-graph dwarf: status 2, one line naming it" "$?:$(cat "$T/x4.err")" \
		"2:perf-prof syscalls: --bpf: -g with --than: --call-graph dwarf: user stacks are unwound in user space (run without --bpf for the ring path)"
	"$PP" syscalls -v --than 10ms --call-graph dwarf -- true >/dev/null 2>"$T/x5.err"
	check "--than --call-graph dwarf without --bpf: the ring path, said under -v" \
		grep -q '^perf-prof syscalls: the ring path: -g with --than: --call-graph dwarf: ' "$T/x5.err"
	"$PP" syscalls --bpf -e 'raw_syscalls:sys_enter/id==0/' -e raw_syscalls:sys_exit -- true \
		>/dev/null 2>"$T/x2.err"
	check_eq "--bpf -e FILTER: status 2" $? 2
	check_eq "--bpf -e FILTER: one line" "$(wc -l <"$T/x2.err")" 1
	"$PP" syscalls --bpf --syscall getppid -- true >/dev/null 2>"$T/x3.err"
	check_eq "--bpf --syscall: status 0, nothing on stderr" "$?:$(cat "$T/x3.err")" "0:"

	# SIGKILL: the programs are fds of ours, nothing stays loaded
	bpf_start "$T/k" syscalls -- "$W/lat_sleep" 500 2 && bpf_kill_leaves_nothing
fi

# another tracer's probe on the tracepoint (here a BPF program of ours on sys_enter) makes
# the kernel call perf's through __traceiter_sys_enter: the ring path's stack still begins
# at the traced function, as without it
if [ $bpf = 1 ]; then
	rm -f "$T/other.err"
	"$PP" syscalls --bpf -v --syscall getppid -i 100000 >/dev/null 2>"$T/other.err" &
	o=$!
	for _ in $(seq 100); do
		grep -q 'monitoring:' "$T/other.err" 2>/dev/null && break
		kill -0 $o 2>/dev/null || break
		sleep 0.1
	done
	"$PP" trace -e raw_syscalls:sys_enter -g -N 5 -- "$W/getppid_loop" 10 >"$T/ti" 2>&1
	kill -INT $o
	wait $o
	check_eq "another tracer on sys_enter: each stack begins at syscall_trace_enter" \
		"$(awk '/raw_syscalls:sys_enter:/ { getline; sub(/\+0x[0-9a-f]*$/, "", $2); print $2 }' "$T/ti" | sort | uniq -c | awk '{ print $1, $2 }')" \
		"5 syscall_trace_enter"
fi

# bad input
"$PP" syscalls --syscall nosuchcall -- true >/dev/null 2>"$T/u1"
check_eq "unknown syscall: status 2" $? 2
check "unknown syscall: names it" grep -q "'nosuchcall' is not a syscall" "$T/u1"
"$PP" syscalls -e sched:sched_switch -- true >/dev/null 2>"$T/u2"
check_eq "syscalls -e: status 2" $? 2

done_tests
