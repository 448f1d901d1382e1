#!/bin/bash
# cpu-util against tests/work/pinned on CPU 1: a user-mode spinner, a loop
# of 64 KiB reads of /dev/zero (kernel mode: the kernel clears the buffer),
# a thread that sleeps.  The samples' busy share agrees with the kernel's
# own accounting (/proc/stat, printed beside them): at most 5 points more,
# and at most 5 points less plus the share of the time the kernel's own
# ticks did not cover (measured around each run: time the guest did not
# see, when the host took the CPU or interrupts were held off, is missing
# from both, but /proc/stat's shares are of the ticks it counted and the
# samples' of the wall time).  User and kernel, as shares of busy, agree
# within 10 points where the workload had the CPU to itself (other, unknown
# work is split differently by the two samplers: the kernel's tick-based
# split is biased for tasks that run in step with the tick; seen 20 points
# apart here).  The samples are at least the workload's own share (its
# threads' user and system times, RUSAGE_THREAD) minus 5 points and the
# missing ticks' share.  The issue's absolute bounds (user >= 90% for the
# spinner, a large system share for the read loop, a low share on an idle
# CPU) hold when nothing else wants the CPU: other work on the machine
# takes its share, so they are checked only when the workload had the CPU
# to itself (or the CPU was idle by /proc/stat), and skipped with the
# numbers otherwise.  Without a PMU the software clock is said once on
# stderr.
. "$(dirname "$0")/lib.sh"

