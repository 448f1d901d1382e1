#!/bin/bash
# profile against tests/work/spin: its main thread ("spinner") burns CPU 3/4
# of the time in spin_a and 1/4 in spin_b, a second thread ("sleeper") naps.
# The folded stacks give spin_a/spin_b 75%/25% within 3 points; the table
# names the hot function; --than 50 prints the spinner's samples in the
# seconds where its own CPU clock had half a CPU (and only those), none of
# the sleeper's; without a PMU, cpu-clock is used and said once.
. "$(dirname "$0")/lib.sh"

[ -x "$W/spin" ] || { skip "workload spin not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

"$PP" profile -F 999 --flame-graph "$T/f.folded" -- "$W/spin" 3 >"$T/f" 2>"$T/f.err"
check_eq "stderr says nothing without -v" "$(cat "$T/f.err")" ""
"$PP" profile -v -F 999 -- "$W/spin" 1 >/dev/null 2>"$T/f.err"
check_eq "exit status" $? 0
check "the workload ran" grep -q '^done$' "$T/f"
share() { awk -v f=";$2;" '{ n = $NF; if (index($0, f)) s += n; if (index($0, ";spin_a;") || index($0, ";spin_b;")) t += n }
	END { printf "%.1f\n", t ? 100 * s / t : 0 }' "$1"; }
check_range "folded: spin_a's share of spin_a + spin_b" "$(share "$T/f.folded" spin_a)" 72 78
check_range "folded: spin_b's share" "$(share "$T/f.folded" spin_b)" 22 28
check "folded: main -> spin_a -> spin_for, names exact" grep -q '^spinner;__libc_start_call_main;main;spin_a;spin_for' "$T/f.folded"
if [ -d /sys/bus/event_source/devices/cpu ] && [ -e /sys/bus/event_source/devices/cpu/events/cpu-cycles ]; then
	check "a PMU: cycles" grep -q 'samples of cycles' "$T/f"
else
	check_eq "no PMU: said once, on stderr with -v" "$(grep -c 'no hardware PMU here: sampling the cpu-clock software event at 999 Hz' "$T/f.err")" 1
	check "no PMU: cpu-clock samples" grep -q 'samples of cpu-clock at 999 Hz' "$T/f"
fi

# the table: the hot function first, most of the samples
"$PP" profile -F 499 -- "$W/spin" 2 >"$T/t" 2>&1
check_eq "table: the top function is spin_for" "$(awk '/^ +SAMPLES/ { getline; print $3; exit }' "$T/t")" spin_for
check_range "table: its share" "$(awk '/^ +SAMPLES/ { getline; sub(/%/, "", $2); print $2; exit }' "$T/t")" 50 100

# -g: stacks in the table
"$PP" profile -F 499 -g --top 8 -- "$W/spin" 2 >"$T/g" 2>&1
check "-g: a stack through spin_a" grep -q ' spin_a+0x' "$T/g"
check "-g: and one through spin_b" grep -q ' spin_b+0x' "$T/g"

# --than 50: the spinner's busy seconds by its own clock, nothing of the sleeper
s0=$(steal)
"$PP" profile --than 50 -- "$W/spin" 3 >"$T/b" 2>&1
STEAL=$(($(steal) - s0))
# the spinner's samples on its own clock (CLOCK_MONOTONIC): the local wall time printed less spin's offset
awk -v o="$(sed -n 's/^offset=//p' "$T/b")" '/^[0-9-]+ [0-9:.]+ +spinner +[0-9]+ \[[0-9]+\] (cpu-clock|cycles): / {
	split($1, d, "-"); split($2, t, ":"); sec = int(t[3])
	printf "%.0f\n", (mktime(d[1] " " d[2] " " d[3] " " t[1] " " t[2] " " sec) + t[3] - sec) * 1e9 - o }' "$T/b" >"$T/b.times"
than_spin "--than 50 (99 Hz)" "$T/b" "$T/b.times" 99 50
check_eq "--than 50: none of the sleeper's" "$(grep -c ' sleeper ' "$T/b")" 0
if [ -s "$T/b.times" ]; then
	check "--than: each with its stack" grep -q '^    [0-9a-f]* spin_for+0x' "$T/b"
else
	skip "--than: each with its stack: no second printed"
fi

# an SVG
"$PP" profile -F 499 --flame-graph "$T/f.svg" -- "$W/spin" 1 >/dev/null 2>&1
check "an SVG flame graph" xmllint --noout "$T/f.svg"

# --perins: a table per thread (the command) or per CPU
"$PP" profile --perins -- "$W/spin" 1 >"$T/pi" 2>&1
tot=$(sed -n 's/.* profile: \([0-9]*\) samples of .*/\1/p' "$T/pi" | tail -1)
# (the sleeper thread may take a sample too where the host is loaded: a table of its own)
check_eq "--perins -- spin: the spinner's table" "$(grep -c '^spinner:[0-9]*: [0-9]* samples$' "$T/pi")" 1
check_eq "--perins: the threads' tables add up to the run's samples ($tot)" \
	"$(sed -n 's/^[a-z_]*:[0-9]*: \([0-9]*\) samples$/\1/p' "$T/pi" | awk '{ s += $1 } END { print s + 0 }')" "$tot"
# (a spinner pinned to each CPU: an idle CPU takes no cpu-clock sample)
"$PP" profile --perins -C 0-1 -- "$W/pinned" 1 spin@0 spin@1 >"$T/pc" 2>&1
check "--perins -C 0-1: CPU 0's table" grep -q '^CPU 0: [0-9]* samples$' "$T/pc"
check "--perins -C 0-1: CPU 1's table" grep -q '^CPU 1: [0-9]* samples$' "$T/pc"
check_eq "--perins -C 0-1: each CPU's spinner (pinned's work) in its table" \
	"$(awk '/^CPU [0-9]+: / { c = $2 } / work \(.*\/pinned\)$/ { print c }' "$T/pc" | sort -u | tr '\n' ' ')" "0: 1: "
# -G: guest mode only; no guest runs here, so none of the spinner's samples
if ! grep -qs . /sys/kernel/debug/kvm/vcpu* 2>/dev/null && ! pgrep -x qemu-system-x86 >/dev/null; then
	"$PP" profile -G -- "$W/spin" 1 >"$T/g" 2>&1
	check "-G with no guest running: 0 samples" grep -q ' profile: 0 samples of ' "$T/g"
else
	skip "-G: a guest may be running here"
fi

# bad input
"$PP" profile -G --exclude-guest -- true >/dev/null 2>"$T/e0"
check_eq "-G --exclude-guest: status 2" $? 2
"$PP" profile --than 150 -- true >/dev/null 2>"$T/e1"
check_eq "--than 150: status 2" $? 2
check "--than 150: says the range" grep -q '1..100' "$T/e1"
"$PP" profile -F 200000 -- true >/dev/null 2>"$T/e2"
check_eq "-F 200000: status 2" $? 2
"$PP" profile --exclude-user --exclude-kernel -- true >/dev/null 2>"$T/e3"
check_eq "nothing left to sample: status 2" $? 2
done_tests
