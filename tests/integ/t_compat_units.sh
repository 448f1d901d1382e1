#!/usr/bin/env bash
# The original's command lines, units and defaults (issue 21):
#  - a bare number keeps the unit each profiler documents (task-state: ms,
#    kvm-exit and mpdelay: us), and one that would mean more than 60 s is
#    refused (status 2) with a hint to write the unit: the original's later
#    versions read a bare --than/--period as ns, so "--than 1000000" (1 ms
#    there) would be 1000 s here;
#  - every threshold is in its table's header with its unit (">100ms");
#  - multi-trace -e EV --cycle pairs each event with the next of its key;
#  - hrcount/hrtimer run without --period (one period per interval) and
#    take cpus= on their events.
. "$(dirname "$0")/lib.sh"

for w in ts_sleep lat_sleep getppid_loop; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
sfx=$(($$ % 100000))
GP=gp_u_$sfx
ln -s "$W/getppid_loop" "$T/$GP"

# refused LABEL EXPECTED-LINE PROFILER ARGS...: status 2, that one line on stderr, no stdout
refused() {
	local label=$1 want=$2
	shift 2
	"$PP" "$@" >"$T/r.out" 2>"$T/r.err"
	check_eq "$label: status 2" $? 2
	check_eq "$label: the hint" "$(cat "$T/r.err")" "$want"
	check_eq "$label: nothing on stdout" "$(cat "$T/r.out")" ""
}

# --- the 60 s rule, as the original's later versions' scripts write it ---
refused "task-state --than 1000000" \
	"perf-prof task-state: --than 1000000: 1000 s in task-state's unit (ms): write the unit, e.g. 1ms or 1000s" \
	task-state -S --than 1000000
refused "kvm-exit --than 100000000" \
	"perf-prof kvm-exit: --than 100000000: 100 s in kvm-exit's unit (us): write the unit, e.g. 100ms or 100s" \
	kvm-exit --than 100000000
refused "mpdelay --than 70000000" \
	"perf-prof mpdelay: --than 70000000: 70 s in mpdelay's unit (us): write the unit, e.g. 70ms or 70s" \
	mpdelay -e 'syscalls:sys_enter_nanosleep,syscalls:sys_exit_nanosleep' --than 70000000
refused "multi-trace --than 5000000" \
	"perf-prof multi-trace: --than 5000000: 5000 s in multi-trace's unit (ms): write the unit, e.g. 5ms or 5000s" \
	multi-trace -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid --than 5000000
refused "hrcount --period 1000000" \
	"perf-prof hrcount: --period 1000000: 1000 s in hrcount's unit (ms): write the unit, e.g. 1ms or 1000s" \
	hrcount -e cs --period 1000000
refused "irq-off --period 61000000" \
	"perf-prof irq-off: --period 61000000: 61 s in irq-off's unit (us): write the unit, e.g. 61ms or 61s" \
	irq-off --period 61000000
# 60 s is still a bare number's; with a unit any length goes (task-state -h: parsed, then help)
"$PP" task-state --than 60000 -h >/dev/null 2>"$T/h.err"
check_eq "task-state --than 60000 (60 s): taken" "$?:$(cat "$T/h.err")" "0:"
"$PP" task-state --than 2m -h >/dev/null 2>"$T/h.err"
check_eq "task-state --than 2m: taken" "$?:$(cat "$T/h.err")" "0:"
"$PP" task-state --than 1000000ns -h >/dev/null 2>"$T/h.err"
check_eq "task-state --than 1000000ns (the original's meaning, spelt out): taken" \
	"$?:$(cat "$T/h.err")" "0:"

