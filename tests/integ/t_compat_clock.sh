#!/usr/bin/env bash
# The original's timestamp options, on every profiler (issue 21):
#  - --monotonic: the events' clock is CLOCK_MONOTONIC here in any case; times
#    print as without it (wall clock, between clock reads before and after);
#  - --clock-offset N: N ns added to every printed time, text and JSON, sample
#    times and interval times alike (decimal, -N, 0xHEX modulo 2^64), while
#    durations (interval_ns) stay what they were;
#  - --tsc: TSC ticks, where the kernel gives the conversion (an event's ring
#    page says cap_user_time_zero, read here by the perf_caps workload);
#    elsewhere (this VM: sched_clock on kvm-clock) one line and status 2;
#  - --kvmclock UUID: a malformed UUID and no guest with it refused with one
#    line; a KVM guest found (the kvm_guest workload started with -uuid) runs
#    where the host converts perf time to TSC (its times print as 0: that
#    guest never enables its kvmclock), and is refused here (no TSC);
#  - commands (list, flamegraph) do not take them.
. "$(dirname "$0")/lib.sh"

for w in perf_caps kvm_guest getppid_loop; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
UUID=8ab13543-95fc-4a78-9056-d605a03e9033
TOL=1000000 # 1 ms: the wall clock read around the run vs the events' times

now_ns() { date +%s%N; }

# refused LABEL EXPECTED-LINE ARGS...: status 2, that one line on stderr, no stdout
refused() {
	local label=$1 want=$2
	shift 2
	"$PP" "$@" >"$T/r.out" 2>"$T/r.err"
	check_eq "$label: status 2" $? 2
	check_eq "$label: the line" "$(cat "$T/r.err")" "$want"
	check_eq "$label: nothing on stdout" "$(cat "$T/r.out")" ""
}

# ran LABEL OUT: status 0 (in OUT.rc), nothing on stderr, N lines on stdout
ran() {
	check_eq "$1: status 0, stderr empty" "$(cat "$2.rc"):$(cat "$2.err")" "0:"
	check_eq "$1: $3 lines" "$(wc -l <"$2")" "$3"
}

# within LABEL FILE OFFSET BEFORE AFTER: every "time_ns" of FILE minus OFFSET
# is a time between BEFORE and AFTER (ns since the epoch, +-TOL)
within() {
	local label=$1 f=$2 off=$3 lo=$(($4 - TOL)) hi=$(($5 + TOL)) bad=0 n=0 t
	for t in $(grep -o '"time_ns":[0-9]*' "$f" | cut -d: -f2); do
		n=$((n + 1))
		t=$((t - off))
		[ "$t" -ge "$lo" ] && [ "$t" -le "$hi" ] || { bad=$((bad + 1)); echo "# $t not in [$lo, $hi]"; }
	done
	check_eq "$label: $n times - offset within the run" "$n:$bad" "$n:0"
}

