#!/bin/bash
# Counting mode.  stat against tests/work/touch N M (N fresh pages written,
# M sleeps of 1 ms; it reports the context switches the kernel counted for
# it): page-faults = N + the process's start-up faults (measured with N=1)
# within 5, context-switches = its own count + at most 2 (taken between exec
# and main) and a quarter of its preemptions (a busy host preempts it there
# too); a tracepoint counted exactly (getppid_loop), in a command's
# children too, and in threads a -p process creates after the start; a
# group; -i intervals (the last one partial) adding up to the total exactly,
# timed from when the counters were enabled (cpu-clock of a CPU = 1.000 CPUs
# utilized); perf stat's "#" column and times.  percpu-stat's context
# switches agree with perf stat -a over the same run within 2%.
. "$(dirname "$0")/lib.sh"

[ -x "$W/touch" ] && [ -x "$W/getppid_loop" ] || { skip "workloads not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

# value NAME FILE: the total of counter NAME in FILE (the last "stat: total" block);
# a line is "COUNT [UNIT] NAME [# COMMENT] [(SHARE%)]"
value() { awk -v n="$1" '/^stat: total/ { t = 1 } { l = $0; sub(/  [#(].*/, "", l); k = split(l, f, " ") } t && f[k] == n { v = f[1] } END { gsub(",", "", v); print v }' "$2"; }

"$PP" stat -e page-faults,context-switches -- "$W/touch" 1 0 >"$T/base" 2>&1
check_eq "stat: exit status" $? 0
base=$(value page-faults "$T/base")
check_range "stat: a 1-page run's faults (start-up)" "$base" 10 400
"$PP" stat -e page-faults,context-switches -- "$W/touch" 2000 50 >"$T/s" 2>&1
check_eq "stat: exit status (2000 pages, 50 sleeps)" $? 0
pf=$(value page-faults "$T/s")
check_range "stat: page-faults = 1999 more than the 1-page run, within 5" "$((pf - base))" 1994 2004
v=$(sed -n 's/^csw=\([0-9]*\)+\([0-9]*\)$/\1/p' "$T/s")
iv=$(sed -n 's/^csw=\([0-9]*\)+\([0-9]*\)$/\2/p' "$T/s")
check_eq "touch: 50 voluntary switches (its own count)" "$v" 50
cs=$(value context-switches "$T/s")
# (+ 2, and a quarter of its preemptions: those before main and after its count on a busy host)
check_range "stat: context-switches = the workload's own ($v+$iv) + at most 2 + $iv/4" "$cs" $((v + iv)) $((v + iv + 2 + iv / 4))
check "stat: the total's duration" grep -q '^stat: total ([0-9.]* s)$' "$T/s"
check "stat: perf's 'seconds time elapsed'" grep -q '^ *[0-9]*\.[0-9]\{9\} seconds time elapsed$' "$T/s"
check "stat: the command's user and sys time" grep -q '^ *[0-9]*\.[0-9]\{9\} seconds sys$' "$T/s"

# a tracepoint, counted (no record per event)
"$PP" stat -e syscalls:sys_enter_getppid -- "$W/getppid_loop" 123456 >"$T/tp" 2>&1
check_eq "stat -e tracepoint: exactly 123456 getppid" "$(value syscalls:sys_enter_getppid "$T/tp")" 123456
check "stat: thousands separators" grep -q ' 123,456 .*syscalls:sys_enter_getppid$' "$T/tp"

# inherited counters: a command's children, and threads created after the start (-p)
"$PP" stat -e syscalls:sys_enter_getppid -- sh -c "$W/getppid_loop 1000; $W/getppid_loop 2000" >"$T/ch" 2>&1
check_range "stat -- sh -c 'A; B': the children's 1000+2000 getppid (+ the shell's own)" \
	"$(value syscalls:sys_enter_getppid "$T/ch")" 3000 3005
spawn w "$W/thread_churn" 300 3 >/dev/null
sleep 0.5
"$PP" stat -p "$w" -e sched:sched_process_exit >"$T/th" 2>&1
check_eq "stat -p: ends when the process exits, status 0" $? 0
# its threads exit after the start: ~250 of 300 (one every 10 ms); none without inheritance
check_range "stat -p: exits of threads created after the start" "$(value sched:sched_process_exit "$T/th")" 120 301
reap "$w"

# a group, modifiers, msec
"$PP" stat -e '{task-clock,page-faults:u}' -- "$W/touch" 500 0 >"$T/g" 2>&1
check_eq "stat {group}: exit status" $? 0
pfu=$(value page-faults:u "$T/g")
check_range "stat: page-faults:u of 500 pages" "$pfu" 500 800
check "stat: task-clock in msec, CPUs utilized" grep -q '^ *[0-9,]*\.[0-9][0-9] msec  task-clock  *# *[0-9]\.[0-9]\{3\} CPUs utilized$' "$T/g"
check "stat: no running share (not multiplexed)" bash -c "! grep -q '%)' '$T/g'"
check "stat: a rate per task-clock second ('#' column)" grep -q ' page-faults:u  *# *[0-9.]* [KMG]\{0,1\}/sec$' "$T/g"

# -i: intervals, the last one partial (as perf stat -I), whose sum is the total
"$PP" stat -i 200 -e context-switches -- "$W/touch" 1 800 >"$T/i" 2>&1
check_eq "stat -i: exit status" $? 0
n=$(grep -c ' stat: [0-9.]* s$' "$T/i")
want=$(awk '/^stat: total/ { gsub(/[()]/, "", $3); print int($3 / 0.2) + 1 }' "$T/i")
check_range "stat -i 200: interval blocks, one per 200 ms and the last partial ($want)" "$n" $((want - 1)) $((want + 1))
sum=$(awk '/ stat: [0-9.]* s$/ { i = 1; next } /^stat: total/ { i = 0 } i && $2 == "context-switches" { gsub(",", "", $1); s += $1 } END { print s + 0 }' "$T/i")
tot=$(value context-switches "$T/i")
check_eq "stat -i: the intervals add up to the total" "$sum" "$tot"
v=$(sed -n 's/^csw=\([0-9]*\)+\([0-9]*\)$/\1/p' "$T/i")
iv=$(sed -n 's/^csw=\([0-9]*\)+\([0-9]*\)$/\2/p' "$T/i")
# 800 sleeps, but a sleep whose timer fires while the vCPU is preempted before it blocks
# switches no context: the workload's own count is the truth (+ 2 and a quarter of its
# preemptions, as above)
check_range "stat -i: context-switches of 800 sleeps = the workload's own (${v:-?}+${iv:-?}) + at most 2 + ${iv:-0}/4" \
	"$tot" $((${v:-0} + ${iv:-0})) $((${v:-0} + ${iv:-0} + 2 + ${iv:-0} / 4))
# a CPU's cpu-clock runs all the time: 1.000 CPUs utilized in the first interval and in
# total, timed from the enable (opening 6 tracepoints takes tens of ms: counted in the first
# interval's time before, 0.60-0.92 here then)
"$PP" stat -C 0 -i 200 -e cpu-clock,sched:sched_switch,sched:sched_wakeup,irq:softirq_entry,timer:hrtimer_expire_entry,timer:timer_start,syscalls:sys_enter_getppid -- sleep 0.5 >"$T/c" 2>&1
check_eq "stat -C 0 -i: exit status" $? 0
u=$(awk '$3 == "cpu-clock" && $5 != "" { print $5 }' "$T/c")
check_range "stat -C 0 -i 200: cpu-clock lines with CPUs utilized (intervals, total)" \
	"$(echo $u | wc -w)" 3 8
check_range "stat -C 0: the first interval's cpu-clock over its time shown" "$(echo $u | cut -d' ' -f1)" 0.96 1.03
check_range "stat -C 0: the total's cpu-clock over its time shown" "$(echo $u | awk '{ print $NF }')" 0.96 1.02

# -p, per thread
spawn w "$W/touch" 1 3000 >/dev/null
sleep 0.2
"$PP" stat -p "$w" -e context-switches --perins -i 300 >"$T/p" 2>&1 &
pp=$!
sleep 1; kill -INT $pp; wait $pp
check_eq "stat -p: SIGINT ends it, status 0" $? 0
check "stat -p --perins: a row for the thread" grep -q "^touch:$w  *[0-9,]* *context-switches$" "$T/p"
"$PP" stat -p "$w" -C 0 -e context-switches -i 100 >"$T/pc" 2>"$T/pc.err" &
pp=$!
sleep 0.5; kill -INT $pp; wait $pp
check "stat -p -C: says -C is ignored for a thread's counters" grep -q -- '-C is ignored with -p/-t' "$T/pc.err"
reap "$w"

# errors
"$PP" stat -e nosuchevent -- true >/dev/null 2>"$T/e1"
check_eq "stat: unknown event: status 2" $? 2
check "stat: unknown event: one line naming it" grep -q "nosuchevent" "$T/e1"
"$PP" stat -e '{cs,page-faults' -- true >/dev/null 2>"$T/e2"
check_eq "stat: unbalanced group: status 2" $? 2
"$PP" stat -e nosys:nothing -- true >/dev/null 2>"$T/e3"
check_eq "stat: unknown tracepoint: status 2" $? 2
"$PP" stat -p 999999999 >/dev/null 2>"$T/e4"
check_eq "stat -p beyond pid_max: status 2" $? 2
"$PP" stat -p 999999 >/dev/null 2>"$T/e4"
check_eq "stat: no such process: status 1" $? 1
check "stat: no such process: says so" grep -q "no such process: 999999" "$T/e4"

# percpu-stat against perf stat -a, on the same run
if command -v perf >/dev/null; then
	"$PP" percpu-stat -- perf stat -a -x, -e context-switches -o "$T/perf" -- \
		perf bench sched pipe -l 100000 >"$T/pc" 2>&1
	check_eq "percpu-stat: exit status" $? 0
	ours=$(awk '$1 == "all" { v = $2 } END { print v }' "$T/pc")
	theirs=$(grep context-switches "$T/perf" | cut -d, -f1)
	check_range "percpu-stat: context switches ($ours) within 2% of perf stat -a's ($theirs)" \
		"$ours" $((theirs * 98 / 100)) $((theirs * 102 / 100 + 20))
	check "percpu-stat: a row per CPU" grep -q '^1 ' "$T/pc"
	check "percpu-stat: softirq and hrtimer columns" grep -q '^CPU .* softirq .*hrtimer' "$T/pc"
	"$PP" percpu-stat -i 300 -- sleep 1 >"$T/pi" 2>&1
	check_eq "percpu-stat -i: exit status" $? 0
	check_range "percpu-stat -i 300: interval blocks (the last partial)" "$(grep -c ' percpu-stat: interval ' "$T/pi")" 3 5
	psum=$(awk '/ percpu-stat: interval / { i = 1 } / percpu-stat: total / { i = 0 } i && $1 == "all" { s += $2 } END { print s + 0 }' "$T/pi")
	ptot=$(awk '/ percpu-stat: total / { t = 1 } t && $1 == "all" { print $2 }' "$T/pi")
	check_eq "percpu-stat -i: the intervals' switches add up to the total" "$psum" "$ptot"
else
	skip "percpu-stat vs perf stat: perf is not installed"
fi
# hwstat and split-lock need a hardware PMU
if [ -e /sys/bus/event_source/devices/cpu ]; then
	"$PP" hwstat -- "$W/getppid_loop" 1000000 >"$T/hw" 2>&1
	check_eq "hwstat: exit status" $? 0
	check "hwstat: an IPC" grep -q '^ *[0-9]*\.[0-9][0-9]  *IPC (instructions / cycles)$' "$T/hw"
	"$PP" split-lock -C 0 -- sleep 0.2 >"$T/sl" 2>&1
	check_eq "split-lock: exit status" $? 0
	check "split-lock: a count" grep -q ' split-lock$' "$T/sl"
	# --test: 1000 split locks taken on CPU 0 while it counts
	"$PP" split-lock --test -C 0 -- sleep 0.2 >"$T/slt" 2>&1
	check_eq "split-lock --test: exit status" $? 0
	check_range "split-lock --test: CPU 0 counts its 1000" \
		"$(awk '$NF == "split-lock" { gsub(",", "", $1); print $1; exit }' "$T/slt")" 1000 1000000000
else
	"$PP" hwstat -- true >/dev/null 2>"$T/hw"
	check_eq "hwstat without a PMU: status 1" $? 1
	check_eq "hwstat without a PMU: one line saying so" "$(grep -c 'needs a hardware PMU, and this host has none' "$T/hw")" 1
	"$PP" split-lock -- true >/dev/null 2>"$T/sl"
	check_eq "split-lock without a PMU: status 1" $? 1
	check_eq "split-lock without a PMU: one line saying so" "$(grep -c 'needs a hardware PMU, and this host has none' "$T/sl")" 1
	for a in "--test" "-T 1 -g --test -C 0" "-G"; do
		"$PP" split-lock $a -- true >/dev/null 2>"$T/sl"
		check_eq "split-lock $a without a PMU: status 1" $? 1
		check_eq "split-lock $a without a PMU: the same one line" "$(cat "$T/sl")" \
			"perf-prof split-lock: needs a hardware PMU, and this host has none (no /sys/bus/event_source/devices/cpu: a VM without a virtual PMU?): split locks cannot be counted here"
	done
	# a group whose member cannot be opened: the whole run is refused, naming it
	"$PP" stat -e '{cpu-clock,cycles}' -- true >/dev/null 2>"$T/gm"
	check_eq "stat {cpu-clock,cycles} without a PMU: status 1" $? 1
	check "stat {cpu-clock,cycles}: names the member" grep -q '^perf-prof stat: cycles: no hardware PMU on this host' "$T/gm"
fi
# -g without -T: a usage error on any host (the stacks are the samples')
"$PP" split-lock -g -- true >/dev/null 2>"$T/slg"
check_eq "split-lock -g without -T: status 2" $? 2
check_eq "split-lock -g without -T: says why" "$(cat "$T/slg")" \
	"perf-prof split-lock: -g: stacks are of the samples -T N takes (no -T: counts only)"
"$PP" percpu-stat -p 1 >/dev/null 2>"$T/e5"
check_eq "percpu-stat -p: status 2" $? 2
# --period: the counters read every period, each -i interval a row of the
# period's counts and their total.  burst -s 3 1000 400 makes 3 bursts of
# exactly 1000 getppid, 400 ms apart from its start (the first 400 ms after
# it), none otherwise (it sleeps), and ends 200 ms after the last: two
# intervals of -i 1000, 10 slots of 100 ms then a partial one.  Exact: each
# row's slots add up to its total, the slots of the run to 3000, the run's
# total; a burst lasts a few ms: its 1000 in one slot, or two adjacent
# ones when a period ends during it, so the slots holding counts make 3
# runs of exactly 1000.  Placement, with margins: a slot holds what came
# before its read, and the timer starts before the command: the first
# burst, 400 ms after the command's start, is in slot 4 at the earliest,
# and 7 at the latest (300 ms for exec and start-up on a loaded host);
# the runs are as far apart as the bursts were (their at_ns), within 2
# periods (a read late by a period or more moves counts later).
if [ -x "$W/burst" ]; then
	# slots FILE FIELD: the slots of the getppid rows (event in FIELD), in order, "-" as 0
	slots() { awk -v f="$2" '$f == "syscalls:sys_enter_getppid" && NF > f + 1 {
		for (i = f + 1; i < NF; i++) { v = $i; gsub(",", "", v); printf "%s ", v == "-" ? 0 : v } }' "$1"; }
	# rows_ok FILE FIELD: rows whose slots do not add up to their total ("" if none)
	rows_ok() { awk -v f="$2" '$f == "syscalls:sys_enter_getppid" && NF > f + 1 {
		s = 0; for (i = f + 1; i < NF; i++) { v = $i; gsub(",", "", v); if (v != "-") s += v }
		t = $NF; gsub(",", "", t); if (s != t) print NR ": " $0 }' "$1"; }
	# runs SLOTS: each run of adjacent slots holding counts, "START:SUM"
	runs() { echo "$1" | awk '{ for (i = 1; i <= NF; i++) { if ($i > 0) { if (!r) st = i - 1; r += $i }
		else if (r) { printf "%d:%d ", st, r; r = 0 } } if (r) printf "%d:%d ", st, r }'; }
	# placed FILE RUNS: the first run in slots 4..7; the runs as far apart as the bursts, within 2
	placed() { awk -v runs="$2" '/^burst [0-9]+ at_ns=/ { split($3, a, "="); at[n++] = a[2] }
		END { k = split(runs, r, " "); if (k != n || n != 3) { print "runs " k ", bursts " n; exit }
			for (i = 1; i <= k; i++) { split(r[i], x, ":"); st[i - 1] = x[1] }
			if (st[0] < 4 || st[0] > 7) print "first burst in slot " st[0]
			for (i = 1; i < n; i++) { d = st[i] - st[i - 1]; e = (at[i] - at[i - 1]) / 1e8
				if (d - e > 2 || e - d > 2) print "runs " d " slots apart, bursts " e " periods" } }' "$1"; }

	"$PP" stat -e syscalls:sys_enter_getppid -i 1000 --period 100ms -- "$W/burst" -s 3 1000 400 \
		>"$T/pd" 2>"$T/pd.err"
	check_eq "stat --period: exit status" $? 0
	check_eq "stat --period: nothing on stderr" "$(cat "$T/pd.err")" ""
	check "stat --period: an interval of 10 periods of 100ms" \
		grep -q '^.* stat: [0-9.]* s, 10 periods of 100ms$' "$T/pd"
	check "stat --period: the header" grep -q '^EVENT  *COUNTS  *TOTAL$' "$T/pd"
	check_eq "stat --period: each row's slots add up to its total" "$(rows_ok "$T/pd" 1)" ""
	s=$(slots "$T/pd" 1)
	check_eq "stat --period: the slots of the run add up to the 3000 calls" \
		"$(echo $s | awk '{ for (i = 1; i <= NF; i++) n += $i } END { print n }')" 3000
	check_eq "stat --period: the run's total" "$(value syscalls:sys_enter_getppid "$T/pd")" 3000
	check_eq "stat --period: the first interval's 10 slots" \
		"$(awk '$1 == "syscalls:sys_enter_getppid" && NF > 2 { print NF - 2; exit }' "$T/pd")" 10
	r=$(runs "$s")
	echo "# stat --period: slots $s; runs (start:count) $r"
	check_eq "stat --period: each burst's 1000 in one slot or two adjacent" \
		"$(echo $r | sed 's/[0-9]*://g')" "1000 1000 1000"
	check_eq "stat --period: the bursts' slots follow their times" "$(placed "$T/pd" "$r")" ""

	# --perins: the thread's row; --json: the same numbers; a bare --period is ns
	"$PP" stat -e syscalls:sys_enter_getppid -i 1000 --period 100000000 --perins -- \
		"$W/burst" -s 3 1000 400 >"$T/pi" 2>&1
	check_eq "stat --period --perins: exit status" $? 0
	check "stat --period 100000000 (ns): periods of 100ms" grep -q ' 10 periods of 100ms$' "$T/pi"
	check "stat --period --perins: the header" grep -q '^THREAD  *EVENT  *COUNTS  *TOTAL$' "$T/pi"
	check_eq "stat --period --perins: each row's slots add up" "$(rows_ok "$T/pi" 2)" ""
	r=$(runs "$(slots "$T/pi" 2)")
	check_eq "stat --period --perins: the thread's bursts" "$(echo $r | sed 's/[0-9]*://g')" \
		"1000 1000 1000"
	check_eq "stat --period --perins: its rows are the thread's" \
		"$(awk '$2 == "syscalls:sys_enter_getppid" && NF > 3 { print $1 }' "$T/pi" | sort -u)" \
		"burst:$(sed -n 's/^pid=//p' "$T/pi")"
	"$PP" stat -e syscalls:sys_enter_getppid --period 100ms --json -- "$W/burst" -s 3 1000 400 \
		>"$T/pj" 2>&1
	check_eq "stat --period --json: exit status" $? 0
	j=$(grep '^{"type":"counts"' "$T/pj")
	check_eq "stat --period --json: every record an interval's, its counts adding up to its total" \
		"$(echo "$j" | jq -r 'select(.scope == "interval" and .period_ns == 100000000 and
			.event == "syscalls:sys_enter_getppid" and ([.counts[] // 0] | add) == .total) | 1' |
			wc -l)" "$(echo "$j" | wc -l)"
	check_eq "stat --period --json (-i 1000 by default): 10 counts, then the partial interval's" \
		"$(echo "$j" | jq -r '.counts | length' | head -1)" 10
	check_eq "stat --period --json: the intervals' totals add up to 3000" \
		"$(echo "$j" | jq -s 'map(.total) | add')" 3000
	check_eq "stat --period --json: the bursts" \
		"$(runs "$(echo "$j" | jq -r '.counts[] // 0' | tr '\n' ' ')" | sed 's/[0-9]*://g')" \
		"1000 1000 1000 "
	# a --period longer than -i: swapped, as the original's (reads every 100 ms, prints every 500)
	"$PP" stat -e syscalls:sys_enter_getppid -i 100 --period 500ms -- "$W/burst" -s 1 1000 300 \
		>"$T/ps" 2>&1
	check_eq "stat -i 100 --period 500ms: exit status" $? 0
	check "stat -i 100 --period 500ms: slots of 100ms" grep -q ' periods\? of 100ms$' "$T/ps"
	check_eq "stat -i 100 --period 500ms: the 1000 calls in the slots" \
		"$(slots "$T/ps" 1 | awk '{ for (i = 1; i <= NF; i++) n += $i } END { print n }')" 1000
else
	skip "stat --period: workload burst not built"
fi
usage_bad "stat --period 300ms -i 1000" "the interval must be a whole number of periods" \
	stat -e cs -i 1000 --period 300ms -- true
usage_bad "stat --period 10us" "--period 10us: between 1ms and 60s" stat -e cs --period 10us -- true
usage_bad "stat --period 1ms -i 2000" "2000 periods an interval, at most 1000" \
	stat -e cs -i 2000 --period 1ms -- true
done_tests
