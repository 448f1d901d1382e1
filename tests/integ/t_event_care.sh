#!/bin/bash
# event-care against tests/work/burst, which makes exactly BURSTS x SIZE
# getppid() calls pinned to CPU (-c): in a one-page ring (-m 1) the burst
# overflows the ring; the events lost that event-care counts are the ones
# the engine reports on stderr ("lost N events"), on the burst's CPU, in
# text and in --json; in a ring large enough every call is received, none
# lost, and the longest gap is the pause between bursts.
# The count check (UNSEEN, and event-lost's line per loss): burst -l makes
# one last call after a pause, in a ring drained by then, whose sample's
# count counts every call before it: the calls received and unseen are the
# workload's 60001 exactly, and UNSEEN is the engine's lost count (no
# side-band record is lost during the bursts: the workload forks nothing).
# The disorder across CPUs is checked exactly on injected records
# (tests/unit/test_event_care.c); here, the options it refuses.
. "$(dirname "$0")/lib.sh"

[ -x "$W/burst" ] || { skip "workload burst not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_getppid ] ||
	{ skip "no syscalls:sys_enter_getppid tracepoint"; done_tests; exit; }

# field N of the row whose first column is KEY
row() { awk -v k="$2" -v n="$3" '$1 == k { print $n; exit }' "$1"; }

E=syscalls:sys_enter_getppid
"$PP" event-care -e $E -m 1 -- "$W/burst" -c 0 3 20000 50 >"$T/a" 2>"$T/a.err"
check_eq "exit status" $? 0
check "the workload made its calls" grep -q '^done 3 20000' "$T/a"
check "the header" grep -q '^CPU       EVENTS       LOST     UNSEEN   DISORDER   MAX_BACK    MAX_GAP$' "$T/a"
lost=$(sed -n 's/^perf-prof: lost \([0-9]*\) events (CPU0: \1);.*/\1/p' "$T/a.err")
check "the engine reports losses on CPU 0 only" test -n "$lost"
check "the one-page ring lost events" test "${lost:-0}" -gt 0
check_eq "lost: what the engine reports" "$(row "$T/a" all 3)" "$lost"
check_eq "lost on CPU 0 (burst's)" "$(row "$T/a" 0 3)" "$lost"
# (not received + lost = 60000: the kernel's count of lost records includes
# side-band records, and losses at the end that no record follows are never told)
check "fewer than the 60000 calls received" test "$(row "$T/a" all 2)" -lt 60000
check_eq "one CPU: nothing out of order" "$(row "$T/a" all 5)" 0
check_eq "no MAX_BACK without disorder" "$(row "$T/a" all 6)" -
check "UNSEEN: at most the engine's lost count" test "$(row "$T/a" all 4)" -le "${lost:-0}"
check "nothing else on stderr" test "$(wc -l <"$T/a.err")" -eq 1

# --json: the same rows, and the engine's "lost" record
"$PP" event-care -e $E -m 1 --json -- "$W/burst" -c 0 3 20000 50 >"$T/j" 2>"$T/j.err"
check_eq "--json: exit status" $? 0
jl=$(sed -n 's/^{"type":"lost",.*,"lost":\([0-9]*\),.*/\1/p' "$T/j")
all=$(grep '^{"type":"row",.*"cpu":"all"' "$T/j")
je=$(echo "$all" | sed -n 's/.*"events":\([0-9]*\),.*/\1/p')
jlost=$(echo "$all" | sed -n 's/.*"lost":\([0-9]*\),.*/\1/p')
check "--json: the engine's lost record" test -n "$jl"
check_eq "--json: lost as the engine's record" "$jlost" "$jl"
check "--json: fewer than the 60000 calls received" test "${je:-60000}" -lt 60000
check "--json: CPU 0's row, cpu a number" grep -q '"cpu":0,"events":' "$T/j"
check "--json: no disorder, max_back_ns null" \
	grep -q '"cpu":"all",.*"disorder":0,"max_back_ns":null,' "$T/j"

# a ring large enough: nothing lost, every call received
C=$(($(nproc) > 1 ? 1 : 0)) # the burst's CPU: its row, and no other
"$PP" event-care -e $E -m 256 -- "$W/burst" -c $C 2 1000 20 >"$T/b" 2>"$T/b.err"
check_eq "-m 256: exit status" $? 0
check_eq "-m 256: lost" "$(row "$T/b" all 3)" 0
check_eq "-m 256: the 2000 calls" "$(row "$T/b" all 2)" 2000
check_eq "-m 256: on CPU $C" "$(row "$T/b" $C 2)" 2000
check_eq "-m 256: unseen" "$(row "$T/b" all 4)" 0
check_eq "-m 256: a row for CPU $C and all, the event's for CPU $C and all" \
	"$(grep -c . "$T/b" | tr -d ' ')" "$(($(grep -c '^burst\|^pid=\|^done' "$T/b") + 6))"
check_eq "-m 256: the event's rows" "$(grep "^$E " "$T/b" | awk '{ print $2, $3, $4 }' | tr '\n' ' ')" \
	"$C 2000 0 all 2000 0 "
check_eq "-m 256: nothing on stderr" "$(cat "$T/b.err")" ""
# the gap: at least the pause between the two bursts as the workload saw it (the
# second's start less the first's end: a loaded CPU that delays the first burst
# shortens it), less 100 us for the call and the stamp at each end
pause=$(awk '/^burst 0 / { for (i = 3; i <= NF; i++) { split($i, a, "="); if (a[1] == "end_ns") e = a[2] } }
	/^burst 1 / { for (i = 3; i <= NF; i++) { split($i, a, "="); if (a[1] == "at_ns") s = a[2] } }
	END { printf "%.0f\n", s - e }' "$T/b")
gap=$(ns "$(row "$T/b" all 7)")
echo "# -m 256: MAX_GAP $(row "$T/b" all 7) ($gap ns), the workload's pause $pause ns"
check "-m 256: MAX_GAP ($gap ns) spans the pause between the bursts ($pause ns)" \
	test "$gap" -ge $((pause - 100000)) -a "$pause" -gt 0

# -i: a table per interval, each its own events: they add up to the 2000 calls
# (-o: the tables printed while the workload prints its lines, in a file of their own)
"$PP" event-care -e $E -m 256 -i 10 -o "$T/i" -- "$W/burst" -c $C 2 1000 20 >/dev/null 2>"$T/i.err"
check_eq "-i 10: exit status" $? 0
check "-i 10: several tables" test "$(grep -c '^all ' "$T/i")" -gt 2
check_eq "-i 10: the intervals' events add up to 2000" \
	"$(awk '$1 == "all" { n += $2 } END { print n }' "$T/i")" 2000
"$PP" event-care -e $E -m 256 -i 10 --json -o "$T/ij" -- "$W/burst" -c $C 2 1000 20 >/dev/null \
	2>"$T/ij.err"
check_eq "-i 10 --json: every row an interval's, their events add up to 2000" \
	"$(grep '^{"type":"row"' "$T/ij" | grep -vc '"scope":"interval"'):$(grep '^{"type":"row",.*"cpu":"all"' "$T/ij" |
		sed 's/.*"events":\([0-9]*\),.*/\1/' | awk '{ n += $1 } END { print n }')" "0:2000"

# -g: each event out of order printed as it comes with its kernel stack, then
# the newest one delivered before it with its own; as many as DISORDER counts,
# and still counted in arrival order (stacks do not sort them).  Two sleepers,
# one pinned to each CPU, switch every 2 ms on both: the rings, read in turn,
# deliver some of one CPU's after newer ones of the other.
if [ "$(nproc)" -ge 2 ]; then
	SW=sched:sched_switch
	"$PP" event-care -e $SW -g -C 0-1 -m 64 -- sh -c \
		"$W/burst -s -c 0 40 10 2 >/dev/null & $W/burst -s -c 1 40 10 2 >/dev/null; wait" >"$T/g" 2>"$T/g.err"
	check_eq "-g: exit status" $? 0
	check_eq "-g: nothing on stderr" "$(cat "$T/g.err")" ""
	dis=$(row "$T/g" all 5)
	check_eq "-g: a late line per disorder counted" "$(grep -c '  <- out of order: ' "$T/g")" "$dis"
	check_eq "-g: a newest line per disorder counted" \
		"$(grep -c '  <- the newest delivered before it$' "$T/g")" "$dis"
	if [ "${dis:-0}" -gt 0 ]; then
		# every such line: a sched_switch, and under it its kernel stack, __schedule on top
		check_eq "-g: each line a switch with __schedule under it" \
			"$(awk '/  <- (out of order: |the newest delivered before it$)/ {
				n++; if ($0 !~ /sched:sched_switch: prev_comm=/) bad++; want = 1; next }
				want { if ($0 !~ /^    [0-9a-f]+ __schedule\+0x/) bad++; want = 0 }
				END { print n + 0 ":" bad + 0 }' "$T/g")" "$((2 * dis)):0"
	else
		echo "# -g: no disorder in this run: the stacks are checked on injected records"
	fi
	"$PP" event-care -e $SW -g -C 0-1 -m 64 --json -- sh -c \
		"$W/burst -s -c 0 40 10 2 >/dev/null & $W/burst -s -c 1 40 10 2 >/dev/null; wait" \
		>"$T/gj" 2>"$T/gj.err"
	check_eq "-g --json: exit status" $? 0
	jd=$(grep '^{"type":"row",.*"cpu":"all"' "$T/gj" | sed -n 's/.*"disorder":\([0-9]*\),.*/\1/p')
	check_eq "-g --json: a disorder record per disorder counted" \
		"$(grep -c '^{"type":"disorder",' "$T/gj")" "$jd"
	check_eq "-g --json: each with back_ns, its stack, the newest and its stack" \
		"$(grep -c '^{"type":"disorder",.*"event":"sched:sched_switch",.*"back_ns":[0-9]*,"stack":\[{.*"newest":{"time_ns":.*"stack":\[{' "$T/gj")" "$jd"
