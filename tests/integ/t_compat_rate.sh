#!/usr/bin/env bash
# --sampling-limit and --perfeval-cpus/--perfeval-pids, as the original spells
# them (issue 21), every profiler's options (run_group):
#  - --sampling-limit N: at most N samples a second per CPU (per thread when
#    the events follow threads) reach the profiler; the seconds are those of
#    the printed times, so one second's lines of a CPU (thread) are at most
#    N.  The rest are counted and said at the end on stderr, and what was
#    printed plus what was dropped is every event the kernel wrote.  A
#    pairing profiler hears of each hole as of lost events: it never pairs
#    across one.
#  - --perfeval-cpus/--perfeval-pids: with each interval and at the end, a
#    line on the output (a "perfeval" object under --json) whose records
#    are the samples of those CPUs / processes: as many as were printed.
#  - malformed values: one line, status 2.
. "$(dirname "$0")/lib.sh"

[ -x "$W/getppid_loop" ] || { skip "workload getppid_loop not built (make workloads)"; done_tests; exit; }
sfx=$(($$ % 100000))
GP=gp_rt_$sfx
ln -s "$W/getppid_loop" "$T/$GP"
EV="syscalls:sys_enter_getppid/comm == \"$GP\"/"
# three bursts 0.7 s apart: the run spans at least two printed seconds
BURSTS="$T/$GP 30000 && sleep 0.7 && $T/$GP 30000 && sleep 0.7 && $T/$GP 30000"

# dropped FILE LIMIT UNIT: N of the one stderr line "--sampling-limit dropped N samples
# over LIMIT a second per UNIT (...)", or "bad" when FILE is not exactly that line
dropped() {
	awk -v lim="$2" -v unit="$3" 'END { if (NR != 1) print "bad" }
		NR == 1 { re = "^perf-prof: --sampling-limit dropped [0-9]+ samples over " lim \
			" a second per " unit " \\(.*\\); a higher limit, a kernel filter or fewer events delivers more$"
			if ($0 ~ re) print $4; else print "bad" }' "$1"
}
# most FILE KEYCOL: the most event lines ($6 ~ sys_enter) of one printed second and
# column KEYCOL (5: the [CPU], 4: the tid)
most() {
	awk -v k="$2" '$6 ~ /sys_enter/ { n[substr($2, 1, 8) " " $k]++ }
		END { m = 0; for (x in n) if (n[x] > m) m = n[x]; print m }' "$1"
}
events() { grep -c 'sys_enter' "$1"; }

# --- per CPU: -C 0 and a workload pinned there ---
"$PP" trace -e "$EV" --sampling-limit 100 --cpus 0 -- taskset -c 0 sh -c "$BURSTS" \
	>"$T/c.out" 2>"$T/c.err"
check_eq "trace --sampling-limit 100 --cpus 0: exit 0" $? 0
d=$(dropped "$T/c.err" 100 CPU)
check "per CPU: one line on stderr, the dropped count (stderr: $(head -c 300 "$T/c.err"))" \
	test "$d" != bad
check "per CPU: CPU0 dropped all of them" grep -q "(CPU0: $d);" "$T/c.err"
check_eq "per CPU: printed + dropped = the 90000 calls" $(($(events "$T/c.out") + ${d/bad/0})) 90000
check_eq "per CPU: at most 100 lines a second on CPU 0 (and a full second)" \
	"$(most "$T/c.out" 5)" 100
check_eq "per CPU: every line from CPU 0" "$(awk '$6 ~ /sys_enter/ && $5 != "[000]"' "$T/c.out" | wc -l)" 0

# --- per thread: the workload's thread, the brief's own command line (filtered on getppid) ---
"$PP" trace -e 'raw_syscalls:sys_enter/id == 110/' --sampling-limit 100 -- "$T/$GP" 90000 \
	>"$T/t.out" 2>"$T/t.err"
check_eq "trace -e raw_syscalls:sys_enter/id == 110/ --sampling-limit 100 -- gp 90000: exit 0" $? 0
d=$(dropped "$T/t.err" 100 thread)
check "per thread: one line on stderr, the dropped count (stderr: $(head -c 300 "$T/t.err"))" \
	test "$d" != bad
