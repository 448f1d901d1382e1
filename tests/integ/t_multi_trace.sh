#!/bin/bash
# multi-trace and mpdelay against workloads with known latencies:
# tests/work/lat_sleep makes N clock_nanosleep calls of 2 ms (the first K
# of 10 ms) and times each itself, so calls are exact, the average agrees
# with the workload's own mean within 2%, and --than prints exactly the K
# slow pairs; tests/work/xcpu_req makes requests that start on CPU 0 and
# end on CPU 1 (paired by key= only in time order); mpdelay pairs the
# nanosleep's hrtimer from start to expiry on the workload's CPU.  Bad
# input is a usage error.
# The ground-truth checks run twice: on the default back end (BPF where the
# host has it: starts kept per key and the table built in the kernel) and
# with --no-bpf (the ring path); the pairing rules (a start replaced, a
# thread's exit, --cycle, role=) give the same counts and drops on both;
# -v names the back end, --bpf with what BPF cannot do is a usage error
# naming it, and a SIGKILLed run leaves none of its programs loaded.
. "$(dirname "$0")/lib.sh"

[ -x "$W/lat_sleep" ] && [ -x "$W/xcpu_req" ] ||
	{ skip "workloads not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_clock_nanosleep ] ||
	{ skip "no syscalls tracepoints"; done_tests; exit; }

# field N of the first table row whose first column is KEY
# (not a --than line "A => B: 10ms key K")
row() { awk -v k="$2" -v n="$3" '$1 == k && $3 !~ /:$/ { print $n; exit }' "$1"; }
# field N of the table's title line
title() { awk -v n="$2" '/^START => END / { print $n; exit }' "$1"; }

EN=syscalls:sys_enter_clock_nanosleep
EX=syscalls:sys_exit_clock_nanosleep
LABEL="$EN"

# whether this host runs BPF programs (else the default is the ring path too)
bpf=1
bpf_ours multi-trace --bpf -e $EN -e $EX -- true || bpf=0
[ $bpf = 1 ] || skip "BPF back end: $(cat "$T/probe.err") (the default runs the ring path)"

# the ground truth, on the back end $1 ("": the default, BPF here; --no-bpf)
suite() {
	local be=$1 n=${1:-default} pid ADDR F spin mean avg o
	# 200 sleeps of 2 ms through multi-trace -p: exact calls, the workload's mean
	attach "$T/a$be" "multi-trace $be -e $EN -e $EX -p PID --hist" lat_sleep 200 2
	check_eq "$n: multi-trace exit status" "$(cat "$T/a$be.rc")" 0
	check "$n: workload ran to its end" grep -q 'done 200$' "$T/a$be.wl"
	check_eq "$n: title" "$(title "$T/a$be" 1) $(title "$T/a$be" 2) $(title "$T/a$be" 3) $(title "$T/a$be" 4)" "START => END calls"
	check_eq "$n: row label" "$(row "$T/a$be" $EN 1) $(row "$T/a$be" $EN 2) $(row "$T/a$be" $EN 3)" "$EN => $EX"
	check_eq "$n: calls" "$(row "$T/a$be" $EN 4)" 200
	mean=$(grep -o 'mean_ns=[0-9]*' "$T/a$be.wl" | cut -d= -f2)
	avg=$(ns "$(row "$T/a$be" $EN 7)")
	check_range "$n: avg within 2% of the workload's mean ($mean ns)" "$avg" \
		"$(awk -v m="$mean" 'BEGIN { print m * 0.98 }')" "$(awk -v m="$mean" 'BEGIN { print m * 1.02 }')"
	check_range "$n: min at least 2ms" "$(ns "$(row "$T/a$be" $EN 6)")" 2000000 100000000
	check_eq "$n: histogram counts sum to 200" \
		"$(awk '$2 == "->" && $4 == ":" { n += $5 } END { print n }' "$T/a$be")" 200
	check "$n: nothing dropped" bash -c "! grep -q 'dropped' '$T/a$be'"

	# --perins: one row per thread, keyed by the workload's tid
	attach "$T/c$be" "multi-trace $be -e $EN -e $EX -p PID --perins" lat_sleep 50 2
	pid=$(grep -o 'pid=[0-9]*' "$T/c$be.wl" | cut -d= -f2)
	check_eq "$n: --perins key column" "$(title "$T/c$be" 4)" TID
	check_eq "$n: --perins row of the workload's thread" "$(row "$T/c$be" $EN 4) $(row "$T/c$be" $EN 5)" "$pid 50"

	# keys across CPUs: a request written on CPU 0, served on CPU 1 (key=count / key=offset)
	if [ "$(nproc)" -ge 2 ]; then
		attach "$T/e$be" "multi-trace $be -e syscalls:sys_enter_write/fd==FD/key=count/ -e syscalls:sys_enter_lseek//key=offset/ -p PID" xcpu_req 200
		check_eq "$n: cross-CPU exit status" "$(cat "$T/e$be.rc")" 0
		check "$n: cross-CPU workload ran to its end" grep -q '^done 200' "$T/e$be.wl"
		check_eq "$n: cross-CPU: every request paired" "$(row "$T/e$be" syscalls:sys_enter_write 4)" 200
		check "$n: cross-CPU: no pair backwards or dropped" bash -c "! grep -q 'dropped\|backwards' '$T/e$be'"
		check_range "$n: cross-CPU: min latency positive" "$(ns "$(row "$T/e$be" syscalls:sys_enter_write 6)")" 1 1000000000
	else
		skip "$n: keys across CPUs: one CPU"
	fi

	# mpdelay on the nanosleep's hrtimer, keyed by CPU: start -> expiry ~2ms, expiry -> exit short
	ADDR=$(awk '$3 == "hrtimer_wakeup" { print $1; exit }' /proc/kallsyms)
	if [ -d /sys/kernel/tracing/events/timer/hrtimer_start ] && [ "$(nproc)" -ge 2 ] &&
		[ -n "$ADDR" ] && [ "$ADDR" != 0000000000000000 ]; then
		F="function==0x$ADDR"
		# the timers expire in a busy task's context: some VMs never deliver samples
		# taken in the idle task's interrupts (perf record sees 2 of 144 there too)
		spawn spin taskset -c 1 sh -c 'while :; do :; done'
		attach "$T/f$be" "mpdelay $be -e timer:hrtimer_start/$F/,timer:hrtimer_expire_entry/$F/,timer:hrtimer_expire_exit -C 1" \
			lat_sleep -c 1 200 2
		reap "$spin"
		check_eq "$n: hrtimer mpdelay exit status" "$(cat "$T/f$be.rc")" 0
		check_eq "$n: two rows" "$(grep -c '^timer:hrtimer_' "$T/f$be")" 2
		# BPF: an expiry whose interrupt came while a classic tracepoint program ran
		# on CPU 1 (ours at a soft hrtimer's expiry, which runs with interrupts on,
		# or another tool's) is not seen: the kernel runs one at a time on a CPU,
		# and we say how many it skipped; each loses a pair of both rows
		missed=$(sed -n 's/^perf-prof: \([0-9]*\) tracepoint hits (of any task) not seen: the kernel did not run our program.*/\1/p' "$T/f$be.err")
		# (what the run said, shown when a check below fails)
		sed 's/^/# out: /' "$T/f$be"
		grep -v '^perf-prof: monitoring' "$T/f$be.err" | sed 's/^/# err: /'
		check_range "$n: start => expire_entry: the 200 sleeps (with those not run, said)" \
			"$(($(row "$T/f$be" timer:hrtimer_start 4) + ${missed:-0}))" 200 400
		check_range "$n: start => expire_entry p50 is the 2ms sleep" "$(ns "$(row "$T/f$be" timer:hrtimer_start 8)")" 1990000 2300000
		check_range "$n: expire_entry => expire_exit: as many (with those not run, said)" \
			"$(($(row "$T/f$be" timer:hrtimer_expire_entry 4) + ${missed:-0}))" 200 400
		check_range "$n: expire_entry => expire_exit p50 under 100us" "$(ns "$(row "$T/f$be" timer:hrtimer_expire_entry 8)")" 1 100000
	else
		skip "$n: hrtimer mpdelay: no timer tracepoints, one CPU or no kallsyms addresses"
	fi

	# -v names the back end
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: -v says the BPF back end ran" \
			grep -q '^perf-prof multi-trace: the BPF back end: pairs timed in the kernel' "$T/a$be.err"
		check "$n: mpdelay -v says the BPF back end ran" \
			grep -q '^perf-prof mpdelay: the BPF back end: pairs timed in the kernel' "$T/f$be.err"
	else
		check "$n: -v says nothing of a BPF back end" bash -c "! grep -q 'BPF back end' '$T/a$be.err'"
	fi

	# the pairing rules: 10 starts and no end, keyed by the thread: each start
	# replaces the one before (9 dropped), the last one is pending at the
	# thread's exit (dropped there, counted)
	o=$T/g$be
	"$PP" multi-trace $be -e $EN -e syscalls:sys_exit_getppid -- "$W/lat_sleep" 10 2 >"$o" 2>&1
	check_eq "$n: starts without ends: status" $? 0
	check_eq "$n: starts without ends: no row, 9 replaced, 1 at the exit" \
		"$(grep -c "^$EN =>" "$o"):$(grep -c '^multi-trace: 9 pairs dropped: the start came again before an end$' "$o"):$(grep -c "^multi-trace: 1 pending pairs dropped at their task's exit$" "$o")" "0:1:1"
	# --cycle with one point: each sleep's start pairs with the next (9 pairs of
	# 2 ms or more), the last one left at the exit
	"$PP" multi-trace $be -e $EN --cycle -- "$W/lat_sleep" 10 2 >"$o" 2>&1
	check_eq "$n: --cycle one point: 9 pairs, the last dropped at the exit" \
		"$(row "$o" $EN 4):$(grep -c "^multi-trace: 1 pending pairs dropped at their task's exit$" "$o")" "9:1"
	check_range "$n: --cycle one point: min at least 2ms" "$(ns "$(row "$o" $EN 6)")" 2000000 1000000000
	# role=1 on the exit: it opens exit => enter (--cycle) but closes nothing,
	# so enter => exit has no row and each enter is replaced by the next
	"$PP" multi-trace $be -e $EN -e "$EX//role=1/" --cycle -- "$W/lat_sleep" 10 2 >"$o" 2>&1
	check_eq "$n: role=1: exit => enter 9 pairs, no enter => exit row, 9 enters replaced" \
		"$(row "$o" $EX 4):$(grep -c "^$EN =>" "$o"):$(grep -c '^multi-trace: 9 pairs dropped: the start came again before an end$' "$o")" "9:0:1"
	check_range "$n: role=1: exit => enter is short" "$(ns "$(row "$o" $EX 6)")" 1 2000000
	# key=EXPR --perins: the key column, a row per key (the workload's pid)
	"$PP" multi-trace $be -e "$EN//key=common_pid/" -e "$EX//key=common_pid/" --perins \
		-- "$W/lat_sleep" 20 2 >"$o" 2>&1
	check_eq "$n: key=common_pid --perins: KEY, one row of the 20 calls under a pid" \
		"$(title "$o" 4) $(awk -v k=$EN '$1 == k && $4 ~ /^[0-9]+$/ { print $5 }' "$o")" "KEY 20"
	# -i: the intervals' calls add up to the run's (nothing lost between two reads)
	"$PP" multi-trace $be -e $EN -e $EX -i 50 -- "$W/lat_sleep" 100 2 >"$o" 2>&1
	check_eq "$n: -i 50: the intervals' calls add up to 100" \
		"$(awk -v k=$EN '$1 == k { n += $4 } END { print n + 0 }' "$o")" 100
	check_range "$n: -i 50: in several intervals" "$(grep -c "^$EN " "$o")" 2 1000
	# --json: the same report description
	"$PP" multi-trace $be -e $EN -e $EX --json -- "$W/lat_sleep" 30 2 >"$o" 2>/dev/null
	check_eq "$n: --json: the row's from, to and count" \
		"$(grep '"type":"row"' "$o" | jq -r '[.from, .to, .count] | join(" ")')" "$EN $EX 30"

	# --than: exactly the 5 slow sleeps of 30 ms (15 ms of headroom over a 2 ms sleep
	# delayed on a busy host), both events each, and the count column; on BPF the
	# slow pairs are copied out of the kernel with both events' records
	attach "$T/b$be" "multi-trace $be -e $EN -e $EX -p PID --than 15ms" lat_sleep -o 15 200 2 0 5 30
	b=$T/b$be
	check_eq "$n: --than exit status" "$(cat "$b.rc")" 0
	# (and a 2 ms one a busy host stretched past 15 ms: the workload's count is the most)
	over=$(sed -n 's/^over=//p' "$b.wl")
	ns5=$(grep -c "^$EN => $EX: .* key [0-9]*$" "$b")
	check_range "$n: --than: the 5 slow pairs (the workload timed $over over 15ms)" "$ns5" 5 "${over:-5}"
	check_eq "$n: --than: their start events" "$(grep -c " lat_sleep *[0-9]* \[[0-9]*\] $EN: which_clock: 0x00000001, flags: 0x00000000, rqtp: 0x[0-9a-f]*, rmtp: 0x00000000$" "$b")" "$ns5"
	check_eq "$n: --than: their end events" "$(grep -c " lat_sleep *[0-9]* \[[0-9]*\] $EX: 0x0$" "$b")" "$ns5"
	check_eq "$n: --than: slow latencies are 30ms" \
		"$(grep "^$EN => $EX: " "$b" | awk '{ v = $4; sub(/ms$/, "", v); if (v >= 30 && v < 45) n++ } END { print n }')" 5
	check_eq "$n: --than: the key is the workload's thread" \
		"$(grep "^$EN => $EX: " "$b" | awk '{ print $NF }' | sort -u)" "$(grep -o 'pid=[0-9]*' "$b.wl" | cut -d= -f2)"
	check_eq "$n: --than column title" "$(awk '/^START => END / { print $NF }' "$b")" ">15ms"
	check_eq "$n: --than column counts them of 200" "$(awk -v k=$EN '$1 == k && $3 !~ /:$/ { print $(NF-1), $NF; exit }' "$b")" \
		"$ns5 ($(awk -v n="$ns5" 'BEGIN { printf "%.1f%%", n * 100 / 200 }'))"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --than ran on BPF, said under -v" grep -q "the BPF back end: pairs timed" "$b.err"
	fi
	# --than --json: a "slow" line per slow pair, both events with their fields
	"$PP" multi-trace $be -e $EN -e $EX --than 15ms --json -- "$W/lat_sleep" 20 2 0 2 30 >"$o" 2>/dev/null
	check_eq "$n: --than --json: 2 slow lines, both events named, fields decoded" \
		"$(grep '"type":"slow"' "$o" | jq -r '[.from, .to, .start.event, .end.event, .start.fields.which_clock, .end.fields.ret, (.duration_ns > 15000000)] | join(" ")' | sort -u)" \
		"$EN $EX $EN $EX 0x1 0x0 true"
	check_range "$n: --than --json: the 2 slow pairs (a busy host may stretch a 2 ms one)" \
		"$(grep -c '"type":"slow"' "$o")" 2 20
	check_eq "$n: --than --json: the row's slow count is the slow lines'" \
		"$(grep '"type":"row"' "$o" | jq -r .slow)" "$(grep -c '"type":"slow"' "$o")"

	# -g: both events' stacks as perf's callchains of the syscalls:* tracepoints
	# (the task's user registers: user frames only), libc's clock_nanosleep first
	"$PP" multi-trace $be -v -e $EN -e $EX --than 15ms -g -- "$W/lat_sleep" 5 2 0 2 30 >"$T/gs$be" 2>"$T/gs$be.err"
	check_eq "$n: -g: each event followed by its user stack, clock_nanosleep first" \
		"$(awk -v en="$EN:" -v ex="$EX:" '$6 == en || $6 == ex { getline f; split(f, a, " "); sub(/\+0x[0-9a-f]*$/, "", a[2]); print $6, a[2], a[3] }' "$T/gs$be" | sort | uniq -c | awk '{ $1 = ($1 >= 2 && $1 <= 5) } 1')" \
		"1 $EN: clock_nanosleep (/usr/lib/x86_64-linux-gnu/libc.so.6)
1 $EX: clock_nanosleep (/usr/lib/x86_64-linux-gnu/libc.so.6)"
	check_eq "$n: -g: no kernel frames (perf's samples of syscalls:* have the user registers)" \
		"$(grep -c '(\[kernel.kallsyms\])$' "$T/gs$be")" 0
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --than -g ran on BPF" grep -q "the BPF back end: pairs timed" "$T/gs$be.err"
	fi

	# mpdelay: the original's one-list syntax, --than in us
	attach "$T/d$be" "mpdelay $be -e $EN,$EX -p PID --than 15000" lat_sleep 100 2 0 3 30
	check_eq "$n: mpdelay exit status" "$(cat "$T/d$be.rc")" 0
	check_eq "$n: mpdelay calls" "$(row "$T/d$be" $EN 4)" 100
	# (the 3 sleeps of 30 ms, and any 2 ms one a busy host slowed past 15 ms:
	# as many printed as the kernel's >15ms column counts)
	slow=$(grep -c "^$EN => $EX: " "$T/d$be")
	check_eq "$n: mpdelay --than 15000 (us): the slow pairs printed are the >15ms column's" \
		"$slow" "$(row "$T/d$be" $EN 12)"
	check_eq "$n: mpdelay --than: the 3 sleeps of 30 ms among them" \
		"$(awk -v p="^$EN => $EX: " '$0 ~ p { v = $4; m = v ~ /us$/ ? 0.001 : v ~ /ms$/ ? 1 : 1000
			sub(/[a-z]+$/, "", v); if (v * m >= 30) n++ } END { print n + 0 }' "$T/d$be")" 3
	check_eq "$n: mpdelay --than: their events, two a pair" "$(grep -c " lat_sleep *[0-9]* \[[0-9]*\] syscalls:sys_e[a-z]*_clock_nanosleep: " "$T/d$be")" $((2 * slow))
}
suite ""
suite --no-bpf