# --- task-state --than 100: 100 ms (the seed's "-S --than 100"), shown as >100ms ---
# run_ts OUT THAN N MS: task-state -S --than THAN over ts_sleep N x MS ms
run_ts() {
	"$PP" task-state -S --than "$2" -- "$W/ts_sleep" "$3" "$4" >"$1" 2>"$1.err"
	echo $? >"$1.rc"
}
# the S row's ">..." column: "N (x.x%)" -> N
over() { awk '$1 == "S" { print $(NF - 1) }' "$1"; }
printed() { grep -cE ' ts_sleep +[0-9]+ \[[0-9]+\] S +[0-9.]+ms$' "$1"; }
for than in 100 100ms; do
	run_ts "$T/ts$than" "$than" 3 150
	check_eq "task-state -S --than $than -- ts_sleep 3 150: exit 0" "$(cat "$T/ts$than.rc")" 0
	check_eq "--than $than: nothing on stderr" "$(cat "$T/ts$than.err")" ""
	check_eq "--than $than: the header shows >100ms" \
		"$(awk '$1 == "STATE" { print $NF }' "$T/ts$than")" ">100ms"
	check_eq "--than $than: the 3 sleeps of 150 ms printed" "$(printed "$T/ts$than")" 3
	check_eq "--than $than: the S row counts 3 over 100ms" "$(over "$T/ts$than")" 3
	check_eq "--than $than: S calls 3" "$(awk '$1 == "S" { print $2 }' "$T/ts$than")" 3
done
run_ts "$T/short" 100 4 30
check_eq "task-state -S --than 100 -- ts_sleep 4 30: exit 0, quiet" \
	"$(cat "$T/short.rc"):$(cat "$T/short.err")" "0:"
check_eq "--than 100 over 30 ms sleeps: none printed (not 100 ns)" "$(printed "$T/short")" 0
check_eq "--than 100 over 30 ms sleeps: the column counts 0" "$(over "$T/short")" 0
check_eq "--than 100 over 30 ms sleeps: S calls 4" "$(awk '$1 == "S" { print $2 }' "$T/short")" 4

# --- multi-trace -e EV --cycle: each event paired with the next of its key ---
"$PP" multi-trace -e 'syscalls:sys_enter_getppid' --cycle -k common_pid -- "$W/getppid_loop" 1000 \
	>"$T/cy" 2>"$T/cy.err"
check_eq "multi-trace -e sys_enter_getppid --cycle -k common_pid -- getppid_loop 1000: exit 0" $? 0
check_eq "--cycle: nothing on stderr" "$(cat "$T/cy.err")" ""
check_eq "--cycle: 999 pairs of 1000 calls" \
	"$(awk '$1 == "syscalls:sys_enter_getppid" && $2 == "=>" { print $4 }' "$T/cy")" 999
"$PP" multi-trace -e 'syscalls:sys_enter_clock_nanosleep' --cycle -k common_pid \
	-- "$W/lat_sleep" 10 20 >"$T/cs" 2>"$T/cs.err"
check_eq "multi-trace -e sys_enter_clock_nanosleep --cycle -- lat_sleep 10 20: exit 0, quiet" \
	"$?:$(cat "$T/cs.err")" "0:"
row=$(awk '$1 == "syscalls:sys_enter_clock_nanosleep" && $2 == "=>"' "$T/cs")
check_eq "--cycle: 9 periods between 10 sleeps" "$(awk '{ print $4 }' <<<"$row")" 9
# from one sleep's start to the next: at least the 20 ms slept (a lower bound, not a timing)
check_range "--cycle: the shortest period is at least 20 ms" "$(ns "$(awk '{ print $6 }' <<<"$row")")" \
	20000000 1e12
"$PP" multi-trace -e 'syscalls:sys_enter_clock_nanosleep' -- "$W/lat_sleep" 1 1 >/dev/null 2>"$T/one.err"
check_eq "multi-trace with one point and no --cycle: status 2" $? 2
check "one point, no --cycle: --cycle named" grep -q -- "--cycle" "$T/one.err"