else
	skip "-g: one CPU, no disorder across CPUs"
fi

# event-lost: each loss the count shows, as found; a last call 500 ms after the bursts
# (-o: the lines printed while the workload prints its own, in files of their own)
"$PP" event-lost -e $E -m 1 -o "$T/l" -- "$W/burst" -l 500 -c 0 3 20000 50 >"$T/l.w" 2>"$T/l.err"
check_eq "event-lost: exit status" $? 0
check "event-lost: the workload's last call" grep -q '^last call$' "$T/l.w"
lost=$(sed -n 's/^perf-prof: lost \([0-9]*\) events (CPU0: \1);.*/\1/p' "$T/l.err")
seen=$(row "$T/l" all 2)
unseen=$(row "$T/l" all 4)
echo "# event-lost: received $seen, unseen $unseen, the engine's lost $lost"
check "event-lost: the one-page ring lost events" test "${lost:-0}" -gt 0
check_eq "event-lost: UNSEEN is the engine's lost count" "$unseen" "$lost"
check_eq "event-lost: the calls received and unseen are the workload's 60001" \
	"$((${seen:-0} + ${unseen:-0}))" 60001
check_eq "event-lost: the lines' losses add up to UNSEEN" \
	"$(awk '/ syscalls:sys_enter_getppid: lost [0-9]+ events$/ { n += $(NF - 1) } END { print n + 0 }' "$T/l")" \
	"$unseen"