tid=$(awk '$6 ~ /sys_enter/ { print $4; exit }' "$T/t.out")
check "per thread: the workload's thread dropped all of them" grep -q "(tid $tid: $d);" "$T/t.err"
check_eq "per thread: printed + dropped = the 90000 calls" $(($(events "$T/t.out") + ${d/bad/0})) 90000
check_eq "per thread: at most 100 lines a second (and a full second)" "$(most "$T/t.out" 4)" 100

# --- unfiltered raw_syscalls, several processes: each thread its own 100 a second ---
"$PP" trace -e raw_syscalls:sys_enter --sampling-limit 100 -- sh -c "$BURSTS" \
	>"$T/r.out" 2>"$T/r.err"
check_eq "trace -e raw_syscalls:sys_enter --sampling-limit 100 -- sh -c BURSTS: exit 0" $? 0
check "raw_syscalls: the dropped line (stderr: $(head -c 300 "$T/r.err"))" \
	test "$(dropped "$T/r.err" 100 thread)" != bad
check_eq "raw_syscalls: at most 100 lines a second per thread" "$(most "$T/r.out" 4)" 100
check_eq "raw_syscalls: the three bursts, each its own thread" \
	"$(awk '$3 == "'"$GP"'" { t[$4] = 1 } END { print length(t) }' "$T/r.out")" 3

# --- --order and --json: the same count, the run's lost object carries it ---
"$PP" trace --order --json -e "$EV" --sampling-limit 100 -- "$T/$GP" 50000 \
	>"$T/j.out" 2>"$T/j.err"
check_eq "trace --order --json --sampling-limit 100: exit 0" $? 0
d=$(dropped "$T/j.err" 100 thread)
check "--json: the dropped line on stderr" test "$d" != bad
check_eq "--json: the lost object's sampling_limit_dropped" \
	"$(grep '"type":"lost"' "$T/j.out" | grep -o '"sampling_limit_dropped":[0-9]*' | cut -d: -f2)" "$d"
check_eq "--json --order: events + dropped = 50000" \
	$(($(grep -c '"type":"event"' "$T/j.out") + ${d/bad/0})) 50000

# --- 0 is no limit, as the original reads it ---
"$PP" trace -e "$EV" --sampling-limit 0 -- "$T/$GP" 3000 >"$T/z.out" 2>"$T/z.err"
check_eq "--sampling-limit 0: exit 0" $? 0
check_eq "--sampling-limit 0: every event" "$(events "$T/z.out")" 3000
check_eq "--sampling-limit 0: nothing on stderr" "$(cat "$T/z.err")" ""

# --- pairing across a hole: multi-trace forgets what was pending, pairs nothing across it ---
# One sample a second: the first enter is pending when the rest of the
# second is dropped; were the hole unknown, it would pair with an exit of a
# later second.
"$PP" multi-trace -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid -k common_pid \
	--sampling-limit 1 -- "$T/$GP" 400000 >"$T/m.out" 2>"$T/m.err"
check_eq "multi-trace --sampling-limit 1: exit 0" $? 0
check "multi-trace: the dropped line" test "$(dropped "$T/m.err" 1 thread)" != bad
check_eq "multi-trace: no pair across a hole" \
	"$(awk '$2 == "=>" && $4 + 0 > 0' "$T/m.out" | wc -l)" 0
check "multi-trace: the pending pair dropped at the hole, said" \
	grep -qE '^multi-trace: [1-9][0-9]* pending pairs? dropped after lost events' "$T/m.out"

# ... and without time order (keyed by CPU, system-wide on CPU 0): the lost hook at once
rm -f "$T/mc.err" # not an earlier run's "monitoring"
"$PP" multi-trace -e "syscalls:sys_enter_getppid/comm == \"$GP\"/" \
	-e "syscalls:sys_exit_getppid/comm == \"$GP\"/" --sampling-limit 1 --cpus 0 -v \
	>"$T/mc.out" 2>"$T/mc.err" &