# --bpf: BPF or a usage error naming what does not compile (one line, status 2)
if [ $bpf = 1 ]; then
	refuse() { # name expected-line args...
		local name=$1 want=$2
		shift 2
		"$PP" "$@" -- true >"$T/x.out" 2>"$T/x.err"
		check_eq "--bpf $name: status 2, nothing on stdout" "$?:$(cat "$T/x.out")" "2:"
		check_eq "--bpf $name: one line naming it" "$(cat "$T/x.err")" "$want"
	}
	R="(run without --bpf for the ring path)"
	refuse --detail "perf-prof multi-trace: --bpf: --detail: the events around each slow pair are read from the ring buffer $R" \
		multi-trace --bpf -e $EN -e $EX --than 10ms --detail
	refuse -g "perf-prof multi-trace: --bpf: -g without --than: stacks are read from the ring buffer $R" \
		multi-trace --bpf -e $EN -e $EX -g
	refuse "a profiler in -e" "perf-prof multi-trace: --bpf: 'profile/-F 99/untraced/': a profiler in -e reads the ring buffer $R" \
		multi-trace --bpf -e $EN -e $EX -e 'profile/-F 99/untraced/'
	refuse "role= with an assignment" "perf-prof multi-trace: --bpf: role= of $EN: assignments $R" \
		multi-trace --bpf -e "$EN//key=common_pid/role=(x=1)/" -e "$EX//key=common_pid/"
	refuse "a string filter" "perf-prof multi-trace: --bpf: the filter of sched:sched_process_exec: __data_loc strings $R" \
		multi-trace --bpf -e 'sched:sched_process_exec/filename=="/bin/true"/key=common_pid/' \
		-e 'sched:sched_process_exit//key=common_pid/'
	refuse "mpdelay -g" "perf-prof mpdelay: --bpf: -g without --than: stacks are read from the ring buffer $R" \
		mpdelay --bpf -e $EN,$EX -g
	# the slow pairs' ring buffer full (-m 1: one page, 6 pairs with both records;
	# perf-prof stopped while the 30 pairs are made): --json's rows count every
	# pair, the lost record's dropped_in_kernel the pairs not printed
	attach_stopped "$T/rb" "multi-trace --bpf -e $EN -e $EX -p PID --than 1ns -m 1 --json" lat_sleep 30 2
	check_eq "ring buffer full: status 0" "$(cat "$T/rb.rc")" 0
	check_eq "ring buffer full: the row counts the 30 pairs, all slow" \
		"$(grep '"type":"row"' "$T/rb" | jq -r '[.count, .slow] | join(" ")')" "30 30"
	printed=$(grep -c '"type":"slow"' "$T/rb")
	check_range "ring buffer full: some printed (a page holds 6)" "$printed" 1 6
	check_eq "ring buffer full: printed and dropped_in_kernel add up to 30" \
		"$((printed + $(grep '"type":"lost"' "$T/rb" | jq -r .dropped_in_kernel)))" 30
	# without --bpf the same requests run on the ring path, said under -v
	"$PP" multi-trace -v -e 'sched:sched_process_exec/filename=="/bin/true"/key=common_pid/' \
		-e 'sched:sched_process_exit//key=common_pid/' -- /bin/true >"$T/y" 2>"$T/y.err"
	check_eq "a string filter without --bpf: status 0, one pair" "$?:$(row "$T/y" sched:sched_process_exec 4)" "0:1"
	check "a string filter without --bpf: the ring path, said under -v" \
		grep -q '^perf-prof multi-trace: the ring path: the filter of sched:sched_process_exec: ' "$T/y.err"

	# a request that goes the ring path after its first event compiled (key= of _time):
	# no program of ours stays attached, the workload's fork/exit/exec followers neither
	rm -f "$T/fb.err"
	"$PP" multi-trace -v -e 'sched:sched_wakeup//key=pid/' -e 'sched:sched_switch//key=_time & 0xff/' \
		-- sleep 3 >/dev/null 2>"$T/fb.err" &
	k=$!
	wait_monitoring "$T/fb.err" $k
	check "fallback after a compiled event: the ring path, said" grep -q 'the ring path: key= of sched:sched_switch' "$T/fb.err"
	check_eq "fallback after a compiled event: no BPF link of ours stays" \
		"$(ls -l /proc/$k/fd 2>/dev/null | grep -c 'anon_inode:bpf_link')" 0
	kill -INT $k
	wait $k 2>/dev/null

	# SIGKILL: the programs are fds of ours, nothing stays loaded
	bpf_start "$T/k" multi-trace -e $EN -e $EX -i 100000 && bpf_kill_leaves_nothing