check_eq "event-lost: every line the burst's, on CPU 0" \
	"$(grep ': lost [0-9]* events$' "$T/l" | grep -vc ' burst  *[0-9]* \[000\] syscalls:sys_enter_getppid: lost ')" 0
check_eq "event-lost: the event's row" "$(grep "^$E all " "$T/l" | awk '{ print $3, $4 }')" "$seen $unseen"
check "event-lost: nothing else on stderr" test "$(wc -l <"$T/l.err")" -eq 1

"$PP" event-lost -e $E -m 1 --json -o "$T/lj" -- "$W/burst" -l 500 -c 0 3 20000 50 >"$T/lj.w" \
	2>"$T/lj.err"
check_eq "event-lost --json: exit status" $? 0
ju=$(grep '^{"type":"row",.*"cpu":"all"' "$T/lj" | sed -n 's/.*"unseen":\([0-9]*\),.*/\1/p')
je=$(grep '^{"type":"row",.*"cpu":"all"' "$T/lj" | sed -n 's/.*"events":\([0-9]*\),.*/\1/p')
jl=$(sed -n 's/^{"type":"lost",.*,"lost":\([0-9]*\),.*/\1/p' "$T/lj")
check_eq "event-lost --json: unseen is the engine's lost record" "$ju" "$jl"
check_eq "event-lost --json: received and unseen, 60001" "$((${je:-0} + ${ju:-0}))" 60001
check_eq "event-lost --json: the lost_events records add up to unseen" \
	"$(grep '^{"type":"lost_events",.*"cpu":0,"event":"syscalls:sys_enter_getppid","lost":' "$T/lj" |
		sed 's/.*"lost":\([0-9]*\)}$/\1/' | awk '{ n += $1 } END { print n + 0 }')" "$ju"