# --- hrcount without --period: one period per interval (-i, default 1 s) ---
# total OUT EVENT: what the run counted: the last table's TOTAL plus the tail line's
total() {
	awk -v e="$2" '
		/hrcount: total / { last = 1 }
		last && $1 == e && $3 ~ /^[0-9]+$/ { n += $3 }
		/^after the last period/ { s = $0; sub(/.*: /, "", s); k = split(s, a, "; ")
			for (i = 1; i <= k; i++) { split(a[i], f, " "); if (f[1] == e) { gsub(",", "", f[2]); n += f[2] } } }
		END { print n + 0 }' "$1"
}
EVF="syscalls:sys_enter_getppid/comm == \"$GP\"/"
"$PP" hrcount -e "$EVF" -C 0 -- taskset -c 0 "$T/$GP" 1000 >"$T/hc" 2>"$T/hc.err"
check_eq "hrcount -e EV -C 0 -- (no --period): exit 0" $? 0
check_eq "hrcount without --period: nothing on stderr" "$(cat "$T/hc.err")" ""
check "hrcount without --period: period 1 s (the interval) in the header" \
	grep -q 'hrcount: total .*, period 1.000s:' "$T/hc"
check_eq "hrcount without --period: the 1000 calls counted" "$(total "$T/hc" syscalls:sys_enter_getppid)" 1000
"$PP" hrcount -e "$EVF" -C 0 -i 200 -- taskset -c 0 "$T/$GP" 1000 >"$T/hci" 2>"$T/hci.err"
check_eq "hrcount -i 200 (no --period): exit 0, quiet" "$?:$(cat "$T/hci.err")" "0:"
check "hrcount -i 200: period 200 ms in the header" grep -q 'period 200.000ms:' "$T/hci"
"$PP" hrtimer -e "$EVF" -C 0 -- taskset -c 0 "$T/$GP" 1000 >"$T/ht" 2>"$T/ht.err"
check_eq "hrtimer -e EV -C 0 -- (no --period): exit 0, quiet" "$?:$(cat "$T/ht.err")" "0:"
check "hrtimer without --period: its summary" grep -qE '^hrtimer: [0-9]+ samples closed' "$T/ht"

# --- cpus= on hrcount's events: counted on those CPUs only ---
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	for c in 0 1; do
		"$PP" hrcount -e "syscalls:sys_enter_getppid/comm == \"$GP\"/cpus=$c/" -C 0,1 --period 100ms \
			-- taskset -c 0 "$T/$GP" 1000 >"$T/cpus$c" 2>"$T/cpus$c.err"
		check_eq "hrcount -e EV/cpus=$c/ -C 0,1 -- taskset -c 0 (calls on CPU 0): exit 0, quiet" \
			"$?:$(cat "$T/cpus$c.err")" "0:"
	done
	check_eq "cpus=0: the 1000 calls on CPU 0 counted" "$(total "$T/cpus0" syscalls:sys_enter_getppid)" 1000
	check_eq "cpus=1: none (the calls were on CPU 0)" "$(total "$T/cpus1" syscalls:sys_enter_getppid)" 0
	# the same member beside one on every CPU: each counts what its CPUs saw
	"$PP" hrcount -e "syscalls:sys_enter_getppid/comm == \"$GP\"/cpus=1/alias=on1/,syscalls:sys_enter_getppid/comm == \"$GP\"/alias=all/" \
		-C 0,1 -- taskset -c 0 "$T/$GP" 1000 >"$T/cpusm" 2>"$T/cpusm.err"
	check_eq "hrcount cpus=1 beside an every-CPU member: exit 0, quiet" "$?:$(cat "$T/cpusm.err")" "0:"
	check_eq "cpus=1 member: 0" "$(total "$T/cpusm" on1)" 0
	check_eq "every-CPU member: 1000" "$(total "$T/cpusm" all)" 1000
	"$PP" hrcount -e "syscalls:sys_enter_getppid/cpus=7-9999/" -C 0 >/dev/null 2>"$T/badc.err"
	check_eq "cpus= beyond the host: status 2" $? 2
else
	skip "cpus=: needs 2 CPUs and taskset"
fi

done_tests
