#!/usr/bin/env bash
# The original's ring options (issue 21): --overwrite, a flight recorder
# (the kernel overwrites the oldest records, perf-prof reads the newest at
# the end, at SIGUSR1 and at -i), and --prio LIST (only threads whose
# kernel priority is in LIST) on oncpu, profile, task-state and rundelay.
. "$(dirname "$0")/lib.sh"

for w in ow_names prio_pair; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done

# the N in "prev_comm=owXNNNNN" of each line, in the order printed
names() { grep -o "prev_comm=ow$2[0-9]*" "$1" | sed "s/prev_comm=ow$2//; s/^0*//"; }
# ascending NUMBERS...: each at least the one before (a preempted sleep repeats a name)
ascending() { awk 'NR > 1 && $1 + 0 < p + 0 { bad = 1 } { p = $1 } END { exit bad }'; }

# --- --overwrite at the end: only the newest records, in time order ---
# (on CPU 0 only, the workload from its start: each CPU has a ring of its own, each keeps its newest)
taskset -c 0 "$PP" trace -e sched:sched_switch --overwrite -m 1 -- "$W/ow_names" 1000 \
	>"$T/o.out" 2>"$T/o.err"
check_eq "trace --overwrite -m 1 -- ow_names 1000: exit 0" $? 0
check_eq "trace --overwrite: nothing on stderr" "$(cat "$T/o.err")" ""
n=$(wc -l <"$T/o.out")
# one page (4096 bytes) holds at most 4096 / 104 sched_switch records (a record is > 104 bytes)
check_range "trace --overwrite -m 1: what one page holds" "$n" 5 39
check_eq "trace --overwrite: every line a sched_switch of the workload" \
	"$(grep -c 'sched:sched_switch: prev_comm=owA' "$T/o.out")" "$n"
check_eq "trace --overwrite: the newest record kept (its last name)" \
	"$(names "$T/o.out" A | tail -1)" 1000
first=$(names "$T/o.out" A | head -1)
check_range "trace --overwrite: the oldest overwritten (the first name kept)" "$first" $((1000 - 39)) 1000
check "trace --overwrite: in time order" ascending < <(names "$T/o.out" A)
# the same without --overwrite: all of them
"$PP" trace -e sched:sched_switch -- "$W/ow_names" 1000 >"$T/a.out" 2>"$T/a.err"
check_eq "trace (no --overwrite): the oldest name too" "$(names "$T/a.out" A | sort -n | head -1)" 1

# --- -N with --overwrite: counts the records delivered ---
"$PP" trace -e sched:sched_switch --overwrite -m 1 -N 5 -- "$W/ow_names" 300 >"$T/n.out" 2>"$T/n.err"
check_eq "trace --overwrite -N 5: exit 0" $? 0
check_eq "trace --overwrite -N 5: 5 lines" "$(wc -l <"$T/n.out")" 5
check_eq "trace --overwrite -N 5: nothing on stderr" "$(cat "$T/n.err")" ""

# --- SIGUSR1 during the run: the content so far, each record once ---
mkfifo "$T/go"
"$PP" trace -e sched:sched_switch --overwrite -m 1 -- "$W/ow_names" 300 300 "$T/ready" "$T/go" \
	>"$T/u.out" 2>"$T/u.err" &
p=$!
for i in $(seq 600); do [ -e "$T/ready" ] || ! kill -0 $p 2>/dev/null && break; sleep 0.1; done
sleep 0.2 # (the workload blocks on the FIFO)
check_eq "SIGUSR1: nothing printed before it" "$(wc -c <"$T/u.out")" 0
kill -USR1 $p
for i in $(seq 600); do
	grep -q 'prev_comm=owA00300' "$T/u.out" || ! kill -0 $p 2>/dev/null && break
	sleep 0.1
done
check "SIGUSR1: the first phase's newest record printed at once" grep -q 'prev_comm=owA00300' "$T/u.out"
check_eq "SIGUSR1: nothing of the second phase yet" "$(grep -c 'prev_comm=owB' "$T/u.out")" 0
# (read-write: never blocks, also when the workload did not start)
echo go 1<>"$T/go"
wait $p
check_eq "SIGUSR1 run: exit 0" $? 0
check_eq "SIGUSR1 run: nothing on stderr" "$(cat "$T/u.err")" ""
check_eq "SIGUSR1 run: the end printed the second phase's newest" "$(names "$T/u.out" B | tail -1)" 300
check_eq "SIGUSR1 run: the first phase's records before the second's" \
	"$(grep -o 'prev_comm=ow[AB]' "$T/u.out" | uniq | tr -d '\n')" "prev_comm=owAprev_comm=owB"
