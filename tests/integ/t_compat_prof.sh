#!/usr/bin/env bash
# The original's command lines for per-profiler options (issue 21):
#  - --exclude-user, --exclude-kernel, --exclude-guest, -G/--exclude-host on
#    every profiler: samplers and counters put them on their events' exclude
#    bits (counts that change by the mode the events happen in), profilers of
#    tracepoints accept --exclude-user/--exclude-guest (nothing to leave out)
#    and refuse --exclude-kernel and -G in one line (tracepoints fire in the
#    host's kernel), and both user and kernel left out is refused;
#  - syscalls -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit [-k
#    common_pid] and rundelay -e WAKEUPS,sched:sched_switch//key=prev_pid/ -e
#    sched:sched_switch//key=next_pid/ -k pid give the same counts as the
#    default spelling on the same workload, with the events' filters and
#    untraced events for --detail.
. "$(dirname "$0")/lib.sh"

for w in touch getppid_loop lat_sleep; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done

# refused LABEL EXPECTED-LINE ARGS...: status 2, that one line on stderr, no stdout
refused() {
	local label=$1 want=$2
	shift 2
	"$PP" "$@" >"$T/r.out" 2>"$T/r.err"
	check_eq "$label: status 2" $? 2
	check_eq "$label: the reason" "$(cat "$T/r.err")" "$want"
	check_eq "$label: nothing on stdout" "$(cat "$T/r.out")" ""
}
# clean LABEL OUT ARGS...: perf-prof ARGS into OUT, status 0 and nothing on stderr
clean() {
	local label=$1 out=$2
	shift 2
	"$PP" "$@" >"$out" 2>"$out.err"
	check_eq "$label: status 0" $? 0
	check_eq "$label: nothing on stderr" "$(cat "$out.err")" ""
}
# stat's count of EVENT in OUT (thousands separators dropped)
count() { awk -v e="$2" '$2 == e || $3 == e { gsub(",", "", $1); print $1; exit }' "$1"; }

# --- stat: the counters' exclude bits (touch: 3000 pages written in user mode, 20 sleeps) ---
ev=page-faults,context-switches
clean "stat" "$T/s0" stat -e $ev -- "$W/touch" 3000 20
clean "stat --exclude-user" "$T/s1" stat -e $ev --exclude-user -- "$W/touch" 3000 20
clean "stat --exclude-kernel" "$T/s2" stat -e $ev --exclude-kernel -- "$W/touch" 3000 20
check_range "stat: every fault counted" "$(count "$T/s0" page-faults)" 3000 4000
check_range "stat --exclude-user: the faults taken in user mode are left out" \
	"$(count "$T/s1" page-faults)" 0 200
check_range "stat --exclude-kernel: the user-mode faults stay" \
	"$(count "$T/s2" page-faults)" 3000 4000
check_range "stat: the sleeps switch" "$(count "$T/s0" context-switches)" 20 1000
check_range "stat --exclude-user: switches happen in the kernel, counted" \
	"$(count "$T/s1" context-switches)" 20 1000
check_eq "stat --exclude-kernel: no switch happens in user mode" \
	"$(count "$T/s2" context-switches)" 0

