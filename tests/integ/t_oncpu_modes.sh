#!/bin/bash
# oncpu's modes against tests/work/pinned, whose threads print their own CPU
# time and the kernel's count of their context switches (csw=, RUSAGE_THREAD,
# read just before they end):
#  --detail: a thread's slices begun (SWS) are its switches out plus its last
#    slice (csw + 1; up to 4 more after the read: it still runs, and may be
#    preempted, between its read and its exit); its longest slice is no less
#    than the mean (ms / slices) and no more than its whole time; a CPU's
#    SWS is the sum of its threads' and its MAX_MS the largest of theirs.
#    The ring path only: with --bpf it is a usage error, and -v says why the
#    request went the ring path.
#  --only-comm: two threads of one name (two "spin0") make one row, without a
#    tid, whose time is the sum of both threads' own clocks.
#  --filter GLOBS: only the threads whose comm matches are in the tables.
# --only-comm and --filter run on both back ends.
. "$(dirname "$0")/lib.sh"

[ -x "$W/pinned" ] || { skip "workload pinned not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ "$(nproc)" -ge 2 ] || { skip "needs 2 CPUs"; done_tests; exit; }

tid() { sed -n "s/^thread $1 tid=\([0-9]*\) .*/\1/p" "$2"; }
own() { sed -n "s/^cpu $1 tid=[0-9]* ms=\([0-9.]*\) .*/\1/p" "$2"; }
csw() { sed -n "s/^cpu $1 tid=[0-9]* .*csw=\([0-9]*\).*/\1/p" "$2"; }
# row KEY FILE: the whole-run row whose first word is KEY (COMM:TID, or COMM)
row() { awk -v k="$1" 'f && $1 == k { print; exit } /oncpu: the whole run,/ { f = 1 }' "$2"; }

# 1. --detail, per thread (the ring path; no interval edge in the run: a
# slice that a CPU's buffer still holds at an edge is not counted, by design)
"$PP" oncpu --detail -v -i 100000 -- "$W/pinned" 2 spin@0 nap burst >"$T/d" 2>"$T/d.err"
check_eq "--detail -- pinned: exit status" $? 0
check "--detail: -v says it goes the ring path, and why" \
	grep -q 'oncpu --detail: switches and the longest slice are counted in user space' "$T/d.err"
check "--detail: the header has SWS and MAX_MS" grep -q '^COMM:TID  *MS  *%CPU  *SWS  *MAX_MS  *CPU:MS$' "$T/d"
for n in spin0 napper burster; do
	t=$(tid $n "$T/d") c=$(csw $n "$T/d") r=$(row "$n:$(tid $n "$T/d")" "$T/d")
	# COMM:TID MS %CPU SWS MAX_MS CPU:MS...
	ms=$(echo "$r" | awk '{ print $2 }') sws=$(echo "$r" | awk '{ print $4 }') mx=$(echo "$r" | awk '{ print $5 }')
	check "--detail: $n:$t has a row" test -n "$r"
	check_range "--detail: $n's slices ($sws) are its $c switches + 1 (+ 4)" "${sws:-0}" $((c + 1)) $((c + 5))
	check "--detail: $n's longest slice $mx ms between the mean and its $ms ms" \
		awk -v m="${mx:-0}" -v t="${ms:-0}" -v n="${sws:-0}" 'BEGIN { exit !(n > 0 && m >= t / n - 0.01 && m <= t + 0.01) }'
done

# 2. --detail, by CPU: a CPU's sums are its threads'
rm -f "$T/wl"
spawn w "$W/pinned" 3 spin@0 nap@1 >"$T/wl"
for i in $(seq 50); do grep -q '^thread napper ' "$T/wl" && break; sleep 0.1; done
timeout --preserve-status -s INT 1.5 "$PP" oncpu --detail --no-bpf -C 0,1 -i 10000 --top 100000 >"$T/c" 2>"$T/c.err"
check_eq "--detail -C 0,1: ended by SIGINT, status 0" $? 0
reap "$w"
# CPU BUSY_MS BUSY% CPU_SWS CPU_MAX_MS COMM:TID MS SWS MAX_MS, then COMM:TID MS SWS MAX_MS
awk '/oncpu: the whole run,/ { f = 1; next } !f || /^CPU / { next }
	function end() { if (cpu != "") printf "%s %d %d %.2f %.2f\n", cpu, s, cs, m, cm }
	/^[0-9]+ / { end(); cpu = $1; cs = $4; cm = $5; s = $8; m = $9; next }
	/^ / { s += $3; if ($4 > m) m = $4 }
	END { end() }' "$T/c" >"$T/sums"
check_eq "--detail -C 0,1: two CPUs" "$(wc -l <"$T/sums")" 2
check "--detail: each CPU's SWS is the sum of its rows' ($(tr '\n' ';' <"$T/sums"))" \
	awk '{ if ($2 != $3) bad = 1 } END { exit bad || NR != 2 }' "$T/sums"
check "--detail: each CPU's MAX_MS is the largest of its rows'" \
	awk '{ if ($4 != $5) bad = 1 } END { exit bad || NR != 2 }' "$T/sums"
t=$(tid spin0 "$T/wl")
check "--detail -C: spin0:$t has SWS and MAX_MS on CPU 0" \
	awk -v k="spin0:$t" '/oncpu: the whole run,/ { f = 1 } f && ($1 == k || $6 == k) { n = ($1 == k) ? $3 : $8; exit !(n >= 1) } END { }' "$T/c"

# 3. JSON: --detail's members, none without it
"$PP" oncpu --json --detail -- "$W/pinned" 1 spin@0 >"$T/j" 2>"$T/j.err"
check_eq "--json --detail: exit status" $? 0
check "--json --detail: rows with sws and max_slice_ns" \
	sh -c "grep '^{' '$T/j' | jq -e -s '[.[] | select(.type == \"row\" and .comm == \"spin0\" and .sws >= 1 and .max_slice_ns > 0)] | length >= 1' >/dev/null"
"$PP" oncpu --json -- "$W/pinned" 1 spin@0 >"$T/j0" 2>"$T/j0.err"
check "--json without --detail: no sws member" sh -c "! grep -q '\"sws\"' '$T/j0'"

# --only-comm and --filter, on each back end
suite() {
bk=$1
BK=$2
# 4. --only-comm: two threads named spin0 make one row
s0=$(steal)
"$PP" oncpu $BK --only-comm -- "$W/pinned" 2 spin@0 spin@0 sleep >"$T/o" 2>"$T/o.err"
check_eq "[$bk] --only-comm: exit status" $? 0
STEAL=$(($(steal) - s0))
mine=$(own spin0 "$T/o" | awk '{ s += $1 } END { printf "%.2f\n", s }')
r=$(row spin0 "$T/o")
check "[$bk] --only-comm: one spin0 row, no tid" test -n "$r"
check_eq "[$bk] --only-comm: no COMM:TID rows" "$(grep -c '^spin0:' "$T/o")" 0
check_eq "[$bk] --only-comm: the column says COMM" "$(grep -c '^COMM  *MS  *%CPU  *CPU:MS$' "$T/o")" "$(grep -c ' oncpu: ' "$T/o")"
check_eq "[$bk] --only-comm: spin0 once per table" "$(grep -c '^spin0 ' "$T/o")" "$(grep -c ' oncpu: ' "$T/o")"
check "[$bk] --only-comm: spin0's $(echo "$r" | awk '{ print $2 }') ms are both threads' own $mine ms (steal $STEAL ms)" \
	near "$(echo "$r" | awk '{ print $2 }')" "$mine"
check "[$bk] --only-comm: the sleeper's row by name" test -n "$(row sleeper "$T/o")"
"$PP" oncpu $BK --only-comm --json -- "$W/pinned" 1 spin@0 spin@0 >"$T/oj" 2>"$T/oj.err"
check "[$bk] --only-comm --json: spin0's rows have no tid" \
	sh -c "grep '^{' '$T/oj' | jq -e -s '[.[] | select(.comm == \"spin0\")] | length >= 1 and all(has(\"tid\") | not)' >/dev/null"

# 5. --filter: only the napper and the spinner of CPU 1
s0=$(steal)
"$PP" oncpu $BK --filter 'nap*,spin1' -- "$W/pinned" 2 spin@0 spin@1 nap >"$T/f" 2>"$T/f.err"
check_eq "[$bk] --filter: exit status" $? 0
STEAL=$(($(steal) - s0))
names=$(awk '/oncpu: the whole run,/ { f = 1; next } f && /:[0-9]+ / { sub(/:.*/, "", $1); print $1 }' "$T/f" | sort | tr '\n' ' ')
check_eq "[$bk] --filter 'nap*,spin1': only those threads" "$names" "napper spin1 "
r=$(row "spin1:$(tid spin1 "$T/f")" "$T/f")
check "[$bk] --filter: spin1's time is all of its own clock's" near "$(echo "$r" | awk '{ print $2 }')" "$(own spin1 "$T/f")"
}
both_back_ends btf --bpf

# bad input
"$PP" oncpu --detail --bpf -- true >/dev/null 2>"$T/e1"
check_eq "--detail --bpf: status 2" $? 2
check "--detail --bpf: says why" grep -q 'oncpu --detail: switches and the longest slice are counted in user space' "$T/e1"
"$PP" oncpu --detail --sched_policy 1 -- true >/dev/null 2>"$T/e2"
check_eq "--detail --sched_policy 1: status 2" $? 2
check "--detail --sched_policy: not with a kernel filter" grep -q 'oncpu --detail: not with --sched-policy' "$T/e2"
"$PP" oncpu --filter 'a(b' -- true >/dev/null 2>"$T/e3"
check_eq "--filter 'a(b': status 2" $? 2
check "--filter 'a(b': says what it expects" grep -q "bad --filter 'a(b': expected COMM\[,COMM...\] globs" "$T/e3"
"$PP" oncpu --filter '' -- true >/dev/null 2>"$T/e4"
check_eq "--filter '': status 2" $? 2
"$PP" oncpu --only-comm=1 -- true >/dev/null 2>"$T/e5"
check_eq "--only-comm=1 (a flag): status 2" $? 2
done_tests