check_eq "SIGUSR1 run: no record printed twice" "$(sort "$T/u.out" | uniq -d | wc -l)" 0

# --- where --overwrite cannot work: one line, status 2 ---
"$PP" trace -e sched:sched_switch --overwrite --watermark 10 -- true >"$T/e.out" 2>"$T/e.err"
check_eq "--overwrite --watermark: status 2" $? 2
check_eq "--overwrite --watermark: one line" "$(cat "$T/e.err")" \
	"perf-prof trace: --watermark has no use with --overwrite (its rings are read at the end, at SIGUSR1 and at -i, never on a wakeup)"
"$PP" cpu-util --overwrite -- true >"$T/e.out" 2>"$T/e.err"
check_eq "cpu-util --overwrite: status 2" $? 2
check_eq "cpu-util --overwrite: one line" "$(cat "$T/e.err")" \
	"perf-prof cpu-util: --overwrite keeps only the newest records: cpu-util's busy time (samples per interval) needs every one as it comes (run it without --overwrite)"
"$PP" watchdog --overwrite -- true >"$T/e.out" 2>"$T/e.err"
check_eq "watchdog --overwrite: status 2" $? 2
check "watchdog --overwrite: one line" [ "$(wc -l <"$T/e.err")" = 1 ]

# --- --prio LIST: a SCHED_FIFO 50 thread (prio 49) and a nice-0 one (prio 120) ---
# run NAME 'PROFILER ARGS': the profiler on prio_pair 1; sets RT, NRM (tids), RTN, NRMN (naps)
run() {
	"$PP" $2 -- "$W/prio_pair" 1 >"$T/$1.out" 2>"$T/$1.err"
	echo $? >"$T/$1.rc"
	RT=$(sed -n 's/^rt tid=\([0-9]*\) .*/\1/p' "$T/$1.out")
	NRM=$(sed -n 's/^nrm tid=\([0-9]*\) .*/\1/p' "$T/$1.out")
	RTN=$(sed -n 's/^rt tid=[0-9]* naps=//p' "$T/$1.out")
	NRMN=$(sed -n 's/^nrm tid=[0-9]* naps=//p' "$T/$1.out")
}
clean() { # NAME WHAT: exit 0 and nothing on stderr
	check_eq "$2: exit 0" "$(cat "$T/$1.rc")" 0
	check_eq "$2: nothing on stderr" "$(cat "$T/$1.err")" ""
}
run probe "task-state --perins"
if grep -q '^nort:' "$T/probe.out"; then
	skip "--prio: SCHED_FIFO refused here ($(cat "$T/probe.out"))"
	done_tests
	exit
fi
check "without --prio: both threads" grep -q ' rt_burst .* nrm_burst\| nrm_burst .* rt_burst' \
	<(tr '\n' ' ' <"$T/probe.out")

# task-state: the S row of the chosen thread counts its naps, the other has no row
run ts_rt "task-state --perins --prio 1-99"
clean ts_rt "task-state --perins --prio 1-99"
check_eq "task-state --prio 1-99: rows of rt_burst only" \
	"$(awk '/^[RSDTtI] /{print $2}' "$T/ts_rt.out" | sort -u)" rt_burst
check_range "task-state --prio 1-99: rt_burst's S calls are its naps ($RTN)" \
	"$(awk -v t="$RT" '$1 == "S" && $3 == t {print $4}' "$T/ts_rt.out")" $((RTN - 2)) $((RTN + 1))
run ts_n "task-state --perins --prio 120"
clean ts_n "task-state --perins --prio 120"
check_eq "task-state --prio 120: no rt_burst row" "$(grep -c ' rt_burst ' "$T/ts_n.out")" 0
check_range "task-state --prio 120: nrm_burst's S calls are its naps ($NRMN)" \
	"$(awk -v t="$NRM" '$1 == "S" && $3 == t {print $4}' "$T/ts_n.out")" $((NRMN - 2)) $((NRMN + 1))

# profile: ~1 cpu-clock sample per ms of CPU; each nap is followed by 5 ms of it
run pf_rt "profile -F 997 --prio 1-99 --perins"
clean pf_rt "profile -F 997 --prio 1-99"
# (prio_pair is real-time too for a moment: the parent while it creates
# rt_burst, and rt_burst itself before it takes its name; a sample may land
# there, never in nrm_burst)
check_eq "profile --prio 1-99: samples of rt_burst only (and prio_pair's real-time moment)" \
	"$(grep -o '^[a-z_]*:[0-9]*: [0-9]* samples' "$T/pf_rt.out" | cut -d: -f1 |
		grep -vx prio_pair | sort -u)" rt_burst
