#!/usr/bin/env bash
# Event selection end to end (root): -e globs as "list" takes them, the
# cpus=LIST attribute, the same event asked for many times, globs that match
# events the kernel refuses, usage errors (exit 2, "perf-prof PROFILER:")
# versus run-time errors (exit 1), and the names of threads and of exiting
# tasks.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }
G=$W/getppid_loop
[ -x "$G" ] || { echo "no workload $G (make workloads)"; exit 1; }
NCPU=$(nproc)

# run ARGS...: perf-prof ARGS, stdout in $T/out, stderr in $T/err, status in $rc
run() {
	"$PP" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
# Event lines: "DATE TIME COMM TID [CPU] sys:name: fields"
events() { grep -cE "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]{15} .* \[[0-9]{3}\] $1: " "$2"; }
# getppid lines of getppid_loop (sh calls getppid too)
wl_lines() { grep -c " getppid_loop .* syscalls:sys_enter_getppid: " "$T/out"; }
# the events perf-prof -vv says it asks the kernel for, sorted
asked() { sed -n 's/^perf-prof: event \([^ ]*\): type .*/\1/p' "$1" | sort | tr '\n' ' '; }

# --- globs: the same as "list", [!x] classes included
pat='sched:sched_wak?[!_]*'
run trace -e "$pat/prio<10/" -vv -- true
check_eq "glob [!_]: exit status" "$rc" 0
want=$("$PP" list "$pat" | awk '{print $1}' | sort | tr '\n' ' ')
check_eq "glob [!_]: the events list shows" "$(asked "$T/err")" "$want"
check_eq "glob [!_]: sched_wakeup, sched_wakeup_new, sched_waking" "$want" \
	"sched:sched_wakeup sched:sched_wakeup_new sched:sched_waking "
run trace -e 'syscalls:sys_enter_getp[!g]id' -- "$G" 100
check_eq "glob [!g]id: 100 getppid lines" "$(events syscalls:sys_enter_getppid "$T/out")" 100
check_eq "glob [!g]id: getpgid not asked" "$(grep -c 'sys_enter_getpgid' "$T/out")" 0
run trace -e 'syscalls:sys_enter_getp[^g]id' -- "$G" 100
check_eq "glob [^g]id: 100 getppid lines" "$(events syscalls:sys_enter_getppid "$T/out")" 100

# --- cpus=LIST: the event is opened on those CPUs only
if [ "$NCPU" -ge 2 ]; then
	two="taskset -c 0 $G 100 >/dev/null; taskset -c 1 $G 100 >/dev/null"
	for c in 0 1; do
		run trace -e "syscalls:sys_enter_getppid/cpus=$c/" -- sh -c "$two"
		check_eq "cpus=$c: 100 of the 200 getppid_loop calls" "$(wl_lines)" 100
		check_eq "cpus=$c: all on CPU $c" \
			"$(grep -c "getppid_loop .* \[00$c\] syscalls:sys_enter_getppid" "$T/out")" 100
	done
	run trace -e 'syscalls:sys_enter_getppid/prev_pid>=0/cpus=1/' -- sh -c "$two"
	check "cpus after a filter: filter still applies (field missing: error)" test "$rc" -eq 2
	run trace -e 'syscalls:sys_enter_getppid/common_pid>0/cpus=0,1/' -- sh -c "$two"
	check_eq "cpus=0,1 after a filter: all 200" "$(wl_lines)" 200
	run trace -C 0 -e 'sched:sched_switch/cpus=1/' -N 1
	check_eq "cpus outside -C: usage error" "$rc" 2
	check "cpus outside -C: says so" grep -qF "cpus=1 in 'sched:sched_switch/cpus=1/': CPU 1 is not monitored" "$T/err"
	# one CPU of the list outside -C is refused too, not quietly left out
	run trace -C 1 -e 'sched:sched_switch/cpus=0-1/' -N 1
	check_eq "cpus partly outside -C: usage error" "$rc" 2
	check "cpus partly outside -C: names the CPU" grep -qF "CPU 0 is not monitored" "$T/err"
else
	skip "cpus=LIST: needs 2 CPUs"
fi
run trace -e "sched:sched_switch/cpus=$NCPU/" -N 1
check_eq "cpus=$NCPU (no such CPU): exit status" "$rc" 2
check "cpus=$NCPU: says the host's CPUs" grep -qE "^perf-prof trace: bad cpus=$NCPU in .*this host has CPUs 0-" "$T/err"

# --- the same event many times is opened (and delivered) once
run trace -e syscalls:sys_enter_getppid -v -- "$G" 100
one=$(sed -n 's/^perf-prof: monitoring: \([0-9]*\) events enabled/\1/p' "$T/err")
list=$(printf 'syscalls:sys_enter_getppid,%.0s' $(seq 1000))
run trace -e "${list}syscalls:sys_enter_getp?id" -v -- "$G" 100
check_eq "1000 x the same event + a glob: 100 lines" "$(events syscalls:sys_enter_getppid "$T/out")" 100
check_eq "1000 x the same event: as many perf events as once (+ getpid)" \
	"$(sed -n 's/^perf-prof: monitoring: \([0-9]*\) events enabled/\1/p' "$T/err")" $((one * 2))
check_eq "1000 x the same event: nothing lost" "$(grep -c lost "$T/err")" 0
run trace -e 'syscalls:sys_enter_getppid,syscalls:sys_enter_getppid//alias=again/' -- "$G" 100
check_eq "the same event under another alias: asked for twice" \
	"$(events '(syscalls:sys_enter_getppid|again)' "$T/out")" 200

# --- a glob that matches events the kernel refuses skips them, with one line
run trace -e irq_vectors:irq_work_exit -- true
if [ "$rc" -ne 0 ] && grep -q refuses "$T/err"; then
	check_eq "named refused event: still an error" "$rc" 1
	check "named refused event: no root hint for root" \
		sh -c "! grep -q 'run as root' '$T/err'"
	run trace -e 'irq_vectors:irq_work_*' -v -- "$G" 10
	check_eq "glob with a refused event: exit status" "$rc" 0
	check "glob with a refused event: one summary line" \
		grep -qx "perf-prof trace: skipped 1 event the kernel refuses: irq_vectors:irq_work_exit" "$T/err"
	check "glob with a refused event: goes on" grep -q "^perf-prof: monitoring: " "$T/err"
	check "glob with a refused event: no root hint for root" \
		sh -c "! grep -q 'run as root' '$T/err'"
else
	skip "this kernel opens irq_vectors:irq_work_exit: no refused event to test with"
fi

# --- every thread under its own name, at the time of its event
TN=$W/thread_names
# names FILE: "lines bad distinct" of the getppid lines of thread_names' workers
names() {
	awk '/ syscalls:sys_enter_getppid: / && $3 != "sh" { n++; if ($3 !~ /^tn-[0-9][0-9][0-9]$/) bad++; seen[$3]++ }
		END { printf "%d %d %d\n", n, bad, length(seen) }' "$1"
}
# sysw ARGS... -- CMD...: perf-prof ARGS -v system-wide; CMD once it monitors; then SIGINT
sysw() {
	local args=() pp
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	rm -f "$T/err" # not an earlier run's "monitoring"
	"$PP" "${args[@]}" -v >"$T/out" 2>"$T/err" &
	pp=$!
	for _ in $(seq 1500); do grep -q '^perf-prof: monitoring' "$T/err" && break; sleep 0.02; done
	"$@" >/dev/null
	kill -INT $pp
	wait $pp
	rc=$?
}
if [ "$NCPU" -ge 2 ]; then
	# named on CPU 1, getppid() on CPU 0: COMM record and sample in two buffers
	for mode in "" --migrate; do
		run trace -e syscalls:sys_enter_getppid -- "$TN" 100 $mode
		check_eq "-- cmd, 100 threads$mode: each line its thread's own name" \
			"$(names "$T/out")" "100 0 100"
		# the kernel keeps the workers' calls (by their true names), not the host's
		sysw trace -e 'syscalls:sys_enter_getppid/comm ~ "tn-*"/' -- "$TN" 100 $mode
		check_eq "system-wide, 100 threads$mode: each line its thread's own name" \
			"$(names "$T/out")" "100 0 100"
		check_eq "system-wide, 100 threads$mode: no <...>" "$(grep -c '<\.\.\.>' "$T/out")" 0
	done
else
	skip "thread names across buffers: needs 2 CPUs"
fi
# a thread's last switch-out comes after its exit: the sample's tid is -1
sysw trace -e 'sched:sched_switch/prev_comm~"tn-*" && prev_state==16/' -- "$TN" 100
# (the workers' exits; the main thread, tn-main, may show one more)
check_eq "exiting threads: 100 switch-outs in state X" \
	"$(grep -cE 'prev_comm=tn-[0-9]{3} .*prev_state=X' "$T/out")" 100
check_eq "exiting threads: no tid 4294967295" "$(grep -c ' 4294967295 ' "$T/out")" 0
check_eq "exiting threads: comm and tid are prev_comm and prev_pid" \
	"$(awk '/prev_comm=tn-[0-9][0-9][0-9] .*prev_state=X/ { c = $0; sub(/.*prev_comm=/, "", c); sub(/ .*/, "", c);
		p = $0; sub(/.*prev_pid=/, "", p); sub(/ .*/, "", p);
		if ($3 == c && $4 == p) ok++ } END { print ok + 0 }' "$T/out")" 100