# --- hrcount: the members count in the modes kept (the timer keeps every period) ---
# the page-faults total: the table's TOTAL plus what came after the last period
hc_total() { awk '/^page-faults/ { gsub(",", "", $3); if ($3 ~ /^[0-9]+$/) n += $3 }
	/after the last period/ { v = $NF; gsub(",", "", v); n += v } END { print n + 0 }' "$1"; }
clean "hrcount" "$T/h0" hrcount -e page-faults -- "$W/touch" 3000
clean "hrcount --exclude-user" "$T/h1" hrcount -e page-faults --exclude-user -- "$W/touch" 3000
check_range "hrcount: every fault" "$(hc_total "$T/h0")" 3000 4000
check_range "hrcount --exclude-user: the user-mode faults left out" "$(hc_total "$T/h1")" 0 200

# --- profilers of tracepoints: --exclude-user/--exclude-guest change nothing ---
clean "trace --exclude-user --exclude-guest" "$T/t1" \
	trace -e sched:sched_process_exec --exclude-user --exclude-guest -- "$W/getppid_loop" 10
check_eq "trace --exclude-user: the exec is still traced" \
	"$(grep -c 'sched:sched_process_exec: filename=.*getppid_loop' "$T/t1")" 1
clean "syscalls --exclude-user" "$T/y1" syscalls --exclude-user -- "$W/getppid_loop" 300
check_eq "syscalls --exclude-user: every getppid" \
	"$(awk '$1 == "getppid" { print $2 }' "$T/y1")" 300

refused "oncpu --exclude-kernel" \
	"perf-prof oncpu: tracepoints fire in the kernel: --exclude-kernel leaves nothing" \
	oncpu --exclude-kernel -- true
refused "trace --exclude-kernel" \
	"perf-prof trace: tracepoints fire in the kernel: --exclude-kernel leaves nothing" \
	trace -e sched:sched_switch --exclude-kernel -- true
refused "task-state -G" \
	"perf-prof task-state: tracepoints fire in the host's kernel: -G/--exclude-host leaves nothing" \
	task-state -G -- true
refused "rundelay --exclude-host" \
	"perf-prof rundelay: tracepoints fire in the host's kernel: -G/--exclude-host leaves nothing" \
	rundelay --exclude-host -- true
for p in stat percpu-stat hwstat hrcount irq-off watchdog split-lock llcstat tlbstat ldlat-loads ldlat-stores; do
	refused "$p --exclude-user --exclude-kernel" \
		"perf-prof $p: --exclude-user and --exclude-kernel leave nothing" \
		$p --exclude-user --exclude-kernel -- true
done
refused "breakpoint -G" \
	"perf-prof breakpoint: breakpoints are the host's debug registers: -G/--exclude-host leaves nothing" \
	breakpoint -G 0x1000 -- true
refused "profile -G --exclude-guest" \
	"perf-prof profile: -G/--exclude-host and --exclude-guest leave nothing" \
	profile -G --exclude-guest -- true

# --- breakpoint: bpvar writes bp_var 100 times in user mode (and the kernel a few times, loading it) ---
if [ -x "$W/bpvar" ]; then
	# hits by mode: the ip of a hit in the kernel is a kernel address
	hits() { awk '/ bp_var:w: addr/ { if ($0 ~ / ip 0xffff/) k++; else u++ }
		END { print u + 0, k + 0 }' "$1"; }
	clean "breakpoint" "$T/b0" breakpoint bp_var:w -- "$W/bpvar" 20
	clean "breakpoint --exclude-kernel" "$T/b1" breakpoint bp_var:w --exclude-kernel -- "$W/bpvar" 20
	clean "breakpoint --exclude-user" "$T/b2" breakpoint bp_var:w --exclude-user -- "$W/bpvar" 20
	read -r u0 k0 <<<"$(hits "$T/b0")"
	check_eq "breakpoint: the 100 writes in user mode" "$u0" 100
	check_eq "breakpoint --exclude-kernel: the same 100, none in the kernel" "$(hits "$T/b1")" "100 0"
	check_eq "breakpoint --exclude-user: only the kernel's ($k0 without the option)" \
		"$(hits "$T/b2")" "0 $k0"
else
	skip "workload bpvar not built"
fi

# attach2 OUT1 'ARGS1' OUT2 'ARGS2' WORKLOAD ARGS...: two monitors of the same
# run of WORKLOAD (-f FIFO first), both started before it goes: the same
# events for both.  Leaves OUTn, OUTn.rc.
attach2() {
	local o1=$1 a1=$2 o2=$3 a2=$4 wl=$5 w p1 p2 pid i
	shift 5
	mkfifo "$o1.fifo"
	rm -f "$o1.wl" # not an earlier run's lines
	spawn w "$W/$wl" -f "$o1.fifo" "$@" >"$o1.wl"
	for ((i = 0; i < 100; i++)); do
		grep -q '^pid=' "$o1.wl" && break
		sleep 0.1
	done
	pid=$(grep -o 'pid=[0-9]*' "$o1.wl" | cut -d= -f2)
	# shellcheck disable=SC2086
	rm -f "$o1.err" # not an earlier run's "monitoring"
	"$PP" ${a1//PID/$pid} -v >"$o1" 2>"$o1.err" &
	p1=$!
	# shellcheck disable=SC2086
	rm -f "$o2.err" # not an earlier run's "monitoring"
	"$PP" ${a2//PID/$pid} -v >"$o2" 2>"$o2.err" &
	p2=$!
	for ((i = 0; i < 600; i++)); do
		grep -qs '^perf-prof: monitoring: [0-9]* events enabled' "$o1.err" &&
			grep -qs '^perf-prof: monitoring: [0-9]* events enabled' "$o2.err" && break
		kill -0 $p1 2>/dev/null && kill -0 $p2 2>/dev/null || break
		sleep 0.1
	done
	echo go >"$o1.fifo"
	wait "$w"
	sleep 0.3
	kill -INT $p1 $p2 2>/dev/null
	wait $p1
	echo $? >"$o1.rc"
	wait $p2
	echo $? >"$o2.rc"
	reap "$w"
}

# --- syscalls: the original's -e, the same counts as the default spelling ---
calls() { awk -v s="$2" '$1 == s { print $2; exit }' "$1"; }
errs() { awk -v s="$2" '$1 == s { print $(NF - 1); exit }' "$1"; }
clean "syscalls" "$T/c0" syscalls -- "$W/getppid_loop" 500
clean "syscalls -e sys_enter -e sys_exit" "$T/c1" \
	syscalls -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -- "$W/getppid_loop" 500
check_eq "syscalls: 500 getppid" "$(calls "$T/c0" getppid)" 500
check_eq "syscalls -e: the same 500 getppid" "$(calls "$T/c1" getppid)" 500
check_eq "syscalls -e: the same rows" "$(awk 'NR > 1 && $1 != "SYSCALL" { print $1 }' "$T/c1" | sort)" \
	"$(awk 'NR > 1 && $1 != "SYSCALL" { print $1 }' "$T/c0" | sort)"
# x86_64: getppid is 110
clean "syscalls -e sys_enter/id==110/ -k common_pid" "$T/c2" \
	syscalls -e 'raw_syscalls:sys_enter/id==110/' -e raw_syscalls:sys_exit -k common_pid \
	-- "$W/getppid_loop" 500
check_eq "syscalls -e with the id filter: getppid's row alone" \
	"$(awk '$1 != "SYSCALL" && $1 != "done" { print $1, $2 }' "$T/c2")" "getppid 500"
# the original's -p PID, beside ours on the same run (lat_sleep: 10 sleeps of 2 ms, 5 failed openat)
attach2 "$T/p0" "syscalls -p PID" "$T/p1" \
	"syscalls -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -p PID" lat_sleep 10 2 5
check_eq "syscalls -p: 10 sleeps" "$(calls "$T/p0" clock_nanosleep)" 10
check_eq "syscalls -e ... -p: the same 10 sleeps" "$(calls "$T/p1" clock_nanosleep)" 10
check_eq "syscalls -e ... -p: 5 openat, 5 errors" "$(calls "$T/p1" openat) $(errs "$T/p1" openat)" "5 5"
check_eq "syscalls -e ... -p: the same rows and calls" \
	"$(awk '$1 != "SYSCALL" && $2 ~ /^[0-9]+$/ { print $1, $2 }' "$T/p1" | sort)" \
	"$(awk '$1 != "SYSCALL" && $2 ~ /^[0-9]+$/ { print $1, $2 }' "$T/p0" | sort)"
check_eq "syscalls -e ... -p: status 0" "$(cat "$T/p0.rc") $(cat "$T/p1.rc")" "0 0"
# an untraced event is in --detail's timelines, not in the table
clean "syscalls -e ... -e untraced --detail" "$T/c3" \
	syscalls -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -e 'sched:sched_switch//untraced/' \
	--than 1ms --detail -- "$W/lat_sleep" 3 2
check_eq "syscalls --detail: a slow sleep per sleep" "$(grep -c '^clock_nanosleep: ' "$T/c3")" 3
check "syscalls --detail: the untraced switch in a timeline" \
	grep -q '^  +.* sched:sched_switch: prev_comm=lat_sleep' "$T/c3"
check_eq "syscalls --detail: 3 sleeps in the table" "$(calls "$T/c3" clock_nanosleep)" 3

# system-wide with a filter on -e: perf-prof's own reads are still left out
# (its filter and the -e filter both hold)
"$PP" syscalls -e 'raw_syscalls:sys_enter/id==0/' -e 'raw_syscalls:sys_exit/id==0/' --perins \
	>"$T/c4" 2>"$T/c4.err" &
pc4=$!
sleep 1.5
kill -INT $pc4
wait $pc4
check_eq "syscalls -e FILTER system-wide: status 0, stderr empty" "$?:$(cat "$T/c4.err")" "0:"
check "... some thread's reads" grep -q '^read ' "$T/c4"
check_eq "... none of perf-prof's own ($pc4)" "$(awk -v p=$pc4 '$2 == p' "$T/c4" | wc -l)" 0

refused "syscalls -e in the wrong order" \
	"perf-prof syscalls: -e raw_syscalls:sys_exit: the first -e of syscalls is raw_syscalls:sys_enter (other events: add untraced, for --detail)" \
	syscalls -e raw_syscalls:sys_exit -e raw_syscalls:sys_enter -- true
refused "syscalls -e one event" \
	"perf-prof syscalls: syscalls -e: give two, -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit" \
	syscalls -e raw_syscalls:sys_enter -- true
refused "syscalls -k another key" \
	"perf-prof syscalls: -k 'prev_pid': syscalls pairs each sys_exit with its thread's sys_enter (-k common_pid, as the original)" \
	syscalls -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -k prev_pid -- true
refused "syscalls --syscall and an -e filter" \
	"perf-prof syscalls: give --syscall or filters on -e, not both" \
	syscalls -e 'raw_syscalls:sys_enter/id==0/' -e raw_syscalls:sys_exit --syscall read -- true

# --- rundelay: the original's -e, beside ours on the same run (lat_sleep: 20 sleeps) ---
# the calls of each START => END row: "wakeup 20" ...
rows() { awk '$2 == "=>" && $4 ~ /^[0-9]+$/ { n[$1] += $4 } END { for (k in n) print k, n[k] }' "$1" | sort; }
wakeups() { awk '$1 == "wakeup" && $2 == "=>" { n += $4 } END { print n + 0 }' "$1"; }
# the sleeps on CPU 0 beside a spinner: on this VM a sample raised in an idle
# CPU's context (a timer's wakeup) is now and then not delivered, perf record's
# alike (t_rundelay does the same)
spawn rspin taskset -c 0 sh -c 'while :; do :; done'
attach2 "$T/r0" "rundelay -p PID" "$T/r1" \
	"rundelay -e sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_switch//key=prev_pid/ -e sched:sched_switch//key=next_pid/ -k pid --order -p PID" \
	lat_sleep -c 0 20 2
check_range "rundelay -p: a wakeup per sleep, and the FIFO read's (one may come before its switch-out)" \
	"$(wakeups "$T/r0")" 18 21
check_eq "rundelay -e ... -k pid: the same rows and calls" "$(rows "$T/r1")" "$(rows "$T/r0")"
check_eq "rundelay -e ... -k pid: status 0" "$(cat "$T/r0.rc") $(cat "$T/r1.rc")" "0 0"
attach2 "$T/r2" "rundelay -p PID" "$T/r3" \
	"rundelay -e sched:sched_wakeup*,sched:sched_switch -e sched:sched_switch -p PID" lat_sleep -c 0 20 2
check_eq "rundelay -e sched:sched_wakeup*: the same rows and calls" "$(rows "$T/r3")" "$(rows "$T/r2")"
# a start left out of the first -e is not measured
attach2 "$T/r4" "rundelay -p PID" "$T/r5" \
	"rundelay -e sched:sched_wakeup -e sched:sched_switch -p PID" lat_sleep -c 0 20 2
check_eq "rundelay -e sched:sched_wakeup: the same wakeups" "$(wakeups "$T/r5")" "$(wakeups "$T/r4")"
check_eq "rundelay -e sched:sched_wakeup: no preempted row" "$(grep -c '^preempted' "$T/r5")" 0
# the command line as it is, with a -- workload: nothing on stderr
clean "rundelay -e (the original's usage)" "$T/r6" \
	rundelay -e sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_switch//key=prev_pid/ \
	-e sched:sched_switch//key=next_pid/ -k pid -- "$W/lat_sleep" -c 0 20 2
# (and the one from perf-prof's start signal, when it waited for it)
check_range "rundelay -e ... -- : a wakeup per sleep" "$(wakeups "$T/r6")" 18 21
# the events' filters: a comm no task has leaves no wakeup
clean "rundelay -e with filters" "$T/r7" \
	rundelay -e 'sched:sched_wakeup/comm=="nosuchcomm"/' -e sched:sched_switch -- "$W/lat_sleep" -c 0 5 2
check_eq "rundelay -e filtered wakeups: none" "$(wakeups "$T/r7")" 0
reap "$rspin"

# the filters of sched_switch's two roles hold each on its own side: two
# shells named rd_a and rd_b take turns on CPU 0, and only rd_a's delays are
# measured (the kernel keeps a switch either filter passes: rd_b preempted by
# rd_a passes next_comm's, and was measured before)
ln -s /bin/sh "$T/rd_a"
ln -s /bin/sh "$T/rd_b"
clean "rundelay -e prev_comm/next_comm filters" "$T/r8" \
	rundelay -e 'sched:sched_wakeup/comm=="rd_a"/,sched:sched_switch/prev_comm=="rd_a"/key=prev_pid/' \
	-e 'sched:sched_switch/next_comm=="rd_a"/key=next_pid/' -k pid --perins -- \
	sh -c "taskset -c 0 timeout 1 '$T/rd_a' -c 'while :; do :; done' & taskset -c 0 timeout 1 '$T/rd_b' -c 'while :; do :; done'; wait"
check "rundelay -e role filters: rd_a preempted by rd_b, measured" \
	awk '$1 == "preempted" && $5 > 10 { f = 1 } END { exit !f }' "$T/r8"
check_eq "rundelay -e role filters: one thread's rows (rd_a's), not rd_b's" \
	"$(awk '$1 == "preempted" { print $4 }' "$T/r8" | sort -u | wc -l)" 1

refused "rundelay -e with another event" \
	"perf-prof rundelay: -e sched:sched_process_exec: rundelay measures sched_wakeup, sched_wakeup_new and sched_switch (other events: add untraced, for --detail)" \
	rundelay -e sched:sched_wakeup,sched:sched_process_exec -e sched:sched_switch -- true
refused "rundelay -e another key" \
	"perf-prof rundelay: -e sched:sched_switch//key=prev_pid/: key=prev_pid: rundelay keys each event by its thread (sched_switch: prev_pid, then next_pid; wakeups: pid)" \
	rundelay -e sched:sched_wakeup -e sched:sched_switch//key=prev_pid/ -- true
refused "rundelay -k another key" \
	"perf-prof rundelay: -k 'cpu': rundelay keys every event by its thread (-k pid, as the original)" \
	rundelay -e sched:sched_wakeup -e sched:sched_switch -k cpu -- true
refused "rundelay -e one position" \
	"perf-prof rundelay: rundelay -e: give two, -e sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_switch -e sched:sched_switch (the starts, then the end)" \
	rundelay -e sched:sched_switch -- true

done_tests