pp=$!
for i in $(seq 600); do
	grep -q '^perf-prof: monitoring' "$T/mc.err" && break
	kill -0 $pp 2>/dev/null || break
	sleep 0.1
done
taskset -c 0 "$T/$GP" 400000 >/dev/null
kill -INT $pp
wait $pp
check_eq "multi-trace --cpus 0 --sampling-limit 1 (no order), stopped by SIGINT: exit 0" $? 0
check "multi-trace --cpus 0: the dropped line" grep -q '^perf-prof: --sampling-limit dropped [0-9]* samples over 1 a second per CPU (CPU0: ' "$T/mc.err"
check_eq "multi-trace --cpus 0: no pair across a hole" \
	"$(awk '$2 == "=>" && $4 + 0 > 0' "$T/mc.out" | wc -l)" 0
check "multi-trace --cpus 0: the pending pair dropped at the hole, said" \
	grep -qE '^multi-trace: [1-9][0-9]* pending pairs? dropped after lost events' "$T/mc.out"

# --- --perfeval-cpus: records of CPU 0 = the events printed ---
"$PP" trace -e "$EV" --perfeval-cpus 0 -i 500 --cpus 0 -- taskset -c 0 \
	sh -c "$T/$GP 2000 && sleep 0.6 && $T/$GP 3000" >"$T/e.out" 2>"$T/e.err"
check_eq "trace --perfeval-cpus 0 -i 500: exit 0" $? 0
check_eq "--perfeval-cpus: nothing on stderr" "$(cat "$T/e.err")" ""
PE='^perf-prof: perfeval cpus\(0\): sampled [0-9]+ events matched [0-9]+ on [01] instances per second; [0-9]+ records, [0-9]+ bytes, [0-9.]+ ms handling them( \([0-9.]+ us each\))? in the last [0-9.]+ s$'
check "--perfeval-cpus: at least an interval's line and the end's" \
	test "$(grep -cE "$PE" "$T/e.out")" -ge 2
check_eq "--perfeval-cpus: no other perfeval line" \
	"$(grep 'perfeval' "$T/e.out" | grep -cvE "$PE")" 0
check_eq "--perfeval-cpus: its records = the 5000 events printed" \
	"$(awk '/perfeval cpus/ { for (i = 1; i <= NF; i++) if ($i == "records,") s += $(i - 1) }
		END { print s + 0 }' "$T/e.out")" "$(events "$T/e.out")"
check_eq "--perfeval-cpus: 5000 events" "$(events "$T/e.out")" 5000
check "--perfeval-cpus: the end's line after the last event" \
	awk '/sys_enter/ { last = NR } /perfeval/ { p = NR } END { exit !(p > last) }' "$T/e.out"

# --- --json: objects of type perfeval ---
"$PP" trace --json -e "$EV" --perfeval-cpus 0 --cpus 0 -- taskset -c 0 "$T/$GP" 1500 \
	>"$T/ej.out" 2>"$T/ej.err"
check_eq "--json --perfeval-cpus 0: exit 0" $? 0
check_eq "--json --perfeval-cpus: one perfeval object at the end" \
	"$(grep -c '^{"type":"perfeval","scope":"end","list":"cpus","cpus":"0",' "$T/ej.out")" 1
check_eq "--json --perfeval-cpus: its records" \
	"$(grep '"type":"perfeval"' "$T/ej.out" | grep -o '"records":[0-9]*' | cut -d: -f2)" 1500

# --- --perfeval-pids: the process's samples, another pid's none ---
mkfifo "$T/go"
exec 9<>"$T/go"
"$T/$GP" 4000 0 --wait <&9 >"$T/gp.out" &
gpid=$!
for i in $(seq 100); do grep -q '^ready' "$T/gp.out" && break; sleep 0.1; done
rm -f "$T/p.err" # not an earlier run's "monitoring"
"$PP" trace -e "$EV" --pids "$gpid" --perfeval-pids "$gpid" -i 500 -v >"$T/p.out" 2>"$T/p.err" &
pp=$!
for i in $(seq 600); do
	grep -q '^perf-prof: monitoring' "$T/p.err" && break
	kill -0 $pp 2>/dev/null || break
	sleep 0.1
