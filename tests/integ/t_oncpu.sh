#!/bin/bash
# oncpu against tests/work/pinned: threads spinning pinned to CPU 0 and CPU
# 1, one that sleeps throughout, one that naps every 10 ms.  Each thread's
# time on CPU agrees with its own CPU clock (CLOCK_THREAD_CPUTIME_ID, which
# pinned prints at its end) within 2% + 2 ms, all of it on its CPU; the
# sleeper shows ~0; a CPU with a spinner is busy all the time, the spinner
# in its rows and not in the other CPU's; interval tables split the slices
# at their edges (nothing counted twice or lost).  A spinner gets >= 90% of
# its CPU when nothing else wants that CPU: other work on the machine (other
# test suites) takes its share, so that bound is checked only on a CPU the
# spinner had to itself (>= 95% by its own clock), and skipped with the
# numbers otherwise.
. "$(dirname "$0")/lib.sh"

[ -x "$W/pinned" ] || { skip "workload pinned not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ "$(nproc)" -ge 2 ] || { skip "needs 2 CPUs"; done_tests; exit; }

# tid NAME FILE: the tid pinned printed for thread NAME
tid() { sed -n "s/^thread $1 tid=\([0-9]*\) .*/\1/p" "$2"; }
# own NAME FILE: the thread's own CPU time (ms) at its end
own() { sed -n "s/^cpu $1 tid=[0-9]* ms=\([0-9.]*\) .*/\1/p" "$2"; }
# row TID FILE: its row in the whole-run table of the per-thread view
row() { awk -v t=":$1" 'f && substr($1, length($1) - length(t) + 1) == t { print; exit }
	/oncpu: the whole run,/ { f = 1 }' "$2"; }
# on CPU: "NAME MS PCT 0:12.5 1:3.0" -> the ms on CPU
on() { awk -v c="$1" '{ for (i = 4; i <= NF; i++) { split($i, a, ":"); if (a[1] == c) s += a[2] } }
	END { printf "%.2f\n", s + 0 }'; }
# near A B: |A - B| <= 2% of B + 2 ms
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * 0.02 + 2) }'; }

# 1. -- command: per thread
"$PP" oncpu -i 1000 -- "$W/pinned" 3 spin@0 spin@1 sleep nap >"$T/a" 2>"$T/a.err"
check_eq "-- pinned: exit status" $? 0
check "the workload ran" grep -q '^done$' "$T/a"
len=$(sed -n 's/.* oncpu: the whole run, \([0-9.]*\) ms .*/\1/p' "$T/a")
check_range "the whole run: about 3 s" "${len:-0}" 2900 4500
for n in 0 1; do
	t=$(tid spin$n "$T/a") mine=$(own spin$n "$T/a") r=$(row "$(tid spin$n "$T/a")" "$T/a")
	ms=$(echo "$r" | awk '{ print $2 }') pct=$(echo "$r" | awk '{ sub(/%/, "", $3); print $3 }')
	check "spin$n:$t: a row of its own" test -n "$r"
	check "spin$n: $ms ms on CPU, its own clock says $mine (2% + 2 ms)" near "${ms:-0}" "${mine:-0}"
	check "spin$n: all on CPU $n" near "$(echo "$r" | on $n)" "${ms:-0}"
	share=$(awk -v m="${mine:-0}" 'BEGIN { printf "%.1f\n", m / 30 }') # of its 3 s
	if awk -v s="$share" 'BEGIN { exit !(s >= 95) }'; then
		check_range "spin$n: ~100% of CPU $n (it had the CPU to itself)" "${pct:-0}" 90 101
	else
		skip "spin$n >= 90%: CPU $n was shared with other work (spin$n got $share% by its own clock; oncpu says ${pct:-?}%)"
	fi
done
t=$(tid sleeper "$T/a") r=$(row "$(tid sleeper "$T/a")" "$T/a")
check "the sleeper: a row (targets that do not run show 0)" test -n "$r"
check_range "the sleeper: ~0 ms" "$(echo "$r" | awk '{ print $2 }')" 0 1
r=$(row "$(tid napper "$T/a")" "$T/a")
# The napper switches ~300 times: each switch's cost in the kernel around
# sched_switch (perf's own sample among it, ~5-10 us here) is on its clock
# but outside its slices: 10 us per nap more slack.
napms=$(echo "$r" | awk '{ print $2 }') napown=$(own napper "$T/a")
check "the napper: $napms ms near its own clock's $napown ms (2% + 2 ms + 10 us per nap)" \
	awk -v a="${napms:-0}" -v b="${napown:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= b * 0.02 + 2 + 3) }'
check_eq "comm:tid names from the threads' own names, in every table" \
	"$(grep -c '^spin[01]:[0-9]* ' "$T/a")" "$(grep -c ' oncpu: ' "$T/a" | awk '{ print $1 * 2 }')"
# the intervals: their sum no more than the run, the rest in the tail
nint=$(grep -c ' oncpu: [0-9.]* ms on ' "$T/a")
check_range "-i 1000: 2 to 4 intervals in 3 s" "$nint" 2 4
t=$(tid spin0 "$T/a")
awk -v t=":$t" -v L="${len:-0}" '
	/ oncpu: [0-9.]* ms on / { iv = 1; il += $4; next }
	/oncpu: the whole run,/ { iv = 0; w = 1; next }
	substr($1, length($1) - length(t) + 1) == t { if (iv) s += $2; else if (w) r = $2 }
	END { tail = L - il; d = r - s; printf "intervals %.2f, run %.2f, tail %.2f ms\n", s, r, tail;
	      exit !(d >= -0.01 && d <= tail + 1) }' "$T/a" >"$T/split"
rc=$?
check "intervals: spin0's slices add up to the run, the rest in the tail ($(cat "$T/split"))" test "$rc" -eq 0

# 2. the CPU view: every task of CPUs 0 and 1 while pinned spins
spawn w "$W/pinned" 4 spin@0 spin@1 >"$T/wl"
for i in $(seq 50); do grep -q '^thread spin1 ' "$T/wl" && break; sleep 0.1; done
timeout --preserve-status -s INT 2.5 "$PP" oncpu -C 0,1 -i 1000 --top 50 >"$T/c" 2>"$T/c.err"
check_eq "-C 0,1: ended by SIGINT, status 0" $? 0
reap "$w"
# cpu CPU FILE: its rows in the whole-run table ("COMM:TID MS" each)
cpu() { awk -v c="$1" '/oncpu: the whole run,/ { f = 1; next } !f || /^CPU / { next }
	/^[0-9]+ / { cur = $1; if (cur == c && NF >= 5) print $4, $NF; next }
	/^ / && cur == c && $1 != "..." { print $1, $NF }' "$2"; }
busy() { awk -v c="$1" '/oncpu: the whole run,/ { f = 1; next } f && $1 == c { sub(/%/, "", $3); print $3; exit }' "$2"; }
all=$(sed -n 's/.* oncpu: the whole run, \([0-9.]*\) ms .*/\1/p' "$T/c")
for n in 0 1; do
	o=$((1 - n)) t=$(tid spin$n "$T/wl")
	check_range "CPU $n: busy all the time (a spinner is pinned there)" "$(busy $n "$T/c")" 95 100.1
	check "CPU $n: spin$n:$t among its threads" grep -q "^spin$n:$t " <(cpu $n "$T/c")
	check_range "CPU $o: spin$n not there (ms)" \
		"$(cpu $o "$T/c" | awk -v t="spin$n:$t" '$1 == t { s += $2 } END { print s + 0 }')" 0 1
	others=$(cpu $n "$T/c" | awk -v t="spin$n:$t" '$1 != t { s += $2 } END { printf "%.1f\n", s }')
	mine=$(cpu $n "$T/c" | awk -v t="spin$n:$t" '$1 == t { print $2 }')
	if awk -v o="$others" -v a="${all:-0}" 'BEGIN { exit !(o <= a * 0.05) }'; then
		check_range "CPU $n: spin$n ~100% of it" \
			"$(awk -v m="${mine:-0}" -v a="${all:-1}" 'BEGIN { print 100 * m / a }')" 90 100.1
	else
		skip "CPU $n: spin$n >= 90%: other tasks took $others of ${all:-?} ms there"
	fi
done
check "a CPU's threads largest first" awk '/oncpu: the whole run,/ { f = 1; next }
	f && /^[0-9]+ / { p = $NF; next } f && /^  +[^ .]/ { if ($NF > p + 0.001) bad = 1; p = $NF }
	END { exit bad }' "$T/c"

# 3. -p: a process that exists (its threads start once oncpu watches)
attach "$T/p" 'oncpu -p PID -i 10000' pinned 2 spin@1 sleep
check_eq "-p: exit status" "$(cat "$T/p.rc")" 0
for n in spin1 sleeper; do
	r=$(row "$(tid $n "$T/p.wl")" "$T/p")
	check "-p: $n near its own clock ($(echo "$r" | awk '{ print $2 }') vs $(own $n "$T/p.wl"))" \
		near "$(echo "$r" | awk '{ print $2 }')" "$(own $n "$T/p.wl")"
done
check_eq "-p: only the process's threads (3)" \
	"$(awk '/oncpu: the whole run,/ { f = 1; next } f && /^[^ ]+:[0-9]+ / { n++ } END { print n + 0 }' "$T/p")" 3

# bad input
"$PP" oncpu -i abc -- true >/dev/null 2>"$T/e1"
check_eq "-i abc: status 2" $? 2
check "-i abc: says what an interval is" grep -q "bad interval 'abc'" "$T/e1"
nopid=4194300
while [ -e /proc/$nopid ]; do nopid=$((nopid - 1)); done
"$PP" oncpu -p $nopid >/dev/null 2>"$T/e2"
check_eq "-p $nopid (none): status 1" $? 1
check "-p $nopid: no such process" grep -q 'no such process' "$T/e2"
"$PP" oncpu --top x -- true >/dev/null 2>"$T/e3"
check_eq "--top x: status 2" $? 2
done_tests