fi

# --detail: the events between both ends of each slow pair, as a timeline
attach "$T/dt" "multi-trace -e $EN -e $EX -e sched:sched_switch//untraced/ -p PID --than 15ms --detail=samecpu" \
	lat_sleep -o 15 100 2 0 4 30
check_eq "--detail exit status" "$(cat "$T/dt.rc")" 0
# the 4 slow sleeps, and a 2 ms one a busy host stretched past 15 ms (the
# workload's own count of sleeps of 15 ms or more, timed around the call, is
# the most there can be)
over=$(sed -n 's/^over=//p' "$T/dt.wl")
nt=$(grep -c "^$EN => $EX: " "$T/dt")
check_range "--detail: a timeline per sleep over 15ms (the workload timed $over)" "$nt" 4 "${over:-4}"
check_eq "--detail: each starts with its start event" "$(grep -c "^S +  *0ns .* $EN: " "$T/dt")" "$nt"
check_eq "--detail: each ends with its end event" "$(grep -c "^E +  *[34][0-9]\.[0-9]*ms .* $EX: " "$T/dt")" 4
check "--detail: the untraced switch-out in between" grep -q "^  +  *[0-9.]*[mun]*s .* sched:sched_switch: prev_comm=lat_sleep .*prev_state=S" "$T/dt"
check_eq "--detail: untraced events are no points" "$(row "$T/dt" $EN 4)" 100
check_eq "--detail: no sched_switch row" "$(grep -c '^sched:sched_switch =>' "$T/dt")" 0