done
echo go >&9
wait $gpid
wait $pp
check_eq "trace --pids P --perfeval-pids P: exit 0" $? 0
exec 9>&-
check_eq "--perfeval-pids: its records = the 4000 events printed" \
	"$(awk '/perfeval pids/ { for (i = 1; i <= NF; i++) if ($i == "records,") s += $(i - 1) }
		END { print s + 0 }' "$T/p.out")" 4000
check_eq "--perfeval-pids: 4000 events" "$(events "$T/p.out")" 4000
check "--perfeval-pids: the list as given" grep -q "^perf-prof: perfeval pids($gpid): " "$T/p.out"

"$PP" trace -e "$EV" --perfeval-pids 1 -- "$T/$GP" 500 >"$T/o.out" 2>"$T/o.err"
check_eq "--perfeval-pids 1: exit 0" $? 0
check "--perfeval-pids 1: no record of pid 1 among the workload's" \
	grep -qE '^perf-prof: perfeval pids\(1\): sampled [0-9]+ events matched 0 on 0 instances per second; 0 records, 0 bytes' "$T/o.out"
check_eq "--perfeval-pids 1: the 500 events" "$(events "$T/o.out")" 500

# --- -h lists them ---
for o in sampling-limit perfeval-cpus perfeval-pids; do
	check "trace -h lists --$o" grep -q -- "--$o " <("$PP" trace -h 2>&1)
done

# --- malformed values: one line, status 2, nothing run ---
refused() {
	local label=$1 want=$2
	shift 2
	rm -f "$T/ran"
	"$PP" trace -e sched:sched_switch "$@" -- sh -c "touch $T/ran" >"$T/b.out" 2>"$T/b.err"
	check_eq "$label: status 2" $? 2
	check_eq "$label: the line" "$(cat "$T/b.err")" "$want"
	check_eq "$label: nothing on stdout" "$(cat "$T/b.out")" ""
	check "$label: nothing run" test ! -e "$T/ran"
}
NC=$(($(getconf _NPROCESSORS_CONF) - 1))
refused "--sampling-limit abc" \
	"perf-prof trace: bad --sampling-limit 'abc' (samples a second per CPU or thread, 0..100000000)" \
	--sampling-limit abc
refused "--sampling-limit -1" \
	"perf-prof trace: bad --sampling-limit '-1' (samples a second per CPU or thread, 0..100000000)" \
	--sampling-limit -1
refused "--sampling-limit 1e9" \
	"perf-prof trace: bad --sampling-limit '1e9' (samples a second per CPU or thread, 0..100000000)" \
	--sampling-limit 1e9
refused "--perfeval-cpus abc" \
	"perf-prof trace: bad --perfeval-cpus list 'abc' (e.g. 0-3,5; this host has CPUs 0-$NC)" \
	--perfeval-cpus abc
refused "--perfeval-cpus 9999" \
	"perf-prof trace: bad --perfeval-cpus list '9999' (e.g. 0-3,5; this host has CPUs 0-$NC)" \
	--perfeval-cpus 9999
refused "--perfeval-cpus 0,,1" "perf-prof trace: bad --perfeval-cpus list '0,,1': empty item at offset 2" \
	--perfeval-cpus 0,,1
refused "--perfeval-pids x" \
	"perf-prof trace: bad --perfeval-pids 'x' in 'x' (expected numbers like 1234,5678)" \
	--perfeval-pids x
refused "--perfeval-pids 0" \
	"perf-prof trace: bad --perfeval-pids '0' in '0' (expected numbers like 1234,5678)" \
	--perfeval-pids 0
refused "--perfeval-pids 1," \
	"perf-prof trace: bad --perfeval-pids list '1,': empty item at offset 2 (a trailing comma)" \
	--perfeval-pids 1,

done_tests