check_range "profile --prio 1-99: prio_pair's real-time moment, 5 samples at most" \
	"$(sed -n 's/^prio_pair:[0-9]*: \([0-9]*\) samples.*/\1/p' "$T/pf_rt.out" |
		awk '{n += $1} END {print n + 0}')" 0 5
check_range "profile --prio 1-99: rt_burst's samples, ~5 per nap ($RTN naps)" \
	"$(sed -n "s/^rt_burst:$RT: \([0-9]*\) samples.*/\1/p" "$T/pf_rt.out")" $((RTN * 3)) $((RTN * 8))
run pf_n "profile -F 997 --prio 120 --perins"
clean pf_n "profile -F 997 --prio 120"
check_eq "profile --prio 120: no sample of rt_burst" "$(grep -c '^rt_burst:' "$T/pf_n.out")" 0
check_range "profile --prio 120: nrm_burst's samples, ~5 per nap ($NRMN naps)" \
	"$(sed -n "s/^nrm_burst:$NRM: \([0-9]*\) samples.*/\1/p" "$T/pf_n.out")" $((NRMN * 3)) $((NRMN * 8))

# oncpu: the thread's ms on CPU, the other not shown
run oc_rt "oncpu --prio 1-99"
clean oc_rt "oncpu --prio 1-99"
check_eq "oncpu --prio 1-99: rt_burst only (and prio_pair's real-time moment)" \
	"$(awk '/^[a-z_]*:[0-9]+ /{sub(/:.*/, "", $1); print $1}' "$T/oc_rt.out" |
		grep -vx prio_pair | sort -u)" rt_burst
check_range "oncpu --prio 1-99: rt_burst's ms, ~5 per nap ($RTN naps)" \
	"$(awk -v k="rt_burst:$RT" '$1 == k {v = $2} END {print v}' "$T/oc_rt.out")" \
	$((RTN * 4)) $((RTN * 8))
run oc_n "oncpu --prio 120"
clean oc_n "oncpu --prio 120"
check_eq "oncpu --prio 120: no rt_burst" "$(grep -c '^rt_burst:' "$T/oc_n.out")" 0
check "oncpu --prio 120: nrm_burst" grep -q "^nrm_burst:$NRM " "$T/oc_n.out"

# rundelay: wakeups of the chosen thread, one per nap
run rd_rt "rundelay --perins --prio 1-99"
clean rd_rt "rundelay --perins --prio 1-99"
check_eq "rundelay --prio 1-99: rows of rt_burst's tid only" \
	"$(awk '/=> switch-in/{print $4}' "$T/rd_rt.out" | sort -u)" "$RT"
# (one per nap, and up to two at its start: a thread born real-time waits for
# its creator to set its policy; fewer where a wakeup sample raised in an idle
# CPU's context is not delivered: on this kind of VM, from 9 to all of 58 on
# the same run)
check_range "rundelay --prio 1-99: rt_burst's wakeups, one per nap ($RTN) and two more at most" \
	"$(awk -v t="$RT" '$1 == "wakeup" && $4 == t {print $5}' "$T/rd_rt.out")" 1 $((RTN + 2))
run rd_n "rundelay --perins --prio 120"
clean rd_n "rundelay --perins --prio 120"
check_eq "rundelay --prio 120: no wakeup of rt_burst" \
	"$(awk -v t="$RT" '$1 == "wakeup" && $4 == t' "$T/rd_n.out" | wc -l)" 0
# (nrm_burst's wakeups on CPU 1 may all be lost here, as without --prio: its other rows)
check "rundelay --prio 120: nrm_burst's rows" \
	awk -v t="$NRM" '/=> switch-in/ && $4 == t {n++} END {exit !n}' "$T/rd_n.out"

# --prio refused: one line, status 2
for bad in 140 5-3 x 1-; do
	"$PP" task-state --prio "$bad" -- true >"$T/b.out" 2>"$T/b.err"
	check_eq "task-state --prio $bad: status 2" $? 2
	check_eq "task-state --prio $bad: one line" "$(cat "$T/b.err")" \
		"perf-prof task-state: bad --prio '$bad' in '$bad' (kernel priorities 0-139: 0-99 real-time, 100-139 normal, e.g. 1-99 or 120)"
done

done_tests