# --detail=-1ms: the window reaches back before the start (the previous sleep's exit)
attach "$T/dn" "syscalls -p PID --syscall clock_nanosleep --than 15ms --detail=-1ms" lat_sleep 50 2 0 3 30
check_eq "--detail=-1ms exit status" "$(cat "$T/dn.rc")" 0
check_eq "--detail=-1ms: 3 timelines" "$(grep -c '^clock_nanosleep: ' "$T/dn")" 3
check_range "--detail=-1ms: events before each start (all but the first sleep's)" \
	"$(grep -c '^  -  *[0-9.]*[mun]*s .* raw_syscalls:sys_exit: NR [0-9]* = 0' "$T/dn")" 2 3

# --detail keyed by CPU: the window is in time order across CPUs (asked by itself)
"$PP" multi-trace -e 'syscalls:sys_enter_clock_nanosleep//key=common_pid/' \
	-e 'syscalls:sys_exit_clock_nanosleep//key=common_pid/' --than 15ms --detail \
	-- "$W/lat_sleep" 20 2 0 2 30 >"$T/dc" 2>&1
check_eq "--detail with key=: 2 timelines, each with its S and E" \
	"$(grep -c "^S +  *0ns .* $EN: " "$T/dc") $(grep -c "^E +  *[34][0-9]\.[0-9]*ms .* $EX: " "$T/dc")" "2 2"

