#!/usr/bin/env bash
# The original perf-prof's command lines run unchanged (issue 21).  Each
# line is checked on what it printed against our spelling of the same
# request, an empty stderr and status 0.  Sections:
#  - options every profiler takes: --cpus/--pids/--tids/--exit-N beside
#    --cpu/--pid/--tid/--count, -V everywhere, --call-graph without a mode,
#    the --exclude-* group, "help" as the last word;
#  - stderr is for problems: notices only with -v, the cost lines on stdout;
#  - units and defaults: the 60 s rule, thresholds in table headers,
#    multi-trace --cycle, hrcount/hrtimer without --period.
# The areas with their own suites: t_compat_expr (the expression language),
# t_compat_clock (--tsc, --clock-offset, --monotonic, --kvmclock),
# t_compat_target (--inherit, --cgroups, --ptrace), t_compat_rate
# (--sampling-limit, --perfeval-*), t_compat_prof (--exclude-* on every
# profiler, syscalls/rundelay -e), t_compat_ring (--overwrite, --prio),
# t_compat_comm (kernel-thread names, printkey's key).
. "$(dirname "$0")/lib.sh"
for w in getppid_loop spin ts_sleep lat_sleep; do
	[ -x "$W/$w" ] || { echo "no workload $W/$w (make workloads)"; exit 1; }
done
# each section writes into a directory of its own under the suite's
T0=$T
trap 'T=$T0; _cleanup' EXIT
section() { T=$T0/$1; mkdir -p "$T"; }
section options

# run NAME ARGS...: perf-prof ARGS into $T/NAME, $T/NAME.err, $T/NAME.rc
run() {
	local n=$1
	shift
	timeout 60 "$PP" "$@" >"$T/$n" 2>"$T/$n.err"
	echo $? >"$T/$n.rc"
}
# clean NAME: status 0 and nothing on stderr but the kernel's throttling of
# a sampling event, which is always said (kernel.perf_event_max_sample_rate
# counts samples per tick; on a tickless vCPU even 1 kHz cpu-clock samples
# were throttled now and then: seen in CI as "throttled sampling 1 times")
clean() {
	[ "$(cat "$T/$1.rc")" = 0 ] &&
		! grep -v '^perf-prof: the kernel throttled sampling [0-9]* times' "$T/$1.err" | grep -q .
}
# events NAME: the event lines of a trace output
events() { grep -c ' \[[0-9]*\] ' "$T/$1"; }

# -- long names: --cpus, --exit-N
run cpus trace -e sched:sched_switch --cpus 0 -N 5
run cpu trace -e sched:sched_switch --cpu 0 -N 5
check "trace --cpus 0 -N 5: status 0, stderr empty" clean cpus
check_eq "... 5 events, as with --cpu 0" "$(events cpus)" "$(events cpu)"
check_eq "... all on CPU 0" "$(grep -c ' \[000\] ' "$T/cpus")" 5
run exitn trace -e sched:sched_switch -C 0 --exit-N 3
check "trace --exit-N 3: status 0, stderr empty" clean exitn
check_eq "... exactly 3 events" "$(events exitn)" 3
run exitn_eq trace -e sched:sched_switch --cpus=0 --exit-N=3
check "trace --cpus=0 --exit-N=3 (=VALUE form)" clean exitn_eq
check_eq "... exactly 3 events on CPU 0" "$(grep -c ' \[000\] ' "$T/exitn_eq")" 3