# --- usage errors: exit 2, one line "perf-prof PROFILER: ..." with a hint
usage() { # DESC PROFILER PHRASE ARGS...
	local d=$1 prof=$2 phrase=$3
	shift 3
	run "$@"
	check_eq "$d: exit 2" "$rc" 2
	check_eq "$d: one line" "$(grep -c . "$T/err")" 1
	check "$d: 'perf-prof $prof: ...$phrase' (stderr: $(head -c 200 "$T/err"))" \
		grep -qE "^perf-prof $prof: .*$phrase" "$T/err"
	check_eq "$d: nothing on stdout" "$(wc -c <"$T/out")" 0
}
usage "task-state --filter ''" task-state "bad --filter ''.*see: perf-prof task-state -h" \
	task-state --filter '' -- true
usage "trace without -e" trace "no events: give -e.*see: perf-prof list" trace -- true
usage "unknown tracepoint" trace "unknown tracepoint 'sched:nosuch'.*see: perf-prof list" \
	trace -e sched:nosuch -- true
usage "unknown tracepoint, glob" trace "no tracepoint matches" trace -e 'nosys:x*' -- true
usage "filter the kernel rejects" trace "rejected by the kernel" \
	trace -e 'sched:sched_switch/nofield==1/' -- true
usage "bad -C" trace "bad CPU list 'abc'" trace -e sched:sched_switch -C abc
usage "bad -p" trace "bad pid 'x'" trace -e sched:sched_switch -p x
usage "bad --call-graph" task-state "bad --call-graph 'zz'" task-state --call-graph zz
usage "task-state --flame-graph without -g" task-state "needs stacks: add -g" \
	task-state --flame-graph "$T/x" -- true
# run-time errors: exit 1
run trace -e sched:sched_switch -p 999999
check_eq "no such process: exit 1" "$rc" 1
check "no such process: prefixed" grep -q "^perf-prof trace: no such process: 999999" "$T/err"

done_tests