# --heatmap: one .lat line per pair, an SVG that parses; on both back ends (on BPF
# every pair's start and latency are copied out of the kernel)
for be in "" --no-bpf; do
	n=${be:-default}
	attach "$T/hm$be" "multi-trace $be -e $EN -e $EX -p PID --heatmap $T/hm$be" lat_sleep 100 2
	LAT="$T/hm$be-sys_enter_clock_nanosleep-sys_exit_clock_nanosleep"
	check_eq "$n: --heatmap exit status" "$(cat "$T/hm$be.rc")" 0
	check_eq "$n: --heatmap: a .lat line per pair" "$(wc -l <"$LAT.lat")" 100
	check_eq "$n: --heatmap: lines are 'time latency'" "$(awk 'NF == 2 && $2 >= 2000000 && $2 < 100000000' "$LAT.lat" | wc -l)" 100
	check "$n: --heatmap: the SVG is well-formed XML" xmllint --noout "$LAT.svg"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --heatmap ran on BPF, said under -v" grep -q "the BPF back end: pairs timed" "$T/hm$be.err"
	fi
done

# bad input: one point, an unknown key field, a key= missing, a forbidden option
"$PP" multi-trace -e $EN -- true >/dev/null 2>"$T/u1"
check_eq "one point: status 2" $? 2
check "one point: says so" grep -q 'give at least two points' "$T/u1"
"$PP" multi-trace -e "$EN//key=nosuch/" -e "$EX//key=ret/" -- true >/dev/null 2>"$T/u2"
check_eq "unknown key field: status 2" $? 2
check "unknown key field: names it" grep -q 'nosuch' "$T/u2"
"$PP" multi-trace -e "$EN//key=common_pid/" -e "$EX" -- true >/dev/null 2>"$T/u3"
check_eq "key= missing on one event: status 2" $? 2
check "key= missing: names the event" grep -q "'$EX' has no key=" "$T/u3"
"$PP" mpdelay -e $EN -- true >/dev/null 2>"$T/u4"
check_eq "mpdelay one point: status 2" $? 2
"$PP" mpdelay -e $EN,$EX -k common_pid -- true >/dev/null 2>"$T/u5"
check_eq "mpdelay -k: status 2" $? 2
"$PP" multi-trace -e $EN -e $EX --than 5xs -- true >/dev/null 2>"$T/u6"
check_eq "bad --than: status 2" $? 2
"$PP" multi-trace -e $EN -e $EX --detail -- true >/dev/null 2>"$T/u7"
check_eq "--detail without --than: status 2" $? 2
check "--detail without --than: says so" grep -q -- '--detail needs --than' "$T/u7"
"$PP" multi-trace -e $EN -e $EX --than 1ms --detail=sametime -- true >/dev/null 2>"$T/u8"
check_eq "bad --detail option: status 2" $? 2
check "bad --detail option: names it" grep -q "'sametime'" "$T/u8"
"$PP" multi-trace -e $EN -e $EX --heatmap /nonexistent-dir/x -- true >/dev/null 2>"$T/u9"
check_eq "--heatmap in a missing directory: status 1" $? 1
check "--heatmap error: names the file" grep -q "/nonexistent-dir/x-sys_enter" "$T/u9"
"$PP" multi-trace -e "$EN/nosuchfield==1/" -e $EX --heatmap "$T/failed" -- true >/dev/null 2>&1
check_eq "a run that fails first leaves no .lat" "$(ls "$T" | grep -c '^failed')" 0
check_eq "nothing left behind" "$(ls /sys/kernel/tracing/instances 2>/dev/null | grep -c perf-prof)" 0

done_tests
