#!/bin/bash
# -g with --than: the stacks of slow cases, on both back ends.
# tests/work/many_stacks makes 2^LEVELS calls from as many distinct call
# chains, then one slow sleep from late_sleeper: a slow case that comes after
# more distinct stacks than bpf_get_stackid's stack map held (sized by
# --bpf-entries: 1024 here) is still printed with its own stack, in syscalls,
# multi-trace and task-state (user stacks too), the same on the ring path.
# The stacks the kernel keeps for pending starts go with them: nothing said.
# A process that exits right after its slow call still has its stack
# resolved; --max-stack counts kernel and user frames as perf's callchain.
# User frames in anonymous memory, a memfd, /dev/zero (tests/work/anon_exec, as
# JIT code) are named alike on both back ends.
. "$(dirname "$0")/lib.sh"

[ -x "$W/many_stacks" ] || { skip "workload many_stacks not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

bpf=1
"$PP" syscalls --bpf --syscall getppid -- true >/dev/null 2>"$T/probe.err" || bpf=0
[ $bpf = 1 ] || skip "BPF back end: $(cat "$T/probe.err") (the default runs the ring path)"

# the user frames of each printed stack that are late_sleeper's (frame lines: "ADDR SYM+OFF (DSO)")
late() { awk '$1 ~ /^[0-9a-f]+$/ && $2 ~ /^late_sleeper\+/' "$1" | wc -l; }

# a run's events (and a BPF run's classic tracepoint programs, which would hide the
# tracepoint's samples from the next ring-path run) closed in the background: wait for it
settle() {
	local p
	p=$(sed -n 's/.*closing [0-9]* events in the background (pid \([0-9]*\)).*/\1/p' "$1")
	while [ -n "$p" ] && kill -0 "$p" 2>/dev/null; do sleep 0.1; done
}

for be in --no-bpf ""; do
	n=${be:-default}
	# syscalls: 16384 getppid from 16384 call chains, then a 30 ms nanosleep
	"$PP" syscalls $be -v --bpf-entries 1024 --syscall getppid,clock_nanosleep --than 10ms -g \
		-- "$W/many_stacks" 14 30 >"$T/sc$be" 2>"$T/sc$be.err"
	check_eq "$n: syscalls: exit status" "$?" 0
	settle "$T/sc$be.err"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: syscalls --than -g ran on BPF" grep -q 'the BPF back end: syscalls paired' "$T/sc$be.err"
	fi
	check_eq "$n: syscalls: 16384 getppid counted" \
		"$(awk '$1 == "getppid" { print $2 }' "$T/sc$be")" 16384
	check_eq "$n: syscalls: the late slow call's two events, each with late_sleeper in its stack" \
		"$(late "$T/sc$be")" 2
	check_eq "$n: syscalls: nothing said of stacks" "$(grep -c 'stacks not' "$T/sc$be.err")" 0

	# multi-trace: every syscall of the workload paired (raw_syscalls: kernel and user stacks)
	"$PP" multi-trace $be -v --bpf-entries 1024 -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
		-k common_pid --than 10ms -g -- "$W/many_stacks" 14 30 >"$T/mt$be" 2>"$T/mt$be.err"
	check_eq "$n: multi-trace: exit status" "$?" 0
	settle "$T/mt$be.err"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: multi-trace --than -g ran on BPF" grep -q 'the BPF back end: pairs timed' "$T/mt$be.err"
	fi
	check_eq "$n: multi-trace: the slow pair's two events, each with late_sleeper in its stack" \
		"$(late "$T/mt$be")" 2
	check_eq "$n: multi-trace: nothing said of stacks" "$(grep -c 'stacks not' "$T/mt$be.err")" 0

	# task-state: 4096 switch-outs (1 ns sleeps) from 4096 call chains, then the 30 ms one
	"$PP" task-state $be -v --bpf-entries 1024 -S --than 10ms -g \
		-- "$W/many_stacks" 12 30 sleep >"$T/ts$be" 2>"$T/ts$be.err"
	check_eq "$n: task-state: exit status" "$?" 0
	settle "$T/ts$be.err"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: task-state --than -g (user stacks) ran on BPF" \
			grep -q 'the BPF back end: off-CPU intervals' "$T/ts$be.err"
	fi
	check_eq "$n: task-state: the slow sleep's stack has late_sleeper" "$(late "$T/ts$be")" 1
	check_eq "$n: task-state: nothing said of stacks" "$(grep -c 'stacks not' "$T/ts$be.err")" 0

	# the workload exits right after its slow call: the stack still resolves (3 runs each)
	ok=0
	for i in 1 2 3; do
		"$PP" syscalls $be -v --syscall clock_nanosleep --than 10ms -g -- "$W/many_stacks" 2 30 \
			>"$T/x$be" 2>"$T/x$be.err"
		settle "$T/x$be.err"
		"$PP" task-state $be -v -S --than 10ms -g -- "$W/many_stacks" 2 30 sleep >"$T/y$be" \
			2>"$T/y$be.err"
		settle "$T/y$be.err"
		[ "$(late "$T/x$be") $(late "$T/y$be")" = "2 1" ] && ok=$((ok + 1))
	done
	check_eq "$n: a process that exits after its slow call: its stacks resolve, 3 of 3 runs" "$ok" 3
	# --max-stack 3: the three kernel frames of each event (perf's callchain: kernel first)
	if [ -z "$be" ]; then
		"$PP" syscalls --syscall clock_nanosleep --than 10ms -g --max-stack 3 \
			-- "$W/many_stacks" 2 30 >"$T/m3" 2>/dev/null
		check_eq "--max-stack 3 on BPF: each event's three kernel frames, no user frame" \
			"$(awk '$1 ~ /^[0-9a-f]+$/ { print $3 }' "$T/m3" | sort | uniq -c | awk '{ print $1, $2 }')" \
			"6 ([kernel.kallsyms])"
	fi

	# user frames in memory that is no file (tests/work/anon_exec: 3 rounds of a 10 ms
	# nanosleep from each of 3 stubs) named as on the ring path: 3 slow calls a stub, each
	# with two events' stacks
	[ -x "$W/anon_exec" ] || continue
	nr=$(awk '$2 == "__NR_nanosleep" { print $3 }' /usr/include/x86_64-linux-gnu/asm/unistd_64.h)
	"$PP" syscalls $be -v --syscall nanosleep --than 5ms -g -- "$W/anon_exec" 3 >"$T/ax$be" \
		2>"$T/ax$be.err"
	check_eq "$n: syscalls anon_exec: exit status, no warning" \
		"$?:$(grep -vc '^perf-prof\( syscalls\)\?: ' "$T/ax$be.err")" "0:0"
	settle "$T/ax$be.err"
	"$PP" multi-trace $be -v -e "raw_syscalls:sys_enter/id==$nr/" -e "raw_syscalls:sys_exit/id==$nr/" \
		-k common_pid --than 5ms -g -- "$W/anon_exec" 3 >"$T/am$be" 2>"$T/am$be.err"
	check_eq "$n: multi-trace anon_exec: exit status, no warning" \
		"$?:$(grep -vc '^perf-prof\( multi-trace\)\?: ' "$T/am$be.err")" "0:0"
	settle "$T/am$be.err"
	for m in '(//anon)' '(/memfd:anon_exec (deleted))' '(/dev/zero (deleted))'; do
		check_eq "$n: syscalls, multi-trace anon_exec: 6 frames each in $m" \
			"$(grep -cF " [unknown] $m" "$T/ax$be") $(grep -cF " [unknown] $m" "$T/am$be")" "6 6"
	done
	check_eq "$n: syscalls, multi-trace anon_exec: no frame in no mapping" \
		"$(grep -cE '^ +[0-9a-f]+ \[unknown\]$' "$T/ax$be" "$T/am$be" | awk -F: '{ s += $2 } END { print s }')" 0
done

done_tests