# within_text LABEL FILE OFFSET BEFORE AFTER: the same for the text's
# "YYYY-MM-DD HH:MM:SS.uuuuuu" at the start of each line (local time, us)
within_text() {
	local label=$1 f=$2 off=$3 lo=$(($4 - TOL)) hi=$(($5 + TOL)) bad=0 n=0 d s us t
	while read -r d s _; do
		n=$((n + 1))
		us=${s#*.}
		t=$(($(date -d "$d ${s%.*}" +%s) * 1000000000 + 10#$us * 1000 - off))
		[ "$t" -ge "$((lo - 1000))" ] && [ "$t" -le "$hi" ] || { bad=$((bad + 1)); echo "# $d $s: $t not in [$lo, $hi]"; }
	done <"$f"
	check_eq "$label: $n times - offset within the run" "$n:$bad" "$n:0"
}

# run OUT ARGS...: perf-prof ARGS with OUT, OUT.err, OUT.rc, OUT.t0 and OUT.t1 (clock around it)
run() {
	local out=$1
	shift
	now_ns >"$out.t0"
	"$PP" "$@" >"$out" 2>"$out.err"
	echo $? >"$out.rc"
	now_ns >"$out.t1"
}

# --- --monotonic: the same kind of times as without it ---
run "$T/mono" trace -e sched:sched_switch -N 5 --monotonic
ran "trace -e sched:sched_switch -N 5 --monotonic" "$T/mono" 5
within_text "--monotonic: wall-clock text" "$T/mono" 0 "$(cat "$T/mono.t0")" "$(cat "$T/mono.t1")"
run "$T/plain" trace -e sched:sched_switch -N 5
within_text "without --monotonic: the same kind" "$T/plain" 0 "$(cat "$T/plain.t0")" "$(cat "$T/plain.t1")"
run "$T/monoj" trace -e sched:sched_switch -N 5 --monotonic --json
ran "trace --monotonic --json" "$T/monoj" 5
within "--monotonic --json: time_ns wall-clock ns" "$T/monoj" 0 "$(cat "$T/monoj.t0")" "$(cat "$T/monoj.t1")"

# --- --clock-offset N: added to every printed time ---
H=3600000000000 # 1 h in ns
run "$T/off" trace -e sched:sched_switch -N 5 --clock-offset $H
ran "trace -e sched:sched_switch -N 5 --clock-offset $H" "$T/off" 5
within_text "--clock-offset 1h: text an hour on" "$T/off" $H "$(cat "$T/off.t0")" "$(cat "$T/off.t1")"
D=-86400000000000 # minus a day
run "$T/offj" trace -e sched:sched_switch -N 5 --clock-offset $D --json
ran "trace --clock-offset $D --json" "$T/offj" 5
within "--clock-offset -1 day: time_ns" "$T/offj" $D "$(cat "$T/offj.t0")" "$(cat "$T/offj.t1")"
# the original's spelling from its guide (guest local_clock to kvmclock): hex, 7.2 s
run "$T/offx" trace -e sched:sched_wakeup --clock-offset 0x1af3075cc -N 1
ran "trace -e sched:sched_wakeup --clock-offset 0x1af3075cc -N 1" "$T/offx" 1
within_text "--clock-offset 0x1af3075cc" "$T/offx" $((0x1af3075cc)) "$(cat "$T/offx.t0")" "$(cat "$T/offx.t1")"
# 2^64 - 1 s: modulo 2^64, one second back
run "$T/offw" trace -e syscalls:sys_enter_getppid --clock-offset 18446744072709551616 --json -- "$W/getppid_loop" 3
ran "--clock-offset 2^64-1e9 (wraps: -1 s) on a workload's 3 getppid" "$T/offw" 4
grep '"type":"event"' "$T/offw" >"$T/offw.ev"
check_eq "the 3 events" "$(wc -l <"$T/offw.ev")" 3
within "--clock-offset 2^64-1e9: time_ns one second back" "$T/offw.ev" -1000000000 "$(cat "$T/offw.t0")" "$(cat "$T/offw.t1")"
# interval times too, durations not: stat -i's rows
run "$T/st" stat -e task-clock -i 100 --json --clock-offset $H -- sleep 0.35
check_eq "stat -i --clock-offset: status 0, stderr empty" "$(cat "$T/st.rc"):$(cat "$T/st.err")" "0:"
check_range "stat -i: interval rows" "$(grep -c '"scope":"interval"' "$T/st")" 3 6
within "stat -i --clock-offset 1h: each row's time_ns" "$T/st" $H "$(cat "$T/st.t0")" "$(cat "$T/st.t1")"
span=$(grep '"scope":"interval"' "$T/st" | grep -o '"interval_ns":[0-9]*' | cut -d: -f2 | paste -sd+ | bc)
check_range "stat -i --clock-offset: the intervals' lengths add up to at most the run" \
	"$span" 1 "$(($(cat "$T/st.t1") - $(cat "$T/st.t0")))"

# --- --tsc: the host decides ---
caps=$("$W/perf_caps")
case $caps in
*cap_user_time_zero=0*)
	refused "trace -e sched:sched_wakeup --tsc -N 1 ($caps)" \
		"perf-prof trace: --tsc: this host gives no conversion of perf time to TSC (the kernel gives it only where sched_clock runs on a stable TSC: not on kvm-clock or an unstable TSC)" \
		trace -e sched:sched_wakeup --tsc -N 1
	refused "trace --tsc --clock-offset 0xffee6aba03eccaac (the original's guest TSC)" \
		"perf-prof trace: --tsc: this host gives no conversion of perf time to TSC (the kernel gives it only where sched_clock runs on a stable TSC: not on kvm-clock or an unstable TSC)" \
		trace -e sched:sched_wakeup --tsc --clock-offset 0xffee6aba03eccaac -N 1
	refused "task-state --tsc (every profiler)" \
		"perf-prof task-state: --tsc: this host gives no conversion of perf time to TSC (the kernel gives it only where sched_clock runs on a stable TSC: not on kvm-clock or an unstable TSC)" \
		task-state --tsc
	;;
*cap_user_time_zero=1*)
	run "$T/tsc" trace -e sched:sched_switch -N 5 --tsc --order
	ran "trace --tsc ($caps)" "$T/tsc" 5
	check_eq "--tsc: SECONDS.USEC of ticks" "$(grep -cE '^[0-9]+\.[0-9]{6} ' "$T/tsc")" 5
	check_eq "--tsc --order: in order" "$(cut -d' ' -f1 "$T/tsc" | sort -n | paste -sd,)" \
		"$(cut -d' ' -f1 "$T/tsc" | paste -sd,)"
	run "$T/tscj" trace -e syscalls:sys_enter_getppid --tsc --json -- "$W/getppid_loop" 3
	check_eq "--tsc --json: status 0, stderr empty" "$(cat "$T/tscj.rc"):$(cat "$T/tscj.err")" "0:"
	check_eq "--tsc --json: 3 events with time_ns" "$(grep -c '"type":"event","time_ns":[0-9]' "$T/tscj")" 3
	;;
*) skip "perf_caps: $caps" ;;
esac