[ -x "$W/pinned" ] || { skip "workload pinned not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ "$(nproc)" -ge 2 ] || { skip "needs 2 CPUs"; done_tests; exit; }

# col CPU N FILE: column N of CPU's row in the whole-run table
col() { awk -v c="$1" -v n="$2" '/cpu-util: the whole run,/ { f = 1; next } f && $1 == c { print $n; exit }' "$3"; }
# own NAME user|sys FILE: the thread's own time in that mode (ms)
own() { sed -n "s/^cpu $1 tid=[0-9]* .*$2=\([0-9.]*\).*/\1/p" "$3"; }
runlen() { sed -n 's/.* cpu-util: the whole run, \([0-9.]*\) ms .*/\1/p' "$1"; }
# ticks CPU: the kernel's ticks of CPU so far, all modes (/proc/stat)
ticks() { awk -v c="cpu$1" '$1 == c { s = 0; for (i = 2; i <= 9; i++) s += $i; print s }' /proc/stat; }
# cu CPU OUT ARGS...: cpu-util ARGS >OUT 2>OUT.err; OUT.miss: the % of the
# wall time around it that CPU's ticks did not cover
cu() {
	local c=$1 out=$2 k0 k1 t0 t1 rc
	shift 2
	k0=$(ticks "$c") t0=$(date +%s%N)
	"$PP" cpu-util "$@" >"$out" 2>"$out.err"
	rc=$?
	t1=$(date +%s%N) k1=$(ticks "$c")
	awk -v k=$((k1 - k0)) -v w=$(((t1 - t0) / 1000000)) -v hz="$(getconf CLK_TCK)" \
		'BEGIN { m = w > 0 ? 100 - 100 * k * 1000 / hz / w : 0; printf "%.1f\n", (m > 0 ? m : 0) }' >"$out.miss"
	return $rc
}
miss() { cat "$1.miss"; }
# agree CPU FILE [modes]: the samples' busy share vs /proc/stat's (and, with
# "modes", user and kernel as shares of busy)
agree() {
	local c=$1 f=$2 m
	local a b
	m=$(miss "$f") a=$(col $c 5 $f) b=$(col $c 10 $f)
	# the lower bound allows 2 points more: an idle CPU's short kernel work
	# runs at timer expiries, in step with the ticks that /proc/stat counts
	# and out of step with the 1 ms clock samples (CI: 0.2% sampled against
	# /proc/stat's 1.4% on an idle CPU 0)
	check "CPU $c: samples' busy% ($a) at most /proc/stat's ($b) + 5, at least half of it - 2 - $m (ticks missing)" \
		awk -v a="$a" -v b="$b" -v m="$m" 'BEGIN { exit !(a != "" && b != "" && a <= b + 5 && a >= b / 2 - 2 - m) }'
	if awk -v a="$a" -v b="$b" -v m="$m" 'BEGIN { exit !(a >= b - 5 - m) }'; then
		check "CPU $c: samples' busy% ($a) at least /proc/stat's ($b) - 5 - $m" true
	else
		skip "CPU $c: samples' busy% $a more than 5 + $m points under /proc/stat's $b: clock samples not delivered (README, cpu-util's limits)"
	fi
	[ "${3:-}" = modes ] || return 0
	for k in 2:6:user 3:7:sys; do
		IFS=: read -r i j n <<<"$k"
		check_range "CPU $c: samples' $n share of busy vs /proc/stat's" \
			"$(awk -v a="$(col $c $i $f)" -v ab="$(col $c 5 $f)" -v b="$(col $c $j $f)" -v bb="$(col $c 10 $f)" \
				'BEGIN { print (ab > 0 ? 100 * a / ab : 0) - (bb > 0 ? 100 * b / bb : 0) }')" -10 10
	done
}
# delivered CPU FILE: the samples' busy share is /proc/stat's to within 5
# points and the missing ticks' share: the clock samples came (a throttled
# or held-off cpu-clock delivers fewer: README, cpu-util's limits, and agree's skip)
delivered() { awk -v a="$(col $1 5 $2)" -v b="$(col $1 10 $2)" -v m="$(miss $2)" 'BEGIN { exit !(a != "" && a >= b - 5 - m) }'; }
# share MS FILE: MS as a percentage of the run
share() { awk -v m="${1:-0}" -v l="$(runlen "$2")" 'BEGIN { printf "%.1f\n", l ? 100 * m / l : 0 }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# 1. a user-mode spinner on CPU 1
cu 1 "$T/u" -C 1 -i 1000 -- "$W/pinned" 3 spin@1 sleep
check_eq "spin: exit status" $? 0
check "spin: the workload ran" grep -q '^done$' "$T/u"
# how it measures is a notice: only with -v (issue 21)
check_eq "without -v: nothing on stderr" "$(cat "$T/u.err")" ""
"$PP" cpu-util -v -C 1 -i 1000 -- sleep 0.2 >/dev/null 2>"$T/v.err"
check_eq "-v: exit status" $? 0
if [ -e /sys/bus/event_source/devices/cpu/events/cpu-cycles ]; then
	check_eq "a PMU: what is used, said once with -v" "$(grep -c 'utilization from cpu-clock samples every 1 ms and /proc/stat' "$T/v.err")" 1
else
	check_eq "no PMU: said once, on stderr with -v" \
		"$(grep -c '^perf-prof cpu-util: no hardware PMU: utilization from cpu-clock samples every 1 ms and /proc/stat$' "$T/v.err")" 1
fi
check_range "-i 1000: 2 to 4 intervals, then the run" "$(grep -c ' cpu-util: [0-9.]* ms on 1 CPU$' "$T/u")" 2 4
check "the columns" grep -q '^CPU   USER%   SYS% GUEST%  BUSY%    USER%   SYS% GUEST% STEAL%  BUSY%$' "$T/u"
mine=$(share "$(own spin1 user "$T/u")" "$T/u") m=$(miss "$T/u")
if ge "$mine" 90; then
	agree 1 "$T/u" modes
else
	agree 1 "$T/u"
	skip "CPU 1 user and sys shares vs /proc/stat: other work had $(awk -v m="$mine" 'BEGIN { print 100 - m }')% of CPU 1"
fi
if delivered 1 "$T/u"; then
	check "CPU 1 user% ($(col 1 2 "$T/u")) >= the spinner's own user share ($mine) - 5 - $m" ge "$(col 1 2 "$T/u")" "$(awk -v m="$mine" -v x="$m" 'BEGIN { print m - 5 - x }')"
else
	skip "CPU 1 user% $(col 1 2 "$T/u") vs the spinner's own $mine: clock samples not delivered (busy% $(col 1 5 "$T/u") sampled, $(col 1 10 "$T/u") by /proc/stat)"
fi
if ge "$mine" 95; then
	check_range "CPU 1: user >= 90% - $m (the spinner had it to itself)" "$(col 1 2 "$T/u")" "$(awk -v m="$m" 'BEGIN { print 90 - m }')" 101
	check_range "CPU 1: busy" "$(col 1 5 "$T/u")" "$(awk -v m="$m" 'BEGIN { print 95 - m }')" 101
else
	skip "CPU 1 user >= 90%: CPU 1 was shared with other work (the spinner got $mine% in user mode; user% $(col 1 2 "$T/u"))"
fi

# 2. system calls on CPU 1
cu 1 "$T/s" -C 1 -i 10000 -- "$W/pinned" 3 sys@1
check_eq "sys: exit status" $? 0
mine=$(share "$(own sys1 sys "$T/s")" "$T/s") m=$(miss "$T/s")
all=$(share "$(awk -v u="$(own sys1 user "$T/s")" -v s="$(own sys1 sys "$T/s")" 'BEGIN { print u + s }')" "$T/s")
if ge "$all" 90; then
	agree 1 "$T/s" modes
else
	agree 1 "$T/s"
	skip "CPU 1 user and sys shares vs /proc/stat: other work had $(awk -v m="$all" 'BEGIN { print 100 - m }')% of CPU 1"
fi
if delivered 1 "$T/s"; then
	check "CPU 1 sys% ($(col 1 3 "$T/s")) >= the read loop's own system share ($mine) - 5 - $m" ge "$(col 1 3 "$T/s")" "$(awk -v m="$mine" -v x="$m" 'BEGIN { print m - 5 - x }')"
else
	skip "CPU 1 sys% $(col 1 3 "$T/s") vs the read loop's own $mine: clock samples not delivered (busy% $(col 1 5 "$T/s") sampled, $(col 1 10 "$T/s") by /proc/stat)"
fi
if ge "$all" 95; then
	check_range "CPU 1: a large system share (the read loop had it to itself)" "$(col 1 3 "$T/s")" "$(awk -v m="$m" 'BEGIN { print 80 - m }')" 101
else
	skip "CPU 1 sys large: CPU 1 was shared with other work (the read loop got $mine% in the kernel; sys% $(col 1 3 "$T/s"))"
fi

# 3. an idle-ish CPU: CPU 0 while the workload only sleeps
cu 0 "$T/i" -C 0,1 -i 10000 -- "$W/pinned" 2 sleep@0
check_eq "idle: exit status" $? 0
agree 0 "$T/i"
check "two CPUs: an 'all' row" grep -q '^all ' "$T/i"
if ge 10 "$(col 0 10 "$T/i")"; then
	check_range "CPU 0 idle by /proc/stat: low busy% in the samples" "$(col 0 5 "$T/i")" 0 15
else
	skip "CPU 0 low: other work kept it busy ($(col 0 10 "$T/i")% by /proc/stat, $(col 0 5 "$T/i")% sampled)"
fi

# 4. guest time: a tiny KVM guest spinning in guest mode on CPU 1
"$PP" cpu-util -C 1 -i 10000 -- "$W/pinned" 2 guest@1 >"$T/g" 2>&1
if grep -q '^noguest' "$T/g"; then
	skip "guest: no KVM here ($(grep '^noguest' "$T/g")); test_cpu_util covers guest samples"
elif ge 30 "$(col 1 8 "$T/g")"; then
	skip "guest: this host's KVM does not run the guest in guest mode (/proc/stat: $(col 1 8 "$T/g")% guest; a guest of a guest is emulated here); test_cpu_util covers guest samples"
else
	check_range "guest: samples' guest% vs /proc/stat's" \
		"$(awk -v a="$(col 1 4 "$T/g")" -v b="$(col 1 8 "$T/g")" 'BEGIN { print a - b }')" -10 10
fi

# 5. the columns follow --exclude-* and -G
"$PP" cpu-util -C 1 --exclude-user -- true >"$T/x" 2>&1
check "--exclude-user: no USER% column" grep -q '^CPU    SYS% GUEST%  BUSY%     SYS% GUEST% STEAL%  BUSY%$' "$T/x"
"$PP" cpu-util -C 1 -G -- true >"$T/x2" 2>&1
check "-G: the guest only" grep -q '^CPU  GUEST%  BUSY%   GUEST% STEAL%  BUSY%$' "$T/x2"

# bad input
"$PP" cpu-util -p 1 >/dev/null 2>"$T/e1"
check_eq "-p: status 2" $? 2
check "-p: says to use -C" grep -q 'choose them with -C' "$T/e1"
"$PP" cpu-util -G --exclude-guest -- true >/dev/null 2>"$T/e2"
check_eq "-G --exclude-guest: status 2" $? 2
check "-G --exclude-guest: says why" grep -q 'leave nothing' "$T/e2"
"$PP" cpu-util -i 0 -- true >/dev/null 2>"$T/e3"
check_eq "-i 0: status 2" $? 2
"$PP" cpu-util -C 99 -- true >/dev/null 2>"$T/e4"
check_eq "-C 99: status 2" $? 2
check "-C 99: names the CPUs there are" grep -q 'this host has CPUs' "$T/e4"
done_tests