check_eq "event-lost --json: the event's all row" \
	"$(grep -c "^{\"type\":\"event_counts\",.*\"event\":\"$E\",\"cpu\":\"all\",\"events\":$je,\"unseen\":$ju}" "$T/lj")" 1

"$PP" event-lost -e $E -m 256 -- "$W/burst" -c $C 2 1000 20 >"$T/lb" 2>"$T/lb.err"
check_eq "event-lost -m 256: exit status" $? 0
check_eq "event-lost -m 256: no loss line" "$(grep -c ': lost [0-9]* events$' "$T/lb")" 0
check_eq "event-lost -m 256: 2000 received, none lost or unseen" "$(row "$T/lb" all 2):$(row "$T/lb" all 3):$(row "$T/lb" all 4)" "2000:0:0"
check_eq "event-lost -m 256: nothing on stderr" "$(cat "$T/lb.err")" ""

# a thread that moves between CPU 0 and 1 each burst: a counter per thread and CPU (and with
# -C, per CPU), each sample counted against its own: nothing unseen in a large ring
if [ "$(nproc)" -ge 2 ]; then
	"$PP" event-lost -e $E -m 256 -- "$W/burst" -m 4 1000 10 >"$T/m" 2>"$T/m.err"
	check_eq "moving thread: exit status" $? 0
	check_eq "moving thread: 4000 received, none lost or unseen, on 2 CPUs" \
		"$(row "$T/m" all 2):$(row "$T/m" all 3):$(row "$T/m" all 4):$(row "$T/m" 0 2):$(row "$T/m" 1 2)" \
		"4000:0:0:2000:2000"
	check_eq "moving thread: no loss line" "$(grep -c ': lost [0-9]* events$' "$T/m")" 0
	"$PP" event-lost -e $E -m 256 -C 0-1 -- "$W/burst" -m 4 1000 10 >"$T/mc" 2>"$T/mc.err"
	check_eq "moving thread, -C 0-1: exit status" $? 0
	check "moving thread, -C 0-1: the 4000 calls received (others' too)" \
		test "$(row "$T/mc" all 2)" -ge 4000
	check_eq "moving thread, -C 0-1: none lost or unseen" \
		"$(row "$T/mc" all 3):$(row "$T/mc" all 4)" "0:0"
fi

usage_bad "no -e" "no events" event-care
usage_bad "event-lost: no -e" "no events" event-lost
usage_bad "event-lost: --order" "--order would sort away the disorder" event-lost -e $E --order
usage_bad "event-lost: --overwrite" "event-lost's count of lost events needs every one" event-lost -e $E --overwrite
usage_bad "--order" "--order would sort away the disorder" event-care -e $E --order
usage_bad "--overwrite" "event-care's count of lost events needs every one" event-care -e $E --overwrite
done_tests