# --- --kvmclock UUID ---
refused "trace --kvmclock (not a UUID)" \
	"perf-prof trace: bad --kvmclock '8ab13543' (a guest's UUID, 8-4-4-4-12 hex digits as \`virsh list --uuid\` prints them)" \
	trace -e sched:sched_wakeup -N 1 --kvmclock 8ab13543
refused "trace -e sched:sched_wakeup -N 1 --kvmclock $UUID (no such guest)" \
	"perf-prof trace: --kvmclock: no KVM guest with UUID $UUID (no process runs with -uuid $UUID; \`virsh list --uuid\` lists the guests)" \
	trace -e sched:sched_wakeup -N 1 --kvmclock $UUID
# a guest that runs: the kvm_guest workload with -uuid on its command line (after --)
G=4f1e2d3c-0000-4a78-9056-d605a03e9033
spawn gpid "$W/kvm_guest" -- 2000000000 -uuid "$G"
for _ in $(seq 100); do
	ls -l "/proc/$gpid/fd" 2>/dev/null | grep -q 'anon_inode:kvm-vm' && break
	sleep 0.05
done
if ls -l "/proc/$gpid/fd" 2>/dev/null | grep -q 'anon_inode:kvm-vm'; then
	"$PP" trace -e sched:sched_wakeup -N 1 --kvmclock "$G" >"$T/kg.out" 2>"$T/kg.err"
	rc=$?
	case $caps in
	*cap_user_time_zero=0*)
		check_eq "--kvmclock of a running guest: status 2" $rc 2
		check_eq "--kvmclock of a running guest: found, no TSC here" "$(cat "$T/kg.err")" \
			"perf-prof trace: --kvmclock: this host gives no conversion of perf time to TSC (the kernel gives it only where sched_clock runs on a stable TSC: not on kvm-clock or an unstable TSC)"
		check_eq "--kvmclock of a running guest: nothing on stdout" "$(cat "$T/kg.out")" "" ;;
	*)
		# it runs; this guest never enables its kvmclock (no pvclock
		# update ever comes), so its times are unknown: 0, said once
		check_eq "--kvmclock of a running guest: status 0" $rc 0
		check_eq "--kvmclock of a running guest: one line at time 0" \
			"$(wc -l <"$T/kg.out"):$(cut -d' ' -f1 "$T/kg.out")" "1:0.000000"
		check_eq "--kvmclock of a running guest: the warning" "$(cat "$T/kg.err")" \
			"perf-prof trace: --kvmclock: times before the guest's first pvclock update (kvm:kvm_pvclock_update) are printed as 0: none came during the run (KVM updates it at the guest's start, on a vCPU's clock change, and every 5 minutes with kvmclock_periodic_sync)" ;;
	esac
else
	skip "kvm_guest did not start a VM (no /dev/kvm?)"
fi
reap "$gpid" KILL

# --- impossible combinations, bad values ---
refused "--tsc --kvmclock" \
	"perf-prof trace: --tsc and --kvmclock exclude each other (--kvmclock converts through the TSC itself)" \
	trace -e sched:sched_wakeup --tsc --kvmclock $UUID
refused "--monotonic --tsc" \
	"perf-prof trace: --monotonic and --tsc exclude each other (the TSC converts from perf's own clock, not CLOCK_MONOTONIC)" \
	trace -e sched:sched_wakeup --monotonic --tsc
for v in 12abc 0x 18446744073709551616 1.5 10ms; do
	refused "--clock-offset $v" \
		"perf-prof trace: bad --clock-offset '$v' (an integer added to every time, in the printed clock's unit: ns, TSC ticks with --tsc; e.g. 1000000, -500 or 0xffee6aba03eccaac)" \
		trace -e sched:sched_wakeup --clock-offset "$v"
done
# commands print no event times: no clock options
"$PP" list --tsc >"$T/l.out" 2>"$T/l.err"
check_eq "list --tsc: a usage error" "$?:$(cat "$T/l.err")" \
	"2:perf-prof list: unknown or incomplete option '--tsc' (see: perf-prof list -h)"
# -h of every profiler lists them
for p in trace task-state stat split-lock; do
	check_eq "$p -h lists the four" "$("$PP" $p -h | grep -cE '^ +--(tsc|clock-offset N|monotonic|kvmclock UUID) ')" 4
done

done_tests