# --pids, --tids on a running process
spawn loop "$W/getppid_loop" 1000000000
sleep 0.2
run pids trace -e syscalls:sys_enter_getppid --pids "$loop" --exit-N 3
check "trace --pids PID --exit-N 3: status 0, stderr empty" clean pids
check_eq "... 3 events, all of PID" "$(grep -c " $loop \[" "$T/pids")" 3
run pid trace -e syscalls:sys_enter_getppid -p "$loop" -N 3
check_eq "... as -p PID -N 3" "$(grep -c " $loop \[" "$T/pid")" 3
run tids trace -e syscalls:sys_enter_getppid --tids "$loop" --exit-N 3
check "trace --tids TID --exit-N 3: status 0, stderr empty" clean tids
check_eq "... 3 events, all of TID" "$(grep -c " $loop \[" "$T/tids")" 3
reap "$loop"

# -V / --version on every profiler and command
run v_top -V
check "perf-prof -V" clean v_top
check_eq "... prints the version" "$(cat "$T/v_top")" "$("$PP" --version)"
bad=()
for n in trace task-state profile list check flamegraph; do
	for o in -V --version; do
		run v "$n" "$o"
		clean v && [ "$(cat "$T/v")" = "$("$PP" --version)" ] || bad+=("$n $o")
	done
done
check_eq "-V and --version on profilers and commands: the version, status 0" "${bad[*]}" ""

# --call-graph without a mode: frame pointers
run cg trace -e syscalls:sys_enter_getppid --call-graph -- "$W/getppid_loop" 2
check "trace --call-graph -- getppid_loop 2: status 0, stderr empty" clean cg
check "... user stacks (frame pointers) through libc" grep -q '^    .*syscall+0x.*libc' "$T/cg"
run g trace -e syscalls:sys_enter_getppid -g -- "$W/getppid_loop" 2
check_eq "... the same stack lines as -g" "$(grep -c '^    ' "$T/cg")" "$(grep -c '^    ' "$T/g")"
run cgn trace -e sched:sched_switch -C 0 --call-graph -N 1
check "trace --call-graph -N 1 (was: bad --call-graph '-N')" clean cgn
check "... one event with its kernel stack" grep -q '__schedule' "$T/cgn"
check_eq "... one event" "$(events cgn)" 1
run ts task-state --call-graph -- "$W/getppid_loop" 1 50
check "task-state --call-graph -- CMD: status 0, stderr empty" clean ts
run cgfp trace -e syscalls:sys_enter_getppid --call-graph fp -- "$W/getppid_loop" 1
check "trace --call-graph fp (mode as the next word)" clean cgfp
check "... a frame-pointer stack" grep -q '^    .*syscall+0x.*libc' "$T/cgfp"
run cgd trace -e syscalls:sys_enter_getppid --call-graph dwarf -- "$W/getppid_loop" 1
check "trace --call-graph dwarf" clean cgd
check "... a DWARF-unwound stack with main" grep -q '^    .* main+0x.*getppid_loop' "$T/cgd"
run cgde trace -e syscalls:sys_enter_getppid --call-graph=dwarf,4096 -- "$W/getppid_loop" 1
check "trace --call-graph=dwarf,4096" clean cgde
check "... a stack with main" grep -q '^    .* main+0x.*getppid_loop' "$T/cgde"
run cgbad trace -e syscalls:sys_enter_getppid --call-graph dwarf,7 -N 1
check_eq "--call-graph dwarf,7: status 2" "$(cat "$T/cgbad.rc")" 2
check_eq "... one line naming the size" "$(cat "$T/cgbad.err")" \
	"perf-prof trace: bad dwarf stack size '7' (a multiple of 8, 8..65528)"

# --exclude-* on profile, a spinning workload
run xk profile -F 999 --exclude-kernel -g -- "$W/spin" 1
check "profile --exclude-kernel -g -- spin 1: status 0" clean xk
check "... samples in spin_a" grep -q 'spin_a+0x' "$T/xk"
check_eq "... no kernel frame" "$(grep -c 'kernel.kallsyms\|\[k\]' "$T/xk")" 0
run xu profile -F 999 --exclude-user -g -- "$W/spin" 1
check "profile --exclude-user -g -- spin 1: status 0" clean xu
check_eq "... no user-space frame" "$(grep -c '(/work\|(/usr\|spin_a' "$T/xu")" 0
run xg profile -F 999 --exclude-guest -- "$W/spin" 1
check "profile --exclude-guest -- spin 1: status 0" clean xg
check "... spin_for among the functions" grep -q 'spin_for' "$T/xg"
run xgh profile --exclude-guest -G -N 1
check_eq "profile --exclude-guest -G: status 2" "$(cat "$T/xgh.rc")" 2
check_eq "... one line" "$(cat "$T/xgh.err")" \
	"perf-prof profile: -G/--exclude-host and --exclude-guest leave nothing"
run pfu page-faults --exclude-user -- "$W/getppid_loop" 1
check "page-faults --exclude-user (shared group)" clean pfu
check "... faults taken in the kernel only (ip in the kernel)" eval "grep -q 'page-faults: addr' '$T/pfu' && ! grep 'page-faults: addr' '$T/pfu' | grep -qv 'ip 0xffff'"
run pfg page-faults --exclude-guest -- "$W/getppid_loop" 1
check "page-faults --exclude-guest (a software event: the host's faults)" clean pfg
run pfh page-faults -G -N 3
check_eq "page-faults -G: status 2 (a host event: always empty)" "$(cat "$T/pfh.rc")" 2
run cuk cpu-util --exclude-kernel -C 0 -- sleep 1.2
check "cpu-util --exclude-kernel -C 0" clean cuk
check "... no SYS% column (kernel time excluded)" eval "grep -q '^CPU   USER% GUEST%  BUSY%' '$T/cuk' && ! grep -q 'SYS%' '$T/cuk'"

# help as the last word
run h trace -e 'sched:sched_wakeup/pid>0/' --cpus 0 --exit-N 2 help
check "trace -e EV/FILTER/ --cpus 0 --exit-N 2 help: status 0, stderr empty" clean h
check "... the assembled command" grep -qxF "Command: perf-prof trace -e sched:sched_wakeup/pid>0/ --cpus 0 --exit-N 2" "$T/h"
check "... -C explained with its value" grep -q -- '-C, --cpu, --cpus' "$T/h"
check "... -N explained with its value" grep -q -- '-N, --count, --exit-N' "$T/h"
check "... values" eval "grep -qx '    value: 0' '$T/h' && grep -qx '    value: 2' '$T/h'"
check "... the event with its filter" grep -qx '    filter: pid>0' "$T/h"
check_eq "... nothing run (no event line)" "$(events h)" 0
run h2 trace -e sched:sched_wakeup help
check "trace -e sched:sched_wakeup help (the issue's line)" clean h2
check "... names the event" grep -qx '  sched:sched_wakeup' "$T/h2"
run h3 task-state --call-graph -- echo help
check "task-state -- echo help: the workload's help, not ours" clean h3
check "... the workload ran" grep -qx help "$T/h3"
run h4 expr -e sched:sched_wakeup 'pid' help
check "expr -e EV EXPR help: the command explained" clean h4
check "... the event" grep -qx '  sched:sched_wakeup' "$T/h4"
run h5 profile -F 99 --exclude-user -g help
check "profile ... --exclude-user -g help" clean h5
check "... each option given" eval "grep -q -- '--exclude-user' '$T/h5' && grep -q -- '-F, --freq' '$T/h5' && grep -q -- '-g, --call-graph-fp' '$T/h5'"
run h6 list help
check "list help (a command)" clean h6
check "... explains list" grep -q '^Command: perf-prof list$' "$T/h6"

# ==== stderr is for problems ====
# stderr is for problems (issue 21): a successful run says nothing on stderr
# without -v.  Notices (a cpu-clock fallback, a filter run in user space, a
# workload perf-prof ended itself) come only with -v; a stop signal that
# ends the run's own workload is a clean run (exit 0); a workload that fails
# or dies on its own still gives its status and its line; the SIGUSR2 /
# --usage-self cost line and SIGUSR1's counts are data: on the output, in
# order with the events (an object of its own type under --json).  Kernel
# threads are printed with their names, never "<...>".
section quiet

sfx=$(($$ % 100000))
GP=gp_q_$sfx
EV="syscalls:sys_enter_getppid/comm == \"$GP\"/"
ln -s "$W/getppid_loop" "$T/$GP"
PMU=0
[ -e /sys/bus/event_source/devices/cpu/events/cpu-cycles ] && PMU=1

# wait_exec PID NAME: until perf-prof PID's workload child has exec'd NAME (monitoring is on)
wait_exec() {
	local i c
	for i in $(seq 600); do
		for c in $(pgrep -P "$1"); do
			[ "$(cat /proc/$c/comm 2>/dev/null)" = "$2" ] && return 0
		done
		sleep 0.1
	done
	return 1
}

# --- profile on a PMU-less host: the cpu-clock fallback is a notice ---
"$PP" profile -F 999 -- "$W/spin" 1 >"$T/p.out" 2>"$T/p.err"
check_eq "profile -F 999 -- spin 1: exit 0" $? 0
check "profile: the report" grep -qE 'samples of (cycles|cpu-clock) at 999 Hz' "$T/p.out"
check_eq "profile: nothing on stderr" "$(cat "$T/p.err")" ""
"$PP" profile -v -F 999 -- "$W/spin" 1 >/dev/null 2>"$T/pv.err"
if [ $PMU = 0 ]; then
	check_eq "profile -v: the fallback said once" \
		"$(grep -c '^perf-prof profile: no hardware PMU here: sampling the cpu-clock software event at 999 Hz$' "$T/pv.err")" 1
else
	check_eq "profile -v (a PMU): no fallback" "$(grep -c 'no hardware PMU' "$T/pv.err")" 0
fi

# --- cpu-util: how it measures is a notice ---
"$PP" cpu-util -C 0 -i 1000 -- sleep 0.3 >"$T/c.out" 2>"$T/c.err"
check_eq "cpu-util -C 0 -i 1000 -- sleep 0.3: exit 0" $? 0
check "cpu-util: the table" grep -q 'cpu-util: the whole run,' "$T/c.out"
check_eq "cpu-util: nothing on stderr" "$(cat "$T/c.err")" ""
"$PP" cpu-util -v -C 0 -- sleep 0.3 >/dev/null 2>"$T/cv.err"
check_eq "cpu-util -v: how it measures, said once" \
	"$(grep -c '^perf-prof cpu-util: .*utilization from cpu-clock samples every 1 ms' "$T/cv.err")" 1

# --- a filter the kernel cannot take runs in user space: a notice ---
"$PP" trace -e 'sched:sched_switch/prev_pid>next_pid/' -N 3 >"$T/f.out" 2>"$T/f.err"
check_eq "trace -e 'sched:sched_switch/prev_pid>next_pid/' -N 3: exit 0" $? 0
check "trace: 3 events, each with prev_pid > next_pid" \
	awk '{ for (i = 1; i <= NF; i++) { if ($i ~ /^prev_pid=/) p = substr($i, 10); if ($i ~ /^next_pid=/) n = substr($i, 10) }
		c++; if (!(p + 0 > n + 0)) bad = 1 } END { exit !(c == 3 && !bad) }' "$T/f.out"
check_eq "trace: nothing on stderr" "$(cat "$T/f.err")" ""
"$PP" trace -v -e 'sched:sched_switch/prev_pid>next_pid/' -N 3 >/dev/null 2>"$T/fv.err"
check_eq "trace -v: the user-space filter said once" \
	"$(grep -c "^perf-prof trace: filter 'prev_pid>next_pid' on sched:sched_switch runs in user space$" "$T/fv.err")" 1

# --- task-state -- sleep 30 stopped by SIGINT: the workload dies of it, exit 0 ---
spawn pp "$PP" task-state -- sleep 30 >"$T/ts.out" 2>"$T/ts.err"
wait_exec "$pp" sleep
kill -INT "$pp"
wait "$pp"
check_eq "task-state -- sleep 30, SIGINT: exit 0" $? 0
check "task-state: the table is printed" grep -q '^STATE ' "$T/ts.out"
check_eq "task-state: nothing on stderr" "$(cat "$T/ts.err")" ""
# the same with SIGTERM, and -v says how the workload ended
spawn pp "$PP" task-state -v -- sleep 30 >"$T/tv.out" 2>"$T/tv.err"
wait_exec "$pp" sleep
kill -TERM "$pp"
wait "$pp"
check_eq "task-state -v -- sleep 30, SIGTERM: exit 0" $? 0
check "task-state -v: says the workload ended by the stop" \
	grep -q "^perf-prof: 'sleep' ended by the stop signal (Terminated)$" "$T/tv.err"

# --- a workload that fails or dies on its own: its status and its line ---
"$PP" task-state -- sh -c 'exit 3' >"$T/w3.out" 2>"$T/w3.err"
check_eq "task-state -- sh -c 'exit 3': status 3" $? 3
check_eq "... and its line" "$(cat "$T/w3.err")" "perf-prof: 'sh' exited with status 3"
"$PP" task-state -- sh -c 'kill -TERM $$' >/dev/null 2>"$T/wk.err"
check_eq "task-state -- sh -c 'kill -TERM \$\$' (dies on its own): status 143" $? 143
check_eq "... and its line" "$(cat "$T/wk.err")" "perf-prof: 'sh' exited with status 143 (killed by a signal)"
# one that takes the stop signal and exits with a status of its own: its status
spawn pp "$PP" task-state -- sh -c "trap 'exit 3' INT; touch $T/trap.ready; while :; do sleep 0.05; done" \
	>/dev/null 2>"$T/wt.err"
wait_for_file() { local i; for i in $(seq 600); do [ -e "$1" ] && return 0; sleep 0.1; done; return 1; }
wait_for_file "$T/trap.ready"
kill -INT "$pp"
wait "$pp"
check_eq "a workload that exits 3 on the SIGINT passed on: status 3" $? 3
check_eq "... and its line" "$(cat "$T/wt.err")" "perf-prof: 'sh' exited with status 3"

# --- -N ends the run and perf-prof stops the workload: said only with -v ---
"$PP" trace -e sched:sched_switch -N 5 -- sh -c 'while :; do sleep 0.01; done' >"$T/n.out" 2>"$T/n.err"
check_eq "trace -e sched:sched_switch -N 5 -- sh -c 'while :; do sleep 0.01; done': exit 0" $? 0
check_eq "-N: 5 events" "$(grep -c 'sched:sched_switch:' "$T/n.out")" 5
check_eq "-N: nothing on stderr" "$(cat "$T/n.err")" ""
"$PP" trace -v -e sched:sched_switch -N 5 -- sh -c 'while :; do sleep 0.01; done' >/dev/null 2>"$T/nv.err"
check "-N -v: says it stopped the workload" \
	grep -qE "^perf-prof: stopped 'sh' \(pid [0-9]+\) at the end of monitoring$" "$T/nv.err"

# --- SIGUSR2 then SIGINT: the cost line on the output between the events, a clean run ---
usage_re='^perf-prof: usage: [0-9.]+% usr [0-9.]+% sys \(of one CPU, last [0-9.]+ s\), max RSS [0-9.]+ MiB, [0-9]+ records read, [0-9]+ lost$'
spawn pp "$PP" trace -e "$EV" -- sh -c \
	"$T/$GP 100 >/dev/null; touch $T/r1; while [ ! -e $T/go ]; do sleep 0.05; done; $T/$GP 100 >/dev/null; exec sleep 30" \
	>"$T/u.out" 2>"$T/u.err"
wait_for_file "$T/r1"
wait_lines "$T/u.out" "$GP" 100
kill -USR2 "$pp"
check "SIGUSR2: the cost line comes on the output" wait_lines "$T/u.out" "$usage_re"
touch "$T/go"
wait_exec "$pp" sleep
wait_lines "$T/u.out" "$GP" 200
kill -INT "$pp"
wait "$pp"
check_eq "SIGUSR2 then SIGINT: exit 0" $? 0
check_eq "... nothing on stderr" "$(cat "$T/u.err")" ""
check_eq "... the cost line once, between the 100 events before and the 100 after" \
	"$(grep -nE "$usage_re" "$T/u.out" | cut -d: -f1)" 101
check_eq "... 200 events" "$(grep -c "$GP" "$T/u.out")" 200

# --- SIGUSR1 of a profiler without statistics: its counts on the output too ---
spawn pp "$PP" trace -e "$EV" -- sh -c \
	"$T/$GP 50 >/dev/null; touch $T/s1; exec sleep 30" >"$T/s.out" 2>"$T/s.err"
wait_for_file "$T/s1"
wait_lines "$T/s.out" "$GP" 50
kill -USR1 "$pp"
check "SIGUSR1: the counts on the output" wait_lines "$T/s.out" '^perf-prof: 50 events so far: syscalls:sys_enter_getppid 50$'
kill -INT "$pp"
wait "$pp"
check_eq "SIGUSR1 then SIGINT: exit 0" $? 0
check_eq "... nothing on stderr" "$(cat "$T/s.err")" ""

# --- --json: the cost line is an object of its own type ---
"$PP" trace --json --usage-self 100 -e "$EV" -- sh -c "$T/$GP 20 >/dev/null; sleep 0.35" \
	>"$T/j.out" 2>"$T/j.err"
check_eq "trace --json --usage-self 100: exit 0" $? 0
check_eq "--json: nothing on stderr" "$(cat "$T/j.err")" ""
check "--json: every line is a JSON object with a type" python3 -c '
import json, sys
for l in open(sys.argv[1]):
    assert "type" in json.loads(l)' "$T/j.out"
check "--json: usage objects, with their numbers" python3 -c '
import json, sys
u = [j for j in map(json.loads, open(sys.argv[1])) if j["type"] == "usage"]
assert len(u) >= 2, u
for j in u:
    assert set(j) == {"type", "usr_pct", "sys_pct", "span_s", "max_rss_mib", "records", "lost"}, j
    assert j["span_s"] > 0 and j["max_rss_mib"] > 0 and j["lost"] == 0
assert u[-1]["records"] >= 20' "$T/j.out"
check_eq "--json: 20 events" "$(grep -c '"type":"event"' "$T/j.out")" 20

# ==== units and defaults ====
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
section units

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

T=$T0
done_tests
